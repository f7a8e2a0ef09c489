/* Host twin of the residual kernel (warpasm_res.cu), over the pointwise computation of warpasm_res.h */
#include <petscwarp/private/warpasmreskernels.h>
#include "warpasm_res.h"
#include <stdlib.h>

int PetscWarpAsmResidualHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double mass, const int *l2d, const double *u, const double *ut, double *r)
{
  int     err = PwaCheckCall(fe, ph), dim, nc, nb, nq, ncv, nel;
  double *Xc, *ue, *ute, *S;
  if (err) return err;
  dim = fe->dim;
  nc  = fe->nc;
  nb  = fe->nb;
  nq  = fe->nq;
  ncv = fe->ncv;
  nel = nb * nc;
  Xc  = malloc(sizeof(double) * (size_t)ncv * dim);
  ue  = malloc(sizeof(double) * (size_t)nel);
  ute = malloc(sizeof(double) * (size_t)nel);
  S   = malloc(sizeof(double) * (size_t)nq * PWA_RS(dim, nc));
  if (!Xc || !ue || !ute || !S) err = PETSCWARP_ASM_ERR_MEM;
  for (int cell = 0; cell < mesh->ncells && !err; cell++) {
    const int *l      = l2d + (size_t)cell * nel;
    double     K[9]   = {0.0};
    int        tensor = ph->kind == PETSCWARP_PHYS_LAPLACE ? PwaCellCoef(ph->coef, ph->kappa, ph->kcell, dim, cell, K) : 0;
    for (int k = 0; k < ncv; k++)
      for (int d = 0; d < dim; d++) Xc[k * dim + d] = mesh->X[(size_t)mesh->cv[(size_t)cell * ncv + k] * dim + d];
    for (int i = 0; i < nel; i++) {
      ue[i] = u[l[i]];
      if (ut) ute[i] = ut[l[i]];
    }
    for (int q = 0; q < nq; q++) {
      double f[PETSCWARP_MAXDIM] = {ph->f[0], ph->f[1], ph->f[2]};
      if (ph->kind == PETSCWARP_PHYS_LAPLACE && ph->fq) f[0] += ph->fq[(size_t)cell * nq + q];
      PwaResStageQ(ph->kind, dim, nb, ncv, Xc, fe->Dc + q * ncv * dim, fe->w[q], fe->D + q * nb * dim, fe->B + q * nb, tensor, K, ph->lambda, ph->mu, mass, f, ue, ut ? ute : NULL, S + q * PWA_RS(dim, nc));
    }
    for (int i = 0; i < nel; i++) r[l[i]] += PwaResEntry(dim, nb, nc, nq, fe->D, fe->B, S, i);
  }
  free(Xc);
  free(ue);
  free(ute);
  free(S);
  return err;
}

int PetscWarpAsmScatterAddHost(int ncells, int nel, const int *l2d, const double *Ev, double *r)
{
  if (ncells < 0 || nel < 1) return PETSCWARP_ASM_ERR_ARG;
  for (size_t k = 0; k < (size_t)ncells * nel; k++) r[l2d[k]] += Ev[k];
  return PETSCWARP_ASM_OK;
}
