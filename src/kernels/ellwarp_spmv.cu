/* ELL-WARP products on the device: K1 (thread per row), K2 (rows split over L lanes, shuffle reduction),
   the transpose product (atomics), value refresh and diagonal extraction. Twin: ellwarp_spmv_host.c. */
#include <petscwarp/private/ellwarpkernels.h>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

#ifndef PETSCWARP_STREAM_LOADS
  #define PETSCWARP_STREAM_LOADS 1
#endif

/* A load of the layout (values, columns, codes: read once per product). Cache-streaming (evict-first, __ldcs) so that
   the matrix streaming through L2 does not push out the vectors the next kernel reads: under ncu (H100, 2026-11-27,
   CG on the gmsh P2 tetrahedra) cuSPARSE's csrmv left w and the step's vectors in L2 (the step then read 3.4 MB from
   DRAM) where ELL-WARP's plain loads evicted them (20.5 MB, the step 15% slower). PETSCWARP_STREAM_LOADS 0: __ldg */
template <typename T>
__device__ __forceinline__ T LdS(const T *p)
{
#if PETSCWARP_STREAM_LOADS
  return __ldcs(p);
#else
  return __ldg(p);
#endif
}

/* K1: warp w holds sorted rows 32w..32w+31, lane = row */
__global__ void __launch_bounds__(1024) EllWarpK1(int nrows, int nwarps, const int *__restrict__ woff, const int *__restrict__ col, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y)
{
  int gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  if (w >= nwarps) return;
  int    end = woff[w + 1];
  double sum = 0.0;
#pragma unroll 4
  for (int s = woff[w] + lane; s < end; s += PETSCWARP_WARP) sum += LdS(&val[s]) * __ldg(&x[LdS(&col[s])]);
  int row = (w << 5) + lane;
  if (row < nrows) {
    int p = perm ? perm[row] : row; /* perm == NULL: rows in sorted order (Kr), a coalesced store */
    y[p]  = z ? z[p] + sum : sum;
  }
}

/* The end of a K2-form product: the lanes' sums reduced over the L = 2^l lanes of each row (info = winfo[w]) and stored
   (added atomically for a chunk of a split row); row0 = wrow[w] */
__device__ __forceinline__ void StoreRows(double sum, int lane, int info, int row0, const int *__restrict__ perm, const double *z, double *y)
{
  int l = info & 255, nr = (info >> 8) & 255, r = lane >> l;
  for (int off = (1 << l) >> 1; off > 0; off >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, off);
  if ((lane & ((1 << l) - 1)) == 0 && r < nr) {
    int p = perm ? perm[row0 + r] : row0 + r;
    if (info & PETSCWARP_SPLIT) atomicAdd(&y[p], sum); /* one chunk of a split row */
    else y[p] = z ? z[p] + sum : sum;
  }
}

/* The U products of a unit: values v[32 j], columns c .. c + U - 1 */
template <int U>
__device__ __forceinline__ double UnitDot(const double *__restrict__ v, const double *__restrict__ x, int c)
{
  double s = 0.0;
#pragma unroll
  for (int j = 0; j < U; j++) s += LdS(&v[PETSCWARP_WARP * j]) * __ldg(&x[c + j]);
  return s;
}

/* K2: warp w holds 32/L rows of L lanes each; lane t = r*L + sub */
__global__ void __launch_bounds__(1024) EllWarpK2(int nwarps, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ col, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y)
{
  int gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  if (w >= nwarps) return;
  int    info = winfo[w], end = woff[w + 1];
  double sum = 0.0;
#pragma unroll 4
  for (int s = woff[w] + lane; s < end; s += PETSCWARP_WARP) sum += LdS(&val[s]) * __ldg(&x[LdS(&col[s])]);
  StoreRows(sum, lane, info, wrow[w], perm, z, y);
}

/* The compact index (issue 9): K2's form over units of U consecutive columns, one column index per unit; in a cluster
   warp (wmode[w] >= 0, a branch uniform per warp) lane k holds cluster start k and a code's top sb bits name the lane
   to fetch it from (one shuffle per unit); in a hybrid warp a lane adds a code below 0x8000 to its previous column, and
   jumps to a bucket start (fetched the same way) plus an offset otherwise */
