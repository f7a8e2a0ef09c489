/* The Aliev-Panfilov model at the quadrature points on the device (twin: warpasm_ap_host.c; pointwise evaluation:
   warpasm_ap.h): one thread per (cell, q), the state gathered through the element->local-dof map (nb values), the
   local Newton iteration of the recovery variable in registers, three coalesced stores. */
#include "warpasm_ap.h"
#include <cuda_runtime.h>

#define PWAP_THREADS 256

__global__ void __launch_bounds__(PWAP_THREADS) PwaAPPoints(PetscWarpFE fe, int ncells, PetscWarpAP ap, const int *__restrict__ l2d, const double *__restrict__ u, const double *__restrict__ un, double *__restrict__ rq, double *__restrict__ fq, double *__restrict__ cq)
{
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (size_t)ncells * fe.nq) return;
  const int cell = (int)(t / fe.nq), q = (int)(t - (size_t)cell * fe.nq);
  PwaAPPoint(fe.nb, fe.nq, fe.B + q * fe.nb, &ap, l2d + (size_t)cell * fe.nb, u, un, cell, q, rq, fq, cq);
}

extern "C" int PetscWarpAPPointsCUDA(const PetscWarpFE *fe, int ncells, const PetscWarpAP *ap, const int *l2d, const double *u, const double *un, double *rq, double *fq, double *cq, void *stream)
{
  size_t n = (size_t)ncells * (fe ? fe->nq : 0);
  if (PwaAPCheck(fe, ncells, ap, l2d, u, un, fq)) return (int)cudaErrorInvalidValue;
  if (!n) return 0;
  PwaAPPoints<<<(unsigned)((n + PWAP_THREADS - 1) / PWAP_THREADS), PWAP_THREADS, 0, (cudaStream_t)stream>>>(*fe, ncells, *ap, l2d, u, un, rq, fq, cq);
  return (int)cudaGetLastError();
}
