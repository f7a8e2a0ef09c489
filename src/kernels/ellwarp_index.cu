/* Compact column indices of the ELL-WARP layout on the device (issue 9): the blocked layout (one column index per unit
   of u consecutive columns) and 16-bit offsets per warp. Twin of ellwarp_index_host.c, bit-identical output. */
#include <petscwarp/private/ellwarpkernels.h>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <climits>
#include <cstring>
#include <new>

namespace
{
/* *bad = 1 where a row is not made of whole units (one thread per row) */
__global__ void BlockedRows(int nrows, int u, const int *__restrict__ rowptr, const int *__restrict__ colidx, int *__restrict__ bad)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nrows) return;
  int p = rowptr[i], len = rowptr[i + 1] - p;
  if (p % u || len % u) {
    *bad = 1;
    return;
  }
  for (int b = 0; b < len; b += u)
    if (colidx[p + b] % u || colidx[p + b + u - 1] != colidx[p + b] + u - 1) {
      *bad = 1;
      return;
    }
}

/* The compressed pattern: rb[i] = rowptr[i] / u, cb[k] = colidx[u k] / u for k in [rowptr[0] / u, nb) */
__global__ void Compress(int nrows, int k0, int nb, int u, const int *__restrict__ rowptr, const int *__restrict__ colidx, int *__restrict__ rb, int *__restrict__ cb)
{
  long long n = (long long)(nrows + 1) > (long long)nb ? nrows + 1 : nb;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    if (i <= nrows) rb[i] = rowptr[i] / u;
    if (i >= k0 && i < nb) cb[i] = colidx[(long long)u * i] / u;
  }
}

/* One CUDA warp per ELL warp: the sort keys of its slots, warp << 32 | unit column (padding: | 0xffffffff, last) */
__global__ void WarpKeys(int nwarps, const int *__restrict__ woff, const int *__restrict__ col, const int *__restrict__ map, unsigned long long *__restrict__ key)
{
  long long gt = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int       w = (int)(gt >> 5), lane = (int)(gt & 31);
  if (w >= nwarps) return;
  for (int s = woff[w] + lane; s < woff[w + 1]; s += PETSCWARP_WARP) key[s] = ((unsigned long long)w << 32) | (map[s] >= 0 ? (unsigned)col[s] : 0xffffffffu);
}

/* The entries of a warp's sorted keys (its padding keys are last) */
__device__ int WarpEntries(const unsigned long long *key, int n)
{
  while (n > 0 && (key[n - 1] & 0xffffffffULL) == 0xffffffffULL) n--;
  return n;
}

/* One thread per ELL warp: its clusters (start: 32 per warp), mode and index length */
__global__ void WarpClusters(int nwarps, int narrow, const int *__restrict__ woff, const int *__restrict__ col, const unsigned long long *__restrict__ key, int *__restrict__ start, int *__restrict__ wmode, long long *__restrict__ isize, int *__restrict__ nnarrow)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x, nb = 0;
  if (w >= nwarps) return;
  int slots = woff[w + 1] - woff[w], sb = narrow ? PetscWarpEllClusters(key + woff[w], WarpEntries(key + woff[w], slots), &nb, start + 32LL * w) : -1;
  int mode = narrow ? PetscWarpEllMode(sb, nb, col, woff[w], woff[w + 1], start + 32LL * w) : PETSCWARP_MODE_WIDE; /* hybrid: start holds the buckets */
  wmode[w] = mode;
  isize[w] = PetscWarpEllStreamLength(mode, slots);
  if (mode != PETSCWARP_MODE_WIDE) atomicAdd(nnarrow, 1);
}

