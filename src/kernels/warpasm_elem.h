/*
  The element computation of the assembly kernels (warpasmkernels.h), written once as inline functions for the host
  twin (C99, warpasm_host.c) and the device (CUDA, warpasm.cu).

  The work is split at the granularity the GPU kernels parallelize over:
  - PwaStageQ: one (cell, quadrature point): the geometry from the cell's vertex coordinates, reduced to a geometric
    factor of PWA_GS(dim) doubles: g[0 .. dim^2) = M = w_q detJ Jinv K Jinv^T (LAPLACE: then the stiffness term of
    entry (a,b) at q is D_qa^T M D_qb with the reference derivatives D) or Jinv (ELASTICITY), g[dim^2] = w_q detJ;
  - PetscWarpGradient (ELASTICITY only): one (cell, q, a): the physical gradient Jinv^T D_qa, staged in
    R[(q*nb + a)*dim ...] (elasticity uses each gradient for nc^2 entries per pair of nodes: worth staging; Laplace
    is cheaper with M);
  - PwaTile: one tile of a cell's element matrix: the rows of ra consecutive basis functions against the columns of
    rb consecutive ones, all components (Laplace 2 x 4, elasticity 1 x 2 in 2D and 1 x 1 in 3D: at most
    PWA_TILE_MAX entries; the upper triangle only, mirrored), accumulated in registers over the quadrature points from the cell's staged data and the reference
    tabulation, so that each value read serves several entries;
  - PwaLoadEntry: one entry of a cell's load vector.
  Inputs read plainly may be in shared or global memory on the device (the reference tabulation is copied to shared
  memory when it fits); kcell is read through PWA_LDG (the read-only path on the device).
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>
/* PETSCWARP_HD, PetscWarpGeometry(), PetscWarpGradient(): installed, shared with pointwise.cuh */
#include <petscwarp/elemgeometry.h>
#define PWA_HD PETSCWARP_HD /* the kernels' private spelling of the host and device qualifiers */
#if defined(__CUDA_ARCH__)
  #define PWA_LDG(p) __ldg(p)
#else
  #define PWA_LDG(p) (*(p))
#endif

#define PWA_GS(dim)      ((dim) == 2 ? 5 : 11) /* doubles per geometric factor: dim^2 + 1, odd (spreads shared memory banks) */
#define PWA_TILE_MAX     9                     /* entries of a tile */
#define PWA_TILE_RA      2                     /* most row nodes of a tile */
#define PWA_TILE_RB      4                     /* most column nodes of a tile */
#define PWA_TARGET_TILES 256                   /* tiles per group of cells computed together (one per thread of a block) */
#define PWA_STAGE_BUDGET (32 * 1024)           /* sharednz: bytes of the geometric factors of one sub-batch of cells */
#define PWA_REF_BUDGET   (32 * 1024)           /* bytes of the reference tabulation copied to shared memory, at most */

/* Tile shape: ra row nodes x rb column nodes, all components (2 x 4 for Laplace measured best against 1 x 4, 2 x 2;
   a 3 x 4 variant next to it in the same kernel made the H100 kernels spill registers at 85 per thread) */
static inline PWA_HD void PwaTileShape(int dim, int nc, int *ra, int *rb)
{
  *ra = nc == 1 ? 2 : 1;
  *rb = nc == 1 ? 4 : dim == 2 ? 2 : 1;
}

/* Tiles covering the upper triangle of one element matrix (node a <= node b; the element matrices of every built-in
   physics are symmetric, the lower triangle is written as the mirror of the upper): row tile i (nodes i*ra ...) holds
   the column blocks j >= i*ra/rb of the ncb = ceil(nb/rb) blocks */
static inline PWA_HD int PwaTiles(int dim, int nb, int nc)
{
  int ra, rb, n = 0;
  PwaTileShape(dim, nc, &ra, &rb);
  for (int i = 0; i < (nb + ra - 1) / ra; i++) n += (nb + rb - 1) / rb - i * ra / rb;
  return n;
}

