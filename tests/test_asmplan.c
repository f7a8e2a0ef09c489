static char help[] = "Assembly plans (src/mat/assembly/warpasmplan.c) against brute force: CSR pattern, slots, element coloring, packed\n"
                     "reduction arrays and the shared-memory assembly by non-zero (partition, element sets, scatter and reduction arrays),\n"
                     "interpreted on the host; the documented errors. Options:\n"
                     "  -seed <s>          random seed (default: from the clock; printed)\n"
                     "  -bench             time the plans on a 3D Q1 hexahedral mesh instead of the tests\n"
                     "  -bench_n <n>       n^3 cells (default 80: 531441 rows)\n"
                     "  -bench_order <k>   Lagrange order 1 or 2 (default 1)\n"
                     "  -bench_nc <nc>     components (default 1)\n"
                     "  -bench_maxcells <m> cells per sharednz block (default 320)\n"
                     "  -bench_bs <bs>     threads per block (default 256)\n"
                     "  -bench_tpb <t>     targets per globalnz block (default 1024)\n"
                     "  -bench_metis <0,1> also time the METIS partition (default 1)\n"
                     "  -bench_check       also interpret the packed arrays of the benchmark (slow)\n"
                     "  -bench_hash        also print hashes (FNV-1a) of the benchmark's plan arrays (bitwise comparisons of plans)\n"
                     "  -device_plans      also build every reduction plan on the device and compare it with the host's, bitwise\n"
                     "                     (with -mat_ellwarp_backend cuda: skipped without a device); with -bench, time it\n";

#include <petscsys.h>
#include <petsctime.h>
#include <time.h>
#include <string.h>
#include <petscwarp/private/warpasmplan.h>
#include "testutil.h" /* EXPECT_CODE() */

/* ------------------------------------------------ random numbers (splitmix64) ------------------------------------------------ */
typedef struct {
  unsigned long long s;
} Rng;

