/* Host twin of the ELL-WARP products, value refresh and diagonal extraction. */
#include <petscwarp/private/ellwarpkernels.h>

void PetscWarpEllRefreshHost(const PetscWarpEll *E, const double *csrval)
{
  for (int s = 0; s < E->nslots; s++) E->val[s] = E->map[s] >= 0 ? csrval[E->map[s]] : 0.0;
}

void PetscWarpEllToCSRHost(const PetscWarpEll *E, double *csrval)
{
  for (int s = 0; s < E->nslots; s++)
    if (E->map[s] >= 0) csrval[E->map[s]] = E->val[s];
}

/* Visit each (row, slot range) of the layout: the loops every host product shares */
#define PETSCWARP_FOR_ROWS(E, w, r, row, L, width) \
  for (int w = 0; w < (E)->nwarps; w++) \
    for (int r = 0, L = 1 << ((E)->winfo[w] & 255), width = ((E)->woff[w + 1] - (E)->woff[w]) / PETSCWARP_WARP, row; r < (((E)->winfo[w] >> 8) & 255) && ((row = (E)->perm[(E)->wrow[w] + r]), 1); r++)

#define PETSCWARP_SLOT(E, w, r, L, k, sub) ((E)->woff[w] + PETSCWARP_WARP * (k) + (r) * (L) + (sub))

void PetscWarpEllMultHost(const PetscWarpEll *E, const double *x, const double *z, double *y)
{
  for (int s = 0; s < E->nsplit; s++) y[E->perm[s]] = z ? z[E->perm[s]] : 0.0; /* split rows accumulate their chunks */
  PETSCWARP_FOR_ROWS(E, w, r, row, L, width)
  {
    double sum = 0.0;
    for (int sub = 0; sub < L; sub++)
      for (int k = 0; k < width; k++) {
        int s = PETSCWARP_SLOT(E, w, r, L, k, sub);
        sum += E->val[s] * x[E->col[s]];
      }
    if (E->winfo[w] & PETSCWARP_SPLIT) y[row] += sum;
    else y[row] = (z ? z[row] : 0.0) + sum;
  }
}

void PetscWarpEllMultTransposeHost(const PetscWarpEll *E, const double *x, const double *z, double *y)
{
  for (int j = 0; j < E->ncols; j++) y[j] = z ? z[j] : 0.0;
  PETSCWARP_FOR_ROWS(E, w, r, row, L, width)
  {
    for (int sub = 0; sub < L; sub++)
      for (int k = 0; k < width; k++) {
        int s = PETSCWARP_SLOT(E, w, r, L, k, sub);
        if (E->map[s] >= 0) y[E->col[s]] += E->val[s] * x[row];
      }
  }
}

void PetscWarpEllGetDiagonalHost(const PetscWarpEll *E, double *d)
{
  for (int i = 0; i < E->nrows; i++) d[i] = E->diag[i] >= 0 ? E->val[E->diag[i]] : 0.0;
}