template <int U>
__global__ void __launch_bounds__(1024) EllWarpKc(int nwarps, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ wmode, const int *__restrict__ ioff, const unsigned short *__restrict__ cidx, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y)
{
  int gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  if (w >= nwarps) return;
  int                   info = winfo[w], v0 = woff[w], nb = (woff[w + 1] - v0) / (PETSCWARP_WARP * U), mode = wmode[w];
  const unsigned short *ci  = cidx + ioff[w];
  const double         *v   = val + v0 + lane;
  double                sum = 0.0;
  if (mode >= 0) {
    int                   ob = 16 - (mode & 255), ncl = mode >> 8, start = lane < ncl ? reinterpret_cast<const int *>(ci)[lane] : 0;
    unsigned              mask = (1u << ob) - 1;
    const unsigned short *cc   = ci + 2 * ncl;
#pragma unroll 4
    for (int kb = 0; kb < nb; kb++) {
      unsigned code = LdS(&cc[PETSCWARP_WARP * kb + lane]);
      sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, (__shfl_sync(FULL_MASK, start, (int)(code >> ob)) + (int)(code & mask)) * U);
    }
  } else if (mode < PETSCWARP_MODE_WIDE) { /* hybrid */
    int                   ncl = -2 - mode, start = lane < ncl ? reinterpret_cast<const int *>(ci)[lane] : 0, c = 0;
    const unsigned short *cc = ci + 2 * ncl;
#pragma unroll 4
    for (int kb = 0; kb < nb; kb++) {
      unsigned code = LdS(&cc[PETSCWARP_WARP * kb + lane]);
      int      jump = __shfl_sync(FULL_MASK, start, (int)((code >> 10) & 31u)) + (int)(code & 1023u);
      c             = code & 0x8000u ? jump : c + (int)code;
      sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, c * U);
    }
  } else {
    const int *cw = reinterpret_cast<const int *>(ci);
#pragma unroll 4
    for (int kb = 0; kb < nb; kb++) sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, LdS(&cw[PETSCWARP_WARP * kb + lane]) * U);
  }
  StoreRows(sum, lane, info, wrow[w], perm, z, y);
}

template <int U>
static void LaunchKc(const PetscWarpEll *E, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y)
{
  EllWarpKc<U><<<grid, blocksize, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->wmode, E->ioff, E->cidx, E->val, perm, x, z, y);
}

/* The instance of EllWarpKc for unit u (1..U): false if there is none */
template <int U>
static bool LaunchKcUpTo(int u, const PetscWarpEll *E, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y)
{
  if (u == U) {
    LaunchKc<U>(E, grid, blocksize, st, perm, x, z, y);
    return true;
  }
  return LaunchKcUpTo<U - 1>(u, E, grid, blocksize, st, perm, x, z, y);
}

template <>
bool LaunchKcUpTo<0>(int, const PetscWarpEll *, int, int, cudaStream_t, const int *, const double *, const double *, double *)
{
  return false;
}

/* Load schedules of the forward products (-mat_ellwarp_kc_variant, issue 9). Variant 0 is the loops above, scheduled by
   the compiler: in EllWarpKc's 16-bit loops ptxas issues one unit per memory round trip (code load, shuffle, value and
   x loads, the FMA waiting for them, then the next code load), so a warp has one unit in flight (H100: 68% of DRAM
   bandwidth on the Q1 Laplacian). The variants load explicitly in batches of D units per lane: the batch's codes (or
   32-bit columns) and values into registers first, then decode them (the shuffles), then load the batch's x entries,
   then accumulate in variant 0's order and arithmetic (bitwise the same sums but for split rows' atomic chunks):
     1: D = 8/U (at least 1), one batch at a time (two round trips per batch);
     2: D = 4/U, software pipelined: the next batch's codes and values are loaded before this batch's x (one round trip
        per batch once started; about twice the registers of a batch);
     3: D = 4/U, one batch at a time (variant 2 without the pipelining, variant 1 with half the registers).
   All also load the row's permutation entry before the loop instead of after it. The same schedules run the 32-bit
   K1/K2 loops (EllWarpK1V, EllWarpK2V). The warp's unit count is uniform, so every lane runs every shuffle.
   __launch_bounds__(1024, 1): without the min-blocks hint ptxas (CUDA 13.0, sm_90) gives EllWarpK1V 32 registers and
   interleaves each FMA between the loads (the FMA waits for its x, the next loads wait for the FMA), undoing the batch;
   with it, every variant's SASS issues a batch's loads back to back (at most 64 registers, no spills). */
