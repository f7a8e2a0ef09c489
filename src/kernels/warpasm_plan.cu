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

/* The host plans' LPT of n lists of lengths len[] onto bs threads (warpasmlpt.h), by one thread: thr[], row[] and the
   height; scratch order [n], bh, bt [PwaLptBuckets()], next [bs] */
__device__ int PackLists(int n, int bs, const int *len, int *order, int *thr, int *row, int *bh, int *bt, int *next)
{
  int       maxlen = 0;
  long long total  = 0;

  for (int l = 0; l < n; l++) {
    maxlen = max(maxlen, len[l]);
    total += len[l];
  }
  PwaLptHist(n, len, maxlen, bh);
  PwaLptOrder(n, len, maxlen, bh, order);
  return PwaLptQueue(n, bs, maxlen, (int)PwaLptBuckets(n, bs, total, maxlen), len, order, bh, bt, next, thr, row);
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
  if (threadIdx.x == 0) hgt[blockIdx.x] = (long long)PackLists(n, bs, len, order, thr, row, bh, bt, next) * bs;
  __syncthreads();
  for (int l = threadIdx.x; l < n; l += blockDim.x) pos[t0 + l] = (int)((long long)row[l] * bs + thr[l]);
}

__global__ void Place(int ntargets, int tpb, const long long *__restrict__ off64, int *__restrict__ pos, int *__restrict__ off, int nblocks)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t < ntargets) pos[t] += (int)off64[t / tpb];
  if (t <= nblocks) off[t] = (int)off64[t];
}

/* Each source at its target's next place: the value s + 1, or val[s] when given (0: the source is dropped) */
__global__ void Fill(long long nsrc, const int *__restrict__ slot, const int *__restrict__ val, int bs, int *__restrict__ pos, int *__restrict__ ent)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const int t = slot[s], v = val ? val[s] : (int)(s + 1);

    if (t >= 0 && v > 0) ent[atomicAdd(&pos[t], bs)] = v;
  }
}

/* Target t's list into increasing order (insertion sort, stride bs), then its end entry; with skipempty, a target
   without sources has no list */
__global__ void SortClose(int ntargets, int bs, int skipempty, const int *__restrict__ cnt, const int *__restrict__ pos, int *__restrict__ ent)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t >= ntargets || (skipempty && !cnt[t])) return;
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

/* sharednz reduction, per source s = (cell c, i, j) of a kept row r and target t: its block b = rblk[r], its value in
   the block's element matrices 1 + lc*nel*nel + i*nel + j (lc: c's place in the block's sorted element set), the
   target's block (claimed once: a target reached from two blocks is *clash), source count and smallest value */
__global__ void SharedSrc(long long nsrc, int nel, int ntargets, const int *__restrict__ e2d, const int *__restrict__ slot, const int *__restrict__ rblk, const int *__restrict__ coff, const int *__restrict__ cells, int *__restrict__ val, int *__restrict__ tb, int *__restrict__ cnt, int *__restrict__ minv, unsigned long long *__restrict__ bad)
{
  for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < nsrc; s += (long long)gridDim.x * blockDim.x) {
    const long long o = s / nel, c = o / nel;
    const int       i = (int)(o - c * nel), j = (int)(s - o * nel), r = e2d[o], t = slot[s];
    int             v = 0;

    if (r >= 0 && t >= 0) {
      if (t >= ntargets) atomicMin(&bad[0], (unsigned long long)s);
      else {
        const int b  = rblk[r];
        int       lo = coff[b], hi = coff[b + 1] - 1, old;

        while (lo < hi) { /* the block's element set holds c */
          const int mid = (lo + hi) >> 1;

          if (cells[mid] < c) lo = mid + 1;
          else hi = mid;
        }
        v   = 1 + (lo - coff[b]) * nel * nel + i * nel + j;
        old = atomicCAS(&tb[t], -1, b);
        if (old != -1 && old != b) atomicMin(&bad[1], (unsigned long long)t);
        atomicAdd(&cnt[t], 1);
        atomicMin(&minv[t], v);
      }
    }
    val[s] = v;
  }
}

