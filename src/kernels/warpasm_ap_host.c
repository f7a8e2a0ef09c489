/* Host twin of the Aliev-Panfilov kernel (warpasm_ap.cu), over the pointwise evaluation of warpasm_ap.h */
#include "warpasm_ap.h"

int PetscWarpAPPointsHost(const PetscWarpFE *fe, int ncells, const PetscWarpAP *ap, const int *l2d, const double *u, const double *un, double *rq, double *fq, double *cq)
{
  int err = PwaAPCheck(fe, ncells, ap, l2d, u, un, fq);
  if (err) return err;
  for (int cell = 0; cell < ncells; cell++)
    for (int q = 0; q < fe->nq; q++) PwaAPPoint(fe->nb, fe->nq, fe->B + q * fe->nb, ap, l2d + (size_t)cell * fe->nb, u, un, cell, q, rq, fq, cq);
  return PETSCWARP_ASM_OK;
}
