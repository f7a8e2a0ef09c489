/* COO assembly of an ELL-WARP matrix on the device (CUB): the twin of ellwarp_coo_host.c, identical output. See
   include/petscwarp/private/ellwarpcookernels.h. */
#include <petscwarp/private/ellwarpcookernels.h>
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <climits>
#include <cstdlib>
#include <cstring>

typedef unsigned long long Key;

namespace
{
/* Device buffers of one symbolic step, freed on every exit */
struct Scratch {
  Key  *key[2] = {nullptr, nullptr}; /* keys before and after the sort; key[0] then holds head[] and q[] */
  int  *pos    = nullptr;            /* 0..n-1 before the sort; then the row of each nonzero */
  Key  *bad    = nullptr;            /* [2]: largest bad row + 1, largest bad column + 1 (0: none); [2] as int: nvalid */
  void *tmp    = nullptr;            /* CUB's temporary storage */
  ~Scratch()
  {
    cudaFree(key[0]);
    cudaFree(key[1]);
    cudaFree(pos);
    cudaFree(bad);
    cudaFree(tmp);
  }
};

template <typename I>
__global__ void Keys(int n, const I *__restrict__ ci, const I *__restrict__ cj, int nrows, int ncols, Key S, Key *__restrict__ key, int *__restrict__ pos, Key *__restrict__ bad)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; /* n may be close to 2^31 */
  if (k >= n) return;
  long long r = (long long)ci[k], c = (long long)cj[k];
  Key       a = S;
  if (r >= 0 && c >= 0) {
    if (r >= nrows) atomicMax(&bad[0], (Key)r + 1);
    else if (c >= ncols) atomicMax(&bad[1], (Key)c + 1);
    else a = (Key)r * (Key)ncols + (Key)c;
  }
  key[k] = a;
  pos[k] = (int)k;
}

/* head[k] = 1 at the first sorted entry of each nonzero; *nvalid = the number of kept entries (they sort first) */
__global__ void Heads(int n, const Key *__restrict__ key, Key S, int *__restrict__ head, int *__restrict__ nvalid)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; /* n may be close to 2^31 */
  if (k >= n) return;
  Key a   = key[k];
  head[k] = a < S && (k == 0 || key[k - 1] != a);
  if (a < S && (k == n - 1 || key[k + 1] >= S)) *nvalid = (int)(k + 1);
}

/* Nonzero u = q[k] - 1 starts at sorted position k: its jmap, column and row */
__global__ void Unique(int n, const Key *__restrict__ key, const int *__restrict__ head, const int *__restrict__ q, int ncols, int *__restrict__ jmap, int *__restrict__ colidx, int *__restrict__ rowof)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n || !head[k]) return;
  int u     = q[k] - 1;
  jmap[u]   = (int)k;
  colidx[u] = (int)(key[k] % (Key)ncols);
  rowof[u]  = (int)(key[k] / (Key)ncols);
}

/* rowptr[r] = the number of nonzeros in rows before r (a search in the sorted rows), r <= nrows */
__global__ void RowPtr(int nrows, int nnz, const int *__restrict__ rowof, int *__restrict__ rowptr)
{
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r > nrows) return;
  int lo = 0, hi = nnz;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (rowof[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  rowptr[r] = lo;
}

__global__ void Pos2Slot(int nslots, const int *__restrict__ map, int *__restrict__ pos2slot)
{
  long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nslots && map[s] >= 0) pos2slot[map[s]] = (int)s;
}

/* One thread per nonzero: the sum of its entries, in increasing COO order, into its slot */
__global__ void SetValues(int nnz, const int *__restrict__ jmap, const int *__restrict__ perm, const int *__restrict__ slot, const double *__restrict__ v, int add, double *__restrict__ val)
{
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  double sum = 0.0;
  if (v)
    for (int p = jmap[k]; p < jmap[k + 1]; p++) sum += v[perm[p]];
  double *t = val + (slot ? slot[k] : (int)k);
  *t        = (add ? *t : 0.0) + sum;
}

int Blocks(long long n)
{
  return (int)((n + 255) / 256);
}

