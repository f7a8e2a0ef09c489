/* Host twin of the finite-element assembly kernels (warpasm.cu), over the element computation of warpasm_elem.h. */
#include <petscwarp/private/warpasmkernels.h>
#include "warpasm_elem.h"
#include <math.h>
#include <stdlib.h>

int PetscWarpAsmCheck(const PetscWarpFE *fe, int physkind)
{
  if (!fe || (fe->dim != 2 && fe->dim != 3)) return PETSCWARP_ASM_ERR_ARG;
  if (fe->nb < 1 || fe->nb > PETSCWARP_MAXNB || fe->nq < 1 || fe->nq > PETSCWARP_MAXNQ || fe->ncv < 1 || fe->ncv > 8) return PETSCWARP_ASM_ERR_ARG;
  if (physkind == PETSCWARP_PHYS_LAPLACE) return fe->nc == 1 ? PETSCWARP_ASM_OK : PETSCWARP_ASM_ERR_ARG;
  if (physkind == PETSCWARP_PHYS_ELASTICITY) return fe->nc == fe->dim ? PETSCWARP_ASM_OK : PETSCWARP_ASM_ERR_ARG;
  return PETSCWARP_ASM_ERR_ARG;
}

/* The device's sharednz block (warpasm.cu) holds, per cell, its element matrix and its vertex coordinates, and beside
   the cells the reference tabulation (when it fits PWA_REF_BUDGET) and the geometric factors of one sub-batch */
size_t PetscWarpSharedNZCellBytes(const PetscWarpFE *fe)
{
  size_t nel = (size_t)fe->nb * fe->nc;
  return sizeof(double) * (nel * nel + (size_t)fe->ncv * fe->dim);
}

size_t PetscWarpSharedNZFixedBytes(const PetscWarpFE *fe, int bs)
{
  size_t ns = (size_t)PwaSharedSubBatch(fe->dim, fe->nb, fe->nc, fe->nq, bs);
  return sizeof(double) * ((size_t)PwaRefDoubles(fe->dim, fe->nb, fe->nq, fe->ncv) + ns * PwaStageDoubles(fe->dim, fe->nb, fe->nc, fe->nq));
}

/* Work space of one cell: vertex coordinates, geometric factors, physical gradients, element matrix */
typedef struct {
  double *Xc, *G, *R, *A;
} Work;

static int WorkCreate(const PetscWarpFE *fe, Work *w)
{
  size_t nel = (size_t)fe->nb * fe->nc;
  w->Xc      = malloc(sizeof(double) * (size_t)fe->ncv * fe->dim);
  w->G       = malloc(sizeof(double) * (size_t)fe->nq * PWA_GS(fe->dim));
  w->R       = malloc(sizeof(double) * (size_t)fe->nq * fe->nb * fe->dim);
  w->A       = malloc(sizeof(double) * nel * nel);
  return w->Xc && w->G && w->R && w->A ? PETSCWARP_ASM_OK : PETSCWARP_ASM_ERR_MEM;
}

static void WorkDestroy(Work *w)
{
  free(w->Xc);
  free(w->G);
  free(w->R);
  free(w->A);
}

static void GatherCoords(const PetscWarpFE *fe, const PetscWarpMesh *mesh, int cell, double *Xc)
{
  for (int k = 0; k < fe->ncv; k++)
    for (int d = 0; d < fe->dim; d++) Xc[k * fe->dim + d] = mesh->X[(size_t)mesh->cv[(size_t)cell * fe->ncv + k] * fe->dim + d];
}

/* Geometric factors of one cell from its vertex coordinates (kind ELASTICITY: Jinv and wdj, no coefficient) */
static void StageCell(const PetscWarpFE *fe, int kind, int tensor, const double *K, const double *cq, int cell, const double *Xc, double *G)
{
  for (int q = 0; q < fe->nq; q++) {
    PwaStageQ(kind, fe->dim, fe->ncv, Xc, fe->Dc + q * fe->ncv * fe->dim, fe->w[q], tensor, K, G + q * PWA_GS(fe->dim));
    if (kind == PETSCWARP_PHYS_LAPLACE) PwaMassCoef(cq, fe->dim, fe->nq, cell, q, G + q * PWA_GS(fe->dim));
  }
}