/* First row and column node (a0, b0) of tile number tile of PwaTiles() */
static inline PWA_HD void PwaTileOrigin(int nb, int ra, int rb, int tile, int *a0, int *b0)
{
  const int ncb = (nb + rb - 1) / rb;
  int       i = 0, nj = ncb;
  while (tile >= nj) { /* at most ceil(nb/ra) rows */
    tile -= nj;
    i++;
    nj = ncb - i * ra / rb;
  }
  *a0 = i * ra;
  *b0 = (ncb - nj + tile) * rb;
}

/* Doubles of the reference tabulation as the device stages it (D, B, Dc, w), 0 when above PWA_REF_BUDGET */
static inline PWA_HD int PwaRefDoubles(int dim, int nb, int nq, int ncv)
{
  int n = nq * (nb * dim + nb + ncv * dim + 1);
  return n * (int)sizeof(double) <= PWA_REF_BUDGET ? n : 0;
}

/* Doubles staged per cell: geometric factors, and the physical gradients for ELASTICITY (nc > 1) */
static inline PWA_HD int PwaStageDoubles(int dim, int nb, int nc, int nq)
{
  return nq * PWA_GS(dim) + (nc > 1 ? nq * nb * dim : 0);
}

/* sharednz: cells per sub-batch whose data is staged at once: a tile for each of the bs threads of the block (at least
   PWA_TARGET_TILES), within PWA_STAGE_BUDGET per 256 threads */
static inline PWA_HD int PwaSharedSubBatch(int dim, int nb, int nc, int nq, int bs)
{
  int tt = bs > PWA_TARGET_TILES ? bs : PWA_TARGET_TILES, ntile = PwaTiles(dim, nb, nc), ns = (tt + ntile - 1) / ntile, fit = (PWA_STAGE_BUDGET / 256) * tt / ((int)sizeof(double) * PwaStageDoubles(dim, nb, nc, nq));
  if (ns > fit) ns = fit;
  return ns > 0 ? ns : 1;
}

/* The conductivity of a cell: returns 1 with the tensor K[d*dim+e] (coef 2), 0 with the scalar K[0] (coef 0, 1) */
static inline PWA_HD int PwaCellCoef(int coef, double kappa, const double *kcell, int dim, int cell, double *K)
{
  if (coef == 2) {
    for (int m = 0; m < dim * dim; m++) K[m] = PWA_LDG(&kcell[(size_t)cell * dim * dim + m]);
    return 1;
  }
  K[0] = coef == 1 ? PWA_LDG(&kcell[cell]) : kappa;
  return 0;
}

/* Stage one (cell, q): the geometric factor g (PWA_GS(dim) doubles) from the cell's vertex coordinates Xc, with
   Dcq = Dc + q*ncv*dim; tensor, K from PwaCellCoef (LAPLACE) */
static inline PWA_HD void PwaStageQ(int kind, int dim, int ncv, const double *Xc, const double *Dcq, double wq, int tensor, const double *K, double *g)
{
  double Jinv[9], wdj = wq * PetscWarpGeometry(dim, ncv, Xc, Dcq, Jinv);
  if (kind == PETSCWARP_PHYS_LAPLACE) { /* M = wdj Jinv K Jinv^T */
    for (int d = 0; d < dim; d++)
      for (int e = 0; e < dim; e++) {
        double s = 0.0;
        if (tensor)
          for (int k = 0; k < dim; k++)
            for (int l = 0; l < dim; l++) s += Jinv[d * dim + k] * K[k * dim + l] * Jinv[e * dim + l];
        else {
          for (int k = 0; k < dim; k++) s += Jinv[d * dim + k] * Jinv[e * dim + k];
          s *= K[0];
        }
        g[d * dim + e] = wdj * s;
      }
  } else
    for (int m = 0; m < dim * dim; m++) g[m] = Jinv[m];
  g[dim * dim] = wdj;
}

/* The mass coefficient of (cell, q) (PetscWarpPhys.cq) applied to a staged factor: the mass term of PwaTile is
   shift * g[dim^2] * B_qa B_qb, so scaling g[dim^2] by cq[cell*nq + q] gives shift * cq * w detJ B_qa B_qb */
static inline PWA_HD void PwaMassCoef(const double *cq, int dim, int nq, int cell, int q, double *g)
{
  if (cq) g[dim * dim] *= PWA_LDG(&cq[(size_t)cell * nq + q]);
}