template <int V, int U>
struct KcSchedule {
  static constexpr int  D    = V == 1 ? (U >= 8 ? 1 : 8 / U) : (U >= 4 ? 1 : 4 / U);
  static constexpr bool PIPE = V == 2;
};

/* Decoders of a lane's codes into unit columns, one code at a time in slot order: 32-bit columns, cluster codes (start_k
   in lane k), hybrid codes (difference from the lane's previous column, or a jump to a bucket start in lane k) */
struct DecWide {
  __device__ __forceinline__ int operator()(unsigned code) { return (int)code; }
};

struct DecCluster {
  int                            start, ob;
  unsigned                       mask;
  __device__ __forceinline__ int operator()(unsigned code) { return __shfl_sync(FULL_MASK, start, (int)(code >> ob)) + (int)(code & mask); }
};

struct DecHybrid {
  int                            start, c;
  __device__ __forceinline__ int operator()(unsigned code)
  {
    int jump = __shfl_sync(FULL_MASK, start, (int)((code >> 10) & 31u)) + (int)(code & 1023u);
    c        = code & 0x8000u ? jump : c + (int)code;
    return c;
  }
};

/* The codes and values of units k0 .. k0 + D - 1 of a lane (those below nb; 0 beyond): code of unit k at cc[32 k], its
   values at v[32 (U k + j)] */
template <int U, int D, typename T>
__device__ __forceinline__ void LoadBatch(int k0, int nb, const T *__restrict__ cc, const double *__restrict__ v, unsigned (&code)[D], double (&a)[D * U])
{
#pragma unroll
  for (int i = 0; i < D; i++) {
    bool on = k0 + i < nb;
    code[i] = on ? (unsigned)LdS(cc + PETSCWARP_WARP * (k0 + i)) : 0u;
#pragma unroll
    for (int j = 0; j < U; j++) a[i * U + j] = on ? LdS(v + PETSCWARP_WARP * (U * (k0 + i) + j)) : 0.0;
  }
}

/* A lane's sum over its nb units in batches of D (see KcSchedule). FUSED: sum += v x per entry (K1, K2); else the
   products of a unit summed first and added to sum (EllWarpKc's UnitDot) */
template <int U, int D, bool PIPE, bool FUSED, typename T, typename Dec>
__device__ __forceinline__ double BatchSum(int nb, const T *__restrict__ cc, const double *__restrict__ v, const double *__restrict__ x, Dec &dec)
{
  unsigned cn[D];
  double   an[D * U], sum = 0.0;
  if (PIPE) LoadBatch<U, D>(0, nb, cc, v, cn, an);
  for (int k0 = 0; k0 < nb; k0 += D) {
    unsigned code[D];
    double   a[D * U], b[D * U];
    int      col[D];
    if (PIPE) {
#pragma unroll
      for (int i = 0; i < D; i++) code[i] = cn[i];
#pragma unroll
      for (int i = 0; i < D * U; i++) a[i] = an[i];
      if (k0 + D < nb) LoadBatch<U, D>(k0 + D, nb, cc, v, cn, an); /* uniform: the whole warp or none */
    } else LoadBatch<U, D>(k0, nb, cc, v, code, a);
#pragma unroll
    for (int i = 0; i < D; i++) col[i] = dec(code[i]); /* every lane: the shuffles */
#pragma unroll
    for (int i = 0; i < D; i++)
#pragma unroll
      for (int j = 0; j < U; j++) b[i * U + j] = k0 + i < nb ? __ldg(&x[col[i] * U + j]) : 0.0;
#pragma unroll
    for (int i = 0; i < D; i++)
      if (k0 + i < nb) {
        if (FUSED) {
#pragma unroll
          for (int j = 0; j < U; j++) sum += a[i * U + j] * b[i * U + j];
        } else {
          double s = 0.0;
#pragma unroll
          for (int j = 0; j < U; j++) s += a[i * U + j] * b[i * U + j];
          sum += s;
        }
      }
  }
  return sum;
}

