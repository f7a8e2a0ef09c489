/* Finite-element residuals on the device (twin: warpasm_res_host.c; pointwise computation: warpasm_res.h).

   Block blockIdx.x takes ne consecutive cells: stage 0 gathers their vertex coordinates and their element states
   (through the element->local-dof map) into shared memory; stage 1, threads over (cell, q), stage the flux data of
   each quadrature point (PwaResStageQ); stage 2, threads over (cell, i), sum entry i over the points (PwaResEntry) and
   add it into the local residual with atomicAdd (cells share dofs). The reference tabulation is read from global
   memory through the read-only path (it is small and shared by every block). Shared memory (doubles): ne*(ncv*DIM +
   nel (+ nel for u_t) + nq*PWA_RS). */
#include <petscwarp/private/warpasmreskernels.h>
#include "warpasm_res.h"
#include <cuda_runtime.h>

#define PWR_THREADS 256
#define PWR_BUDGET  (48 * 1024) /* the default dynamic shared memory limit: no opt-in needed */

struct PwrPhys {
  int           coef;
  double        kappa, lambda, mu, mass, f[PETSCWARP_MAXDIM];
  const double *kcell, *fq;
};

template <int DIM, int KIND>
__global__ void __launch_bounds__(PWR_THREADS) PwrResidual(PetscWarpFE fe, PetscWarpMesh mesh, PwrPhys ph, int ne, const int *__restrict__ l2d, const double *__restrict__ u, const double *__restrict__ ut, double *__restrict__ r)
{
  extern __shared__ double smem[];
  constexpr int            NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM, RS = PWA_RS(DIM, NC);
  const int                ncv = fe.ncv, nb = fe.nb, nq = fe.nq, nel = nb * NC, nx = ncv * DIM;
  const int                first = blockIdx.x * ne, m = min(ne, mesh.ncells - first);
  double                  *Xs = smem, *Us = Xs + ne * nx, *Uts = Us + ne * nel, *S = Uts + (ut ? ne * nel : 0);

  for (int t = threadIdx.x; t < m * nx; t += blockDim.x) {
    int lc = t / nx, k = (t - lc * nx) / DIM;
    Xs[t] = __ldg(&mesh.X[(size_t)__ldg(&mesh.cv[(size_t)(first + lc) * ncv + k]) * DIM + t - lc * nx - k * DIM]);
  }
  for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
    int l = __ldg(&l2d[(size_t)first * nel + t]);
    Us[t] = __ldg(&u[l]);
    if (ut) Uts[t] = __ldg(&ut[l]);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < m * nq; t += blockDim.x) {
    int    lc = t / nq, q = t - lc * nq, tensor = 0;
    double K[DIM * DIM];
    K[0]                       = 0.0;
    double f[PETSCWARP_MAXDIM] = {ph.f[0], ph.f[1], ph.f[2]};
    if (KIND == PETSCWARP_PHYS_LAPLACE) tensor = PwaCellCoef(ph.coef, ph.kappa, ph.kcell, DIM, first + lc, K);
    if (KIND == PETSCWARP_PHYS_LAPLACE && ph.fq) f[0] += __ldg(&ph.fq[(size_t)(first + lc) * nq + q]);
    PwaResStageQ(KIND, DIM, nb, ncv, Xs + lc * nx, fe.Dc + q * ncv * DIM, __ldg(&fe.w[q]), fe.D + q * nb * DIM, fe.B + q * nb, tensor, K, ph.lambda, ph.mu, ph.mass, f, Us + lc * nel, ut ? Uts + lc * nel : NULL, S + t * RS);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
    int lc = t / nel, i = t - lc * nel;
    atomicAdd(&r[__ldg(&l2d[(size_t)first * nel + t])], PwaResEntry(DIM, nb, NC, nq, fe.D, fe.B, S + lc * nq * RS, i));
  }
}

template <int DIM, int KIND>
static int Launch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double mass, const int *l2d, const double *u, const double *ut, double *r, cudaStream_t st)
{
  constexpr int NC  = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int     nel = fe->nb * NC, work = fe->nq < nel ? fe->nq : nel;
  const size_t  cell = sizeof(double) * ((size_t)fe->ncv * DIM + (ut ? 2 : 1) * (size_t)nel + (size_t)fe->nq * PWA_RS(DIM, NC));
  int           ne = (PWR_THREADS + work - 1) / work, fit = (int)(PWR_BUDGET / cell);
  PwrPhys       p;
  if (ne > fit) ne = fit;
  if (ne > mesh->ncells) ne = mesh->ncells;
  if (ne < 1) return (int)cudaErrorInvalidConfiguration; /* one cell does not fit the shared memory */
  p.coef   = ph->coef;
  p.kappa  = ph->kappa;
  p.lambda = ph->lambda;
  p.mu     = ph->mu;
  p.mass   = mass;
  for (int c = 0; c < PETSCWARP_MAXDIM; c++) p.f[c] = ph->f[c];
  p.kcell = ph->kcell;
  p.fq    = ph->fq;
  PwrResidual<DIM, KIND><<<(mesh->ncells + ne - 1) / ne, PWR_THREADS, ne * cell, st>>>(*fe, *mesh, p, ne, l2d, u, ut, r);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpAsmResidualCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double mass, const int *l2d, const double *u, const double *ut, double *r, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  if (PwaCheckCall(fe, ph) || !mesh || mesh->ncells < 0) return (int)cudaErrorInvalidValue;
  if (!mesh->ncells) return 0;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) {
    if (fe->dim == 2) return Launch<2, PETSCWARP_PHYS_LAPLACE>(fe, mesh, ph, mass, l2d, u, ut, r, st);
    return Launch<3, PETSCWARP_PHYS_LAPLACE>(fe, mesh, ph, mass, l2d, u, ut, r, st);
  }
  if (fe->dim == 2) return Launch<2, PETSCWARP_PHYS_ELASTICITY>(fe, mesh, ph, mass, l2d, u, ut, r, st);
  return Launch<3, PETSCWARP_PHYS_ELASTICITY>(fe, mesh, ph, mass, l2d, u, ut, r, st);
}

/* r[l2d[k]] += Ev[k]: a thread per element-vector entry, consecutive entries of a cell in consecutive threads */
__global__ void PwrScatterAdd(size_t n, const int *__restrict__ l2d, const double *__restrict__ Ev, double *__restrict__ r)
{
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) atomicAdd(&r[__ldg(&l2d[k])], __ldg(&Ev[k]));
}

extern "C" int PetscWarpAsmScatterAddCUDA(int ncells, int nel, const int *l2d, const double *Ev, double *r, void *stream)
{
  const size_t n = (size_t)ncells * (size_t)(nel > 0 ? nel : 0);
  size_t       nblk;
  if (ncells < 0 || nel < 1) return (int)cudaErrorInvalidValue;
  if (!n) return 0;
  nblk = (n + PWR_THREADS - 1) / PWR_THREADS;
  if (nblk > 65535 * 16) nblk = 65535 * 16; /* grid-stride beyond */
  PwrScatterAdd<<<(unsigned)nblk, PWR_THREADS, 0, (cudaStream_t)stream>>>(n, l2d, Ev, r);
  return (int)cudaGetLastError();
}
