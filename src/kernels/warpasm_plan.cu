/*
  Assembly plans built on the device, bitwise the host's arrays (src/mat/assembly/warpasmplan.c), whose passes over
  the 13-103 M element entries of a 0.5 M-row hexahedral plan took 0.1-0.3 s (slots) and 0.2-1.1 s (globalnz
  reduction array) on the GPU machine's host.

  Pattern (symbolic assembly): a 64-bit key row*ncols + col per element entry and per diagonal entry, sorted and made
  unique (Thrust's radix sort), then counted by row: the CSR of the host's PetscWarpPlanPattern().

  Slots: one thread per element entry (cell, i, j) finds column e2d[cell, j] in row e2d[cell, i] of the CSR pattern by
  binary search (rows sorted: checked first, else the caller uses the host) and maps the position through pos2slot.

  The globalnz reduction array (PetscWarpRed, warpasmkernels.h) from the slots:
  1. Count: the sources of each target (atomicAdd), the first source whose slot is >= ntargets.
  2. Pack: one CUDA block per reduction block of tpb targets; its lists (sources + the end entry) are LPT-assigned to
     the bs threads by the code the host uses (warpasmlpt.h), in shared memory; each target gets its local place
     row*bs + thr, each block its height.
  3. Offsets: an exclusive scan of the blocks' heights times bs; the places become global.
  4. Fill: each source claims the next place of its target (atomicAdd on the place, + bs), then one thread per target
     sorts its list into increasing source order (the host's order: sources are written in increasing order) and writes
     the end entry.
*/
#include <petscwarp/private/warpasmkernels.h>
#include <petscwarp/private/warpasmlpt.h>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <climits>
#include <new>

namespace
{
constexpr int PACK_THREADS = 32;

__global__ void Count(long long nsrc, const int *__restrict__ slot, int ntargets, int *__restrict__ cnt, unsigned long long *__restrict__ bad)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const int t = slot[s];

    if (t < 0) continue;
    if (t >= ntargets) atomicMin(bad, (unsigned long long)s);
    else atomicAdd(&cnt[t], 1);
  }
}

/* Block b: LPT of the lists of targets [b*tpb, ...) (lengths cnt + 1) by thread 0; pos[t] = row*bs + thr (local),
   hgt[b] = height*bs. Shared: len, order, thr, row [tpb], bh, bt [nbk], next [bs] */
__global__ void __launch_bounds__(PACK_THREADS) Pack(int ntargets, int bs, int tpb, int nbk, const int *__restrict__ cnt, int *__restrict__ pos, long long *__restrict__ hgt)
{
  extern __shared__ int sm[];
  int                  *len = sm, *order = len + tpb, *thr = order + tpb, *row = thr + tpb, *bh = row + tpb, *bt = bh + nbk, *next = bt + nbk;
  const int             t0 = blockIdx.x * tpb, n = min(tpb, ntargets - t0);

  for (int l = threadIdx.x; l < n; l += blockDim.x) len[l] = cnt[t0 + l] + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int       maxlen = 0, h;
    long long total  = 0;

    for (int l = 0; l < n; l++) {
      maxlen = max(maxlen, len[l]);
      total += len[l];
    }
    PwaLptHist(n, len, maxlen, bh);
    PwaLptOrder(n, len, maxlen, bh, order);
    h               = PwaLptQueue(n, bs, maxlen, (int)PwaLptBuckets(n, bs, total, maxlen), len, order, bh, bt, next, thr, row);
    hgt[blockIdx.x] = (long long)h * bs;
  }
  __syncthreads();
  for (int l = threadIdx.x; l < n; l += blockDim.x) pos[t0 + l] = (int)((long long)row[l] * bs + thr[l]);
}

__global__ void Place(int ntargets, int tpb, const long long *__restrict__ off64, int *__restrict__ pos, int *__restrict__ off, int nblocks)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t < ntargets) pos[t] += (int)off64[t / tpb];
  if (t <= nblocks) off[t] = (int)off64[t];
}

__global__ void Fill(long long nsrc, const int *__restrict__ slot, int bs, int *__restrict__ pos, int *__restrict__ ent)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const int t = slot[s];

    if (t >= 0) ent[atomicAdd(&pos[t], bs)] = (int)(s + 1);
  }
}

