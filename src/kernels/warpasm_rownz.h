/* The arithmetic of the rownz strategy (warpasmrownzkernels.h), written once for the host twin (warpasm_rownz_host.c)
   and the device (warpasm_rownz.cu): the affine factor of one cell, and the rows of one lane of a tile. */
#pragma once

#include <petscwarp/private/warpasmrownzkernels.h>
#include "warpasm_elem.h"

/* Doubles of a cell's factor: PwaAffineRefs(kind, dim) rounded up to even (a constant expression for the device kernels'
   template arguments) */
#define PWA_RNZ_STRIDE(dim, kind) ((((kind) == PETSCWARP_PHYS_LAPLACE ? (dim) * ((dim) + 1) / 2 + 1 : (dim) * (dim) + 1) + 1) / 2 * 2)

static inline PWA_HD int PwaRowNZStride(int dim, int kind)
{
  return PWA_RNZ_STRIDE(dim, kind);
}

/* The affine factor of cell into g[0 .. cs) from its vertex coordinates Xc (the tail beyond PwaAffineCell's values is 0) */
static inline PWA_HD void PwaRowNZCellX(int kind, int dim, int ncv, const double *Xc, const double *Dc0, int coef, double kappa, const double *kcell, double shift, int cell, int cs, double *g)
{
  double K[9], f[PWA_AC(3)];
  int    tensor = 0;
  K[0]          = 0.0;
  if (kind == PETSCWARP_PHYS_LAPLACE) tensor = PwaCellCoef(coef, kappa, kcell, dim, cell, K);
  PwaAffineCell(kind, dim, ncv, Xc, Dc0, tensor, K, shift, f);
  for (int r = 0; r < cs; r++) g[r] = r < PwaAffineRefs(kind, dim) ? f[r] : 0.0;
}

/* The affine factor of cell into g[0 .. cs), its vertex coordinates gathered from cv and X */
static inline PWA_HD void PwaRowNZCell(int kind, int dim, int ncv, const int *cv, const double *X, const double *Dc0, int coef, double kappa, const double *kcell, double shift, int cell, int cs, double *g)
{
  double Xc[8 * 3];
  for (int k = 0; k < ncv; k++) {
    const int v = PWA_LDG(&cv[(size_t)cell * ncv + k]);
    for (int d = 0; d < dim; d++) Xc[k * dim + d] = PWA_LDG(&X[(size_t)v * dim + d]);
  }
  PwaRowNZCellX(kind, dim, ncv, Xc, Dc0, coef, kappa, kcell, shift, cell, cs, g);
}

/* What a fused lane needs to compute a cell's factor itself (PwaRowNZCell) instead of reading it from coef */
typedef struct {
  int           ncv, coef;
  double        kappa;
  const int    *cv;
  const double *X, *Dc, *kcell;
} PwaRowNZGeo;

static inline PWA_HD PwaRowNZGeo PwaRowNZGeoOf(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph)
{
  PwaRowNZGeo g;
  g.ncv   = fe->ncv;
  g.coef  = ph->coef;
  g.kappa = ph->kappa;
  g.cv    = mesh ? mesh->cv : NULL;
  g.X     = mesh ? mesh->X : NULL;
  g.Dc    = fe->Dc;
  g.kcell = ph->kcell;
  return g;
}

/* Lane t of tile b adds the entries of its row into the tile's accumulator acc (local slots), in the fixed order:
   incidences m, then column nodes, then components. Kr: the reference matrices; coef: the factors (cs per cell), or
   NULL (fused): the lane computes each incident cell's factor from geo (the same values, bitwise) */
static inline PWA_HD void PwaRowNZLane(int kind, int dim, int nb, const double *Kr, double lambda, double mu, double shift, const PetscWarpRowNZ *rn, int b, int t, const double *coef, const PwaRowNZGeo *geo, int cs, double *acc)
{
  const int nc = kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim, nel = rn->nel, base = PWA_LDG(&rn->lbase[b * PETSCWARP_ROWNZ_LANES + t]);
  const int i0 = PWA_LDG(&rn->ioff[b]), nl = PWA_LDG(&rn->nlane[b]), ssh = rn->ssh;
  int       lsh, lmask, nm;
  if (base < 0 || t >= nl) return;
  nm    = (PWA_LDG(&rn->ioff[b + 1]) - i0) / nl;
  lsh   = PWA_LDG(&rn->lsh[b * PETSCWARP_ROWNZ_LANES + t]);
  lmask = (1 << lsh) - 1;
  for (int m = 0; m < nm; m++) {
    const size_t x    = (size_t)i0 + (size_t)m * nl + t;
    const int    cell = PWA_LDG(&rn->icell[x]);
    const size_t kb   = ((size_t)i0 + (size_t)m * nl) * nel + t;
    double       g[PWA_AC(3) + 1];
    int          i, a, c;
    if (cell < 0) continue; /* padding */
    i = PWA_LDG(&rn->iloc[x]);
    a = i / nc;
    c = i - a * nc;
    if (coef)
      for (int r = 0; r < cs; r++) g[r] = PWA_LDG(&coef[(size_t)cell * cs + r]);
    else PwaRowNZCell(kind, dim, geo->ncv, geo->cv, geo->X, geo->Dc, geo->coef, geo->kappa, geo->kcell, shift, cell, cs, g);
    for (int bn = 0; bn < nb; bn++) {
      double v[9];
      PwaAffinePair(kind, dim, nb, Kr, g, lambda, mu, shift, a, bn, v);
      for (int e = 0; e < nc; e++) {
        const size_t y = kb + (size_t)(bn * nc + e) * nl;
        const int    k = rn->wide ? (int)PWA_LDG(&rn->kpos16[y]) : (int)PWA_LDG(&rn->kpos8[y]);
        if (k == (rn->wide ? PETSCWARP_ROWNZ_SKIP16 : PETSCWARP_ROWNZ_SKIP8)) continue; /* a dropped column */
        acc[base + ((k >> lsh) << ssh) + (k & lmask)] += v[c * nc + e];
      }
    }
  }
}