/* Where lane stores its row's sum (StoreRows(), loaded before the loop): -1 for a lane that stores nothing */
__device__ __forceinline__ int RowTarget(int lane, int info, int row0, const int *__restrict__ perm)
{
  int l = info & 255, nr = (info >> 8) & 255, r = lane >> l;
  if ((lane & ((1 << l) - 1)) || r >= nr) return -1;
  return perm ? __ldg(perm + row0 + r) : row0 + r;
}

/* StoreRows() with the target p from RowTarget(); returns the row's sum (A x of the row, or of the chunk) in the lane
   that stored it */
__device__ __forceinline__ double StoreRowsAt(double sum, int info, int p, const double *z, double *y)
{
  int l = info & 255;
  for (int off = (1 << l) >> 1; off > 0; off >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, off);
  if (p >= 0) {
    if (info & PETSCWARP_SPLIT) atomicAdd(&y[p], sum);
    else y[p] = z ? z[p] + sum : sum;
  }
  return sum;
}

/* DOT (PetscWarpEllMultDotCUDA()): the block's sum of x[p] y[p] over the rows it stored (dot: this thread's term) into
   part[blockIdx.x], in a fixed order. Every thread of the block calls it (the kernels below do not return early then). */
__device__ __forceinline__ void BlockDotPart(double dot, double *part)
{
  __shared__ double sh[32];
  int               lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
  for (int off = 16; off > 0; off >>= 1) dot += __shfl_down_sync(FULL_MASK, dot, off);
  if (lane == 0) sh[wid] = dot;
  __syncthreads();
  if (wid == 0) {
    dot = lane < nw ? sh[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) dot += __shfl_down_sync(FULL_MASK, dot, off);
    if (lane == 0) part[blockIdx.x] = dot;
  }
}

/* EllWarpK1 with schedule V (DOT: y = A x and the block sums of x'y; z is NULL) */
template <int V, bool DOT>
__global__ void __launch_bounds__(1024, 1) EllWarpK1V(int nrows, int nwarps, const int *__restrict__ woff, const int *__restrict__ col, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y, double *part)
{
  using S   = KcSchedule<V, 1>;
  int    gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  double dot = 0.0;
  if (w < nwarps) {
    int     v0 = woff[w], nb = (woff[w + 1] - v0) / PETSCWARP_WARP, row = (w << 5) + lane, p = row < nrows ? (perm ? __ldg(perm + row) : row) : -1;
    DecWide dec;
    double  sum = BatchSum<1, S::D, S::PIPE, true>(nb, col + v0 + lane, val + v0 + lane, x, dec);
    if (p >= 0) y[p] = z ? z[p] + sum : sum;
    if (DOT && p >= 0) dot = __ldg(&x[p]) * sum;
  } else if (!DOT) return;
  if (DOT) BlockDotPart(dot, part);
}

/* EllWarpK2 with schedule V */
template <int V, bool DOT>
__global__ void __launch_bounds__(1024, 1) EllWarpK2V(int nwarps, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ col, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y, double *part)
{
  using S   = KcSchedule<V, 1>;
  int    gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  double dot = 0.0;
  if (w < nwarps) {
    int     info = winfo[w], v0 = woff[w], nb = (woff[w + 1] - v0) / PETSCWARP_WARP, p = RowTarget(lane, info, wrow[w], perm);
    DecWide dec;
    double  sum = BatchSum<1, S::D, S::PIPE, true>(nb, col + v0 + lane, val + v0 + lane, x, dec);
    sum         = StoreRowsAt(sum, info, p, z, y); /* DOT: z is NULL and no row is split, so y[p] = sum */
    if (DOT && p >= 0) dot = __ldg(&x[p]) * sum;
  } else if (!DOT) return;
  if (DOT) BlockDotPart(dot, part);
}

