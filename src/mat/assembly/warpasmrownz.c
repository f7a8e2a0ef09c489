/*
  The rownz strategy of PetscWarpAsm: assembly by row with recomputation ("assemble by row, computing element data as
  needed in local memory", Cecka, Lew and Darve, seeds/000, Table III), atomic-free and element-matrix-free, on the
  affine path (every cell affine: each element matrix is sum_r c_r(cell) R_r). The plan (PetscWarpPlanRowNZ()) is the
  transpose of the element->dof map: per row its incident (cell, local dof) pairs and, per incidence, the positions in
  the row of the cell's columns; the kernels (src/kernels/warpasm_rownz*, warpasmrownzkernels.h) compute the cells'
  affine factors, then each row's entries in a fixed order, writing each value slot once.

  Where rownz cannot serve (the affine path off or not applicable: a cell not affine, a per-point mass coefficient,
  reference matrices beyond the shared-memory budget; a target layout it cannot address; a tile beyond the device's
  shared memory) the plan runs atomic, -info says why, and PetscWarpAsmGetInfo()/PetscWarpAsmView() report it.
  Several ranks assemble with coo, as every strategy does.
*/
#include <petscwarp/private/warpasmimpl.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

#define ROWNZ_LANES PETSCWARP_ROWNZ_LANES

