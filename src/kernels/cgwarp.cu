/* KSPCGWARP on the device: the vector work of a CG iteration with alpha, beta and the norms computed in device memory
   (grid reductions with the last-block pattern: block partial sums in a work array, the last block to finish sums
   them in a fixed order, so results do not depend on scheduling). Twin: cgwarp_host.c. */
#include <petscwarp/private/cgwarpkernels.h>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#define CG_THREADS 256
#define CG_MAXGRID 1024 /* grid-stride loops beyond: about the resident blocks of an H100 (132 SMs x 8) */
#define FULL_MASK  0xffffffffu

static int Grid(int n)
{
  int g = (n + CG_THREADS - 1) / CG_THREADS;
  return g < 1 ? 1 : (g > CG_MAXGRID ? CG_MAXGRID : g);
}

#define STEP_THREADS 512
#define STEP_MAXGRID 512 /* the step's partial sums: 4 per block, within the work space of 3 CG_MAXGRID */

size_t PetscWarpCGWorkBytesCUDA(int n)
{
  size_t g = 3 * (size_t)Grid(n);
  return sizeof(double) * (g > 4 * STEP_MAXGRID ? g : 4 * STEP_MAXGRID);
}

/* Sum of v over the block, valid in thread 0 (NR values at once) */
template <int NR, int NT = CG_THREADS>
__device__ static void BlockSum(double v[NR])
{
  __shared__ double sh[NR][NT / 32];
  int               lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < NR; k++) {
    for (int off = 16; off > 0; off >>= 1) v[k] += __shfl_down_sync(FULL_MASK, v[k], off);
    if (lane == 0) sh[k][wid] = v[k];
  }
  __syncthreads();
  if (wid == 0) {
#pragma unroll
    for (int k = 0; k < NR; k++) {
      v[k] = lane < NT / 32 ? sh[k][lane] : 0.0;
      for (int off = 16; off > 0; off >>= 1) v[k] += __shfl_down_sync(FULL_MASK, v[k], off);
    }
  }
}

/* Grid sum of the per-thread values v: true in thread 0 of the last block, where v then holds the sums */
template <int NR>
__device__ static bool GridSum(double v[NR], double *work, unsigned int *count)
{
  __shared__ bool last;
  BlockSum<NR>(v);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < NR; k++) work[NR * blockIdx.x + k] = v[k];
    __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return false;
    /* the last block: sum the partial sums in a fixed order */
#pragma unroll
  for (int k = 0; k < NR; k++) v[k] = 0.0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += CG_THREADS) {
#pragma unroll
    for (int k = 0; k < NR; k++) v[k] += __ldcg(&work[NR * b + k]);
  }
  BlockSum<NR>(v);
  if (threadIdx.x == 0) *count = 0;
  return threadIdx.x == 0;
}

__global__ void __launch_bounds__(CG_THREADS) CGDirection(int n, int it, const double *__restrict__ z, double *__restrict__ p, double *__restrict__ x, int first, const PetscWarpCGScalars *S)
{
  const int lag = PetscWarpCGLagged(S, it, x), upd = z && !S->status;
  if (!lag && !upd) return;
  const double xa = S->xa, b = first ? 0.0 : S->b;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) PetscWarpCGDirectionEntry(i, lag, upd, first, xa, b, z, p, x);
}

__global__ void __launch_bounds__(CG_THREADS) CGAlpha(int n, const double *__restrict__ p, const double *__restrict__ w, PetscWarpCGScalars *S, double *work, PetscWarpCGCtl c)
{
  double v[1] = {0.0};
  if (S->status) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v[0] += p[i] * w[i];
  if (GridSum<1>(v, work, &S->count)) PetscWarpCGFinishAlpha(S, v[0], &c);
}

/* z may alias w or r: no __restrict__ on those */
__global__ void __launch_bounds__(CG_THREADS) CGUpdate(int n, int flags, double *__restrict__ x, double *r, const double *__restrict__ p, const double *w, double *z, const double *__restrict__ dinv, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c)
{
  double v[3] = {0.0, 0.0, 0.0};
  if (S->status) return;
  const double a = S->a;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) PetscWarpCGUpdateEntry(i, flags, a, x, r, p, w, z, dinv, v);
  if (!(flags & (PETSCWARP_CG_FIN_NORM | PETSCWARP_CG_FIN_BETA))) return;
  if (GridSum<3>(v, work, &S->count)) PetscWarpCGFinishUpdate(S, norms, flags, v, &c);
}

/* The step's grid sum: each block's partial sums into part[NR * blockIdx.x + k], a grid synchronisation, then every
   block adds all partial sums in the same fixed order (the same bits in every block); the result in tot[] (shared) */