int KeyBits(Key S)
{
  int b = 1;
  while (b < 64 && (S >> b)) b++;
  return b;
}
} // namespace

static cudaError_t Alloc(void **p, size_t bytes)
{
  return cudaMalloc(p, bytes ? bytes : 1);
}

extern "C" int PetscWarpCOOFreeCUDA(PetscWarpCOO *C, int what)
{
  cudaError_t err = cudaSuccess, e;
  if (what & PETSCWARP_COO_PATTERN) {
    if (C->rowptr && (e = cudaFree(C->rowptr)) != cudaSuccess) err = e;
    if (C->colidx && (e = cudaFree(C->colidx)) != cudaSuccess) err = e;
    C->rowptr = C->colidx = nullptr;
  }
  if (what & PETSCWARP_COO_MAPS) {
    if (C->jmap && (e = cudaFree(C->jmap)) != cudaSuccess) err = e;
    if (C->perm && (e = cudaFree(C->perm)) != cudaSuccess) err = e;
    C->jmap = C->perm = nullptr;
  }
  return (int)err;
}

#define TRY(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      PetscWarpCOOFreeCUDA(C, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS); \
      return (int)e_; \
    } \
  } while (0)

extern "C" int PetscWarpCOOBuildCUDA(int nrows, int ncols, long long ncoo, const void *d_coo_i, const void *d_coo_j, int idxbytes, void *stream, PetscWarpCOO *C)
{
  cudaStream_t st = (cudaStream_t)stream;
  Key          S = (Key)nrows * (Key)ncols, hbad[2] = {0, 0};
  int          n, nvalid = 0, nnz = 0, *head = nullptr, *q = nullptr;
  size_t       tsort = 0, tscan = 0;
  Scratch      T;

  memset(C, 0, sizeof(*C));
  C->nrows  = nrows;
  C->ncols  = ncols;
  C->ncoo   = ncoo;
  C->badrow = C->badcol = -1;
  if (ncoo < 0 || ncoo > INT_MAX) return (int)cudaErrorInvalidValue;
  n = (int)ncoo;
  TRY(Alloc((void **)&T.bad, 3 * sizeof(Key)));
  TRY(cudaMemsetAsync(T.bad, 0, 3 * sizeof(Key), st));
  if (n) {
    TRY(Alloc((void **)&T.key[0], sizeof(Key) * (size_t)n));
    TRY(Alloc((void **)&T.key[1], sizeof(Key) * (size_t)n));
    TRY(Alloc((void **)&T.pos, sizeof(int) * (size_t)n));
    TRY(Alloc((void **)&C->perm, sizeof(int) * (size_t)n));
    if (idxbytes == 8) Keys<<<Blocks(n), 256, 0, st>>>(n, (const long long *)d_coo_i, (const long long *)d_coo_j, nrows, ncols, S, T.key[0], T.pos, T.bad);
    else Keys<<<Blocks(n), 256, 0, st>>>(n, (const int *)d_coo_i, (const int *)d_coo_j, nrows, ncols, S, T.key[0], T.pos, T.bad);
    TRY(cudaGetLastError());
    TRY(cudaMemcpyAsync(hbad, T.bad, sizeof(hbad), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    if (hbad[0] || hbad[1]) {
      C->badrow = (long long)hbad[0] - 1;
      C->badcol = hbad[0] ? -1 : (long long)hbad[1] - 1;
      PetscWarpCOOFreeCUDA(C, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS);
      return 0;
    }
    head = (int *)T.key[0]; /* the unsorted keys are not needed after the sort */
    q    = head + n;
    TRY(cub::DeviceRadixSort::SortPairs(nullptr, tsort, T.key[0], T.key[1], T.pos, C->perm, n, 0, KeyBits(S), st));
    TRY(cub::DeviceScan::InclusiveSum(nullptr, tscan, head, q, n, st));
    TRY(Alloc(&T.tmp, tsort > tscan ? tsort : tscan));
    TRY(cub::DeviceRadixSort::SortPairs(T.tmp, tsort, T.key[0], T.key[1], T.pos, C->perm, n, 0, KeyBits(S), st));
    Heads<<<Blocks(n), 256, 0, st>>>(n, T.key[1], S, head, (int *)(T.bad + 2));
    TRY(cudaGetLastError());
    TRY(cub::DeviceScan::InclusiveSum(T.tmp, tscan, head, q, n, st));
    TRY(cudaMemcpyAsync(&nvalid, T.bad + 2, sizeof(int), cudaMemcpyDeviceToHost, st));
    TRY(cudaMemcpyAsync(&nnz, q + n - 1, sizeof(int), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
  } else TRY(Alloc((void **)&C->perm, sizeof(int)));
  C->nvalid = nvalid;
  C->nnz    = nnz;
  TRY(Alloc((void **)&C->rowptr, sizeof(int) * ((size_t)nrows + 1)));
  TRY(Alloc((void **)&C->colidx, sizeof(int) * (size_t)nnz));
  TRY(Alloc((void **)&C->jmap, sizeof(int) * ((size_t)nnz + 1)));
  if (nnz) {
    Unique<<<Blocks(n), 256, 0, st>>>(n, T.key[1], head, q, ncols, C->jmap, C->colidx, T.pos);
    TRY(cudaGetLastError());
  }
  TRY(cudaMemcpyAsync(C->jmap + nnz, &nvalid, sizeof(int), cudaMemcpyHostToDevice, st));
  RowPtr<<<Blocks((long long)nrows + 1), 256, 0, st>>>(nrows, nnz, T.pos, C->rowptr);
  TRY(cudaGetLastError());
  TRY(cudaStreamSynchronize(st));
  return 0;
}

extern "C" int PetscWarpCOOMapsToDeviceCUDA(const PetscWarpCOO *h, PetscWarpCOO *d)
{
  PetscWarpCOO *C = d;
  *d              = *h;
  d->rowptr = d->colidx = d->jmap = d->perm = nullptr;
  TRY(Alloc((void **)&d->jmap, sizeof(int) * ((size_t)h->nnz + 1)));
  TRY(Alloc((void **)&d->perm, sizeof(int) * (size_t)h->nvalid));
  TRY(cudaMemcpy(d->jmap, h->jmap, sizeof(int) * ((size_t)h->nnz + 1), cudaMemcpyHostToDevice));
  TRY(cudaMemcpy(d->perm, h->perm, sizeof(int) * (size_t)h->nvalid, cudaMemcpyHostToDevice));
  return 0;
}

extern "C" int PetscWarpCOOMapsToHostCUDA(const PetscWarpCOO *d, PetscWarpCOO *h)
{
  cudaError_t e;
  *h        = *d;
  h->rowptr = h->colidx = nullptr;
  h->jmap               = (int *)malloc(sizeof(int) * ((size_t)d->nnz + 1));
  h->perm               = (int *)malloc(sizeof(int) * (size_t)(d->nvalid ? d->nvalid : 1));
  if (!h->jmap || !h->perm) {
    PetscWarpCOOFreeHost(h, PETSCWARP_COO_MAPS);
    return (int)cudaErrorMemoryAllocation;
  }
  if ((e = cudaMemcpy(h->jmap, d->jmap, sizeof(int) * ((size_t)d->nnz + 1), cudaMemcpyDeviceToHost)) == cudaSuccess) e = cudaMemcpy(h->perm, d->perm, sizeof(int) * (size_t)d->nvalid, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) PetscWarpCOOFreeHost(h, PETSCWARP_COO_MAPS);
  return (int)e;
}

extern "C" int PetscWarpEllPos2SlotCUDA(const PetscWarpEll *E, int *d_pos2slot, void *stream)
{
  if (E->nslots) Pos2Slot<<<Blocks(E->nslots), 256, 0, (cudaStream_t)stream>>>(E->nslots, E->map, d_pos2slot);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpCOOSetValuesCUDA(int nnz, const int *d_jmap, const int *d_perm, const int *d_slot, const double *d_v, int add, double *d_val, void *stream)
{
  if (nnz) SetValues<<<Blocks(nnz), 256, 0, (cudaStream_t)stream>>>(nnz, d_jmap, d_perm, d_slot, d_v, add, d_val);
  return (int)cudaGetLastError();
}