/* One CUDA warp per ELL warp: its index stream (start of the stream: the scanned lengths) */
__global__ void CompactFill(int nwarps, const int *__restrict__ woff, const int *__restrict__ col, const int *__restrict__ map, const int *__restrict__ wmode, const int *__restrict__ start, const long long *__restrict__ sstart, int *__restrict__ ioff, unsigned short *__restrict__ cidx)
{
  long long gt = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int       w = (int)(gt >> 5), lane = (int)(gt & 31);
  if (w >= nwarps) return;
  int             io = (int)sstart[w], mode = wmode[w], sb = mode & 255, hybrid = mode < PETSCWARP_MODE_WIDE, nb = mode >= 0 ? mode >> 8 : hybrid ? -2 - mode : 0;
  const int      *st = start + 32LL * w; /* cluster starts, or jump buckets (hybrid) */
  unsigned short *ci = cidx + io;
  if (lane == 0) ioff[w] = io;
  if (lane < nb) reinterpret_cast<int *>(ci)[lane] = hybrid ? st[lane] << 10 : st[lane]; /* little-endian: the host twin's (low, high) pair */
  ci += 2 * nb;
  for (int s = woff[w] + lane, k = lane; s < woff[w + 1]; s += PETSCWARP_WARP, k += PETSCWARP_WARP) {
    if (mode >= 0) ci[k] = map[s] >= 0 ? PetscWarpEllCode(st, nb, sb, col[s]) : 0;
    else if (hybrid) ci[k] = PetscWarpEllHybridCode(st, nb, k < PETSCWARP_WARP ? 0 : col[s - PETSCWARP_WARP], col[s]);
    else reinterpret_cast<int *>(ci)[k] = col[s];
  }
}

/* One thread per unit slot of the layout over units: its u value slots (columns, CSR positions, diagonal) */
__global__ void ExpandSlots(int nslots, int nwarps, int u, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ perm, const int *__restrict__ bcol, const int *__restrict__ bmap, int *__restrict__ col, int *__restrict__ map, int *__restrict__ diag)
{
  int bs = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs >= nslots) return;
  int lo = 0, hi = nwarps - 1; /* the last warp starting at or before bs */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (woff[mid] <= bs) lo = mid;
    else hi = mid - 1;
  }
  int w = lo, rel = bs - woff[w], kb = rel / PETSCWARP_WARP, t = rel % PETSCWARP_WARP, l = winfo[w] & 255, nr = (winfo[w] >> 8) & 255, r = t >> l;
  int row = r < nr ? perm[wrow[w] + r] : -1, c = bcol[bs], m = bmap[bs];
  for (int j = 0; j < u; j++) {
    int v  = u * woff[w] + PETSCWARP_WARP * (kb * u + j) + t;
    col[v] = u * c + j;
    map[v] = m >= 0 ? u * m + j : -1;
    if (m >= 0 && u * c + j == row) diag[row] = v;
  }
}

__global__ void ScaleOffsets(int n, int u, const int *__restrict__ in, int *__restrict__ out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = u * in[i];
}

cudaError_t Alloc(void **p, size_t bytes)
{
  return cudaMalloc(p, bytes ? bytes : 1);
}

int Blocks(long long threads, int bs)
{
  long long b = (threads + bs - 1) / bs;
  return (int)(b > 0 ? b : 1);
}

/* Temporaries, freed on every exit */
struct Tmp {
  void *p[3] = {nullptr, nullptr, nullptr};
  ~Tmp()
  {
    for (void *q : p) cudaFree(q);
  }
};

#define CHECK(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) return (int)e_; \
  } while (0)

