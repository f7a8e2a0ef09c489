/*
  Assembly plans (see include/petscwarp/private/warpasmplan.h): the symbolic work done once per (mesh, dof layout,
  target matrix) on the host, producing the arrays of the kernels of warpasmkernels.h. The methods are those of Cecka,
  Lew and Darve (element coloring; reduction lists packed per thread block by LPT into column-major arrays; shared
  assembly by non-zero over row partitions whose element sets fit in shared memory, with scatter arrays for the vertex
  coordinates).

  Everything is O(number of element entries): counting sorts and bucket passes, no comparison sort of all entries, no
  allocation per entry. Lists are built in increasing source order, so that a reduction adds in a fixed order and the
  results are bitwise reproducible.
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpasmlpt.h>
#include <petscbt.h>
#include <metis.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#if defined(__linux__)
  #include <sys/mman.h>
  #include <unistd.h>
#endif

/*
  Large plan arrays (hundreds of MB on a 500k-row mesh) are first written in a random order; with 4 KiB pages, the page
  faults (one per 4 KiB, each clearing its page) cost as much as the plan's own work. Transparent huge pages where the
  kernel offers them on request (madvise mode) make it one fault per 2 MiB. A hint: failures are ignored. Also used on
  PETSc's own CSR arrays of a matrix whose pattern petscwarp fills (aijpattern.c: 0.63 -> 0.12 s for the 62.7 M entries
  of Q2 elasticity on the 2-core CI machine) and on the downloaded device pattern.
*/
void PetscWarpHugePages_Private(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const long pg = sysconf(_SC_PAGESIZE);

  if (p && pg > 0 && bytes >= ((size_t)4 << 20)) {
    const uintptr_t s = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1), e = ((uintptr_t)p + bytes) & ~((uintptr_t)pg - 1);

    if (e > s) (void)madvise((void *)s, (size_t)(e - s), MADV_HUGEPAGE);
  }
#else
  (void)p;
  (void)bytes;
#endif
}

