/*
  The pointwise computation of the residual kernels (warpasmreskernels.h), written once for the host twin
  (warpasm_res_host.c) and the device (warpasm_res.cu), over the geometry of warpasm_elem.h:
  - PwaResStageQ: one (cell, q): geometry, the state's gradient (and u_t) at the point, the flux, and the staged data
    S[PWA_RS(dim, nc)]: S[c*dim + e] = wdj (Jinv flux_c)[e] (so that the test function a contributes
    sum_e D_qa[e] S[c*dim + e], D_qa its reference derivatives), S[nc*dim + c] = wdj (mass u_t,c + f[c]);
  - PwaResEntry: one entry (a, c) of a cell's residual from the staged data of its quadrature points.
*/
#pragma once

#include "warpasm_elem.h"

#define PWA_RS(dim, nc) ((nc) * (dim) + (nc)) /* doubles staged per (cell, q) */

/* Stage one (cell, q) from the cell's vertex coordinates Xc, Dcq = Dc + q*ncv*dim, the weight wq, the reference
   derivatives Dq = D + q*nb*dim and values Bq = B + q*nb, the coefficient (tensor, K from PwaCellCoef: LAPLACE),
   the element's state ue[nel] and time derivative ute[nel] (or NULL) */
static inline PWA_HD void PwaResStageQ(int kind, int dim, int nb, int ncv, const double *Xc, const double *Dcq, double wq, const double *Dq, const double *Bq, int tensor, const double *K, double lambda, double mu, double mass, const double *f, const double *ue, const double *ute, double *S)
{
  const int nc = kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim;
  double    Jinv[9], gr[9], gu[9], fl[9], wdj = wq * PetscWarpGeometry(dim, ncv, Xc, Dcq, Jinv);
  for (int m = 0; m < nc * dim; m++) gr[m] = 0.0;
  for (int b = 0; b < nb; b++) /* reference gradient gr[c*dim+e] = sum_b u_(b,c) D_qb[e] */
    for (int c = 0; c < nc; c++) {
      double v = ue[b * nc + c];
      for (int e = 0; e < dim; e++) gr[c * dim + e] += v * Dq[b * dim + e];
    }
  for (int c = 0; c < nc; c++) /* physical gradient gu[c*dim+d] = du_c/dx_d */
    for (int d = 0; d < dim; d++) {
      double s = 0.0;
      for (int e = 0; e < dim; e++) s += gr[c * dim + e] * Jinv[e * dim + d];
      gu[c * dim + d] = s;
    }
  if (kind == PETSCWARP_PHYS_LAPLACE) {
    for (int d = 0; d < dim; d++) {
      double s = 0.0;
      if (tensor)
        for (int e = 0; e < dim; e++) s += K[d * dim + e] * gu[e];
      else s = K[0] * gu[d];
      fl[d] = s;
    }
  } else {
    double div = 0.0;
    for (int d = 0; d < dim; d++) div += gu[d * dim + d];
    for (int c = 0; c < dim; c++)
      for (int d = 0; d < dim; d++) fl[c * dim + d] = mu * (gu[c * dim + d] + gu[d * dim + c]) + (c == d ? lambda * div : 0.0);
  }
  for (int c = 0; c < nc; c++)
    for (int e = 0; e < dim; e++) {
      double s = 0.0;
      for (int d = 0; d < dim; d++) s += Jinv[e * dim + d] * fl[c * dim + d];
      S[c * dim + e] = wdj * s;
    }
  for (int c = 0; c < nc; c++) {
    double ut = 0.0;
    if (ute)
      for (int b = 0; b < nb; b++) ut += ute[b * nc + c] * Bq[b];
    S[nc * dim + c] = wdj * (mass * ut + f[c]);
  }
}

/* Entry i = a*nc + c of a cell's residual from its staged data S[q*PWA_RS(dim, nc) ...] */
static inline PWA_HD double PwaResEntry(int dim, int nb, int nc, int nq, const double *D, const double *B, const double *S, int i)
{
  const int a = i / nc, c = i - a * nc, rs = PWA_RS(dim, nc);
  double    r = 0.0;
  for (int q = 0; q < nq; q++) {
    const double *Sq = S + q * rs, *Dqa = D + (q * nb + a) * dim;
    double        s = B[q * nb + a] * Sq[nc * dim + c];
    for (int e = 0; e < dim; e++) s += Dqa[e] * Sq[c * dim + e];
    r += s;
  }
  return r;
}
