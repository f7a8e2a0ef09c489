/* ELL-WARP build on the device with Thrust (CCCL): the twin of ellwarp_build_host.c, bit-identical output. */
#include <petscwarp/private/ellwarpkernels.h>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cstring>
#include <new>

namespace
{
struct Groups {
  int n;             /* number of lane groups (at most 6) */
  int start[7];      /* first sorted row of group g; start[n] = nrows */
  int wbase[7];      /* first warp of group g; wbase[n] = nwarps */
  int lanes_log2[6]; /* log2 of the lane count of group g */
};

__global__ void RowLengths(int nrows, const int *__restrict__ rowptr, int *__restrict__ len)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nrows) len[i] = rowptr[i + 1] - rowptr[i];
}

__device__ int GroupOfWarp(const Groups &G, int w)
{
  int g = 0;
  while (g + 1 < G.n && w >= G.wbase[g + 1]) g++;
  return g;
}

__device__ int GroupOfRow(const Groups &G, int s)
{
  int g = 0;
  while (g + 1 < G.n && s >= G.start[g + 1]) g++;
  return g;
}

/* Chunks of each split row (the first nsplit sorted rows), and nch[nsplit] = 0: the exclusive scan that follows reads
   nsplit + 1 items (its last output is the total), so the last one must be written too (compute-sanitizer initcheck) */
__global__ void SplitChunks(int nsplit, int threshold, const int *__restrict__ slen, long long *__restrict__ nch)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nsplit) nch[s] = PetscWarpEllChunks(slen[s], threshold);
  else if (s == nsplit) nch[s] = 0;
}

/* wrow, winfo and slots of warp w < cbase[nsplit], a chunk of a split row */
__device__ void SplitWarpInfo(int w, int nsplit, const long long *__restrict__ cbase, int threshold, const int *__restrict__ slen, int *__restrict__ wrow, int *__restrict__ winfo, long long *__restrict__ wslots)
{
  int lo = 0, hi = nsplit - 1; /* the split row whose chunks hold warp w */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (cbase[mid] <= w) lo = mid;
    else hi = mid - 1;
  }
  long long cap = 32LL * threshold, k = w - cbase[lo], clen = slen[lo] - k * cap < cap ? slen[lo] - k * cap : cap;
  wrow[w]   = lo;
  winfo[w]  = 5 | (1 << 8) | PETSCWARP_SPLIT;
  wslots[w] = 32 * ((clen + 31) / 32);
}

/* wrow, winfo and 32 * width of every warp: split-row chunks first (cbase: first warp of each split row), then groups */
__global__ void WarpInfo(Groups G, int nwarps, int nsplit, const long long *__restrict__ cbase, int threshold, const int *__restrict__ slen, int *__restrict__ wrow, int *__restrict__ winfo, long long *__restrict__ wslots)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nwarps) return;
  if (nsplit && w < cbase[nsplit]) {
    SplitWarpInfo(w, nsplit, cbase, threshold, slen, wrow, winfo, wslots);
    return;
  }
  int g = GroupOfWarp(G, w), l = G.lanes_log2[g], L = 1 << l, R = PETSCWARP_WARP / L;
  int s     = G.start[g] + (w - G.wbase[g]) * R;
  int nr    = min(R, G.start[g + 1] - s);
  wrow[w]   = s;
  winfo[w]  = l | (nr << 8);
  wslots[w] = (long long)PETSCWARP_WARP * ((slen[s] + L - 1) / L);
}

/* Sorted row s, local row r of warp w with 2^l lanes per row: write its columns, CSR positions, padding columns and
   diagonal slot */