/* Element matrix A (row-major nel x nel) of cell from its vertex coordinates Xc: by the affine path (fe->Kaff, no
   per-point coefficient) pair by pair, else tile by tile, as on the device */
static void CellMatrix(const PetscWarpFE *fe, const PetscWarpPhys *ph, int cell, const double *Xc, Work *w, double *A)
{
  const int dim = fe->dim, nb = fe->nb;
  double    K[9]   = {0.0};
  int       tensor = ph->kind == PETSCWARP_PHYS_LAPLACE ? PwaCellCoef(ph->coef, ph->kappa, ph->kcell, dim, cell, K) : 0;
  if (fe->Kaff && !ph->cq) {
    const int nc = fe->nc, nel = nb * nc;
    double    g[PWA_AC(3)], v[9];
    PwaAffineCell(ph->kind, dim, fe->ncv, Xc, fe->Dc, tensor, K, ph->shift, g);
    for (int a = 0; a < nb; a++)
      for (int b = 0; b < nb; b++) {
        PwaAffinePair(ph->kind, dim, nb, fe->Kaff, g, ph->lambda, ph->mu, ph->shift, a, b, v);
        for (int c = 0; c < nc; c++)
          for (int e = 0; e < nc; e++) A[(a * nc + c) * nel + b * nc + e] = v[c * nc + e];
      }
    return;
  }
  StageCell(fe, ph->kind, tensor, K, ph->cq, cell, Xc, w->G);
  if (ph->kind == PETSCWARP_PHYS_ELASTICITY)
    for (int qa = 0; qa < fe->nq * nb; qa++) PetscWarpGradient(dim, w->G + qa / nb * PWA_GS(dim), fe->D + qa * dim, w->R + qa * dim);
  for (int t = 0; t < PwaTiles(dim, nb, fe->nc); t++) PwaTile(ph->kind, dim, nb, fe->nq, fe->D, fe->B, w->G, w->R, ph->lambda, ph->mu, ph->shift, t, A);
}

int PetscWarpAsmElemHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, double *E)
{
  size_t per;
  Work   w;
  int    err = PwaCheckCall(fe, ph);
  if (err) return err;
  per = (size_t)fe->nb * fe->nc * fe->nb * fe->nc;
  if ((err = WorkCreate(fe, &w)) == PETSCWARP_ASM_OK)
    for (int k = 0; k < n; k++) {
      int cell = cells ? cells[k] : k;
      GatherCoords(fe, mesh, cell, w.Xc);
      CellMatrix(fe, ph, cell, w.Xc, &w, E + (size_t)k * per);
    }
  WorkDestroy(&w);
  return err;
}

int PetscWarpAsmDirectHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *val)
{
  size_t per;
  Work   w;
  int    err = PwaCheckCall(fe, ph);
  if (err) return err;
  per = (size_t)fe->nb * fe->nc * fe->nb * fe->nc;
  if ((err = WorkCreate(fe, &w)) == PETSCWARP_ASM_OK)
    for (int k = 0; k < n; k++) {
      int        cell = cells ? cells[k] : k;
      const int *s    = slot + (size_t)cell * per;
      GatherCoords(fe, mesh, cell, w.Xc);
      CellMatrix(fe, ph, cell, w.Xc, &w, w.A);
      for (size_t m = 0; m < per; m++)
        if (s[m] >= 0) val[s[m]] += w.A[m];
    }
  WorkDestroy(&w);
  return err;
}

/* Walk thread t's column of block b of a packed reduction array (the device's order of additions) */
static void ReduceColumn(const PetscWarpRed *red, int b, int t, const double *S, double *T)
{
  const int *ent    = red->ent + red->off[b];
  int        nsteps = (red->off[b + 1] - red->off[b]) / red->bs;
  double     acc    = 0.0;
  for (int r = 0; r < nsteps; r++) {
    int e = ent[r * red->bs + t];
    if (e > 0) acc += S[e - 1];
    else if (e < 0) {
      T[-e - 1] = acc;
      acc       = 0.0;
    }
  }
}

void PetscWarpReduceHost(const PetscWarpRed *red, const double *S, double *T)
{
  for (int b = 0; b < red->nblocks; b++)
    for (int t = 0; t < red->bs; t++) ReduceColumn(red, b, t, S, T);
}