/* The compact index of a layout over units (B: col, map and woff in unit slots; see ellwarp_index_host.c) */
int Compact(PetscWarpEll *B, int narrow, cudaStream_t st)
{
  Tmp                 T;
  int                 nw = B->nwarps, counts = 0, *d_n, *start;
  long long           total = 0, *isize;
  unsigned long long *key;

  CHECK(Alloc((void **)&B->wmode, sizeof(int) * 2 * (size_t)nw));
  B->ioff = B->wmode + nw;
  CHECK(Alloc(&T.p[0], sizeof(long long) * ((size_t)nw + 2)));
  CHECK(Alloc(&T.p[1], sizeof(unsigned long long) * (size_t)B->nslots));
  CHECK(Alloc(&T.p[2], sizeof(int) * 32 * (size_t)nw));
  isize = (long long *)T.p[0];
  d_n   = (int *)(isize + nw + 1);
  key   = (unsigned long long *)T.p[1];
  start = (int *)T.p[2];
  CHECK(cudaMemsetAsync(isize + nw, 0, 2 * sizeof(long long), st));
  if (nw) {
    WarpKeys<<<Blocks(32LL * nw, 128), 128, 0, st>>>(nw, B->woff, B->col, B->map, key);
    CHECK(cudaGetLastError());
    try {
      thrust::device_ptr<unsigned long long> K(key);
      thrust::device_ptr<long long>          S(isize);
      thrust::sort(thrust::cuda::par.on(st), K, K + B->nslots);
      WarpClusters<<<Blocks(nw, 128), 128, 0, st>>>(nw, narrow, B->woff, B->col, key, start, B->wmode, isize, d_n);
      CHECK(cudaGetLastError());
      thrust::exclusive_scan(thrust::cuda::par.on(st), S, S + nw + 1, S, 0LL);
    } catch (std::bad_alloc &) {
      return (int)cudaErrorMemoryAllocation;
    } catch (...) {
      return (int)cudaErrorUnknown;
    }
  }
  CHECK(cudaMemcpyAsync(&total, isize + nw, sizeof(long long), cudaMemcpyDeviceToHost, st));
  CHECK(cudaMemcpyAsync(&counts, d_n, sizeof(int), cudaMemcpyDeviceToHost, st));
  CHECK(cudaStreamSynchronize(st));
  if (total > INT_MAX) return (int)cudaErrorInvalidValue;
  B->ncidx   = (int)total;
  B->nnarrow = counts;
  CHECK(Alloc((void **)&B->cidx, sizeof(unsigned short) * (size_t)total));
  if (nw) {
    CompactFill<<<Blocks(32LL * nw, 128), 128, 0, st>>>(nw, B->woff, B->col, B->map, B->wmode, start, isize, B->ioff, B->cidx);
    CHECK(cudaGetLastError());
  }
  return (int)cudaStreamSynchronize(st);
}

/* The layout B over units into value slots (see ellwarp_index_host.c, ExpandHost()) */
int Expand(PetscWarpEll *B, int u, int ncols, cudaStream_t st, PetscWarpEll *E)
{
  long long ns = (long long)u * B->nslots;
  Tmp       T; /* the new arrays until they are E's */
  int      *col, *woff;

  if (ns > INT_MAX) return (int)cudaErrorInvalidValue;
  CHECK(Alloc(&T.p[0], (2 * sizeof(int) + sizeof(double)) * (size_t)ns)); /* col, map, val */
  CHECK(Alloc(&T.p[1], sizeof(int) * ((size_t)B->nwarps + 1)));
  col  = (int *)T.p[0];
  woff = (int *)T.p[1];
  CHECK(cudaMemsetAsync(col + 2 * ns, 0, sizeof(double) * (size_t)ns, st));
  CHECK(cudaMemsetAsync(B->diag, 0xff, sizeof(int) * (size_t)B->nrows, st));
  if (B->nslots) {
    ExpandSlots<<<Blocks(B->nslots, 128), 128, 0, st>>>(B->nslots, B->nwarps, u, B->woff, B->wrow, B->winfo, B->perm, B->col, B->map, col, col + ns, B->diag);
    CHECK(cudaGetLastError());
  }
  ScaleOffsets<<<Blocks(B->nwarps + 1, 256), 256, 0, st>>>(B->nwarps + 1, u, B->woff, woff);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(st));
  cudaError_t e1 = cudaFree(B->col), e2 = cudaFree(B->woff); /* B's col, map and val; its offsets in units */
  B->col = B->map = B->woff = NULL;
  B->val                    = NULL;
  CHECK(e1);
  CHECK(e2);
  PetscWarpEllExpandScalars(E, B, u, ncols);
  E->col  = col;
  E->map  = col + ns;
  E->val  = (double *)(col + 2 * ns);
  E->woff = woff;
  T.p[0] = T.p[1] = nullptr;
  memset(B, 0, sizeof(*B));
  return 0;
}
} // namespace