__device__ void FillRow(int s, int w, int r, int l, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ perm, const int *__restrict__ woff, int *__restrict__ col, int *__restrict__ map, int *__restrict__ diag)
{
  int L = 1 << l, row = perm[s], p = rowptr[row], len = rowptr[row + 1] - p, base = rowptr[0];
  int width = (woff[w + 1] - woff[w]) / PETSCWARP_WARP, pad = len ? colidx[p + len - 1] : 0;
  for (int e = 0; e < L * width; e++) {
    int slot = woff[w] + PETSCWARP_WARP * (e >> l) + r * L + (e & (L - 1));
    if (e < len) {
      int c     = colidx[p + e];
      col[slot] = c;
      map[slot] = p + e - base;
      if (c == row) diag[row] = slot;
    } else col[slot] = pad;
  }
}

/* One thread per sorted row of the global layout (rows before G.start[0] are split: FillSplit) */
__global__ void Fill(Groups G, int nrows, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ perm, const int *__restrict__ woff, int *__restrict__ col, int *__restrict__ map, int *__restrict__ diag)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nrows || s < G.start[0]) return;
  int g = GroupOfRow(G, s), l = G.lanes_log2[g], R = PETSCWARP_WARP >> l;
  FillRow(s, G.wbase[g] + (s - G.start[g]) / R, (s - G.start[g]) % R, l, rowptr, colidx, perm, woff, col, map, diag);
}

/* One thread per sorted row of a windowed layout: its warp is rowwarp[s] */
__global__ void FillWin(int nsplit, int nrows, const int *__restrict__ rowwarp, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ perm, const int *__restrict__ woff, int *__restrict__ col, int *__restrict__ map, int *__restrict__ diag)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nrows || s < nsplit) return;
  int w = rowwarp[s];
  FillRow(s, w, s - wrow[w], winfo[w] & 255, rowptr, colidx, perm, woff, col, map, diag);
}

/* One thread per chunk of a split row: its columns, CSR positions, padding and diagonal slot */
__global__ void FillSplit(int nsw, int threshold, const long long *__restrict__ cbase, const int *__restrict__ wrow, const int *__restrict__ rowptr, const int *__restrict__ colidx, const int *__restrict__ perm, const int *__restrict__ woff, int *__restrict__ col, int *__restrict__ map, int *__restrict__ diag)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nsw) return;
  int       s = wrow[w], row = perm[s], p = rowptr[row], len = rowptr[row + 1] - p, base = rowptr[0];
  long long e0 = (w - cbase[s]) * 32LL * threshold;
  for (int e = 0; e < woff[w + 1] - woff[w]; e++) {
    int slot = woff[w] + e;
    if (e0 + e < len) {
      int c     = colidx[p + e0 + e];
      col[slot] = c;
      map[slot] = p + (int)e0 + e - base;
      if (c == row) diag[row] = slot;
    } else col[slot] = colidx[p + len - 1];
  }
}

/* Temporaries of one build, freed on every exit */
struct Scratch {
  int       *slen   = nullptr; /* sorted row lengths */
  long long *wslots = nullptr; /* slots of each warp, then their exclusive scan */
  long long *cbase  = nullptr; /* first warp of each split row */
  ~Scratch()
  {
    cudaFree(slen);
    cudaFree(wslots);
    cudaFree(cbase);
  }
};
} // namespace

static cudaError_t Alloc(void **p, size_t bytes)
{
  return cudaMalloc(p, bytes ? bytes : 1);
}

/* In a device layout, winfo lives in wrow's allocation and map and val in col's: fewer allocations per build */
extern "C" int PetscWarpEllFreeCUDA(PetscWarpEll *E)
{
  void       *ptrs[] = {E->woff, E->wrow, E->perm, E->col, E->diag, E->wmode, E->cidx}; /* ioff lives in wmode's allocation */
  cudaError_t err    = cudaSuccess;
  for (void *p : ptrs)
    if (p) {
      cudaError_t e = cudaFree(p);
      if (e != cudaSuccess) err = e;
    }
  memset(E, 0, sizeof(*E));
  return (int)err;
}