/* One tile of ra x rb nodes at (a0, b0) (PwaTile; ra and rb are literal constants at each call, so that acc, h and sa
   live in registers) */
static inline PWA_HD void PwaTileRect(int kind, int dim, int nb, int nq, const double *D, const double *B, const double *G, const double *R, double lambda, double mu, double shift, int ra, int rb, int a0, int b0, double *A)
{
  const int nc = kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim, nel = nb * nc, gs = PWA_GS(dim);
  double    acc[PWA_TILE_MAX];
  for (int m = 0; m < PWA_TILE_MAX; m++) acc[m] = 0.0;
  for (int q = 0; q < nq; q++) {
    const double *g = G + q * gs, *Dq = D + q * nb * dim, *Bq = B + q * nb, *Rq = R + q * nb * dim, wdj = g[dim * dim];
    double        h[PWA_TILE_RA][3], sa[PWA_TILE_RA];
    { /* rows: LAPLACE h = M^T D_qa (A[a,b] += h . D_qb), ELASTICITY h = wdj grad phi_a */
      double M[9];
      if (kind == PETSCWARP_PHYS_LAPLACE)
        for (int m = 0; m < dim * dim; m++) M[m] = g[m];
      for (int x = 0; x < ra; x++) {
        const int a = a0 + x < nb ? a0 + x : nb - 1;
        sa[x]       = wdj * shift * Bq[a];
        if (kind == PETSCWARP_PHYS_LAPLACE)
          for (int e = 0; e < dim; e++) {
            double t = 0.0;
            for (int d = 0; d < dim; d++) t += Dq[a * dim + d] * M[d * dim + e];
            h[x][e] = t;
          }
        else
          for (int d = 0; d < dim; d++) h[x][d] = wdj * Rq[a * dim + d];
      }
    }
    for (int y = 0; y < rb; y++) { /* columns: reference (LAPLACE) or physical (ELASTICITY) gradients, values */
      const int b = b0 + y < nb ? b0 + y : nb - 1;
      double    db[3], pb = Bq[b];
      for (int e = 0; e < dim; e++) db[e] = kind == PETSCWARP_PHYS_LAPLACE ? Dq[b * dim + e] : Rq[b * dim + e];
      for (int x = 0; x < ra; x++) {
        if (kind == PETSCWARP_PHYS_LAPLACE) {
          double t = sa[x] * pb;
          for (int e = 0; e < dim; e++) t += h[x][e] * db[e];
          acc[x * rb + y] += t;
        } else {
          double dot = 0.0;
          for (int d = 0; d < dim; d++) dot += h[x][d] * db[d];
          for (int c = 0; c < nc; c++)
            for (int e = 0; e < nc; e++) acc[(x * nc + c) * rb * nc + y * nc + e] += mu * h[x][e] * db[c] + lambda * h[x][c] * db[e] + (c == e ? mu * dot + sa[x] * pb : 0.0);
        }
      }
    }
  }
  for (int x = 0; x < ra; x++)
    for (int y = 0; y < rb; y++) {
      const int a = a0 + x, b = b0 + y;
      if (a < nb && b < nb && a <= b) /* the upper triangle, and its mirror: each entry written once */
        for (int c = 0; c < nc; c++)
          for (int e = 0; e < nc; e++) {
            const double v                     = acc[(x * nc + c) * rb * nc + y * nc + e];
            A[(a * nc + c) * nel + b * nc + e] = v;
            if (a < b) A[(b * nc + e) * nel + a * nc + c] = v;
          }
    }
}

/* Tile number tile of PwaTiles() of a cell's element matrix A (row-major, nel = nb*nc columns, element dof a*nc + c)
   from its geometric factors G[q*PWA_GS(dim) ...], (ELASTICITY) its physical gradients R[(q*nb + a)*dim ...], and the
   reference tabulation D, B:
     LAPLACE:    A[a,b] = sum_q D_qa^T M_q D_qb + shift wdj_q B_qa B_qb     (= int grad phi_a . K grad phi_b + ...)
     ELASTICITY: A[(a,c),(b,e)] = sum_q wdj_q [mu (delta_ce grad phi_a . grad phi_b + d_e phi_a d_c phi_b)
                                               + lambda d_c phi_a d_e phi_b + shift delta_ce B_qa B_qb]
   Rows or columns past nb (the last tiles) are computed on clamped data and not written; of the entries of node pairs
   (a, b), those with a <= b are written, and for a < b their mirror (b, a) too (the matrix is symmetric). */
