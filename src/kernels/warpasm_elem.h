/*
  The element computation of the assembly kernels (warpasmkernels.h), written once as inline functions for the host
  twin (C99, warpasm_host.c) and the device (CUDA, warpasm.cu).

  The work is split at the granularity the GPU kernels parallelize over:
  - PwaStageQ: one (cell, quadrature point): geometry from the cell's vertex coordinates, staging w_q detJ_q and the
    physical gradients of all nb basis functions at q;
  - PwaEntry / PwaLoadEntry: one entry of the element matrix / load vector of a cell, from that cell's staged data.
  Staged data of one cell: wdj[q] = w_q detJ_q, G[(q*nb + a)*dim + d] = d phi_a / d x_d at q.
  Reference tabulations (w, B, D, Dc) and kcell are read through PWA_LDG: the read-only path on the device, where they
  always live in global memory; staged data and vertex coordinates are read plainly (shared memory on the device).
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>

#if defined(__CUDACC__)
  #define PWA_HD __host__ __device__
#else
  #define PWA_HD
#endif
#if defined(__CUDA_ARCH__)
  #define PWA_LDG(p) __ldg(p)
#else
  #define PWA_LDG(p) (*(p))
#endif

#define PWA_TARGET_ENTRIES 1024        /* entries computed per batch of cells (element batches, sharednz sub-batches) */
#define PWA_STAGE_BUDGET   (16 * 1024) /* sharednz: bytes of the staged geometry of one sub-batch of cells */

/* Doubles staged per cell: wdj and, when grads, the physical gradients */
static inline PWA_HD int PwaStageDoubles(int dim, int nb, int nq, int grads)
{
  return nq * (1 + (grads ? nb * dim : 0));
}

/* sharednz: cells per sub-batch whose geometry is staged at once (the fixed part of a block's shared memory) */
static inline PWA_HD int PwaSharedSubBatch(int dim, int nb, int nc, int nq)
{
  int nel = nb * nc, bytes = (int)sizeof(double) * PwaStageDoubles(dim, nb, nq, 1);
  int ns = (PWA_TARGET_ENTRIES + nel * nel - 1) / (nel * nel), fit = PWA_STAGE_BUDGET / bytes;
  if (ns > fit) ns = fit;
  return ns > 0 ? ns : 1;
}

/* J[d*dim+e] = dx_d/dxi_e at a quadrature point, from the vertex coordinates Xc[k*dim+d] and the coordinate basis
   derivatives Dcq[k*dim+e] at that point; returns detJ (with its sign) and Jinv[e*dim+d] = dxi_e/dx_d */
static inline PWA_HD double PwaGeometry(int dim, int ncv, const double *Xc, const double *Dcq, double *Jinv)
{
  double J[9], det;
  for (int m = 0; m < dim * dim; m++) J[m] = 0.0;
  for (int k = 0; k < ncv; k++) {
    double dc[3];
    for (int e = 0; e < dim; e++) dc[e] = PWA_LDG(&Dcq[k * dim + e]);
    for (int d = 0; d < dim; d++)
      for (int e = 0; e < dim; e++) J[d * dim + e] += Xc[k * dim + d] * dc[e];
  }
  if (dim == 2) {
    det     = J[0] * J[3] - J[1] * J[2];
    Jinv[0] = J[3] / det;
    Jinv[1] = -J[1] / det;
    Jinv[2] = -J[2] / det;
    Jinv[3] = J[0] / det;
  } else {
    double c00 = J[4] * J[8] - J[5] * J[7], c01 = J[5] * J[6] - J[3] * J[8], c02 = J[3] * J[7] - J[4] * J[6];
    det     = J[0] * c00 + J[1] * c01 + J[2] * c02;
    Jinv[0] = c00 / det;
    Jinv[1] = (J[2] * J[7] - J[1] * J[8]) / det;
    Jinv[2] = (J[1] * J[5] - J[2] * J[4]) / det;
    Jinv[3] = c01 / det;
    Jinv[4] = (J[0] * J[8] - J[2] * J[6]) / det;
    Jinv[5] = (J[2] * J[3] - J[0] * J[5]) / det;
    Jinv[6] = c02 / det;
    Jinv[7] = (J[1] * J[6] - J[0] * J[7]) / det;
    Jinv[8] = (J[0] * J[4] - J[1] * J[3]) / det;
  }
  return det;
}

/* Physical gradient g = Jinv^T Dqa of one basis function from its reference derivatives Dqa[e] */
static inline PWA_HD void PwaPhysGrad(int dim, const double *Jinv, const double *Dqa, double *g)
{
  double r[3];
  for (int e = 0; e < dim; e++) r[e] = PWA_LDG(&Dqa[e]);
  for (int d = 0; d < dim; d++) {
    double s = 0.0;
    for (int e = 0; e < dim; e++) s += r[e] * Jinv[e * dim + d];
    g[d] = s;
  }
}

/* Stage one (cell, q): *wdj = w_q detJ_q and, unless G is NULL, G[a*dim+d] for a < nb. Dcq = Dc + q*ncv*dim,
   Dq = D + q*nb*dim. */