/* The lists in the host's order: by block, then by first source (key), targets without sources last */
__global__ void SharedKeys(int ntargets, const int *__restrict__ tb, const int *__restrict__ cnt, const int *__restrict__ minv, unsigned long long *__restrict__ key, int *__restrict__ idx, int *__restrict__ nl)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t >= ntargets) return;
  idx[t] = t;
  if (cnt[t]) {
    key[t] = ((unsigned long long)tb[t] << 32) | (unsigned)minv[t];
    atomicAdd(&nl[tb[t]], 1);
  } else key[t] = ULLONG_MAX;
}

/* Block b: LPT of its lists idx[loff[b] .. loff[b+1]) (lengths cnt + 1, at most cap lists) by thread 0, as Pack(); the
   scratch in shared memory, or in global memory when it does not fit there (gl: 4 ints per list, gb: 2 nbk + bs per
   block) */
__global__ void __launch_bounds__(PACK_THREADS) SharedPack(int bs, int cap, int nbk, const int *__restrict__ loff, const int *__restrict__ idx, const int *__restrict__ cnt, int *__restrict__ pos, long long *__restrict__ hgt, int *gl, int *gb)
{
  extern __shared__ int sm[];
  const int             l0 = loff[blockIdx.x], n = loff[blockIdx.x + 1] - l0;
  int                  *len, *order, *thr, *row, *bh, *bt, *next;

  if (gl) {
    len = gl + 4 * (size_t)l0;
    bh  = gb + (size_t)blockIdx.x * (2 * (size_t)nbk + bs);
    cap = n;
  } else {
    len = sm;
    bh  = sm + 4 * (size_t)cap;
  }
  order = len + cap;
  thr   = order + cap;
  row   = thr + cap;
  bt    = bh + nbk;
  next  = bt + nbk;
  for (int l = threadIdx.x; l < n; l += blockDim.x) len[l] = cnt[idx[l0 + l]] + 1;
  __syncthreads();
  if (threadIdx.x == 0) hgt[blockIdx.x] = (long long)PackLists(n, bs, len, order, thr, row, bh, bt, next) * bs;
  __syncthreads();
  for (int l = threadIdx.x; l < n; l += blockDim.x) pos[idx[l0 + l]] = (int)((long long)row[l] * bs + thr[l]);
}

__global__ void SharedPlace(int ntargets, const int *__restrict__ tb, const int *__restrict__ cnt, const long long *__restrict__ off64, int *__restrict__ pos, int *__restrict__ off, int nblocks)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;

  if (t < ntargets && cnt[t]) pos[t] += (int)off64[tb[t]];
  if (t <= nblocks) off[t] = (int)off64[t];
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

/* The blocks' sizes off64 [nblocks+1] scanned into offsets; the total checked (*status PETSCWARP_REDPLAN_TOO_MANY, nothing
   allocated) and red->off, red->ent (zeroed) allocated */
int AllocPacked(int nblocks, long long *off64, PetscWarpRed *red, long long *total, int *status, cudaStream_t st)
{
  try {
    thrust::device_ptr<long long> O(off64);
    thrust::exclusive_scan(thrust::cuda::par.on(st), O, O + nblocks + 1, O, 0LL);
  } catch (std::bad_alloc &) {
    TRY(cudaErrorMemoryAllocation);
  } catch (...) {
    TRY(cudaErrorUnknown);
  }
  TRY(cudaMemcpyAsync(total, off64 + nblocks, sizeof(*total), cudaMemcpyDeviceToHost, st));
  TRY(cudaStreamSynchronize(st));
  if (*total >= INT_MAX) {
    *status = PETSCWARP_REDPLAN_TOO_MANY;
    return 0;
  }
  TRY(cudaMalloc((void **)&red->off, sizeof(int) * ((size_t)nblocks + 1)));
  TRY(cudaMalloc((void **)&red->ent, sizeof(int) * ((size_t)*total > 0 ? (size_t)*total : 1)));
  TRY(cudaMemsetAsync((void *)red->ent, 0, sizeof(int) * (size_t)*total, st));
  return 0;
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
  TRY((cudaError_t)AllocPacked(nblocks, T.off64, red, &total, status, st));
  if (*status != PETSCWARP_REDPLAN_OK) return 0;
  {
    const int m = (ntargets > nblocks ? ntargets : nblocks) + 1;

    Place<<<(m + 255) / 256, 256, 0, st>>>(ntargets, tpb, T.off64, T.pos, (int *)red->off, nblocks);
    TRY(cudaGetLastError());
  }
  if (nsrc) {
    Fill<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, d_slot, nullptr, bs, T.pos, (int *)red->ent);
    TRY(cudaGetLastError());
  }
  if (ntargets) {
    SortClose<<<(ntargets + 255) / 256, 256, 0, st>>>(ntargets, bs, 0, T.cnt, T.pos, (int *)red->ent);
    TRY(cudaGetLastError());
  }
  TRY(cudaStreamSynchronize(st)); /* the scratch is freed on return */
  *nent = total;
  return 0;
}