static inline PWA_HD void PwaTile(int kind, int dim, int nb, int nq, const double *D, const double *B, const double *G, const double *R, double lambda, double mu, double shift, int tile, double *A)
{
  const int nc = kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim;
  int       ra, rb, a0, b0;
  PwaTileShape(dim, nc, &ra, &rb);
  PwaTileOrigin(nb, ra, rb, tile, &a0, &b0);
  if (ra == 2) PwaTileRect(kind, dim, nb, nq, D, B, G, R, lambda, mu, shift, 2, 4, a0, b0, A);
  else if (rb == 2) PwaTileRect(kind, dim, nb, nq, D, B, G, R, lambda, mu, shift, 1, 2, a0, b0, A);
  else PwaTileRect(kind, dim, nb, nq, D, B, G, R, lambda, mu, shift, 1, 1, a0, b0, A);
}

/* Entry (a, c) of a cell's load vector from its geometric factors: fc sum_q wdj_q B_qa */
static inline PWA_HD double PwaLoadEntry(int dim, int nb, int nq, const double *B, const double *G, double fc, int a)
{
  double s = 0.0;
  for (int q = 0; q < nq; q++) s += G[q * PWA_GS(dim) + dim * dim] * B[q * nb + a];
  return fc * s;
}

/* ---------------- the affine fast path ----------------
   On a cell whose geometry map is affine (J the same at every quadrature point) and whose coefficients are constant,
   the element matrix is a combination of reference matrices precomputed once (PetscWarpAsmAffineRefsHost), upper
   triangles over the node pairs a <= b, numbered row by row (PwaPair), K[r*npair + p]:
     LAPLACE:    r < nsym = dim(dim+1)/2: the symmetrised stiffness sum_q w_q (D_qa,d D_qb,e + D_qa,e D_qb,d) of the
                 pair (d, e) of PwaSymPair (sum_q w_q D_qa,d D_qb,d for d == e); r = nsym: the mass sum_q w_q B_qa B_qb
     ELASTICITY: r = k*dim + l < dim^2: sum_q w_q D_qa,k D_qb,l (K_kl[a,b] = K_lk[b,a]); r = dim^2: the mass
   and per cell PWA_AC(dim) doubles from its geometry at the first quadrature point (PwaAffineCell):
     LAPLACE:    c_r = M_de (symmetrised) of M = detJ Jinv K Jinv^T (PwaStageQ with weight 1), c_nsym = shift detJ:
                 A[a,b] = sum_r c_r K_r[pair(a,b)] (the same sum for (a,b) and (b,a): exactly symmetric)
     ELASTICITY: Jinv and detJ: with S = Jinv^T K_p Jinv (K_p the dim x dim matrix K_kl of the pair),
                 A[(a,c),(b,e)] = detJ [mu S_ec + lambda S_ce + delta_ce (mu tr S + shift Mref_p)] for a <= b, and for
                 a > b the mirror of the entry of the pair (b,a) (mu and lambda swap their indices): exactly symmetric.
   The results agree with PwaTile's quadrature to round-off where the map is affine. */
#define PWA_AC(dim) ((dim) * (dim) + 1) /* doubles of a cell's affine factor */

/* Reference matrices of the affine path for a physics kind */
static inline PWA_HD int PwaAffineRefs(int kind, int dim)
{
  return kind == PETSCWARP_PHYS_LAPLACE ? dim * (dim + 1) / 2 + 1 : dim * dim + 1;
}

/* The pair (d, e), d <= e, of symmetrised LAPLACE reference matrix r < dim(dim+1)/2: the diagonal ones first, then
   (0,1) in 2D; (0,1), (0,2), (1,2) in 3D */
