/* The rownz strategy (warpasmrownzkernels.h), host twin: the same arithmetic in the same order as warpasm_rownz.cu
   (warpasm_rownz.h), the lanes of a tile run one after another. Compiled with -ffp-contract=off (CMakeLists.txt). */
#include "warpasm_rownz.h"
#include <stdlib.h>
#include <string.h>

int PetscWarpAsmRowNZCoefStride(int dim, int physkind)
{
  return PwaRowNZStride(dim, physkind);
}

size_t PetscWarpAsmRowNZTileBytes(const PetscWarpFE *fe, int physkind, int warpdoubles)
{
  const int n = PwaAffineRefs(physkind, fe->dim) * (fe->nb * (fe->nb + 1) / 2);
  if ((size_t)n * sizeof(double) > PWA_REF_BUDGET) return 0;
  return sizeof(double) * ((size_t)n + (size_t)warpdoubles);
}

int PetscWarpAsmRowNZWarpDoubles(const PetscWarpRowNZ *rn, int cs)
{
  return rn->maxslots + (rn->coff ? rn->maxtc * cs : 0);
}

static int CmpInt(const void *a, const void *b)
{
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int PetscWarpAsmRowNZStageCells(int ntiles, const int *ioff, int *icell, int ncells, int *mark, int *coff, int *tcell, int *maxtc)
{
  /* mark[cell] == -(b + 2): cell already listed for tile b; >= 0 (filling): its index in the tile's list */
  for (int c = 0; c < ncells; c++) mark[c] = -1;
  coff[0] = 0;
  *maxtc  = 0;
  for (int b = 0; b < ntiles; b++) {
    int n = 0;
    for (int x = ioff[b]; x < ioff[b + 1]; x++) {
      const int cell = icell[x];
      if (cell < 0 || mark[cell] == -(b + 2)) continue;
      if (cell >= ncells) return PETSCWARP_ASM_ERR_ARG;
      mark[cell] = -(b + 2);
      if (tcell) tcell[coff[b] + n] = cell;
      n++;
    }
    if (tcell) {
      if (coff[b + 1] - coff[b] != n) return PETSCWARP_ASM_ERR_ARG; /* coff is not the counting call's */
      qsort(tcell + coff[b], (size_t)n, sizeof(int), CmpInt);
      for (int j = 0; j < n; j++) mark[tcell[coff[b] + j]] = j;
      for (int x = ioff[b]; x < ioff[b + 1]; x++)
        if (icell[x] >= 0) icell[x] = mark[icell[x]];
      for (int j = 0; j < n; j++) mark[tcell[coff[b] + j]] = -1; /* never -(b' + 2) of a later tile */
    } else coff[b + 1] = coff[b] + n;
    if (n > *maxtc) *maxtc = n;
  }
  return PETSCWARP_ASM_OK;
}

int PetscWarpAsmRowNZResidentWarps(size_t fixed, size_t per, size_t smsm, size_t smblk, int regs, int *wpb)
{
  /* registers are allocated per thread in multiples of 8 and per SM sub-partition (4 per SM, 16384 registers each, a
     block's warps spread over the 4): a block of w warps needs ceil(w/4) warps' registers in one sub-partition */
  const int rpt = (regs + 7) / 8 * 8, wsp = regs > 0 ? 16384 / (rpt * PETSCWARP_ROWNZ_LANES) : 16, maxw = 4 * wsp, cap = maxw < 64 ? maxw : 64;
  int       best = 0;
  *wpb           = 1;
  for (int w = 1; w <= PETSCWARP_ROWNZ_MAXWARPS; w++) {
    const size_t b = fixed + (size_t)w * per;
    int          nblk, nw;
    if (b > smblk) break;
    nblk = (int)(smsm / (b + 1024));
    if (nblk > PETSCWARP_ROWNZ_MAXBLOCKS) nblk = PETSCWARP_ROWNZ_MAXBLOCKS;
    if (nblk * w > cap) nblk = cap / w; /* blocks are resident whole */
    nw = nblk * w;
    if (nw > best) best = nw, *wpb = w;
  }
  return best;
}

int PetscWarpAsmRowNZCoefHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef)
{
  int cs;
  if (PwaCheckCall(fe, ph) || ph->cq) return PETSCWARP_ASM_ERR_ARG;
  cs = PwaRowNZStride(fe->dim, ph->kind);
  for (int cell = 0; cell < mesh->ncells; cell++) PwaRowNZCell(ph->kind, fe->dim, fe->ncv, mesh->cv, mesh->X, fe->Dc, ph->coef, ph->kappa, ph->kcell, ph->shift, cell, cs, coef + (size_t)cell * cs);
  return PETSCWARP_ASM_OK;
}

int PetscWarpAsmRowNZHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val)
{
  const PwaRowNZGeo geo = PwaRowNZGeoOf(fe, mesh, ph);
  double           *acc;
  int               cs;
  if (PwaCheckCall(fe, ph) || !fe->Kaff || rn->nel != fe->nb * fe->nc || (rn->ssh != 0 && rn->ssh != 5) || (!coef && (!mesh || ph->cq)) || (rn->coff && coef)) return PETSCWARP_ASM_ERR_ARG;
  if (!rn->ntiles) return PETSCWARP_ASM_OK;
  cs  = PwaRowNZStride(fe->dim, ph->kind);
  acc = (double *)malloc(sizeof(double) * (size_t)(PetscWarpAsmRowNZWarpDoubles(rn, cs) > 0 ? PetscWarpAsmRowNZWarpDoubles(rn, cs) : 1));
  if (!acc) return PETSCWARP_ASM_ERR_MEM;
  for (int b = 0; b < rn->ntiles; b++) {
    const int s0 = rn->soff[b], ns = rn->soff[b + 1] - s0;
    double   *cf = acc + rn->maxslots; /* staged: the tile's cells' factors */
    memset(acc, 0, sizeof(double) * (size_t)ns);
    if (rn->coff)
      for (int j = 0; j < rn->coff[b + 1] - rn->coff[b]; j++) PwaRowNZCell(ph->kind, fe->dim, fe->ncv, mesh->cv, mesh->X, fe->Dc, ph->coef, ph->kappa, ph->kcell, ph->shift, rn->tcell[rn->coff[b] + j], cs, cf + (size_t)j * cs);
    for (int t = 0; t < PETSCWARP_ROWNZ_LANES; t++) PwaRowNZLane(ph->kind, fe->dim, fe->nb, fe->Kaff, ph->lambda, ph->mu, ph->shift, rn, b, t, rn->coff ? cf : coef, &geo, cs, acc);
    if (rn->lgs) { /* patches: row by row */
      const int nl = rn->nlane[b], *lb = rn->lbase + (size_t)b * PETSCWARP_ROWNZ_LANES;
      for (int t = 0; t < nl; t++) memcpy(val + rn->lgs[(size_t)b * PETSCWARP_ROWNZ_LANES + t], acc + lb[t], sizeof(double) * (size_t)((t + 1 < nl ? lb[t + 1] : ns) - lb[t]));
    } else memcpy(val + s0, acc, sizeof(double) * (size_t)ns);
  }
  free(acc);
  return PETSCWARP_ASM_OK;
}