/* Is every entry of block b of a packed array within its bounds (sources in [1, nsrc], targets in [1, ntarget])? */
static int PackedInRange(const PetscWarpRed *red, int b, long long nsrc, long long ntarget)
{
  for (int m = red->off[b]; m < red->off[b + 1]; m++) {
    long long e = red->ent[m];
    if (e > nsrc || -e > ntarget) return 0;
  }
  return 1;
}

int PetscWarpAsmSharedNZHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T)
{
  const int dim = fe ? fe->dim : 0, nb = fe ? fe->nb : 0;
  size_t    per, cellc;
  double   *Xs, *Es;
  Work      w;
  int       err = PwaCheckCall(fe, ph);
  if (err) return err;
  if (sh->maxcells < 1 || sh->bs < 1 || sh->scatter.bs != sh->bs || sh->red.bs != sh->bs || sh->scatter.nblocks != sh->nblocks || sh->red.nblocks != sh->nblocks) return PETSCWARP_ASM_ERR_ARG;
  per   = (size_t)nb * fe->nc * nb * fe->nc;
  cellc = (size_t)fe->ncv * dim;
  Xs    = malloc(sizeof(double) * cellc * sh->maxcells); /* the block's coordinate slots (shared memory) */
  Es    = malloc(sizeof(double) * per * sh->maxcells);   /* the block's element matrices (shared memory) */
  if ((err = WorkCreate(fe, &w)) == PETSCWARP_ASM_OK && !(Xs && Es)) err = PETSCWARP_ASM_ERR_MEM;
  for (int b = 0; b < sh->nblocks && !err; b++) {
    int m = sh->coff[b + 1] - sh->coff[b];
    if (m < 0 || m > sh->maxcells || !PackedInRange(&sh->scatter, b, mesh->nverts, (long long)m * fe->ncv) || !PackedInRange(&sh->red, b, (long long)m * (long long)per, (long long)1 << 40)) {
      err = PETSCWARP_ASM_ERR_ARG; /* a plan that does not fit its block */
      break;
    }
    for (size_t s = 0; s < cellc * m; s++) Xs[s] = NAN; /* a slot the scatter array misses poisons its element */
    for (int t = 0; t < sh->bs; t++) {                  /* scatter: thread t walks its column */
      const int *ent                 = sh->scatter.ent + sh->scatter.off[b];
      int        nsteps              = (sh->scatter.off[b + 1] - sh->scatter.off[b]) / sh->bs;
      double     v[PETSCWARP_MAXDIM] = {0.0, 0.0, 0.0};
      for (int r = 0; r < nsteps; r++) {
        int e = ent[r * sh->bs + t];
        if (e > 0)
          for (int d = 0; d < dim; d++) v[d] = mesh->X[(size_t)(e - 1) * dim + d];
        else if (e < 0)
          for (int d = 0; d < dim; d++) Xs[(size_t)(-e - 1) * dim + d] = v[d];
      }
    }
    for (int lc = 0; lc < m; lc++) CellMatrix(fe, ph, sh->cells[sh->coff[b] + lc], Xs + lc * cellc, &w, Es + lc * per);
    for (int t = 0; t < sh->bs; t++) ReduceColumn(&sh->red, b, t, Es, T);
  }
  WorkDestroy(&w);
  free(Xs);
  free(Es);
  return err;
}

int PetscWarpAsmLoadHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const int *rowslot, double *F)
{
  const int nc = fe ? fe->nc : 0, nel = fe ? fe->nb * nc : 0;
  Work      w;
  int       err = PwaCheckCall(fe, ph);
  if (err) return err;
  if ((err = WorkCreate(fe, &w)) == PETSCWARP_ASM_OK)
    for (int cell = 0; cell < mesh->ncells; cell++) {
      const int *s = rowslot + (size_t)cell * nel;
      GatherCoords(fe, mesh, cell, w.Xc);
      StageCell(fe, PETSCWARP_PHYS_ELASTICITY, 0, NULL, NULL, cell, w.Xc, w.G);
      for (int i = 0; i < nel; i++)
        if (s[i] >= 0) F[s[i]] += PwaLoadEntry(fe->dim, fe->nb, fe->nq, fe->B, w.G, ph->f[i % nc], i / nc);
    }
  WorkDestroy(&w);
  return err;
}