/* EllWarpKc with schedule V */
template <int V, int U, bool DOT>
__global__ void __launch_bounds__(1024, 1) EllWarpKcV(int nwarps, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ wmode, const int *__restrict__ ioff, const unsigned short *__restrict__ cidx, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y, double *part)
{
  using S   = KcSchedule<V, U>;
  int    gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  double dot = 0.0;
  if (w < nwarps) {
    int                   info = winfo[w], v0 = woff[w], nb = (woff[w + 1] - v0) / (PETSCWARP_WARP * U), mode = wmode[w], p = RowTarget(lane, info, wrow[w], perm);
    const unsigned short *ci = cidx + ioff[w];
    const double         *v  = val + v0 + lane;
    double                sum;
    if (mode >= 0) {
      int        ncl = mode >> 8, ob = 16 - (mode & 255);
      DecCluster dec{lane < ncl ? reinterpret_cast<const int *>(ci)[lane] : 0, ob, (1u << ob) - 1};
      sum = BatchSum<U, S::D, S::PIPE, false>(nb, ci + 2 * ncl + lane, v, x, dec);
    } else if (mode < PETSCWARP_MODE_WIDE) { /* hybrid */
      int       ncl = -2 - mode;
      DecHybrid dec{lane < ncl ? reinterpret_cast<const int *>(ci)[lane] : 0, 0};
      sum = BatchSum<U, S::D, S::PIPE, false>(nb, ci + 2 * ncl + lane, v, x, dec);
    } else {
      DecWide dec;
      sum = BatchSum<U, S::D, S::PIPE, false>(nb, reinterpret_cast<const int *>(ci) + lane, v, x, dec);
    }
    sum = StoreRowsAt(sum, info, p, z, y); /* DOT: z is NULL and no row is split, so y[p] = sum */
    if (DOT && p >= 0) dot = __ldg(&x[p]) * sum;
  } else if (!DOT) return;
  if (DOT) BlockDotPart(dot, part); /* every thread of the block, at the one barrier */
}

template <int V, int U, bool DOT>
static void LaunchKcV(const PetscWarpEll *E, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y, double *part)
{
  EllWarpKcV<V, U, DOT><<<grid, blocksize, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->wmode, E->ioff, E->cidx, E->val, perm, x, z, y, part);
}

/* The instance of EllWarpKcV for unit u (1..U): false if there is none */
template <int V, int U, bool DOT>
static bool LaunchKcVUpTo(int u, const PetscWarpEll *E, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y, double *part)
{
  if constexpr (U == 0) return false;
  else {
    if (u == U) {
      LaunchKcV<V, U, DOT>(E, grid, blocksize, st, perm, x, z, y, part);
      return true;
    }
    return LaunchKcVUpTo<V, U - 1, DOT>(u, E, grid, blocksize, st, perm, x, z, y, part);
  }
}

/* The products of schedule V >= 1 (see KcSchedule); DOT: also the block sums of x'y into part[grid] (z NULL, no split
   rows: the caller checks) */
template <int V, bool DOT>
static int MultV(const PetscWarpEll *E, int kernel, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y, double *part)
{
  if (kernel == 1 && !E->cidx) {
    EllWarpK1V<V, DOT><<<grid, blocksize, 0, st>>>(E->nrows, E->nwarps, E->woff, E->col, E->val, perm, x, z, y, part);
    return 0;
  }
  if (!E->cidx) EllWarpK2V<V, DOT><<<grid, blocksize, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->col, E->val, perm, x, z, y, part);
  else if (!LaunchKcVUpTo<V, PETSCWARP_MAX_UNIT, DOT>(E->unit < 1 ? 1 : E->unit, E, grid, blocksize, st, perm, x, z, y, part)) return (int)cudaErrorInvalidValue;
  return 0;
}