template <int NR>
__device__ static void StepGridSum(double v[NR], double *part, double tot[NR], cooperative_groups::grid_group &grid)
{
  BlockSum<NR, STEP_THREADS>(v);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < NR; k++) part[NR * blockIdx.x + k] = v[k];
  }
  grid.sync();
#pragma unroll
  for (int k = 0; k < NR; k++) v[k] = 0.0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += STEP_THREADS) {
#pragma unroll
    for (int k = 0; k < NR; k++) v[k] += __ldcg(&part[NR * b + k]);
  }
  __syncthreads(); /* BlockSum()'s shared array is used again (grid.sync() already orders it; kept as the plain barrier) */
  BlockSum<NR, STEP_THREADS>(v);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < NR; k++) tot[k] = v[k];
  }
  __syncthreads();
}

/* PetscWarpCGStep: Alpha, Update (LAG_X) and the next Direction in one cooperative kernel. Every block applies the
   same bookkeeping to the same sums, so all blocks agree on a, b and the status without a further synchronisation: the
   scalars as read (S0), after p'w (S1) and after the update (S2) are three shared copies, each written once by thread
   0 and read by the block after a barrier; thread 0 of block 0 writes S2 back. Each thread touches the same entries in
   the three phases, and keeps the z of its first STEP_ZSHARED entries in shared memory from the update to the
   direction: with Jacobi, z is not written to memory there (its storage, w's, holds no z afterwards). The arithmetic is
   PetscWarpCGUpdateEntry()'s and PetscWarpCGDirectionEntry()'s. */
#define STEP_ZSHARED 16 /* z entries per thread in shared memory: 64 KB a block */

__global__ void __launch_bounds__(STEP_THREADS) CGStep(int n, int flags, double *__restrict__ x, double *r, double *__restrict__ p, const double *w, double *z, const double *__restrict__ dinv, const double *__restrict__ parts, int nparts, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c)
{
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  extern __shared__ double       zs[]; /* [STEP_ZSHARED][STEP_THREADS] */
  __shared__ PetscWarpCGScalars  S0, S1, S2;
  __shared__ double              totA[1], totB[3], nrm[1];
  __shared__ int                 st0;
  const int                      i0 = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x, diag = flags & PETSCWARP_CG_DIAG;
  PetscWarpCGCtl                 cl = c;
  double                         v[3];

  if (threadIdx.x == 0) S0 = *S;
  cl.slot = 0; /* FinishUpdate() writes this iteration's norm to nrm[0]; thread 0 of block 0 stores it */
  __syncthreads();
  /* Alpha: p'w, or the sum of the product's partial sums (all blocks take part in every synchronisation, whatever the
     status: it is the same in all blocks) */
  v[0] = 0.0;
  if (!S0.status && parts)
    for (int k = i0; k < nparts; k += stride) v[0] += parts[k];
  else if (!S0.status)
    for (int i = i0; i < n; i += stride) v[0] += p[i] * w[i];
  StepGridSum<1>(v, work, totA, grid);
  if (threadIdx.x == 0) {
    S1 = S0;
    PetscWarpCGFinishAlpha(&S1, totA[0], &c);
  }
  __syncthreads();
  /* Update: r -= a w, z = D^-1 r (or z as given: r without a preconditioner), z'r, r'r, z'z; x is left to the Direction */
  v[0] = v[1] = v[2] = 0.0;
  if (!S1.status) {
    const double a = S1.a;
    int          k = 0;
    for (int i = i0; i < n; i += stride, k++) {
      double ri = r[i], zi;
      ri        = ri - a * w[i];
      r[i]      = ri;
      zi        = diag ? dinv[i] * ri : z[i];
      if (k < STEP_ZSHARED) zs[k * STEP_THREADS + threadIdx.x] = zi;
      else if (diag) z[i] = zi;
      PetscWarpCGReduceEntry(flags, zi, ri, v);
    }
  }
  StepGridSum<3>(v, work + STEP_MAXGRID, totB, grid);
  if (threadIdx.x == 0) {
    S2  = S1;
    st0 = S1.status; /* FinishUpdate() writes the norm only when the iteration had not stopped */
    PetscWarpCGFinishUpdate(&S2, nrm, flags | PETSCWARP_CG_LAG_X, totB, &cl);
  }
  __syncthreads();
  /* the next iteration's Direction: x += a p (recorded by the update), then p = z + b p unless the iteration stopped */
  {
    const int    lag = PetscWarpCGLagged(&S2, c.it + 1, x), upd = !S2.status;
    const double xa = S2.xa, b = S2.b;
    if (lag || upd) {
      int k = 0;
      for (int i = i0; i < n; i += stride, k++) {
        const double pi = p[i];
        if (lag) x[i] = x[i] + xa * pi;
        if (upd) p[i] = (k < STEP_ZSHARED ? zs[k * STEP_THREADS + threadIdx.x] : z[i]) + b * pi;
      }
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) { /* S2 is only read: the copy leaves its x update done */
    PetscWarpCGScalars out = S2;
    if (out.xlag == c.it + 1) out.xlag = 0;
    *S = out;
    if ((flags & PETSCWARP_CG_FIN_NORM) && !st0) norms[c.slot] = nrm[0];
  }
}

#define STEP_SMEM (sizeof(double) * STEP_ZSHARED * STEP_THREADS)

#define STEP_MAXDEV 64

/* The cooperative grid of the current device (as many blocks as are resident, at most STEP_MAXGRID), found once per
   device; a failed query leaves no pending error behind */
static int StepGrid(int n, int *grid)
{
  static int  maxgrid[STEP_MAXDEV];
  int         dev, g;
  cudaError_t e;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess) return (int)e;
  g = dev >= 0 && dev < STEP_MAXDEV ? maxgrid[dev] : 0;
  if (!g) {
    int sms, per;
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess || (e = cudaFuncSetAttribute(CGStep, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)STEP_SMEM)) != cudaSuccess || (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, CGStep, STEP_THREADS, STEP_SMEM)) != cudaSuccess) {
      (void)cudaGetLastError();
      return (int)e;
    }
    g = sms * per;
    if (g > STEP_MAXGRID) g = STEP_MAXGRID;
    if (g < 1) return (int)cudaErrorCooperativeLaunchTooLarge;
    if (dev >= 0 && dev < STEP_MAXDEV) maxgrid[dev] = g;
  }
  *grid = (n + STEP_THREADS - 1) / STEP_THREADS;
  if (*grid < 1) *grid = 1;
  if (*grid > g) *grid = g;
  return 0;
}

