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

/* The unit column of unit slot k = 32 kb + t (relative to the warp's start) of warp w in the compact index; prev: the
   lane's column at slot k - 32 (0 for kb = 0; hybrid warps) */
static inline int UnitColumn(const PetscWarpEll *E, int w, int k, int prev)
{
  const unsigned short *ci   = E->cidx + E->ioff[w];
  int                   mode = E->wmode[w], sb = mode & 255, nb = mode >= 0 ? mode >> 8 : -2 - mode;
  unsigned              v, sel;
  if (mode == PETSCWARP_MODE_WIDE) return (int)((unsigned)ci[2 * k] | ((unsigned)ci[2 * k + 1] << 16));
  v = ci[2 * nb + k];
  if (mode < PETSCWARP_MODE_WIDE) { /* hybrid */
    if (!(v & 0x8000u)) return prev + (int)v;
    sel = (v >> 10) & 31u;
    return (int)(((unsigned)ci[2 * sel] | ((unsigned)ci[2 * sel + 1] << 16)) + (v & 1023u));
  }
  sel = v >> (16 - sb);
  return (int)(((unsigned)ci[2 * sel] | ((unsigned)ci[2 * sel + 1] << 16)) + (v & ((1u << (16 - sb)) - 1)));
}

/* The sum of a row from the compact index: twin of the device kernel EllWarpKc */
static double RowSumCompact(const PetscWarpEll *E, int w, int r, int L, int width, const double *x)
{
  int    u = E->unit, nb = width / u;
  double sum = 0.0;
  for (int sub = 0; sub < L; sub++) {
    int t = r * L + sub, c = 0;
    for (int kb = 0; kb < nb; kb++) {
      c = UnitColumn(E, w, PETSCWARP_WARP * kb + t, c);
      for (int j = 0; j < u; j++) sum += E->val[E->woff[w] + PETSCWARP_WARP * (kb * u + j) + t] * x[u * c + j];
    }
  }
  return sum;
}

void PetscWarpEllMultHost(const PetscWarpEll *E, const double *x, const double *z, double *y)
{
  for (int s = 0; s < E->nsplit; s++) y[E->perm[s]] = z ? z[E->perm[s]] : 0.0; /* split rows accumulate their chunks */
  PETSCWARP_FOR_ROWS(E, w, r, row, L, width)
  {
    double sum = 0.0;
    if (E->cidx) sum = RowSumCompact(E, w, r, L, width, x);
    else
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