static inline PWA_HD void PwaStageQ(int dim, int ncv, int nb, const double *Xc, const double *Dcq, double wq, const double *Dq, double *wdj, double *G)
{
  double Jinv[9], det = PwaGeometry(dim, ncv, Xc, Dcq, Jinv);
  *wdj = wq * det;
  if (G)
    for (int a = 0; a < nb; a++) PwaPhysGrad(dim, Jinv, Dq + a * dim, G + a * dim);
}

/* The conductivity of a cell: returns 1 with the tensor K[d*dim+e] (coef 2), 0 with the scalar K[0] (coef 0, 1) */
static inline PWA_HD int PwaCellCoef(int coef, double kappa, const double *kcell, int dim, int cell, double *K)
{
  if (coef == 2) {
    for (int m = 0; m < dim * dim; m++) K[m] = PWA_LDG(&kcell[(size_t)cell * dim * dim + m]);
    return 1;
  }
  K[0] = coef == 1 ? PWA_LDG(&kcell[cell]) : kappa;
  return 0;
}

/* sum_q wdj_q B_qa B_qb */
static inline PWA_HD double PwaMass(int nb, int nq, const double *B, const double *wdj, int a, int b)
{
  double m = 0.0;
  for (int q = 0; q < nq; q++) m += wdj[q] * PWA_LDG(&B[q * nb + a]) * PWA_LDG(&B[q * nb + b]);
  return m;
}

/* LAPLACE: sum_q wdj_q grad phi_a . (K grad phi_b) + shift phi_a phi_b */
static inline PWA_HD double PwaLaplaceEntry(int dim, int nb, int nq, const double *B, const double *wdj, const double *G, int tensor, const double *K, double shift, int a, int b)
{
  double s = 0.0;
  if (tensor) {
    for (int q = 0; q < nq; q++) {
      const double *ga = G + (q * nb + a) * dim, *gb = G + (q * nb + b) * dim;
      double        t  = 0.0;
      for (int d = 0; d < dim; d++) {
        double kg = 0.0;
        for (int e = 0; e < dim; e++) kg += K[d * dim + e] * gb[e];
        t += ga[d] * kg;
      }
      s += wdj[q] * t;
    }
  } else {
    for (int q = 0; q < nq; q++) {
      const double *ga = G + (q * nb + a) * dim, *gb = G + (q * nb + b) * dim;
      double        t  = 0.0;
      for (int d = 0; d < dim; d++) t += ga[d] * gb[d];
      s += wdj[q] * t;
    }
    s *= K[0];
  }
  if (shift != 0.0) s += shift * PwaMass(nb, nq, B, wdj, a, b);
  return s;
}

/* ELASTICITY: entry ((a,c),(b,e)) = sum_q wdj_q [mu (delta_ce grad phi_a . grad phi_b + d_e phi_a d_c phi_b)
   + lambda d_c phi_a d_e phi_b + shift delta_ce phi_a phi_b] */
static inline PWA_HD double PwaElasticityEntry(int dim, int nb, int nq, const double *B, const double *wdj, const double *G, double lambda, double mu, double shift, int a, int c, int b, int e)
{
  double s = 0.0;
  for (int q = 0; q < nq; q++) {
    const double *ga = G + (q * nb + a) * dim, *gb = G + (q * nb + b) * dim;
    double        t  = mu * ga[e] * gb[c] + lambda * ga[c] * gb[e];
    if (c == e) {
      double dot = 0.0;
      for (int d = 0; d < dim; d++) dot += ga[d] * gb[d];
      t += mu * dot;
    }
    s += wdj[q] * t;
  }
  if (shift != 0.0 && c == e) s += shift * PwaMass(nb, nq, B, wdj, a, b);
  return s;
}

/* Entry (i, j) of a cell's element matrix (element dof i = a*nc + c); tensor, K from PwaCellCoef (LAPLACE) */
static inline PWA_HD double PwaEntry(int kind, int dim, int nb, int nc, int nq, const double *B, const double *wdj, const double *G, int tensor, const double *K, double lambda, double mu, double shift, int i, int j)
{
  if (kind == PETSCWARP_PHYS_LAPLACE) return PwaLaplaceEntry(dim, nb, nq, B, wdj, G, tensor, K, shift, i, j);
  return PwaElasticityEntry(dim, nb, nq, B, wdj, G, lambda, mu, shift, i / nc, i % nc, j / nc, j % nc);
}

/* Entry (a, c) of a cell's load vector: fc sum_q wdj_q B_qa */
static inline PWA_HD double PwaLoadEntry(int nb, int nq, const double *B, const double *wdj, double fc, int a)
{
  double s = 0.0;
  for (int q = 0; q < nq; q++) s += wdj[q] * PWA_LDG(&B[q * nb + a]);
  return fc * s;
}

/* Checks of a call (host only): sizes (PetscWarpAsmCheck) and the physics' coefficient; 0 or PETSCWARP_ASM_ERR_ARG */
static inline int PwaCheckCall(const PetscWarpFE *fe, const PetscWarpPhys *ph)
{
  if (!fe || !ph || PetscWarpAsmCheck(fe, ph->kind)) return PETSCWARP_ASM_ERR_ARG;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE && (ph->coef < 0 || ph->coef > 2 || (ph->coef && !ph->kcell))) return PETSCWARP_ASM_ERR_ARG;
  return PETSCWARP_ASM_OK;
}
