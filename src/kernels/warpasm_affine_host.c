/* The affine fast path of the assembly kernels, host side: the reference matrices (once per reference element and
   physics) and the test of which cells are affine (once per mesh). The element computation itself is in
   warpasm_elem.h (PwaAffineCell, PwaAffinePair), shared by the host twins (warpasm_host.c) and the device. */
#include <petscwarp/private/warpasmkernels.h>
#include "warpasm_elem.h"
#include <math.h>

int PetscWarpAsmAffineRefsSize(const PetscWarpFE *fe, int physkind)
{
  return PwaAffineRefs(physkind, fe->dim) * (fe->nb * (fe->nb + 1) / 2);
}

int PetscWarpAsmAffineRefsHost(const PetscWarpFE *fe, int physkind, double *K)
{
  const int dim = fe->dim, nb = fe->nb, nq = fe->nq, np = nb * (nb + 1) / 2, nr = PwaAffineRefs(physkind, dim);
  if (PetscWarpAsmCheck(fe, physkind)) return PETSCWARP_ASM_ERR_ARG;
  for (int r = 0; r < nr; r++)
    for (int a = 0; a < nb; a++)
      for (int b = a; b < nb; b++) {
        double s = 0.0;
        int    d = 0, e = 0, mass = r == nr - 1;
        if (!mass && physkind == PETSCWARP_PHYS_LAPLACE) PwaSymPair(dim, r, &d, &e);
        else if (!mass) d = r / dim, e = r % dim;
        for (int q = 0; q < nq; q++) {
          const double *Da = fe->D + (q * nb + a) * dim, *Db = fe->D + (q * nb + b) * dim;
          double        t;
          if (mass) t = fe->B[q * nb + a] * fe->B[q * nb + b];
          else if (physkind == PETSCWARP_PHYS_LAPLACE && d != e) t = Da[d] * Db[e] + Da[e] * Db[d];
          else t = Da[d] * Db[e];
          s += fe->w[q] * t;
        }
        K[r * np + PwaPair(nb, a, b)] = s;
      }
  return PETSCWARP_ASM_OK;
}

int PetscWarpAsmAffineCellsHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, double rtol, unsigned char *affine, int *naffine)
{
  const int dim = fe->dim, ncv = fe->ncv, nq = fe->nq;
  int       n = 0;
  for (int cell = 0; cell < mesh->ncells; cell++) {
    double J0[9] = {0}, Xc[8 * 3], jmax = 0.0;
    int    aff = 1;
    if (ncv != dim + 1) { /* simplices with P1 coordinates are affine; others: J at every point against J at the first */
      for (int k = 0; k < ncv; k++)
        for (int d = 0; d < dim; d++) Xc[k * dim + d] = mesh->X[(size_t)mesh->cv[(size_t)cell * ncv + k] * dim + d];
      for (int q = 0; q < nq && aff; q++) {
        const double *Dcq  = fe->Dc + q * ncv * dim;
        double        J[9] = {0};
        for (int k = 0; k < ncv; k++)
          for (int d = 0; d < dim; d++)
            for (int e = 0; e < dim; e++) J[d * dim + e] += Xc[k * dim + d] * Dcq[k * dim + e];
        for (int m = 0; m < dim * dim; m++) {
          if (q == 0) {
            J0[m] = J[m];
            if (fabs(J[m]) > jmax) jmax = fabs(J[m]);
          } else if (!(fabs(J[m] - J0[m]) <= rtol * jmax)) aff = 0; /* NaN coordinates: not affine */
        }
      }
    }
    affine[cell] = (unsigned char)aff;
    n += aff;
  }
  *naffine = n;
  return PETSCWARP_ASM_OK;
}