#define TRY(call) \
  do { \
    cudaError_t e_ = (call); \
    if (e_ != cudaSuccess) { \
      PetscWarpEllFreeCUDA(E); \
      return (int)e_; \
    } \
  } while (0)

/* Lengths of the rows taken in the given order */
__global__ void RowLengthsOrdered(int nrows, const int *__restrict__ rowptr, const int *__restrict__ order, int *__restrict__ len)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nrows) len[k] = rowptr[order[k] + 1] - rowptr[order[k]];
}

/* From the lengths sorted longest first: out[l] = rows longer than t 2^l (l < 5), out[5] = rows longer than 32 t (split
   rows), out[6] = rowptr[0], out[7] = rowptr[nrows]; one launch and one read-back instead of six searches */
__global__ void LayoutCounts(int nrows, int threshold, const int *__restrict__ slen, const int *__restrict__ rowptr, int *__restrict__ out)
{
  int i = threadIdx.x;
  if (i < 6) {
    long long v  = i < 5 ? (long long)threshold << i : 32LL * threshold;
    int       lo = 0, hi = nrows;
    if (threshold > 0)
      while (lo < hi) { /* first sorted row not longer than v */
        int mid = (lo + hi) / 2;
        if (slen[mid] > v) lo = mid + 1;
        else hi = mid;
      }
    out[i] = threshold > 0 ? lo : 0;
  } else if (i == 6) out[6] = rowptr[0];
  else if (i == 7) out[7] = rowptr[nrows];
}

/* *out = 1 if some row is out of place (perm[s] != s), one store per warp at most; read back with the counts */
__global__ void NotIdentity(int nrows, const int *__restrict__ perm, int *__restrict__ out)
{
  int  s     = blockIdx.x * blockDim.x + threadIdx.x;
  bool moved = s < nrows && perm[s] != s;
  if (__any_sync(0xffffffffu, moved) && (threadIdx.x & 31) == 0) *out = 1;
}

/* Largest number of slots of a warp, for the statistics */
__global__ void MaxSlots(int nwarps, const long long *__restrict__ wslots, unsigned long long *__restrict__ mx)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < nwarps) atomicMax(mx, (unsigned long long)wslots[w]);
}

__global__ void Narrow(int n, const long long *__restrict__ in, int *__restrict__ out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)in[i];
}

/* The warp arrays of a layout of wb warps (woff; wrow and winfo in one allocation) and the scratch of the warps' slot
   counts, wb + 2 long: the scan's total and the widest warp follow (both builds) */
static int AllocWarps(int wb, cudaStream_t st, Scratch &T, PetscWarpEll *E)
{
  E->nwarps = wb;
  TRY(Alloc((void **)&E->woff, sizeof(int) * ((size_t)wb + 1)));
  TRY(Alloc((void **)&E->wrow, sizeof(int) * 2 * (size_t)wb));
  E->winfo = E->wrow + wb;
  TRY(Alloc((void **)&T.wslots, sizeof(long long) * ((size_t)wb + 2)));
  TRY(cudaMemsetAsync(T.wslots + wb, 0, 2 * sizeof(long long), st));
  return 0;
}

/* From the scanned slot counts of the wb warps (tail, on the host: total slots, slots of the widest warp): woff, and
   the slot arrays col (0), map (-1), val (0), one allocation, and diag (-1) (both builds) */
