/* ELL-WARP products on the device: K1 (thread per row), K2 (rows split over L lanes, shuffle reduction),
   the transpose product (atomics), value refresh and diagonal extraction. Twin: ellwarp_spmv_host.c. */
#include <petscwarp/private/ellwarpkernels.h>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

/* K1: warp w holds sorted rows 32w..32w+31, lane = row */
__global__ void __launch_bounds__(1024) EllWarpK1(int nrows, int nwarps, const int *__restrict__ woff, const int *__restrict__ col, const double *__restrict__ val, const int *__restrict__ perm, const double *__restrict__ x, const double *z, double *y)
{
  int gt = blockIdx.x * blockDim.x + threadIdx.x, w = gt >> 5, lane = gt & 31;
  if (w >= nwarps) return;
  int    end = woff[w + 1];
  double sum = 0.0;
#pragma unroll 4
  for (int s = woff[w] + lane; s < end; s += PETSCWARP_WARP) sum += val[s] * __ldg(&x[col[s]]);
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
  for (int j = 0; j < U; j++) s += v[PETSCWARP_WARP * j] * __ldg(&x[c + j]);
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
  for (int s = woff[w] + lane; s < end; s += PETSCWARP_WARP) sum += val[s] * __ldg(&x[col[s]]);
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
      unsigned code = cc[PETSCWARP_WARP * kb + lane];
      sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, (__shfl_sync(FULL_MASK, start, (int)(code >> ob)) + (int)(code & mask)) * U);
    }
  } else if (mode < PETSCWARP_MODE_WIDE) { /* hybrid */
    int                   ncl = -2 - mode, start = lane < ncl ? reinterpret_cast<const int *>(ci)[lane] : 0, c = 0;
    const unsigned short *cc = ci + 2 * ncl;
#pragma unroll 4
    for (int kb = 0; kb < nb; kb++) {
      unsigned code = cc[PETSCWARP_WARP * kb + lane];
      int      jump = __shfl_sync(FULL_MASK, start, (int)((code >> 10) & 31u)) + (int)(code & 1023u);
      c             = code & 0x8000u ? jump : c + (int)code;
      sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, c * U);
    }
  } else {
    const int *cw = reinterpret_cast<const int *>(ci);
#pragma unroll 4
    for (int kb = 0; kb < nb; kb++) sum += UnitDot<U>(v + PETSCWARP_WARP * U * kb, x, cw[PETSCWARP_WARP * kb + lane] * U);
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
  cudaStream_t st   = (cudaStream_t)stream;
  const int   *perm = E->identity ? NULL : E->perm;
  if (!E->nrows) return 0;
  if (blocksize < 32 || blocksize > 1024 || blocksize % 32) return (int)cudaErrorInvalidConfiguration;
  if (!E->nwarps) return 0;
  int grid = Blocks((long long)E->nwarps * PETSCWARP_WARP, blocksize);
  if (kernel == 1 && !E->cidx) {
    if (E->maxlanes != 1) return (int)cudaErrorInvalidValue;
    EllWarpK1<<<grid, blocksize, 0, st>>>(E->nrows, E->nwarps, E->woff, E->col, E->val, perm, x, z, y);
    return (int)cudaGetLastError();
  }
  if (E->nsplit && z != y) EllWarpInitSplit<<<Blocks(E->nsplit, 256), 256, 0, st>>>(E->nsplit, perm, z, y);
  if (!E->cidx) EllWarpK2<<<grid, blocksize, 0, st>>>(E->nwarps, E->woff, E->wrow, E->winfo, E->col, E->val, perm, x, z, y);
  else if (!LaunchKcUpTo<PETSCWARP_MAX_UNIT>(E->unit < 1 ? 1 : E->unit, E, grid, blocksize, st, perm, x, z, y)) return (int)cudaErrorInvalidValue;
  return (int)cudaGetLastError();
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