/* Target t's list into increasing order (insertion sort, stride bs), then its end entry */
__global__ void SortClose(int ntargets, int bs, const int *__restrict__ cnt, const int *__restrict__ pos, int *__restrict__ ent)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t >= ntargets) return;
  const int end = pos[t], c = cnt[t];
  int      *e = ent + (end - c * bs);

  for (int i = 1; i < c; i++) {
    const int v = e[i * bs];
    int       j = i - 1;

    while (j >= 0 && e[j * bs] > v) {
      e[(j + 1) * bs] = e[j * bs];
      j--;
    }
    e[(j + 1) * bs] = v;
  }
  ent[end] = -(t + 1);
}

/* Pattern rows sorted, strictly increasing, columns in [0, ncols): else *bad = 1 */
__global__ void Sorted(int nrows, int ncols, const int *__restrict__ rowptr, const int *__restrict__ colidx, int *__restrict__ bad)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;

  if (r >= nrows) return;
  for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
    if (colidx[k] < 0 || colidx[k] >= ncols || (k > rowptr[r] && colidx[k - 1] >= colidx[k])) {
      *bad = 1;
      return;
    }
}

/* Element dof o: an index not below nrows (rows) or ncols (columns) into badidx (the smallest o) */
__global__ void CheckMap(long long n, int lim, const int *__restrict__ e2d, unsigned long long *__restrict__ badidx)
{
  for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x)
    if (e2d[o] >= lim) atomicMin(badidx, (unsigned long long)o);
}

__global__ void Slots(long long nsrc, int nel, const int *__restrict__ e2d, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ pos2slot, int *__restrict__ slot, unsigned long long *__restrict__ missing)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const long long o = s / nel, c = o / nel;
    const int       j = (int)(s - o * nel), r = e2d[o], cj = e2d[c * nel + j];
    int             v = -1;

    if (r >= 0 && cj >= 0) {
      int lo = rowptr[r], hi = rowptr[r + 1] - 1;

      while (lo <= hi) {
        const int mid = (lo + hi) >> 1, cm = colidx[mid];

        if (cm < cj) lo = mid + 1;
        else if (cm > cj) hi = mid - 1;
        else {
          v = pos2slot ? pos2slot[mid] : mid;
          break;
        }
      }
      if (v < 0) atomicMin(missing, (unsigned long long)s);
    }
    slot[s] = v;
  }
}

/* Symbolic pattern: one key row*ncols + col per kept element entry (ULLONG_MAX when dropped), then the diagonal */
__global__ void PatternKeys(long long nsrc, int nel, unsigned long long ncols, const int *__restrict__ e2d, unsigned long long *__restrict__ key)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const long long o = s / nel, c = o / nel;
    const int       j = (int)(s - o * nel), r = e2d[o], cj = e2d[c * nel + j];

    key[s] = r >= 0 && cj >= 0 ? (unsigned long long)r * ncols + (unsigned long long)cj : ULLONG_MAX;
  }
}

__global__ void DiagKeys(int nmin, unsigned long long ncols, unsigned long long *__restrict__ key)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;

  if (r < nmin) key[r] = (unsigned long long)r * ncols + (unsigned long long)r;
}

/* Sorted unique keys [0, n) into row counts (rowcnt[r + 1], zeroed) and column indices */
__global__ void PatternCSR(long long n, unsigned long long ncols, const unsigned long long *__restrict__ key, int *__restrict__ rowcnt, int *__restrict__ colidx)
{
  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n; k += (long long)gridDim.x * blockDim.x) {
    const unsigned long long q = key[k];

    atomicAdd(&rowcnt[q / ncols + 1], 1);
    colidx[k] = (int)(q % ncols);
  }
}

struct Scratch {
  int                *cnt = nullptr, *pos = nullptr;
  long long          *off64 = nullptr;
  unsigned long long *bad   = nullptr;
  ~Scratch()
  {
    cudaFree(cnt);
    cudaFree(pos);
    cudaFree(off64);
    cudaFree(bad);
  }
};

#define TRY(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      cudaFree((void *)red->off); \
      cudaFree((void *)red->ent); \
      red->off = red->ent = nullptr; \
      return (int)e_; \
    } \
  } while (0)