static int AllocSlots(int nrows, int wb, const long long tail[2], cudaStream_t st, Scratch &T, PetscWarpEll *E)
{
  if (tail[0] > 2147483647LL) {
    PetscWarpEllFreeCUDA(E);
    return (int)cudaErrorInvalidValue;
  }
  Narrow<<<(wb + 256) / 256, 256, 0, st>>>(wb + 1, T.wslots, E->woff);
  TRY(cudaGetLastError());
  size_t total = (size_t)tail[0];
  E->nslots    = (int)total;
  E->maxwidth  = (int)(tail[1] / PETSCWARP_WARP);
  TRY(Alloc((void **)&E->col, (2 * sizeof(int) + sizeof(double)) * total)); /* col, map, val */
  E->map = E->col + total;
  E->val = (double *)(E->col + 2 * total);
  TRY(cudaMemsetAsync(E->col, 0, sizeof(int) * total, st));
  TRY(cudaMemsetAsync(E->map, 0xff, sizeof(int) * total, st));
  TRY(cudaMemsetAsync(E->val, 0, sizeof(double) * total, st));
  TRY(cudaMemsetAsync(E->diag, 0xff, sizeof(int) * (size_t)nrows, st));
  return 0;
}

static int BuildGlobal(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, void *stream, PetscWarpEll *E)
{
  cudaStream_t st  = (cudaStream_t)stream;
  auto         pol = thrust::cuda::par.on(st);
  Scratch      T;
  Groups       G;
  int          counts[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1}, *d_counts; /* counts[8]: perm is the identity */
  long long    tail[2]   = {0, 0};                                 /* total slots, slots of the widest warp */

  memset(E, 0, sizeof(*E));
  E->unit      = 1;
  E->nrows     = nrows;
  E->ncols     = ncols;
  E->threshold = threshold;
  E->maxlanes  = 1;
  TRY(Alloc((void **)&E->perm, sizeof(int) * (size_t)nrows));
  TRY(Alloc((void **)&E->diag, sizeof(int) * (size_t)nrows));
  TRY(Alloc((void **)&T.slen, sizeof(int) * ((size_t)nrows + 9))); /* + the 9 counts */
  d_counts = T.slen + nrows;
  try {
    if (nrows) {
      thrust::device_ptr<int> L(T.slen), P(E->perm);
      if (d_order) {
        RowLengthsOrdered<<<(nrows + 255) / 256, 256, 0, st>>>(nrows, d_rowptr, d_order, T.slen);
        TRY(cudaMemcpyAsync(E->perm, d_order, sizeof(int) * (size_t)nrows, cudaMemcpyDeviceToDevice, st));
      } else {
        RowLengths<<<(nrows + 255) / 256, 256, 0, st>>>(nrows, d_rowptr, T.slen);
        thrust::sequence(pol, P, P + nrows);
      }
      TRY(cudaGetLastError());
      thrust::stable_sort_by_key(pol, L, L + nrows, P, thrust::greater<int>());
    }
    TRY(cudaMemsetAsync(d_counts + 8, 0, sizeof(int), st)); /* set to 1 when a row is out of place */
    if (nrows) {
      NotIdentity<<<(nrows + 255) / 256, 256, 0, st>>>(nrows, E->perm, d_counts + 8);
      TRY(cudaGetLastError());
    }
    LayoutCounts<<<1, 32, 0, st>>>(nrows, threshold, T.slen, d_rowptr, d_counts);
    TRY(cudaGetLastError());
    TRY(cudaMemcpyAsync(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    int *gt = counts, nsplit = counts[5];
    E->identity   = counts[8] == 0;
    long long nsw = 0; /* warps of split rows */
    E->nnz        = counts[7] - counts[6];
    TRY(Alloc((void **)&T.cbase, sizeof(long long) * ((size_t)nsplit + 1)));
    if (nsplit) {
      thrust::device_ptr<long long> C(T.cbase);
      SplitChunks<<<(nsplit + 256) / 256, 256, 0, st>>>(nsplit, threshold, T.slen, T.cbase);
      TRY(cudaGetLastError());
      thrust::exclusive_scan(pol, C, C + nsplit + 1, C, 0LL);
      TRY(cudaMemcpyAsync(&nsw, T.cbase + nsplit, sizeof(long long), cudaMemcpyDeviceToHost, st));
      TRY(cudaStreamSynchronize(st));
      if (nsw > 2147483647LL) {
        PetscWarpEllFreeCUDA(E);
        return (int)cudaErrorInvalidValue;
      }
      E->maxlanes = 32;
    }
    E->nsplit = nsplit;
    G.n       = 0;
    int wb    = (int)nsw;
    for (int l = 5; l >= 0; l--) {
      int s0 = l == 5 ? nsplit : gt[l], s1 = l == 0 ? nrows : gt[l - 1], R = PETSCWARP_WARP >> l;
      if (s1 <= s0) continue;
      G.start[G.n]      = s0;
      G.wbase[G.n]      = wb;
      G.lanes_log2[G.n] = l;
      G.n++;
      wb += (s1 - s0 + R - 1) / R;
      if (E->maxlanes < (1 << l)) E->maxlanes = 1 << l;
    }
    G.start[G.n] = nrows;
    G.wbase[G.n] = wb;
    if (int e = AllocWarps(wb, st, T, E)) return e;
    if (wb) {
      thrust::device_ptr<long long> W(T.wslots);
      WarpInfo<<<(wb + 255) / 256, 256, 0, st>>>(G, wb, nsplit, T.cbase, threshold, T.slen, E->wrow, E->winfo, T.wslots);
      MaxSlots<<<(wb + 255) / 256, 256, 0, st>>>(wb, T.wslots, (unsigned long long *)(T.wslots + wb + 1));
      TRY(cudaGetLastError());
      thrust::exclusive_scan(pol, W, W + wb + 1, W, 0LL); /* in place: wslots[wb] becomes the total */
    }
    TRY(cudaMemcpyAsync(tail, T.wslots + wb, sizeof(tail), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    if (int e = AllocSlots(nrows, wb, tail, st, T, E)) return e;
    if (nrows) {
      Fill<<<(nrows + 127) / 128, 128, 0, st>>>(G, nrows, d_rowptr, d_colidx, E->perm, E->woff, E->col, E->map, E->diag);
      TRY(cudaGetLastError());
    }
    if (nsw) {
      FillSplit<<<(int)((nsw + 127) / 128), 128, 0, st>>>((int)nsw, threshold, T.cbase, E->wrow, d_rowptr, d_colidx, E->perm, E->woff, E->col, E->map, E->diag);
      TRY(cudaGetLastError());
    }
  } catch (std::bad_alloc &) {
    PetscWarpEllFreeCUDA(E);
    return (int)cudaErrorMemoryAllocation;
  } catch (...) {
    PetscWarpEllFreeCUDA(E);
    return (int)cudaErrorUnknown;
  }
  return (int)cudaStreamSynchronize(st);
}

extern "C" int PetscWarpEllCopyToHostCUDA(const PetscWarpEll *dE, PetscWarpEll *hE)
{
  struct {
    void  *dst;
    void  *src;
    size_t bytes;
  } c[] = {
    {hE->woff,  dE->woff,  sizeof(int) * ((size_t)dE->nwarps + 1)    },
    {hE->wrow,  dE->wrow,  sizeof(int) * (size_t)dE->nwarps          },
    {hE->winfo, dE->winfo, sizeof(int) * (size_t)dE->nwarps          },
    {hE->perm,  dE->perm,  sizeof(int) * (size_t)dE->nrows           },
    {hE->col,   dE->col,   sizeof(int) * (size_t)dE->nslots          },
    {hE->map,   dE->map,   sizeof(int) * (size_t)dE->nslots          },
    {hE->diag,  dE->diag,  sizeof(int) * (size_t)dE->nrows           },
    {hE->val,   dE->val,   sizeof(double) * (size_t)dE->nslots       },
    {hE->wmode, dE->wmode, sizeof(int) * (size_t)dE->nwarps          },
    {hE->ioff,  dE->ioff,  sizeof(int) * (size_t)dE->nwarps          },
    {hE->cidx,  dE->cidx,  sizeof(unsigned short) * (size_t)dE->ncidx}
  };
  for (auto &x : c)
    if (x.bytes && x.dst && x.src) {
      cudaError_t e = cudaMemcpy(x.dst, x.src, x.bytes, cudaMemcpyDeviceToHost);
      if (e != cudaSuccess) return (int)e;
    }
  return 0;
}

/* ---------------- windowed layout (E->window > 0): see ellwarpkernels.h; twin: SortRowsWindowed/CutWarps ---------------- */
namespace
{
/* Sort keys in the given order: segment << 32 | (INT_MAX - length), segment 0 for split rows, 1 + window otherwise */
__global__ void WinKeys(int nrows, int W, int threshold, const int *__restrict__ rowptr, const int *__restrict__ order, long long *__restrict__ key, int *__restrict__ perm)
{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= nrows) return;
  int       i = order ? order[p] : p, len = rowptr[i + 1] - rowptr[i];
  long long sg = PetscWarpEllChunks(len, threshold) ? 0 : 1 + p / W;
  key[p]       = (sg << 32) | (long long)(2147483647 - len);
  perm[p]      = i;
}

__device__ int LanesLog2(int len, int t)
{
  int L = PetscWarpEllLanes(len, t), l = 0;
  while ((1 << l) < L) l++;
  return l;
}

/* Sorted lengths and segments; head[s] = s where a run of rows of one segment and one lane count starts, else 0 */
__global__ void WinRuns(int nsplit, int nrows, int threshold, const long long *__restrict__ key, int *__restrict__ slen, int *__restrict__ head)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nrows) return;
  int len = 2147483647 - (int)(key[s] & 0xffffffffLL);
  slen[s] = len;
  if (s < nsplit) return;
  bool h  = s == nsplit || (key[s] >> 32) != (key[s - 1] >> 32) || LanesLog2(len, threshold) != LanesLog2(2147483647 - (int)(key[s - 1] & 0xffffffffLL), threshold);
  head[s] = h ? s : 0;
}

/* After a max-scan of head (the start of each row's run): 1 where a warp starts (every 32/L rows of a run) */
__global__ void WinWarpStarts(int nsplit, int nrows, int threshold, const int *__restrict__ slen, const int *__restrict__ runstart, int *__restrict__ start)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nsplit || s >= nrows) return;
  int R    = PETSCWARP_WARP >> LanesLog2(slen[runstart[s]], threshold);
  start[s] = (s - runstart[s]) % R == 0;
}

