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

/* The coordinates Xc[k*dim + d] of cell's ncv vertices, gathered from cv and X */
static inline PWA_HD void PwaRowNZCellCoords(int dim, int ncv, const int *cv, const double *X, int cell, double *Xc)
{
  for (int k = 0; k < ncv; k++) {
    const int v = PWA_LDG(&cv[(size_t)cell * ncv + k]);
    for (int d = 0; d < dim; d++) Xc[k * dim + d] = PWA_LDG(&X[(size_t)v * dim + d]);
  }
}

/* The affine factor of cell into g[0 .. cs), its vertex coordinates gathered from cv and X */
static inline PWA_HD void PwaRowNZCell(int kind, int dim, int ncv, const int *cv, const double *X, const double *Dc0, int coef, double kappa, const double *kcell, double shift, int cell, int cs, double *g)
{
  double Xc[8 * 3];
  PwaRowNZCellCoords(dim, ncv, cv, X, cell, Xc);
  PwaRowNZCellX(kind, dim, ncv, Xc, Dc0, coef, kappa, kcell, shift, cell, cs, g);
}

/* c ? a : b, on the device as a predicated select the compiler cannot turn into an indexed load: a chain of them over
   a local array (pick element i) otherwise becomes a load from local memory (96 bytes of stack in PwaRowNZLapP1Row) */
#if defined(__CUDA_ARCH__)
static __device__ __forceinline__ double PwaSel(int c, double a, double b)
{
  double r;
  asm("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\tselp.f64 %0, %2, %3, p;\n\t}" : "=d"(r) : "r"(c), "d"(a), "d"(b));
  return r;
}
#else
static inline double PwaSel(int c, double a, double b)
{
  return c ? a : b;
}
#endif

/* Row i of a P1 simplex Laplacian element matrix with a scalar coefficient kap, in closed form (geo 2,
   -mat_warp_rownz_simplex_geometry 2): with the edges e_k = X_k - X_0 (E their columns, D = det E) the coordinate map
   is J = E R (R: the reference gradients of the coordinate basis functions 1..dim as rows), so the physical gradient of
   basis function k >= 1 is row k of E^-1, c_k / D with c_k the cross product of the other two edges (2D: the other edge
   turned), and c_0 = -(c_1 + ... + c_dim). Then A_ij = kap W det(R) c_i.c_j / D + shift D det(R) Mref_ij (W the sum of
   the quadrature weights, Mref the reference mass matrix, Km = its upper triangle), the affine path's values to
   round-off in about a third of the operations (3D: 9 + 27 + 11 + 4 * 6, one division). v[0 .. dim] */
static inline PWA_HD void PwaRowNZLapP1Row(int dim, const double *Xc, int i, double kap, double sigma, double detr, double shift, const double *Km, double *v)
{
  double e[3][3], c[4][3] = {{0.0}}, ci[3] = {0.0, 0.0, 0.0}, D, s;
  for (int k = 0; k < dim; k++)
    for (int d = 0; d < dim; d++) e[k][d] = Xc[(k + 1) * dim + d] - Xc[d];
  if (dim == 2) {
    c[1][0] = e[1][1], c[1][1] = -e[1][0];
    c[2][0] = -e[0][1], c[2][1] = e[0][0];
    D = e[0][0] * e[1][1] - e[0][1] * e[1][0];
  } else {
    for (int k = 0; k < 3; k++) { /* c_{k+1} = e_{k+1} x e_{k+2} (cyclic) */
      const int a = k == 2 ? 0 : k + 1, b = k == 0 ? 2 : k - 1;
      c[k + 1][0] = e[a][1] * e[b][2] - e[a][2] * e[b][1];
      c[k + 1][1] = e[a][2] * e[b][0] - e[a][0] * e[b][2];
      c[k + 1][2] = e[a][0] * e[b][1] - e[a][1] * e[b][0];
    }
    D = e[0][0] * c[1][0] + e[0][1] * c[1][1] + e[0][2] * c[1][2];
  }
  for (int d = 0; d < dim; d++) {
    double t = c[1][d];
    for (int k = 2; k <= dim; k++) t += c[k][d];
    c[0][d] = -t;
  }
  for (int k = 0; k < 4; k++) /* c_i without indexing c at run time (registers on the device) */
    for (int d = 0; d < 3; d++)
      if (k <= dim && d < dim) ci[d] = PwaSel(k == i, c[k][d], ci[d]);
  s = kap * sigma / D;
  for (int j = 0; j <= dim; j++) {
    double t = ci[0] * c[j][0];
    for (int d = 1; d < dim; d++) t += ci[d] * c[j][d];
    v[j] = s * t;
  }
  if (shift != 0.0) {
    const double ms = shift * (D * detr);
    for (int j = 0; j <= dim; j++) v[j] += ms * Km[i <= j ? PwaPair(dim + 1, i, j) : PwaPair(dim + 1, j, i)];
  }
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
   NULL (fused): the lane computes each incident cell's factor from geo (the same values, bitwise), or, with rn->geo 2
   where it applies (host twin; the device's RowNZLanePipe), the row's entries in closed form (PwaRowNZLapP1Row) */
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
    double       g[PWA_AC(3) + 1], vr[4] = {0.0, 0.0, 0.0, 0.0}; /* vr: geo 2's row */
    int          i, a, c, closed;
    if (cell < 0) continue; /* padding */
    i = PWA_LDG(&rn->iloc[x]);
    a = i / nc;
    c = i - a * nc;
#if defined(__CUDA_ARCH__)
    closed = 0; /* the device runs geo 2 in RowNZLanePipe only (warpasm_rownz.cu; the same conditions): here it would cost the generic kernels registers (3D 80 -> 89) */
#else
    closed = !coef && rn->geo == 2 && rn->p1sigma != 0.0 && rn->unroll && !rn->wide && kind == PETSCWARP_PHYS_LAPLACE && nb == dim + 1 && geo->ncv == nb && geo->coef != 2;
#endif
    if (closed) { /* geo 2: the row's entries in closed form */
      double Xc[4 * 3], K[9];
      PwaRowNZCellCoords(dim, nb, geo->cv, geo->X, cell, Xc);
      (void)PwaCellCoef(geo->coef, geo->kappa, geo->kcell, dim, cell, K);
      PwaRowNZLapP1Row(dim, Xc, i, K[0], rn->p1sigma, rn->p1detr, shift, Kr + (size_t)(dim * (dim + 1) / 2) * (size_t)(nb * (nb + 1) / 2), vr);
    } else if (coef)
      for (int r = 0; r < cs; r++) g[r] = PWA_LDG(&coef[(size_t)cell * cs + r]);
    else PwaRowNZCell(kind, dim, geo->ncv, geo->cv, geo->X, geo->Dc, geo->coef, geo->kappa, geo->kcell, shift, cell, cs, g);
    for (int bn = 0; bn < nb; bn++) {
      double v[9];
      if (closed) v[0] = vr[bn]; /* nc 1, c 0 */
      else PwaAffinePair(kind, dim, nb, Kr, g, lambda, mu, shift, a, bn, v);
      for (int e = 0; e < nc; e++) {
        const size_t y = kb + (size_t)(bn * nc + e) * nl;
        const int    k = rn->wide ? (int)PWA_LDG(&rn->kpos16[y]) : (int)PWA_LDG(&rn->kpos8[y]);
        if (k == (rn->wide ? PETSCWARP_ROWNZ_SKIP16 : PETSCWARP_ROWNZ_SKIP8)) continue; /* a dropped column */
        acc[base + ((k >> lsh) << ssh) + (k & lmask)] += v[c * nc + e];
      }
    }
  }
}