static unsigned long long Mix(unsigned long long z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static unsigned long long RngNext(Rng *r)
{
  return Mix(r->s += 0x9e3779b97f4a7c15ULL);
}
static PetscInt RngInt(Rng *r, PetscInt n)
{
  return (PetscInt)(RngNext(r) % (unsigned long long)n);
}
/* a value in [-1, 1) determined by k (element matrix entries, sources) */
static double Value(unsigned long long salt, PetscCount k)
{
  return (double)(Mix(salt ^ (unsigned long long)k) >> 11) * 0x1.0p-52 - 1.0;
}

/* ------------------------------------------------ meshes ------------------------------------------------ */
typedef struct {
  char      name[64];
  PetscInt  nrows, ncells, nel, ncv;
  PetscInt *e2d; /* [ncells*nel] */
  int      *cv;  /* [ncells*ncv] */
} Mesh;

static PetscErrorCode MeshDestroy(Mesh *m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(m->e2d));
  PetscCall(PetscFree(m->cv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Tensor-product mesh of dim (2 or 3) with n[d] cells per direction, Lagrange order k (1 or 2), nc components
  interlaced (element dof a*nc + c), nodes on the face x = 0 dropped (Dirichlet) when dirichlet, the kept nodes numbered
  lexicographically or in a random order (permute); vertices: the cell corners
*/
static PetscErrorCode MeshTensor(PetscInt dim, const PetscInt n[], PetscInt k, PetscInt nc, PetscBool dirichlet, PetscBool permute, Rng *rng, Mesh *m)
{
  PetscInt  nn[3] = {1, 1, 1}, nv[3] = {1, 1, 1}, cn[3] = {1, 1, 1}, nnodes = 1, nverts = 1, nb = 1, *num, kept = 0;
  PetscInt *perm = NULL;

  PetscFunctionBegin;
  for (PetscInt d = 0; d < dim; d++) {
    nn[d] = k * n[d] + 1;
    nv[d] = n[d] + 1;
    cn[d] = n[d];
    nnodes *= nn[d];
    nverts *= nv[d];
    nb *= k + 1;
  }
  PetscCall(PetscSNPrintf(m->name, sizeof(m->name), "%dD Q%d %s%s%s nc=%d", (int)dim, (int)k, dim == 2 ? "quads" : "hexes", dirichlet ? " dirichlet" : "", permute ? " permuted" : "", (int)nc));
  m->ncells = cn[0] * cn[1] * cn[2];
  m->nel    = nb * nc;
  m->ncv    = dim == 2 ? 4 : 8;
  PetscCall(PetscMalloc1(nnodes, &num));
  for (PetscInt p = 0; p < nnodes; p++) num[p] = (dirichlet && p % nn[0] == 0) ? -1 : kept++;
  if (permute) { /* Fisher-Yates */
    PetscCall(PetscMalloc1(kept, &perm));
    for (PetscInt p = 0; p < kept; p++) perm[p] = p;
    for (PetscInt p = kept - 1; p > 0; p--) {
      PetscInt q = RngInt(rng, p + 1), t = perm[p];
      perm[p] = perm[q];
      perm[q] = t;
    }
    for (PetscInt p = 0; p < nnodes; p++)
      if (num[p] >= 0) num[p] = perm[num[p]];
    PetscCall(PetscFree(perm));
  }
  m->nrows = kept * nc;
  PetscCall(PetscMalloc1(m->ncells * m->nel, &m->e2d));
  PetscCall(PetscMalloc1(m->ncells * m->ncv, &m->cv));
  for (PetscInt cz = 0; cz < cn[2]; cz++)
    for (PetscInt cy = 0; cy < cn[1]; cy++)
      for (PetscInt cx = 0; cx < cn[0]; cx++) {
        PetscInt c = cx + cn[0] * (cy + cn[1] * cz), a = 0;

        for (PetscInt az = 0; az < (dim == 3 ? k + 1 : 1); az++)
          for (PetscInt ay = 0; ay <= k; ay++)
            for (PetscInt ax = 0; ax <= k; ax++, a++) {
              PetscInt p = (k * cx + ax) + nn[0] * ((k * cy + ay) + nn[1] * (k * cz + az));

              for (PetscInt comp = 0; comp < nc; comp++) m->e2d[c * m->nel + a * nc + comp] = num[p] >= 0 ? num[p] * nc + comp : -1;
            }
        a = 0;
        for (PetscInt vz = 0; vz < (dim == 3 ? 2 : 1); vz++)
          for (PetscInt vy = 0; vy < 2; vy++)
            for (PetscInt vx = 0; vx < 2; vx++) m->cv[c * m->ncv + a++] = (int)((cx + vx) + nv[0] * ((cy + vy) + nv[1] * (cz + vz)));
      }
  PetscCall(PetscFree(num));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Unstructured-like: each cell takes nel dofs from a window around a random centre (locality, as a renumbered mesh),
   about 10% dropped, and now and then a dof repeated in a cell (periodic closure); ncv vertices from a window too */
static PetscErrorCode MeshRandom(PetscInt nrows, PetscInt ncells, PetscInt nel, PetscInt ncv, PetscInt window, PetscBool repeats, Rng *rng, Mesh *m)
{
  const PetscInt w = PetscMin(nrows, window > 0 ? window : 4 * nel + 8), nverts = nrows / 2 + 1;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(m->name, sizeof(m->name), "random %d rows %d cells nel=%d window %d%s", (int)nrows, (int)ncells, (int)nel, (int)w, repeats ? " repeats" : ""));
  m->nrows  = nrows;
  m->ncells = ncells;
  m->nel    = nel;
  m->ncv    = ncv;
  PetscCall(PetscMalloc1(ncells * nel, &m->e2d));
  PetscCall(PetscMalloc1(ncells * ncv, &m->cv));
  for (PetscInt c = 0; c < ncells; c++) {
    PetscInt  c0 = RngInt(rng, nrows - w + 1), *ed = m->e2d + c * nel;
    PetscBool rep = (PetscBool)(repeats && RngInt(rng, 10) == 0);

    for (PetscInt i = 0; i < nel; i++) {
      PetscBool again;
      do {
        ed[i] = c0 + RngInt(rng, w);
        again = PETSC_FALSE;
        for (PetscInt j = 0; j < i; j++) again = (PetscBool)(again || ed[j] == ed[i]);
      } while (again);
    }
    if (rep && nel > 1) ed[nel - 1] = ed[0];
    for (PetscInt i = 0; i < nel; i++)
      if (RngInt(rng, 10) == 0) ed[i] = -1 - RngInt(rng, 3);
    for (PetscInt k = 0; k < ncv; k++) m->cv[c * ncv + k] = (int)((c0 / 2 + RngInt(rng, w)) % nverts);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------ checks ------------------------------------------------ */
static PetscErrorCode CheckPattern(const Mesh *m, PetscInt ncols, PetscBool adddiag, const PetscInt rowptr[], const PetscInt colidx[])
{
  const PetscInt nr = m->nrows, nmin = PetscMin(nr, ncols);
  char          *dense;
  PetscCount     nnz = 0;

  PetscFunctionBegin;
  PetscCheck(rowptr[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rowptr[0] = %" PetscInt_FMT, rowptr[0]);
  for (PetscInt r = 0; r < nr; r++)
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++) {
      PetscCheck(colidx[k] >= 0 && colidx[k] < ncols, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT ": column %" PetscInt_FMT " out of range", r, colidx[k]);
      PetscCheck(k == rowptr[r] || colidx[k] > colidx[k - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " is not sorted and unique", r);
    }
  if ((PetscCount)nr * ncols > 16000000) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1((size_t)nr * ncols, &dense));
  for (PetscInt c = 0; c < m->ncells; c++)
    for (PetscInt i = 0; i < m->nel; i++)
      for (PetscInt j = 0; j < m->nel; j++) {
        PetscInt r = m->e2d[c * m->nel + i], s = m->e2d[c * m->nel + j];
        if (r >= 0 && s >= 0) dense[(size_t)r * ncols + s] = 1;
      }
  if (adddiag)
    for (PetscInt r = 0; r < nmin; r++) dense[(size_t)r * ncols + r] = 1;
  for (PetscInt r = 0; r < nr; r++) {
    PetscInt k = rowptr[r];
    for (PetscInt s = 0; s < ncols; s++)
      if (dense[(size_t)r * ncols + s]) {
        PetscCheck(k < rowptr[r + 1] && colidx[k] == s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: pattern row %" PetscInt_FMT " lacks column %" PetscInt_FMT " or has extra entries", m->name, r, s);
        k++;
        nnz++;
      }
    PetscCheck(k == rowptr[r + 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: pattern row %" PetscInt_FMT " has extra entries", m->name, r);
  }
  PetscCall(PetscFree(dense));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckSlots(const Mesh *m, const PetscInt rowptr[], const PetscInt colidx[], const int slot[])
{
  const PetscInt nel = m->nel;

  PetscFunctionBegin;
  for (PetscInt c = 0; c < m->ncells; c++)
    for (PetscInt i = 0; i < nel; i++)
      for (PetscInt j = 0; j < nel; j++) {
        PetscInt r = m->e2d[c * nel + i], s = m->e2d[c * nel + j], expect = -1;

        if (r >= 0 && s >= 0)
          for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++)
            if (colidx[k] == s) expect = k;
        PetscCheck(slot[(c * nel + i) * nel + j] == expect, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: slot of cell %" PetscInt_FMT " (%" PetscInt_FMT ",%" PetscInt_FMT ") is %d, expected %" PetscInt_FMT, m->name, c, i, j, slot[(c * nel + i) * nel + j], expect);
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckColor(const Mesh *m, PetscInt ncolors, const int coff[], const int cells[])
{
  int     *owner, *seen;
  PetscInt mn = PETSC_INT_MAX, mx = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(PetscMax(m->nrows, 1), &owner, PetscMax(m->ncells, 1), &seen));
  for (PetscInt c = 0; c < m->ncells; c++) seen[c] = 0;
  PetscCheck(coff[0] == 0 && coff[ncolors] == m->ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: colors hold %d cells of %" PetscInt_FMT, m->name, coff[ncolors], m->ncells);
  for (PetscInt k = 0; k < ncolors; k++) {
    for (PetscInt r = 0; r < m->nrows; r++) owner[r] = -1;
    PetscCheck(coff[k + 1] > coff[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: color %" PetscInt_FMT " is empty", m->name, k);
    mn = PetscMin(mn, coff[k + 1] - coff[k]);
    mx = PetscMax(mx, coff[k + 1] - coff[k]);
    for (int q = coff[k]; q < coff[k + 1]; q++) {
      int c = cells[q];
      PetscCheck(q == coff[k] || c > cells[q - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: color %" PetscInt_FMT " not in increasing cell order", m->name, k);
      seen[c]++;
      for (PetscInt i = 0; i < m->nel; i++) {
        PetscInt r = m->e2d[c * m->nel + i];
        if (r < 0) continue;
        PetscCheck(owner[r] < 0 || owner[r] == c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cells %d and %d of color %" PetscInt_FMT " share row %" PetscInt_FMT, m->name, owner[r], c, k, r);
        owner[r] = c;
      }
    }
  }
  for (PetscInt c = 0; c < m->ncells; c++) PetscCheck(seen[c] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: cell %" PetscInt_FMT " has %d colors", m->name, c, seen[c]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    coloring: %" PetscInt_FMT " colors, %" PetscInt_FMT " to %" PetscInt_FMT " cells each\n", ncolors, ncolors ? mn : 0, mx));
  PetscCall(PetscFree2(owner, seen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shape of a packed array: off[] multiples of bs, increasing */
static PetscErrorCode CheckPacked(const char *what, const PetscWarpRedHost *red, PetscInt bs)
{
  PetscFunctionBegin;
  PetscCheck(red->bs == bs && red->off && red->off[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: bad header", what);
  for (PetscInt b = 0; b < red->nblocks; b++)
    PetscCheck(red->off[b + 1] >= red->off[b] && (red->off[b + 1] - red->off[b]) % bs == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: block %" PetscInt_FMT " offsets %d %d", what, b, red->off[b], red->off[b + 1]);
  PetscCheck(PetscWarpRedHostBytes(red) == (PetscLogDouble)sizeof(int) * (red->nblocks + 1 + red->off[red->nblocks]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: bytes", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduction array of block b interpreted thread by thread (warpasmkernels.h): T[target] from S, how often each
   target was written, the largest source and the range of the targets written */
static void InterpretReduction(const PetscWarpRedHost *red, PetscInt b, const double *S, double *T, int *writes, PetscInt *srcmax, PetscInt *tmin, PetscInt *tmax)
{
  const PetscInt bs = red->bs, h = (red->off[b + 1] - red->off[b]) / bs;

  *srcmax = 0;
  *tmin   = PETSC_INT_MAX;
  *tmax   = -1;
  for (PetscInt t = 0; t < bs; t++) {
    double acc = 0;
    for (PetscInt r = 0; r < h; r++) {
      int e = red->ent[red->off[b] + r * bs + t];
      if (e > 0) {
        *srcmax = PetscMax(*srcmax, e);
        acc += S[e - 1];
      } else if (e < 0) {
        T[-e - 1] = acc;
        writes[-e - 1]++;
        *tmin = PetscMin(*tmin, -e - 1);
        *tmax = PetscMax(*tmax, -e - 1);
        acc   = 0;
      }
    }
  }
}

/* -device_plans: every reduction plan is also built on the device and compared with the host's, bitwise */
static PetscBool devplans = PETSC_FALSE;

static PetscErrorCode CompareDevicePlan(const char *name, PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, const PetscWarpRedHost *red)
{
  PetscWarpRedHost dev;
  PetscBool        built;

  PetscFunctionBegin;
  if (!devplans) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMemzero(&dev, sizeof(dev)));
  PetscCall(PetscWarpPlanReductionDevice(nsrc, slot, ntargets, bs, tpb, NULL, &dev, &built));
  PetscCheck(built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device did not build the reduction plan", name);
  PetscCheck(dev.nblocks == red->nblocks && dev.bs == red->bs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: device plan of %" PetscInt_FMT " blocks of %" PetscInt_FMT ", host %" PetscInt_FMT " of %" PetscInt_FMT, name, dev.nblocks, dev.bs, red->nblocks, red->bs);
  for (PetscInt b = 0; b <= red->nblocks; b++) PetscCheck(dev.off[b] == red->off[b], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: device off[%" PetscInt_FMT "] = %d, host %d", name, b, dev.off[b], red->off[b]);
  for (PetscInt e = 0; e < red->off[red->nblocks]; e++) PetscCheck(dev.ent[e] == red->ent[e], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: device ent[%" PetscInt_FMT "] = %d, host %d", name, e, dev.ent[e], red->ent[e]);
  PetscCall(PetscInfo(NULL, "%s: device reduction plan equal to the host's (%d entries)\n", name, red->off[red->nblocks]));
  PetscCall(PetscWarpRedHostDestroy(&dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Two packed arrays, bitwise */
static PetscErrorCode SameRed(const char *name, const char *what, const PetscWarpRedHost *a, const PetscWarpRedHost *b)
{
  PetscFunctionBegin;
  PetscCheck(a->nblocks == b->nblocks && a->bs == b->bs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s of %" PetscInt_FMT " blocks of %" PetscInt_FMT ", expected %" PetscInt_FMT " of %" PetscInt_FMT, name, what, a->nblocks, a->bs, b->nblocks, b->bs);
  PetscCheck(!memcmp(a->off, b->off, sizeof(int) * (size_t)(b->nblocks + 1)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s block offsets differ", name, what);
  PetscCheck(!memcmp(a->ent, b->ent, sizeof(int) * (size_t)b->off[b->nblocks]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %s entries differ", name, what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* sharednz blocks planned without slots, their reduction array afterwards on the host (and with -device_plans on the
   device): the arrays of the plan made with the slots, sh */
static PetscErrorCode CompareSharedLater(const Mesh *m, const PetscInt rowptr[], const PetscInt colidx[], const int slot[], PetscInt ntargets, PetscInt maxcells, PetscInt bs, PetscWarpSharedNZPartitioner pt, const PetscWarpSharedHost *sh)
{
  PetscWarpSharedHost sl;

  PetscFunctionBegin;
  for (int dev = 0; dev < 1 + (devplans ? 1 : 0); dev++) {
    PetscCall(PetscWarpPlanSharedNZLimit(m->nrows, rowptr, colidx, m->ncells, m->nel, m->e2d, m->ncv, m->cv, NULL, maxcells, bs, pt, PETSC_MAX_REAL, &sl));
    PetscCheck(sl.rblk && !sl.red.off && sl.nblocks == sh->nblocks && sl.redundancy == sh->redundancy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: blocks planned without slots differ or have a reduction array", m->name);
    PetscCheck(!memcmp(sl.coff, sh->coff, sizeof(int) * (size_t)(sh->nblocks + 1)) && !memcmp(sl.cells, sh->cells, sizeof(int) * (size_t)sh->coff[sh->nblocks]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: element sets planned without slots differ", m->name);
    PetscCall(SameRed(m->name, "scatter array planned without slots", &sl.scatter, &sh->scatter));
    if (!dev) {
      PetscCall(PetscWarpPlanSharedNZReduction(m->ncells, m->nel, m->e2d, slot, &sl));
      PetscCall(SameRed(m->name, "sharednz reduction array built afterwards", &sl.red, &sh->red));
    } else {
      PetscWarpRedHost dr;
      PetscBool        built;
      PetscCount       nent;

      PetscCall(PetscMemzero(&dr, sizeof(dr)));
      PetscCall(PetscWarpPlanSharedNZReductionDevice(m->ncells, m->nel, m->e2d, slot, NULL, ntargets, &sl, NULL, &dr, &nent, &built));
      PetscCheck(built && !sl.rblk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device did not build the sharednz reduction array", m->name);
      PetscCheck(nent == sh->red.off[sh->red.nblocks], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device reports %" PetscCount_FMT " entries, the host's array has %d", m->name, nent, sh->red.off[sh->red.nblocks]);
      PetscCall(SameRed(m->name, "device sharednz reduction array", &dr, &sh->red));
      PetscCall(PetscWarpRedHostDestroy(&dr));
    }
    PetscCheck(!sl.rblk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the row-to-block map outlived the reduction array", m->name);
    PetscCall(PetscWarpSharedHostDestroy(&sl));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CompareDevicePattern(const Mesh *m, PetscInt ncols, PetscBool adddiag, const PetscInt rowptr[], const PetscInt colidx[])
{
  PetscInt *rp, *ci;
  PetscBool built;

  PetscFunctionBegin;
  if (!devplans) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscWarpPlanPatternDevice(m->nrows, ncols, m->ncells, m->nel, m->e2d, adddiag, &rp, &ci, &built));
  PetscCheck(built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device did not compute the pattern", m->name);
  PetscCheck(!memcmp(rp, rowptr, sizeof(PetscInt) * (size_t)(m->nrows + 1)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: device pattern rows differ from the host's", m->name);
  PetscCheck(!memcmp(ci, colidx, sizeof(PetscInt) * (size_t)rowptr[m->nrows]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: device pattern columns differ from the host's", m->name);
  PetscCall(PetscFree(rp));
  PetscCall(PetscFree(ci));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckReduction(const char *name, PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscCount *padded)
{
  PetscWarpRedHost red;
  double          *S, *T, *Tref;
  int             *writes;
  PetscCount       kept = 0;

  PetscFunctionBegin;
  PetscCall(PetscWarpPlanReduction(nsrc, slot, ntargets, bs, tpb, &red));
  PetscCall(CompareDevicePlan(name, nsrc, slot, ntargets, bs, tpb, &red));
  PetscCall(CheckPacked(name, &red, bs));
  PetscCheck(red.nblocks == (ntargets + tpb - 1) / tpb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " blocks", name, red.nblocks);
  PetscCall(PetscMalloc4(PetscMax(nsrc, 1), &S, PetscMax(ntargets, 1), &T, PetscMax(ntargets, 1), &Tref, PetscMax(ntargets, 1), &writes));
  for (PetscCount s = 0; s < nsrc; s++) S[s] = Value(0x5eed, s);
  for (PetscInt t = 0; t < ntargets; t++) {
    Tref[t]   = 0;
    T[t]      = -12345.0;
    writes[t] = 0;
  }
  for (PetscCount s = 0; s < nsrc; s++)
    if (slot[s] >= 0) {
      Tref[slot[s]] += S[s];
      kept++;
    }
  for (PetscInt b = 0; b < red.nblocks; b++) {
    PetscInt srcmax, tmin, tmax;
    InterpretReduction(&red, b, S, T, writes, &srcmax, &tmin, &tmax);
    PetscCheck(srcmax <= nsrc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: source %" PetscInt_FMT " out of range", name, srcmax);
    PetscCheck(tmin >= b * tpb && tmax < PetscMin((b + 1) * tpb, ntargets), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: block %" PetscInt_FMT " wrote targets %" PetscInt_FMT "..%" PetscInt_FMT " beyond its own", name, b, tmin, tmax);
  }
  for (PetscInt t = 0; t < ntargets; t++) {
    PetscCheck(writes[t] == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: target %" PetscInt_FMT " written %d times", name, t, writes[t]);
    PetscCheck(T[t] == Tref[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: target %" PetscInt_FMT ": %g, expected %g (bitwise)", name, t, T[t], Tref[t]);
  }
  *padded = red.off[red.nblocks];
  PetscCall(PetscInfo(NULL, "%s: %" PetscCount_FMT " entries for %" PetscCount_FMT " sources and %" PetscInt_FMT " targets\n", name, *padded, kept, ntargets));
  PetscCall(PetscFree4(S, T, Tref, writes));
  PetscCall(PetscWarpRedHostDestroy(&red));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Interpret a sharednz plan block by block and compare with a brute-force sum of the element matrices into the targets */
static PetscErrorCode CheckSharedNZ(const Mesh *m, const int slot[], PetscInt ntargets, const PetscWarpSharedHost *sh, PetscInt maxcells, PetscInt bs)
{
  const PetscInt nel = m->nel, nn = nel * nel, ncv = m->ncv;
  double        *T, *Tref, *S;
  int           *writes, *hit, *coord, *used, *incell;
  PetscCount     sume = 0;

  PetscFunctionBegin;
  PetscCall(CheckPacked("scatter", &sh->scatter, bs));
  PetscCall(CheckPacked("sharednz reduction", &sh->red, bs));
  PetscCheck(sh->scatter.nblocks == sh->nblocks && sh->red.nblocks == sh->nblocks && sh->bs == bs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block counts");
  PetscCheck(sh->maxcells <= maxcells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "maxcells %" PetscInt_FMT " > %" PetscInt_FMT, sh->maxcells, maxcells);
  PetscCall(PetscMalloc4(PetscMax(ntargets, 1), &T, PetscMax(ntargets, 1), &Tref, PetscMax(ntargets, 1), &writes, PetscMax(ntargets, 1), &hit));
  PetscCall(PetscMalloc4(PetscMax(sh->maxcells * nn, 1), &S, PetscMax(sh->maxcells * ncv, 1), &coord, PetscMax(sh->maxcells, 1), &used, PetscMax(m->ncells, 1), &incell));
  for (PetscInt t = 0; t < ntargets; t++) {
    Tref[t]   = 0;
    T[t]      = -12345.0;
    writes[t] = hit[t] = 0;
  }
  for (PetscInt c = 0; c < m->ncells; c++) incell[c] = 0;
  for (PetscCount s = 0; s < (PetscCount)m->ncells * nn; s++)
    if (slot[s] >= 0) {
      Tref[slot[s]] += Value(0xe1e, s);
      hit[slot[s]] = 1;
    }
  for (PetscInt b = 0; b < sh->nblocks; b++) {
    const PetscInt n      = sh->coff[b + 1] - sh->coff[b];
    const int     *cells  = sh->cells + sh->coff[b];
    PetscInt       srcmax = 0, hs = (sh->scatter.off[b + 1] - sh->scatter.off[b]) / bs;

    PetscCheck(n >= 1 && n <= sh->maxcells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": %" PetscInt_FMT " cells", b, n);
    sume += n;
    for (PetscInt lc = 0; lc < n; lc++) {
      PetscCheck(lc == 0 || cells[lc] > cells[lc - 1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": cells not increasing", b);
      incell[cells[lc]]++;
      used[lc] = 0;
      for (PetscInt k = 0; k < ncv; k++) coord[lc * ncv + k] = -1;
      for (PetscInt q = 0; q < nn; q++) S[lc * nn + q] = Value(0xe1e, (PetscCount)cells[lc] * nn + q);
    }
    /* scatter: each coordinate slot of the block filled once, with the cell's vertex */
    for (PetscInt t = 0; t < bs; t++) {
      int v = -1;
      for (PetscInt r = 0; r < hs; r++) {
        int e = sh->scatter.ent[sh->scatter.off[b] + r * bs + t];
        if (e > 0) v = e - 1;
        else if (e < 0) {
          PetscCheck(-e - 1 < n * ncv && v >= 0 && coord[-e - 1] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": bad scatter entry %d", b, e);
          coord[-e - 1] = v;
        }
      }
    }
    for (PetscInt lc = 0; lc < n; lc++)
      for (PetscInt k = 0; k < ncv; k++)
        PetscCheck(coord[lc * ncv + k] == m->cv[cells[lc] * ncv + k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": coordinate slot %" PetscInt_FMT " has vertex %d, expected %d", b, lc * ncv + k, coord[lc * ncv + k], m->cv[cells[lc] * ncv + k]);
    /* reduction from the block's element matrices */
    {
      const PetscInt h = (sh->red.off[b + 1] - sh->red.off[b]) / bs;
      for (PetscInt t = 0; t < bs; t++) {
        double acc = 0;
        for (PetscInt r = 0; r < h; r++) {
          int e = sh->red.ent[sh->red.off[b] + r * bs + t];
          if (e > 0) {
            PetscCheck(e - 1 < n * nn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": source %d beyond its %" PetscInt_FMT " cells", b, e, n);
            used[(e - 1) / nn] = 1;
            acc += S[e - 1];
          } else if (e < 0) {
            PetscCheck(-e - 1 < ntargets, PETSC_COMM_SELF, PETSC_ERR_PLIB, "target out of range");
            T[-e - 1] = acc;
            writes[-e - 1]++;
            acc = 0;
          }
        }
      }
    }
    (void)srcmax;
    for (PetscInt lc = 0; lc < n; lc++) PetscCheck(used[lc], PETSC_COMM_SELF, PETSC_ERR_PLIB, "block %" PetscInt_FMT ": cell %d contributes nothing (element set not minimal)", b, cells[lc]);
  }
  for (PetscInt t = 0; t < ntargets; t++) {
    PetscCheck(writes[t] == hit[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: target %" PetscInt_FMT " written %d times (reached: %d)", m->name, t, writes[t], hit[t]);
    PetscCheck(!hit[t] || T[t] == Tref[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: target %" PetscInt_FMT ": %g, expected %g (bitwise)", m->name, t, T[t], Tref[t]);
  }
  PetscCheck(PetscAbsReal(sh->redundancy - (m->ncells ? (PetscReal)sume / m->ncells : 0)) < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "redundancy %g", (double)sh->redundancy);
  PetscCheck(PetscWarpSharedHostBytes(sh) == PetscWarpRedHostBytes(&sh->scatter) + PetscWarpRedHostBytes(&sh->red) + (PetscLogDouble)sizeof(int) * (sh->nblocks + 1 + sh->coff[sh->nblocks]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "bytes");
  PetscCall(PetscFree4(T, Tref, writes, hit));
  PetscCall(PetscFree4(S, coord, used, incell));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Most cells a row is in (the smallest maxcells a partition can meet) */
static PetscErrorCode MaxCellsPerRow(const Mesh *m, PetscInt *mx)
{
  PetscInt *cnt, *last;

  PetscFunctionBegin;
  *mx = 0;
  PetscCall(PetscMalloc2(PetscMax(m->nrows, 1), &cnt, PetscMax(m->nrows, 1), &last));
  for (PetscInt r = 0; r < m->nrows; r++) {
    cnt[r]  = 0;
    last[r] = -1;
  }
  for (PetscInt c = 0; c < m->ncells; c++)
    for (PetscInt i = 0; i < m->nel; i++) {
      PetscInt r = m->e2d[c * m->nel + i];
      if (r >= 0 && last[r] != c) {
        last[r] = c;
        *mx     = PetscMax(*mx, ++cnt[r]);
      }
    }
  PetscCall(PetscFree2(cnt, last));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rownz plan (PetscWarpPlanRowNZ) interpreted: tiles partition [0, nslots), at most 32 rows and (unless one group)
   at most the cap; each element entry reaches its slot (slot[], mapped through pos2slot) exactly once (integer sums of
   the entry numbers and counts per slot against brute force) */
static PetscErrorCode CheckRowNZ(const Mesh *m, const PetscInt rowptr[], const PetscInt colidx[], const int slot[], const int pos2slot[], PetscInt nslots, PetscInt cap)
{
  PetscWarpRowNZTiling tl = {0};
  PetscWarpRowNZHost   rn;
  const char          *why;
  unsigned long long  *sum, *sum0;
  PetscInt            *n, *n0, nel = m->nel;

  PetscFunctionBegin;
  tl.tileslots = cap;
  tl.fixed     = 8 * 1024;
  tl.regs      = 48;
  PetscCall(PetscWarpPlanRowNZ(m->nrows, m->nrows, rowptr, colidx, pos2slot, nslots, m->ncells, nel, m->e2d, &tl, &rn, &why));
  PetscCheck(!why, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz refused: %s", m->name, why);
  PetscCheck(cap <= 0 || rn.tileslots == cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz cap %" PetscInt_FMT ", asked %" PetscInt_FMT, m->name, rn.tileslots, cap);
  PetscCall(PetscCalloc4(nslots + 1, &sum, nslots + 1, &sum0, nslots + 1, &n, nslots + 1, &n0));
  for (PetscCount x = 0; x < (PetscCount)m->ncells * nel * nel; x++) {
    PetscInt r = m->e2d[x / (nel * nel) * nel + x / nel % nel], c = m->e2d[x / (nel * nel) * nel + x % nel], t;
    if (r < 0 || c < 0) continue;
    t = pos2slot ? pos2slot[slot[x]] : slot[x];
    sum0[t] += (unsigned long long)x + 1;
    n0[t]++;
  }
  PetscCheck(rn.soff[0] == 0 && rn.soff[rn.ntiles] == nslots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz tiles cover [%d, %d), not [0, %" PetscInt_FMT ")", m->name, rn.soff[0], rn.soff[rn.ntiles], nslots);
  for (PetscInt b = 0; b < rn.ntiles; b++) {
    const int s0 = rn.soff[b], ns = rn.soff[b + 1] - s0, nl = rn.nlane[b], nm = (rn.ioff[b + 1] - rn.ioff[b]) / nl;
    int       rows = 0;
    PetscCheck(ns >= 0 && ns <= rn.maxslots && nl >= 1 && nl <= 32 && (rn.ioff[b + 1] - rn.ioff[b]) % nl == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz tile %" PetscInt_FMT " malformed", m->name, b);
    for (int t = 0; t < 32; t++) {
      const int base = rn.lbase[b * 32 + t], lsh = rn.lsh[b * 32 + t];
      if (base < 0) continue;
      rows++;
      PetscCheck(t < nl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz lane %d of tile %" PetscInt_FMT " beyond its %d lanes", m->name, t, b, nl);
      for (int mm = 0; mm < nm; mm++) {
        const PetscCount x = rn.ioff[b] + (PetscCount)mm * nl + t, kb = (rn.ioff[b] + (PetscCount)mm * nl) * nel + t;
        const int        cell = rn.icell[x], i = rn.iloc[x];
        if (cell < 0) continue;
        for (PetscInt j = 0; j < nel; j++) {
          const int k = rn.wide ? rn.kpos16[kb + j * nl] : rn.kpos8[kb + j * nl], loc = base + ((k >> lsh) << rn.ssh) + (k & ((1 << lsh) - 1));
          if (k == (rn.wide ? 0xffff : 0xff)) continue;
          PetscCheck(loc >= 0 && loc < ns, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz writes outside tile %" PetscInt_FMT, m->name, b);
          sum[s0 + loc] += (unsigned long long)(((PetscCount)cell * nel + i) * nel + j) + 1;
          n[s0 + loc]++;
        }
      }
    }
    PetscCheck(rows <= 32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rows");
    PetscCheck(rn.tileslots <= 0 || ns <= rn.tileslots || nl == 1 || pos2slot, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz CSR tile %" PetscInt_FMT " of %d rows has %d slots, above the cap %" PetscInt_FMT, m->name, b, nl, ns, rn.tileslots);
  }
  for (PetscInt t = 0; t < nslots; t++) PetscCheck(sum[t] == sum0[t] && n[t] == n0[t], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz slot %" PetscInt_FMT ": %" PetscInt_FMT " entries, expected %" PetscInt_FMT, m->name, t, n[t], n0[t]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    rownz (%s, cap %" PetscInt_FMT "): %" PetscInt_FMT " tiles, %.3g rows per tile, at most %" PetscInt_FMT " slots, %.3g incidences per row\n", pos2slot ? "ELL-like" : "CSR", rn.tileslots, rn.ntiles,
                        rn.ntiles ? (double)rn.nrows / rn.ntiles : 0.0, rn.maxslots, rn.nrows ? (double)rn.ninc / rn.nrows : 0.0));
  PetscCall(PetscFree4(sum, sum0, n, n0));
  PetscCall(PetscWarpRowNZHostDestroy(&rn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An ELL-like map of the pattern: warps of 32/L consecutive rows, each row over L lanes (ELL-WARP's K2 layout; L = 1:
   K1) in units of u consecutive entries (ELL-WARP's blocked column index; u = 1: entries), unit k/u at unit column
   (k/u)/L of lane (k/u)%L, its entries in u consecutive 32-slot columns; padding to the warp's longest row */
static PetscErrorCode EllLike(PetscInt nrows, const PetscInt rowptr[], PetscInt L, PetscInt u, int **pos2slot, PetscInt *nslots)
{
  PetscInt base = 0, rw = 32 / L;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(rowptr[nrows], 1), pos2slot));
  for (PetscInt w = 0; w < nrows; w += rw) {
    PetscInt W = 0;
    for (PetscInt r = w; r < PetscMin(w + rw, nrows); r++) W = PetscMax(W, ((rowptr[r + 1] - rowptr[r] + u - 1) / u + L - 1) / L);
    for (PetscInt r = w; r < PetscMin(w + rw, nrows); r++)
      for (PetscInt k = 0; k < rowptr[r + 1] - rowptr[r]; k++) (*pos2slot)[rowptr[r] + k] = (int)(base + ((k / u / L) * u + k % u) * 32 + (r - w) * L + (k / u) % L);
    base += 32 * W * u;
  }
  *nslots = base;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestMesh(Mesh *m, Rng *rng)
{
  PetscInt      *rowptr, *colidx, ncolors, nnz, maxrow;
  int           *slot, *coff, *cells, *pos2slot, *slot2;
  PetscBool      rep, expectrep = PETSC_FALSE;
  const PetscInt bss[][2] = {
    {32,  32  },
    {32,  100 },
    {7,   3   },
    {64,  1000},
    {256, 256 }
  };

  PetscFunctionBegin;
  PetscCall(MaxCellsPerRow(m, &maxrow));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs, a row in at most %" PetscInt_FMT " cells\n", m->name, m->nrows, m->ncells, m->nel, maxrow));
  /* pattern: without the diagonal, and a wider matrix with it */
  PetscCall(PetscWarpPlanPattern(m->nrows, m->nrows + 5, m->ncells, m->nel, m->e2d, PETSC_FALSE, &rowptr, &colidx));
  PetscCall(CheckPattern(m, m->nrows + 5, PETSC_FALSE, rowptr, colidx));
  PetscCall(CompareDevicePattern(m, m->nrows + 5, PETSC_FALSE, rowptr, colidx));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscCall(PetscWarpPlanPattern(m->nrows, m->nrows, m->ncells, m->nel, m->e2d, PETSC_TRUE, &rowptr, &colidx));
  PetscCall(CheckPattern(m, m->nrows, PETSC_TRUE, rowptr, colidx));
  PetscCall(CompareDevicePattern(m, m->nrows, PETSC_TRUE, rowptr, colidx));
  nnz = rowptr[m->nrows];
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    pattern: %" PetscInt_FMT " entries\n", nnz));
  /* slots */
  PetscCall(PetscWarpPlanSlots(m->nrows, m->nrows, rowptr, colidx, m->ncells, m->nel, m->e2d, &slot));
  PetscCall(CheckSlots(m, rowptr, colidx, slot));
  if (m->nel <= 255) {
    int     *ell;
    PetscInt nell = 0;
    PetscCall(CheckRowNZ(m, rowptr, colidx, slot, NULL, nnz, 0));
    PetscCall(CheckRowNZ(m, rowptr, colidx, slot, NULL, nnz, 64));
    const PetscInt lu[][2] = {
      {1, 1},
      {2, 1},
      {4, 3},
      {8, 1}
    }; /* (lanes per row, entries per unit): K1; K2 over 2, 4 (blocked index, units of 3) and 8 lanes */
    for (size_t q = 0; q < PETSC_STATIC_ARRAY_LENGTH(lu); q++) {
      PetscCall(EllLike(m->nrows, rowptr, lu[q][0], lu[q][1], &ell, &nell));
      PetscCall(CheckRowNZ(m, rowptr, colidx, slot, ell, nell, 0));
      PetscCall(CheckRowNZ(m, rowptr, colidx, slot, ell, nell, 64));
      PetscCall(PetscFree(ell));
    }
  }
  for (PetscInt c = 0; c < m->ncells; c++)
    for (PetscInt i = 0; i < m->nel; i++)
      for (PetscInt j = 0; j < i; j++) expectrep = (PetscBool)(expectrep || (m->e2d[c * m->nel + i] >= 0 && m->e2d[c * m->nel + i] == m->e2d[c * m->nel + j]));
  PetscCall(PetscWarpPlanHasRepeatedSlots(m->ncells, m->nel, slot, &rep));
  PetscCheck(rep == expectrep, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: repeated slots %d, expected %d", m->name, (int)rep, (int)expectrep);
  PetscCall(PetscWarpPlanHasRepeatedDofs(m->nrows, m->ncells, m->nel, m->e2d, &rep));
  PetscCheck(rep == expectrep, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: repeated dofs %d, expected %d", m->name, (int)rep, (int)expectrep);
  /* coloring */
  PetscCall(PetscWarpPlanColor(m->nrows, m->ncells, m->nel, m->e2d, &ncolors, &coff, &cells));
  PetscCall(CheckColor(m, ncolors, coff, cells));
  PetscCall(PetscFree(coff));
  PetscCall(PetscFree(cells));
  /* reduction into CSR positions for several (bs, tpb) */
  for (size_t q = 0; q < PETSC_STATIC_ARRAY_LENGTH(bss); q++) {
    PetscCount padded, nsrc = (PetscCount)m->ncells * m->nel * m->nel;
    PetscCall(CheckReduction(m->name, nsrc, slot, nnz, bss[q][0], bss[q][1], &padded));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    reduction bs %3" PetscInt_FMT " tpb %4" PetscInt_FMT ": %" PetscCount_FMT " packed entries\n", bss[q][0], bss[q][1], padded));
  }
  /* remapped slots (a permutation of the positions, as ELL-WARP's) */
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), &pos2slot));
  PetscCall(PetscMalloc1(PetscMax((PetscCount)m->ncells * m->nel * m->nel, 1), &slot2));
  for (PetscInt k = 0; k < nnz; k++) pos2slot[k] = (int)k;
  for (PetscInt k = nnz - 1; k > 0; k--) {
    PetscInt q  = RngInt(rng, k + 1);
    int      t  = pos2slot[k];
    pos2slot[k] = pos2slot[q];
    pos2slot[q] = t;
  }
  PetscCall(PetscArraycpy(slot2, slot, (PetscCount)m->ncells * m->nel * m->nel));
  PetscCall(PetscWarpPlanRemap((PetscCount)m->ncells * m->nel * m->nel, slot2, pos2slot));
  for (PetscCount s = 0; s < (PetscCount)m->ncells * m->nel * m->nel; s++) PetscCheck(slot2[s] == (slot[s] >= 0 ? pos2slot[slot[s]] : -1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "remap");
  { /* the mapped slots in one pass: the same array */
    int *slot3;
    PetscCall(PetscWarpPlanSlotsMapped(m->nrows, m->nrows, rowptr, colidx, pos2slot, m->ncells, m->nel, m->e2d, &slot3));
    PetscCheck(!memcmp(slot3, slot2, sizeof(int) * (size_t)((PetscCount)m->ncells * m->nel * m->nel)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: PetscWarpPlanSlotsMapped() differs from PetscWarpPlanSlots() + PetscWarpPlanRemap()", m->name);
    PetscCall(PetscFree(slot3));
  }
  if (devplans) { /* the slots on the device, plain and mapped: the same arrays */
    int      *dslot;
    PetscBool built;

    for (int mapped = 0; mapped < 2; mapped++) {
      PetscCall(PetscWarpPlanSlotsDevice(m->nrows, m->nrows, rowptr, colidx, mapped ? pos2slot : NULL, m->ncells, m->nel, m->e2d, NULL, &dslot, &built));
      PetscCheck(built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the device did not compute the slots", m->name);
      PetscCheck(!memcmp(dslot, mapped ? slot2 : slot, sizeof(int) * (size_t)((PetscCount)m->ncells * m->nel * m->nel)), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: PetscWarpPlanSlotsDevice() (%s) differs from the host's", m->name, mapped ? "mapped" : "plain");
      PetscCall(PetscFree(dslot));
    }
  }
  {
    PetscCount padded;
    PetscCall(CheckReduction(m->name, (PetscCount)m->ncells * m->nel * m->nel, slot2, nnz, 32, 64, &padded));
  }
  /* sharednz: every partitioner, several block capacities, CSR and remapped targets */
  for (int pt = 0; pt < 3; pt++) {
    const PetscInt caps[] = {maxrow, maxrow + 3, 2 * maxrow + 1, 40, m->ncells + 10};
    for (size_t q = 0; q < PETSC_STATIC_ARRAY_LENGTH(caps); q++) {
      PetscWarpSharedHost sh;
      const PetscInt      bs = q % 2 ? 32 : 64;
      if (caps[q] < maxrow) continue;
      PetscCall(PetscWarpPlanSharedNZ(m->nrows, rowptr, colidx, m->ncells, m->nel, m->e2d, m->ncv, m->cv, q == 2 ? slot2 : slot, caps[q], bs, (PetscWarpSharedNZPartitioner)pt, &sh));
      PetscCall(CheckSharedNZ(m, q == 2 ? slot2 : slot, nnz, &sh, caps[q], bs));
      PetscCall(CompareSharedLater(m, rowptr, colidx, q == 2 ? slot2 : slot, nnz, caps[q], bs, (PetscWarpSharedNZPartitioner)pt, &sh));
      if (q == 1) { /* a redundancy limit below the partition's: the same partition, no arrays */
        PetscWarpSharedHost sl;
        PetscCall(PetscWarpPlanSharedNZLimit(m->nrows, rowptr, colidx, m->ncells, m->nel, m->e2d, m->ncv, m->cv, slot, caps[q], bs, (PetscWarpSharedNZPartitioner)pt, 0.5 * sh.redundancy, &sl));
        PetscCheck(sl.redundancy == sh.redundancy && sl.nblocks == sh.nblocks && sl.maxcells == sh.maxcells && !sl.coff && !sl.cells && !sl.red.ent && !sl.scatter.ent, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: PetscWarpPlanSharedNZLimit() under its redundancy", m->name);
        PetscCall(PetscWarpSharedHostDestroy(&sl));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "    sharednz %-6s maxcells %4" PetscInt_FMT " bs %2" PetscInt_FMT "%s: %4" PetscInt_FMT " blocks of <= %4" PetscInt_FMT " cells, %" PetscInt_FMT " partition(s) tried, %.3f computations per element\n", PetscWarpSharedNZPartitioners[pt], caps[q], bs, q == 2 ? " (remapped)" : "", sh.nblocks, sh.maxcells, sh.nparts_tried,
                            (double)sh.redundancy));
      PetscCall(PetscWarpSharedHostDestroy(&sh));
    }
  }
  PetscCall(PetscFree(pos2slot));
  PetscCall(PetscFree(slot2));
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A mesh where METIS's first partition mostly overflows: a dense random part (rows in many cells) and a sparse grid,
  with the grid's rows at the places where the number of rows per part is measured (nrows/6, nrows/2, 5 nrows/6), so
  that the estimate comes from the sparse part only; then more parts are tried
*/
static PetscErrorCode TestRetry(Rng *rng)
{
  Mesh                a, b, m;
  const PetscInt      nb[2] = {30, 30};
  PetscInt           *rowptr, *colidx, *perm, maxrow, seeds[3];
  int                *slot;
  PetscWarpSharedHost sh;

  PetscFunctionBegin;
  PetscCall(MeshRandom(1500, 6000, 4, 4, 24, PETSC_FALSE, rng, &a));
  PetscCall(MeshTensor(2, nb, 1, 1, PETSC_FALSE, PETSC_FALSE, rng, &b));
  PetscCall(PetscMemzero(&m, sizeof(m)));
  PetscCall(PetscSNPrintf(m.name, sizeof(m.name), "dense random + sparse grid"));
  m.nrows  = a.nrows + b.nrows;
  m.ncells = a.ncells + b.ncells;
  m.nel    = 4;
  m.ncv    = 4;
  PetscCall(PetscMalloc1(m.ncells * m.nel, &m.e2d));
  PetscCall(PetscMalloc1(m.ncells * m.ncv, &m.cv));
  PetscCall(PetscMalloc1(m.nrows, &perm));
  for (PetscInt r = 0; r < m.nrows; r++) perm[r] = r;
  for (PetscInt s = 0; s < 3; s++) { /* swap the measured places with rows of the grid */
    PetscInt t;
    seeds[s]              = (2 * s + 1) * m.nrows / 6;
    t                     = perm[seeds[s]];
    perm[seeds[s]]        = perm[a.nrows + 7 * s];
    perm[a.nrows + 7 * s] = t;
  }
  for (PetscInt k = 0; k < a.ncells * 4; k++) m.e2d[k] = a.e2d[k] >= 0 ? perm[a.e2d[k]] : -1;
  for (PetscInt k = 0; k < b.ncells * 4; k++) m.e2d[a.ncells * 4 + k] = perm[a.nrows + b.e2d[k]];
  for (PetscInt k = 0; k < a.ncells * 4; k++) m.cv[k] = a.cv[k];
  for (PetscInt k = 0; k < b.ncells * 4; k++) m.cv[a.ncells * 4 + k] = (int)(a.nrows + b.cv[k]);
  PetscCall(MaxCellsPerRow(&m, &maxrow));
  PetscCall(PetscWarpPlanPattern(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &rowptr, &colidx));
  PetscCall(PetscWarpPlanSlots(m.nrows, m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, &slot));
  PetscCall(PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, PetscMax(40, maxrow), 32, PETSCWARP_SHAREDNZ_METIS, &sh));
  PetscCall(CheckSharedNZ(&m, slot, rowptr[m.nrows], &sh, PetscMax(40, maxrow), 32));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " rows, sharednz metis maxcells %" PetscInt_FMT ": %" PetscInt_FMT " blocks, %" PetscInt_FMT " partitions tried, %.3f computations per element\n", m.name, m.nrows, PetscMax(40, maxrow), sh.nblocks, sh.nparts_tried,
                        (double)sh.redundancy));
  PetscCheck(sh.nparts_tried > 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected more than one METIS partition");
  PetscCall(PetscWarpSharedHostDestroy(&sh));
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscCall(PetscFree(perm));
  PetscCall(MeshDestroy(&m));
  PetscCall(MeshDestroy(&a));
  PetscCall(MeshDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestErrors(Rng *rng)
{
  Mesh                m;
  const PetscInt      n[2] = {4, 3};
  PetscInt           *rowptr, *colidx, *half_rp, *half_ci, ncolors, save;
  int                *slot = NULL, *coff = NULL, *cells = NULL, bad[3] = {0, 5, -1};
  PetscWarpRedHost    red;
  PetscWarpSharedHost sh;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "errors:\n"));
  PetscCall(PetscMemzero(&m, sizeof(m)));
  PetscCall(MeshTensor(2, n, 1, 1, PETSC_FALSE, PETSC_FALSE, rng, &m));
  PetscCall(PetscWarpPlanPattern(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &rowptr, &colidx));
  /* an entry missing from the pattern: the pattern of half of the cells */
  PetscCall(PetscWarpPlanPattern(m.nrows, m.nrows, m.ncells / 2, m.nel, m.e2d, PETSC_TRUE, &half_rp, &half_ci));
  EXPECT_CODE(PetscWarpPlanSlots(m.nrows, m.nrows, half_rp, half_ci, m.ncells, m.nel, m.e2d, &slot), PETSC_ERR_ARG_INCOMP, "Slots: an element entry missing from the pattern");
  if (devplans) {
    PetscBool built;
    EXPECT_CODE(PetscWarpPlanSlotsDevice(m.nrows, m.nrows, half_rp, half_ci, NULL, m.ncells, m.nel, m.e2d, NULL, &slot, &built), PETSC_ERR_ARG_INCOMP, "Device slots: an element entry missing from the pattern");
  }
  /* indices out of range */
  save                 = m.e2d[3 * m.nel + 2];
  m.e2d[3 * m.nel + 2] = m.nrows;
  EXPECT_CODE(PetscWarpPlanSlots(m.nrows, m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, &slot), PETSC_ERR_ARG_OUTOFRANGE, "Slots: a row index >= nrows");
  if (devplans) {
    PetscBool built;
    EXPECT_CODE(PetscWarpPlanSlotsDevice(m.nrows, m.nrows, rowptr, colidx, NULL, m.ncells, m.nel, m.e2d, NULL, &slot, &built), PETSC_ERR_ARG_OUTOFRANGE, "Device slots: a row index >= nrows");
  }
  EXPECT_CODE(PetscWarpPlanPattern(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &half_rp, &half_ci), PETSC_ERR_ARG_OUTOFRANGE, "Pattern: a row index >= nrows");
  if (devplans) {
    PetscBool built;
    PetscInt *rp, *ci; /* not half_rp, half_ci: the device call sets its outputs to NULL first (it leaked them, 2026-11-28) */
    EXPECT_CODE(PetscWarpPlanPatternDevice(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &rp, &ci, &built), PETSC_ERR_ARG_OUTOFRANGE, "Device pattern: a row index >= nrows");
  }
  EXPECT_CODE(PetscWarpPlanColor(m.nrows, m.ncells, m.nel, m.e2d, &ncolors, &coff, &cells), PETSC_ERR_ARG_OUTOFRANGE, "Color: a row index >= nrows");
  m.e2d[3 * m.nel + 2] = save;
  EXPECT_CODE(PetscWarpPlanSlots(m.nrows, m.nrows - 1, rowptr, colidx, m.ncells, m.nel, m.e2d, &slot), PETSC_ERR_ARG_OUTOFRANGE, "Slots: a column index >= ncols");
  if (devplans) {
    PetscBool built;
    /* (the pattern's last column is then out of range too: the device leaves an unsorted or out-of-range pattern to
       the host, but the map is checked first) */
    EXPECT_CODE(PetscWarpPlanSlotsDevice(m.nrows, m.nrows - 1, rowptr, colidx, NULL, m.ncells, m.nel, m.e2d, NULL, &slot, &built), PETSC_ERR_ARG_OUTOFRANGE, "Device slots: a column index >= ncols");
  }
  EXPECT_CODE(PetscWarpPlanReduction(3, bad, 5, 32, 32, &red), PETSC_ERR_ARG_OUTOFRANGE, "Reduction: a slot >= ntargets");
  if (devplans) {
    PetscWarpRed d;
    PetscBool    built;
    int         *many;

    EXPECT_CODE(PetscWarpPlanReductionDevice(3, bad, 5, 32, 32, &d, NULL, &built), PETSC_ERR_ARG_OUTOFRANGE, "Device reduction: a slot >= ntargets");
    /* a target of 60000 sources in blocks of 1024 targets on 32 threads: more buckets than shared memory holds */
    PetscCall(PetscMalloc1(60000, &many));
    for (PetscInt k = 0; k < 60000; k++) many[k] = k % 7 ? 5 : (int)(k % 2000);
    PetscCall(PetscWarpPlanReductionDevice(60000, many, 2000, 32, 1024, NULL, &red, &built));
    PetscCheck(!built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Device reduction: lists too long for shared memory were packed");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  Device reduction, lists too long for shared memory: left to the host, as expected\n"));
    PetscCall(PetscFree(many));
    { /* a pattern row out of order: the device's binary search cannot, the host can */
      PetscInt *uc, tmp;
      int      *us;

      PetscCall(PetscMalloc1(rowptr[m.nrows], &uc));
      PetscCall(PetscArraycpy(uc, colidx, rowptr[m.nrows]));
      tmp               = uc[rowptr[1]];
      uc[rowptr[1]]     = uc[rowptr[1] + 1];
      uc[rowptr[1] + 1] = tmp;
      PetscCall(PetscWarpPlanSlotsDevice(m.nrows, m.nrows, rowptr, uc, NULL, m.ncells, m.nel, m.e2d, NULL, &us, &built));
      PetscCheck(!built && !us, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Device slots: an unsorted pattern row was searched");
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  Device slots, an unsorted pattern row: left to the host, as expected\n"));
      PetscCall(PetscFree(uc));
    }
  }
  PetscCall(PetscWarpPlanSlots(m.nrows, m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, &slot));
  EXPECT_CODE(PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, 0, 32, PETSCWARP_SHAREDNZ_BALLS, &sh), PETSC_ERR_SUP, "SharedNZ: maxcells 0");
  EXPECT_CODE(PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, 3, 32, PETSCWARP_SHAREDNZ_RANGES, &sh), PETSC_ERR_SUP, "SharedNZ: a row in more cells than fit");
  /* two rows mapped to one target: not a slot map of a matrix */
  {
    int *s2;
    PetscCall(PetscMalloc1(m.ncells * m.nel * m.nel, &s2));
    for (PetscInt k = 0; k < m.ncells * m.nel * m.nel; k++) s2[k] = slot[k] >= 0 ? 0 : -1;
    EXPECT_CODE(PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, s2, 4, 32, PETSCWARP_SHAREDNZ_RANGES, &sh), PETSC_ERR_ARG_INCOMP, "SharedNZ: one target reached from two parts");
    if (devplans) {
      PetscWarpRedHost dr;
      PetscBool        built;

      PetscCall(PetscWarpPlanSharedNZLimit(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, NULL, 4, 32, PETSCWARP_SHAREDNZ_RANGES, PETSC_MAX_REAL, &sh));
      EXPECT_CODE(PetscWarpPlanSharedNZReductionDevice(m.ncells, m.nel, m.e2d, s2, NULL, rowptr[m.nrows], &sh, NULL, &dr, NULL, &built), PETSC_ERR_ARG_INCOMP, "Device sharednz reduction: one target reached from two parts");
      EXPECT_CODE(PetscWarpPlanSharedNZReductionDevice(m.ncells, m.nel, m.e2d, slot, NULL, 1, &sh, NULL, &dr, NULL, &built), PETSC_ERR_ARG_OUTOFRANGE, "Device sharednz reduction: a slot >= ntargets");
      PetscCall(PetscWarpSharedHostDestroy(&sh));
    }
    PetscCall(PetscFree(s2));
  }
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscCall(PetscFree(half_rp));
  PetscCall(PetscFree(half_ci));
  PetscCall(MeshDestroy(&m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestEmpty(void)
{
  PetscInt           *rowptr, *colidx, ncolors;
  int                *slot, *coff, *cells;
  PetscWarpRedHost    red;
  PetscWarpSharedHost sh;

  PetscFunctionBegin;
  /* 4 rows, no cells: the pattern is the diagonal only, nothing to assemble */
  PetscCall(PetscWarpPlanPattern(4, 4, 0, 8, NULL, PETSC_TRUE, &rowptr, &colidx));
  PetscCheck(rowptr[4] == 4 && colidx[3] == 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "empty pattern");
  if (devplans) {
    PetscInt *rp, *ci;
    PetscBool built;
    PetscCall(PetscWarpPlanPatternDevice(4, 4, 0, 8, NULL, PETSC_TRUE, &rp, &ci, &built));
    PetscCheck(built && rp[4] == 4 && ci[3] == 3 && rp[2] == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "empty device pattern");
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(ci));
  }
  PetscCall(PetscWarpPlanSlots(4, 4, rowptr, colidx, 0, 8, NULL, &slot));
  PetscCall(PetscWarpPlanColor(4, 0, 8, NULL, &ncolors, &coff, &cells));
  PetscCheck(ncolors == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "colors of nothing");
  PetscCall(PetscWarpPlanReduction(0, slot, 4, 32, 2, &red));
  PetscCheck(red.nblocks == 2 && red.off[2] == 64, PETSC_COMM_SELF, PETSC_ERR_PLIB, "empty reduction: %" PetscInt_FMT " blocks, %d entries", red.nblocks, red.off[red.nblocks]);
  PetscCall(CompareDevicePlan("empty", 0, slot, 4, 32, 2, &red));
  PetscCall(PetscWarpPlanSharedNZ(4, rowptr, colidx, 0, 8, NULL, 4, NULL, slot, 10, 32, PETSCWARP_SHAREDNZ_BALLS, &sh));
  PetscCheck(sh.nblocks == 0 && sh.coff[0] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "empty sharednz");
  PetscCall(PetscWarpSharedHostDestroy(&sh));
  PetscCall(PetscWarpRedHostDestroy(&red));
  PetscCall(PetscFree(coff));
  PetscCall(PetscFree(cells));
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FNV-1a over n bytes, chained from h */
static unsigned long long Fnv(unsigned long long h, const void *p, size_t n)
{
  const unsigned char *b = (const unsigned char *)p;

  for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ULL;
  return h;
}
static unsigned long long RedHash(const PetscWarpRedHost *r)
{
  unsigned long long h = Fnv(0xcbf29ce484222325ULL, &r->nblocks, sizeof(r->nblocks));

  h = Fnv(h, &r->bs, sizeof(r->bs));
  h = Fnv(h, r->off, sizeof(int) * (size_t)(r->nblocks + 1));
  return Fnv(h, r->ent, sizeof(int) * (size_t)r->off[r->nblocks]);
}
static unsigned long long SharedHash(const PetscWarpSharedHost *sh)
{
  unsigned long long h = Fnv(0xcbf29ce484222325ULL, &sh->nblocks, sizeof(sh->nblocks));

  h = Fnv(h, &sh->maxcells, sizeof(sh->maxcells));
  h = Fnv(h, sh->coff, sizeof(int) * (size_t)(sh->nblocks + 1));
  h = Fnv(h, sh->cells, sizeof(int) * (size_t)sh->coff[sh->nblocks]);
  h ^= 3 * RedHash(&sh->scatter);
  return h ^ 7 * RedHash(&sh->red);
}

static PetscErrorCode Bench(Rng *rng)
{
  PetscInt            n = 80, k = 1, nc = 1, maxcells = 320, bs = 256, tpb = 1024, ncolors, nnz;
  PetscBool           check = PETSC_FALSE, metis = PETSC_TRUE, hash = PETSC_FALSE;
  Mesh                m;
  PetscInt           *rowptr, *colidx;
  int                *slot, *coff, *cells;
  PetscBool           rep;
  PetscWarpRedHost    red;
  PetscWarpSharedHost sh;
  PetscLogDouble      t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_order", &k, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_nc", &nc, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_maxcells", &maxcells, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_bs", &bs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-bench_tpb", &tpb, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_check", &check, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_metis", &metis, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench_hash", &hash, NULL));
  {
    const PetscInt nn[3] = {n, n, n};
    PetscCall(MeshTensor(3, nn, k, nc, PETSC_FALSE, PETSC_FALSE, rng, &m));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "bench: %s, %" PetscInt_FMT "^3 cells, %" PetscInt_FMT " rows, %" PetscInt_FMT " element entries\n", m.name, n, m.nrows, m.ncells * m.nel * m.nel));
#define TIME(what, call) \
  do { \
    PetscCall(PetscTime(&t0)); \
    PetscCall(call); \
    PetscCall(PetscTime(&t1)); \
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-44s %8.3f s\n", what, t1 - t0)); \
  } while (0)
#define HASH(what, h) \
  do { \
    if (hash) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    hash %-39s %016llx\n", what, (unsigned long long)(h))); \
  } while (0)
  TIME("PetscWarpPlanPattern", PetscWarpPlanPattern(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &rowptr, &colidx));
  if (devplans) {
    PetscInt *rp, *ci;
    PetscBool built;
    TIME("PetscWarpPlanPatternDevice (upload, build, download)", PetscWarpPlanPatternDevice(m.nrows, m.nrows, m.ncells, m.nel, m.e2d, PETSC_TRUE, &rp, &ci, &built));
    PetscCheck(built && !memcmp(rp, rowptr, sizeof(PetscInt) * (size_t)(m.nrows + 1)) && !memcmp(ci, colidx, sizeof(PetscInt) * (size_t)rowptr[m.nrows]), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device's pattern differs from the host's");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    device pattern equal to the host's\n"));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(ci));
  }
  nnz = rowptr[m.nrows];
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " entries\n", nnz));
  TIME("PetscWarpPlanSlots", PetscWarpPlanSlots(m.nrows, m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, &slot));
  HASH("slots", Fnv(0xcbf29ce484222325ULL, slot, sizeof(int) * (size_t)(m.ncells * m.nel * m.nel)));
  if (hash) { /* the slots through a permutation of the positions (as ELL-WARP's pos2slot) */
    int *p2s, *mslot;

    PetscCall(PetscMalloc1(nnz, &p2s));
    for (PetscInt q = 0; q < nnz; q++) p2s[q] = (int)((q % 32) * ((nnz + 31) / 32) + q / 32);
    TIME("PetscWarpPlanSlotsMapped (permuted)", PetscWarpPlanSlotsMapped(m.nrows, m.nrows, rowptr, colidx, p2s, m.ncells, m.nel, m.e2d, &mslot));
    HASH("slots mapped", Fnv(0xcbf29ce484222325ULL, mslot, sizeof(int) * (size_t)(m.ncells * m.nel * m.nel)));
    TIME("PetscWarpPlanReduction (permuted)", PetscWarpPlanReduction((PetscCount)m.ncells * m.nel * m.nel, mslot, 32 * ((nnz + 31) / 32), bs, tpb, &red));
    HASH("reduction (permuted)", RedHash(&red));
    PetscCall(PetscWarpRedHostDestroy(&red));
    PetscCall(PetscFree(mslot));
    PetscCall(PetscFree(p2s));
  }
  TIME("PetscWarpPlanHasRepeatedSlots", PetscWarpPlanHasRepeatedSlots(m.ncells, m.nel, slot, &rep));
  TIME("PetscWarpPlanColor", PetscWarpPlanColor(m.nrows, m.ncells, m.nel, m.e2d, &ncolors, &coff, &cells));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " colors\n", ncolors));
  HASH("color", Fnv(Fnv(0xcbf29ce484222325ULL, coff, sizeof(int) * (size_t)(ncolors + 1)), cells, sizeof(int) * (size_t)m.ncells));
  TIME("PetscWarpPlanReduction", PetscWarpPlanReduction((PetscCount)m.ncells * m.nel * m.nel, slot, nnz, bs, tpb, &red));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " blocks, %d packed entries (%.2f MB)\n", red.nblocks, red.off[red.nblocks], PetscWarpRedHostBytes(&red) / 1e6));
  HASH("reduction", RedHash(&red));
  if (devplans) {
    PetscWarpRedHost dev;
    PetscBool        built;

    PetscCall(PetscMemzero(&dev, sizeof(dev)));
    PetscCall(PetscWarpPlanReductionDevice((PetscCount)m.ncells * m.nel * m.nel, slot, nnz, bs, tpb, NULL, &dev, &built)); /* warm-up */
    PetscCall(PetscWarpRedHostDestroy(&dev));
    TIME("PetscWarpPlanReductionDevice (upload, build, download)", PetscWarpPlanReductionDevice((PetscCount)m.ncells * m.nel * m.nel, slot, nnz, bs, tpb, NULL, &dev, &built));
    PetscCheck(built && RedHash(&dev) == RedHash(&red), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device's reduction plan differs from the host's");
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    device plan equal to the host's\n"));
    PetscCall(PetscWarpRedHostDestroy(&dev));
  }
  TIME("PetscWarpPlanSharedNZ (consecutive ranges)", PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, maxcells, bs, PETSCWARP_SHAREDNZ_RANGES, &sh));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " blocks of <= %" PetscInt_FMT " cells (%" PetscInt_FMT " fit), %.3f computations per element, %.2f MB\n", sh.nblocks, sh.maxcells, maxcells, (double)sh.redundancy, PetscWarpSharedHostBytes(&sh) / 1e6));
  if (check) PetscCall(CheckSharedNZ(&m, slot, nnz, &sh, maxcells, bs));
  HASH("sharednz", SharedHash(&sh));
  PetscCall(PetscWarpSharedHostDestroy(&sh));
  TIME("PetscWarpPlanSharedNZ (balls)", PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, maxcells, bs, PETSCWARP_SHAREDNZ_BALLS, &sh));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " blocks of <= %" PetscInt_FMT " cells (%" PetscInt_FMT " fit), %.3f computations per element, %.2f MB\n", sh.nblocks, sh.maxcells, maxcells, (double)sh.redundancy, PetscWarpSharedHostBytes(&sh) / 1e6));
  if (check) PetscCall(CheckSharedNZ(&m, slot, nnz, &sh, maxcells, bs));
  HASH("sharednz", SharedHash(&sh));
  if (devplans) { /* the balls without slots, then their reduction array on the device */
    PetscWarpSharedHost sl;
    PetscWarpRedHost    dev;
    PetscBool           built;

    TIME("PetscWarpPlanSharedNZLimit (balls, no slots: partition, element sets, scatter)", PetscWarpPlanSharedNZLimit(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, NULL, maxcells, bs, PETSCWARP_SHAREDNZ_BALLS, PETSC_MAX_REAL, &sl));
    TIME("PetscWarpPlanSharedNZReductionDevice (upload, build, download)", PetscWarpPlanSharedNZReductionDevice(m.ncells, m.nel, m.e2d, slot, NULL, nnz, &sl, NULL, &dev, NULL, &built));
    PetscCheck(built, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device did not build the sharednz reduction array");
    PetscCall(SameRed(m.name, "device sharednz reduction array", &dev, &sh.red));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    device sharednz reduction array equal to the host's\n"));
    PetscCall(PetscWarpRedHostDestroy(&dev));
    PetscCall(PetscWarpSharedHostDestroy(&sl));
  }
  PetscCall(PetscWarpSharedHostDestroy(&sh));
  if (metis) {
    TIME("PetscWarpPlanSharedNZ (METIS)", PetscWarpPlanSharedNZ(m.nrows, rowptr, colidx, m.ncells, m.nel, m.e2d, m.ncv, m.cv, slot, maxcells, bs, PETSCWARP_SHAREDNZ_METIS, &sh));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "    %" PetscInt_FMT " blocks of <= %" PetscInt_FMT " cells (%" PetscInt_FMT " fit), %" PetscInt_FMT " partition(s) tried, %.3f computations per element, %.2f MB\n", sh.nblocks, sh.maxcells, maxcells, sh.nparts_tried,
                          (double)sh.redundancy, PetscWarpSharedHostBytes(&sh) / 1e6));
    if (check) PetscCall(CheckSharedNZ(&m, slot, nnz, &sh, maxcells, bs));
    HASH("sharednz", SharedHash(&sh));
    PetscCall(PetscWarpSharedHostDestroy(&sh));
  }
  if (check) {
    PetscCount padded;
    PetscCall(CheckReduction(m.name, (PetscCount)m.ncells * m.nel * m.nel, slot, nnz, bs, tpb, &padded));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  checked\n"));
  }
#undef TIME
#undef HASH
  PetscCall(PetscWarpRedHostDestroy(&red));
  PetscCall(PetscFree(coff));
  PetscCall(PetscFree(cells));
  PetscCall(PetscFree(slot));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscFree(colidx));
  PetscCall(MeshDestroy(&m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt       seed  = -1;
  PetscBool      bench = PETSC_FALSE, skip;
  Rng            rng;
  PetscLogDouble now;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-device_plans", &devplans, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bench", &bench, NULL));
  if (seed < 0) {
    PetscCall(PetscTime(&now));
    seed = (PetscInt)(Mix((unsigned long long)time(NULL) ^ (unsigned long long)(now * 1e6)) % 1000000007ULL);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "seed %" PetscInt_FMT " (rerun with -seed %" PetscInt_FMT ")\n", seed, seed));
  rng.s = (unsigned long long)seed;
  if (bench) PetscCall(Bench(&rng));
  else {
    struct {
      PetscInt  dim, n[3], k, nc;
      PetscBool dirichlet, permute;
    } tensor[] = {
      {2, {13, 9, 1}, 1, 1, PETSC_TRUE,  PETSC_FALSE},
      {2, {11, 7, 1}, 1, 1, PETSC_TRUE,  PETSC_TRUE },
      {2, {7, 6, 1},  2, 2, PETSC_TRUE,  PETSC_FALSE},
      {2, {6, 5, 1},  2, 1, PETSC_FALSE, PETSC_TRUE },
      {3, {5, 4, 6},  1, 1, PETSC_TRUE,  PETSC_FALSE},
      {3, {4, 4, 4},  1, 3, PETSC_TRUE,  PETSC_TRUE },
      {3, {3, 2, 3},  2, 1, PETSC_TRUE,  PETSC_FALSE},
    };
    for (size_t q = 0; q < PETSC_STATIC_ARRAY_LENGTH(tensor); q++) {
      Mesh m;
      PetscCall(MeshTensor(tensor[q].dim, tensor[q].n, tensor[q].k, tensor[q].nc, tensor[q].dirichlet, tensor[q].permute, &rng, &m));
      PetscCall(TestMesh(&m, &rng));
      PetscCall(MeshDestroy(&m));
    }
    {
      Mesh m;
      PetscCall(MeshRandom(500, 300, 6, 3, 0, PETSC_FALSE, &rng, &m));
      PetscCall(TestMesh(&m, &rng));
      PetscCall(MeshDestroy(&m));
      PetscCall(MeshRandom(800, 400, 5, 4, 0, PETSC_TRUE, &rng, &m));
      PetscCall(TestMesh(&m, &rng));
      PetscCall(MeshDestroy(&m));
      PetscCall(MeshRandom(3000, 1500, 4, 3, 600, PETSC_FALSE, &rng, &m));
      PetscCall(TestMesh(&m, &rng));
      PetscCall(MeshDestroy(&m));
    }
    PetscCall(TestRetry(&rng));
    PetscCall(TestEmpty());
    PetscCall(TestErrors(&rng));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "all assembly plan checks passed\n"));
  }
  PetscCall(PetscFinalize());
  return 0;
}
