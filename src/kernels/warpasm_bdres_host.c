/* Host twin of the boundary residual kernel (warpasm_bdres.cu), over warpasm_bdres.h */
#include <petscwarp/private/warpasmreskernels.h>
#include "warpasm_bdres.h"

int PetscWarpAsmBdResidualHost(int nfaces, int nb, int nc, const int *fcell, const int *fset, const double *W, const double *g, const int *l2d, double *r)
{
  const int n = nfaces * nb * nc;
  if (nfaces < 0 || nb < 1 || nc < 1) return PETSCWARP_ASM_ERR_ARG;
  for (int t = 0; t < n; t++) {
    int    idx;
    double v;
    PwbEntry(t, nb, nc, nb * nc, fcell, fset, W, g, l2d, &idx, &v);
    r[idx] += v;
  }
  return PETSCWARP_ASM_OK;
}