extern "C" int PetscWarpEllBlockedCUDA(int nrows, const int *d_rowptr, const int *d_colidx, int unit, void *stream, int *blocked)
{
  cudaStream_t st  = (cudaStream_t)stream;
  int          bad = 0, *d_bad;
  Tmp          T;

  *blocked = 0;
  if (unit < 1 || unit > PETSCWARP_MAX_UNIT) return 0;
  CHECK(Alloc(&T.p[0], sizeof(int)));
  d_bad = (int *)T.p[0];
  CHECK(cudaMemsetAsync(d_bad, 0, sizeof(int), st));
  if (nrows) {
    BlockedRows<<<Blocks(nrows, 256), 256, 0, st>>>(nrows, unit, d_rowptr, d_colidx, d_bad);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemcpyAsync(&bad, d_bad, sizeof(int), cudaMemcpyDeviceToHost, st));
  CHECK(cudaStreamSynchronize(st));
  *blocked = !bad;
  return 0;
}

extern "C" int PetscWarpEllDropIndexCUDA(PetscWarpEll *E)
{
  cudaError_t e1 = E->wmode ? cudaFree(E->wmode) : cudaSuccess, e2 = E->cidx ? cudaFree(E->cidx) : cudaSuccess;
  E->wmode = E->ioff = NULL;
  E->cidx            = NULL;
  E->ncidx = E->nnarrow = 0;
  return (int)(e1 != cudaSuccess ? e1 : e2);
}

extern "C" int PetscWarpEllBuildIndexCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, int window, int unit, int narrow, void *stream, PetscWarpEll *E)
{
  cudaStream_t st = (cudaStream_t)stream;
  int          u = unit < 1 ? 1 : unit, err, ends[2] = {0, 0}, nb;
  PetscWarpEll B;

  if (u == 1 && !narrow) return PetscWarpEllBuildWindowCUDA(nrows, ncols, d_rowptr, d_colidx, d_order, threshold, window, stream, E);
  if (u == 1) {
    err = PetscWarpEllBuildWindowCUDA(nrows, ncols, d_rowptr, d_colidx, d_order, threshold, window, stream, E);
    if (!err) err = Compact(E, narrow, st);
    if (err) PetscWarpEllFreeCUDA(E);
    return err;
  }
  memset(E, 0, sizeof(*E));
  if (u > PETSCWARP_MAX_UNIT) return (int)cudaErrorInvalidValue;
  {
    Tmp T; /* the compressed pattern */
    CHECK(cudaMemcpyAsync(&ends[0], d_rowptr, sizeof(int), cudaMemcpyDeviceToHost, st));
    CHECK(cudaMemcpyAsync(&ends[1], d_rowptr + nrows, sizeof(int), cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    nb = ends[1] / u;
    CHECK(Alloc(&T.p[0], sizeof(int) * ((size_t)nrows + 1)));
    CHECK(Alloc(&T.p[1], sizeof(int) * (size_t)nb));
    int grid = Blocks(nrows + 1 > nb ? nrows + 1 : nb, 256);
    if (grid > 65536) grid = 65536;
    Compress<<<grid, 256, 0, st>>>(nrows, ends[0] / u, nb, u, d_rowptr, d_colidx, (int *)T.p[0], (int *)T.p[1]);
    CHECK(cudaGetLastError());
    err = PetscWarpEllBuildWindowCUDA(nrows, (ncols + u - 1) / u, (const int *)T.p[0], (const int *)T.p[1], d_order, threshold > 0 ? (threshold + u - 1) / u : 0, window, stream, &B);
    if (err) return err;
  }
  err = Compact(&B, narrow, st);
  if (!err) err = Expand(&B, u, ncols, st, E);
  if (err) {
    PetscWarpEllFreeCUDA(&B);
    PetscWarpEllFreeCUDA(E);
  }
  return err;
}