/* MultV() of schedule variant 1, 2 or 3 (3 for any other) */
template <bool DOT>
static int MultSchedule(int variant, const PetscWarpEll *E, int kernel, int grid, int blocksize, cudaStream_t st, const int *perm, const double *x, const double *z, double *y, double *part)
{
  switch (variant) {
  case 1:
    return MultV<1, DOT>(E, kernel, grid, blocksize, st, perm, x, z, y, part);
  case 2:
    return MultV<2, DOT>(E, kernel, grid, blocksize, st, perm, x, z, y, part);
  default:
    return MultV<3, DOT>(E, kernel, grid, blocksize, st, perm, x, z, y, part);
  }
}

/* y = z (or 0) on the split rows, which then accumulate their chunks */
__global__ void EllWarpInitSplit(int nsplit, const int *__restrict__ perm, const double *z, double *y)
{
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nsplit) {
    int p = perm ? perm[s] : s;
    y[p]  = z ? z[p] : 0.0;
  }
}

/* y += A^T x: every lane scatters its entries with atomics */
__global__ void EllWarpMultT(int nwarps, const int *__restrict__ woff, const int *__restrict__ wrow, const int *__restrict__ winfo, const int *__restrict__ col, const int *__restrict__ map, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, double *y)
{
  int gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  if (w >= nwarps) return;
  int info = winfo[w], l = info & 255, r = lane >> l;
  if (r >= ((info >> 8) & 255)) return;
  double xr  = x[perm ? perm[wrow[w] + r] : wrow[w] + r];
  int    end = woff[w + 1];
  for (int s = woff[w] + lane; s < end; s += PETSCWARP_WARP)
    if (map[s] >= 0) atomicAdd(&y[col[s]], val[s] * xr);
}

__global__ void EllWarpRefresh(int nslots, const int *__restrict__ map, const double *__restrict__ csrval, double *__restrict__ val)
{
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += gridDim.x * blockDim.x) {
    int m  = map[s];
    val[s] = m >= 0 ? csrval[m] : 0.0;
  }
}

__global__ void EllWarpToCSR(int nslots, const int *__restrict__ map, const double *__restrict__ val, double *__restrict__ csrval)
{
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nslots; s += gridDim.x * blockDim.x) {
    int m = map[s];
    if (m >= 0) csrval[m] = val[s];
  }
}

__global__ void EllWarpDiag(int nrows, const int *__restrict__ diag, const double *__restrict__ val, double *__restrict__ d)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nrows) d[i] = diag[i] >= 0 ? val[diag[i]] : 0.0;
}

static int Blocks(long long threads, int bs)
{
  long long b = (threads + bs - 1) / bs;
  return (int)(b > 0 ? b : 1);
}

extern "C" int PetscWarpCUDADeviceCount(int *count)
{
  cudaError_t e = cudaGetDeviceCount(count);
  if (e != cudaSuccess) {
    *count = 0;
    (void)cudaGetLastError(); /* clear the sticky error of a machine without a driver */
  }
  return (int)e;
}

extern "C" int PetscWarpEllMultCUDA(const PetscWarpEll *E, int kernel, int blocksize, const double *x, const double *z, double *y, void *stream)
{
  return PetscWarpEllMultVariantCUDA(E, kernel, -1, blocksize, x, z, y, stream);
}

extern "C" int PetscWarpEllMultVariantCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, const double *x, const double *z, double *y, void *stream)
{
  cudaStream_t st   = (cudaStream_t)stream;
  const int   *perm = E->identity ? NULL : E->perm;
  int          err  = 0;
  if (variant < -1 || variant >= PETSCWARP_KC_VARIANTS) return (int)cudaErrorInvalidValue;
  variant = PetscWarpEllVariant(E, variant);
  if (!E->nrows) return 0;
  if (blocksize < 32 || blocksize > 1024 || blocksize % 32) return (int)cudaErrorInvalidConfiguration;
  if (!E->nwarps) return 0;
  int grid = Blocks((long long)E->nwarps * PETSCWARP_WARP, blocksize);
  if (kernel == 1 && !E->cidx && E->maxlanes != 1) return (int)cudaErrorInvalidValue;
  if (variant) {
    if (E->nsplit && z != y && !(kernel == 1 && !E->cidx)) EllWarpInitSplit<<<Blocks(E->nsplit, 256), 256, 0, st>>>(E->nsplit, perm, z, y);
    err = MultSchedule<false>(variant, E, kernel, grid, blocksize, st, perm, x, z, y, NULL);
    return err ? err : (int)cudaGetLastError();
  }
  if (kernel == 1 && !E->cidx) {
    EllWarpK1<<<grid, blocksize, 0, st>>>(E->nrows, E->nwarps, E->woff, E->col, E->val, perm, x, z, y);
    return (int)cudaGetLastError();
  }
  if (E->nsplit && z != y) EllWarpInitSplit<<<Blocks(E->nsplit, 256), 256, 0, st>>>(E->nsplit, perm, z, y);
  if (!E->cidx) EllWarpK2<<<grid, blocksize, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->col, E->val, perm, x, z, y);
  else if (!LaunchKcUpTo<PETSCWARP_MAX_UNIT>(E->unit < 1 ? 1 : E->unit, E, grid, blocksize, st, perm, x, z, y)) return (int)cudaErrorInvalidValue;
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpEllMultDotPartsCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, int *nparts)
{
  *nparts = 0;
  if (variant < -1 || variant >= PETSCWARP_KC_VARIANTS) return (int)cudaErrorInvalidValue;
  if (blocksize < 32 || blocksize > 1024 || blocksize % 32) return (int)cudaErrorInvalidConfiguration;
  if (PetscWarpEllVariant(E, variant) == 0 || E->nsplit || E->nrows != E->ncols || !E->nrows || !E->nwarps || (kernel == 1 && !E->cidx && E->maxlanes != 1)) return (int)cudaErrorNotSupported;
  *nparts = Blocks((long long)E->nwarps * PETSCWARP_WARP, blocksize);
  return 0;
}

extern "C" int PetscWarpEllMultDotCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, const double *x, double *y, double *part, void *stream)
{
  cudaStream_t st   = (cudaStream_t)stream;
  const int   *perm = E->identity ? NULL : E->perm;
  int          grid, err;
  if ((err = PetscWarpEllMultDotPartsCUDA(E, kernel, variant, blocksize, &grid))) return err;
  err = MultSchedule<true>(PetscWarpEllVariant(E, variant), E, kernel, grid, blocksize, st, perm, x, NULL, y, part);
  return err ? err : (int)cudaGetLastError();
}

extern "C" int PetscWarpEllMultTransposeCUDA(const PetscWarpEll *E, const double *x, const double *z, double *y, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  cudaError_t  e;
  if (!E->ncols) return 0;
  if (z && z != y) e = cudaMemcpyAsync(y, z, sizeof(double) * (size_t)E->ncols, cudaMemcpyDeviceToDevice, st);
  else if (!z) e = cudaMemsetAsync(y, 0, sizeof(double) * (size_t)E->ncols, st);
  else e = cudaSuccess;
  if (e != cudaSuccess || !E->nwarps) return (int)e;
  EllWarpMultT<<<Blocks((long long)E->nwarps * PETSCWARP_WARP, 256), 256, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->col, E->map, E->val, E->identity ? NULL : E->perm, x, y);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpEllRefreshCUDA(const PetscWarpEll *E, const double *d_csrval, void *stream)
{
  if (!E->nslots) return 0;
  int grid = Blocks(E->nslots, 256);
  if (grid > 65536) grid = 65536;
  EllWarpRefresh<<<grid, 256, 0, (cudaStream_t)stream>>>(E->nslots, E->map, d_csrval, E->val);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpEllToCSRCUDA(const PetscWarpEll *E, double *d_csrval, void *stream)
{
  if (!E->nslots) return 0;
  int grid = Blocks(E->nslots, 256);
  if (grid > 65536) grid = 65536;
  EllWarpToCSR<<<grid, 256, 0, (cudaStream_t)stream>>>(E->nslots, E->map, E->val, d_csrval);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpEllGetDiagonalCUDA(const PetscWarpEll *E, double *d, void *stream)
{
  if (!E->nrows) return 0;
  EllWarpDiag<<<Blocks(E->nrows, 256), 256, 0, (cudaStream_t)stream>>>(E->nrows, E->diag, E->val, d);
  return (int)cudaGetLastError();
}