/* After an inclusive sum of the starts: the warp of each row, and the first row of each warp */
__global__ void WinRowWarp(int nsplit, int nrows, int nsw, const int *__restrict__ cum, int *__restrict__ rowwarp, int *__restrict__ wrow)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nsplit || s >= nrows) return;
  int w      = nsw + cum[s] - 1;
  rowwarp[s] = w;
  if (s == nsplit || cum[s] != cum[s - 1]) wrow[w] = s;
}

__global__ void WinWarpInfo(int nwarps, int nrows, int nsplit, const long long *__restrict__ cbase, int threshold, const int *__restrict__ slen, int *__restrict__ wrow, int *__restrict__ winfo, long long *__restrict__ wslots, int *__restrict__ maxlanes)
{
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nwarps) return;
  if (nsplit && w < cbase[nsplit]) {
    SplitWarpInfo(w, nsplit, cbase, threshold, slen, wrow, winfo, wslots);
    return;
  }
  int s = wrow[w], next = w + 1 < nwarps ? wrow[w + 1] : nrows, l = LanesLog2(slen[s], threshold), L = 1 << l;
  winfo[w]  = l | ((next - s) << 8);
  wslots[w] = (long long)PETSCWARP_WARP * ((slen[s] + L - 1) / L);
  if (L > 1) atomicMax(maxlanes, L);
}