PetscErrorCode PetscWarpRowNZHostDestroy(PetscWarpRowNZHost *rn)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(rn->soff, rn->ioff));
  PetscCall(PetscFree2(rn->lbase, rn->lsh));
  PetscCall(PetscFree2(rn->icell, rn->iloc));
  PetscCall(PetscFree(rn->kpos8));
  PetscCall(PetscFree(rn->kpos16));
  PetscCall(PetscFree(rn->nlane));
  PetscCall(PetscMemzero(rn, sizeof(*rn)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscLogDouble PetscWarpRowNZHostBytes(const PetscWarpRowNZHost *rn)
{
  if (!rn->soff) return 0;
  return (PetscLogDouble)sizeof(int) * (2.0 * (rn->ntiles + 1) + (PetscLogDouble)rn->ntiles * ROWNZ_LANES) + (PetscLogDouble)rn->ntiles * (ROWNZ_LANES + 1) + 5.0 * (PetscLogDouble)rn->ninc + (rn->wide ? 2.0 : 1.0) * (PetscLogDouble)rn->ninc * rn->nel;
}

PetscWarpRowNZ PetscWarpRowNZHostView(const PetscWarpRowNZHost *rn)
{
  PetscWarpRowNZ v;
  v.ntiles   = (int)rn->ntiles;
  v.nel      = (int)rn->nel;
  v.wide     = (int)rn->wide;
  v.ssh      = rn->ssh;
  v.maxslots = (int)rn->maxslots;
  v.soff     = rn->soff;
  v.ioff     = rn->ioff;
  v.nlane    = rn->nlane;
  v.lbase    = rn->lbase;
  v.lsh      = rn->lsh;
  v.icell    = rn->icell;
  v.iloc     = rn->iloc;
  v.kpos8    = rn->kpos8;
  v.kpos16   = rn->kpos16;
  v.ninc     = (int)rn->ninc;
  v.ivert    = NULL; /* device only (PetscWarpAsmRowNZRun_Private()) */
  v.unroll   = 1;
  v.pipe     = 0;
  v.geo      = 0;
  v.p1sigma  = 0.0;
  v.p1detr   = 0.0;
  return v;
}

/* Slot of position k of row r */
static inline PetscInt RowSlot(const PetscInt rowptr[], const int pos2slot[], PetscInt r, PetscInt k)
{
  return pos2slot ? (PetscInt)pos2slot[rowptr[r] + k] : rowptr[r] + k;
}

/* The shape of row r: its first and last slot, and the lanes shift lsh of its local positions (RowPos()) */
static void RowShape(const PetscInt rowptr[], const int pos2slot[], PetscInt r, PetscInt *smin, PetscInt *smax, int *lsh)
{
  PetscInt len = rowptr[r + 1] - rowptr[r], lo = PETSC_INT_MAX, hi = -1, sub = 0;
  for (PetscInt k = 0; k < len; k++) {
    PetscInt sl = RowSlot(rowptr, pos2slot, r, k);
    lo          = PetscMin(lo, sl);
    hi          = PetscMax(hi, sl);
  }
  for (PetscInt k = 0; pos2slot && k < len; k++) sub = PetscMax(sub, (RowSlot(rowptr, pos2slot, r, k) - lo) & 31);
  *smin = lo;
  *smax = hi;
  for (*lsh = 0; ((PetscInt)1 << *lsh) <= sub; (*lsh)++) { }
}

/* The local position of entry k of row r as the kernels store it: the slot is smin + ((pos >> lsh) << ssh) + (pos & (2^lsh
   - 1)); for a CSR target pos = k, for ELL-WARP (ssh 5) pos = (rel / 32) 2^lsh + rel % 32 with rel = slot - smin (pos = k
   for a row in one lane, blocked index or not) */
static inline PetscInt RowPos(const PetscInt rowptr[], const int pos2slot[], PetscInt r, PetscInt k, PetscInt smin, int lsh)
{
  PetscInt rel;
  if (!pos2slot) return k;
  rel = RowSlot(rowptr, pos2slot, r, k) - smin;
  return ((rel >> 5) << lsh) + (rel & 31);
}

PetscErrorCode PetscWarpPlanRowNZ(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt nslots, PetscInt ncells, PetscInt nel, const PetscInt e2d[], const PetscWarpRowNZTiling *tiling, PetscWarpRowNZHost *rn, const char **why)
{
  const int ssh = pos2slot ? 5 : 0;
  PetscInt *cnt, *rptr, *ilist, *order, *key, *smaxr, *sminr, *tfirst, *tstart, *gfirst, *gstart, *where, nact = 0, ntiles = 0, ngroups = 0, maxrow = 0, maxslots = 0, maxpos = 0, bad[3] = {-1, -1, -1};
  int      *shape;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(rn, sizeof(*rn)));
  *why = NULL;
  PetscCheck(nel <= 255, PETSC_COMM_SELF, PETSC_ERR_SUP, "rownz: %" PetscInt_FMT " element dofs exceed 255", nel);
  PetscCheck(pos2slot || nslots == rowptr[nrows], PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "rownz: a CSR target of %" PetscInt_FMT " slots for %" PetscInt_FMT " entries", nslots, rowptr[nrows]);
  for (PetscInt r = 0; r < nrows; r++) maxrow = PetscMax(maxrow, rowptr[r + 1] - rowptr[r]);
  if (maxrow > 65535) {
    *why = "a row has more than 65535 entries";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(USE_64BIT_INDICES)
  PetscCheck((PetscCount)nslots <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "rownz: %" PetscInt_FMT " target slots exceed the kernels' 32-bit slot range", nslots);
#endif
  for (PetscInt x = 0; x < ncells * nel; x++) /* before any allocation: the errors below leak nothing */
    PetscCheck(e2d[x] < nrows && e2d[x] < ncols, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Element map index %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", e2d[x], PetscMin(nrows, ncols));
  /* the transpose of the element map: per row its (cell, local dof) incidences, cells ascending */
  PetscCall(PetscCalloc2(nrows + 1, &cnt, nrows + 1, &rptr));
  for (PetscInt x = 0; x < ncells * nel; x++) {
    PetscInt r = e2d[x];
    if (r >= 0) cnt[r]++;
  }
  for (PetscInt r = 0; r < nrows; r++) rptr[r + 1] = rptr[r] + cnt[r];
  PetscCall(PetscMalloc1(PetscMax(rptr[nrows], 1), &ilist));
  PetscCall(PetscArrayzero(cnt, nrows));
  for (PetscInt x = 0; x < ncells * nel; x++)
    if (e2d[x] >= 0) ilist[rptr[e2d[x]] + cnt[e2d[x]]++] = x; /* x = cell*nel + i */
  /* row shapes (ELL-WARP: rows over L = 2^lsh lanes of their warp) and the rows in slot order */
  PetscCall(PetscMalloc5(nrows, &shape, nrows, &order, nrows, &key, nrows, &smaxr, nrows, &sminr));
  for (PetscInt r = 0; r < nrows; r++) {
    PetscInt lo, hi, len = rowptr[r + 1] - rowptr[r];
    shape[r] = 0;
    if (!len) continue;
    RowShape(rowptr, pos2slot, r, &lo, &hi, &shape[r]);
    maxpos      = PetscMax(maxpos, RowPos(rowptr, pos2slot, r, len - 1, lo, shape[r]));
    maxpos      = PetscMax(maxpos, ((hi - lo) >> 5 << shape[r]) + (shape[r] ? ((PetscInt)1 << shape[r]) - 1 : 0));
    order[nact] = r;
    smaxr[r]    = hi;
    sminr[r]    = lo;
    key[nact++] = lo;
  }
  if (maxpos >= PETSCWARP_ROWNZ_SKIP16) *why = "a row's local positions exceed 16 bits";
  if (*why) {
    PetscCall(PetscFree5(shape, order, key, smaxr, sminr));
    PetscCall(PetscFree(ilist));
    PetscCall(PetscFree2(cnt, rptr));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* groups: the smallest units a tile holds; a CSR row, or the rows (at most 32) of a 32-aligned slot range of a mapped
     target (an ELL-WARP warp, or the overlapping ranges of a row split over several): first row (index into order[], or
     the CSR row) and first slot of each; gstart[0] = 0, gstart[ngroups] = nslots */
  PetscCall(PetscMalloc2(nrows + 2, &gfirst, nrows + 2, &gstart));
  if (pos2slot) {
    PetscInt end = -1, n = 0;
    PetscCall(PetscSortIntWithArray(nact, key, order));
    for (PetscInt q = 0; q < nact; q++) {
      PetscInt r = order[q], lo = key[q] / 32 * 32, hi = (smaxr[r] / 32 + 1) * 32;
      if (q == 0 || lo >= end) {
        gfirst[ngroups] = q;
        gstart[ngroups] = ngroups ? lo : 0;
        ngroups++;
        n = 0;
      }
      if (++n > ROWNZ_LANES) {
        *why = "more than 32 rows share a 32-aligned slot range of the target";
        break;
      }
      end = PetscMax(end, hi);
    }
    if (!nact && nslots) { /* no row: one tile zeroes the slots */
      gfirst[0] = 0;
      gstart[0] = 0;
      ngroups   = 1;
    }
    gfirst[ngroups] = nact;
  } else {
    for (PetscInt r = 0; r < nrows; r++) {
      gfirst[r] = r;
      gstart[r] = rowptr[r];
    }
    ngroups         = nrows;
    gfirst[ngroups] = nrows;
  }
  gstart[ngroups] = nslots;
  if (*why) {
    PetscCall(PetscFree2(gfirst, gstart));
    PetscCall(PetscFree5(shape, order, key, smaxr, sminr));
    PetscCall(PetscFree(ilist));
    PetscCall(PetscFree2(cnt, rptr));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* tiles: consecutive groups, at most 32 rows and (unless one group) at most tileslots slots; the cap given, or the
     candidate whose predicted resident rows per SM (PetscWarpAsmRowNZResidentWarps() times the mean served rows per
     tile) is largest, the largest cap among equals */
  PetscCall(PetscMalloc2(nrows + 2, &tfirst, nrows + 2, &tstart));
  {
    const PetscInt cand[] = {4096, 2048, 1024, 512, 256}, ncand = tiling->tileslots > 0 ? 1 : (PetscInt)PETSC_STATIC_ARRAY_LENGTH(cand);
    const size_t   smsm = tiling->smsm ? tiling->smsm : PETSCWARP_ROWNZ_H100_SMSM, smblk = tiling->smblk ? tiling->smblk : PETSCWARP_ROWNZ_H100_SMBLK;
    PetscInt       nserved = 0, best = -1;
    PetscReal      bestlanes = -1;
    for (PetscInt r = 0; r < nrows; r++)
      if (cnt[r] && rowptr[r + 1] > rowptr[r]) nserved++;
    for (PetscInt c = 0; c < ncand; c++) {
      const PetscInt cap = tiling->tileslots > 0 ? tiling->tileslots : cand[c];
      PetscInt       nt = 0, ms = 0;
      PetscReal      lanes;
      int            wpb, warps;
      for (PetscInt g = 0; g < ngroups;) {
        PetscInt g1 = g + 1;
        while (g1 < ngroups && gfirst[g1 + 1] - gfirst[g] <= ROWNZ_LANES && gstart[g1 + 1] - gstart[g] <= cap) g1++;
        ms = PetscMax(ms, gstart[g1] - gstart[g]);
        nt++;
        g = g1;
      }
      warps = PetscWarpAsmRowNZResidentWarps(tiling->fixed, sizeof(double) * (size_t)PetscMax(ms, 1), smsm, smblk, tiling->regs, &wpb);
      lanes = nt ? (PetscReal)warps * (PetscReal)nserved / (PetscReal)nt : 0;
      if (lanes > bestlanes) {
        best       = cap;
        bestlanes  = lanes;
        rn->warps  = warps;
        rn->lanes  = lanes;
        rn->ntiles = nt;
      }
    }
    rn->tileslots = best;
    for (PetscInt g = 0; g < ngroups;) {
      PetscInt g1 = g + 1;
      while (g1 < ngroups && gfirst[g1 + 1] - gfirst[g] <= ROWNZ_LANES && gstart[g1 + 1] - gstart[g] <= best) g1++;
      tfirst[ntiles] = gfirst[g];
      tstart[ntiles] = gstart[g];
      ntiles++;
      g = g1;
    }
    tfirst[ntiles] = gfirst[ngroups];
    tstart[ntiles] = nslots;
  }
  PetscCall(PetscFree2(gfirst, gstart));
  /* per tile: lanes and the padded incidence lists */
  PetscCheck(rn->ntiles == ntiles, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rownz: tile count");
  rn->nel    = nel;
  rn->ssh    = ssh;
  rn->wide   = (PetscBool)(maxpos >= PETSCWARP_ROWNZ_SKIP8);
  rn->maxrow = maxrow;
  PetscCall(PetscMalloc2(ntiles + 1, &rn->soff, ntiles + 1, &rn->ioff));
  PetscCall(PetscMalloc2(ntiles * ROWNZ_LANES, &rn->lbase, ntiles * ROWNZ_LANES, &rn->lsh));
  PetscCall(PetscMalloc1(ntiles, &rn->nlane));
  rn->ioff[0] = 0;
  for (PetscInt b = 0; b < ntiles; b++) {
    PetscInt nm = 0, s0 = tstart[b], nl = PetscMax(tfirst[b + 1] - tfirst[b], 1);
    rn->soff[b] = (int)s0;
    maxslots    = PetscMax(maxslots, tstart[b + 1] - s0);
    for (PetscInt q = tfirst[b]; q < tfirst[b + 1]; q++) {
      PetscInt r = pos2slot ? order[q] : q;
      nm         = PetscMax(nm, cnt[r]);
    }
    PetscCheck((PetscCount)rn->ioff[b] + (PetscCount)nm * nl <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "rownz: incidences exceed the plan's integer range");
    rn->nlane[b]    = (unsigned char)nl;
    rn->ioff[b + 1] = rn->ioff[b] + (int)(nm * nl);
    for (PetscInt t = 0; t < ROWNZ_LANES; t++) {
      PetscInt q                     = tfirst[b] + t, r;
      rn->lbase[b * ROWNZ_LANES + t] = -1;
      rn->lsh[b * ROWNZ_LANES + t]   = 0;
      if (q >= tfirst[b + 1]) continue;
      r = pos2slot ? order[q] : q;
      if (!cnt[r]) continue; /* no incidence: its slots are zeroed by the tile */
      rn->lbase[b * ROWNZ_LANES + t] = (int)(sminr[r] - s0);
      rn->lsh[b * ROWNZ_LANES + t]   = (unsigned char)shape[r];
      rn->nrows++;
    }
  }
  rn->soff[ntiles] = (int)nslots;
  rn->maxslots     = maxslots;
  rn->ninc         = rn->ioff[ntiles];
  PetscCall(PetscMalloc2(PetscMax(rn->ninc, 1), &rn->icell, PetscMax(rn->ninc, 1), &rn->iloc));
  if (rn->wide) PetscCall(PetscMalloc1(PetscMax(rn->ninc * nel, 1), &rn->kpos16));
  else PetscCall(PetscMalloc1(PetscMax(rn->ninc * nel, 1), &rn->kpos8));
  PetscCall(PetscMalloc1(PetscMax(ncols, 1), &where));
  for (PetscInt c = 0; c < ncols; c++) where[c] = -1;
  for (PetscInt b = 0; b < ntiles; b++)
    for (PetscInt t = 0; t < rn->nlane[b]; t++) {
      PetscInt q = tfirst[b] + t, r = -1, n = 0, nl = rn->nlane[b], nm = (rn->ioff[b + 1] - rn->ioff[b]) / nl;
      if (q < tfirst[b + 1]) r = pos2slot ? order[q] : q;
      if (r >= 0) {
        n = cnt[r];
        for (PetscInt p = rowptr[r]; p < rowptr[r + 1]; p++) where[colidx[p]] = RowPos(rowptr, pos2slot, r, p - rowptr[r], sminr[r], shape[r]);
      }
      for (PetscInt m = 0; m < nm; m++) {
        PetscCount x = rn->ioff[b] + m * nl + t, kb = (rn->ioff[b] + m * nl) * (PetscCount)nel + t;
        PetscInt   ce = m < n ? ilist[rptr[r] + m] : -1, cell = ce >= 0 ? ce / nel : -1;
        rn->icell[x] = (int)cell;
        rn->iloc[x]  = (unsigned char)(ce >= 0 ? ce - cell * nel : 0);
        for (PetscInt j = 0; j < nel; j++) {
          PetscInt col = cell >= 0 ? e2d[cell * nel + j] : -1, k;
          if (col >= 0 && where[col] < 0 && bad[0] < 0) { /* reported after the loops, once everything is freed */
            bad[0] = r;
            bad[1] = col;
            bad[2] = cell;
          }
          k = col >= 0 && where[col] >= 0 ? where[col] : (rn->wide ? PETSCWARP_ROWNZ_SKIP16 : PETSCWARP_ROWNZ_SKIP8);
          if (rn->wide) rn->kpos16[kb + j * nl] = (unsigned short)k;
          else rn->kpos8[kb + j * nl] = (unsigned char)k;
        }
      }
      if (r >= 0)
        for (PetscInt p = rowptr[r]; p < rowptr[r + 1]; p++) where[colidx[p]] = -1;
    }
  PetscCall(PetscFree(where));
  PetscCall(PetscFree2(tfirst, tstart));
  PetscCall(PetscFree5(shape, order, key, smaxr, sminr));
  PetscCall(PetscFree(ilist));
  PetscCall(PetscFree2(cnt, rptr));
  if (bad[0] >= 0) {
    PetscCall(PetscWarpRowNZHostDestroy(rn));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Element entry (%" PetscInt_FMT ", %" PetscInt_FMT ") of cell %" PetscInt_FMT " is not in the matrix's nonzero pattern", bad[0], bad[1], bad[2]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The occupancy model's inputs (PetscWarpPlanRowNZ()). Registers per thread of RowNZ<DIM, KIND, NB, FUSED> (ptxas -v,
   sm_90, CUDA 13.0, -fmad=false): the plan is a function of the pattern and these constants, the same on the host and
   the device; the launch uses the kernel's own count. */
static int RowNZRegs(int dim, int kind, int nb, PetscBool fused, int pipe, int geo)
{
  /* ptxas (CUDA 13.0, sm_90) for the kernels specialised for nb (warpasm_rownz.cu; fused 2D Laplace rechecked
     2026-11-26 after the 16-byte gathers and the hoisted loads: 56 for nb 3, 64 for nb 4-10); the generic kernel (16-bit positions,
     other nb) uses 54/80 (LAPLACE 2D/3D) and 56/72 (ELASTICITY), fused or not. Fused: the cell's vertex coordinates
     and its factor live in registers too (3D Q1 Laplace 48 -> 128) */
  if (pipe > 0 && nb == dim + 1) { /* P1 lanes loading ahead (RowNZLanePipe), ptxas 2026-11-26 (eighth session; fused Laplacians with -mat_warp_rownz_simplex_geometry 1); [dim-2][fused][pipe-1] */
    static const int lap[2][2][2] =
      {
        {{45, 64}, {64, 79}  },
        {{56, 72}, {122, 162}}
    },
                     ela[2][2][2] = {{{69, 92}, {72, 90}}, {{128, 147}, {116, 160}}};
    static const int closed[2][2] = {
      {70,  90 },
      {120, 156}
    }; /* fused Laplacians in closed form (geo 2), [dim-2][pipe-1], ptxas 2026-11-27 */
    if (kind == PETSCWARP_PHYS_LAPLACE && fused && geo == 2) return closed[dim - 2][pipe - 1];
    return kind == PETSCWARP_PHYS_LAPLACE ? lap[dim - 2][fused ? 1 : 0][pipe - 1] : ela[dim - 2][fused ? 1 : 0][pipe - 1];
  }
  if (!fused) {
    if (kind == PETSCWARP_PHYS_LAPLACE) return dim == 2 ? 48 : nb <= 8 ? 48 : nb <= 10 ? 56 : nb <= 20 ? 64 : 72;
    return dim == 2 ? 72 : nb <= 4 ? 120 : nb <= 8 ? 150 : 112;
  }
  if (kind == PETSCWARP_PHYS_LAPLACE) return dim == 2 ? (nb <= 4 ? 56 : 64) : nb <= 4 ? 80 : nb <= 8 ? 128 : nb <= 10 ? 96 : 128;
  return dim == 2 ? 72 : nb <= 4 ? 96 : nb <= 8 ? 160 : nb <= 10 ? 112 : nb <= 20 ? 88 : 128;
}

/* The gate (-mat_warp_rownz_min_lanes r > 0): rownz runs atomic where the plan predicts fewer than r rows resident per
   SM (warps per SM x mean rows per tile: the rows whose incidences are in flight at once). Off by default. History: with
   the first tiles (<= 4096 slots, one ELL-WARP warp per tile) rownz lost to atomic on Q2 hexahedra and P2 tetrahedra
   (H100, 2026-11-23: q2lap 0.901 vs 0.574 ms, p2tet 1.300 vs 0.895) at 192-320 predicted rows and won at >= 1024, so
   a default gate of 512 was set for CSR targets. With the tile caps of the occupancy model (RowNZTileCap) the H100 run
   of 2026-11-23 (fourth session; `gpu_run.sh rownz2`, gate off) has rownz ahead of atomic everywhere it was measured: q2lap into
   aijcusparse 0.455 vs 0.576 ms at 353 predicted rows, into ellwarp 0.633 vs 1.371 at 232; p2tet 0.722 vs 0.894 at
   746, into ellwarp 0.751 vs 1.086 at 711; the default gate then sent q2lap into CSR to atomic (0.577 ms, slower).
   No measured case is below the break-even, so no default threshold is kept. */

/* Whether the rows compute their cells' factors themselves (-mat_warp_rownz_fused). Automatic: on P1 triangles (nb ==
   ncv == 3), where a factor costs a few dozen flops and its array is most of the bytes (P1 triangles read 32 bytes of
   factor against 3 bytes of positions per incidence). H100, 2026-11-23 (fifth session, `gpu_run.sh fused`): P1
   triangles (742 k rows) 0.122 ms fused against 0.146 with the factor array (previous session); P3 triangles 0.180
   against 0.176 (into ellwarp 0.149 / 0.144), P2 tetrahedra 0.601 against 0.540 (previous session), Q1 hexahedra 0.230
   against 0.178: a factor recomputed by each of a cell's rows costs more than it saves there. P1 tetrahedra (652 k
   rows, 4.1 M cells; H100, 2026-11-26, `gpu_run.sh p1tet3`, one run): into aijcusparse fused 0.820 ms against 0.882 with
   the factor array (atomic 0.842), into ellwarp fused 1.214 against 0.897 (atomic 0.948): fused into CSR targets only
   then (the fused 3D kernel holds 80 registers against 40; why ELL-WARP's tiles lost more was not profiled). The fused
   triangles' lanes gather 16-byte coordinates and read each incidence's vertices from the plan (ivert; H100,
   2026-11-26 seventh session, `gpu_run.sh ivert26`): P1 triangles 0.097-0.099 ms into aijcusparse, 0.092 into
   ellwarp, the factor array 0.143.
   With the rows in closed form (-mat_warp_rownz_simplex_geometry 2; H100, 2026-11-27, `gpu_run.sh ellp1tet27`) P1
   tetrahedra into ellwarp take 0.607 ms fused (0.556 prefetching 2) against 0.726 with the factor array: fused into
   ELL-WARP too where the closed form applies (RowNZClosedCase()) */
static PetscBool RowNZClosedCase(PetscWarpAsm, double *, double *);

PetscBool PetscWarpAsmRowNZFused_Private(PetscWarpAsm a)
{
  double sg, dr;
  if (a->rnfused != PETSC_BOOL3_UNKNOWN) return PetscBool3ToBool(a->rnfused);
  if (a->ncv == a->dim + 1 && a->nb == a->dim + 1) return a->dim == 2 || !a->plan.ell || RowNZClosedCase(a, &sg, &dr) ? PETSC_TRUE : PETSC_FALSE; /* P1 simplices */
  return PETSC_FALSE;
}

/* Whether fused rows take the closed form (RowNZGeo() 2, unless the plan's positions are 16-bit), and its constants:
   the Laplacian with a scalar coefficient on P1 simplices whose basis is the coordinate map's
   (PetscWarpAsmRowNZSimplexConstants()), the specialised kernels (-mat_warp_rownz_unroll), -mat_warp_rownz_simplex_geometry
   automatic or 2 */
static PetscBool RowNZClosedCase(PetscWarpAsm a, double *sigma, double *detr)
{
  PetscWarpFE fe;

  *sigma = *detr = 0.0;
  if (a->ncv != a->dim + 1 || a->nb != a->dim + 1 || a->physics != PETSCWARP_PHYSICS_LAPLACE || a->coef == PETSCWARP_COEF_TENSOR || !(a->rngeo < 0 || a->rngeo == 2) || !a->rnunroll) return PETSC_FALSE;
  memset(&fe, 0, sizeof(fe));
  fe.dim = (int)a->dim, fe.nb = (int)a->nb, fe.nc = (int)a->nc, fe.nq = (int)a->nq, fe.ncv = (int)a->ncv;
  fe.w = a->w, fe.D = a->D, fe.Dc = a->Dc;
  return PetscWarpAsmRowNZSimplexConstants(&fe, sigma, detr) ? PETSC_FALSE : PETSC_TRUE;
}

/* How the plan's rows get their entries, for PetscWarpAsmView(): from the factor array, from factors they compute
   (fused), or in closed form (fused, RowNZGeo() 2) */
const char *PetscWarpAsmRowNZArithmetic_Private(PetscWarpAsm a)
{
  double sg, dr;
  if (!PetscWarpAsmRowNZFused_Private(a)) return "factor array";
  return RowNZClosedCase(a, &sg, &dr) && !a->plan.rn.wide ? "fused rows in closed form" : "fused factors";
}

/* The incidences a P1 lane loads ahead of its arithmetic (-mat_warp_rownz_prefetch, RowNZLanePipe in
   warpasm_rownz.cu); 0 where the kernels do not prefetch (other elements, the generic kernel). H100,
   2026-11-26 (eighth session, `gpu_run.sh pipe26`), ms per assembly, prefetch 0 / 1 / 2:
   - P1 tetrahedra (652 k rows) into aijcusparse, fused 0.819 / 0.731 / 0.720, factor array 0.881 / 0.707 / 0.703;
     into ellwarp fused 1.191 / 0.778 / 0.812, factor array 0.895 / 0.726 / 0.859;
   - P1 triangles (742 k rows) into aijcusparse, fused 0.097 / 0.096 / 0.111, factor array 0.141 / 0.139 / 0.139; into
     ellwarp fused 0.093 / 0.091 / 0.110.
   With the fused Laplacian's factor from the metric's upper triangle (-mat_warp_rownz_simplex_geometry 1, automatic;
   `gpu_run.sh geo26b`, one run): P1 tetrahedra into aijcusparse 0.688 ms against 0.731 with the generic arithmetic and
   0.816 without prefetching (coo 1.678). With the rows in closed form (-mat_warp_rownz_simplex_geometry 2; H100,
   2026-11-27, `gpu_run.sh closed27` and `ellp1tet27`), prefetch 1 / 2: P1 tetrahedra into aijcusparse 0.528 / 0.519
   and 0.536 / 0.527 (two runs), into ellwarp 0.607 / 0.556; P1 triangles into aijcusparse 0.087 / 0.094, into ellwarp
   0.089 / 0.093. Automatic: 2 for fused tetrahedra in closed form, else 1 */
static int RowNZPipe(PetscWarpAsm a)
{
  double    sg, dr;
  PetscBool closed;
  if (a->nb != a->dim + 1 || !a->rnunroll) return 0;
  closed = PetscWarpAsmRowNZFused_Private(a) && RowNZClosedCase(a, &sg, &dr) ? PETSC_TRUE : PETSC_FALSE;
  if (a->rnpipe >= 0) return a->rnpipe == 0 && closed ? 1 : (int)a->rnpipe; /* the closed form is in the prefetching lanes only: 0 runs as 1 */
  return a->dim == 3 && closed ? 2 : 1;
}

/* The fused P1 Laplacian lanes' arithmetic (-mat_warp_rownz_simplex_geometry, PetscWarpRowNZ.geo) for a plan of
   positions wide, and geo 2's constants. 2 (the closed form of PwaRowNZLapP1Row, host twin and device alike) where the
   rows compute their cells' entries (fused), on the specialised kernels (8-bit positions, -mat_warp_rownz_unroll), for
   the Laplacian on P1 simplices whose basis is the coordinate map's (PetscWarpAsmRowNZSimplexConstants()); else 1 (the
   device's prefetching lanes; the same values as 0). Automatic: 2 where it applies. H100, 2026-11-27 (ninth session,
   `gpu_run.sh closed27`, CLOSED_BENCH_ONLY=1), ms per assembly, geo 1 (the previous automatic) / 2 at prefetch 1 / 2 at
   prefetch 2: P1 tetrahedra (652 k rows) into aijcusparse 0.687 / 0.528 / 0.519 (coo 1.673); P1 triangles (742 k rows)
   into aijcusparse 0.096 / 0.087 / 0.094 (coo 0.289), into ellwarp 0.090 / 0.089 / 0.093. Its first version lost
   (0.741 and 0.122 ms): the compiler turned the pick of c_i into a load from a 96-byte local array (PwaSel) */
static int RowNZGeo(PetscWarpAsm a, PetscBool wide, double *sigma, double *detr)
{
  const int g = a->rngeo >= 0 ? (int)a->rngeo : 2;

  *sigma = *detr = 0.0; /* RowNZClosedCase() leaves them 0 where it answers false */
  if (g != 2) return g;
  return PetscWarpAsmRowNZFused_Private(a) && !wide && RowNZClosedCase(a, sigma, detr) ? 2 : 1; /* the case checks physics and coefficient of a, from which ph is described */
}

/* Whether the device plan stores each incidence's vertices (PetscWarpRowNZ.ivert): where the kernel specialised for
   fused simplices reads them (RowNZLaneNB's HOIST: P1-P3 triangles; RowNZLanePipe: P1 prefetching; 8-bit positions,
   -mat_warp_rownz_unroll) */
static PetscBool RowNZIncVerts(PetscWarpAsm a, PetscBool wide, PetscCount ninc)
{
  if (!PetscWarpAsmRowNZFused_Private(a) || a->ncv != a->dim + 1 || !a->rnunroll || wide || ninc <= 0) return PETSC_FALSE;
  return (PetscBool)((a->dim == 2 && (a->nb == 3 || a->nb == 6 || a->nb == 10)) || RowNZPipe(a) > 0);
}

/* Whether the affine path serves every cell for rownz; else the reason */
static PetscErrorCode RowNZGate(PetscWarpAsm a, const PetscWarpPhys *ph, const char **why)
{
  PetscFunctionBegin;
  *why = NULL;
  if (!a->affine) *why = "the affine path is off (-mat_warp_assembly_affine 0)";
  else if (ph->cq) *why = "the physics has a per-point mass coefficient (no affine path)";
  else if (!PetscWarpAsmAffineRefsFit_Private(a, ph->kind)) *why = "the reference matrices exceed the shared-memory budget (32 KB)";
  else if (a->ncells) {
    PetscCall(PetscWarpAsmAffineCells_Private(a));
    if (a->naffine < a->ncells) *why = "some cells are not affine";
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmRowNZPlan_Private(PetscWarpAsm a, const MatWarpTarget *t, const PetscWarpPhys *ph, PetscBool device, PetscWarpAsmPlan *p)
{
  const char *why;

  PetscFunctionBegin;
  PetscCall(RowNZGate(a, ph, &why));
  if (!why) {
    PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanRowNZ, 0, 0, 0, 0));
    PetscWarpRowNZTiling tl = {0};
    PetscWarpFE          fe = {0};
    fe.dim                  = (int)a->dim;
    fe.nb                   = (int)a->nb;
    tl.tileslots            = a->rntileslots;
    tl.fixed                = PetscWarpAsmRowNZTileBytes(&fe, ph->kind, 0);
    double sg, dr;
    tl.regs = RowNZRegs((int)a->dim, ph->kind, (int)a->nb, PetscWarpAsmRowNZFused_Private(a), RowNZPipe(a), RowNZGeo(a, PETSC_FALSE, &sg, &dr)); /* 8-bit positions assumed, as the table does */
    PetscCall(PetscWarpPlanRowNZ(t->nrows, t->ncols, t->rowptr, t->colidx, t->pos2slot, t->nslots, a->ncells, a->nel, a->e2d, &tl, &p->rn, &why));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanRowNZ, 0, 0, 0, 0));
    if (!why && a->rnminlanes > 0 && p->rn.lanes < a->rnminlanes) {
      PetscCall(PetscInfo(a, "rownz: %.4g rows predicted resident per SM (%d warps, tiles of at most %" PetscInt_FMT " slots), fewer than %g (-mat_warp_rownz_min_lanes)\n", (double)p->rn.lanes, p->rn.warps, p->rn.tileslots, (double)a->rnminlanes));
      why = "predicted slower than atomic (too few rows resident per SM: -mat_warp_rownz_min_lanes)";
    }
  }
#if PetscDefined(HAVE_CUDA)
  if (!why && device) {
    PetscWarpFE fe = {0};
    size_t      need, maxsh;
    fe.dim = (int)a->dim;
    fe.nb  = (int)a->nb;
    need   = PetscWarpAsmRowNZTileBytes(&fe, ph->kind, (int)p->rn.maxslots);
    PetscCallCUDA((cudaError_t)PetscWarpAsmMaxSharedCUDA(&maxsh));
    if (need > maxsh) {
      PetscCall(PetscInfo(a, "rownz: a tile of %" PetscInt_FMT " slots needs %zu bytes of shared memory, the device allows %zu\n", p->rn.maxslots, need, maxsh));
      why = "a tile of rows exceeds the device's shared memory";
    }
  }
#endif
  if (why) {
    PetscCall(PetscInfo(a, "rownz: %s%s: assembling with atomic\n", why, a->naffine >= 0 && a->naffine < a->ncells ? " (mixed or non-affine mesh)" : ""));
    PetscCall(PetscWarpRowNZHostDestroy(&p->rn));
    p->fallback = why;
    p->strategy = PETSCWARP_ASM_ATOMIC;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  p->bytes = PetscWarpRowNZHostBytes(&p->rn) + (device && RowNZIncVerts(a, p->rn.wide, p->rn.ninc) ? sizeof(int) * (PetscLogDouble)a->ncv * (PetscLogDouble)p->rn.ninc : 0.0) /* each incidence's vertices */ +
             (PetscWarpAsmRowNZFused_Private(a) ? 0.0 : sizeof(double) * (PetscLogDouble)a->ncells * PetscWarpAsmRowNZCoefStride((int)a->dim, ph->kind)); /* the factor array, where the rows do not compute the factors */
  PetscCall(PetscInfo(a, "rownz: %" PetscInt_FMT " tiles (%s slots, rows of at most %" PetscInt_FMT " entries: %s positions), %" PetscInt_FMT " rows served, %.3g incidences per row (padding included), at most %" PetscInt_FMT " slots per tile (cap %" PetscInt_FMT "): predicted %d warps, %.4g rows resident per SM; %s\n",
                      p->rn.ntiles, p->rn.ssh ? "ELL-WARP" : "CSR", p->rn.maxrow, p->rn.wide ? "16-bit" : "8-bit", p->rn.nrows, p->rn.nrows ? (double)p->rn.ninc / (double)p->rn.nrows : 0.0, p->rn.maxslots, p->rn.tileslots, p->rn.warps, (double)p->rn.lanes, PetscWarpAsmRowNZFused_Private(a) ? "the rows compute their cells' factors (fused)" : "the cells' factors computed first"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmRowNZUpload_Private(PetscWarpAsm a, PetscWarpAsmPlan *p)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  {
    const PetscWarpRowNZHost *h  = &p->rn;
    size_t                    nt = (size_t)h->ntiles, ni = (size_t)h->ninc;
    p->d_rn      = PetscWarpRowNZHostView(h); /* the sizes; every array pointer is set by its upload below (ivert by the first assembly) */
    p->d_rn.soff = p->d_rn.ioff = p->d_rn.lbase = p->d_rn.icell = NULL;
    p->d_rn.nlane = p->d_rn.lsh = p->d_rn.iloc = p->d_rn.kpos8 = NULL;
    p->d_rn.kpos16                                             = NULL; /* so that a failed upload leaves no host pointer for PetscWarpAsmRowNZReset_Private() to cudaFree() */
    PetscCall(PetscWarpAsmUpload_Private(h->soff, nt + 1, sizeof(int), (void **)&p->d_rn.soff));
    PetscCall(PetscWarpAsmUpload_Private(h->ioff, nt + 1, sizeof(int), (void **)&p->d_rn.ioff));
    PetscCall(PetscWarpAsmUpload_Private(h->nlane, nt, 1, (void **)&p->d_rn.nlane));
    PetscCall(PetscWarpAsmUpload_Private(h->lbase, nt * ROWNZ_LANES, sizeof(int), (void **)&p->d_rn.lbase));
    PetscCall(PetscWarpAsmUpload_Private(h->lsh, nt * ROWNZ_LANES, 1, (void **)&p->d_rn.lsh));
    PetscCall(PetscWarpAsmUpload_Private(h->icell, ni, sizeof(int), (void **)&p->d_rn.icell));
    PetscCall(PetscWarpAsmUpload_Private(h->iloc, ni, 1, (void **)&p->d_rn.iloc));
    if (h->wide) PetscCall(PetscWarpAsmUpload_Private(h->kpos16, ni * (size_t)h->nel, sizeof(unsigned short), (void **)&p->d_rn.kpos16));
    else PetscCall(PetscWarpAsmUpload_Private(h->kpos8, ni * (size_t)h->nel, 1, (void **)&p->d_rn.kpos8));
    (void)a; /* the factor array (when the rows do not compute the factors) is allocated by the first assembly */
  }
#else
  SETERRQ(PetscObjectComm((PetscObject)a), PETSC_ERR_SUP_SYS, "PETSc has no CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmRowNZReset_Private(PetscWarpAsmPlan *p)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpRowNZHostDestroy(&p->rn));
  PetscCall(PetscFree(p->coef));
#if PetscDefined(HAVE_CUDA)
  {
    const void *d[11] = {p->d_rn.soff, p->d_rn.ioff, p->d_rn.nlane, p->d_rn.lbase, p->d_rn.lsh, p->d_rn.icell, p->d_rn.iloc, p->d_rn.kpos8, p->d_rn.kpos16, p->d_rn.ivert, p->d_coef};
    for (int k = 0; k < 11; k++)
      if (d[k]) PetscCallCUDA(cudaFree((void *)d[k]));
  }
#endif
  PetscCall(PetscMemzero(&p->d_rn, sizeof(p->d_rn)));
  p->d_coef = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmRowNZRun_Private(PetscWarpAsm a, Mat A, MatWarpTarget *t, PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph)
{
  PetscWarpAsmPlan *p     = &a->plan;
  const PetscBool   fused = PetscWarpAsmRowNZFused_Private(a);
  const size_t      ncoef = (size_t)PetscMax(a->ncells * PetscWarpAsmRowNZCoefStride((int)a->dim, ph->kind), 1);

  PetscFunctionBegin;
  PetscCheck(!ph->cq, PetscObjectComm((PetscObject)a), PETSC_ERR_ARG_WRONGSTATE, "The rownz plan was built without a per-point mass coefficient; reassembling with one needs a new plan (PetscWarpAsmSetStrategy())");
  PetscCall(PetscWarpAsmAffineRefs_Private(a, p->device, ph->kind, &fe->Kaff));
  a->lastaffine = a->ncells;
  if (!p->device) {
    PetscWarpRowNZ rn = PetscWarpRowNZHostView(&p->rn);
    rn.unroll         = (int)a->rnunroll; /* the host twin computes what the device's kernel would */
    rn.geo            = RowNZGeo(a, (PetscBool)rn.wide, &rn.p1sigma, &rn.p1detr);
    if (!fused) {
      if (!p->coef) PetscCall(PetscMalloc1(ncoef, &p->coef)); /* the factor array, at the first assembly that reads it */
      PetscCall(PetscLogEventBegin(PETSCWARPASM_Elem, A, 0, 0, 0));
      PetscCheck(PetscWarpAsmRowNZCoefHost(fe, mesh, ph, p->coef) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Host rownz factors failed");
      PetscCall(PetscLogEventEnd(PETSCWARPASM_Elem, A, 0, 0, 0));
    }
    PetscCall(PetscLogEventBegin(PETSCWARPASM_Reduce, A, 0, 0, 0));
    PetscCheck(PetscWarpAsmRowNZHost(fe, mesh, ph, &rn, fused ? NULL : p->coef, t->val) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host rownz assembly failed");
    PetscCall(PetscLogEventEnd(PETSCWARPASM_Reduce, A, 0, 0, 0));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (!fused) {
      if (!p->d_coef) PetscCallCUDA(cudaMalloc((void **)&p->d_coef, sizeof(double) * ncoef));
      PetscCall(PetscLogEventBegin(PETSCWARPASM_Elem, A, 0, 0, 0));
      PetscCallCUDA((cudaError_t)PetscWarpAsmRowNZCoefCUDA(fe, mesh, ph, p->d_coef, st));
      PetscCall(PetscLogEventEnd(PETSCWARPASM_Elem, A, 0, 0, 0));
    }
    if (RowNZIncVerts(a, (PetscBool)p->d_rn.wide, p->d_rn.ninc) && !p->d_rn.ivert) { /* triangles: each incidence's vertices, once per plan (a plan cost, logged as its upload) */
      int        *iv = NULL;
      cudaError_t e;
      PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanUpload, A, 0, 0, 0));
      PetscCallCUDA(cudaMalloc((void **)&iv, sizeof(int) * (size_t)a->ncv * (size_t)p->d_rn.ninc));
      if ((e = (cudaError_t)PetscWarpAsmRowNZIncVertsCUDA(&p->d_rn, (int)a->ncv, mesh->cv, iv, st)) != cudaSuccess) PetscCallCUDA(cudaFree(iv)); /* no half-built list left for the next assembly */
      PetscCallCUDA(e);
      p->d_rn.ivert = iv;
      PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanUpload, A, 0, 0, 0));
    }
    PetscCall(PetscLogEventBegin(PETSCWARPASM_Reduce, A, 0, 0, 0));
    p->d_rn.unroll = (int)a->rnunroll;
    p->d_rn.pipe   = RowNZPipe(a);
    p->d_rn.geo    = RowNZGeo(a, (PetscBool)p->d_rn.wide, &p->d_rn.p1sigma, &p->d_rn.p1detr);
    PetscCallCUDA((cudaError_t)PetscWarpAsmRowNZCUDA(fe, mesh, ph, &p->d_rn, fused ? NULL : p->d_coef, t->val, st));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_Reduce, A, 0, 0, 0));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
