/* The boundary residual of a constant flux on the device (twin: warpasm_bdres_host.c; entries: warpasm_bdres.h): one
   thread per (face, basis function, component), atomicAdd into the local residual (faces of a cell, and cells, share
   dofs) */
#include <petscwarp/private/warpasmreskernels.h>
#include "warpasm_bdres.h"
#include <cuda_runtime.h>

#define PWB_THREADS 256

__global__ void __launch_bounds__(PWB_THREADS) PwbResidual(int n, int nb, int nc, const int *__restrict__ fcell, const int *__restrict__ fset, const double *__restrict__ W, const double *__restrict__ g, const int *__restrict__ l2d, double *__restrict__ r)
{
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int       idx;
  double    v;
  if (t >= n) return;
  PwbEntry(t, nb, nc, nb * nc, fcell, fset, W, g, l2d, &idx, &v);
  atomicAdd(&r[idx], v);
}

extern "C" int PetscWarpAsmBdResidualCUDA(int nfaces, int nb, int nc, const int *fcell, const int *fset, const double *W, const double *g, const int *l2d, double *r, void *stream)
{
  const int n = nfaces * nb * nc;
  if (nfaces < 0 || nb < 1 || nc < 1) return (int)cudaErrorInvalidValue;
  if (!n) return 0;
  PwbResidual<<<(n + PWB_THREADS - 1) / PWB_THREADS, PWB_THREADS, 0, (cudaStream_t)stream>>>(n, nb, nc, fcell, fset, W, g, l2d, r);
  return (int)cudaGetLastError();
}