int PetscWarpPlanSharedNZReductionCUDA(int ncells, int nel, const int *d_e2d, const int *d_slot, int ntargets, const int *d_rblk, const int *d_coff, const int *d_cells, int nblocks, int bs, PetscWarpRed *red, long long *nent, int *status, long long *bad, void *stream)
{
  cudaStream_t       st      = (cudaStream_t)stream;
  const long long    nsrc    = (long long)ncells * nel * nel;
  const size_t       nt1     = (size_t)ntargets + 1;
  unsigned long long hbad[2] = {ULLONG_MAX, ULLONG_MAX};
  int                maxcnt = 0, maxn = 0, optin = 0, dev = 0;
  long long          total = 0;
  size_t             smem;
  struct SharedScratch {
    int                *val = nullptr, *tb = nullptr, *cnt = nullptr, *minv = nullptr, *pos = nullptr, *idx = nullptr, *loff = nullptr, *gl = nullptr, *gb = nullptr;
    unsigned long long *key = nullptr, *bad = nullptr;
    long long          *off64 = nullptr;
    ~SharedScratch()
    {
      cudaFree(val);
      cudaFree(tb);
      cudaFree(cnt);
      cudaFree(minv);
      cudaFree(pos);
      cudaFree(idx);
      cudaFree(loff);
      cudaFree(gl);
      cudaFree(gb);
      cudaFree(key);
      cudaFree(bad);
      cudaFree(off64);
    }
  } T;

  red->nblocks = nblocks;
  red->bs      = bs;
  red->off = red->ent = nullptr;
  *nent               = 0;
  *status             = PETSCWARP_REDPLAN_OK;
  *bad                = -1;
  TRY(cudaMalloc((void **)&T.val, sizeof(int) * (size_t)(nsrc > 0 ? nsrc : 1)));
  TRY(cudaMalloc((void **)&T.tb, sizeof(int) * nt1));
  TRY(cudaMalloc((void **)&T.cnt, sizeof(int) * nt1));
  TRY(cudaMalloc((void **)&T.minv, sizeof(int) * nt1));
  TRY(cudaMalloc((void **)&T.pos, sizeof(int) * nt1));
  TRY(cudaMalloc((void **)&T.idx, sizeof(int) * nt1));
  TRY(cudaMalloc((void **)&T.key, sizeof(unsigned long long) * nt1));
  TRY(cudaMalloc((void **)&T.loff, sizeof(int) * ((size_t)nblocks + 1)));
  TRY(cudaMalloc((void **)&T.off64, sizeof(long long) * ((size_t)nblocks + 1)));
  TRY(cudaMalloc((void **)&T.bad, 2 * sizeof(unsigned long long)));
  TRY(cudaMemsetAsync(T.tb, 0xff, sizeof(int) * nt1, st)); /* -1: no block yet */
  TRY(cudaMemsetAsync(T.cnt, 0, sizeof(int) * nt1, st));
  TRY(cudaMemsetAsync(T.minv, 0x7f, sizeof(int) * nt1, st)); /* above every value */
  TRY(cudaMemsetAsync(T.loff, 0, sizeof(int) * ((size_t)nblocks + 1), st));
  TRY(cudaMemsetAsync(T.off64, 0, sizeof(long long) * ((size_t)nblocks + 1), st));
  TRY(cudaMemcpyAsync(T.bad, hbad, sizeof(hbad), cudaMemcpyHostToDevice, st));
  if (nsrc) {
    SharedSrc<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, nel, ntargets, d_e2d, d_slot, d_rblk, d_coff, d_cells, T.val, T.tb, T.cnt, T.minv, T.bad);
    TRY(cudaGetLastError());
  }
  TRY(cudaMemcpyAsync(hbad, T.bad, sizeof(hbad), cudaMemcpyDeviceToHost, st));
  TRY(cudaStreamSynchronize(st));
  if (hbad[0] != ULLONG_MAX || hbad[1] != ULLONG_MAX) {
    *status = hbad[0] != ULLONG_MAX ? PETSCWARP_REDPLAN_BAD_SLOT : PETSCWARP_REDPLAN_CLASH;
    *bad    = (long long)(hbad[0] != ULLONG_MAX ? hbad[0] : hbad[1]);
    return 0;
  }
  if (ntargets) {
    SharedKeys<<<(ntargets + 255) / 256, 256, 0, st>>>(ntargets, T.tb, T.cnt, T.minv, T.key, T.idx, T.loff);
    TRY(cudaGetLastError());
  }
  try {
    auto                                   pol = thrust::cuda::par.on(st);
    thrust::device_ptr<unsigned long long> K(T.key);
    thrust::device_ptr<int>                I(T.idx), C(T.cnt), L(T.loff);

    if (ntargets) {
      thrust::sort_by_key(pol, K, K + ntargets, I);
      maxcnt = thrust::reduce(pol, C, C + ntargets, 0, thrust::maximum<int>());
    }
    if (nblocks) maxn = thrust::reduce(pol, L, L + nblocks, 0, thrust::maximum<int>());
    thrust::exclusive_scan(pol, L, L + nblocks + 1, L, 0);
  } catch (std::bad_alloc &) {
    TRY(cudaErrorMemoryAllocation);
  } catch (...) {
    TRY(cudaErrorUnknown);
  }
  {
    const int       gmax = maxcnt + 1;
    const long long nbk  = PwaLptBuckets(maxn, bs, (long long)maxn * gmax, gmax);

    smem = sizeof(int) * (4 * (size_t)maxn + 2 * (size_t)nbk + (size_t)bs);
    TRY(cudaGetDevice(&dev));
    TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (nbk > INT_MAX / 2 || (smem > (size_t)optin && (double)nblocks * (2.0 * (double)nbk + bs) > 2.5e8)) {
      *status = PETSCWARP_REDPLAN_TOO_LONG; /* not even in global memory */
      return 0;
    }
    if (smem > (size_t)optin) { /* the blocks' scratch in global memory */
      TRY(cudaMalloc((void **)&T.gl, sizeof(int) * 4 * nt1));
      TRY(cudaMalloc((void **)&T.gb, sizeof(int) * ((size_t)nblocks * (2 * (size_t)nbk + (size_t)bs) + 1)));
      smem = 0;
    } else if (smem > 48 * 1024) TRY(cudaFuncSetAttribute(SharedPack, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (nblocks) {
      SharedPack<<<nblocks, PACK_THREADS, smem, st>>>(bs, maxn, (int)nbk, T.loff, T.idx, T.cnt, T.pos, T.off64, T.gl, T.gb);
      TRY(cudaGetLastError());
    }
  }
  TRY((cudaError_t)AllocPacked(nblocks, T.off64, red, &total, status, st));
  if (*status != PETSCWARP_REDPLAN_OK) return 0;
  {
    const int m = (ntargets > nblocks ? ntargets : nblocks) + 1;

    SharedPlace<<<(m + 255) / 256, 256, 0, st>>>(ntargets, T.tb, T.cnt, T.off64, T.pos, (int *)red->off, nblocks);
    TRY(cudaGetLastError());
  }
  if (nsrc) {
    Fill<<<Grid(nsrc, 256), 256, 0, st>>>(nsrc, d_slot, T.val, bs, T.pos, (int *)red->ent);
    TRY(cudaGetLastError());
  }
  if (ntargets) {
    SortClose<<<(ntargets + 255) / 256, 256, 0, st>>>(ntargets, bs, 1, T.cnt, T.pos, (int *)red->ent);
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