int Grid(long long n, int threads)
{
  long long g = (n + threads - 1) / threads;
  return (int)(g < 1 ? 1 : g > 65535LL * 32 ? 65535LL * 32 : g);
}
} // namespace

int PetscWarpPlanReductionCUDA(long long nsrc, const int *d_slot, int ntargets, int bs, int tpb, PetscWarpRed *red, long long *nent, int *status, long long *bad, void *stream)
{
  cudaStream_t       st = (cudaStream_t)stream;
  Scratch            T;
  const int          nblocks = (ntargets + tpb - 1) / tpb;
  unsigned long long hbad    = ULLONG_MAX;
  int                maxcnt = 0, optin = 0, dev = 0;
  long long          total = 0;
  size_t             smem;

  red->nblocks = nblocks;
  red->bs      = bs;
  red->off = red->ent = nullptr;
  *nent               = 0;
  *status             = PETSCWARP_REDPLAN_OK;
  *bad                = -1;
  TRY(cudaMalloc((void **)&T.cnt, sizeof(int) * ((size_t)ntargets + 1)));
  TRY(cudaMalloc((void **)&T.pos, sizeof(int) * ((size_t)ntargets + 1)));
  TRY(cudaMalloc((void **)&T.off64, sizeof(long long) * ((size_t)nblocks + 1)));
  TRY(cudaMalloc((void **)&T.bad, sizeof(unsigned long long)));
  TRY(cudaMemsetAsync(T.cnt, 0, sizeof(int) * ((size_t)ntargets + 1), st));
  TRY(cudaMemsetAsync(T.off64, 0, sizeof(long long) * ((size_t)nblocks + 1), st)); /* the scan reads the last one too */
  TRY(cudaMemcpyAsync(T.bad, &hbad, sizeof(hbad), cudaMemcpyHostToDevice, st));
  if (nsrc) {
    Count<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, d_slot, ntargets, T.cnt, T.bad);
    TRY(cudaGetLastError());
  }
  try {
    thrust::device_ptr<int> C(T.cnt);
    if (ntargets) maxcnt = thrust::reduce(thrust::cuda::par.on(st), C, C + ntargets, 0, thrust::maximum<int>());
  } catch (std::bad_alloc &) {
    TRY(cudaErrorMemoryAllocation);
  } catch (...) {
    TRY(cudaErrorUnknown);
  }
  TRY(cudaMemcpyAsync(&hbad, T.bad, sizeof(hbad), cudaMemcpyDeviceToHost, st));
  TRY(cudaStreamSynchronize(st));
  if (hbad != ULLONG_MAX) {
    *status = PETSCWARP_REDPLAN_BAD_SLOT;
    *bad    = (long long)hbad;
    return 0;
  }
  {
    const int       gmax = maxcnt + 1, n = tpb < ntargets ? tpb : ntargets;
    const long long nbk = PwaLptBuckets(n, bs, (long long)n * gmax, gmax);

    smem = sizeof(int) * (4 * (size_t)tpb + 2 * (size_t)nbk + (size_t)bs);
    TRY(cudaGetDevice(&dev));
    TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (nbk > INT_MAX || smem > (size_t)optin) {
      *status = PETSCWARP_REDPLAN_TOO_LONG;
      return 0;
    }
    if (smem > 48 * 1024) TRY(cudaFuncSetAttribute(Pack, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (nblocks) {
      Pack<<<nblocks, PACK_THREADS, smem, st>>>(ntargets, bs, tpb, (int)nbk, T.cnt, T.pos, T.off64);
      TRY(cudaGetLastError());
    }
  }
  try {
    thrust::device_ptr<long long> O(T.off64);
    thrust::exclusive_scan(thrust::cuda::par.on(st), O, O + nblocks + 1, O, 0LL);
  } catch (std::bad_alloc &) {
    TRY(cudaErrorMemoryAllocation);
  } catch (...) {
    TRY(cudaErrorUnknown);
  }
  TRY(cudaMemcpyAsync(&total, T.off64 + nblocks, sizeof(total), cudaMemcpyDeviceToHost, st));
  TRY(cudaStreamSynchronize(st));
  if (total >= INT_MAX) {
    *status = PETSCWARP_REDPLAN_TOO_MANY;
    return 0;
  }
  TRY(cudaMalloc((void **)&red->off, sizeof(int) * ((size_t)nblocks + 1)));
  TRY(cudaMalloc((void **)&red->ent, sizeof(int) * ((size_t)total > 0 ? (size_t)total : 1)));
  TRY(cudaMemsetAsync((void *)red->ent, 0, sizeof(int) * (size_t)total, st));
  {
    const int m = (ntargets > nblocks ? ntargets : nblocks) + 1;

    Place<<<(m + 255) / 256, 256, 0, st>>>(ntargets, tpb, T.off64, T.pos, (int *)red->off, nblocks);
    TRY(cudaGetLastError());
  }
  if (nsrc) {
    Fill<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, d_slot, bs, T.pos, (int *)red->ent);
    TRY(cudaGetLastError());
  }
  if (ntargets) {
    SortClose<<<(ntargets + 255) / 256, 256, 0, st>>>(ntargets, bs, T.cnt, T.pos, (int *)red->ent);
    TRY(cudaGetLastError());
  }
  TRY(cudaStreamSynchronize(st)); /* the scratch is freed on return */
  *nent = total;
  return 0;
}

int PetscWarpPlanSlotsCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_pos2slot, int ncells, int nel, const int *d_e2d, int *d_slot, int *status, long long *bad, void *stream)
{
  cudaStream_t       st = (cudaStream_t)stream;
  const long long    ne = (long long)ncells * nel, nsrc = ne * nel;
  const int          lim  = nrows < ncols ? nrows : ncols;
  unsigned long long init = ULLONG_MAX, h[2] = {ULLONG_MAX, ULLONG_MAX}, *d = nullptr;
  int                unsorted = 0;
  cudaError_t        e;

  *status = PETSCWARP_PLANSLOTS_OK;
  *bad    = -1;
  if ((e = cudaMalloc((void **)&d, 3 * sizeof(unsigned long long))) != cudaSuccess) return (int)e;
#define TRYS(call) \
  do { \
    if ((e = (call)) != cudaSuccess) { \
      cudaFree(d); \
      return (int)e; \
    } \
  } while (0)
  TRYS(cudaMemcpyAsync(d, &init, sizeof(init), cudaMemcpyHostToDevice, st));
  TRYS(cudaMemcpyAsync(d + 1, &init, sizeof(init), cudaMemcpyHostToDevice, st));
  TRYS(cudaMemsetAsync(d + 2, 0, sizeof(unsigned long long), st));
  if (nrows) {
    Sorted<<<(nrows + 255) / 256, 256, 0, st>>>(nrows, ncols, d_rowptr, d_colidx, (int *)(d + 2));
    TRYS(cudaGetLastError());
  }
  if (ne) {
    CheckMap<<<Grid(ne, 256), 256, 0, st>>>(ne, lim, d_e2d, d);
    TRYS(cudaGetLastError());
  }
  TRYS(cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, st));
  TRYS(cudaMemcpyAsync(&unsorted, d + 2, sizeof(int), cudaMemcpyDeviceToHost, st));
  TRYS(cudaStreamSynchronize(st));
  if (h[0] != ULLONG_MAX || unsorted) {
    *status = h[0] != ULLONG_MAX ? PETSCWARP_PLANSLOTS_BAD_INDEX : PETSCWARP_PLANSLOTS_UNSORTED;
    *bad    = h[0] != ULLONG_MAX ? (long long)h[0] : -1;
    cudaFree(d);
    return 0;
  }
  if (nsrc) {
    Slots<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, nel, d_e2d, d_rowptr, d_colidx, d_pos2slot, d_slot, d + 1);
    TRYS(cudaGetLastError());
  }
  TRYS(cudaMemcpyAsync(h + 1, d + 1, sizeof(unsigned long long), cudaMemcpyDeviceToHost, st));
  TRYS(cudaStreamSynchronize(st));
#undef TRYS
  cudaFree(d);
  if (h[1] != ULLONG_MAX) {
    *status = PETSCWARP_PLANSLOTS_MISSING;
    *bad    = (long long)h[1];
  }
  return 0;
}