/* out[0] = split rows (segment 0, sorted first), out[1] = rowptr[0], out[2] = rowptr[nrows] */
__global__ void WinCounts(int nrows, const long long *__restrict__ key, const int *__restrict__ rowptr, int *__restrict__ out)
{
  int lo = 0, hi = nrows;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if ((key[mid] >> 32) == 0) lo = mid + 1;
    else hi = mid;
  }
  out[0] = lo;
  out[1] = rowptr[0];
  out[2] = rowptr[nrows];
}

struct WinScratch {
  long long *key  = nullptr; /* sort keys, then nothing */
  int       *ints = nullptr; /* slen, head/run start, warp starts/cumulative, rowwarp: 4 nrows, + 5 counts */
  ~WinScratch()
  {
    cudaFree(key);
    cudaFree(ints);
  }
};
} // namespace

static int BuildWindowed(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, int W, cudaStream_t st, PetscWarpEll *E)
{
  auto       pol = thrust::cuda::par.on(st);
  Scratch    T;
  WinScratch S;
  int        counts[5] = {0, 0, 0, 0, 1}; /* nsplit, rowptr[0], rowptr[nrows], maxlanes, perm moved */
  long long  tail[2] = {0, 0}, nsw = 0;
  int        nw_rows = 0, *d_counts, *slen, *run, *cum, *rowwarp, grid = (nrows + 255) / 256;

  memset(E, 0, sizeof(*E));
  E->unit      = 1;
  E->nrows     = nrows;
  E->ncols     = ncols;
  E->threshold = threshold;
  E->window    = W;
  E->maxlanes  = 1;
  TRY(Alloc((void **)&E->perm, sizeof(int) * (size_t)nrows));
  TRY(Alloc((void **)&E->diag, sizeof(int) * (size_t)nrows));
  TRY(Alloc((void **)&S.key, sizeof(long long) * (size_t)nrows));
  TRY(Alloc((void **)&S.ints, sizeof(int) * (4 * (size_t)nrows + 5)));
  slen     = S.ints;
  run      = S.ints + nrows;
  cum      = S.ints + 2 * (size_t)nrows;
  rowwarp  = S.ints + 3 * (size_t)nrows;
  d_counts = S.ints + 4 * (size_t)nrows;
  try {
    thrust::device_ptr<long long> K(S.key);
    thrust::device_ptr<int>       P(E->perm), H(run), C(cum);
    WinKeys<<<grid, 256, 0, st>>>(nrows, W, threshold, d_rowptr, d_order, S.key, E->perm);
    TRY(cudaGetLastError());
    thrust::stable_sort_by_key(pol, K, K + nrows, P);
    TRY(cudaMemsetAsync(d_counts + 3, 0, 2 * sizeof(int), st));
    WinCounts<<<1, 1, 0, st>>>(nrows, S.key, d_rowptr, d_counts);
    NotIdentity<<<grid, 256, 0, st>>>(nrows, E->perm, d_counts + 4);
    TRY(cudaGetLastError());
    TRY(cudaMemcpyAsync(counts, d_counts, 3 * sizeof(int), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    int nsplit = counts[0];
    E->nsplit  = nsplit;
    E->nnz     = counts[2] - counts[1];
    WinRuns<<<grid, 256, 0, st>>>(nsplit, nrows, threshold, S.key, slen, run);
    TRY(cudaGetLastError());
    TRY(Alloc((void **)&T.cbase, sizeof(long long) * ((size_t)nsplit + 1)));
    if (nsplit) {
      thrust::device_ptr<long long> CB(T.cbase);
      SplitChunks<<<(nsplit + 256) / 256, 256, 0, st>>>(nsplit, threshold, slen, T.cbase);
      TRY(cudaGetLastError());
      thrust::exclusive_scan(pol, CB, CB + nsplit + 1, CB, 0LL);
      TRY(cudaMemcpyAsync(&nsw, T.cbase + nsplit, sizeof(long long), cudaMemcpyDeviceToHost, st));
      E->maxlanes = 32;
    }
    if (nsplit < nrows) {
      thrust::inclusive_scan(pol, H + nsplit, H + nrows, H + nsplit, thrust::maximum<int>());
      WinWarpStarts<<<grid, 256, 0, st>>>(nsplit, nrows, threshold, slen, run, cum);
      TRY(cudaGetLastError());
      thrust::inclusive_scan(pol, C + nsplit, C + nrows, C + nsplit);
      TRY(cudaMemcpyAsync(&nw_rows, cum + nrows - 1, sizeof(int), cudaMemcpyDeviceToHost, st));
    }
    TRY(cudaStreamSynchronize(st));
    if (nsw + nw_rows > 2147483647LL) {
      PetscWarpEllFreeCUDA(E);
      return (int)cudaErrorInvalidValue;
    }
    int wb = (int)nsw + nw_rows;
    if (int e = AllocWarps(wb, st, T, E)) return e;
    WinRowWarp<<<grid, 256, 0, st>>>(nsplit, nrows, (int)nsw, cum, rowwarp, E->wrow);
    TRY(cudaGetLastError());
    if (wb) {
      thrust::device_ptr<long long> Wp(T.wslots);
      WinWarpInfo<<<(wb + 255) / 256, 256, 0, st>>>(wb, nrows, nsplit, T.cbase, threshold, slen, E->wrow, E->winfo, T.wslots, d_counts + 3);
      MaxSlots<<<(wb + 255) / 256, 256, 0, st>>>(wb, T.wslots, (unsigned long long *)(T.wslots + wb + 1));
      TRY(cudaGetLastError());
      thrust::exclusive_scan(pol, Wp, Wp + wb + 1, Wp, 0LL);
    }
    TRY(cudaMemcpyAsync(tail, T.wslots + wb, sizeof(tail), cudaMemcpyDeviceToHost, st));
    TRY(cudaMemcpyAsync(counts + 3, d_counts + 3, 2 * sizeof(int), cudaMemcpyDeviceToHost, st));
    TRY(cudaStreamSynchronize(st));
    if (int e = AllocSlots(nrows, wb, tail, st, T, E)) return e;
    if (counts[3] > E->maxlanes) E->maxlanes = counts[3];
    E->identity = counts[4] == 0;
    FillWin<<<(nrows + 127) / 128, 128, 0, st>>>(nsplit, nrows, rowwarp, E->wrow, E->winfo, d_rowptr, d_colidx, E->perm, E->woff, E->col, E->map, E->diag);
    TRY(cudaGetLastError());
    if (nsw) {
      FillSplit<<<(int)((nsw + 127) / 128), 128, 0, st>>>((int)nsw, threshold, T.cbase, E->wrow, d_rowptr, d_colidx, E->perm, E->woff, E->col, E->map, E->diag);
      TRY(cudaGetLastError());
    }
  } catch (std::bad_alloc &) {
    PetscWarpEllFreeCUDA(E);
    return (int)cudaErrorMemoryAllocation;
  } catch (...) {
    PetscWarpEllFreeCUDA(E);
    return (int)cudaErrorUnknown;
  }
  return (int)cudaStreamSynchronize(st);
}

extern "C" int PetscWarpEllBuildWindowCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, int window, void *stream, PetscWarpEll *E)
{
  int W = PetscWarpEllWindow(nrows, window);
  if (!W) return BuildGlobal(nrows, ncols, d_rowptr, d_colidx, d_order, threshold, stream, E);
  return BuildWindowed(nrows, ncols, d_rowptr, d_colidx, d_order, threshold, W, (cudaStream_t)stream, E);
}

extern "C" int PetscWarpEllBuildCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, void *stream, PetscWarpEll *E)
{
  return BuildGlobal(nrows, ncols, d_rowptr, d_colidx, d_order, threshold, stream, E);
}