int PetscWarpCGStepAvailableCUDA(int *ok)
{
  int         dev, coop = 0, g;
  cudaError_t e;
  *ok = 0;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess) return (int)e;
  if ((e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev)) != cudaSuccess) return (int)e;
  if (coop && StepGrid(1, &g) == 0) *ok = 1;
  return 0;
}

int PetscWarpCGStepCUDA(int n, int flags, double *x, double *r, double *p, const double *w, double *z, const double *dinv, const double *parts, int nparts, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c, void *stream)
{
  int   g, e;
  void *args[] = {&n, &flags, &x, &r, &p, (void *)&w, &z, (void *)&dinv, (void *)&parts, &nparts, &S, &norms, &work, &c};
  if (nparts <= 0) parts = NULL;
  if (!PetscWarpCGStepArgsValid(flags, x, r, p, w, z, dinv)) return (int)cudaErrorInvalidValue;
  if ((e = StepGrid(n, &g))) return e;
  return (int)cudaLaunchCooperativeKernel((const void *)CGStep, dim3(g), dim3(STEP_THREADS), args, STEP_SMEM, (cudaStream_t)stream);
}

__global__ void __launch_bounds__(CG_THREADS) CGInverseDiagonal(int n, double *d, int useabs, int fix)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) d[i] = PetscWarpCGInverseDiagonalEntry(d[i], useabs, fix);
}

int PetscWarpCGInverseDiagonalCUDA(int n, double *d, int useabs, int fix, void *stream)
{
  if (n > 0) CGInverseDiagonal<<<Grid(n), CG_THREADS, 0, (cudaStream_t)stream>>>(n, d, useabs, fix);
  return (int)cudaGetLastError();
}

int PetscWarpCGDirectionCUDA(int n, int it, const double *z, double *p, double *x, int first, const PetscWarpCGScalars *S, void *stream)
{
  CGDirection<<<Grid(n), CG_THREADS, 0, (cudaStream_t)stream>>>(n, it, z, p, x, first, S);
  return (int)cudaGetLastError();
}

int PetscWarpCGAlphaCUDA(int n, const double *p, const double *w, PetscWarpCGScalars *S, double *work, PetscWarpCGCtl c, void *stream)
{
  CGAlpha<<<Grid(n), CG_THREADS, 0, (cudaStream_t)stream>>>(n, p, w, S, work, c);
  return (int)cudaGetLastError();
}

int PetscWarpCGUpdateCUDA(int n, int flags, double *x, double *r, const double *p, const double *w, double *z, const double *dinv, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c, void *stream)
{
  if (!PetscWarpCGUpdateArgsValid(flags, x, r, p, w, z, dinv)) return (int)cudaErrorInvalidValue; /* a NULL array the kernel would read */
  CGUpdate<<<Grid(n), CG_THREADS, 0, (cudaStream_t)stream>>>(n, flags, x, r, p, w, z, dinv, S, norms, work, c);
  return (int)cudaGetLastError();
}