int PetscWarpPlanPatternCUDA(int nrows, int ncols, int ncells, int nel, const int *d_e2d, int adddiag, int **d_rowptr, int **d_colidx, long long *nnz, int *status, long long *bad, void *stream)
{
  cudaStream_t        st = (cudaStream_t)stream;
  const long long     ne = (long long)ncells * nel, nsrc = ne * nel;
  const int           nmin = nrows < ncols ? nrows : ncols, nd = adddiag ? nmin : 0;
  const long long     nkey = nsrc + nd;
  unsigned long long *key = nullptr, *d = nullptr, h = ULLONG_MAX;
  int                *rp = nullptr, *ci = nullptr;
  long long           n = 0;
  cudaError_t         e;

  *d_rowptr = *d_colidx = nullptr;
  *nnz                  = 0;
  *status               = PETSCWARP_PLANSLOTS_OK;
  *bad                  = -1;
#define TRYP(call) \
  do { \
    if ((e = (call)) != cudaSuccess) { \
      cudaFree(key); \
      cudaFree(d); \
      cudaFree(rp); \
      cudaFree(ci); \
      return (int)e; \
    } \
  } while (0)
  TRYP(cudaMalloc((void **)&d, sizeof(unsigned long long)));
  TRYP(cudaMemcpyAsync(d, &h, sizeof(h), cudaMemcpyHostToDevice, st));
  if (ne) {
    CheckMap<<<Grid(ne, 256), 256, 0, st>>>(ne, nmin, d_e2d, d);
    TRYP(cudaGetLastError());
  }
  TRYP(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, st));
  TRYP(cudaStreamSynchronize(st));
  if (h != ULLONG_MAX) {
    *status = PETSCWARP_PLANSLOTS_BAD_INDEX;
    *bad    = (long long)h;
    cudaFree(d);
    return 0;
  }
  TRYP(cudaMalloc((void **)&key, sizeof(unsigned long long) * (size_t)(nkey > 0 ? nkey : 1)));
  if (nsrc) {
    PatternKeys<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, nel, (unsigned long long)ncols, d_e2d, key);
    TRYP(cudaGetLastError());
  }
  if (nd) {
    DiagKeys<<<(nd + 255) / 256, 256, 0, st>>>(nd, (unsigned long long)ncols, key + nsrc);
    TRYP(cudaGetLastError());
  }
  try {
    thrust::device_ptr<unsigned long long> K(key);
    auto                                   pol = thrust::cuda::par.on(st);

    thrust::sort(pol, K, K + nkey);
    n = thrust::unique(pol, K, K + nkey) - K;
  } catch (std::bad_alloc &) {
    TRYP(cudaErrorMemoryAllocation);
  } catch (...) {
    TRYP(cudaErrorUnknown);
  }
  if (n) { /* the dropped entries' key sorts last */
    TRYP(cudaMemcpyAsync(&h, key + n - 1, sizeof(h), cudaMemcpyDeviceToHost, st));
    TRYP(cudaStreamSynchronize(st));
    if (h == ULLONG_MAX) n--;
  }
  if (n >= INT_MAX) {
    *status = PETSCWARP_PLANSLOTS_TOO_MANY;
    cudaFree(key);
    cudaFree(d);
    return 0;
  }
  TRYP(cudaMalloc((void **)&rp, sizeof(int) * ((size_t)nrows + 1)));
  TRYP(cudaMalloc((void **)&ci, sizeof(int) * (size_t)(n > 0 ? n : 1)));
  TRYP(cudaMemsetAsync(rp, 0, sizeof(int) * ((size_t)nrows + 1), st));
  if (n) {
    PatternCSR<<<Grid(n, 256), 256, 0, st>>>(n, (unsigned long long)ncols, key, rp, ci);
    TRYP(cudaGetLastError());
  }
  try {
    thrust::device_ptr<int> R(rp);
    thrust::inclusive_scan(thrust::cuda::par.on(st), R, R + nrows + 1, R);
  } catch (std::bad_alloc &) {
    TRYP(cudaErrorMemoryAllocation);
  } catch (...) {
    TRYP(cudaErrorUnknown);
  }
  TRYP(cudaStreamSynchronize(st));
#undef TRYP
  cudaFree(key);
  cudaFree(d);
  *d_rowptr = rp;
  *d_colidx = ci;
  *nnz      = n;
  return 0;
}
