/*
  PetscWarpAsm: finite-element assembly on the device (or with the host twins of its kernels) into the values of a
  matrix, with the strategies of Cecka, Lew and Darve (sharednz, globalnz, color), atomics, and PETSc's COO path.
  The object holds the problem (element->dof map, vertex coordinates, reference tabulation, physics) and one plan for
  the last target matrix; kernels are in src/kernels/warpasm*, plans in warpasmplan.c, matrix access in warptarget.c.
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

const char *const PetscWarpAsmStrategies[]        = {"sharednz", "globalnz", "color", "atomic", "coo", "rownz", "PetscWarpAsmStrategy", "PETSCWARP_ASM_", NULL};
const char *const PetscWarpSharedNZPartitioners[] = {"balls", "metis", "ranges", "PetscWarpSharedNZPartitioner", "PETSCWARP_SHAREDNZ_", NULL};

#if PetscDefined(HAVE_CUDA)
static PetscErrorCode DFree(void *p)
{
  PetscFunctionBegin;
  if (p) PetscCallCUDA(cudaFree(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmUpload_Private(const void *h, size_t n, size_t sz, void **d)
{
  PetscFunctionBegin;
  *d = NULL;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMalloc(d, n * sz));
  PetscCallCUDA(cudaMemcpy(*d, h, n * sz, cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)(n * sz)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UploadRed(const PetscWarpRedHost *h, PetscWarpRed *d)
{
  PetscFunctionBegin;
  d->nblocks = (int)h->nblocks;
  d->bs      = (int)h->bs;
  PetscCall(PetscWarpAsmUpload_Private(h->off, (size_t)h->nblocks + 1, sizeof(int), (void **)&d->off));
  PetscCall(PetscWarpAsmUpload_Private(h->ent, h->off ? (size_t)h->off[h->nblocks] : 0, sizeof(int), (void **)&d->ent));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeRed(PetscWarpRed *d)
{
  PetscFunctionBegin;
  PetscCall(DFree((void *)d->off));
  PetscCall(DFree((void *)d->ent));
  d->off = d->ent = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

#if PetscDefined(HAVE_CUDA)
/* The reduction array from slots in device memory (hslot: the host's, for the message of a bad slot, or NULL) */
static PetscErrorCode ReductionFromDeviceSlots(PetscCount nsrc, const int *d_slot, const int hslot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscWarpRed *r, PetscCount *nent, PetscBool *built)
{
  int          status = PETSCWARP_REDPLAN_OK, v = 0;
  long long    n = 0, bad = -1;
  cudaStream_t st;

  PetscFunctionBegin;
  PetscCheck(bs >= 1 && tpb >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Threads per block %" PetscInt_FMT " and targets per block %" PetscInt_FMT " must be positive", bs, tpb);
  PetscCheck(nsrc >= 0 && ntargets >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size");
  PetscCheck(nsrc < INT_MAX && ntargets < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Reduction arrays hold 32-bit indices: %" PetscCount_FMT " sources, %" PetscInt_FMT " targets are too many", nsrc, ntargets);
  PetscCheck(!nsrc || d_slot, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No slots");
  *built = PETSC_FALSE;
  PetscCall(PetscGetCurrentCUDAStream(&st));
  PetscCallCUDA((cudaError_t)PetscWarpPlanReductionCUDA((long long)nsrc, d_slot, (int)ntargets, (int)bs, (int)tpb, r, &n, &status, &bad, st));
  if (status == PETSCWARP_REDPLAN_BAD_SLOT) {
    if (hslot) v = hslot[bad];
    else PetscCallCUDA(cudaMemcpy(&v, d_slot + bad, sizeof(int), cudaMemcpyDeviceToHost));
  }
  PetscCheck(status != PETSCWARP_REDPLAN_BAD_SLOT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Source %lld has slot %d, not below the number of targets %" PetscInt_FMT, bad, v, ntargets);
  PetscCheck(status != PETSCWARP_REDPLAN_TOO_MANY, PETSC_COMM_SELF, PETSC_ERR_SUP, "The reduction array needs more than 2^31 entries; use more MPI ranks");
  *built = (PetscBool)(status == PETSCWARP_REDPLAN_OK);
  *nent  = (PetscCount)n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Host copy of device memory, logged */
static PetscErrorCode Download(const void *d, size_t n, size_t sz, void *h)
{
  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMemcpy(h, d, n * sz, cudaMemcpyDeviceToHost));
  PetscCall(PetscLogGpuToCpu((PetscLogDouble)(n * sz)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A host copy of a packed array built on the device (nent entries) */
static PetscErrorCode DownloadRed(const PetscWarpRed *r, PetscCount nent, PetscWarpRedHost *h)
{
  PetscFunctionBegin;
  h->nblocks = r->nblocks;
  h->bs      = r->bs;
  PetscCall(PetscMalloc1(r->nblocks + 1, &h->off));
  PetscCall(PetscMalloc1(PetscMax(nent, 1), &h->ent));
  PetscCall(Download(r->off, (size_t)r->nblocks + 1, sizeof(int), h->off));
  PetscCall(Download(r->ent, (size_t)nent, sizeof(int), h->ent));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*@C
  PetscWarpPlanReductionDevice - Builds the packed reduction array of the `globalnz` strategy on the device: the arrays
  of `PetscWarpPlanReduction()`, bitwise, from the same slots

  Not Collective

  Input Parameters:
+ nsrc     - number of sources (element entries)
. slot     - host array: `slot[s]` the target of source `s`, negative when dropped
. ntargets - number of targets
. bs       - threads per block
- tpb      - targets per block

  Output Parameters:
+ d     - the device arrays (freed with `cudaFree()`), or `NULL` when only the host copy is wanted
. h     - a host copy (freed with `PetscWarpRedHostDestroy()`), or `NULL`
- built - `PETSC_FALSE` when a block's lists need more shared memory than the device has (nothing built: build on the
          host)

  Level: developer

  Notes:
  The slots are uploaded; the device counts the sources of every target, packs each block's lists onto its threads by
  the LPT code of the host plans (one CUDA block per reduction block, in shared memory), scans the blocks' heights and
  writes each source at its target's next place, each list sorted into increasing source order. On 0.5 M-row
  hexahedral plans the host's passes over the 13-103 M sources took 0.2-1.1 s on the GPU machine's host.

  Errors as `PetscWarpPlanReduction()`: `PETSC_ERR_ARG_OUTOFRANGE` for a slot not below `ntargets`, `PETSC_ERR_SUP` for
  an array of 2^31 entries or more, and `PETSC_ERR_SUP` in a build without CUDA.

.seealso: `PetscWarpPlanReduction()`, `PetscWarpPlanSlotsDevice()`, `PetscWarpAsmSetFromOptions()`
@*/
PetscErrorCode PetscWarpPlanReductionDevice(PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscWarpRed *d, PetscWarpRedHost *h, PetscBool *built)
{
#if PetscDefined(HAVE_CUDA)
  int           *d_slot = NULL;
  PetscCount     nent   = 0;
  PetscWarpRed   r;
  PetscErrorCode ierr;
#endif

  PetscFunctionBegin;
  PetscAssertPointer(built, 8);
  *built = PETSC_FALSE;
#if PetscDefined(HAVE_CUDA)
  PetscCheck(nsrc >= 0 && nsrc < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscCount_FMT " sources: not in 0 .. 2^31-1", nsrc);
  PetscCheck(!nsrc || slot, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No slots");
  PetscCall(PetscWarpAsmUpload_Private(slot, (size_t)nsrc, sizeof(int), (void **)&d_slot));
  ierr = ReductionFromDeviceSlots(nsrc, d_slot, slot, ntargets, bs, tpb, &r, &nent, built); /* the uploaded slots freed on error too */
  PetscCall(DFree(d_slot));
  PetscCall(ierr);
  if (!*built) PetscFunctionReturn(PETSC_SUCCESS);
  if (h) PetscCall(DownloadRed(&r, nent, h));
  if (d) *d = r;
  else PetscCall(FreeRed(&r));
#else
  (void)nsrc;
  (void)slot;
  (void)ntargets;
  (void)bs;
  (void)tpb;
  (void)d;
  (void)h;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PetscWarpPlanReductionDevice() needs petscwarp built with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscWarpPlanSharedNZReductionDevice - Builds the reduction array of the `sharednz` strategy on the device: the array
  of `PetscWarpPlanSharedNZReduction()`, bitwise, from device slots

  Not Collective

  Input Parameters:
+ ncells   - number of cells
. nel      - dofs per cell
. e2d      - host element map (`ncells` x `nel`, negative: dropped)
. slot     - host array: `slot[s]` the target of element entry `s`, negative when dropped; uploaded when `d_slot` is `NULL`
. d_slot   - the same slots in device memory, or `NULL`
. ntargets - number of targets (every slot is below it)
- sh       - blocks planned by `PetscWarpPlanSharedNZLimit()` with no slots (`sh->rblk` set)

  Output Parameters:
+ d     - the device arrays (freed with `cudaFree()`), or `NULL` when only the host copy is wanted
. h     - a host copy (freed with `PetscWarpRedHostDestroy()`), or `NULL`
. nent  - the entries of the packed array, or `NULL`
- built - `PETSC_FALSE` when the blocks' packing scratch would exceed 1 GB even in global memory (nothing built, `sh`
          unchanged: build on the host with `PetscWarpPlanSharedNZReduction()`)

  Level: developer

  Notes:
  One thread per element entry finds its block (the block of its row), its place in the block's element matrices
  (binary search in the block's sorted element set) and counts it for its target; the lists are ordered by block and
  first source (a radix sort of the targets), LPT-packed onto the block's threads by the host's code (one CUDA block per
  sharednz block, its scratch in shared memory, or in global memory for blocks of more lists than shared memory holds)
  and filled in increasing source order, as `PetscWarpPlanReductionDevice()` does for `globalnz`. On the
  H100 machine's host, this array took 0.3-0.5 s of a 0.5 M-row Q1 plan. `sh->rblk` is freed once the array is built.

  Errors: `PETSC_ERR_ARG_OUTOFRANGE` for a slot not below `ntargets`, `PETSC_ERR_ARG_INCOMP` for a target reached from
  the rows of two blocks, `PETSC_ERR_SUP` for an array of 2^31 entries or more or in a build without CUDA.

.seealso: `PetscWarpPlanSharedNZReduction()`, `PetscWarpPlanSharedNZLimit()`, `PetscWarpPlanReductionDevice()`
@*/
PetscErrorCode PetscWarpPlanSharedNZReductionDevice(PetscInt ncells, PetscInt nel, const PetscInt e2d[], const int slot[], const int *d_slot, PetscInt ntargets, PetscWarpSharedHost *sh, PetscWarpRed *d, PetscWarpRedHost *h, PetscCount *nent, PetscBool *built)
{
#if PetscDefined(HAVE_CUDA)
  const PetscCount nsrc  = (PetscCount)ncells * nel * nel;
  int             *d_e2d = NULL, *d_rblk = NULL, *d_coff = NULL, *d_cells = NULL, *d_up = NULL, status = PETSCWARP_REDPLAN_OK;
  long long        n = 0, bad = -1;
  PetscWarpRed     r;
  cudaStream_t     st;
  cudaError_t      cerr;
#endif

  PetscFunctionBegin;
  PetscAssertPointer(sh, 7);
  PetscAssertPointer(built, 11);
  *built = PETSC_FALSE;
  if (nent) *nent = 0;
#if PetscDefined(HAVE_CUDA)
  PetscCheck(nsrc < INT_MAX && ntargets >= 0 && ntargets < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Reduction arrays hold 32-bit indices: %" PetscCount_FMT " sources, %" PetscInt_FMT " targets are too many", nsrc, ntargets);
  PetscCheck(!nsrc || ((slot || d_slot) && e2d), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No slots or no element map");
  PetscCheck(!sh->nblocks || (sh->rblk && sh->coff), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The blocks have no row-to-block map, or their reduction array is built already");
  if (sizeof(PetscInt) != sizeof(int)) PetscFunctionReturn(PETSC_SUCCESS); /* the kernels read 32-bit indices */
  PetscCall(PetscGetCurrentCUDAStream(&st));
  if (!d_slot) PetscCall(PetscWarpAsmUpload_Private(slot, (size_t)nsrc, sizeof(int), (void **)&d_up));
  PetscCall(PetscWarpAsmUpload_Private(e2d, (size_t)(ncells * nel), sizeof(int), (void **)&d_e2d));
  PetscCall(PetscWarpAsmUpload_Private(sh->rblk, (size_t)sh->nrows, sizeof(int), (void **)&d_rblk));
  PetscCall(PetscWarpAsmUpload_Private(sh->coff, sh->coff ? (size_t)sh->nblocks + 1 : 0, sizeof(int), (void **)&d_coff));
  PetscCall(PetscWarpAsmUpload_Private(sh->cells, sh->coff ? (size_t)sh->coff[sh->nblocks] : 0, sizeof(int), (void **)&d_cells));
  cerr = (cudaError_t)PetscWarpPlanSharedNZReductionCUDA((int)ncells, (int)nel, d_e2d, d_slot ? d_slot : d_up, (int)ntargets, d_rblk, d_coff, d_cells, (int)sh->nblocks, (int)sh->bs, &r, &n, &status, &bad, st);
  PetscCall(DFree(d_e2d));
  PetscCall(DFree(d_rblk));
  PetscCall(DFree(d_coff));
  PetscCall(DFree(d_cells));
  PetscCall(DFree(d_up));
  PetscCallCUDA(cerr);
  PetscCheck(status != PETSCWARP_REDPLAN_BAD_SLOT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Element entry %lld has a slot not below the number of targets %" PetscInt_FMT, bad, ntargets);
  PetscCheck(status != PETSCWARP_REDPLAN_CLASH, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Target %lld is reached from rows of two different parts: the slots do not give each row targets of its own", bad);
  PetscCheck(status != PETSCWARP_REDPLAN_TOO_MANY, PETSC_COMM_SELF, PETSC_ERR_SUP, "The reduction array needs more than 2^31 entries; use more MPI ranks");
  if (status != PETSCWARP_REDPLAN_OK) PetscFunctionReturn(PETSC_SUCCESS);
  *built = PETSC_TRUE;
  if (nent) *nent = (PetscCount)n;
  if (h) PetscCall(DownloadRed(&r, n, h));
  if (d) *d = r;
  else PetscCall(FreeRed(&r));
  PetscCall(PetscFree(sh->rblk));
#else
  (void)ncells;
  (void)nel;
  (void)e2d;
  (void)slot;
  (void)d_slot;
  (void)ntargets;
  (void)d;
  (void)h;
  (void)nent;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PetscWarpPlanSharedNZReductionDevice() needs petscwarp built with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscWarpPlanSlotsDevice - Computes the slots of the element entries on the device: the array of
  `PetscWarpPlanSlotsMapped()`, bitwise, left in device memory

  Not Collective

  Input Parameters:
+ nrows    - rows of the pattern
. ncols    - columns of the pattern
. rowptr   - host CSR row offsets of the pattern
. colidx   - host CSR column indices (each row sorted)
. pos2slot - host map from CSR position to value slot, or `NULL` for the identity
. ncells   - number of cells
. nel      - dofs per cell
- e2d      - host element-to-dof map, `ncells*nel`, negative entries dropped

  Output Parameters:
+ d_slot - the slots in device memory (freed with `cudaFree()`), or `NULL` when only the host copy is wanted
. h_slot - a host copy (freed with `PetscFree()`), or `NULL`
- built  - `PETSC_FALSE` when the device cannot (64-bit `PetscInt`, a pattern row not sorted): use the host

  Level: developer

  Notes:
  The pattern, `pos2slot` and `e2d` are uploaded; one device thread per element entry finds its column in its row by
  binary search. Errors as `PetscWarpPlanSlotsMapped()`: `PETSC_ERR_ARG_OUTOFRANGE` for an index of `e2d` not below
  `nrows` or `ncols`, `PETSC_ERR_ARG_INCOMP` for an entry missing from the pattern (reported: the first in source
  order), `PETSC_ERR_SUP` without CUDA.

.seealso: `PetscWarpPlanSlotsMapped()`, `PetscWarpPlanReductionDevice()`, `PetscWarpAsmSetFromOptions()`
@*/
PetscErrorCode PetscWarpPlanSlotsDevice(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **d_slot, int **h_slot, PetscBool *built)
{
#if PetscDefined(HAVE_CUDA)
  const PetscCount nsrc = (PetscCount)ncells * nel * nel;
  PetscInt         nnz;
  int             *d_rp = NULL, *d_ci = NULL, *d_p2s = NULL, *d_e2d = NULL, *ds = NULL, status = PETSCWARP_PLANSLOTS_OK;
  long long        bad = -1;
  cudaStream_t     st;
  cudaError_t      cerr;
#endif

  PetscFunctionBegin;
  PetscAssertPointer(built, 11);
  *built = PETSC_FALSE;
  if (d_slot) *d_slot = NULL;
  if (h_slot) *h_slot = NULL;
#if PetscDefined(HAVE_CUDA)
  PetscCheck(nrows >= 0 && ncols >= 0 && ncells >= 0 && nel >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size");
  nnz = nrows ? rowptr[nrows] : 0;
  PetscCheck(nnz < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Slots are 32-bit: the pattern has %" PetscInt_FMT " entries", nnz);
  PetscCheck(nsrc < INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Element entries are numbered in 32 bits: %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs have %" PetscCount_FMT, ncells, nel, nsrc);
  PetscCheck(!nsrc || e2d, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No element-to-dof map for %" PetscInt_FMT " cells", ncells);
  if (sizeof(PetscInt) != sizeof(int)) PetscFunctionReturn(PETSC_SUCCESS); /* the kernels read 32-bit indices */
  PetscCall(PetscGetCurrentCUDAStream(&st));
  PetscCall(PetscWarpAsmUpload_Private(rowptr, (size_t)nrows + 1, sizeof(int), (void **)&d_rp));
  PetscCall(PetscWarpAsmUpload_Private(colidx, (size_t)nnz, sizeof(int), (void **)&d_ci));
  if (pos2slot) PetscCall(PetscWarpAsmUpload_Private(pos2slot, (size_t)nnz, sizeof(int), (void **)&d_p2s));
  PetscCall(PetscWarpAsmUpload_Private(e2d, (size_t)(ncells * nel), sizeof(int), (void **)&d_e2d));
  cerr = cudaMalloc((void **)&ds, sizeof(int) * (size_t)PetscMax(nsrc, 1));
  if (cerr == cudaSuccess) cerr = (cudaError_t)PetscWarpPlanSlotsCUDA((int)nrows, (int)ncols, d_rp, d_ci, d_p2s, (int)ncells, (int)nel, d_e2d, ds, &status, &bad, st);
  PetscCall(DFree(d_rp));
  PetscCall(DFree(d_ci));
  PetscCall(DFree(d_p2s));
  PetscCall(DFree(d_e2d));
  if (cerr != cudaSuccess || status != PETSCWARP_PLANSLOTS_OK) PetscCall(DFree(ds));
  PetscCallCUDA(cerr);
  if (status == PETSCWARP_PLANSLOTS_BAD_INDEX) PetscCall(PetscWarpPlanMapIndexError_Private(nrows, ncols, nel, e2d, bad));
  if (status == PETSCWARP_PLANSLOTS_MISSING) PetscCall(PetscWarpPlanMissingEntryError_Private(nel, e2d, bad));
  if (status == PETSCWARP_PLANSLOTS_UNSORTED) PetscFunctionReturn(PETSC_SUCCESS);
  *built = PETSC_TRUE;
  if (h_slot) {
    PetscCall(PetscMalloc1(PetscMax(nsrc, 1), h_slot));
    PetscCall(Download(ds, (size_t)nsrc, sizeof(int), *h_slot));
  }
  if (d_slot) *d_slot = ds;
  else PetscCall(DFree(ds));
#else
  (void)nrows;
  (void)ncols;
  (void)rowptr;
  (void)colidx;
  (void)pos2slot;
  (void)ncells;
  (void)nel;
  (void)e2d;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PetscWarpPlanSlotsDevice() needs petscwarp built with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscWarpPlanPatternDevice(), the device arrays kept in *d_rowptr, *d_colidx when those are not NULL */
static PetscErrorCode PatternDevice(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool adddiag, PetscInt **rowptr, PetscInt **colidx, int **d_rowptr, int **d_colidx, PetscBool *built)
{
#if PetscDefined(HAVE_CUDA)
  int         *d_e2d = NULL, *d_rp = NULL, *d_ci = NULL, status = PETSCWARP_PLANSLOTS_OK;
  long long    nnz = 0, bad = -1;
  cudaStream_t st;
  cudaError_t  cerr;
#endif

  PetscFunctionBegin;
  PetscAssertPointer(built, 9);
  *built  = PETSC_FALSE;
  *rowptr = NULL;
  *colidx = NULL;
  if (d_rowptr) *d_rowptr = NULL;
  if (d_colidx) *d_colidx = NULL;
#if PetscDefined(HAVE_CUDA)
  PetscCheck(nrows >= 0 && ncols >= 0 && ncells >= 0 && nel >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative size: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs", nrows, ncols, ncells, nel);
  PetscCheck(!ncells || !nel || e2d, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "No element-to-dof map for %" PetscInt_FMT " cells", ncells);
  PetscCheck((PetscCount)ncells * nel * nel < PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt_FMT " cells of %" PetscInt_FMT " dofs: too many element entries for 32-bit plans", ncells, nel);
  if (sizeof(PetscInt) != sizeof(int)) PetscFunctionReturn(PETSC_SUCCESS); /* the kernels read 32-bit indices */
  PetscCall(PetscGetCurrentCUDAStream(&st));
  PetscCall(PetscWarpAsmUpload_Private(e2d, (size_t)(ncells * nel), sizeof(int), (void **)&d_e2d));
  cerr = (cudaError_t)PetscWarpPlanPatternCUDA((int)nrows, (int)ncols, (int)ncells, (int)nel, d_e2d, adddiag ? 1 : 0, &d_rp, &d_ci, &nnz, &status, &bad, st);
  PetscCall(DFree(d_e2d));
  if (cerr == cudaErrorMemoryAllocation) { /* too big for the device now: the host does it */
    (void)cudaGetLastError();
    PetscCall(PetscInfo(NULL, "Symbolic pattern: not enough device memory for %" PetscCount_FMT " keys: computed on the host\n", (PetscCount)ncells * nel * nel));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(cerr);
  if (status == PETSCWARP_PLANSLOTS_BAD_INDEX) PetscCall(PetscWarpPlanMapIndexError_Private(nrows, ncols, nel, e2d, bad));
  PetscCheck(status != PETSCWARP_PLANSLOTS_TOO_MANY, PETSC_COMM_SELF, PETSC_ERR_SUP, "The pattern has more than %" PetscInt_FMT " entries: configure PETSc with 64-bit indices", PETSC_INT_MAX);
  PetscCall(PetscMalloc1(nrows + 1, rowptr));
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), colidx));
  PetscWarpHugePages_Private(*colidx, sizeof(PetscInt) * (size_t)nnz);
  cerr = cudaMemcpy(*rowptr, d_rp, sizeof(int) * ((size_t)nrows + 1), cudaMemcpyDeviceToHost);
  if (cerr == cudaSuccess) cerr = cudaMemcpy(*colidx, d_ci, sizeof(int) * (size_t)nnz, cudaMemcpyDeviceToHost);
  if (cerr == cudaSuccess && d_rowptr && d_colidx) {
    *d_rowptr = d_rp;
    *d_colidx = d_ci;
  } else {
    PetscCall(DFree(d_rp));
    PetscCall(DFree(d_ci));
  }
  PetscCallCUDA(cerr);
  PetscCall(PetscLogGpuToCpu(sizeof(int) * ((PetscLogDouble)nrows + 1 + (PetscLogDouble)nnz)));
  *built = PETSC_TRUE;
#else
  (void)nrows;
  (void)ncols;
  (void)ncells;
  (void)nel;
  (void)e2d;
  (void)adddiag;
  (void)d_rowptr;
  (void)d_colidx;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "PetscWarpPlanPatternDevice() needs petscwarp built with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscWarpPlanPatternDevice - Computes the nonzero pattern of an element map on the device: the CSR of
  `PetscWarpPlanPattern()`, bitwise, downloaded into host arrays

  Not Collective

  Input Parameters:
+ nrows   - rows
. ncols   - columns
. ncells  - number of cells
. nel     - dofs per cell
. e2d     - host element-to-dof map, `ncells*nel`, negative entries dropped
- adddiag - also the diagonal of the leading min(`nrows`, `ncols`) rows

  Output Parameters:
+ rowptr - the row offsets (`PetscFree()`), or `NULL` when not built
. colidx - the sorted column indices of each row (`PetscFree()`)
- built  - `PETSC_FALSE` when the device could not (64-bit `PetscInt`, not enough device memory): use the host

  Level: developer

  Notes:
  One 64-bit key row*ncols + col per element entry (and per diagonal entry), sorted and made unique on the device, then
  counted by row; the map is uploaded and the pattern downloaded (rows + 1 + nnz ints). Errors as
  `PetscWarpPlanPattern()`: `PETSC_ERR_ARG_OUTOFRANGE` for an index not below `nrows` or `ncols`, `PETSC_ERR_SUP` for
  2^31 entries or more, and without CUDA.

.seealso: `PetscWarpPlanPattern()`, `PetscWarpAsmCreateMatrix()`, `PetscWarpPlanSlotsDevice()`
@*/
PetscErrorCode PetscWarpPlanPatternDevice(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool adddiag, PetscInt **rowptr, PetscInt **colidx, PetscBool *built)
{
  PetscFunctionBegin;
  PetscAssertPointer(built, 9);
  PetscCall(PatternDevice(nrows, ncols, ncells, nel, e2d, adddiag, rowptr, colidx, NULL, NULL, built));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PlanReset(PetscWarpAsm a)
{
  PetscWarpAsmPlan *p = &a->plan;

  PetscFunctionBegin;
  PetscCall(PetscFree(p->slot));
  PetscCall(PetscFree(p->coff));
  PetscCall(PetscFree(p->ccells));
  PetscCall(PetscWarpRedHostDestroy(&p->red));
  PetscCall(PetscWarpSharedHostDestroy(&p->sh));
  PetscCall(PetscWarpAsmAffinePlanReset_Private(p));
  PetscCall(PetscWarpAsmRowNZReset_Private(p));
#if PetscDefined(HAVE_CUDA)
  PetscCall(DFree(p->d_slot));
  PetscCall(DFree(p->d_ccells));
  PetscCall(FreeRed(&p->d_red));
  PetscCall(DFree((void *)p->d_sh.coff));
  PetscCall(DFree((void *)p->d_sh.cells));
  PetscCall(FreeRed(&p->d_sh.scatter));
  PetscCall(FreeRed(&p->d_sh.red));
#endif
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DeviceReset(PetscWarpAsm a)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  PetscCall(DFree(a->d_ref));
  PetscCall(DFree(a->d_X));
  PetscCall(DFree(a->d_kcell));
  PetscCall(DFree(a->d_cv));
  PetscCall(DFree(a->d_rowslot));
  PetscCall(DFree(a->d_E));
  PetscCall(DFree(a->d_vwork));
  for (int i = 0; i < 2; i++)
    if (a->ev[i]) PetscCallCUDA(cudaEventDestroy((cudaEvent_t)a->ev[i]));
#endif
  a->d_ref = a->d_X = a->d_kcell = a->d_E = a->d_vwork = NULL;
  a->d_cv = a->d_rowslot = NULL;
  a->ev[0] = a->ev[1] = NULL;
  a->uploaded         = PETSC_FALSE;
  PetscCall(PetscWarpAsmAffineReset_Private(a, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmDestroy - Destroys a `PetscWarpAsm`

  Collective

  Input Parameter:
. wa - the assembly object

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmCreate()`
@*/
PetscErrorCode PetscWarpAsmDestroy(PetscWarpAsm *wa)
{
  PetscWarpAsm a;

  PetscFunctionBegin;
  if (!*wa) PetscFunctionReturn(PETSC_SUCCESS);
  a = *wa;
  PetscValidHeaderSpecific(a, PETSCWARPASM_CLASSID, 1);
  if (--((PetscObject)a)->refct > 0) {
    *wa = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PlanReset(a));
  PetscCall(DeviceReset(a));
  PetscCall(PetscWarpAsmAffineReset_Private(a, PETSC_FALSE));
  PetscCall(PetscFree(a->e2d));
  PetscCall(PetscFree(a->X));
  PetscCall(PetscFree(a->cv));
  PetscCall(PetscFree4(a->w, a->B, a->D, a->Dc));
  PetscCall(PetscFree(a->kcell));
  PetscCall(PetscFree(a->h_E));
  PetscCall(PetscFree(a->rowslot));
  PetscCall(PetscFree(a->vcoo));
  PetscCall(PetscWarpAsmResidualReset_Private(a));
  PetscCall(PetscWarpAsmAPReset_Private(a));
  PetscCall(PetscWarpAsmPointwiseReset_Private(a));
  PetscCall(PetscHeaderDestroy(wa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmCreate - Creates an object that assembles finite-element matrices and load vectors on the device

  Collective

  Input Parameter:
. comm - MPI communicator (on more than one rank each rank gives its cells; see `PetscWarpAsmSetElements()`)

  Output Parameter:
. wa - the assembly object

  Level: intermediate

  Notes:
  Give it the problem with `PetscWarpAsmSetElements()`, `PetscWarpAsmSetMesh()`, `PetscWarpAsmSetReference()` and a
  physics (`PetscWarpAsmSetLaplace()`, `PetscWarpAsmSetElasticity()`), or let `DMPlexWarpAsmCreate()` take all of it
  from a `DMPLEX` and its `PetscFE`; then `PetscWarpAsmCreateMatrix()` and `PetscWarpAsmAssembleMatrix()`.

.seealso: `PetscWarpAsm`, `DMPlexWarpAsmCreate()`, `PetscWarpAsmAssembleMatrix()`, `PetscWarpAsmDestroy()`
@*/
PetscErrorCode PetscWarpAsmCreate(MPI_Comm comm, PetscWarpAsm *wa)
{
  PetscWarpAsm a;
  PetscBool    dev;

  PetscFunctionBegin;
  PetscAssertPointer(wa, 2);
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscHeaderCreate(a, PETSCWARPASM_CLASSID, "PetscWarpAsm", "Finite-element assembly on the device", "Mat", comm, PetscWarpAsmDestroy, PetscWarpAsmView));
  PetscCall(PetscWarpDeviceAvailable(&dev));
  a->usedevice = dev;
  a->strategy  = PETSCWARP_ASM_SHAREDNZ;
  PetscCallMPI(MPI_Comm_size(comm, &a->size));
  a->physics     = PETSCWARP_PHYSICS_LAPLACE;
  a->coef        = PETSCWARP_COEF_CONSTANT;
  a->kappa       = 1.0;
  a->lambda      = 1.0;
  a->mu          = 1.0;
  a->bs          = 256;
  a->tpb         = 1024;
  a->redplandev  = PETSC_TRUE;
  a->partitioner = PETSCWARP_SHAREDNZ_BALLS;
  a->maxred      = 3.0;
  a->rntileslots = 0;
  a->rnminlanes  = 0;
  a->rnunroll    = PETSC_TRUE;
  a->rnfused     = PETSC_BOOL3_UNKNOWN;
  a->rnpipe      = -1;
  a->rngeo       = -1;
  a->sbs         = 512;
  a->affine      = PETSC_TRUE;
  a->naffine     = -1;
  a->affkind     = -1;
  *wa            = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem changed: the plan and the device copies of the inputs are stale */
static PetscErrorCode InputsChanged(PetscWarpAsm a, PetscBool reference)
{
  PetscFunctionBegin;
  PetscCall(PlanReset(a));
  PetscCall(DeviceReset(a));
  PetscCall(PetscWarpAsmAffineReset_Private(a, PETSC_FALSE)); /* which cells are affine, the reference matrices */
  /* user pointwise functions: the element buffers always; the coordinate basis at the quadrature points only with a new
     reference element (new coordinates or a new element map keep it) */
  if (reference) PetscCall(PetscWarpAsmPointwiseReset_Private(a));
  else PetscCall(PetscWarpAsmPointwiseFreeBuffers_Private(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetElements - Sets the element-to-dof map

  Collective

  Input Parameters:
+ wa    - the assembly object
. ncells - number of cells
. nel    - dofs per cell (basis functions times components, interlaced: dof a*nc + c)
. nrows  - rows of the matrices to assemble (local: owned by this rank)
. ncols  - columns (local)
- e2d    - `e2d[cell*nel + i]`: row (= column) of element dof i; negative: dropped, as `MatSetValues()` drops it
           (a constrained dof). On more than one MPI rank, global indices, which may belong to other ranks.

  Level: intermediate

  Notes:
  The arrays are copied.

  On more than one MPI rank each rank gives its own cells; the matrices and vectors are assembled through PETSc's COO
  interface (`MatSetValuesCOO()`, `VecSetValuesCOO()`), which sends the entries of rows owned by other ranks to them
  (on the device for `MATMPIAIJCUSPARSE` and `VECMPICUDA`).

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetMesh()`, `PetscWarpAsmSetReference()`
@*/
PetscErrorCode PetscWarpAsmSetElements(PetscWarpAsm wa, PetscInt ncells, PetscInt nel, PetscInt nrows, PetscInt ncols, const PetscInt e2d[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(ncells >= 0 && nel > 0 && nrows >= 0 && ncols >= 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Need ncells >= 0, nel > 0, nrows, ncols >= 0; got %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT, ncells, nel, nrows, ncols);
  if (ncells) PetscAssertPointer(e2d, 6);
  PetscCall(InputsChanged(wa, PETSC_FALSE));
  PetscCall(PetscFree(wa->e2d));
  PetscCall(PetscFree(wa->rowslot));
  PetscCall(PetscFree(wa->vcoo));
  wa->nvcoo   = 0;
  wa->vcoo_id = 0;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)wa), &wa->size));
  wa->Nrows = nrows;
  if (wa->size > 1) PetscCallMPI(MPIU_Allreduce(&nrows, &wa->Nrows, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)wa)));
  PetscCall(PetscMalloc1(ncells * nel, &wa->e2d));
  PetscCall(PetscMalloc1(ncells * nel, &wa->rowslot));
  for (PetscInt k = 0; k < ncells * nel; k++) {
    PetscCheck(e2d[k] < wa->Nrows, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscInt_FMT " dof %" PetscInt_FMT " has index %" PetscInt_FMT " >= %" PetscInt_FMT " rows", k / nel, k % nel, e2d[k], wa->Nrows);
    wa->e2d[k]     = e2d[k];
    wa->rowslot[k] = e2d[k] < 0 ? -1 : (int)e2d[k];
  }
  if (wa->size > 1) { /* the distinct rows of the local cells, and rowslot into them */
    PetscInt n = 0;
    PetscCall(PetscMalloc1(ncells * nel, &wa->vcoo));
    for (PetscInt k = 0; k < ncells * nel; k++)
      if (e2d[k] >= 0) wa->vcoo[n++] = e2d[k];
    PetscCall(PetscSortRemoveDupsInt(&n, wa->vcoo));
    wa->nvcoo = n;
    for (PetscInt k = 0; k < ncells * nel; k++) {
      PetscInt loc = -1;
      if (e2d[k] >= 0) PetscCall(PetscFindInt(e2d[k], n, wa->vcoo, &loc));
      wa->rowslot[k] = (int)loc;
    }
  }
  wa->ncells = ncells;
  wa->nel    = nel;
  wa->nrows  = nrows;
  wa->ncols  = ncols;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetMesh - Sets the vertex coordinates and the cell-to-vertex map of the geometry

  Collective

  Input Parameters:
+ wa    - the assembly object
. dim    - spatial dimension (2 or 3)
. nverts - number of vertices
. X      - `X[v*dim + d]`: coordinates of vertex v
. ncv    - vertices per cell (3, 4: triangles, tetrahedra; 4, 8: quadrilaterals, hexahedra)
- cv     - `cv[cell*ncv + k]`: vertex k of the cell, in the order of the coordinate basis given to `PetscWarpAsmSetReference()`

  Level: intermediate

  Note:
  Call after `PetscWarpAsmSetElements()`; the arrays are copied. Cells are affine (simplices) or multilinear.

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetElements()`, `PetscWarpAsmSetReference()`
@*/
PetscErrorCode PetscWarpAsmSetMesh(PetscWarpAsm wa, PetscInt dim, PetscInt nverts, const PetscReal X[], PetscInt ncv, const PetscInt cv[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(dim == 2 || dim == 3, PetscObjectComm((PetscObject)wa), PETSC_ERR_SUP, "Dimension %" PetscInt_FMT " is not supported (2 or 3)", dim);
  PetscCheck(ncv >= dim + 1 && ncv <= 8, PetscObjectComm((PetscObject)wa), PETSC_ERR_SUP, "%" PetscInt_FMT " vertices per cell is not supported (triangles, quadrilaterals, tetrahedra, hexahedra)", ncv);
  if (nverts) PetscAssertPointer(X, 4);
  if (wa->ncells) PetscAssertPointer(cv, 6);
  PetscCall(InputsChanged(wa, PETSC_FALSE));
  PetscCall(PetscFree(wa->X));
  PetscCall(PetscFree(wa->cv));
  PetscCall(PetscMalloc1(nverts * dim, &wa->X));
  PetscCall(PetscArraycpy(wa->X, X, nverts * dim));
  PetscCall(PetscMalloc1(wa->ncells * ncv, &wa->cv));
  for (PetscInt k = 0; k < wa->ncells * ncv; k++) {
    PetscCheck(cv[k] >= 0 && cv[k] < nverts, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscInt_FMT " vertex %" PetscInt_FMT " is %" PetscInt_FMT ", not in [0, %" PetscInt_FMT ")", k / ncv, k % ncv, cv[k], nverts);
    wa->cv[k] = (int)cv[k];
  }
  wa->dim    = dim;
  wa->nverts = nverts;
  wa->ncv    = ncv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetReference - Sets the reference element: quadrature, basis tabulation and coordinate-basis derivatives

  Collective

  Input Parameters:
+ wa - the assembly object
. nb  - scalar basis functions
. nc  - components (1 for `PETSCWARP_PHYSICS_LAPLACE`, dim for `PETSCWARP_PHYSICS_ELASTICITY`); nb*nc must equal nel
. nq  - quadrature points
. w   - `w[q]` quadrature weights on PETSc's reference cell
. B   - `B[q*nb + a]` basis values
. D   - `D[(q*nb + a)*dim + d]` reference derivatives of the basis
- Dc  - `Dc[(q*ncv + k)*dim + d]` reference derivatives of the coordinate basis (P1 or Q1, the cell's vertices)

  Level: intermediate

  Note:
  Call after `PetscWarpAsmSetMesh()`; the arrays are copied. `DMPlexWarpAsmCreate()` takes them from the `PetscFE`.

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetMesh()`, `DMPlexWarpAsmCreate()`
@*/
PetscErrorCode PetscWarpAsmSetReference(PetscWarpAsm wa, PetscInt nb, PetscInt nc, PetscInt nq, const PetscReal w[], const PetscReal B[], const PetscReal D[], const PetscReal Dc[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCall(PetscWarpAsmSetReferenceFields_Private(wa, 1, nb, nc, nq, w, B, D, Dc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscWarpAsmSetReference() of an element of nf fields (the pointwise kernels of several fields): nb, nc, B and D are
   field 0's, the element's nel dofs more than nb*nc; no built-in physics runs on it */
PetscErrorCode PetscWarpAsmSetReferenceFields_Private(PetscWarpAsm wa, PetscInt nf, PetscInt nb, PetscInt nc, PetscInt nq, const PetscReal w[], const PetscReal B[], const PetscReal D[], const PetscReal Dc[])
{
  PetscInt dim;

  PetscFunctionBegin;
  dim = wa->dim;
  PetscCheck(dim, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Call PetscWarpAsmSetMesh() before PetscWarpAsmSetReference()");
  PetscCheck(nf >= 1, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " fields", nf);
  PetscCheck(nf > 1 ? nb * nc < wa->nel : nb * nc == wa->nel, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_INCOMP, "%" PetscInt_FMT " basis functions x %" PetscInt_FMT " components %s %" PetscInt_FMT " dofs per cell", nb, nc, nf > 1 ? "of field 0 not below" : "!=", wa->nel);
  PetscCheck(nb <= PETSCWARP_MAXNB && nq <= PETSCWARP_MAXNQ, PetscObjectComm((PetscObject)wa), PETSC_ERR_SUP, "Elements with %" PetscInt_FMT " basis functions and %" PetscInt_FMT " quadrature points exceed the compiled limits (%d, %d)", nb, nq, PETSCWARP_MAXNB, PETSCWARP_MAXNQ);
  PetscAssertPointer(w, 5);
  PetscAssertPointer(B, 6);
  PetscAssertPointer(D, 7);
  PetscAssertPointer(Dc, 8);
  PetscCall(InputsChanged(wa, PETSC_TRUE));
  PetscCall(PetscFree4(wa->w, wa->B, wa->D, wa->Dc));
  PetscCall(PetscMalloc4(nq, &wa->w, nq * nb, &wa->B, nq * nb * dim, &wa->D, nq * wa->ncv * dim, &wa->Dc));
  PetscCall(PetscArraycpy(wa->w, w, nq));
  PetscCall(PetscArraycpy(wa->B, B, nq * nb));
  PetscCall(PetscArraycpy(wa->D, D, nq * nb * dim));
  PetscCall(PetscArraycpy(wa->Dc, Dc, nq * wa->ncv * dim));
  wa->nb      = nb;
  wa->nc      = nc;
  wa->nq      = nq;
  wa->nfields = nf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ncells tensors of dim x dim (row-major) must be symmetric to 1e-12 (relative): the element kernels compute the upper
   triangle of symmetric element matrices */
PetscErrorCode PetscWarpCheckSymmetricTensors_Private(MPI_Comm comm, PetscInt ncells, PetscInt dim, const PetscReal k[])
{
  PetscFunctionBegin;
  for (PetscInt c = 0; c < ncells; c++)
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt e = d + 1; e < dim; e++) {
        const PetscReal *K = k + c * dim * dim, kde = K[d * dim + e], ked = K[e * dim + d];
        PetscCheck(PetscAbsReal(kde - ked) <= 1e-12 * (PetscAbsReal(kde) + PetscAbsReal(ked)), comm, PETSC_ERR_ARG_WRONG, "The tensor of cell %" PetscInt_FMT " is not symmetric (K[%" PetscInt_FMT "][%" PetscInt_FMT "] = %g, K[%" PetscInt_FMT "][%" PetscInt_FMT "] = %g): the element matrices are computed as symmetric", c, d, e, (double)kde, e, d, (double)ked);
      }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetLaplace - Selects the physics int K grad u . grad v (+ shift u v)

  Logically Collective

  Input Parameters:
+ wa   - the assembly object
. coef  - `PETSCWARP_COEF_CONSTANT` (K = kappa I), `PETSCWARP_COEF_CELL` (K = k[cell] I) or `PETSCWARP_COEF_TENSOR`
          (K = the dim x dim tensor k[cell*dim*dim ...], row-major, symmetric)
. kappa - the constant (`PETSCWARP_COEF_CONSTANT`)
- k     - per-cell values (copied), or `NULL` for `PETSCWARP_COEF_CONSTANT`

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetElasticity()`, `PetscWarpAsmSetShift()`
@*/
PetscErrorCode PetscWarpAsmSetLaplace(PetscWarpAsm wa, PetscWarpCoefficient coef, PetscReal kappa, const PetscReal k[])
{
  PetscInt n = 0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(wa->dim, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Call PetscWarpAsmSetMesh() before PetscWarpAsmSetLaplace()");
  if (coef == PETSCWARP_COEF_CELL) n = wa->ncells;
  else if (coef == PETSCWARP_COEF_TENSOR) n = wa->ncells * wa->dim * wa->dim;
  else PetscCheck(coef == PETSCWARP_COEF_CONSTANT, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Unknown coefficient kind %d", (int)coef);
  if (n) PetscAssertPointer(k, 4);
  if (coef == PETSCWARP_COEF_TENSOR) PetscCall(PetscWarpCheckSymmetricTensors_Private(PetscObjectComm((PetscObject)wa), wa->ncells, wa->dim, k));
  PetscCall(PetscFree(wa->kcell));
  PetscCall(PetscMalloc1(n, &wa->kcell));
  PetscCall(PetscArraycpy(wa->kcell, k, n));
  wa->nkcell  = n;
  wa->physics = PETSCWARP_PHYSICS_LAPLACE;
  if (coef != wa->coef) PetscCall(PlanReset(wa)); /* rownz's automatic rules (fused rows, prefetch depth, closed form) follow the coefficient's kind */
  wa->coef  = coef;
  wa->kappa = kappa;
  PetscCall(DeviceReset(wa)); /* the coefficient array goes to the device again */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetElasticity - Selects isotropic linear elasticity with Lame parameters lambda and mu (+ shift u . v)

  Logically Collective

  Input Parameters:
+ wa    - the assembly object
. lambda - first Lame parameter
- mu     - shear modulus

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetLaplace()`, `PetscWarpAsmSetShift()`
@*/
PetscErrorCode PetscWarpAsmSetElasticity(PetscWarpAsm wa, PetscReal lambda, PetscReal mu)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  wa->physics = PETSCWARP_PHYSICS_ELASTICITY;
  wa->lambda  = lambda;
  wa->mu      = mu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetShift - Adds the mass term shift * int u v (time stepping: the shift of `TSComputeIJacobian()`)

  Logically Collective

  Input Parameters:
+ wa   - the assembly object
- shift - the factor (0 by default)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetLaplace()`, `PetscWarpAsmSetElasticity()`
@*/
PetscErrorCode PetscWarpAsmSetShift(PetscWarpAsm wa, PetscReal shift)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  wa->shift = shift;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetSource - Sets the constant source (body force) of load vectors: F[(a,c)] = int f[c] phi_a

  Logically Collective

  Input Parameters:
+ wa - the assembly object
- f   - one value per component

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmAssembleVector()`
@*/
PetscErrorCode PetscWarpAsmSetSource(PetscWarpAsm wa, const PetscReal f[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscAssertPointer(f, 2);
  for (PetscInt c = 0; c < PetscMax(wa->nc, 1); c++) wa->f[c] = f[c];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetStrategy - Sets how element matrices are reduced into the matrix

  Logically Collective

  Input Parameters:
+ wa      - the assembly object
- strategy - a `PetscWarpAsmStrategy`

  Options Database Key:
. -mat_warp_assembly <sharednz,globalnz,color,atomic,coo,rownz> - the strategy

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmStrategy`, `PetscWarpAsmGetStrategy()`
@*/
PetscErrorCode PetscWarpAsmSetStrategy(PetscWarpAsm wa, PetscWarpAsmStrategy strategy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(strategy >= PETSCWARP_ASM_SHAREDNZ && strategy <= PETSCWARP_ASM_ROWNZ, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Unknown strategy %d", (int)strategy);
  if (strategy != wa->strategy) PetscCall(PlanReset(wa));
  wa->strategy = strategy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmGetStrategy - Gets the strategy of a `PetscWarpAsm`

  Not Collective

  Input Parameter:
. wa - the assembly object

  Output Parameter:
. strategy - the strategy

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetStrategy()`
@*/
PetscErrorCode PetscWarpAsmGetStrategy(PetscWarpAsm wa, PetscWarpAsmStrategy *strategy)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscAssertPointer(strategy, 2);
  *strategy = wa->strategy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetSharedNZ - Sets the parameters of the `PETSCWARP_ASM_SHAREDNZ` strategy

  Logically Collective

  Input Parameters:
+ wa          - the assembly object
. partitioner - how the rows are split into blocks whose element sets fit in shared memory, a `PetscWarpSharedNZPartitioner`
. smem        - shared memory per block in bytes, `PETSC_DECIDE` (or 0) for the device's opt-in maximum (64 KiB on the host)
. bs          - threads per block, a multiple of 32 in [32, 1024], `PETSC_DECIDE` for the default 512
- maxred      - when the blocks' element sets sum to more than `maxred` times the number of cells (each element computed
                that many times on average), the plan assembles with `PETSCWARP_ASM_GLOBALNZ` instead, and `-info` says
                so; `PETSC_DETERMINE` for the default 3

  Options Database Keys:
+ -mat_warp_sharednz_partitioner <balls,metis,ranges> - the partitioner
. -mat_warp_sharednz_shared_memory <bytes>            - shared memory per block
. -mat_warp_sharednz_block_size <bs>                  - threads per block
- -mat_warp_sharednz_max_redundancy <r>               - the redundancy above which globalnz runs instead

  Level: advanced

  Note:
  Balls (the default) are grown breadth-first over the pattern's graph in linear time; METIS partitions (the method of
  Cecka, Lew and Darve) have slightly fewer cells per block in common but take seconds to minutes to compute at 0.5 M rows.
  High-order elements fit few to a block, so neighbouring blocks recompute many of the same cells: for those the
  redundancy limit hands the matrix to globalnz. On an H100, 512 threads and the whole opt-in shared memory per block
  measured fastest (Q1 and Q2 hexahedra, 0.5 M rows; `bench/RESULTS.md`); at a redundancy of 3.4 (Q2) the blocks
  took 3.5 times globalnz's time, at 1.9 (Q1) 1.7 times.

.seealso: `PetscWarpAsm`, `PetscWarpSharedNZPartitioner`, `PetscWarpAsmSetStrategy()`, `PetscWarpAsmGetInfo()`
@*/
PetscErrorCode PetscWarpAsmSetSharedNZ(PetscWarpAsm wa, PetscWarpSharedNZPartitioner partitioner, PetscInt smem, PetscInt bs, PetscReal maxred)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(wa, partitioner, 2);
  PetscCheck(partitioner >= PETSCWARP_SHAREDNZ_BALLS && partitioner <= PETSCWARP_SHAREDNZ_RANGES, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Unknown partitioner %d", (int)partitioner);
  if (smem == PETSC_DECIDE) smem = 0;
  PetscCheck(smem >= 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Shared memory per block %" PetscInt_FMT " must be >= 0", smem);
  if (bs == PETSC_DECIDE) bs = 512;
  PetscCheck(bs >= 32 && bs <= 1024 && bs % 32 == 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "sharednz threads per block %" PetscInt_FMT ": a multiple of 32 in [32, 1024]", bs);
  if (maxred == (PetscReal)PETSC_DETERMINE) maxred = 3.0;
  PetscCheck(maxred >= 1, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Maximum redundancy %g must be >= 1", (double)maxred);
  if (partitioner != wa->partitioner || smem != wa->smem || bs != wa->sbs || maxred != wa->maxred) PetscCall(PlanReset(wa));
  wa->sbs         = bs;
  wa->partitioner = partitioner;
  wa->smem        = smem;
  wa->maxred      = maxred;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmUseDevice - Whether to assemble on the device (default: when PETSc has CUDA and a device is present)

  Logically Collective

  Input Parameters:
+ wa - the assembly object
- flg - `PETSC_FALSE` runs the host twins of the kernels (also for matrices whose values live on the device)

  Options Database Key:
. -mat_warp_assembly_device <bool> - use the device

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpDeviceAvailable()`
@*/
PetscErrorCode PetscWarpAsmUseDevice(PetscWarpAsm wa, PetscBool flg)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCall(PetscWarpDeviceAvailable(&dev));
  PetscCheck(!flg || dev, PetscObjectComm((PetscObject)wa), PETSC_ERR_SUP_SYS, "No CUDA device is available (or PETSc has no CUDA): the assembly can only run on the host");
  if (flg != wa->usedevice) PetscCall(PlanReset(wa));
  wa->usedevice = flg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetAffine - Whether element matrices of affine cells are computed by the affine fast path

  Logically Collective

  Input Parameters:
+ wa  - the assembly object
- flg - `PETSC_TRUE` (the default) to use it

  Options Database Key:
. -mat_warp_assembly_affine <bool> - use the affine fast path

  Level: intermediate

  Notes:
  A cell is affine when its Jacobian at every quadrature point equals the one at the first (to a relative 1e-13):
  every simplex, and the quadrilaterals and hexahedra that are parallelograms and parallelepipeds (every DMPlex box
  mesh). With coefficients constant over each cell (`PetscWarpAsmSetLaplace()`: constant, per cell, tensor per cell;
  elasticity; the shift) such a cell's element matrix is a linear combination of reference matrices computed once from
  the tabulation (Laplace: dim(dim+1)/2 stiffness matrices and the mass matrix; elasticity: dim^2 and the mass matrix),
  with coefficients from the cell's Jacobian: the kernels skip the loop over quadrature points. The result equals the
  quadrature path's to round-off. It is not used with a per-point mass coefficient (the Aliev-Panfilov Jacobian,
  `PetscWarpAsmSetAlievPanfilov()`).

  By default the path runs for the Laplace physics only, and only when its reference matrices fit the kernels'
  shared-memory budget (32 KB: P1-P3 simplices, Q1-Q2 cells); calling this function (or giving the option) turns it
  on for elasticity too (slower on the H100 for Q1 hexahedra: 1.008 against 0.771 ms).

  When every cell is affine, every strategy uses it (sharednz with at most 512 threads per block, the default). On a mesh with both kinds of cells, atomic and color run the
  affine cells by the fast path and the others by quadrature; globalnz, sharednz and coo then use quadrature for all.
  `PetscWarpAsmView()` and `PetscWarpAsmGetInfo()` report how many cells are affine and how many the last assembly
  computed by the fast path; `-info` says when the cells are checked.

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetFromOptions()`, `PetscWarpAsmGetInfo()`
@*/
PetscErrorCode PetscWarpAsmSetAffine(PetscWarpAsm wa, PetscBool flg)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscValidLogicalCollectiveBool(wa, flg, 2);
  if (flg != wa->affine || !wa->affine_set) PetscCall(PlanReset(wa)); /* the plan's split of the cells */
  wa->affine     = flg;
  wa->affine_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetFromOptions - Reads the options of a `PetscWarpAsm`

  Collective

  Input Parameter:
. wa - the assembly object

  Options Database Keys:
+ -mat_warp_assembly <sharednz,globalnz,color,atomic,coo,rownz> - the strategy
. -mat_warp_assembly_device <bool>                        - assemble on the device (default: when there is one)
. -mat_warp_assembly_affine <bool>                        - the affine fast path (default true; `PetscWarpAsmSetAffine()`)
. -mat_warp_assembly_block_size <bs>                      - threads per block of the globalnz reduction kernels
. -mat_warp_assembly_targets_per_block <n>                - globalnz: non-zeros per reduction block
. -mat_warp_assembly_device_plan <bool>                   - compute the slots (every strategy but coo and rownz), the globalnz and
                                                            sharednz reduction arrays (sharednz: after its partition, which stays on
                                                            the host) and the symbolic pattern of `PetscWarpAsmCreateMatrix()` on the
                                                            device when assembling there (default true; `PetscWarpPlanSlotsDevice()`,
                                                            `PetscWarpPlanReductionDevice()`, `PetscWarpPlanSharedNZReductionDevice()`,
                                                            `PetscWarpPlanPatternDevice()`)
. -mat_warp_sharednz_partitioner <balls,metis,ranges>     - sharednz: how the rows are split into blocks (default balls)
. -mat_warp_sharednz_max_redundancy <r>                   - sharednz: assemble with globalnz when the blocks compute each
                                                            element more than r times on average (default 3)
. -mat_warp_sharednz_block_size <bs>                      - sharednz: threads per block (default 512)
. -mat_warp_sharednz_shared_memory <bytes>                - sharednz: shared memory per block (default: the device's
                                                            opt-in maximum, 64 KB on the host)
. -mat_warp_rownz_tile_slots <n>                          - rownz: slots per tile at most (default 0: the cap of 4096,
                                                            2048, 1024, 512, 256 that predicts the most rows resident per SM)
. -mat_warp_rownz_min_lanes <r>                           - rownz: assemble with atomic where fewer than r rows are
                                                            predicted resident per SM (default 0: never)
. -mat_warp_rownz_unroll <bool>                            - rownz: device kernels specialised for the element's size
                                                            (unrolled column loops; default true; false: the generic loop)
. -mat_warp_rownz_fused <bool>                             - rownz: each row computes the affine factors of its cells from
                                                            the vertex coordinates (one kernel, no factor array) instead of
                                                            reading them from a factor array computed per cell first
                                                            (default: automatic, fused on P1 triangles, on P1 tetrahedra into CSR,
                                                            and into ELL-WARP where the rows take the closed form, see below)
. -mat_warp_rownz_prefetch <n>                             - rownz, P1 elements on the device: incidences a row's thread loads
                                                            ahead of its arithmetic (0: none, 1: the next one's plan entries,
                                                            2: also the next one's coordinates or factor and the one after's
                                                            plan entries; default -1: automatic, 2 on fused P1 tetrahedra in
                                                            closed form, else 1; where the rows take the closed form, 0 runs
                                                            as 1)
- -mat_warp_rownz_simplex_geometry <n>                     - rownz, fused P1 Laplacians: how a row's thread computes its
                                                            entries of a cell (0: the generic arithmetic; 1: the upper triangle
                                                            of the metric only, the same values bitwise, prefetching device
                                                            kernels; 2: the row in closed form from the edges' cross products,
                                                            the same values to round-off in about a third of the operations,
                                                            host twin and device alike, where the basis is the coordinate
                                                            map's, the coefficient scalar, the positions 8-bit and the
                                                            kernels specialised (-mat_warp_rownz_unroll), else 1; default -1:
                                                            automatic, 2)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetStrategy()`
@*/
PetscErrorCode PetscWarpAsmSetFromOptions(PetscWarpAsm wa)
{
  PetscWarpAsmStrategy         s;
  PetscBool                    dev, flg, aff, affset;
  PetscInt                     bs, tpb, smem, sbs;
  PetscWarpSharedNZPartitioner part;
  PetscReal                    maxred, minlanes;
  PetscInt                     tileslots;
  PetscBool                    unroll, fused, fusedset, redplandev;
  PetscInt                     pipe, sgeo;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  redplandev = wa->redplandev;
  tileslots  = wa->rntileslots;
  unroll     = wa->rnunroll;
  pipe       = wa->rnpipe;
  sgeo       = wa->rngeo;
  minlanes   = wa->rnminlanes;
  s          = wa->strategy;
  dev        = wa->usedevice;
  bs         = wa->bs;
  tpb        = wa->tpb;
  smem       = wa->smem;
  part       = wa->partitioner;
  sbs        = wa->sbs;
  maxred     = wa->maxred;
  aff        = wa->affine;
  PetscObjectOptionsBegin((PetscObject)wa);
  PetscCall(PetscOptionsEnum("-mat_warp_assembly", "Assembly strategy", "PetscWarpAsmSetStrategy", PetscWarpAsmStrategies, (PetscEnum)s, (PetscEnum *)&s, NULL));
  PetscCall(PetscOptionsBool("-mat_warp_assembly_device", "Assemble on the device", "PetscWarpAsmUseDevice", dev, &dev, &flg));
  PetscCall(PetscOptionsBool("-mat_warp_assembly_affine", "Element matrices of affine cells from reference matrices (no quadrature loop; default: Laplace only)", "PetscWarpAsmSetAffine", aff, &aff, &affset));
  PetscCall(PetscOptionsInt("-mat_warp_assembly_block_size", "Threads per block of the reduction kernels", "PetscWarpAsmSetFromOptions", bs, &bs, NULL));
  PetscCall(PetscOptionsInt("-mat_warp_assembly_targets_per_block", "globalnz: non-zeros per reduction block", "PetscWarpAsmSetFromOptions", tpb, &tpb, NULL));
  PetscCall(PetscOptionsBool("-mat_warp_assembly_device_plan", "Compute the slots, the globalnz and sharednz reduction arrays and the symbolic pattern on the device when assembling there (0: on the host)", "PetscWarpPlanReductionDevice", redplandev, &redplandev, NULL));
  PetscCall(PetscOptionsEnum("-mat_warp_sharednz_partitioner", "sharednz: how the rows are split into blocks", "PetscWarpAsmSetSharedNZ", PetscWarpSharedNZPartitioners, (PetscEnum)part, (PetscEnum *)&part, NULL));
  PetscCall(PetscOptionsInt("-mat_warp_sharednz_block_size", "sharednz: threads per block", "PetscWarpAsmSetSharedNZ", sbs, &sbs, NULL));
  PetscCall(PetscOptionsReal("-mat_warp_sharednz_max_redundancy", "sharednz: globalnz instead when elements are computed more than this many times on average", "PetscWarpAsmSetSharedNZ", maxred, &maxred, NULL));
  PetscCall(PetscOptionsInt("-mat_warp_sharednz_shared_memory", "sharednz: shared memory per block in bytes (0: automatic)", "PetscWarpAsmSetFromOptions", smem, &smem, NULL));
  PetscCall(PetscOptionsInt("-mat_warp_rownz_tile_slots", "rownz: slots per tile at most (unless a tile holds one row or ELL-WARP range; 0: chosen by the occupancy model)", "PetscWarpAsmSetFromOptions", tileslots, &tileslots, NULL));
  PetscCall(PetscOptionsReal("-mat_warp_rownz_min_lanes", "rownz: atomic where fewer rows are predicted resident per SM (0: never)", "PetscWarpAsmSetFromOptions", minlanes, &minlanes, NULL));
  PetscCall(PetscOptionsBool("-mat_warp_rownz_unroll", "rownz: device kernels specialised for the element's size (0: the generic loop)", "PetscWarpAsmSetFromOptions", unroll, &unroll, NULL));
  fused = wa->rnfused == PETSC_BOOL3_TRUE ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-mat_warp_rownz_fused", "rownz: rows compute their cells' affine factors (one kernel, no factor array; default: automatic, on P1 triangles, on P1 tetrahedra into CSR, and into ELL-WARP for Laplacians with a scalar coefficient)", "PetscWarpAsmSetFromOptions", fused, &fused, &fusedset));
  PetscCall(PetscOptionsInt("-mat_warp_rownz_prefetch", "rownz, P1 elements on the device: incidences a row's thread loads ahead of its arithmetic (0-2; -1: automatic)", "PetscWarpAsmSetFromOptions", pipe, &pipe, NULL));
  PetscCall(PetscOptionsInt("-mat_warp_rownz_simplex_geometry", "rownz, fused P1 Laplacians: a cell's factor from the generic arithmetic (0) or the metric's upper triangle (1, the same values; device), or the row's entries in closed form from the edges' cross products (2, round-off differences; host and device); -1: automatic", "PetscWarpAsmSetFromOptions", sgeo, &sgeo, NULL));
  PetscOptionsEnd();
  PetscCheck(sgeo >= -1 && sgeo <= 2, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_rownz_simplex_geometry %" PetscInt_FMT ": -1 (automatic), 0, 1 or 2", sgeo);
  PetscCheck(pipe >= -1 && pipe <= 2, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_rownz_prefetch %" PetscInt_FMT ": -1 (automatic), 0, 1 or 2", pipe);
  if (pipe != wa->rnpipe || unroll != wa->rnunroll || sgeo != wa->rngeo) PetscCall(PlanReset(wa)); /* the plan's tiles follow the kernel's registers, and its vertex lists the kernel */
  wa->rngeo    = sgeo;
  wa->rnpipe   = pipe;
  wa->rnunroll = unroll;
  if (fusedset && PetscBoolToBool3(fused) != wa->rnfused) {
    PetscCall(PlanReset(wa)); /* the plan's tiles follow the kernel's registers */
    wa->rnfused = PetscBoolToBool3(fused);
  }
  PetscCheck(tileslots >= 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_rownz_tile_slots %" PetscInt_FMT " must be >= 0", tileslots);
  if (tileslots != wa->rntileslots || minlanes != wa->rnminlanes) PetscCall(PlanReset(wa));
  wa->rntileslots = tileslots;
  wa->rnminlanes  = minlanes;
  PetscCheck(bs >= 32 && bs <= 1024 && bs % 32 == 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_assembly_block_size %" PetscInt_FMT ": a multiple of 32 in [32, 1024]", bs);
  PetscCheck(tpb >= 1, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_assembly_targets_per_block %" PetscInt_FMT " must be positive", tpb);
  PetscCheck(smem >= 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "-mat_warp_sharednz_shared_memory %" PetscInt_FMT " must be >= 0", smem);
  PetscCall(PetscWarpAsmSetStrategy(wa, s));
  if (affset) PetscCall(PetscWarpAsmSetAffine(wa, aff));
  if (flg) PetscCall(PetscWarpAsmUseDevice(wa, dev));
  if (bs != wa->bs || tpb != wa->tpb || redplandev != wa->redplandev) PetscCall(PlanReset(wa));
  wa->bs         = bs;
  wa->tpb        = tpb;
  wa->redplandev = redplandev;
  PetscCall(PetscWarpAsmSetSharedNZ(wa, part, smem, sbs, maxred));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kernel-layer descriptions of the reference element and the mesh, in host or device memory (uploading them once); the
   physics' coefficient per cell, kcell, in the same memory */
PetscErrorCode PetscWarpAsmDescribeData_Private(PetscWarpAsm a, PetscBool device, PetscWarpFE *fe, PetscWarpMesh *mesh, const double **kcell)
{
  PetscInt dim = a->dim, nq = a->nq, nb = a->nb;

  PetscFunctionBegin;
  PetscCheck(a->ncells == 0 || (a->nb && a->dim), PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the elements, the mesh and the reference element before assembling");
  fe->dim      = (int)dim;
  fe->nb       = (int)nb;
  fe->nc       = (int)a->nc;
  fe->nq       = (int)nq;
  fe->ncv      = (int)a->ncv;
  fe->Kaff     = NULL; /* the affine path sets it (warpasmaffine.c) */
  mesh->ncells = (int)a->ncells;
  mesh->nverts = (int)a->nverts;
  if (!device) {
    fe->w    = a->w;
    fe->B    = a->B;
    fe->D    = a->D;
    fe->Dc   = a->Dc;
    mesh->cv = a->cv;
    mesh->X  = a->X;
    *kcell   = a->kcell;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(HAVE_CUDA)
  if (!a->uploaded) {
    size_t nref = (size_t)(nq + nq * nb + nq * nb * dim + nq * a->ncv * dim);
    PetscCallCUDA(cudaMalloc((void **)&a->d_ref, sizeof(double) * nref));
    PetscCallCUDA(cudaMemcpy(a->d_ref, a->w, sizeof(double) * nq, cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(a->d_ref + nq, a->B, sizeof(double) * nq * nb, cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(a->d_ref + nq + nq * nb, a->D, sizeof(double) * nq * nb * dim, cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(a->d_ref + nq + nq * nb + nq * nb * dim, a->Dc, sizeof(double) * nq * a->ncv * dim, cudaMemcpyHostToDevice));
    PetscCall(PetscWarpAsmUpload_Private(a->X, (size_t)a->nverts * dim, sizeof(double), (void **)&a->d_X));
    PetscCall(PetscWarpAsmUpload_Private(a->cv, (size_t)a->ncells * a->ncv, sizeof(int), (void **)&a->d_cv));
    PetscCall(PetscWarpAsmUpload_Private(a->kcell, (size_t)a->nkcell, sizeof(double), (void **)&a->d_kcell));
    PetscCall(PetscWarpAsmUpload_Private(a->rowslot, (size_t)a->ncells * a->nel, sizeof(int), (void **)&a->d_rowslot));
    PetscCall(PetscLogCpuToGpu(sizeof(double) * (PetscLogDouble)nref));
    a->uploaded = PETSC_TRUE;
  }
  fe->w    = a->d_ref;
  fe->B    = a->d_ref + nq;
  fe->D    = a->d_ref + nq + nq * nb;
  fe->Dc   = a->d_ref + nq + nq * nb + nq * nb * dim;
  mesh->cv = a->d_cv;
  mesh->X  = a->d_X;
  *kcell   = a->d_kcell;
#else
  SETERRQ(PetscObjectComm((PetscObject)a), PETSC_ERR_SUP_SYS, "PETSc has no CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Kernel-layer descriptions of the inputs and the built-in physics, in host or device memory */
static PetscErrorCode Describe(PetscWarpAsm a, PetscBool device, PetscWarpFE *fe, PetscWarpMesh *mesh, PetscWarpPhys *ph)
{
  PetscFunctionBegin;
  PetscCheck(a->nfields <= 1, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "The built-in physics need an element of one field, this one has %" PetscInt_FMT " (element matrices of several fields come from the pointwise kernels)", a->nfields);
  PetscCheck(a->physics != PETSCWARP_PHYSICS_ELASTICITY || a->nc == a->dim, PetscObjectComm((PetscObject)a), PETSC_ERR_ARG_INCOMP, "Elasticity needs %" PetscInt_FMT " components, the element has %" PetscInt_FMT, a->dim, a->nc);
  PetscCheck(a->physics != PETSCWARP_PHYSICS_LAPLACE || a->nc == 1, PetscObjectComm((PetscObject)a), PETSC_ERR_ARG_INCOMP, "The Laplacian needs a scalar element, this one has %" PetscInt_FMT " components", a->nc);
  PetscCall(PetscWarpAsmDescribeData_Private(a, device, fe, mesh, &ph->kcell));
  ph->kind   = a->physics == PETSCWARP_PHYSICS_LAPLACE ? PETSCWARP_PHYS_LAPLACE : PETSCWARP_PHYS_ELASTICITY;
  ph->coef   = (int)a->coef;
  ph->kappa  = a->kappa;
  ph->lambda = a->lambda;
  ph->mu     = a->mu;
  ph->shift  = a->shift;
  for (int c = 0; c < PETSCWARP_MAXDIM; c++) ph->f[c] = a->f[c];
  PetscCall(PetscWarpAsmAPDescribe_Private(a, device, ph));
  PetscCheck(PetscWarpAsmCheck(fe, ph->kind) == PETSCWARP_ASM_OK, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "Unsupported element: dim %" PetscInt_FMT ", %" PetscInt_FMT " basis functions, %" PetscInt_FMT " components, %" PetscInt_FMT " quadrature points, %" PetscInt_FMT " vertices", a->dim, a->nb, a->nc, a->nq, a->ncv);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shared memory per sharednz block, and the most cells that fit in it */
static PetscErrorCode SharedNZMaxCells(PetscWarpAsm a, const PetscWarpFE *fe, PetscBool device, PetscInt *maxcells)
{
  size_t smem = (size_t)a->smem, cell = PetscWarpSharedNZCellBytes(fe), fixed = PetscWarpSharedNZFixedBytes(fe, (int)a->sbs);

  PetscFunctionBegin;
  if (!smem) {
    smem = 64 * 1024;
#if PetscDefined(HAVE_CUDA)
    if (device) PetscCallCUDA((cudaError_t)PetscWarpAsmMaxSharedCUDA(&smem));
#endif
  }
  *maxcells = smem > fixed ? (PetscInt)((smem - fixed) / cell) : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
/* The device slots are done with: copied to the host first when the host builds the reduction array (tohost) */
static PetscErrorCode ReleaseDeviceSlots(PetscWarpAsmPlan *p, PetscCount nsrc, PetscBool tohost)
{
  PetscFunctionBegin;
  if (tohost && p->d_slot && !p->slot) {
    PetscCall(PetscMalloc1(PetscMax(nsrc, 1), &p->slot));
    PetscCall(Download(p->d_slot, (size_t)nsrc, sizeof(int), p->slot));
  }
  PetscCall(DFree(p->d_slot));
  p->d_slot = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* The globalnz reduction plan from the slots (p->d_slot when computed on the device, else p->slot): on the device when
   assembling there (unless -mat_warp_assembly_device_plan 0, or a block's lists are too long for its shared memory),
   else on the host (uploaded with the rest of the plan). The slots are freed: the reduction array replaces them. */
static PetscErrorCode PlanRed(PetscWarpAsm a, Mat A, const MatWarpTarget *t, PetscBool device, PetscCount nsrc)
{
  PetscWarpAsmPlan *p     = &a->plan;
  PetscBool         built = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanRed, A, 0, 0, 0));
#if PetscDefined(HAVE_CUDA)
  if (device && a->redplandev) {
    PetscCount nent = 0;

    if (!p->d_slot) PetscCall(PetscWarpAsmUpload_Private(p->slot, (size_t)nsrc, sizeof(int), (void **)&p->d_slot));
    PetscCall(ReductionFromDeviceSlots(nsrc, p->d_slot, p->slot, t->nslots, a->bs, a->tpb, &p->d_red, &nent, &built));
    if (built) {
      p->red.nblocks = p->d_red.nblocks; /* sizes only: the arrays live on the device */
      p->red.bs      = p->d_red.bs;
      p->bytes       = sizeof(int) * ((PetscLogDouble)p->d_red.nblocks + 1 + (PetscLogDouble)nent);
    } else PetscCall(PetscInfo(a, "globalnz: a block's lists need more shared memory than the device has: reduction plan built on the host\n"));
  }
  PetscCall(ReleaseDeviceSlots(p, nsrc, (PetscBool)!built));
#endif
  if (!built) {
    PetscCall(PetscWarpPlanReduction(nsrc, p->slot, t->nslots, a->bs, a->tpb, &p->red));
    p->bytes = PetscWarpRedHostBytes(&p->red);
  }
  PetscCall(PetscFree(p->slot));
  p->bytes += sizeof(double) * (PetscLogDouble)nsrc; /* the element matrices */
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanRed, A, 0, 0, 0));
  PetscCall(PetscInfo(a, "globalnz: reduction plan of %" PetscInt_FMT " blocks built on the %s\n", p->red.nblocks, built ? "device" : "host"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The slots of the element entries into t: on the device (p->d_slot) when asked and possible, else on the host (p->slot) */
static PetscErrorCode PlanSlots(PetscWarpAsm a, Mat A, const MatWarpTarget *t, PetscBool ondevice)
{
  PetscWarpAsmPlan *p        = &a->plan;
  PetscBool         devslots = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanSlots, A, 0, 0, 0));
  if (ondevice) PetscCall(PetscWarpPlanSlotsDevice(t->nrows, t->ncols, t->rowptr, t->colidx, t->pos2slot, a->ncells, a->nel, a->e2d, &p->d_slot, NULL, &devslots));
  if (!devslots) PetscCall(PetscWarpPlanSlotsMapped(t->nrows, t->ncols, t->rowptr, t->colidx, t->pos2slot, a->ncells, a->nel, a->e2d, &p->slot));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanSlots, A, 0, 0, 0));
  PetscCall(PetscInfo(a, "slots computed on the %s\n", devslots ? "device" : "host"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* sharednz blocks planned without slots (p->sh.rblk): the slots, then the reduction array, on the device where it can */
static PetscErrorCode SharedRed(PetscWarpAsm a, Mat A, const MatWarpTarget *t, PetscCount nsrc)
{
  PetscWarpAsmPlan *p     = &a->plan;
  PetscBool         built = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PlanSlots(a, A, t, PETSC_TRUE));
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanRed, A, 0, 0, 0));
#if PetscDefined(HAVE_CUDA)
  if (p->d_slot) {
    PetscCount nent = 0;

    PetscCall(PetscWarpPlanSharedNZReductionDevice(a->ncells, a->nel, a->e2d, NULL, p->d_slot, t->nslots, &p->sh, &p->d_sh.red, NULL, &nent, &built));
    if (built) {
      p->sh.red.nblocks = p->d_sh.red.nblocks; /* sizes only: the arrays live on the device */
      p->sh.red.bs      = p->d_sh.red.bs;
      p->bytes          = sizeof(int) * ((PetscLogDouble)p->d_sh.red.nblocks + 1 + (PetscLogDouble)nent);
    } else PetscCall(PetscInfo(a, "sharednz: the blocks' packing scratch is too large for the device: reduction array built on the host\n"));
    PetscCall(ReleaseDeviceSlots(p, nsrc, (PetscBool)!built));
  }
#endif
  if (!built) PetscCall(PetscWarpPlanSharedNZReduction(a->ncells, a->nel, a->e2d, p->slot, &p->sh));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanRed, A, 0, 0, 0));
  PetscCall(PetscInfo(a, "sharednz: reduction array of %" PetscInt_FMT " blocks built on the %s\n", p->sh.nblocks, built ? "device" : "host"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Build the plan for the target t of matrix A */
static PetscErrorCode PlanSetUp(PetscWarpAsm a, Mat A, const MatWarpTarget *t, PetscBool device)
{
  PetscWarpAsmPlan *p   = &a->plan;
  PetscInt          nel = a->nel, nsrc;
  PetscLogDouble    t0, t1;
  PetscWarpFE       fe;
  PetscWarpMesh     mesh;
  PetscWarpPhys     ph;
  PetscBool         phys;

  PetscFunctionBegin;
  PetscCheck((PetscCount)a->ncells * nel * nel <= PETSC_INT_MAX, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "%" PetscInt_FMT " cells of %" PetscInt_FMT " x %" PetscInt_FMT " element entries exceed the plan's integer range", a->ncells, nel, nel);
  nsrc = a->ncells * nel * nel;
  PetscCall(PlanReset(a));
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Plan, A, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  p->strategy = a->size > 1 ? PETSCWARP_ASM_COO : a->strategy; /* several ranks: PETSc's MPI COO sends off-process entries */
  /* the physics matters to the strategies that compute element matrices themselves; globalnz and coo also reduce element
     matrices given by the caller, of an element no built-in physics fits (user pointwise kernels, warpasmpw.c) */
  phys = (PetscBool)((p->strategy != PETSCWARP_ASM_GLOBALNZ && p->strategy != PETSCWARP_ASM_COO) || (a->nfields <= 1 && (a->physics == PETSCWARP_PHYSICS_LAPLACE ? a->nc == 1 : a->nc == a->dim)));
  if (phys) PetscCall(Describe(a, PETSC_FALSE, &fe, &mesh, &ph));
  p->requested = a->strategy;
  p->device    = device;
  p->ell       = t->ell;
  p->nslots    = t->nslots;
  if (p->strategy == PETSCWARP_ASM_ROWNZ) PetscCall(PetscWarpAsmRowNZPlan_Private(a, t, &ph, device, p)); /* or atomic, with the reason */
  /* sharednz with device plans: the slots once the partition is known to be kept (below) */
  if (p->strategy != PETSCWARP_ASM_COO && p->strategy != PETSCWARP_ASM_ROWNZ && !(p->strategy == PETSCWARP_ASM_SHAREDNZ && device && a->redplandev)) PetscCall(PlanSlots(a, A, t, (PetscBool)(device && a->redplandev)));
  switch (p->strategy) {
  case PETSCWARP_ASM_COLOR: {
    PetscBool rep;
    PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanColor, A, 0, 0, 0));
    PetscCall(PetscWarpPlanHasRepeatedDofs(t->nrows, a->ncells, nel, a->e2d, &rep));
    PetscCheck(!rep, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "A cell repeats a dof (periodic mesh?): the color strategy would race; use atomic, globalnz or sharednz");
    PetscCall(PetscWarpPlanColor(t->nrows, a->ncells, nel, a->e2d, &p->ncolors, &p->coff, &p->ccells));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanColor, A, 0, 0, 0));
    p->bytes = sizeof(int) * ((PetscLogDouble)nsrc + a->ncells + p->ncolors + 1);
  } break;
  case PETSCWARP_ASM_ATOMIC:
    p->bytes = sizeof(int) * (PetscLogDouble)nsrc;
    break;
  case PETSCWARP_ASM_ROWNZ:
    break; /* planned above */
  case PETSCWARP_ASM_GLOBALNZ:
    PetscCall(PlanRed(a, A, t, device, (PetscCount)nsrc)); /* frees the slots: the reduction array replaces them */
    break;
  case PETSCWARP_ASM_SHAREDNZ: {
    PetscInt        maxcells;
    PetscErrorCode  ierr = PETSC_ERR_SUP;
    const PetscBool lazy = (PetscBool)(device && a->redplandev); /* the partition first, then slots and reduction on the device */
    PetscCall(SharedNZMaxCells(a, &fe, device, &maxcells));
    /* element sets that fit in shared memory: balls or METIS parts (or row ranges); when none fit (high order, small
       shared memory, rows in more cells than fit), ranges of rows; when those do not fit either, or the blocks compute
       the elements too many times over, globalnz */
    for (PetscInt k = 0; k < 2 && ierr == PETSC_ERR_SUP && maxcells >= 1; k++) {
      PetscWarpSharedNZPartitioner part = k == 0 ? a->partitioner : PETSCWARP_SHAREDNZ_RANGES;
      if (k == 1 && a->partitioner == PETSCWARP_SHAREDNZ_RANGES) break;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PetscWarpPlanSharedNZLimit(t->nrows, t->rowptr, t->colidx, a->ncells, nel, a->e2d, a->ncv, a->cv, lazy ? NULL : p->slot, maxcells, a->sbs, part, a->maxred, &p->sh);
      PetscCall(PetscPopErrorHandler());
      if (ierr == PETSC_ERR_SUP) {
        PetscCall(PetscWarpSharedHostDestroy(&p->sh));
        PetscCall(PetscInfo(a, "sharednz: no %s partition has element sets of at most %" PetscInt_FMT " cells\n", PetscWarpSharedNZPartitioners[part], maxcells));
      } else PetscCall(ierr);
    }
    if (!ierr && p->sh.redundancy > a->maxred) {
      PetscCall(PetscInfo(a, "sharednz: %" PetscInt_FMT " blocks of at most %" PetscInt_FMT " cells compute each element %.3f times on average, more than %g (-mat_warp_sharednz_max_redundancy): assembling with globalnz\n", p->sh.nblocks, p->sh.maxcells,
                          (double)p->sh.redundancy, (double)a->maxred));
      p->fallback_redundancy = p->sh.redundancy;
      PetscCall(PetscWarpSharedHostDestroy(&p->sh));
      ierr = PETSC_ERR_SUP;
    } else if (ierr == PETSC_ERR_SUP) PetscCall(PetscInfo(a, "sharednz: the elements (%" PetscInt_FMT " dofs, %" PetscInt_FMT " fit in a block's shared memory) do not fit\n", nel, maxcells));
    if (ierr == PETSC_ERR_SUP) {
      PetscCall(PetscInfo(a, "sharednz: assembling with globalnz\n"));
      p->strategy = PETSCWARP_ASM_GLOBALNZ;
      if (lazy) PetscCall(PlanSlots(a, A, t, PETSC_TRUE));
      PetscCall(PlanRed(a, A, t, device, (PetscCount)nsrc));
    } else {
      if (lazy) PetscCall(SharedRed(a, A, t, (PetscCount)nsrc));
      PetscCall(PetscInfo(a, "sharednz: %" PetscInt_FMT " blocks of at most %" PetscInt_FMT " cells (%" PetscInt_FMT " fit), %" PetscInt_FMT " partitions tried, %.3f element computations per element\n", p->sh.nblocks, p->sh.maxcells, maxcells, p->sh.nparts_tried,
                          (double)p->sh.redundancy));
      p->bytes += PetscWarpSharedHostBytes(&p->sh); /* with the device reduction array's bytes */
    }
    PetscCall(PetscFree(p->slot));
  } break;
  case PETSCWARP_ASM_COO: {
    PetscInt  *ci, *cj;
    PetscCount n = (PetscCount)nsrc;
    PetscCall(PetscMalloc2(n, &ci, n, &cj));
    for (PetscInt c = 0; c < a->ncells; c++)
      for (PetscInt i = 0; i < nel; i++)
        for (PetscInt j = 0; j < nel; j++) {
          ci[(c * nel + i) * nel + j] = a->e2d[c * nel + i];
          cj[(c * nel + i) * nel + j] = a->e2d[c * nel + j];
        }
    PetscCall(PetscLogEventBegin(PETSCWARPASM_COOPrealloc, A, 0, 0, 0));
    PetscCall(MatSetPreallocationCOO(A, n, ci, cj));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_COOPrealloc, A, 0, 0, 0));
    PetscCall(PetscFree2(ci, cj));
    p->bytes = (sizeof(PetscCount) * 2) * (PetscLogDouble)nsrc + sizeof(double) * (PetscLogDouble)nsrc;
  } break;
  }
  if (phys) PetscCall(PetscWarpAsmAffinePlan_Private(a, &ph, p)); /* before the upload: color reorders ccells */
#if PetscDefined(HAVE_CUDA)
  if (device) {
    PetscCall(PetscLogEventBegin(PETSCWARPASM_PlanUpload, A, 0, 0, 0));
    if (p->slot) PetscCall(PetscWarpAsmUpload_Private(p->slot, (size_t)nsrc, sizeof(int), (void **)&p->d_slot));
    if (p->ccells) PetscCall(PetscWarpAsmUpload_Private(p->ccells, (size_t)a->ncells, sizeof(int), (void **)&p->d_ccells));
    if (p->acells) PetscCall(PetscWarpAsmUpload_Private(p->acells, (size_t)p->naffine, sizeof(int), (void **)&p->d_acells));
    if (p->qcells) PetscCall(PetscWarpAsmUpload_Private(p->qcells, (size_t)(a->ncells - p->naffine), sizeof(int), (void **)&p->d_qcells));
    if (p->strategy == PETSCWARP_ASM_GLOBALNZ && p->red.off) PetscCall(UploadRed(&p->red, &p->d_red)); /* unless built there */
    if (p->strategy == PETSCWARP_ASM_ROWNZ) PetscCall(PetscWarpAsmRowNZUpload_Private(a, p));
    if (p->strategy == PETSCWARP_ASM_SHAREDNZ) {
      p->d_sh.nblocks  = (int)p->sh.nblocks;
      p->d_sh.bs       = (int)p->sh.bs;
      p->d_sh.maxcells = (int)p->sh.maxcells;
      PetscCall(PetscWarpAsmUpload_Private(p->sh.coff, (size_t)p->sh.nblocks + 1, sizeof(int), (void **)&p->d_sh.coff));
      PetscCall(PetscWarpAsmUpload_Private(p->sh.cells, (size_t)p->sh.coff[p->sh.nblocks], sizeof(int), (void **)&p->d_sh.cells));
      PetscCall(UploadRed(&p->sh.scatter, &p->d_sh.scatter));
      if (p->sh.red.off) PetscCall(UploadRed(&p->sh.red, &p->d_sh.red)); /* unless built there */
    }
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(PetscLogEventEnd(PETSCWARPASM_PlanUpload, A, 0, 0, 0));
  }
#endif
  PetscCall(PetscTime(&t1));
  p->setup_time = t1 - t0;
  p->matid      = ((PetscObject)A)->id;
  p->nzstate    = p->strategy == PETSCWARP_ASM_COO ? A->nonzerostate : t->nzstate; /* COO preallocation changes the pattern */
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Plan, A, 0, 0, 0));
  PetscCall(PetscInfo(a, "plan (%s, %s, %s target): %.3g s, %.3g MB\n", PetscWarpAsmStrategies[p->strategy], device ? "device" : "host", t->ell ? "ELL-WARP" : "CSR", p->setup_time, p->bytes / 1e6));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element matrices of all cells into E (device or host memory) */
static PetscErrorCode ElemAll(PetscWarpAsm a, PetscBool device, PetscScalar *E)
{
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  PetscWarpPhys ph;

  PetscFunctionBegin;
  PetscCall(Describe(a, device, &fe, &mesh, &ph));
  PetscCall(PetscWarpAsmAffineAll_Private(a, device, &ph, &fe, NULL)); /* every cell affine: the affine path */
  a->lastaffine = fe.Kaff ? a->ncells : 0;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Elem, 0, 0, 0, 0));
  if (!device) PetscCheck(PetscWarpAsmElemHost(&fe, &mesh, &ph, (int)a->ncells, NULL, E) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host element kernel failed");
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA((cudaError_t)PetscWarpAsmElemCUDA(&fe, &mesh, &ph, (int)a->ncells, NULL, E, st));
  }
#endif
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Elem, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Element-matrix buffer of the backend (ncells*nel*nel) */
static PetscErrorCode GetE(PetscWarpAsm a, PetscBool device, PetscScalar **E)
{
  size_t n = (size_t)(a->ncells * a->nel * a->nel);

  PetscFunctionBegin;
  if (!device) {
    if (!a->h_E) PetscCall(PetscMalloc1(PetscMax(n, 1), &a->h_E));
    *E = a->h_E;
  }
#if PetscDefined(HAVE_CUDA)
  else {
    if (!a->d_E) {
      cudaError_t err = cudaMalloc((void **)&a->d_E, sizeof(double) * PetscMax(n, 1));
      PetscCheck(err != cudaErrorMemoryAllocation, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of device memory for %zu element-matrix entries (%.3g GB): use -mat_warp_assembly sharednz, color or atomic", n, 8e-9 * (double)n);
      PetscCallCUDA(err);
    }
    *E = a->d_E;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run the plan's strategy: E (may be NULL) holds given element matrices; otherwise the element kernels compute them */
static PetscErrorCode RunStrategy(PetscWarpAsm a, Mat A, MatWarpTarget *t, const PetscScalar *Egiven)
{
  PetscWarpAsmPlan *p      = &a->plan;
  PetscBool         device = p->device;
  PetscWarpFE       fe;
  PetscWarpMesh     mesh;
  PetscWarpPhys     ph;
  PetscScalar      *E = (PetscScalar *)Egiven;
#if PetscDefined(HAVE_CUDA)
  cudaStream_t st = NULL;
#endif

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&fe, sizeof(fe)));
  PetscCall(PetscMemzero(&mesh, sizeof(mesh)));
  PetscCall(PetscMemzero(&ph, sizeof(ph)));
  if (!Egiven) PetscCall(Describe(a, device, &fe, &mesh, &ph)); /* given element matrices: only the reduction runs (any element, no physics) */
#if PetscDefined(HAVE_CUDA)
  if (device) PetscCall(PetscGetCurrentCUDAStream(&st));
#endif
  if (Egiven)
    PetscCheck(p->strategy == PETSCWARP_ASM_GLOBALNZ || p->strategy == PETSCWARP_ASM_COO, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "Given element matrices are reduced by the globalnz or coo strategies, not %s", PetscWarpAsmStrategies[p->strategy]);
  switch (p->strategy) {
  case PETSCWARP_ASM_ATOMIC:
  case PETSCWARP_ASM_COLOR: {
    PetscBool   color = (PetscBool)(p->strategy == PETSCWARP_ASM_COLOR), mixed;
    PetscWarpFE fa    = fe; /* mixed: the affine cells' description (the reference matrices); fe: the others' */
    int         na = (int)p->naffine, nq = (int)(a->ncells - p->naffine);

    PetscCall(PetscWarpAsmAffineAll_Private(a, device, &ph, &fe, &mixed));
    a->lastaffine = fe.Kaff ? a->ncells : 0;
    mixed         = (PetscBool)(mixed && na > 0); /* the plan split the cells (atomic lists, colors affine first) */
    if (mixed) {
      PetscCall(PetscWarpAsmAffineRefs_Private(a, device, ph.kind, &fa.Kaff));
      a->lastaffine = na;
    }
    if (!device) {
      PetscCall(PetscArrayzero(t->val, t->nslots));
      if (!mixed) PetscCheck(PetscWarpAsmDirectHost(&fe, &mesh, &ph, (int)a->ncells, NULL, p->slot, t->val) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host assembly failed");
      else if (!color)
        PetscCheck(PetscWarpAsmDirectHost(&fa, &mesh, &ph, na, p->acells, p->slot, t->val) == PETSCWARP_ASM_OK && PetscWarpAsmDirectHost(&fe, &mesh, &ph, nq, p->qcells, p->slot, t->val) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host assembly failed");
      else
        for (PetscInt k = 0; k < p->ncolors; k++) {
          int n = p->coff[k + 1] - p->coff[k], m = p->caff[k];
          PetscCheck(PetscWarpAsmDirectHost(&fa, &mesh, &ph, m, p->ccells + p->coff[k], p->slot, t->val) == PETSCWARP_ASM_OK && PetscWarpAsmDirectHost(&fe, &mesh, &ph, n - m, p->ccells + p->coff[k] + m, p->slot, t->val) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host assembly failed");
        }
    }
#if PetscDefined(HAVE_CUDA)
    else {
      PetscCallCUDA(cudaMemsetAsync(t->val, 0, sizeof(PetscScalar) * t->nslots, st));
      if (color)
        for (PetscInt k = 0; k < p->ncolors; k++) {
          int n = p->coff[k + 1] - p->coff[k], m = mixed ? p->caff[k] : 0;
          if (m) PetscCallCUDA((cudaError_t)PetscWarpAsmDirectCUDA(&fa, &mesh, &ph, m, p->d_ccells + p->coff[k], p->d_slot, 0, t->val, st));
          PetscCallCUDA((cudaError_t)PetscWarpAsmDirectCUDA(&fe, &mesh, &ph, n - m, p->d_ccells + p->coff[k] + m, p->d_slot, 0, t->val, st));
        }
      else if (mixed) {
        PetscCallCUDA((cudaError_t)PetscWarpAsmDirectCUDA(&fa, &mesh, &ph, na, p->d_acells, p->d_slot, 1, t->val, st));
        PetscCallCUDA((cudaError_t)PetscWarpAsmDirectCUDA(&fe, &mesh, &ph, nq, p->d_qcells, p->d_slot, 1, t->val, st));
      } else PetscCallCUDA((cudaError_t)PetscWarpAsmDirectCUDA(&fe, &mesh, &ph, (int)a->ncells, NULL, p->d_slot, 1, t->val, st));
    }
#endif
  } break;
  case PETSCWARP_ASM_GLOBALNZ:
    a->lastaffine = 0;
    if (!E) {
      PetscCall(GetE(a, device, &E));
      PetscCall(ElemAll(a, device, E));
    }
    PetscCall(PetscLogEventBegin(PETSCWARPASM_Reduce, A, 0, 0, 0));
    if (!device) {
      PetscWarpRed r = {(int)p->red.nblocks, (int)p->red.bs, p->red.off, p->red.ent};
      PetscWarpReduceHost(&r, E, t->val);
    }
#if PetscDefined(HAVE_CUDA)
    else
      PetscCallCUDA((cudaError_t)PetscWarpReduceCUDA(&p->d_red, E, t->val, st));
#endif
    PetscCall(PetscLogEventEnd(PETSCWARPASM_Reduce, A, 0, 0, 0));
    break;
  case PETSCWARP_ASM_SHAREDNZ:
    /* every cell affine: the affine path (not in blocks of more than 512 threads, whose device kernel would spill) */
    if (p->sh.bs <= 512) PetscCall(PetscWarpAsmAffineAll_Private(a, device, &ph, &fe, NULL));
    a->lastaffine = fe.Kaff ? a->ncells : 0;
    if (!device) {
      PetscWarpShared s = {
        (int)p->sh.nblocks,
        (int)p->sh.bs,
        (int)p->sh.maxcells,
        p->sh.coff,
        p->sh.cells,
        {(int)p->sh.scatter.nblocks, (int)p->sh.scatter.bs, p->sh.scatter.off, p->sh.scatter.ent},
        {(int)p->sh.red.nblocks,     (int)p->sh.red.bs,     p->sh.red.off,     p->sh.red.ent    }
      };
      PetscCheck(PetscWarpAsmSharedNZHost(&fe, &mesh, &ph, &s, t->val) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host sharednz assembly failed");
    }
#if PetscDefined(HAVE_CUDA)
    else
      PetscCallCUDA((cudaError_t)PetscWarpAsmSharedNZCUDA(&fe, &mesh, &ph, &p->d_sh, t->val, st));
#endif
    break;
  case PETSCWARP_ASM_ROWNZ:
    PetscCall(PetscWarpAsmRowNZRun_Private(a, A, t, &fe, &mesh, &ph));
    break;
  case PETSCWARP_ASM_COO:
    break; /* done by the caller, after MatWarpTargetEnd() */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TimerBegin(PetscWarpAsm a, PetscBool device, PetscLogDouble *t0)
{
  PetscFunctionBegin;
  PetscCall(PetscTime(t0));
#if PetscDefined(HAVE_CUDA)
  if (device) {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    for (int i = 0; i < 2; i++)
      if (!a->ev[i]) PetscCallCUDA(cudaEventCreate((cudaEvent_t *)&a->ev[i]));
    PetscCallCUDA(cudaEventRecord((cudaEvent_t)a->ev[0], st));
    PetscCall(PetscLogGpuTimeBegin());
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TimerEnd(PetscWarpAsm a, PetscBool device, PetscLogDouble t0)
{
  PetscLogDouble t1;

  PetscFunctionBegin;
  a->lastdevice = device;
  a->nassemblies++;
#if PetscDefined(HAVE_CUDA)
  if (device) {
    cudaStream_t st;
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA(cudaEventRecord((cudaEvent_t)a->ev[1], st));
    a->assembly_time = -1; /* read lazily from the events (PetscWarpAsmGetInfo): no synchronization here */
    PetscCall(PetscLogGpuFlops(2.0 * a->ncells * a->nel * a->nel * a->nq * (a->dim + 1)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(PetscTime(&t1));
  a->assembly_time = t1 - t0;
  PetscCall(PetscLogFlops(2.0 * a->ncells * a->nel * a->nel * a->nq * (a->dim + 1)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checks of a matrix to assemble into (size: its communicator's size): A's sizes against the elements', and its
   pattern. Every rank takes the same branches (the flags are reduced first: PETSc clears A->assembled only on the ranks
   that called MatSetValues()).
   - Values set by MatSetValues() and not assembled (on any rank) are an error, as is a matrix not preallocated.
   - Several ranks, or the coo strategy: the plan's MatSetPreallocationCOO() gives the pattern, so a matrix that is not
     assembled is fine when it has no entries, or when the coo plan preallocated it (and left it unassembled).
   - One rank: a SeqAIJ-based matrix without entries gets the elements' pattern (PetscWarpAsmSetPattern_Private()):
     MatSetUp() ones (hash), DMCreateMatrix() after DMSetMatrixPreallocateSkip() or DMSetMatrixPreallocateOnly(), empty
     assembled ones, and also one the caller preallocated and left empty (its preallocation is replaced, as
     MatSetPreallocationCOO() replaces it with coo or on several ranks). */
static PetscErrorCode CheckMatrix(PetscWarpAsm a, Mat A, PetscMPIInt *size)
{
  MPI_Comm comm;
  int      f[4];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(a, PETSCWARPASM_CLASSID, 1);
  PetscCheckSameComm(a, 1, A, 2);
  comm = PetscObjectComm((PetscObject)A);
  PetscCallMPI(MPI_Comm_size(comm, size));
  PetscCheck(*size == 1 || a->size == *size, comm, PETSC_ERR_ARG_WRONGSTATE, "Set the elements (PetscWarpAsmSetElements()) before assembling on %d ranks", *size);
  f[0] = A->rmap->n != a->nrows || A->cmap->n != a->ncols;                                                                        /* wrong sizes */
  f[1] = !A->assembled;                                                                                                           /* not assembled */
  f[2] = A->insertmode != NOT_SET_VALUES;                                                                                         /* MatSetValues() since the last assembly */
  f[3] = !(a->plan.matid == ((PetscObject)A)->id && a->plan.strategy == PETSCWARP_ASM_COO && a->plan.nzstate == A->nonzerostate); /* not the coo plan's own preallocation */
  if (*size > 1) PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, f, 4, MPI_INT, MPI_LOR, comm));
  PetscCheck(!f[0], comm, PETSC_ERR_ARG_SIZ, "Matrix is %" PetscInt_FMT " x %" PetscInt_FMT ", the element map is for %" PetscInt_FMT " x %" PetscInt_FMT " (on this rank; the sizes differ on at least one rank)", A->rmap->n, A->cmap->n, a->nrows, a->ncols);
  if (f[1]) {
    PetscCheck(A->preallocated, comm, PETSC_ERR_ARG_WRONGSTATE, "Preallocate the matrix (MatSetUp(), MatXAIJSetPreallocation()), or create it with DMCreateMatrix() or PetscWarpAsmCreateMatrix()");
    PetscCheck(!f[2], comm, PETSC_ERR_ARG_WRONGSTATE, "The matrix has values set with MatSetValues() but is not assembled: call MatAssemblyBegin/End() first");
    if (f[3]) {
      MatInfo info;

      PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
      PetscCheck(info.nz_used == 0, comm, PETSC_ERR_ARG_WRONGSTATE, "The matrix has %g entries but is not assembled: call MatAssemblyBegin/End() first", (double)info.nz_used);
    }
  }
  if (*size == 1 && A->rmap->n > 0 && a->strategy != PETSCWARP_ASM_COO) {
    PetscBool seqaij;

    PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij));
    if (seqaij) {
      MatInfo info;

      PetscCall(MatGetInfo(A, MAT_LOCAL, &info)); /* MatGetInfo_SeqAIJ(): O(1) */
      if (info.nz_used == 0) {
        PetscCall(PetscInfo(a, "The %s matrix has no entries: the elements' pattern\n", ((PetscObject)A)->type_name));
        PetscCall(PetscWarpAsmSetPattern_Private(a, A));
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's COO path (the coo strategy, or several ranks): whether A sums COO values on the device. Device COO:
   PETSc's MATSEQAIJCUSPARSE (MATSHAREDNZ included) and MATMPIAIJCUSPARSE, and MATSEQAIJELLWARP with the cuda backend
   (its own MatSetValuesCOO() sums into the layout's slots on the device); MATMPIAIJELLWARP takes device element
   matrices (and sums on the host, MPIAIJ's COO); other AIJ types sum on the host */
static PetscErrorCode COODevice(PetscWarpAsm a, Mat A, PetscMPIInt size, PetscBool *devcoo)
{
  PetscBool iscusp, isell;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &iscusp, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, MATSHAREDNZ, ""));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &isell, MATSEQAIJELLWARP, MATMPIAIJELLWARP, ""));
  *devcoo = iscusp;
  if (isell) {
    MatEllWarpBackend be;
    PetscCall(MatEllWarpGetBackend(A, &be));
    *devcoo = (PetscBool)(be == MAT_ELLWARP_BACKEND_CUDA);
  }
  if (size > 1 && a->strategy != PETSCWARP_ASM_COO && !a->mpiinfo) {
    PetscCall(PetscInfo(a, "%d ranks: the %s strategy is for one rank; the element matrices are reduced by MatSetValuesCOO() of the %s matrix, which sends the entries of other ranks' rows to them\n", size, PetscWarpAsmStrategies[a->strategy],
                        ((PetscObject)A)->type_name));
    a->mpiinfo = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the element matrices given to PetscWarpAsmAssembleElementMatrices() for A are to be in device memory (the
   target of the strategy, or the COO path, is on the device) */
PetscErrorCode PetscWarpAsmElementMatricesOnDevice_Private(PetscWarpAsm a, Mat A, PetscBool *device)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(CheckMatrix(a, A, &size));
  if (a->strategy == PETSCWARP_ASM_COO || size > 1) {
    PetscBool devcoo = PETSC_FALSE;

    PetscCall(COODevice(a, A, size, &devcoo));
    *device = (PetscBool)(a->usedevice && devcoo);
  } else {
    MatWarpTarget t;

    PetscCall(MatWarpTargetGetLayout(A, a->usedevice, &t));
    *device = t.device;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The COO plan (MatSetPreallocationCOO()) of A, unless the current plan is it */
static PetscErrorCode PlanCOO(PetscWarpAsm a, Mat A, PetscBool device)
{
  MatWarpTarget t;

  PetscFunctionBegin;
  if (a->plan.matid != ((PetscObject)A)->id || a->plan.nzstate != A->nonzerostate || a->plan.strategy != PETSCWARP_ASM_COO || a->plan.requested != a->strategy || a->plan.device != device) {
    t.nslots = A->rmap->n; /* unused by the COO plan */
    t.ell    = PETSC_FALSE;
    PetscCall(PlanSetUp(a, A, &t, device));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The plan for the target t of A, unless the current plan is it */
static PetscErrorCode PlanTarget(PetscWarpAsm a, Mat A, const MatWarpTarget *t, PetscBool device)
{
  PetscFunctionBegin;
  if (a->plan.matid != ((PetscObject)A)->id || a->plan.nzstate != t->nzstate || a->plan.requested != a->strategy || a->plan.device != device || a->plan.ell != t->ell || a->plan.nslots != t->nslots) PetscCall(PlanSetUp(a, A, t, device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Assemble (Egiven: element matrices given by the caller, in the memory of the backend) */
static PetscErrorCode Assemble(PetscWarpAsm a, const PetscScalar *Egiven, PetscMemType mtE, Mat A)
{
  MatWarpTarget  t;
  PetscBool      device;
  PetscMPIInt    size;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(a, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(A, MAT_CLASSID, 4);
  PetscCall(CheckMatrix(a, A, &size));
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Assemble, A, 0, 0, 0));
  device = a->usedevice;
  if (Egiven) device = (PetscBool)!PetscMemTypeHost(mtE);
  if (a->strategy == PETSCWARP_ASM_COO || size > 1) { /* PETSc's own path: element matrices then MatSetValuesCOO() */
    PetscScalar *E = (PetscScalar *)Egiven;
    PetscBool    devcoo;

    PetscCall(COODevice(a, A, size, &devcoo));
    PetscCheck(!Egiven || devcoo || PetscMemTypeHost(mtE), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Device element matrices need a matrix with a device COO path for the coo strategy (MATAIJCUSPARSE, MATSHAREDNZ, MATELLWARP with the cuda backend), not %s",
               ((PetscObject)A)->type_name);
    device = (PetscBool)(device && devcoo);
    PetscCall(PlanCOO(a, A, device));
    PetscCall(TimerBegin(a, device, &t0));
    a->lastaffine = 0;
    if (!E) {
      PetscCall(GetE(a, device, &E));
      PetscCall(ElemAll(a, device, E));
    }
    PetscCall(PetscLogEventBegin(PETSCWARPASM_Reduce, A, 0, 0, 0));
    PetscCall(MatSetValuesCOO(A, E, INSERT_VALUES));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_Reduce, A, 0, 0, 0));
    PetscCall(TimerEnd(a, device, t0));
    PetscCall(PetscLogEventEnd(PETSCWARPASM_Assemble, A, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatWarpTargetBegin(A, device, &t));
  device = t.device; /* a host-only target (MATSEQAIJ, ELL-WARP's host backend) is assembled by the host twins */
  PetscCheck(!Egiven || PetscMemTypeHost(mtE) == !device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The element matrices are in %s memory, the matrix's values in %s memory", PetscMemTypeHost(mtE) ? "host" : "device", device ? "device" : "host");
  PetscCall(PlanTarget(a, A, &t, device));
  PetscCall(TimerBegin(a, device, &t0));
  PetscCall(RunStrategy(a, A, &t, Egiven));
  PetscCall(TimerEnd(a, device, t0));
  PetscCall(MatWarpTargetEnd(A, &t));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Assemble, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetUpMatrix - Builds the plan of the current strategy for a matrix, as the first
  `PetscWarpAsmAssembleMatrix()` into it would, without assembling

  Collective

  Input Parameters:
+ wa - the assembly object
- A  - the matrix that will be assembled (see `PetscWarpAsmAssembleMatrix()`)

  Level: advanced

  Notes:
  The matrix's values are neither read nor written, except that a matrix without entries first gets the elements'
  pattern with zero values (see `PetscWarpAsmAssembleMatrix()`). An ELL-WARP matrix builds its layout if its pattern
  changed. The plan's cost is in `PetscWarpAsmInfo.setup_time` (`PetscWarpAsmGetInfo()`), its phases in the log events
  `WarpAsmPlanSlots`, `WarpAsmPlanColor`, `WarpAsmPlanRed`, `WarpAsmPlanPart`, `WarpAsmPlanBlocks` and
  `WarpAsmPlanUpload` (`-log_view`). Calling it is never needed: an assembly builds a missing or stale plan itself.

.seealso: `PetscWarpAsm`, `PetscWarpAsmAssembleMatrix()`, `PetscWarpAsmSetStrategy()`, `PetscWarpAsmGetInfo()`
@*/
PetscErrorCode PetscWarpAsmSetUpMatrix(PetscWarpAsm wa, Mat A)
{
  PetscMPIInt size;
  PetscBool   device = wa ? wa->usedevice : PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(A, MAT_CLASSID, 2);
  PetscCall(CheckMatrix(wa, A, &size));
  if (wa->strategy == PETSCWARP_ASM_COO || size > 1) {
    PetscBool devcoo;

    PetscCall(COODevice(wa, A, size, &devcoo));
    PetscCall(PlanCOO(wa, A, (PetscBool)(device && devcoo)));
  } else {
    MatWarpTarget t;

    PetscCall(MatWarpTargetGetLayout(A, device, &t));
    PetscCall(PlanTarget(wa, A, &t, t.device));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAssembleMatrix - Computes the element matrices of the built-in physics and reduces them into the values of
  a matrix, on the device when there is one (the matrix's device values are then the only current ones)

  Collective

  Input Parameters:
+ wa - the assembly object
- A   - a `MATELLWARP`, `MATSHAREDNZ`, `MATSEQAIJCUSPARSE` or `MATSEQAIJ` matrix whose nonzero pattern holds every
        coupling of the elements (from `PetscWarpAsmCreateMatrix()` or `DMCreateMatrix()`), or one without entries
        (`MatSetUp()`, `DMCreateMatrix()` after `DMSetMatrixPreallocateSkip()`), which first gets the elements' pattern:
        on one rank with the diagonal (as `PetscWarpAsmCreateMatrix()`), with the coo strategy or on several ranks from
        `MatSetPreallocationCOO()` of the elements. A matrix with values set by `MatSetValues()` and not assembled is
        an error.

  Level: intermediate

  Notes:
  The values are overwritten (`INSERT_VALUES` of the summed element matrices). The first call with a matrix builds the
  plan of the strategy (`PetscWarpAsmSetStrategy()`) for its layout (CSR slots, or ELL-WARP slots directly); later
  calls with the same matrix and pattern reuse it. A `MATSEQAIJ` matrix, or an ELL-WARP matrix with the host backend,
  is assembled by the host twins of the kernels.

.seealso: `PetscWarpAsm`, `PetscWarpAsmCreateMatrix()`, `PetscWarpAsmAssembleElementMatrices()`, `PetscWarpAsmAssembleVector()`
@*/
PetscErrorCode PetscWarpAsmAssembleMatrix(PetscWarpAsm wa, Mat A)
{
  PetscFunctionBegin;
  PetscCall(Assemble(wa, NULL, PETSC_MEMTYPE_HOST, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAssembleElementMatrices - Reduces element matrices the caller computed into the values of a matrix

  Collective

  Input Parameters:
+ wa - the assembly object (its elements set; mesh and reference element are not needed)
. E   - `E[(cell*nel + i)*nel + j]`, in device memory (assembled on the device) or host memory (host twins)
- A   - the matrix

  Level: intermediate

  Note:
  Uses the globalnz strategy (a packed reduction array into the matrix's own slots), or coo when that is the strategy.

.seealso: `PetscWarpAsm`, `PetscWarpAsmAssembleMatrix()`, `PetscWarpAsmComputeElementMatrices()`
@*/
PetscErrorCode PetscWarpAsmAssembleElementMatrices(PetscWarpAsm wa, const PetscScalar E[], Mat A)
{
  PetscMemType         mt;
  PetscWarpAsmStrategy s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCall(PetscGetMemType(E, &mt));
  s = wa->strategy;
  if (s != PETSCWARP_ASM_COO) PetscCall(PetscWarpAsmSetStrategy(wa, PETSCWARP_ASM_GLOBALNZ));
  PetscCall(Assemble(wa, E, mt, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmComputeElementMatrices - Computes the element matrices of the built-in physics

  Collective

  Input Parameters:
+ wa - the assembly object
- E   - array of ncells*nel*nel entries, in device memory (computed on the device) or host memory (host twin)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmAssembleElementMatrices()`
@*/
PetscErrorCode PetscWarpAsmComputeElementMatrices(PetscWarpAsm wa, PetscScalar E[])
{
  PetscMemType mt;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCall(PetscGetMemType(E, &mt));
  PetscCall(ElemAll(wa, (PetscBool)!PetscMemTypeHost(mt), E));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* More than one rank: the load vector of the local cells by distinct row (the same kernels, rowslot indexing the
   distinct rows), then VecSetValuesCOO(), which sends the rows of other ranks to them */
static PetscErrorCode AssembleVectorMPI(PetscWarpAsm wa, Vec F)
{
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  PetscWarpPhys ph;
  PetscBool     device = PETSC_FALSE;
  PetscScalar  *work   = NULL;
  PetscInt      n      = wa->nvcoo;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Vector, F, 0, 0, 0));
  if (wa->vcoo_id != ((PetscObject)F)->id) {
    PetscCall(VecSetPreallocationCOO(F, n, wa->vcoo));
    wa->vcoo_id = ((PetscObject)F)->id;
  }
#if PetscDefined(HAVE_CUDA)
  {
    PetscBool iscuda;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)F, &iscuda, VECMPICUDA, VECSEQCUDA, ""));
    /* VecSetValuesCOO() of a VECMPICUDA vector crashed (SEGV inside PETSc, after VecCUDACopyFrom) on the H100 with device
       values from this path (2026-11-23): refused until understood */
    PetscCheck(!iscuda, PetscObjectComm((PetscObject)F), PETSC_ERR_SUP, "Load vectors of PetscWarpAsm on several ranks are assembled into host vectors (VECMPI) in this version, not %s", ((PetscObject)F)->type_name);
    device = (PetscBool)(iscuda && wa->usedevice);
  }
  if (device) {
    cudaStream_t st;
    PetscCall(Describe(wa, PETSC_TRUE, &fe, &mesh, &ph));
    if (!wa->d_vwork && n) PetscCallCUDA(cudaMalloc((void **)&wa->d_vwork, sizeof(double) * n));
    work = wa->d_vwork;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    if (n) PetscCallCUDA(cudaMemsetAsync(work, 0, sizeof(PetscScalar) * n, st));
    PetscCallCUDA((cudaError_t)PetscWarpAsmLoadCUDA(&fe, &mesh, &ph, wa->d_rowslot, work, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * wa->ncells * wa->nel * wa->nq));
  }
#endif
  if (!device) {
    PetscCall(Describe(wa, PETSC_FALSE, &fe, &mesh, &ph));
    PetscCall(PetscCalloc1(PetscMax(n, 1), &work));
    PetscCheck(PetscWarpAsmLoadHost(&fe, &mesh, &ph, wa->rowslot, work) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host load-vector kernel failed");
    PetscCall(PetscLogFlops(2.0 * wa->ncells * wa->nel * wa->nq));
  }
  PetscCall(VecSetValuesCOO(F, work, INSERT_VALUES));
  if (!device) PetscCall(PetscFree(work));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Vector, F, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAssembleVector - Assembles the load vector F[(a,c)] = int f[c] phi_a of the source (`PetscWarpAsmSetSource()`)

  Collective

  Input Parameters:
+ wa - the assembly object
- F   - the vector (its values are overwritten); a `VECCUDA` vector is assembled on the device

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetSource()`, `PetscWarpAsmAssembleMatrix()`
@*/
PetscErrorCode PetscWarpAsmAssembleVector(PetscWarpAsm wa, Vec F)
{
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  PetscWarpPhys ph;
  PetscInt      n;
  PetscScalar  *f;
  PetscMemType  mt;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(F, VEC_CLASSID, 2);
  PetscCheckSameComm(wa, 1, F, 2);
  PetscCall(VecGetLocalSize(F, &n));
  PetscCheck(n == wa->nrows, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Vector of local size %" PetscInt_FMT ", the element map has %" PetscInt_FMT " rows", n, wa->nrows);
  if (wa->size > 1) {
    PetscCall(AssembleVectorMPI(wa, F));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Vector, F, 0, 0, 0));
  PetscCall(VecGetArrayWriteAndMemType(F, &f, &mt));
  if (PetscMemTypeHost(mt) || !wa->usedevice) {
    if (!PetscMemTypeHost(mt)) { /* device vector, host assembly */
      PetscCall(VecRestoreArrayWriteAndMemType(F, &f));
      PetscCall(VecGetArrayWrite(F, &f));
      mt = PETSC_MEMTYPE_HOST;
    }
    PetscCall(Describe(wa, PETSC_FALSE, &fe, &mesh, &ph));
    PetscCall(PetscArrayzero(f, n));
    PetscCheck(PetscWarpAsmLoadHost(&fe, &mesh, &ph, wa->rowslot, f) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_MEM, "Host load-vector kernel failed");
    PetscCall(PetscLogFlops(2.0 * wa->ncells * wa->nel * wa->nq));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(Describe(wa, PETSC_TRUE, &fe, &mesh, &ph));
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cudaMemsetAsync(f, 0, sizeof(PetscScalar) * n, st));
    PetscCallCUDA((cudaError_t)PetscWarpAsmLoadCUDA(&fe, &mesh, &ph, wa->d_rowslot, f, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * wa->ncells * wa->nel * wa->nq));
  }
#endif
  if (PetscMemTypeHost(mt)) PetscCall(VecRestoreArrayWrite(F, &f));
  else PetscCall(VecRestoreArrayWriteAndMemType(F, &f));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Vector, F, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A is an ELL-WARP matrix (*isew) and, if so, whether its layout lives on the device (*cuda) */
static PetscErrorCode EllWarpBackendCUDA(Mat A, PetscBool *isew, PetscBool *cuda)
{
  PetscVoidFn *f = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatEllWarpGetOpts_C", &f));
  *isew = (PetscBool) !!f;
  *cuda = PETSC_FALSE;
  if (f) {
    MatEllWarpBackend be;

    PetscCall(MatEllWarpGetBackend(A, &be));
    *cuda = (PetscBool)(be == MAT_ELLWARP_BACKEND_CUDA);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rank: the nonzero pattern of the elements set into A (SeqAIJ-based, preallocated, no entries), values zero,
   the diagonal included, assembled. The pattern on the device when assembling there (-mat_warp_assembly_device_plan),
   else on the host; an ELL-WARP matrix of the CUDA backend builds its layout from the device pattern (no upload of the
   CSR and its zero values) */
PetscErrorCode PetscWarpAsmSetPattern_Private(PetscWarpAsm wa, Mat A)
{
  PetscInt *ri = NULL, *cj = NULL;
  int      *d_rp = NULL, *d_ci = NULL;
  PetscBool dev, built         = PETSC_FALSE, seqaij;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &seqaij));
  PetscCheck(seqaij && A->rmap->n == wa->nrows && A->cmap->n == wa->ncols, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The elements' pattern goes into a SeqAIJ-based matrix of %" PetscInt_FMT " x %" PetscInt_FMT ", not a %s of %" PetscInt_FMT " x %" PetscInt_FMT, wa->nrows, wa->ncols,
             ((PetscObject)A)->type_name, A->rmap->n, A->cmap->n);
  PetscCall(PetscWarpDeviceAvailable(&dev));
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Pattern, 0, 0, 0, 0));
  if (dev && wa->usedevice && wa->redplandev) {
    PetscBool isew, keep;

    PetscCall(EllWarpBackendCUDA(A, &isew, &keep));
    keep = (PetscBool)(keep && !A->structure_only);
    PetscCall(PatternDevice(wa->nrows, wa->ncols, wa->ncells, wa->nel, wa->e2d, PETSC_TRUE, &ri, &cj, keep ? &d_rp : NULL, keep ? &d_ci : NULL, &built));
  }
  if (!built) PetscCall(PetscWarpPlanPattern(wa->nrows, wa->ncols, wa->ncells, wa->nel, wa->e2d, PETSC_TRUE, &ri, &cj));
  PetscCall(PetscInfo(wa, "Symbolic pattern computed on the %s: %" PetscInt_FMT " entries\n", built ? "device" : "host", wa->nrows ? ri[wa->nrows] : 0));
  PetscCall(MatWarpSeqAIJSetPatternCSR_Private(A, ri, cj)); /* MatSeqAIJSetPreallocationCSR() without MatSetValues() per row */
#if PetscDefined(HAVE_CUDA)
  if (d_rp) { /* 32-bit PetscInt here (the device pattern needs it) */
    PetscCall(MatEllWarpBuildFromDevice_Private(A, (const int *)ri, d_rp, d_ci));
    PetscCall(DFree(d_rp));
    PetscCall(DFree(d_ci));
  }
#endif
  PetscCall(PetscFree(ri));
  PetscCall(PetscFree(cj));
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Pattern, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmCreateMatrix - Creates a matrix with the nonzero pattern of the elements (symbolic assembly), values zero

  Collective

  Input Parameters:
+ wa  - the assembly object
- type - `MATELLWARP`, `MATSHAREDNZ`, `MATAIJCUSPARSE`, `MATAIJ`, ... (`NULL`: `MATSHAREDNZ` when there is a device, else
         `MATAIJ`)

  Output Parameter:
. A - the matrix, assembled (all couplings of the elements and the diagonal present, values zero)

  Level: intermediate

  Note:
  The pattern is built from the element-to-dof map, without PETSc's DMPlex preallocation: on the device when assembling
  there (`PetscWarpPlanPatternDevice()`; `-mat_warp_assembly_device_plan 0` for the host's `PetscWarpPlanPattern()`),
  and set into the matrix at once (not through `MatSetValues()` row by row). On several ranks it comes from the COO
  preallocation of the elements.

.seealso: `PetscWarpAsm`, `PetscWarpAsmAssembleMatrix()`, `PetscWarpPlanPatternDevice()`
@*/
PetscErrorCode PetscWarpAsmCreateMatrix(PetscWarpAsm wa, MatType type, Mat *A)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscAssertPointer(A, 3);
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!type) type = dev ? MATSHAREDNZ : MATAIJ;
  if (wa->size > 1) { /* the pattern from the COO preallocation of the elements (the coo plan, reused by the assembly) */
    PetscScalar  *zero;
    MatWarpTarget t;
    PetscBool     device = PETSC_FALSE, isew, ewcuda;

    PetscCall(MatCreate(PetscObjectComm((PetscObject)wa), A));
    PetscCall(MatSetSizes(*A, wa->nrows, wa->ncols, PETSC_DETERMINE, PETSC_DETERMINE));
    PetscCall(MatSetType(*A, type));
    if (wa->usedevice) {
      PetscCall(PetscObjectTypeCompareAny((PetscObject)*A, &device, MATMPIAIJCUSPARSE, MATSEQAIJCUSPARSE, ""));
      PetscCall(EllWarpBackendCUDA(*A, &isew, &ewcuda));
      if (isew) device = ewcuda;
    }
    t.nslots = wa->nrows;
    t.ell    = PETSC_FALSE;
    PetscCall(PlanSetUp(wa, *A, &t, device));
    PetscCall(PetscCalloc1(PetscMax(wa->ncells * wa->nel * wa->nel, 1), &zero));
    PetscCall(MatSetValuesCOO(*A, zero, INSERT_VALUES));
    PetscCall(PetscFree(zero));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatCreate(PetscObjectComm((PetscObject)wa), A));
  PetscCall(MatSetSizes(*A, wa->nrows, wa->ncols, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A, type));
  PetscCall(PetscWarpAsmSetPattern_Private(wa, *A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmGetInfo - Costs and sizes of the plan and of the last assembly

  Not Collective

  Input Parameter:
. wa - the assembly object

  Output Parameter:
. info - the statistics (waits for the last device assembly to read its time)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmInfo`, `PetscWarpAsmView()`
@*/
PetscErrorCode PetscWarpAsmGetInfo(PetscWarpAsm wa, PetscWarpAsmInfo *info)
{
  PetscWarpAsmPlan *p;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscAssertPointer(info, 2);
  p = &wa->plan;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->strategy      = wa->strategy;
  info->used          = wa->plan.matid ? p->strategy : wa->strategy;
  info->device        = wa->lastdevice;
  info->ncells        = wa->ncells;
  info->nel           = wa->nel;
  info->nrows         = wa->nrows;
  info->nnz           = p->nslots;
  info->ncolors       = p->ncolors;
  info->nblocks       = p->strategy == PETSCWARP_ASM_SHAREDNZ ? p->sh.nblocks : p->red.nblocks;
  info->maxcells      = p->sh.maxcells;
  info->redundancy    = p->strategy == PETSCWARP_ASM_SHAREDNZ ? p->sh.redundancy : p->fallback_redundancy;
  info->plan_bytes    = p->bytes;
  info->setup_time    = p->setup_time;
  info->nassemblies   = wa->nassemblies;
  info->assembly_time = wa->assembly_time;
  info->affine        = wa->affine;
  info->naffine       = wa->naffine;
  info->affine_last   = wa->lastaffine;
#if PetscDefined(HAVE_CUDA)
  if (wa->assembly_time < 0 && wa->ev[1]) {
    float ms;
    PetscCallCUDA(cudaEventSynchronize((cudaEvent_t)wa->ev[1]));
    PetscCallCUDA(cudaEventElapsedTime(&ms, (cudaEvent_t)wa->ev[0], (cudaEvent_t)wa->ev[1]));
    info->assembly_time = 1e-3 * ms;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmView - Prints the problem, the strategy and the plan of a `PetscWarpAsm`

  Collective

  Input Parameters:
+ wa    - the assembly object
- viewer - an ASCII viewer (`NULL`: standard output)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmGetInfo()`
@*/
PetscErrorCode PetscWarpAsmView(PetscWarpAsm wa, PetscViewer viewer)
{
  PetscBool        iascii;
  PetscWarpAsmInfo info;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(PetscObjectComm((PetscObject)wa), &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(PetscObjectPrintClassNamePrefixType((PetscObject)wa, viewer));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (wa->nfields > 1)
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " cells of %" PetscInt_FMT " dofs (%" PetscInt_FMT " fields, field 0: %" PetscInt_FMT " basis functions x %" PetscInt_FMT " components; %" PetscInt_FMT " quadrature points, %" PetscInt_FMT " vertices), %" PetscInt_FMT " rows, dim %" PetscInt_FMT "\n", wa->ncells, wa->nel, wa->nfields, wa->nb, wa->nc, wa->nq, wa->ncv, wa->nrows, wa->dim));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " cells of %" PetscInt_FMT " dofs (%" PetscInt_FMT " basis functions x %" PetscInt_FMT " components, %" PetscInt_FMT " quadrature points, %" PetscInt_FMT " vertices), %" PetscInt_FMT " rows, dim %" PetscInt_FMT "\n", wa->ncells, wa->nel, wa->nb, wa->nc, wa->nq, wa->ncv, wa->nrows, wa->dim));
  PetscCall(PetscViewerASCIIPrintf(viewer, "physics %s, shift %g; strategy %s on the %s\n", wa->physics == PETSCWARP_PHYSICS_LAPLACE ? "Laplace" : "elasticity", (double)wa->shift, PetscWarpAsmStrategies[wa->strategy], wa->usedevice ? "device" : "host"));
  if (wa->strategy == PETSCWARP_ASM_SHAREDNZ)
    PetscCall(PetscViewerASCIIPrintf(viewer, "sharednz: %s partition, %" PetscInt_FMT " threads and shared memory %s%" PetscInt_FMT "%s per block, globalnz above %g computations per element\n", PetscWarpSharedNZPartitioners[wa->partitioner], wa->sbs, wa->smem ? "" : "(", wa->smem, wa->smem ? " bytes" : ": the device's maximum)",
                                     (double)wa->maxred));
  if (wa->plan.matid) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "plan for a %s target of %" PetscInt_FMT " slots: set-up %.3g s, %.3g MB", wa->plan.ell ? "ELL-WARP" : "CSR", info.nnz, info.setup_time, info.plan_bytes / 1e6));
    if (wa->plan.strategy == PETSCWARP_ASM_COLOR) PetscCall(PetscViewerASCIIPrintf(viewer, ", %" PetscInt_FMT " colors", info.ncolors));
    if (wa->plan.strategy == PETSCWARP_ASM_SHAREDNZ) PetscCall(PetscViewerASCIIPrintf(viewer, ", %" PetscInt_FMT " blocks of at most %" PetscInt_FMT " cells, %.3f computations per element", info.nblocks, info.maxcells, (double)info.redundancy));
    if (wa->plan.strategy == PETSCWARP_ASM_GLOBALNZ) PetscCall(PetscViewerASCIIPrintf(viewer, ", %" PetscInt_FMT " reduction blocks", info.nblocks));
    if (wa->plan.strategy == PETSCWARP_ASM_ROWNZ)
      PetscCall(PetscViewerASCIIPrintf(viewer, ", %" PetscInt_FMT " tiles of rows (at most %" PetscInt_FMT " slots), %s positions, %s", wa->plan.rn.ntiles, wa->plan.rn.maxslots, wa->plan.rn.wide ? "16-bit" : "8-bit", PetscWarpAsmRowNZArithmetic_Private(wa)));
    if (wa->plan.strategy != wa->plan.requested)
      PetscCall(PetscViewerASCIIPrintf(viewer, " (%s fell back to %s: %s)", PetscWarpAsmStrategies[wa->plan.requested], PetscWarpAsmStrategies[wa->plan.strategy],
                                       wa->plan.fallback                  ? wa->plan.fallback
                                       : wa->plan.fallback_redundancy > 0 ? "too much redundancy"
                                                                          : "elements do not fit"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "%" PetscInt_FMT " assemblies, last %.3g s (%s)\n", info.nassemblies, info.assembly_time, info.device ? "device" : "host"));
  if (!info.affine) PetscCall(PetscViewerASCIIPrintf(viewer, "affine fast path: off (-mat_warp_assembly_affine)\n"));
  else if (info.naffine < 0) PetscCall(PetscViewerASCIIPrintf(viewer, "affine fast path: on, cells not checked yet\n"));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "affine fast path: on, %" PetscInt_FMT " of %" PetscInt_FMT " cells affine; the last assembly computed %" PetscInt_FMT " cells by it\n", info.naffine, info.ncells, info.affine_last));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmDescribe_Private(PetscWarpAsm a, PetscBool device, PetscWarpFE *fe, PetscWarpMesh *mesh, PetscWarpPhys *ph)
{
  PetscFunctionBegin;
  PetscCall(Describe(a, device, fe, mesh, ph));
  PetscFunctionReturn(PETSC_SUCCESS);
}
