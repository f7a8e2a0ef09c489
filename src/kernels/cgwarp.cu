/* KSPCGWARP on the device: the vector work of a CG iteration with alpha, beta and the norms computed in device memory
   (grid reductions with the last-block pattern: block partial sums in a work array, the last block to finish sums
   them in a fixed order, so results do not depend on scheduling). Twin: cgwarp_host.c. */
#include <petscwarp/private/cgwarpkernels.h>
#include <cuda_runtime.h>

#define CG_THREADS 256
#define CG_MAXGRID 1024 /* grid-stride loops beyond: about the resident blocks of an H100 (132 SMs x 8) */
#define FULL_MASK  0xffffffffu

static int Grid(int n)
{
  int g = (n + CG_THREADS - 1) / CG_THREADS;
  return g < 1 ? 1 : (g > CG_MAXGRID ? CG_MAXGRID : g);
}

size_t PetscWarpCGWorkBytesCUDA(int n)
{
  return sizeof(double) * 3 * (size_t)Grid(n);
}

/* Sum of v over the block, valid in thread 0 (NR values at once) */
template <int NR>
__device__ static void BlockSum(double v[NR])
{
  __shared__ double sh[NR][CG_THREADS / 32];
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
      v[k] = lane < CG_THREADS / 32 ? sh[k][lane] : 0.0;
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
