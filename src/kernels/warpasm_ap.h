/* The Aliev-Panfilov evaluation of one (cell, q), written once for the host twin (warpasm_ap_host.c) and the device
   (warpasm_ap.cu): see warpasmapkernels.h */
#pragma once

#include <petscwarp/private/warpasmapkernels.h>
#include "warpasm_elem.h"

static inline PWA_HD void PwaAPPoint(int nb, int nq, const double *Bq, const PetscWarpAP *ap, const int *l, const double *u, const double *un, int cell, int q, double *rq, double *fq, double *cq)
{
  const size_t k = (size_t)cell * nq + q;
  double       V = 0.0, Vn = 0.0, r, f, dfdV, idt = 1.0 / ap->p[PETSCWARP_AP_DT];
  for (int b = 0; b < nb; b++) {
    const int i = PWA_LDG(&l[b]);
    V += Bq[b] * PWA_LDG(&u[i]);
    if (fq) Vn += Bq[b] * PWA_LDG(&un[i]);
  }
  PetscWarpAPLocal(ap->p, V, PWA_LDG(&ap->rn[k]), &r, &f, &dfdV);
  if (rq) rq[k] = r;
  if (fq) fq[k] = -Vn * idt - f - (ap->stim ? ap->p[PETSCWARP_AP_STIM] * PWA_LDG(&ap->stim[cell]) : 0.0);
  if (cq) cq[k] = idt - dfdV;
}

/* Checks of a call: a scalar element, a positive time step, the arrays it needs */
static inline int PwaAPCheck(const PetscWarpFE *fe, int ncells, const PetscWarpAP *ap, const int *l2d, const double *u, const double *un, const double *fq)
{
  if (!fe || !ap || fe->nc != 1 || fe->nb < 1 || fe->nq < 1 || ncells < 0 || !(ap->p[PETSCWARP_AP_DT] > 0)) return PETSCWARP_ASM_ERR_ARG;
  if (ncells && (!l2d || !u || !ap->rn || (fq && !un))) return PETSCWARP_ASM_ERR_ARG;
  return PETSCWARP_ASM_OK;
}
