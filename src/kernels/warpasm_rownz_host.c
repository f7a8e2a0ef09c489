/* The rownz strategy (warpasmrownzkernels.h), host twin: the same arithmetic in the same order as warpasm_rownz.cu
   (warpasm_rownz.h), the lanes of a tile run one after another. Compiled with -ffp-contract=off (CMakeLists.txt). */
#include "warpasm_rownz.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

int PetscWarpAsmRowNZCoefStride(int dim, int physkind)
{
  return PwaRowNZStride(dim, physkind);
}

size_t PetscWarpAsmRowNZTileBytes(const PetscWarpFE *fe, int physkind, int maxslots)
{
  const int n = PwaAffineRefs(physkind, fe->dim) * (fe->nb * (fe->nb + 1) / 2);
  if ((size_t)n * sizeof(double) > PWA_REF_BUDGET) return 0;
  return sizeof(double) * ((size_t)n + (size_t)maxslots);
}

int PetscWarpAsmRowNZResidentWarps(size_t fixed, size_t per, size_t smsm, size_t smblk, int regs, int *wpb)
{
  /* registers are allocated per thread in multiples of 8 and per SM sub-partition (4 per SM, 16384 registers each, a
     block's warps spread over the 4): a block of w warps needs ceil(w/4) warps' registers in one sub-partition */
  const int rpt = (regs + 7) / 8 * 8, wsp = regs > 0 ? 16384 / (rpt * PETSCWARP_ROWNZ_LANES) : 16, maxw = 4 * wsp, cap = maxw < 64 ? maxw : 64;
  int       best = 0;
  *wpb           = 1;
  for (int w = 1; w <= PETSCWARP_ROWNZ_MAXWARPS; w++) {
    const size_t b = fixed + (size_t)w * per;
    int          nblk, nw;
    if (b > smblk) break;
    nblk = (int)(smsm / (b + 1024));
    if (nblk > PETSCWARP_ROWNZ_MAXBLOCKS) nblk = PETSCWARP_ROWNZ_MAXBLOCKS;
    if (nblk * w > cap) nblk = cap / w; /* blocks are resident whole */
    nw = nblk * w;
    if (nw > best) best = nw, *wpb = w;
  }
  return best;
}

int PetscWarpAsmRowNZSimplexConstants(const PetscWarpFE *fe, double *sigma, double *detr)
{
  const int dim = fe ? fe->dim : 0, nv = dim + 1;
  double    R[9], Rinv[9], w = 0.0, dmax = 0.0, det;
  *sigma = *detr = 0.0;
  if (!fe || (dim != 2 && dim != 3) || fe->nb != nv || fe->ncv != nv || fe->nq < 1 || !fe->w || !fe->D || !fe->Dc) return 1;
  for (int m = 0; m < nv * dim; m++) dmax = fmax(dmax, fabs(fe->Dc[m]));
  for (int q = 0; q < fe->nq; q++) { /* the basis functions are the coordinate map's, vertex by vertex, with constant gradients */
    w += fe->w[q];
    for (int m = 0; m < nv * dim; m++)
      if (!(fabs(fe->D[(size_t)q * nv * dim + m] - fe->Dc[m]) <= 1e-12 * dmax) || !(fabs(fe->Dc[(size_t)q * nv * dim + m] - fe->Dc[m]) <= 1e-12 * dmax)) return 1;
  }
  for (int d = 0; d < dim; d++) { /* a partition of unity: J = E R needs sum_k Dc_k = 0 */
    double t = 0.0;
    for (int k = 0; k < nv; k++) t += fe->Dc[k * dim + d];
    if (!(fabs(t) <= 1e-12 * dmax)) return 1;
  }
  for (int k = 0; k < dim; k++)
    for (int d = 0; d < dim; d++) R[k * dim + d] = fe->Dc[(k + 1) * dim + d];
  det = PetscWarpJacobianInverse(dim, R, Rinv);
  if (!(fabs(det) > 0.0) || !(w > 0.0)) return 1;
  *sigma = w * det;
  *detr  = det;
  return 0;
}

int PetscWarpAsmRowNZCoefHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef)
{
  int cs;
  if (PwaCheckCall(fe, ph) || ph->cq) return PETSCWARP_ASM_ERR_ARG;
  cs = PwaRowNZStride(fe->dim, ph->kind);
  for (int cell = 0; cell < mesh->ncells; cell++) PwaRowNZCell(ph->kind, fe->dim, fe->ncv, mesh->cv, mesh->X, fe->Dc, ph->coef, ph->kappa, ph->kcell, ph->shift, cell, cs, coef + (size_t)cell * cs);
  return PETSCWARP_ASM_OK;
}

int PetscWarpAsmRowNZHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val)
{
  const PwaRowNZGeo geo = PwaRowNZGeoOf(fe, mesh, ph);
  double           *acc;
  int               cs;
  if (PwaCheckCall(fe, ph) || !fe->Kaff || rn->nel != fe->nb * fe->nc || (rn->ssh != 0 && rn->ssh != 5) || (!coef && (!mesh || ph->cq))) return PETSCWARP_ASM_ERR_ARG;
  if (!rn->ntiles) return PETSCWARP_ASM_OK;
  cs  = PwaRowNZStride(fe->dim, ph->kind);
  acc = (double *)malloc(sizeof(double) * (size_t)(rn->maxslots > 0 ? rn->maxslots : 1));
  if (!acc) return PETSCWARP_ASM_ERR_MEM;
  for (int b = 0; b < rn->ntiles; b++) {
    const int s0 = rn->soff[b], ns = rn->soff[b + 1] - s0;
    memset(acc, 0, sizeof(double) * (size_t)ns);
    for (int t = 0; t < PETSCWARP_ROWNZ_LANES; t++) PwaRowNZLane(ph->kind, fe->dim, fe->nb, fe->Kaff, ph->lambda, ph->mu, ph->shift, rn, b, t, coef, &geo, cs, acc);
    memcpy(val + s0, acc, sizeof(double) * (size_t)ns);
  }
  free(acc);
  return PETSCWARP_ASM_OK;
}
