/* Device pieces shared by the assembly kernels of warpasm.cu and the affine fast path of warpasm_affine.cu: the
   physics by value, the modes of an element batch, and the two stages of the affine path (warpasm_elem.h). */
#pragma once

#include <petscwarp/private/warpasmkernels.h>
#include "warpasm_elem.h"
#include <cuda_runtime.h>

enum {
  PWA_ELEM,   /* element matrices to E, one cell after another */
  PWA_ATOMIC, /* val[slot] += entry with atomicAdd */
  PWA_PLAIN,  /* val[slot] += entry (one color) */
  PWA_LOAD    /* F[rowslot] += load entry with atomicAdd */
};

/* Physics by value (no pointer to a kernel parameter is taken) */
struct PwaPhys {
  int           coef;
  double        kappa, lambda, mu, shift, f[PETSCWARP_MAXDIM];
  const double *kcell, *cq;
};

static inline PwaPhys PwaPhysOf(const PetscWarpPhys *ph)
{
  PwaPhys p;
  p.coef   = ph->coef;
  p.kappa  = ph->kappa;
  p.lambda = ph->lambda;
  p.mu     = ph->mu;
  p.shift  = ph->shift;
  for (int c = 0; c < PETSCWARP_MAXDIM; c++) p.f[c] = ph->f[c];
  p.kcell = ph->kcell;
  p.cq    = ph->cq;
  return p;
}

/* Affine path, stage 1 for cells [0, m) of a group: a thread per cell computes its affine factor C[lc*PWA_AC(DIM) ...]
   from its coordinates Xs[lc*ncv*DIM ...] and the coordinate basis at the first quadrature point */
template <int DIM, int KIND, typename CellOf>
static __device__ __forceinline__ void AffineFactors(const PetscWarpFE &fe, const PwaPhys &ph, int m, CellOf cell, const double *Xs, double *C)
{
  for (int lc = threadIdx.x; lc < m; lc += blockDim.x) {
    double K[DIM * DIM];
    int    tensor = 0;
    K[0]          = 0.0;
    if (KIND == PETSCWARP_PHYS_LAPLACE) tensor = PwaCellCoef(ph.coef, ph.kappa, ph.kcell, DIM, cell(lc), K);
    PwaAffineCell(KIND, DIM, fe.ncv, Xs + lc * fe.ncv * DIM, fe.Dc, tensor, K, ph.shift, C + lc * PWA_AC(DIM));
  }
}

/* Affine path, stage 2 for cells [0, m): threads over (cell, a, b) compute the NC x NC entries of node pair (a, b) from
   the reference matrices Kr (shared or global memory) and hand each to out(lc, i*nel + j, value) */
template <int DIM, int KIND, typename Out>
static __device__ __forceinline__ void AffineEntries(const PetscWarpFE &fe, const double *Kr, const PwaPhys &ph, int m, const double *C, Out out)
{
  constexpr int NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int     nb = fe.nb, nbb = nb * nb, nel = nb * NC;
  for (int t = threadIdx.x; t < m * nbb; t += blockDim.x) {
    const int lc = t / nbb, ab = t - lc * nbb, a = ab / nb, b = ab - a * nb;
    double    v[NC * NC];
    PwaAffinePair(KIND, DIM, nb, Kr, C + lc * PWA_AC(DIM), ph.lambda, ph.mu, ph.shift, a, b, v);
#pragma unroll
    for (int c = 0; c < NC; c++)
#pragma unroll
      for (int e = 0; e < NC; e++) out(lc, (a * NC + c) * nel + b * NC + e, v[c * NC + e]);
  }
}

/* Doubles of the reference matrices of the affine path the kernels stage in shared memory (within PWA_REF_BUDGET),
   else 0 (read from global memory) */
static inline PWA_HD int PwaAffineStaged(int kind, int dim, int nb)
{
  int n = PwaAffineRefs(kind, dim) * (nb * (nb + 1) / 2);
  return n * (int)sizeof(double) <= PWA_REF_BUDGET ? n : 0;
}

/* The affine path of an element batch (warpasm_affine.cu): every listed cell is affine (fe->Kaff set) */
int PwaAffineBatch(int mode, const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st);