/* n ints for a large plan array, before their first write; zeroed with zero */
static PetscErrorCode PlanIntAlloc(PetscCount n, PetscBool zero, int **a)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(PetscMax(n, 1), a));
  PetscWarpHugePages_Private(*a, sizeof(int) * (size_t)PetscMax(n, 1));
  if (zero) PetscCall(PetscArrayzero(*a, PetscMax(n, 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every index of e2d is below nrows (used as a row) and below ncols (used as a column; ncols < 0: not checked) */
/* The error for entry k of the element map, an index not below nrows (a row) or ncols (a column) */
PetscErrorCode PetscWarpPlanMapIndexError_Private(PetscInt nrows, PetscInt ncols, PetscInt nel, const PetscInt e2d[], PetscCount k)
{
  const PetscInt c = (PetscInt)(k / nel), i = (PetscInt)(k % nel);

  PetscFunctionBegin;
  PetscCheck(e2d[k] < nrows, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscInt_FMT ", element dof %" PetscInt_FMT ": row index %" PetscInt_FMT " is not below the number of rows %" PetscInt_FMT, c, i, e2d[k], nrows);
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscInt_FMT ", element dof %" PetscInt_FMT ": column index %" PetscInt_FMT " is not below the number of columns %" PetscInt_FMT, c, i, e2d[k], ncols);
}

/* The error for element entry src, missing from the matrix's pattern */
PetscErrorCode PetscWarpPlanMissingEntryError_Private(PetscInt nel, const PetscInt e2d[], PetscCount src)
{
  const PetscInt c = (PetscInt)(src / (nel * nel)), i = (PetscInt)(src / nel % nel), j = (PetscInt)(src % nel);

  PetscFunctionBegin;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Entry (%" PetscInt_FMT ", %" PetscInt_FMT ") of cell %" PetscInt_FMT " (row %" PetscInt_FMT ", column %" PetscInt_FMT ") is not in the matrix's nonzero pattern: a plan used with another matrix?", i, j, c, e2d[c * nel + i], e2d[c * nel + j]);
}

static PetscErrorCode CheckE2D(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[])
{
  const PetscInt   lim = ncols < 0 ? nrows : PetscMin(nrows, ncols);
  const PetscCount n   = (PetscCount)ncells * nel;

  PetscFunctionBegin;
  PetscCheck(nrows >= 0 && ncells >= 0 && nel >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size: %" PetscInt_FMT " rows, %" PetscInt_FMT " cells, %" PetscInt_FMT " dofs per cell", nrows, ncells, nel);
  PetscCheck(!n || e2d, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No element-to-dof map for %" PetscInt_FMT " cells", ncells);
  for (PetscCount k = 0; k < n; k++) {
    if (PetscUnlikely(e2d[k] >= lim)) PetscCall(PetscWarpPlanMapIndexError_Private(nrows, ncols, nel, e2d, k));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Row -> cells adjacency of the non-dropped entries of e2d by a counting sort: the list of row r is adj[ptr[r] ..
  ptr[r+1]), in increasing cell order. With occ, the entries are the element dofs c*nel + i (every occurrence);
  without, the cells c, each listed once per row even when it repeats the row's dof.
*/
static PetscErrorCode RowAdjacency(PetscInt nrows, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool occ, PetscCount **ptr_, int **adj_)
{
  PetscCount *ptr, *cur;
  int        *adj;
  PetscBool   dup = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck((PetscCount)ncells * (occ ? nel : 1) < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Assembly plans use 32-bit cell indices: %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs are too many", ncells, nel);
  PetscCall(PetscCalloc1(nrows + 1, &ptr));
  for (PetscCount k = 0; k < (PetscCount)ncells * nel; k++)
    if (e2d[k] >= 0) ptr[e2d[k] + 1]++;
  for (PetscInt r = 0; r < nrows; r++) ptr[r + 1] += ptr[r];
  PetscCall(PetscMalloc1(nrows, &cur));
  PetscCall(PetscArraycpy(cur, ptr, nrows));
  PetscCall(PlanIntAlloc(ptr[nrows], PETSC_FALSE, &adj));
  for (PetscInt c = 0; c < ncells; c++) {
    const PetscInt *ed = e2d + (PetscCount)c * nel;

    for (PetscInt i = 0; i < nel; i++) {
      const PetscInt r = ed[i];

      if (r < 0) continue;
      if (occ) adj[cur[r]++] = (int)(c * nel + i);
      else if (cur[r] > ptr[r] && adj[cur[r] - 1] == (int)c) dup = PETSC_TRUE; /* a dof repeated in the cell */
      else adj[cur[r]++] = (int)c;
    }
  }
  if (dup) { /* close the gaps the repeated dofs left */
    PetscCount n = 0;

    for (PetscInt r = 0; r < nrows; r++) {
      const PetscCount s = ptr[r], e = cur[r];

      ptr[r] = n;
      for (PetscCount k = s; k < e; k++) adj[n++] = adj[k];
    }
    ptr[nrows] = n;
  }
  PetscCall(PetscFree(cur));
  *ptr_ = ptr;
  *adj_ = adj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanPattern(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool adddiag, PetscInt **rowptr, PetscInt **colidx)
{
  const PetscInt nmin = PetscMin(nrows, ncols);
  PetscCount    *rp, n = 0, cap;
  int           *rc;
  PetscInt      *ptr, *col, *tmp, *mark;
  PetscBool      big = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(ncols >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative number of columns %" PetscInt_FMT, ncols);
  PetscCall(CheckE2D(nrows, ncols, ncells, nel, e2d));
  PetscCall(RowAdjacency(nrows, ncells, nel, e2d, PETSC_FALSE, &rp, &rc));
  /* every index is below nmin: the pattern lives in the leading nmin x nmin block and is symmetric */
  cap = PetscMax(rp[nrows] * nel / 2 + nrows, 16); /* grown when needed; the exact count comes out of the pass */
  PetscCall(PetscMalloc1(nrows + 1, &ptr));
  PetscCall(PetscMalloc1(PetscMax(nmin, 1), &mark));
  PetscCall(PetscMalloc1(cap, &tmp));
  for (PetscInt c = 0; c < nmin; c++) mark[c] = -1;
  ptr[0] = 0;
  /* the unique columns of each row, through a marker */
  for (PetscInt r = 0; r < nrows; r++) {
    const PetscCount need = (rp[r + 1] - rp[r]) * nel + 1;

    if (n + need > cap) {
      cap = PetscMax(n + need, cap + cap / 2);
      PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)cap, &tmp));
    }
    for (PetscCount k = rp[r]; k < rp[r + 1]; k++) {
      const PetscInt *ed = e2d + (PetscCount)rc[k] * nel;

      for (PetscInt j = 0; j < nel; j++) {
        const PetscInt cj = ed[j];

        if (cj >= 0 && mark[cj] != r) {
          mark[cj] = r;
          tmp[n++] = cj;
        }
      }
    }
    if (adddiag && r < nmin && mark[r] != r) {
      mark[r]  = r;
      tmp[n++] = r;
    }
    if (n > PETSC_INT_MAX) {
      big = PETSC_TRUE;
      break;
    }
    ptr[r + 1] = (PetscInt)n;
  }
  PetscCall(PetscFree(rp));
  PetscCall(PetscFree(rc));
  if (big) {
    PetscCall(PetscFree(ptr));
    PetscCall(PetscFree(mark));
    PetscCall(PetscFree(tmp));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The pattern has more than %" PetscInt_FMT " entries: configure PETSc with 64-bit indices", PETSC_INT_MAX);
  }
  /* sorted rows without a sort: the transpose of a symmetric pattern, taking the rows in increasing order */
  PetscCall(PetscMalloc1(PetscMax(n, 1), &col));
  for (PetscInt c = 0; c < nmin; c++) mark[c] = ptr[c];
  for (PetscInt r = 0; r < nrows; r++)
    for (PetscInt k = ptr[r]; k < ptr[r + 1]; k++) col[mark[tmp[k]]++] = r;
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree(tmp));
  *rowptr = ptr;
  *colidx = col;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanSlots(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **slot_)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpPlanSlotsMapped(nrows, ncols, rowptr, colidx, NULL, ncells, nel, e2d, slot_));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanSlotsMapped(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **slot_)
{
  const PetscCount nsrc = (PetscCount)ncells * nel * nel;
  PetscCount      *rp, nnz;
  int             *ro, *slot, *pos;
  PetscInt         badrow = -1, badk = -1;
  PetscCount       missing = -1;

  PetscFunctionBegin;
  PetscCheck(nrows >= 0 && ncols >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size %" PetscInt_FMT " x %" PetscInt_FMT, nrows, ncols);
  nnz = nrows ? rowptr[nrows] : 0;
  PetscCheck(nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Slots are 32-bit: the pattern has %" PetscCount_FMT " entries", nnz);
  PetscCheck(nsrc < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Element entries are numbered in 32 bits: %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs have %" PetscCount_FMT, ncells, nel, nsrc);
  PetscCall(CheckE2D(nrows, ncols, ncells, nel, e2d));
  PetscCall(RowAdjacency(nrows, ncells, nel, e2d, PETSC_TRUE, &rp, &ro));
  PetscCall(PlanIntAlloc(nsrc, PETSC_FALSE, &slot));
  PetscCall(PetscMalloc1(PetscMax(ncols, 1), &pos));
  for (PetscInt c = 0; c < ncols; c++) pos[c] = -1;
  for (PetscCount o = 0; o < (PetscCount)ncells * nel; o++)
    if (e2d[o] < 0)
      for (PetscInt j = 0; j < nel; j++) slot[o * nel + j] = -1;
  /* row by row: the row's CSR positions scattered by column, then every element row of that dof looks its columns up */
  for (PetscInt r = 0; r < nrows && missing < 0 && badrow < 0; r++) {
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++) {
      if (PetscUnlikely(colidx[k] < 0 || colidx[k] >= ncols)) {
        badrow = r;
        badk   = k;
        break;
      }
      pos[colidx[k]] = pos2slot ? pos2slot[k] : (int)k;
    }
    for (PetscCount q = rp[r]; q < rp[r + 1] && missing < 0 && badrow < 0; q++) {
      const PetscCount o  = ro[q];
      const PetscInt  *ed = e2d + (o / nel) * nel;
      int             *s  = slot + o * nel;

      for (PetscInt j = 0; j < nel; j++) {
        const PetscInt cj = ed[j];

        s[j] = cj >= 0 ? pos[cj] : -1;
        if (PetscUnlikely(cj >= 0 && s[j] < 0)) {
          missing = o * nel + j;
          break;
        }
      }
    }
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1] && k != badk; k++) pos[colidx[k]] = -1;
  }
  PetscCall(PetscFree(rp));
  PetscCall(PetscFree(ro));
  PetscCall(PetscFree(pos));
  if (badrow >= 0 || missing >= 0) PetscCall(PetscFree(slot));
  PetscCheck(badrow < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row %" PetscInt_FMT " of the pattern has column %" PetscInt_FMT " outside 0..%" PetscInt_FMT, badrow, badk >= 0 ? colidx[badk] : -1, ncols - 1);
  if (missing >= 0) PetscCall(PetscWarpPlanMissingEntryError_Private(nel, e2d, missing));
  *slot_ = slot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanRemap(PetscCount n, int slot[], const int pos2slot[])
{
  PetscFunctionBegin;
  PetscCheck(!n || (slot && pos2slot), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Missing slot or map");
  for (PetscCount k = 0; k < n; k++) slot[k] = slot[k] >= 0 ? pos2slot[slot[k]] : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanHasRepeatedSlots(PetscInt ncells, PetscInt nel, const int slot[], PetscBool *repeated)
{
  const PetscInt   nn   = nel * nel;
  const PetscCount nsrc = (PetscCount)ncells * nn;
  int              maxs = -1, *stamp;

  PetscFunctionBegin;
  *repeated = PETSC_FALSE;
  PetscCheck(ncells < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many cells %" PetscInt_FMT, ncells);
  for (PetscCount k = 0; k < nsrc; k++) maxs = PetscMax(maxs, slot[k]);
  if (maxs < 0) PetscFunctionReturn(PETSC_SUCCESS);
  /* stamp[s] = the last cell that used slot s: exact for any slot array, one pass */
  PetscCall(PetscMalloc1((size_t)maxs + 1, &stamp));
  for (int s = 0; s <= maxs; s++) stamp[s] = -1;
  for (PetscInt c = 0; c < ncells && !*repeated; c++) {
    const int *sc = slot + (PetscCount)c * nn;

    for (PetscInt k = 0; k < nn; k++) {
      const int s = sc[k];

      if (s < 0) continue;
      if (stamp[s] == (int)c) {
        *repeated = PETSC_TRUE;
        break;
      }
      stamp[s] = (int)c;
    }
  }
  PetscCall(PetscFree(stamp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanHasRepeatedDofs(PetscInt nrows, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool *repeated)
{
  int *stamp;

  PetscFunctionBegin;
  *repeated = PETSC_FALSE;
  PetscCheck(ncells < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many cells %" PetscInt_FMT, ncells);
  PetscCall(CheckE2D(nrows, -1, ncells, nel, e2d));
  PetscCall(PetscMalloc1(PetscMax(nrows, 1), &stamp));
  for (PetscInt r = 0; r < nrows; r++) stamp[r] = -1;
  for (PetscInt c = 0; c < ncells && !*repeated; c++) {
    const PetscInt *ed = e2d + (PetscCount)c * nel;

    for (PetscInt i = 0; i < nel; i++) {
      if (ed[i] < 0) continue;
      if (stamp[ed[i]] == (int)c) {
        *repeated = PETSC_TRUE;
        break;
      }
      stamp[ed[i]] = (int)c;
    }
  }
  PetscCall(PetscFree(stamp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanColor(PetscInt nrows, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt *ncolors, int **coff_, int **cells_)
{
  PetscCount *rp;
  int        *rc, *color, *forbid, *used, *coff, *cells;
  PetscInt    nc = 0, cap = 64;

  PetscFunctionBegin;
  PetscCall(CheckE2D(nrows, -1, ncells, nel, e2d));
  PetscCall(RowAdjacency(nrows, ncells, nel, e2d, PETSC_FALSE, &rp, &rc));
  PetscCall(PetscMalloc1(PetscMax(ncells, 1), &color));
  PetscCall(PetscMalloc2(cap, &forbid, cap, &used));
  for (PetscInt c = 0; c < ncells; c++) {
    const PetscInt *ed   = e2d + (PetscCount)c * nel;
    PetscInt        best = -1;

    /* the colors of the neighbours colored before (cells d < c, first in each row's increasing list) */
    for (PetscInt i = 0; i < nel; i++) {
      if (ed[i] < 0) continue;
      for (PetscCount k = rp[ed[i]]; k < rp[ed[i] + 1] && rc[k] < c; k++) forbid[color[rc[k]]] = (int)c;
    }
    for (PetscInt k = 0; k < nc; k++)
      if (forbid[k] != (int)c && (best < 0 || used[k] < used[best])) best = k;
    if (best < 0) {
      if (nc == cap) {
        int *f, *u;

        PetscCall(PetscMalloc2(2 * cap, &f, 2 * cap, &u));
        PetscCall(PetscArraycpy(f, forbid, cap));
        PetscCall(PetscArraycpy(u, used, cap));
        PetscCall(PetscFree2(forbid, used));
        forbid = f;
        used   = u;
        cap *= 2;
      }
      best         = nc++;
      forbid[best] = -1;
      used[best]   = 0;
    }
    color[c] = (int)best;
    used[best]++;
  }
  PetscCall(PetscFree(rp));
  PetscCall(PetscFree(rc));
  /* cells grouped by color, increasing within a color */
  PetscCall(PetscCalloc1(nc + 1, &coff));
  PetscCall(PetscMalloc1(PetscMax(ncells, 1), &cells));
  for (PetscInt k = 0; k < nc; k++) coff[k + 1] = coff[k] + used[k];
  for (PetscInt k = 0; k < nc; k++) used[k] = coff[k];
  for (PetscInt c = 0; c < ncells; c++) cells[used[color[c]]++] = (int)c;
  PetscCall(PetscFree2(forbid, used));
  PetscCall(PetscFree(color));
  *ncolors = nc;
  *coff_   = coff;
  *cells_  = cells;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Packing of lists into column-major arrays, one thread block at a time, by LPT (warpasmlpt.h: longest list first onto
  the least-loaded of the bs threads, through a bucket queue); the threads' columns are padded with 0 to the longest.
*/
typedef struct {
  PetscInt bs, nlist, nbuck;        /* threads per block; scratch sizes */
  int     *len, *order, *thr, *row; /* [nlist]: list lengths (input), then each list's thread and first row */
  int     *bhead, *btail;           /* [nbuck]: counts of the sort by length, then the load buckets */
  int     *next;                    /* [bs] */
} Lpt;

static PetscErrorCode LptCreate(PetscInt bs, Lpt *lpt)
{
  PetscFunctionBegin;
  PetscCheck(bs >= 1 && bs < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Threads per block %" PetscInt_FMT " must be positive", bs);
  PetscCall(PetscMemzero(lpt, sizeof(*lpt)));
  lpt->bs = bs;
  PetscCall(PetscMalloc1(bs, &lpt->next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LptDestroy(Lpt *lpt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(lpt->len, lpt->order, lpt->thr, lpt->row));
  PetscCall(PetscFree2(lpt->bhead, lpt->btail));
  PetscCall(PetscFree(lpt->next));
  lpt->nlist = lpt->nbuck = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room for n lists in len[] */
static PetscErrorCode LptReserve(Lpt *lpt, PetscInt n)
{
  PetscFunctionBegin;
  if (n > lpt->nlist) {
    PetscCall(PetscFree4(lpt->len, lpt->order, lpt->thr, lpt->row));
    lpt->nlist = PetscMax(n, 2 * lpt->nlist);
    PetscCall(PetscMalloc4(lpt->nlist, &lpt->len, lpt->nlist, &lpt->order, lpt->nlist, &lpt->thr, lpt->nlist, &lpt->row));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The assignment depends only on the list lengths in sorted order, that is on the histogram of the lengths: blocks of
  the same histogram (many, on a mesh whose rows repeat a few patterns) get the same threads and rows by sorted
  position. A memo of the last assignments, direct-mapped by a hash of the histogram, gives them without the queue.
*/
#define LPT_MEMO 1024
typedef struct {
  PetscInt n, maxlen, height, cap; /* cap: room in thr[], row[] and hist[] */
  int     *hist, *thr, *row;       /* hist[maxlen+1] (counts by maxlen - length), thr[n], row[n] by sorted position */
} LptMemoEntry;

typedef struct {
  LptMemoEntry e[LPT_MEMO];
} LptMemo;

static PetscErrorCode LptMemoDestroy(LptMemo *memo)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < LPT_MEMO; k++) PetscCall(PetscFree3(memo->e[k].hist, memo->e[k].thr, memo->e[k].row));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LPT assignment of the n lists of lengths len[] to the threads: thr[l], row[l]; the block's height (longest column).
   With memo (or NULL), blocks of a histogram seen before take the assignment from it. */
static PetscErrorCode LptAssign(Lpt *lpt, PetscInt n, LptMemo *memo, PetscInt *height)
{
  const PetscInt bs     = lpt->bs;
  PetscInt       maxlen = 0, nbk;
  PetscCount     total  = 0;
  int           *len = lpt->len, *order = lpt->order;
  LptMemoEntry  *me  = NULL;
  PetscBool      hit = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt l = 0; l < n; l++) {
    maxlen = PetscMax(maxlen, len[l]);
    total += len[l];
  }
  PetscCheck(total < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "A block's lists have %" PetscCount_FMT " entries, more than 32-bit offsets allow", total);
  nbk = (PetscInt)PwaLptBuckets((int)n, (int)bs, (long long)total, (int)maxlen);
  if (nbk > lpt->nbuck) {
    PetscCall(PetscFree2(lpt->bhead, lpt->btail));
    lpt->nbuck = PetscMax(nbk, 2 * lpt->nbuck);
    PetscCall(PetscMalloc2(lpt->nbuck, &lpt->bhead, lpt->nbuck, &lpt->btail));
  }
  /* longest first, stable: a counting sort by length */
  PwaLptHist((int)n, len, (int)maxlen, lpt->bhead);
  if (memo && n > bs) {
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)n;

    h = (h ^ (uint64_t)maxlen) * 0x100000001b3ULL;
    for (PetscInt k = 0; k <= maxlen; k++) h = (h ^ (uint64_t)(unsigned)lpt->bhead[k]) * 0x100000001b3ULL;
    me  = &memo->e[(h ^ (h >> 29)) % LPT_MEMO];
    hit = (PetscBool)(me->hist && me->n == n && me->maxlen == maxlen && !memcmp(me->hist, lpt->bhead, sizeof(int) * (size_t)(maxlen + 1)));
    if (!hit) { /* this block's assignment replaces the entry's */
      if (PetscMax(n, maxlen + 1) > me->cap) {
        PetscCall(PetscFree3(me->hist, me->thr, me->row));
        me->cap = PetscMax(n, maxlen + 1);
        PetscCall(PetscMalloc3(me->cap, &me->hist, me->cap, &me->thr, me->cap, &me->row));
      }
      me->n      = -1; /* valid once filled */
      me->maxlen = maxlen;
      PetscCall(PetscArraycpy(me->hist, lpt->bhead, maxlen + 1));
    }
  }
  PwaLptOrder((int)n, len, (int)maxlen, lpt->bhead, order);
  *height = 0;
  if (hit) {
    for (PetscInt k = 0; k < n; k++) {
      lpt->thr[order[k]] = me->thr[k];
      lpt->row[order[k]] = me->row[k];
    }
    *height = me->height;
  } else {
    const int h = PwaLptQueue((int)n, (int)bs, (int)maxlen, (int)nbk, len, order, lpt->bhead, lpt->btail, lpt->next, lpt->thr, lpt->row);

    *height = h;
    if (me) {
      for (PetscInt k = 0; k < n; k++) {
        me->thr[k] = lpt->thr[order[k]];
        me->row[k] = lpt->row[order[k]];
      }
      me->height = h;
      me->n      = n;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A packed array written block after block from lists given as a CSR (lptr, lent), each optionally with a head entry
   head[l] before and a tail entry tail[l] after its entries */
typedef struct {
  Lpt        lpt;
  LptMemo   *memo;        /* assignments of the histograms seen last */
  PetscInt   nblocks, nb; /* blocks expected; blocks written */
  int       *off, *ent;
  PetscCount cap; /* ints allocated in ent */
} Packer;

static PetscErrorCode PackerCreate(PetscInt bs, PetscInt nblocks, PetscCount capguess, Packer *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(LptCreate(bs, &p->lpt));
  PetscCall(PetscCalloc1(1, &p->memo));
  p->nblocks = nblocks;
  p->cap     = PetscMax(PetscMin(capguess, (PetscCount)INT_MAX), 1);
  PetscCall(PetscMalloc1(nblocks + 1, &p->off));
  PetscCall(PlanIntAlloc(p->cap, PETSC_FALSE, &p->ent));
  p->off[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PackerDestroy(Packer *p)
{
  PetscFunctionBegin;
  PetscCall(LptDestroy(&p->lpt));
  if (p->memo) PetscCall(LptMemoDestroy(p->memo));
  PetscCall(PetscFree(p->memo));
  PetscCall(PetscFree(p->off));
  PetscCall(PetscFree(p->ent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Hand the arrays over to red (shrunk to their size) */
static PetscErrorCode PackerFinish(Packer *p, PetscWarpRedHost *red)
{
  const PetscCount used = p->off[p->nb];

  PetscFunctionBegin;
  PetscCheck(p->nb == p->nblocks, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Packed %" PetscInt_FMT " blocks, expected %" PetscInt_FMT, p->nb, p->nblocks);
  if (used < p->cap) PetscCall(PetscRealloc(sizeof(int) * (size_t)PetscMax(used, 1), &p->ent));
  red->nblocks = p->nb;
  red->bs      = p->lpt.bs;
  red->off     = p->off;
  red->ent     = p->ent;
  p->off       = NULL;
  p->ent       = NULL;
  PetscCall(PackerDestroy(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PackerBlock(Packer *p, PetscInt n, const int lptr[], const int lent[], const int head[], const int tail[])
{
  const PetscInt bs = p->lpt.bs, extra = (head ? 1 : 0) + (tail ? 1 : 0);
  PetscInt       height;
  PetscCount     base = p->off[p->nb], size;
  int           *e;

  PetscFunctionBegin;
  PetscCheck(p->nb < p->nblocks, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More blocks than the %" PetscInt_FMT " expected", p->nblocks);
  PetscCall(LptReserve(&p->lpt, n));
  for (PetscInt l = 0; l < n; l++) p->lpt.len[l] = lptr[l + 1] - lptr[l] + (int)extra;
  PetscCall(LptAssign(&p->lpt, n, getenv("NOMEMO") ? NULL : p->memo, &height));
  size = (PetscCount)height * bs;
  PetscCheck(base + size < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "The packed array needs more than 2^31 entries; use fewer threads per block or more MPI ranks");
  if (base + size > p->cap) {
    p->cap = PetscMin(PetscMax(base + size, p->cap + p->cap / 2), (PetscCount)INT_MAX);
    PetscCall(PetscRealloc(sizeof(int) * (size_t)p->cap, &p->ent));
  }
  e = p->ent + base;
  PetscCall(PetscArrayzero(e, size));
  for (PetscInt l = 0; l < n; l++) {
    PetscCount idx = (PetscCount)p->lpt.row[l] * bs + p->lpt.thr[l];

    if (head) {
      e[idx] = head[l];
      idx += bs;
    }
    for (int q = lptr[l]; q < lptr[l + 1]; q++, idx += bs) e[idx] = lent[q];
    if (tail) e[idx] = tail[l];
  }
  p->off[++p->nb] = (int)(base + size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The reduction array without the lists in memory: the LPT assignment depends only on the list lengths, so the
  counts per target give every list its place (ReductionPlace()); then the sources are written at their target's next
  place in increasing order, and the end entries close the lists (ReductionClose()).
*/

/* pos[t]: on entry the sources of target t, on exit the place of its first entry; off[] and ent[] (zeroed) allocated;
   pos is freed on error */
static PetscErrorCode ReductionPlace(PetscInt ntargets, PetscInt bs, PetscInt tpb, int pos[], PetscWarpRedHost *red)
{
  const PetscInt nblocks = (ntargets + tpb - 1) / tpb;
  int           *off;
  Lpt            lpt;
  LptMemo       *memo;

  PetscFunctionBegin;
  /* one block per tpb consecutive targets: the place of each list (pos[t]: its first entry) */
  PetscCall(PetscMalloc1(nblocks + 1, &off));
  PetscCall(LptCreate(bs, &lpt));
  PetscCall(LptReserve(&lpt, PetscMin(tpb, ntargets)));
  PetscCall(PetscCalloc1(1, &memo));
  off[0] = 0;
  for (PetscInt b = 0; b < nblocks; b++) {
    const PetscInt t0 = b * tpb, n = PetscMin(tpb, ntargets - t0);
    PetscInt       height;

    for (PetscInt l = 0; l < n; l++) lpt.len[l] = pos[t0 + l] + 1;
    PetscCall(LptAssign(&lpt, n, memo, &height));
    if ((PetscCount)off[b] + (PetscCount)height * bs >= INT_MAX) {
      PetscCall(LptMemoDestroy(memo));
      PetscCall(PetscFree(memo));
      PetscCall(PetscFree(off));
      PetscCall(PetscFree(pos)); /* the caller's */
      PetscCall(LptDestroy(&lpt));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The reduction array needs more than 2^31 entries; use more MPI ranks");
    }
    for (PetscInt l = 0; l < n; l++) pos[t0 + l] = off[b] + lpt.row[l] * (int)bs + lpt.thr[l];
    off[b + 1] = off[b] + (int)(height * bs);
  }
  PetscCall(LptMemoDestroy(memo));
  PetscCall(PetscFree(memo));
  PetscCall(LptDestroy(&lpt));
  red->nblocks = nblocks;
  red->bs      = bs;
  red->off     = off;
  /* the padding stays 0 */
  PetscCall(PlanIntAlloc(off[nblocks], PETSC_TRUE, &red->ent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sources ahead whose targets are prefetched in the passes over the slots */
#define RED_AHEAD 32
#if defined(__GNUC__) || defined(__clang__)
  #define PlanPrefetch(a) __builtin_prefetch((a), 1, 3)
#else
  #define PlanPrefetch(a) (void)(a)
#endif

/* Sources per target into pos[] (allocated here); an error for a slot not below ntargets */
static PetscErrorCode ReductionCount(PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, int **pos_)
{
  int       *pos = NULL;
  PetscCount bad = -1;

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && tpb >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Threads per block %" PetscInt_FMT " and targets per block %" PetscInt_FMT " must be positive", bs, tpb);
  PetscCheck(nsrc >= 0 && ntargets >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size");
  PetscCheck(nsrc < INT_MAX && ntargets < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Reduction arrays hold 32-bit indices: %" PetscCount_FMT " sources, %" PetscInt_FMT " targets are too many", nsrc, ntargets);
  PetscCheck(!nsrc || slot, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No slots");
  PetscCall(PlanIntAlloc(ntargets, PETSC_TRUE, &pos));
  for (PetscCount s = 0; s < nsrc; s++) {
    const int t = slot[s];

    if (t < 0) continue;
    if (PetscUnlikely(t >= ntargets)) {
      bad = s;
      break;
    }
    if (s + RED_AHEAD < nsrc) {
      const int ta = slot[s + RED_AHEAD];

      if (ta >= 0 && ta < ntargets) PlanPrefetch(&pos[ta]);
    }
    pos[t]++;
  }
  if (bad >= 0) PetscCall(PetscFree(pos));
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Source %" PetscCount_FMT " has slot %d, not below the number of targets %" PetscInt_FMT, bad, bad >= 0 ? slot[bad] : 0, ntargets);
  *pos_ = pos;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The end entries, after the sources: pos[t] is then the place after target t's last source */
static void ReductionClose(PetscInt ntargets, const int pos[], int ent[])
{
  for (PetscInt t = 0; t < ntargets; t++) ent[pos[t]] = -(int)(t + 1);
}

PetscErrorCode PetscWarpPlanReduction(PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscWarpRedHost *red)
{
  int *pos = NULL;

  PetscFunctionBegin;
  PetscCall(ReductionCount(nsrc, slot, ntargets, bs, tpb, &pos));
  PetscCall(ReductionPlace(ntargets, bs, tpb, pos, red));
  /* the sources in increasing order; the targets' counters and places fetched ahead (random accesses) */
  for (PetscCount s = 0; s < nsrc; s++) {
    const int t = slot[s];

    if (s + 2 * RED_AHEAD < nsrc && slot[s + 2 * RED_AHEAD] >= 0) PlanPrefetch(&pos[slot[s + 2 * RED_AHEAD]]);
    if (s + RED_AHEAD < nsrc && slot[s + RED_AHEAD] >= 0) PlanPrefetch(&red->ent[pos[slot[s + RED_AHEAD]]]);
    if (t >= 0) {
      red->ent[pos[t]] = (int)(s + 1);
      pos[t] += (int)bs;
    }
  }
  ReductionClose(ntargets, pos, red->ent);
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpRedHostDestroy(PetscWarpRedHost *red)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(red->off));
  PetscCall(PetscFree(red->ent));
  red->nblocks = red->bs = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpSharedHostDestroy(PetscWarpSharedHost *sh)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(sh->coff));
  PetscCall(PetscFree(sh->cells));
  PetscCall(PetscFree(sh->rblk));
  PetscCall(PetscWarpRedHostDestroy(&sh->scatter));
  PetscCall(PetscWarpRedHostDestroy(&sh->red));
  sh->nblocks = sh->bs = sh->maxcells = sh->nparts_tried = sh->nrows = 0;
  sh->redundancy                                                     = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscLogDouble PetscWarpRedHostBytes(const PetscWarpRedHost *red)
{
  if (!red->off) return 0;
  return (PetscLogDouble)sizeof(int) * ((PetscLogDouble)red->nblocks + 1 + (PetscLogDouble)red->off[red->nblocks]);
}

PetscLogDouble PetscWarpSharedHostBytes(const PetscWarpSharedHost *sh)
{
  PetscLogDouble b = PetscWarpRedHostBytes(&sh->scatter) + PetscWarpRedHostBytes(&sh->red);

  if (sh->coff) b += (PetscLogDouble)sizeof(int) * ((PetscLogDouble)sh->nblocks + 1 + (PetscLogDouble)sh->coff[sh->nblocks]);
  return b;
}

/* ------------------------------------------------ shared assembly by non-zero ------------------------------------------------ */

/*
  Rows grouped by part (rows of part k: prow[pptr[k] .. pptr[k+1]), increasing) and the size of each part's element
  set E_k (the cells with a dof row in the part); cstamp[ncells] is scratch
*/
static PetscErrorCode PartSets(PetscInt nrows, const int part[], PetscInt nparts, const PetscCount rp[], const int rc[], PetscInt ncells, int cstamp[], int pptr[], int prow[], int ecnt[], PetscInt *maxe, PetscCount *sume)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k <= nparts; k++) pptr[k] = 0;
  for (PetscInt r = 0; r < nrows; r++) pptr[part[r] + 1]++;
  for (PetscInt k = 0; k < nparts; k++) pptr[k + 1] += pptr[k];
  for (PetscInt r = 0; r < nrows; r++) prow[pptr[part[r]]++] = (int)r;
  for (PetscInt k = nparts; k > 0; k--) pptr[k] = pptr[k - 1];
  pptr[0] = 0;
  for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
  *maxe = 0;
  *sume = 0;
  for (PetscInt k = 0; k < nparts; k++) {
    int n = 0;

    for (int q = pptr[k]; q < pptr[k + 1]; q++) {
      const int r = prow[q];

      for (PetscCount m = rp[r]; m < rp[r + 1]; m++)
        if (cstamp[rc[m]] != (int)k) {
          cstamp[rc[m]] = (int)k;
          n++;
        }
    }
    ecnt[k] = n;
    *maxe   = PetscMax(*maxe, n);
    *sume += n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Consecutive row ranges, each as long as its element set fits: one pass (row r opens a new part when its new cells
   would overflow the current one) */
static void PartitionRanges(PetscInt nrows, const PetscCount rp[], const int rc[], PetscInt ncells, PetscInt maxcells, int cstamp[], int part[], PetscInt *nparts)
{
  int      k   = 0;
  PetscInt cnt = 0;

  for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
  for (PetscInt r = 0; r < nrows; r++) {
    PetscInt add = 0;

    for (PetscCount m = rp[r]; m < rp[r + 1]; m++) add += cstamp[rc[m]] != k;
    if (cnt + add > maxcells) {
      k++;
      cnt = 0;
      add = (PetscInt)(rp[r + 1] - rp[r]);
    }
    for (PetscCount m = rp[r]; m < rp[r + 1]; m++) cstamp[rc[m]] = k;
    cnt += add;
    part[r] = k;
  }
  *nparts = nrows ? k + 1 : 0;
}

/* Merge of the sorted column lists a (PetscInt, entries >= nrows skipped) and b, without r: count, and fill when out */
static inline PetscInt MergeRow(PetscInt r, PetscInt nrows, const PetscInt *a, PetscInt na, const int *b, PetscInt nb, idx_t *out)
{
  PetscInt i = 0, j = 0, n = 0;

  while (i < na && a[i] >= nrows) i++; /* no entry is below 0 (checked) */
  while (i < na || j < nb) {
    PetscInt v;

    if (j >= nb || (i < na && a[i] < b[j])) v = a[i++];
    else if (i >= na || b[j] < a[i]) v = b[j++];
    else {
      v = a[i++];
      j++;
    }
    while (i < na && a[i] >= nrows) i++;
    if (v == r) continue;
    if (out) out[n] = (idx_t)v;
    n++;
  }
  return n;
}

/* The symmetric adjacency graph of the pattern (A + A^T restricted to the rows, no self-loops), for METIS */
static PetscErrorCode BuildGraph(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], idx_t **xadj_, idx_t **adjncy_)
{
  PetscCount *tp, ne = 0;
  int        *tc;
  idx_t      *xadj, *adj;
  PetscInt    badrow = -1;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(nrows + 1, &tp));
  for (PetscInt r = 0; r < nrows && badrow < 0; r++)
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++) {
      const PetscInt c = colidx[k];

      if (c < 0 || (k > rowptr[r] && c <= colidx[k - 1])) {
        badrow = r;
        break;
      }
      if (c < nrows) tp[c + 1]++;
    }
  if (badrow >= 0) PetscCall(PetscFree(tp));
  PetscCheck(badrow < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Row %" PetscInt_FMT " of the pattern does not have sorted, unique, non-negative column indices", badrow);
  for (PetscInt r = 0; r < nrows; r++) tp[r + 1] += tp[r];
  PetscCall(PetscMalloc1(PetscMax(tp[nrows], 1), &tc));
  for (PetscInt r = 0; r < nrows; r++)
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++)
      if (colidx[k] < nrows) tc[tp[colidx[k]]++] = (int)r;
  for (PetscInt r = nrows; r > 0; r--) tp[r] = tp[r - 1];
  tp[0] = 0;
  PetscCall(PetscMalloc1(nrows + 1, &xadj));
  xadj[0] = 0;
  for (PetscInt r = 0; r < nrows; r++) {
    ne += MergeRow(r, nrows, colidx + rowptr[r], rowptr[r + 1] - rowptr[r], tc + tp[r], (PetscInt)(tp[r + 1] - tp[r]), NULL);
    if (ne > (PetscCount)IDX_MAX) break;
    xadj[r + 1] = (idx_t)ne;
  }
  if (ne > (PetscCount)IDX_MAX) {
    PetscCall(PetscFree(tp));
    PetscCall(PetscFree(tc));
    PetscCall(PetscFree(xadj));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The pattern's graph has too many edges for METIS's %d-bit indices", IDXTYPEWIDTH);
  }
  PetscCall(PetscMalloc1(PetscMax(ne, 1), &adj));
  for (PetscInt r = 0; r < nrows; r++) (void)MergeRow(r, nrows, colidx + rowptr[r], rowptr[r + 1] - rowptr[r], tc + tp[r], (PetscInt)(tp[r + 1] - tp[r]), adj + xadj[r]);
  PetscCall(PetscFree(tp));
  PetscCall(PetscFree(tc));
  *xadj_   = xadj;
  *adjncy_ = adj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Rows per part that fit, measured: grow a few graph balls (breadth-first from seeds spread through the numbering)
  row by row until their element set would overflow; the smallest ball. Returns nrows when a whole connected component
  fits.
*/
static PetscInt EstimateRowsPerPart(PetscInt nrows, const idx_t xadj[], const idx_t adj[], const PetscCount rp[], const int rc[], PetscInt ncells, PetscInt maxcells, int rstamp[], int cstamp[], int queue[])
{
  PetscInt best = nrows;

  for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
  for (PetscInt r = 0; r < nrows; r++) rstamp[r] = -1;
  for (int s = 0; s < 3; s++) {
    PetscInt  seed = (2 * s + 1) * nrows / 6, head = 0, tail = 0, rows = 0, cnt = 0;
    PetscBool full = PETSC_FALSE;

    for (PetscInt q = 0; q < nrows && rp[seed + 1] == rp[seed]; q++) seed = (seed + 1) % nrows; /* a row with cells */
    if (rp[seed + 1] == rp[seed]) break;                                                        /* no row has a cell */
    queue[tail++] = (int)seed;
    rstamp[seed]  = s;
    while (head < tail) {
      const int r   = queue[head++];
      PetscInt  add = 0;

      for (PetscCount m = rp[r]; m < rp[r + 1]; m++) add += cstamp[rc[m]] != s;
      if (cnt + add > maxcells) {
        full = PETSC_TRUE;
        break;
      }
      for (PetscCount m = rp[r]; m < rp[r + 1]; m++) cstamp[rc[m]] = s;
      cnt += add;
      rows++;
      for (idx_t k = xadj[r]; k < xadj[r + 1]; k++)
        if (rstamp[adj[k]] != s) {
          rstamp[adj[k]] = s;
          queue[tail++]  = (int)adj[k];
        }
    }
    if (full) best = PetscMin(best, PetscMax(rows, 1));
  }
  return best;
}

/*
  Split the rows R[0..nR) into balls that fit: from the first row not yet taken, breadth-first over the rows of R not
  yet taken, adding every row whose cells still fit (a row that does not is left for a later ball). Every row fits on
  its own, so this always ends. The balls get the part numbers *nextpart, *nextpart + 1, ...
  mark[] is -2 exactly on the rows of R not yet taken (set here), vis[] and cstamp[] hold stamps below *ballid.
*/
static void GrowBalls(PetscInt nR, const int R[], const idx_t xadj[], const idx_t adj[], const PetscCount rp[], const int rc[], PetscInt maxcells, int mark[], int vis[], int cstamp[], int queue[], int part[], PetscInt *nextpart, int *ballid)
{
  PetscInt first = 0;

  for (PetscInt q = 0; q < nR; q++) mark[R[q]] = -2;
  while (1) {
    const int b    = (*ballid)++;
    PetscInt  head = 0, tail = 0, cnt = 0;

    while (first < nR && mark[R[first]] != -2) first++;
    if (first == nR) break;
    queue[tail++] = R[first];
    vis[R[first]] = b;
    while (head < tail) {
      const int r   = queue[head++];
      PetscInt  add = 0;

      for (PetscCount m = rp[r]; m < rp[r + 1]; m++) add += cstamp[rc[m]] != b;
      if (cnt + add > maxcells) continue;
      for (PetscCount m = rp[r]; m < rp[r + 1]; m++) cstamp[rc[m]] = b;
      cnt += add;
      mark[r] = -1;
      part[r] = (int)*nextpart;
      for (idx_t k = xadj[r]; k < xadj[r + 1]; k++)
        if (mark[adj[k]] == -2 && vis[adj[k]] != b) {
          vis[adj[k]]   = b;
          queue[tail++] = (int)adj[k];
        }
    }
    (*nextpart)++;
  }
}

/*
  Balls over all rows (PETSCWARP_SHAREDNZ_BALLS): GrowBalls() from row 0 over the pattern's graph. Linear in the
  pattern (each ball visits its rows and their neighbours once), no METIS: a block is a breadth-first ball of mesh
  neighbours, as round as the numbering-independent graph distance makes it.
*/
static PetscErrorCode PartitionBalls(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], const PetscCount rp[], const int rc[], PetscInt ncells, PetscInt maxcells, int cstamp[], int part[], PetscInt *nparts)
{
  idx_t    *xadj = NULL, *adj = NULL;
  int      *R, *mark, *vis, *queue, ballid = 0;
  PetscBool direct = PETSC_FALSE;

  PetscFunctionBegin;
#if IDXTYPEWIDTH == 32 && !defined(PETSC_USE_64BIT_INDICES)
  /* a square pattern serves as the graph itself: its rows list the neighbours in increasing order, as BuildGraph()'s
     symmetrised graph does for a symmetric pattern (the diagonal entry, the row itself, is never queued again), so the
     balls are the same there without building the graph; for a pattern that is not symmetric they still fit */
  direct = PETSC_TRUE;
  for (PetscInt r = 0; r < nrows && direct; r++)
    for (PetscInt k = rowptr[r]; k < rowptr[r + 1]; k++)
      if (colidx[k] < 0 || colidx[k] >= nrows || (k > rowptr[r] && colidx[k] <= colidx[k - 1])) {
        direct = PETSC_FALSE;
        break;
      }
  if (direct) {
    xadj = (idx_t *)rowptr;
    adj  = (idx_t *)colidx;
  }
#endif
  if (!direct) PetscCall(BuildGraph(nrows, rowptr, colidx, &xadj, &adj));
  PetscCall(PetscMalloc4(nrows, &R, nrows, &mark, nrows, &vis, nrows, &queue));
  for (PetscInt r = 0; r < nrows; r++) {
    R[r]   = (int)r;
    vis[r] = -1;
  }
  for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
  *nparts = 0;
  GrowBalls(nrows, R, xadj, adj, rp, rc, maxcells, mark, vis, cstamp, queue, part, nparts, &ballid);
  PetscCall(PetscFree4(R, mark, vis, queue));
  if (!direct) {
    PetscCall(PetscFree(xadj));
    PetscCall(PetscFree(adj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Rows with the same cells (the components of a node, interlaced or not) make one vertex of METIS's graph, weighted by
  their number: the partition never separates them (which would put their cells into two element sets) and the graph
  is smaller (9 times fewer edges with 3 components). grp[r] is the group of row r; groups are found by hashing the
  rows' cell lists.
*/
static PetscErrorCode RowGroups(PetscInt nrows, const PetscCount rp[], const int rc[], int grp[], PetscInt *ngrp)
{
  size_t   hsize = 1;
  int     *table;
  PetscInt ng = 0;

  PetscFunctionBegin;
  while (hsize < 2 * (size_t)nrows) hsize *= 2;
  PetscCall(PetscMalloc1(hsize, &table));
  for (size_t h = 0; h < hsize; h++) table[h] = -1;
  for (PetscInt r = 0; r < nrows; r++) {
    const PetscCount n = rp[r + 1] - rp[r];
    uint64_t         h = (uint64_t)n;
    size_t           q;

    grp[r] = -1;
    for (PetscCount m = rp[r]; m < rp[r + 1]; m++) {
      h = (h ^ (uint64_t)rc[m]) * 0x9e3779b97f4a7c15ULL;
      h ^= h >> 29;
    }
    for (q = (size_t)h & (hsize - 1); n && table[q] >= 0; q = (q + 1) & (hsize - 1)) {
      const int o = table[q];

      if (rp[o + 1] - rp[o] == n && !memcmp(rc + rp[o], rc + rp[r], sizeof(int) * (size_t)n)) {
        grp[r] = grp[o];
        break;
      }
    }
    if (grp[r] < 0) { /* a new group (rows in no cell: each its own) */
      if (n) table[q] = (int)r;
      grp[r] = (int)ng++;
    }
  }
  PetscCall(PetscFree(table));
  *ngrp = ng;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The graph of the groups (vertex weights: their rows) from the graph of the rows */
static PetscErrorCode GroupGraph(PetscInt nrows, const idx_t xadj[], const idx_t adj[], const int grp[], PetscInt ng, idx_t **gxadj_, idx_t **gadj_, idx_t **vwgt_)
{
  int       *gptr, *gmem, *mark;
  idx_t     *gxadj, *gadj, *vwgt;
  PetscCount ne = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(ng + 1, &gptr));
  PetscCall(PetscMalloc2(PetscMax(nrows, 1), &gmem, ng, &mark));
  PetscCall(PetscMalloc2(ng + 1, &gxadj, ng, &vwgt));
  for (PetscInt r = 0; r < nrows; r++) gptr[grp[r] + 1]++;
  for (PetscInt g = 0; g < ng; g++) {
    vwgt[g] = (idx_t)gptr[g + 1];
    gptr[g + 1] += gptr[g];
  }
  for (PetscInt r = 0; r < nrows; r++) gmem[gptr[grp[r]]++] = (int)r;
  for (PetscInt g = ng; g > 0; g--) gptr[g] = gptr[g - 1];
  gptr[0] = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (PetscInt g = 0; g < ng; g++) mark[g] = -1;
    ne = 0;
    if (pass) gxadj[0] = 0;
    for (PetscInt g = 0; g < ng; g++) {
      for (int q = gptr[g]; q < gptr[g + 1]; q++)
        for (idx_t k = xadj[gmem[q]]; k < xadj[gmem[q] + 1]; k++) {
          const int h = grp[adj[k]];

          if (h != (int)g && mark[h] != (int)g) {
            mark[h] = (int)g;
            if (pass) gadj[ne] = (idx_t)h;
            ne++;
          }
        }
      if (pass) gxadj[g + 1] = (idx_t)ne;
    }
    if (!pass) PetscCall(PetscMalloc1(PetscMax(ne, 1), &gadj)); /* no more edges than the rows' graph: fits idx_t */
  }
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree2(gmem, mark));
  *gxadj_ = gxadj;
  *gadj_  = gadj;
  *vwgt_  = vwgt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* METIS partition of the graph induced by the vertices V[0..nV) of (xadj, adj, vwgt) into m parts: vpart[V[q]] =
   first + its part; loc[] is -1 on entry and exit */
static PetscErrorCode SplitMetis(PetscInt nV, const int V[], const idx_t xadj[], const idx_t adj[], const idx_t vwgt[], PetscInt m, idx_t opts[], int loc[], int vpart[], PetscInt first, int *status)
{
  idx_t     *sx, *sa, *sw = NULL, *sp, nv = (idx_t)nV, ncon = 1, np = (idx_t)m, objval;
  PetscCount ne = 0;

  PetscFunctionBegin;
  for (PetscInt q = 0; q < nV; q++) loc[V[q]] = (int)q;
  for (PetscInt q = 0; q < nV; q++)
    for (idx_t k = xadj[V[q]]; k < xadj[V[q] + 1]; k++) ne += loc[adj[k]] >= 0;
  PetscCall(PetscMalloc3(nV + 1, &sx, PetscMax(ne, 1), &sa, nV, &sp));
  if (vwgt) PetscCall(PetscMalloc1(nV, &sw));
  sx[0] = 0;
  ne    = 0;
  for (PetscInt q = 0; q < nV; q++) {
    for (idx_t k = xadj[V[q]]; k < xadj[V[q] + 1]; k++)
      if (loc[adj[k]] >= 0) sa[ne++] = (idx_t)loc[adj[k]];
    sx[q + 1] = (idx_t)ne;
    if (sw) sw[q] = vwgt[V[q]];
  }
  *status = METIS_PartGraphKway(&nv, &ncon, sx, sa, sw, NULL, NULL, &np, NULL, NULL, opts, &objval, sp);
  for (PetscInt q = 0; q < nV; q++) {
    vpart[V[q]] = (int)(first + (*status == METIS_OK ? sp[q] : 0));
    loc[V[q]]   = -1;
  }
  PetscCall(PetscFree3(sx, sa, sp));
  PetscCall(PetscFree(sw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define SHAREDNZ_MAXTRIES 4

/*
  METIS partition of the rows into parts whose element sets fit. The rows with the same cells are one weighted vertex
  (RowGroups()). The number of parts comes from the rows per part measured on graph balls; while many parts overflow
  (more than a third), a new partition with more parts (at most SHAREDNZ_MAXTRIES partitions). The parts that still
  overflow are then split by METIS on their own graph, and what overflows after that into balls that fit
  (GrowBalls()), so that this ends with a partition that fits whenever every row fits on its own.
*/
static PetscErrorCode PartitionMetis(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], const PetscCount rp[], const int rc[], PetscInt ncells, PetscInt maxcells, int cstamp[], int part[], PetscInt *nparts_, PetscInt *ntries)
{
  idx_t     *xadj = NULL, *adj = NULL, *gxadj = NULL, *gadj = NULL, *vwgt = NULL, *mpart, opts[METIS_NOPTIONS];
  int       *pptr = NULL, *prow, *ecnt = NULL, *queue, *mark, *grp, *gp, *gptr, *glist;
  PetscInt   nparts, rpp, ng = 0, maxe = 0, nover = 0;
  PetscCount sume;
  int        status = METIS_OK;

  PetscFunctionBegin;
  *ntries = 0;
  PetscCall(BuildGraph(nrows, rowptr, colidx, &xadj, &adj));
  PetscCall(PetscMalloc4(nrows, &prow, nrows, &mark, nrows, &grp, nrows, &gp));
  PetscCall(PetscMalloc2(nrows, &mpart, nrows, &queue));
  PetscCall(RowGroups(nrows, rp, rc, grp, &ng));
  if (ng < nrows) PetscCall(GroupGraph(nrows, xadj, adj, grp, ng, &gxadj, &gadj, &vwgt));
  else {
    gxadj = xadj;
    gadj  = adj;
  }
  rpp = EstimateRowsPerPart(nrows, xadj, adj, rp, rc, ncells, maxcells, prow, cstamp, queue);
  /* METIS's parts are less round than balls: 0.8 of their rows; at least 4 vertices a part, below which METIS complains
     (on stdout) and the balls of the last resort do better */
  nparts = rpp >= nrows ? 1 : PetscMax(1, PetscMin(ng / 4, (PetscInt)PetscCeilReal((PetscReal)nrows / (0.8 * (PetscReal)rpp))));
  METIS_SetDefaultOptions(opts);
  opts[METIS_OPTION_NUMBERING] = 0;
  opts[METIS_OPTION_SEED]      = 4321; /* reproducible */
  for (PetscInt t = 0; t < SHAREDNZ_MAXTRIES; t++) {
    PetscReal ratio, grow;

    (*ntries)++;
    if (nparts > 1) {
      idx_t nv = (idx_t)ng, ncon = 1, np = (idx_t)nparts, objval;

      status = METIS_PartGraphKway(&nv, &ncon, gxadj, gadj, vwgt, NULL, NULL, &np, NULL, NULL, opts, &objval, mpart);
      if (status != METIS_OK) break;
      for (PetscInt g = 0; g < ng; g++) gp[g] = (int)mpart[g];
    } else
      for (PetscInt g = 0; g < ng; g++) gp[g] = 0;
    for (PetscInt r = 0; r < nrows; r++) part[r] = gp[grp[r]];
    PetscCall(PetscFree2(pptr, ecnt));
    PetscCall(PetscMalloc2(nparts + 1, &pptr, nparts, &ecnt));
    PetscCall(PartSets(nrows, part, nparts, rp, rc, ncells, cstamp, pptr, prow, ecnt, &maxe, &sume));
    nover = 0;
    for (PetscInt k = 0; k < nparts; k++) nover += ecnt[k] > maxcells;
    PetscCall(PetscInfo(NULL, "sharednz: METIS partition %" PetscInt_FMT " of %" PetscInt_FMT " rows (%" PetscInt_FMT " groups) into %" PetscInt_FMT " parts (%" PetscInt_FMT " rows per part estimated): largest element set %" PetscInt_FMT " cells of %" PetscInt_FMT " allowed, %" PetscInt_FMT " parts too large\n", t + 1, nrows, ng, nparts, rpp, maxe, maxcells, nover));
    if (!nover || t == SHAREDNZ_MAXTRIES - 1 || 3 * nover <= nparts || nparts >= ng / 4) break;
    /* many parts too large: more parts; element sets shrink more slowly than the parts, so more than the ratio, and
       at least 10% more */
    ratio  = (PetscReal)maxe / (PetscReal)maxcells;
    grow   = PetscMax((PetscReal)1.1, (PetscReal)1.02 * PetscPowReal(ratio, (PetscReal)1.25));
    nparts = PetscMin(ng / 4, (PetscInt)PetscCeilReal(grow * (PetscReal)nparts));
  }
  if (status == METIS_OK && nover) { /* split the parts too large with METIS on their groups */
    PetscInt nnew = nparts;

    PetscCall(PetscCalloc1(nparts + 1, &gptr));
    PetscCall(PetscMalloc1(ng, &glist));
    for (PetscInt g = 0; g < ng; g++) gptr[gp[g] + 1]++;
    for (PetscInt k = 0; k < nparts; k++) gptr[k + 1] += gptr[k];
    for (PetscInt g = 0; g < ng; g++) glist[gptr[gp[g]]++] = (int)g;
    for (PetscInt k = nparts; k > 0; k--) gptr[k] = gptr[k - 1];
    gptr[0] = 0;
    for (PetscInt g = 0; g < ng; g++) mark[g] = -1;
    for (PetscInt k = 0; k < nparts && status == METIS_OK; k++) {
      const PetscInt nk = gptr[k + 1] - gptr[k], m = PetscMin(nk / 4, (PetscInt)PetscCeilReal((PetscReal)1.15 * (PetscReal)ecnt[k] / (PetscReal)maxcells));

      if (ecnt[k] <= maxcells || m < 2) continue;
      PetscCall(SplitMetis(nk, glist + gptr[k], gxadj, gadj, vwgt, m, opts, mark, gp, nnew, &status));
      nnew += m;
    }
    PetscCall(PetscFree(gptr));
    PetscCall(PetscFree(glist));
    if (nnew > nparts) PetscCall(PetscInfo(NULL, "sharednz: %" PetscInt_FMT " parts too large, some split by METIS into %" PetscInt_FMT "\n", nover, nnew - nparts));
    nparts = nnew;
    for (PetscInt r = 0; r < nrows; r++) part[r] = gp[grp[r]];
    PetscCall(PetscFree2(pptr, ecnt));
    PetscCall(PetscMalloc2(nparts + 1, &pptr, nparts, &ecnt));
    PetscCall(PartSets(nrows, part, nparts, rp, rc, ncells, cstamp, pptr, prow, ecnt, &maxe, &sume));
    nover = 0;
    for (PetscInt k = 0; k < nparts; k++) nover += ecnt[k] > maxcells;
  }
  if (status == METIS_OK && nover) { /* the last resort: balls */
    PetscInt nnew   = nparts;
    int      ballid = 0, *vis = grp; /* grp is no longer needed */

    for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
    for (PetscInt r = 0; r < nrows; r++) mark[r] = vis[r] = -1;
    for (PetscInt k = 0; k < nparts; k++)
      if (ecnt[k] > maxcells) GrowBalls(pptr[k + 1] - pptr[k], prow + pptr[k], xadj, adj, rp, rc, maxcells, mark, vis, cstamp, queue, part, &nnew, &ballid);
    PetscCall(PetscInfo(NULL, "sharednz: %" PetscInt_FMT " parts too large split into %" PetscInt_FMT " balls\n", nover, nnew - nparts));
    nparts = nnew;
  }
  *nparts_ = nparts;
  PetscCall(PetscFree2(pptr, ecnt));
  PetscCall(PetscFree4(prow, mark, grp, gp));
  PetscCall(PetscFree2(mpart, queue));
  if (gxadj != xadj) {
    PetscCall(PetscFree2(gxadj, vwgt));
    PetscCall(PetscFree(gadj));
  }
  PetscCall(PetscFree(xadj));
  PetscCall(PetscFree(adj));
  PetscCheck(status == METIS_OK, PETSC_COMM_SELF, PETSC_ERR_LIB, "METIS_PartGraphKway() failed with status %d", status);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanSharedNZ(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt ncv, const int cv[], const int slot[], PetscInt maxcells, PetscInt bs, PetscWarpSharedNZPartitioner partitioner, PetscWarpSharedHost *sh)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpPlanSharedNZLimit(nrows, rowptr, colidx, ncells, nel, e2d, ncv, cv, slot, maxcells, bs, partitioner, PETSC_MAX_REAL, sh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanSharedNZLimit(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt ncv, const int cv[], const int slot[], PetscInt maxcells, PetscInt bs, PetscWarpSharedNZPartitioner partitioner, PetscReal maxred, PetscWarpSharedHost *sh)
{
  const PetscInt   nn = nel * nel, mc = PetscMin(maxcells, PetscMax(ncells, 1));
  const PetscCount nsrc = (PetscCount)ncells * nn;
  PetscCount      *rp, sume;
  int             *rc, *part, *cstamp, *pptr, *prow, *ecnt, *vloc, *coff, *cells, *blk, *rblk;
  PetscInt         nparts = 0, ntries = 1, maxrow = 0, rowmax = -1, nverts = 0, maxe, nblocks = 0;
  Packer           ps;
  /* per-part scratch */
  PetscInt *E;
  int      *vlist, *vptr, *vent, *vhead;

  PetscFunctionBegin;
  PetscCheck(partitioner >= PETSCWARP_SHAREDNZ_BALLS && partitioner <= PETSCWARP_SHAREDNZ_RANGES, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown partitioner %d", (int)partitioner);
  PetscCheck(maxcells >= 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "Not a single cell fits in a block's shared memory (maxcells %" PetscInt_FMT ")", maxcells);
  PetscCheck(bs >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Threads per block %" PetscInt_FMT " must be positive", bs);
  PetscCheck(ncv >= 0 && (!ncv || !ncells || cv), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No cell-to-vertex map (%" PetscInt_FMT " vertices per cell)", ncv);
  PetscCheck(nsrc < INT_MAX && (PetscCount)ncells * ncv < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Element entries are numbered in 32 bits: %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs are too many", ncells, nel);
  PetscCheck((PetscCount)mc * nn < INT_MAX && (PetscCount)mc * ncv < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt_FMT " cells of %" PetscInt_FMT " dofs per block overflow 32-bit shared-memory indices", mc, nel);
  PetscCall(CheckE2D(nrows, -1, ncells, nel, e2d));
  for (PetscCount k = 0; k < (PetscCount)ncells * ncv; k++) {
    PetscCheck(cv[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscCount_FMT " has a negative vertex %d", k / ncv, cv[k]);
    nverts = PetscMax(nverts, (PetscInt)cv[k] + 1);
  }
  PetscCall(PetscMemzero(sh, sizeof(*sh)));
  PetscCall(PetscWarpInitializePackage()); /* the log events */
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanPart, 0, 0, 0, 0));

  /* row -> cells, and the rows that cannot fit whatever the partition */
  PetscCall(RowAdjacency(nrows, ncells, nel, e2d, PETSC_FALSE, &rp, &rc));
  for (PetscInt r = 0; r < nrows; r++)
    if (rp[r + 1] - rp[r] > maxrow) {
      maxrow = (PetscInt)(rp[r + 1] - rp[r]);
      rowmax = r;
    }
  if (maxrow > maxcells) {
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(rc));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanPart, 0, 0, 0, 0));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Row %" PetscInt_FMT " is in %" PetscInt_FMT " cells, more than the %" PetscInt_FMT " that fit in a block", rowmax, maxrow, maxcells);
  }

  /* the partition */
  PetscCall(PetscMalloc2(nrows, &part, PetscMax(ncells, 1), &cstamp));
  if (nrows && ncells) {
    if (partitioner == PETSCWARP_SHAREDNZ_RANGES) PartitionRanges(nrows, rp, rc, ncells, maxcells, cstamp, part, &nparts);
    else {
      PetscErrorCode ierr = partitioner == PETSCWARP_SHAREDNZ_METIS ? PartitionMetis(nrows, rowptr, colidx, rp, rc, ncells, maxcells, cstamp, part, &nparts, &ntries) : PartitionBalls(nrows, rowptr, colidx, rp, rc, ncells, maxcells, cstamp, part, &nparts);

      if (ierr) { /* free, then pass the error on */
        PetscCall(PetscFree(rp));
        PetscCall(PetscFree(rc));
        PetscCall(PetscFree2(part, cstamp));
        PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanPart, 0, 0, 0, 0));
      }
      PetscCall(ierr);
    }
  } else { /* nothing to assemble: one part, no cell, no block */
    nparts = 1;
    for (PetscInt r = 0; r < nrows; r++) part[r] = 0;
  }
  PetscCall(PetscMalloc3(nparts + 1, &pptr, PetscMax(nrows, 1), &prow, PetscMax(nparts, 1), &ecnt));
  PetscCall(PartSets(nrows, part, nparts, rp, rc, ncells, cstamp, pptr, prow, ecnt, &maxe, &sume));
  PetscCheck(maxe <= maxcells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Partition with an element set of %" PetscInt_FMT " > %" PetscInt_FMT " cells", maxe, maxcells);
  for (PetscInt k = 0; k < nparts; k++) nblocks += ecnt[k] > 0;
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanPart, 0, 0, 0, 0));
  sh->nparts_tried = ntries;
  sh->redundancy   = ncells ? (PetscReal)sume / (PetscReal)ncells : 0;
  sh->nblocks      = nblocks;
  sh->maxcells     = maxe;
  if (sh->redundancy > maxred) { /* the caller assembles otherwise: no arrays */
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(rc));
    PetscCall(PetscFree2(part, cstamp));
    PetscCall(PetscFree3(pptr, prow, ecnt));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanBlocks, 0, 0, 0, 0));

  /* per part with cells (one thread block): element set, scatter array; the block of each row */
  PetscCall(PetscMalloc1(nblocks + 1, &coff));
  PetscCall(PetscMalloc1(PetscMax(sume, 1), &cells));
  PetscCall(PetscMalloc1(PetscMax(nrows, 1), &rblk));
  PetscCall(PetscMalloc2(PetscMax(nverts, 1), &vloc, PetscMax(nparts, 1), &blk));
  PetscCall(PetscMalloc5(PetscMax(maxe, 1), &E, (size_t)maxe * ncv + 1, &vlist, (size_t)maxe * ncv + 1, &vptr, (size_t)maxe * ncv + 1, &vent, (size_t)maxe * ncv + 1, &vhead));
  for (PetscInt c = 0; c < ncells; c++) cstamp[c] = -1;
  for (PetscInt v = 0; v < nverts; v++) vloc[v] = -1;
  PetscCall(PackerCreate(bs, nblocks, sume * ncv + sume + (PetscCount)nblocks * bs, &ps));
  coff[0] = 0;
  for (PetscInt k = 0, b = 0; k < nparts; k++) {
    PetscInt n = 0, nv = 0;

    blk[k] = ecnt[k] ? (int)b : -1;
    if (!ecnt[k]) continue; /* no rows, or rows in no cell */
    for (int q = pptr[k]; q < pptr[k + 1]; q++)
      for (PetscCount m = rp[prow[q]]; m < rp[prow[q] + 1]; m++)
        if (cstamp[rc[m]] != (int)k) {
          cstamp[rc[m]] = (int)k;
          E[n++]        = rc[m];
        }
    PetscCall(PetscSortInt(n, E));
    for (PetscInt lc = 0; lc < n; lc++) cells[coff[b] + lc] = (int)E[lc];
    coff[b + 1] = coff[b] + (int)n;
    /* scatter: vertex v+1, then -(lc*ncv + kv + 1) for each of its places, in increasing order */
    for (PetscInt lc = 0; lc < n; lc++)
      for (PetscInt kv = 0; kv < ncv; kv++) {
        const int v = cv[E[lc] * ncv + kv];

        if (vloc[v] < 0) {
          vloc[v]   = (int)nv;
          vlist[nv] = v;
          vptr[nv]  = 0;
          nv++;
        }
        vptr[vloc[v]]++;
      }
    for (PetscInt l = 0, s = 0; l <= nv; l++) {
      const int c = l < nv ? vptr[l] : 0;

      vptr[l] = (int)s;
      s += c;
    }
    for (PetscInt lc = 0; lc < n; lc++)
      for (PetscInt kv = 0; kv < ncv; kv++) vent[vptr[vloc[cv[E[lc] * ncv + kv]]]++] = -(int)(lc * ncv + kv + 1);
    for (PetscInt l = nv; l > 0; l--) vptr[l] = vptr[l - 1];
    vptr[0] = 0;
    for (PetscInt l = 0; l < nv; l++) {
      vhead[l]       = vlist[l] + 1;
      vloc[vlist[l]] = -1;
    }
    PetscCall(PackerBlock(&ps, nv, vptr, vent, vhead, NULL));
    b++;
  }
  for (PetscInt r = 0; r < nrows; r++) rblk[r] = blk[part[r]];
  PetscCall(PetscFree(rp));
  PetscCall(PetscFree(rc));
  PetscCall(PetscFree2(part, cstamp));
  PetscCall(PetscFree3(pptr, prow, ecnt));
  PetscCall(PetscFree2(vloc, blk));
  PetscCall(PetscFree5(E, vlist, vptr, vent, vhead));
  PetscCall(PackerFinish(&ps, &sh->scatter));
  sh->bs    = bs;
  sh->coff  = coff;
  sh->cells = cells;
  sh->rblk  = rblk;
  sh->nrows = nrows;
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanBlocks, 0, 0, 0, 0));
  if (slot) {
    PetscErrorCode ierr = PetscWarpPlanSharedNZReduction(ncells, nel, e2d, slot, sh);

    if (ierr) PetscCall(PetscWarpSharedHostDestroy(sh));
    PetscCall(ierr);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpPlanSharedNZReduction(PetscInt ncells, PetscInt nel, const PetscInt e2d[], const int slot[], PetscWarpSharedHost *sh)
{
  const PetscInt   nn = nel * nel, nblocks = sh->nblocks, maxe = sh->maxcells;
  const PetscCount nsrc = (PetscCount)ncells * nn;
  const int       *coff = sh->coff, *cells = sh->cells, *rblk = sh->rblk;
  PetscInt         ntgt = 0, clashtarget = -1;
  PetscBool        clash = PETSC_FALSE;
  PetscBT          claimed;
  Packer           pr;
  int             *tloc, *tglob, *tptr, *tent, *tail, *ptl, *psrc;

  PetscFunctionBegin;
  PetscCheck(!nsrc || slot, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No slots");
  PetscCheck(!nblocks || rblk, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The blocks have no row-to-block map, or their reduction array is built already");
  for (PetscCount s = 0; s < nsrc; s++) ntgt = PetscMax(ntgt, (PetscInt)slot[s] + 1);
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanBlocks, 0, 0, 0, 0));
  PetscCall(PetscMalloc1(PetscMax(ntgt, 1), &tloc));
  PetscCall(PetscBTCreate(ntgt, &claimed));
  PetscCall(PetscMalloc6((size_t)maxe * nn + 1, &tglob, (size_t)maxe * nn + 1, &tptr, (size_t)maxe * nn + 1, &tent, (size_t)maxe * nn + 1, &tail, (size_t)maxe * nn + 1, &ptl, (size_t)maxe * nn + 1, &psrc));
  for (PetscInt t = 0; t < ntgt; t++) tloc[t] = -1;
  PetscCall(PackerCreate(sh->bs, nblocks, nsrc + (nsrc ? ntgt : 0) + (PetscCount)nblocks * sh->bs, &pr));
  /* per block: the entries of its rows, grouped by target in increasing source order */
  for (PetscInt b = 0; b < nblocks && !clash; b++) {
    PetscInt nt = 0, ne = 0;

    for (PetscInt lc = 0; lc < coff[b + 1] - coff[b]; lc++) {
      const PetscInt c = cells[coff[b] + lc];

      for (PetscInt i = 0; i < nel; i++) {
        const PetscInt r  = e2d[c * nel + i];
        const int     *s  = slot + (PetscCount)(c * nel + i) * nel;
        const int      b0 = (int)(1 + lc * nn + i * nel);

        if (r < 0 || rblk[r] != (int)b) continue;
        for (PetscInt j = 0; j < nel; j++) {
          const int t = s[j];

          if (t < 0) continue;
          if (tloc[t] < 0) {
            tloc[t]   = (int)nt;
            tglob[nt] = t;
            tptr[nt]  = 0;
            nt++;
          }
          tptr[tloc[t]]++;
          ptl[ne]  = tloc[t];
          psrc[ne] = b0 + (int)j;
          ne++;
        }
      }
    }
    for (PetscInt l = 0, s = 0; l <= nt; l++) {
      const int c = l < nt ? tptr[l] : 0;

      tptr[l] = (int)s;
      s += c;
    }
    for (PetscInt q = 0; q < ne; q++) tent[tptr[ptl[q]]++] = psrc[q];
    for (PetscInt l = nt; l > 0; l--) tptr[l] = tptr[l - 1];
    tptr[0] = 0;
    for (PetscInt l = 0; l < nt; l++) {
      const int t = tglob[l];

      tail[l] = -(t + 1);
      tloc[t] = -1;
      if (PetscBTLookupSet(claimed, t)) { /* another block's rows reach this target too */
        clash       = PETSC_TRUE;
        clashtarget = t;
      }
    }
    PetscCall(PackerBlock(&pr, nt, tptr, tent, NULL, tail));
  }
  PetscCall(PetscFree(tloc));
  PetscCall(PetscBTDestroy(&claimed));
  PetscCall(PetscFree6(tglob, tptr, tent, tail, ptl, psrc));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanBlocks, 0, 0, 0, 0));
  if (clash) {
    PetscCall(PackerDestroy(&pr));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Target %" PetscInt_FMT " is reached from rows of two different parts: the slots do not give each row targets of its own", clashtarget);
  }
  PetscCall(PackerFinish(&pr, &sh->red));
  PetscCall(PetscFree(sh->rblk));
  PetscFunctionReturn(PETSC_SUCCESS);
}