static inline PWA_HD void PwaSymPair(int dim, int r, int *d, int *e)
{
  if (r < dim) *d = *e = r;
  else {
    r -= dim;
    *d = dim == 2 || r < 2 ? 0 : 1;
    *e = dim == 2 ? 1 : r == 0 ? 1 : 2;
  }
}

/* Number of the node pair (u, v), u <= v, in the row-by-row upper triangle of nb nodes */
static inline PWA_HD int PwaPair(int nb, int u, int v)
{
  return u * nb - u * (u - 1) / 2 + v - u;
}

/* The affine factor g (PWA_AC(dim) doubles) of a cell from its vertex coordinates Xc and the coordinate basis
   derivatives Dc0 at the first quadrature point; tensor, K from PwaCellCoef (LAPLACE) */
static inline PWA_HD void PwaAffineCell(int kind, int dim, int ncv, const double *Xc, const double *Dc0, int tensor, const double *K, double shift, double *g)
{
  double G[11];
  PwaStageQ(kind, dim, ncv, Xc, Dc0, 1.0, tensor, K, G);
  if (kind == PETSCWARP_PHYS_LAPLACE) {
    const int nsym = dim * (dim + 1) / 2;
    for (int r = 0; r < nsym; r++) {
      int d, e;
      PwaSymPair(dim, r, &d, &e);
      g[r] = d == e ? G[d * dim + d] : 0.5 * (G[d * dim + e] + G[e * dim + d]);
    }
    g[nsym] = shift * G[dim * dim];
  } else
    for (int m = 0; m <= dim * dim; m++) g[m] = G[m];
}

/* The entries of node pair (a, b) of an affine cell from its factor g and the reference matrices Kr (npair =
   nb(nb+1)/2 per matrix): v[c*nc + e] = A[(a*nc + c)*nel + b*nc + e] (nc = 1 for LAPLACE, dim for ELASTICITY) */
static inline PWA_HD void PwaAffinePair(int kind, int dim, int nb, const double *Kr, const double *g, double lambda, double mu, double shift, int a, int b, double *v)
{
  const int np = nb * (nb + 1) / 2, p = a <= b ? PwaPair(nb, a, b) : PwaPair(nb, b, a);
  if (kind == PETSCWARP_PHYS_LAPLACE) {
    const int nr = dim * (dim + 1) / 2 + 1;
    double    s  = 0.0;
    for (int r = 0; r < nr; r++) s += g[r] * Kr[r * np + p];
    v[0] = s;
  } else {
    double S[9], tr = 0.0, det = g[dim * dim], mass = shift * Kr[dim * dim * np + p];
    for (int m = 0; m < dim * dim; m++) S[m] = 0.0;
    for (int k = 0; k < dim; k++) /* S = Jinv^T K_p Jinv, S[c][e] = sum_kl Jinv[k][c] K_kl Jinv[l][e] */
      for (int l = 0; l < dim; l++) {
        const double kp = Kr[(k * dim + l) * np + p];
        for (int c = 0; c < dim; c++) {
          const double x = g[k * dim + c] * kp;
          for (int e = 0; e < dim; e++) S[c * dim + e] += x * g[l * dim + e];
        }
      }
    for (int d = 0; d < dim; d++) tr += S[d * dim + d];
    for (int c = 0; c < dim; c++)
      for (int e = 0; e < dim; e++) {
        const double sec = S[e * dim + c], sce = S[c * dim + e]; /* the entry (c, e) of the pair, or of its mirror */
        double       x = a <= b ? mu * sec + lambda * sce : mu * sce + lambda * sec;
        if (c == e) x += mu * tr + mass;
        v[c * dim + e] = det * x;
      }
  }
}

/* Checks of a call (host only): sizes (PetscWarpAsmCheck) and the physics' coefficient; 0 or PETSCWARP_ASM_ERR_ARG */
static inline int PwaCheckCall(const PetscWarpFE *fe, const PetscWarpPhys *ph)
{
  if (!fe || !ph || PetscWarpAsmCheck(fe, ph->kind)) return PETSCWARP_ASM_ERR_ARG;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE && (ph->coef < 0 || ph->coef > 2 || (ph->coef && !ph->kcell))) return PETSCWARP_ASM_ERR_ARG;
  return PETSCWARP_ASM_OK;
}
