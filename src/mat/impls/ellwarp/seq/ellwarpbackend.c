/*
  MATSEQAIJELLWARP: keeping the ELL-WARP layout coherent with the host AIJ values, and dispatching the products to the
  host twin or the CUDA kernels of src/kernels/.
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petsctime.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

static PetscErrorCode CheckHost(Mat A, int err)
{
  PetscFunctionBegin;
  PetscCheck(err != PETSCWARP_ERR_MEM, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of host memory building the ELL-WARP layout of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix", A->rmap->n, A->cmap->n);
  PetscCheck(err != PETSCWARP_ERR_RANGE, PETSC_COMM_SELF, PETSC_ERR_SUP, "The ELL-WARP layout of this matrix needs more than 2^31 slots; use more MPI ranks");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeLayout(Mat_SeqAIJEllWarp *ew)
{
  PetscFunctionBegin;
  if (ew->built) {
    if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) PetscWarpEllFreeHost(&ew->E);
#if PetscDefined(HAVE_CUDA)
    else PetscCallCUDA((cudaError_t)PetscWarpEllFreeCUDA(&ew->E));
#endif
  }
  ew->built = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cudaFree() of a device buffer, if any (never called on a machine without a driver, where it fails) */
static PetscErrorCode DeviceFree(PetscScalar **p)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (*p) PetscCallCUDA(cudaFree(*p));
#endif
  *p = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatEllWarpReset_Private(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew->built) PetscCall(MatEllWarpSyncHost_Private(A)); /* values assembled into the layout must not be lost */
  PetscCall(FreeLayout(ew));
  PetscCall(PetscFree(ew->pos2slot));
  PetscCall(MatEllWarpCOOReset_Private(A));
  PetscCall(DeviceFree(&ew->d_csrval));
  for (int i = 0; i < 3; i++) PetscCall(DeviceFree(&ew->d_work[i]));
  ew->nwork = 0;
#if PetscDefined(HAVE_CUDA)
  for (int i = 0; i < 3; i++)
    if (ew->ev[i]) PetscCallCUDA(cudaEventDestroy((cudaEvent_t)ew->ev[i]));
#endif
  for (int i = 0; i < 3; i++) ew->ev[i] = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Automatic choice from the row-length histogram and the order of the lengths (measured on the H200, bench/RESULTS.md):
  - long rows on average (mean >= 64 entries, e.g. Q1 elasticity, Q3 Laplacian, Q2 elasticity): K2 with a threshold
    of a quarter of the mean rounded up to a power of two, at least 32, so that each row gets 2 to 8 lanes that read
    neighbouring columns;
  - rows of 12 to 63 entries on average whose lengths vary from one row to the next (fewer than 3/4 of the rows as
    long as the row before: unstructured meshes (gmsh tetrahedra: 0.10-0.66), renumbered matrices; box meshes have
    0.83-1.00): K2 with a threshold of 8. The sort by length
    then separates rows that are neighbours in the numbering, so the 32 rows of a K1 slice read unrelated parts of x;
    2 to 4 lanes per row read neighbouring columns of one row instead (gmsh tetrahedra, P1 and P2: 5-6% faster
    than K1);
  - some row longer than twice the mean (at least 16): K2 with that threshold; rows over 32 times it are split over
    several warps;
  - otherwise (finite-element matrices of low order on structured or well numbered meshes, where neighbouring rows
    have the same length and stay neighbours after the sort): K1.
  With one column index per block of unit columns (a blocked pattern, unit > 1: elasticity's 3x3 blocks), a lane reads
  unit consecutive values per index: where the lengths repeat from row to row and the rows hold fewer than 64 indices
  on average, K1 (one lane per row: no padding of a row to a multiple of its lanes). H100 2026-11-26, one rank, DMPlex
  numbering: Q1 elasticity 50^3 (27 indices per row) 96.0 us against 97.5 with K2 (4 lanes, 32 x 84 slots per 32 rows
  instead of 32 x 81), Q2 elasticity 25^3 (9-125 indices) 200.3 against 212.5; and PetscWarpAsm's rownz into ELL-WARP
  0.551 ms against 0.664 (CSR 0.556).
  Options override.
*/
PetscErrorCode MatEllWarpChoose_Private(PetscInt m, const int rowptr[], PetscInt unit, MatEllWarpKernel req, PetscInt treq, MatEllWarpKernel *kernel, PetscInt *threshold)
{
  PetscInt  maxlen = 0, nnz = m ? rowptr[m] - rowptr[0] : 0, mean = m ? (nnz + m - 1) / m : 0, tlong = 32, tirr = PetscMax(16, 2 * mean), same = 0;
  PetscBool unstructured;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt len = rowptr[i + 1] - rowptr[i];
    maxlen       = PetscMax(maxlen, len);
    if (i && len == rowptr[i] - rowptr[i - 1]) same++;
  }
  unstructured = (PetscBool)(mean >= 12 && mean < 64 && m > 1 && 4 * same < 3 * (m - 1)); /* lengths vary row to row */
  while (4 * tlong < mean) tlong *= 2;
  *kernel    = MAT_ELLWARP_KERNEL_K2;
  *threshold = treq > 0 ? treq : (mean >= 64 ? tlong : (unstructured ? 8 : tirr));
  if (req == MAT_ELLWARP_KERNEL_K1 || (req == MAT_ELLWARP_KERNEL_AUTO && treq <= 0 && mean < 64 && !unstructured && maxlen <= tirr)) {
    *kernel    = MAT_ELLWARP_KERNEL_K1;
    *threshold = 0;
  }
  if (req == MAT_ELLWARP_KERNEL_AUTO && treq <= 0 && unit > 1 && m > 1 && 4 * same >= 3 * (m - 1) && (nnz + unit * m - 1) / (unit * m) < 64) { /* blocked, see above */
    *kernel    = MAT_ELLWARP_KERNEL_K1;
    *threshold = 0;
  }
  PetscCall(PetscInfo(NULL, "ELL-WARP automatic choice: %" PetscInt_FMT " rows, mean length %" PetscInt_FMT ", longest %" PetscInt_FMT ", %.3f of the rows as long as the previous one, %" PetscInt_FMT " column(s) per index: %s threshold %" PetscInt_FMT "\n", m, mean, maxlen, m > 1 ? (double)same / (double)(m - 1) : 1.0, unit, MatEllWarpKernels[*kernel], *threshold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The sort window. The global sort by length (the paper's layout) puts rows of equal length together wherever they are
  in the numbering; on box meshes neighbouring rows have equal lengths and stay neighbours, but on unstructured meshes
  (row lengths varying from one row to the next) the 32 rows of a slice come from all over the mesh: their x reads and
  y stores scatter. Sorting only within windows of W consecutive rows keeps a slice's rows mesh neighbours and costs
  padding. Automatic choice (req = PETSC_DETERMINE): the global sort when the lengths mostly repeat from one row to
  the next (at least 3/4 of the rows as long as the previous one: box meshes, 0.83-1.00) -- the layout measured on the
  H200, unchanged -- else the smallest W of 64, 128, ..., 8192 whose K1 padding exceeds the global sort's by at most
  maxpad (-mat_ellwarp_window_padding, default 0.10), else the global sort. The paddings come from the row lengths
  alone (PetscWarpEllWindowStatsHost()). order: the locality ordering, or NULL.
*/
PetscErrorCode MatEllWarpChooseWindow_Private(PetscInt m, const int rowptr[], const int order[], PetscInt req, PetscReal maxpad, PetscInt *window, PetscReal *pad_global, PetscReal *pad_window)
{
  PetscInt same = 0;
  double   pg = 0, pw = 0;

  PetscFunctionBegin;
  *window     = req > 0 ? PetscWarpEllWindow((int)m, (int)PetscMin(req, PETSC_INT32_MAX)) : 0;
  *pad_global = *pad_window = 0;
  if (req != PETSC_DETERMINE || m < 128) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 1; i < m; i++)
    if (rowptr[i + 1] - rowptr[i] == rowptr[i] - rowptr[i - 1]) same++;
  if (4 * same >= 3 * (m - 1)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!PetscWarpEllWindowStatsHost((int)m, rowptr, order, 0, &pg), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of host memory");
  for (int W = 64; W <= 8192 && W < m; W *= 2) {
    PetscCheck(!PetscWarpEllWindowStatsHost((int)m, rowptr, order, W, &pw), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of host memory");
    if (pw <= pg + maxpad) {
      *window = W;
      break;
    }
  }
  *pad_global = pg;
  *pad_window = *window ? pw : pg;
  PetscCall(PetscInfo(NULL, "ELL-WARP window: %.3f of the rows as long as the previous one; K1 padding %.4f with the global sort, window %" PetscInt_FMT " (padding %.4f)\n", (double)same / (double)(m - 1), pg, *window, (double)*pad_window));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bytes a product reads from the layout per nonzero: values and column indices of every slot (as32: a 32-bit column
   per slot, whatever the layout holds), the warp offsets (and the warp rows and info for K2; with the compact index
   also the warp's base column and index offset), the permutation unless the rows are in sorted order; x and y not
   counted */
static PetscReal BytesPerNonzero(const PetscWarpEll *E, MatEllWarpKernel k, PetscBool as32)
{
  PetscLogDouble perm = E->identity ? 0 : (PetscLogDouble)E->nrows * sizeof(int), b;

  if (E->cidx && !as32) b = (PetscLogDouble)E->nslots * sizeof(double) + (PetscLogDouble)E->ncidx * sizeof(unsigned short) + (PetscLogDouble)E->nwarps * 5 * sizeof(int) + perm;
  else b = (PetscLogDouble)E->nslots * (sizeof(double) + sizeof(int)) + (PetscLogDouble)E->nwarps * (k == MAT_ELLWARP_KERNEL_K1 ? 1 : 3) * sizeof(int) + perm;
  return E->nnz ? (PetscReal)(b / E->nnz) : 0;
}

/* The fields of MatEllWarpInfo about the sort window, the column indices and the bytes (called by the type's
   MatEllWarpGetInfo) */
PetscErrorCode MatEllWarpInfoLayout_Private(Mat A, MatEllWarpInfo *info)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscWarpEll      *E  = &ew->E;

  PetscFunctionBegin;
  info->window           = ew->built ? E->window : 0;
  info->bytes_per_nnz    = ew->built ? BytesPerNonzero(E, ew->kernel, PETSC_FALSE) : 0;
  info->bytes_per_nnz_32 = ew->built ? BytesPerNonzero(E, ew->kernel, PETSC_TRUE) : 0;
  info->index            = ew->built ? ew->index : MAT_ELLWARP_INDEX_32;
  info->index_unit       = ew->built && E->unit > 1 ? E->unit : 1;
  info->narrow_fraction  = ew->built && E->cidx && E->nwarps ? (PetscReal)E->nnarrow / (PetscReal)E->nwarps : 0;
  info->kc_variant       = ew->built ? PetscWarpEllVariant(E, (int)ew->opt.kc_variant) : ew->opt.kc_variant;
  if (ew->built && E->unit > 1) info->threshold *= E->unit; /* the layout counts column indices per lane */
  if (ew->built && E->cidx) info->bytes += (PetscLogDouble)E->nwarps * 2 * sizeof(int) + (PetscLogDouble)E->ncidx * sizeof(unsigned short);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lines of -mat_view ::ascii_info about the sort window and the bytes (called by the type's MatView) */
PetscErrorCode MatEllWarpViewLayout_Private(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJEllWarp *ew      = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscWarpEll      *E       = &ew->E;
  char               pad[96] = "";

  PetscFunctionBegin;
  if (!ew->built) PetscFunctionReturn(PETSC_SUCCESS);
  if (ew->pad_global > 0) PetscCall(PetscSNPrintf(pad, sizeof(pad), "; K1 padding %.4f with the global sort, %.4f with the window", (double)ew->pad_global, (double)ew->pad_window));
  if (E->window) PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: rows sorted by length within windows of %d rows (-mat_ellwarp_window%s)%s\n", E->window, ew->opt.window == PETSC_DETERMINE ? ", automatic" : "", pad));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: rows sorted by length over the whole matrix (-mat_ellwarp_window%s)%s\n", ew->opt.window == PETSC_DETERMINE ? ", automatic" : " 0", pad));
  if (E->cidx)
    PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: column indices %s (-mat_ellwarp_index%s): one per %d column%s, 16-bit offsets in %d of %d slices\n", MatEllWarpIndices[ew->index], ew->opt.index == MAT_ELLWARP_INDEX_AUTO ? " auto" : "", E->unit, E->unit > 1 ? "s" : "", E->nnarrow, E->nwarps));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: column indices 32 (-mat_ellwarp_index%s): one 32-bit column per entry\n", ew->opt.index == MAT_ELLWARP_INDEX_AUTO ? " auto" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: a product reads %.2f bytes of the layout per nonzero (values, column indices, slice offsets, permutation; %.2f with a 32-bit column per entry; 12 for CSR without its row pointer)\n", (double)BytesPerNonzero(E, ew->kernel, PETSC_FALSE), (double)BytesPerNonzero(E, ew->kernel, PETSC_TRUE)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 32-bit copies of the CSR indices, as the kernels take them */
static PetscErrorCode GetCSR32(Mat A, const int **ai, const int **aj, int **tmp, const PetscScalar **aa)
{
  const PetscInt *i, *j;
  PetscScalar    *a;
  PetscMemType    mt;
  PetscInt        m = A->rmap->n;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &i, &j, &a, &mt));
  PetscCheck(PetscMemTypeHost(mt), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Expected host CSR arrays");
  *aa  = a;
  *tmp = NULL;
  if (sizeof(PetscInt) == sizeof(int)) {
    *ai = (const int *)i;
    *aj = (const int *)j;
  } else {
    PetscInt nnz = i[m];
    PetscCheck(nnz < PETSC_INT32_MAX && A->cmap->n < PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ELL-WARP uses 32-bit indices; this block has %" PetscInt_FMT " entries", nnz);
    PetscCall(PetscMalloc1(m + 1 + nnz, tmp));
    for (PetscInt k = 0; k <= m; k++) (*tmp)[k] = (int)i[k];
    for (PetscInt k = 0; k < nnz; k++) (*tmp)[m + 1 + k] = (int)j[k];
    *ai = *tmp;
    *aj = *tmp + m + 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Refresh(Mat A, const PetscScalar *aa)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATELLWARP_Refresh, A, 0, 0, 0));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscWarpEllRefreshHost(&ew->E, aa);
    PetscCall(PetscTime(&t1));
    ew->refresh_time = t1 - t0;
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (!ew->d_csrval) PetscCallCUDA(cudaMalloc((void **)&ew->d_csrval, sizeof(PetscScalar) * PetscMax(ew->E.nnz, 1)));
    for (int i = 0; i < 3; i++)
      if (!ew->ev[i]) PetscCallCUDA(cudaEventCreate((cudaEvent_t *)&ew->ev[i]));
    PetscCallCUDA(cudaEventRecord((cudaEvent_t)ew->ev[0], st));
    PetscCallCUDA(cudaMemcpyAsync(ew->d_csrval, aa, sizeof(PetscScalar) * ew->E.nnz, cudaMemcpyHostToDevice, st));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * ew->E.nnz));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA(cudaEventRecord((cudaEvent_t)ew->ev[1], st));
    PetscCallCUDA((cudaError_t)PetscWarpEllRefreshCUDA(&ew->E, ew->d_csrval, st));
    PetscCallCUDA(cudaEventRecord((cudaEvent_t)ew->ev[2], st));
    PetscCall(PetscLogGpuTimeEnd());
  }
#endif
  ew->nrefreshes++;
  PetscCall(PetscLogEventEnd(MATELLWARP_Refresh, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The locality ordering of the rows asked for with -mat_ellwarp_reorder, as 32-bit row numbers (NULL for none) */
static PetscErrorCode GetOrder(Mat A, int **order)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          none;
  IS                 rperm, cperm;
  const PetscInt    *r;

  PetscFunctionBegin;
  *order = NULL;
  PetscCall(PetscStrcmp(ew->opt.reorder, "none", &none));
  if (none || A->rmap->n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (A->rmap->n != A->cmap->n) { /* e.g. the off-diagonal block of an MPI matrix */
    PetscCall(PetscInfo(A, "No %s reordering of a non-square %" PetscInt_FMT " x %" PetscInt_FMT " matrix\n", ew->opt.reorder, A->rmap->n, A->cmap->n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetOrdering(A, ew->opt.reorder, &rperm, &cperm));
  PetscCall(ISGetIndices(rperm, &r));
  PetscCall(PetscMalloc1(A->rmap->n, order));
  for (PetscInt i = 0; i < A->rmap->n; i++) (*order)[i] = (int)r[i];
  PetscCall(ISRestoreIndices(rperm, &r));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The column block size a block layout would use: the matrix's, when the request allows a block layout and the kernels
   have an instance for it, else 1 */
static int IndexBlockSize(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  MatEllWarpIndex    r  = ew->opt.index;
  PetscInt           bs = A->cmap->bs;

  return (r == MAT_ELLWARP_INDEX_AUTO || r == MAT_ELLWARP_INDEX_BLOCK || r == MAT_ELLWARP_INDEX_BLOCK16) && bs > 1 && bs <= PETSCWARP_MAX_UNIT ? (int)bs : 1;
}

/* The layout to build from the request and whether the pattern is blocked (made of whole aligned blocks of the column
   block size): unit (columns per index) and narrow (16-bit offsets where they fit) */
static PetscErrorCode ChooseIndex(Mat A, int blocked, int *unit, int *narrow)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  MatEllWarpIndex    r  = ew->opt.index;
  int                bs = IndexBlockSize(A);

  PetscFunctionBegin;
  *unit = bs > 1 && blocked ? bs : 1;
  /* auto: 16-bit codes wherever they fit (KeepIndex() drops them when they save no bytes). With the batched load schedule
     of the compact kernel (PETSCWARP_KC_VARIANT_DEFAULT 1) the 16-bit layouts are the faster ones on the H100 (2026-11-23:
     Q1 Laplacian 60.0 us against 66.0 with 32-bit columns, Q2 131.9 against 139.7); with the first schedule they were
     slower (67.6, 143.3: the kernel at 68% of DRAM bandwidth) */
  *narrow = r == MAT_ELLWARP_INDEX_AUTO || r == MAT_ELLWARP_INDEX_16 || r == MAT_ELLWARP_INDEX_BLOCK16;
  if ((r == MAT_ELLWARP_INDEX_BLOCK || r == MAT_ELLWARP_INDEX_BLOCK16) && *unit == 1)
    PetscCall(PetscInfo(A, "-mat_ellwarp_index %s: column block size %" PetscInt_FMT " %s; one column index per entry instead\n", MatEllWarpIndices[r], A->cmap->bs, bs > 1 ? "but the nonzero pattern is not made of whole aligned blocks" : "(a block layout needs 2..8)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a build: the automatic choice drops a compact index that reads no fewer bytes than 32-bit columns (no slice's
   columns fit 16 bits, one index per entry), or, with one index per entry, whose 16-bit codes cover fewer than half the
   slices: the mixed layout then saves few bytes and costs the decoding (H100 2026-11-23, one rank, DMPlex numbering: gmsh
   tetrahedra with 16-bit codes in 22-36% of the slices ran 0.90-0.98x aijcusparse against 0.97-1.03x with 32-bit
   columns; the Q2 Laplacian with 57% ran 131.9 us against 138.8, box Q1 with 100% 60.0 against 65.5); the layout in use */
static PetscErrorCode KeepIndex(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscWarpEll      *E  = &ew->E;

  PetscFunctionBegin;
  if (ew->opt.index == MAT_ELLWARP_INDEX_AUTO && E->cidx && E->unit <= 1 && (BytesPerNonzero(E, ew->kernel, PETSC_FALSE) >= BytesPerNonzero(E, ew->kernel, PETSC_TRUE) || 2 * (PetscInt)E->nnarrow < (PetscInt)E->nwarps)) {
    if (ew->opt.backend == MAT_ELLWARP_BACKEND_HOST) PetscWarpEllDropIndexHost(E);
#if PetscDefined(HAVE_CUDA)
    else PetscCallCUDA((cudaError_t)PetscWarpEllDropIndexCUDA(E));
#endif
  }
  if (!E->cidx) ew->index = MAT_ELLWARP_INDEX_32;
  else if (E->unit > 1) ew->index = ew->opt.index == MAT_ELLWARP_INDEX_BLOCK ? MAT_ELLWARP_INDEX_BLOCK : MAT_ELLWARP_INDEX_BLOCK16;
  else ew->index = MAT_ELLWARP_INDEX_16;
  PetscCall(PetscInfo(A, "ELL-WARP column indices %s: one per %d column(s), 16-bit in %d of %d slices, %.2f bytes per nonzero (%.2f with 32-bit columns)\n", MatEllWarpIndices[ew->index], E->unit > 1 ? E->unit : 1, E->nnarrow, E->nwarps, (double)BytesPerNonzero(E, ew->kernel, PETSC_FALSE), (double)BytesPerNonzero(E, ew->kernel, PETSC_TRUE)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Threads per block of the products when none is asked for: 512 for K2 layouts with 32-bit columns whose rows average
   more than twice the threshold (most rows on 4 or more lanes: the P2 tetrahedra of the gmsh meshes), 128 otherwise.
   H100, one rank, DMPlex numbering (results/bench_blocksize*_h100_2026-11-26f.log), us per product with 128 / 512:
   P2 tetrahedra of the cube 106.9, 107.6, 107.4, 108.3, 108.9 / 104.2, 104.9, 104.5, 105.1, 105.1 (the automatic path
   with 512 in the last two), of the graded mesh 107.1, 109.0, 107.5, 107.8 / 104.4, 106.4, 104.5, 104.7; P1
   tetrahedra (rows of 2 lanes) 61.6, 61.6, 62.3 / 62.2, 61.6, 62.9, hence 128 there; compact layouts (16-bit codes)
   lose with 512 (torus P2 32.9 / 34.9 us, lshape P2 35.8 / 37.1); 128 is the best or within 2% of it on the box suite */
static PetscInt AutoBlockSize(Mat_SeqAIJEllWarp *ew)
{
  const PetscWarpEll *E = &ew->E;
  return ew->kernel == MAT_ELLWARP_KERNEL_K2 && !E->cidx && E->unit <= 1 && E->threshold > 0 && (long long)E->nnz > 2LL * E->threshold * E->nrows ? 512 : 128;
}

/* The block size in use, derived from the options and the layout built (so a size set after the build takes effect) */
PetscInt MatEllWarpBlockSize_Private(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  return ew->opt.block_size > 0 ? ew->opt.block_size : AutoBlockSize(ew);
}

/* Build the layout from the host CSR (ai, aj), or, with the CUDA backend, from a CSR already on the device (d_ai, d_aj
   not NULL; ai still gives the row lengths on the host) */
static PetscErrorCode Build(Mat A, const int *ai, const int *aj, const int *d_ai, const int *d_aj)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscInt           m = A->rmap->n, n = A->cmap->n, t, w;
  PetscLogDouble     t0, t1;
  int               *order, unit, narrow;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATELLWARP_Build, A, 0, 0, 0));
  PetscCall(FreeLayout(ew));
  PetscCall(DeviceFree(&ew->d_csrval)); /* sized by the old number of entries */
  PetscCall(GetOrder(A, &order));
  PetscCall(MatEllWarpChooseWindow_Private(m, ai, order, ew->opt.window, ew->opt.window_pad, &w, &ew->pad_global, &ew->pad_window));
  ew->upload_time = 0;
  if (ew->opt.backend == MAT_ELLWARP_BACKEND_HOST) {
    PetscCall(PetscTime(&t0));
    PetscCall(ChooseIndex(A, IndexBlockSize(A) > 1 ? PetscWarpEllBlockedHost((int)m, ai, aj, IndexBlockSize(A)) : 0, &unit, &narrow));
    PetscCall(MatEllWarpChoose_Private(m, ai, unit, ew->opt.kernel, ew->opt.threshold, &ew->kernel, &t));
    PetscCall(CheckHost(A, PetscWarpEllBuildIndexHost((int)m, (int)n, ai, aj, order, (int)t, (int)w, unit, narrow, &ew->E)));
    PetscCall(PetscTime(&t1));
  } else {
#if PetscDefined(HAVE_CUDA)
    cudaStream_t st;
    int         *d_i = NULL, *d_j = NULL, *d_o = NULL, nnz = ai[m] - ai[0], err, blocked = 0;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscTime(&t0));
    if (!d_ai) {
      PetscCallCUDA(cudaMalloc((void **)&d_i, sizeof(int) * (m + 1)));
      PetscCallCUDA(cudaMalloc((void **)&d_j, sizeof(int) * PetscMax(nnz, 1)));
      PetscCallCUDA(cudaMemcpyAsync(d_i, ai, sizeof(int) * (m + 1), cudaMemcpyHostToDevice, st));
      PetscCallCUDA(cudaMemcpyAsync(d_j, aj + ai[0], sizeof(int) * nnz, cudaMemcpyHostToDevice, st));
      PetscCall(PetscLogCpuToGpu(sizeof(int) * (m + 1 + nnz)));
    }
    if (order) {
      PetscCallCUDA(cudaMalloc((void **)&d_o, sizeof(int) * PetscMax(m, 1)));
      PetscCallCUDA(cudaMemcpyAsync(d_o, order, sizeof(int) * m, cudaMemcpyHostToDevice, st));
    }
    PetscCallCUDA(cudaStreamSynchronize(st));
    PetscCall(PetscTime(&t1));
    ew->upload_time = t1 - t0;
    if (order) PetscCall(PetscLogCpuToGpu(sizeof(int) * m));
    PetscCall(PetscTime(&t0));
    PetscCall(PetscLogGpuTimeBegin());
    if (IndexBlockSize(A) > 1) PetscCallCUDA((cudaError_t)PetscWarpEllBlockedCUDA((int)m, d_ai ? d_ai : d_i, d_ai ? d_aj : d_j, IndexBlockSize(A), st, &blocked));
    PetscCall(ChooseIndex(A, blocked, &unit, &narrow));
    PetscCall(MatEllWarpChoose_Private(m, ai, unit, ew->opt.kernel, ew->opt.threshold, &ew->kernel, &t));
    err = PetscWarpEllBuildIndexCUDA((int)m, (int)n, d_ai ? d_ai : d_i, d_ai ? d_aj : d_j, d_o, (int)t, (int)w, unit, narrow, st, &ew->E); /* synchronizes */
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscTime(&t1));
    if (d_i) PetscCallCUDA(cudaFree(d_i));
    if (d_j) PetscCallCUDA(cudaFree(d_j));
    if (d_o) PetscCallCUDA(cudaFree(d_o));
    PetscCheck(err != cudaErrorMemoryAllocation, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of device memory building the ELL-WARP layout of a %" PetscInt_FMT " x %" PetscInt_FMT " matrix with %d entries", m, n, nnz);
    PetscCheck(err != cudaErrorInvalidValue, PETSC_COMM_SELF, PETSC_ERR_SUP, "The ELL-WARP layout of this matrix needs more than 2^31 slots; use more MPI ranks");
    PetscCallCUDA((cudaError_t)err);
#else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "PETSc was configured without CUDA: use -mat_ellwarp_backend host");
#endif
  }
  PetscCall(KeepIndex(A));
  PetscCall(PetscFree(order));
  ew->build_time    = t1 - t0;
  ew->built         = PETSC_TRUE;
  ew->built_backend = ew->opt.backend;
  ew->nzstate       = A->nonzerostate;
  ew->m             = m;
  ew->n             = n;
  ew->nbuilds++;
  PetscCall(PetscLogEventEnd(MATELLWARP_Build, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The layout must be built again: none yet, or another backend, pattern or size */
static PetscBool NeedsBuild(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  return (PetscBool)(!ew->built || ew->built_backend != ew->opt.backend || ew->nzstate != A->nonzerostate || ew->m != A->rmap->n || ew->n != A->cmap->n);
}

/* Whether the layout holds the matrix's current values (values assembled into it, or the host values it was last
   refreshed from), so that they can be read from it without a refresh */
PetscErrorCode MatEllWarpLayoutCurrent_Private(Mat A, PetscBool *current)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscObjectState   state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  *current = (PetscBool)(!NeedsBuild(A) && (ew->layout_only || ew->state == state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Make the layout hold the matrix's current host values: build when the pattern changed, refresh when only values did */
PetscErrorCode MatEllWarpSetUp_Private(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscObjectState   state;
  PetscBool          rebuild;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  rebuild = NeedsBuild(A);
  /* values written into the layout (layout_only) stay current through state changes that wrote no host value (e.g. the
     MatAssemblyEnd() of MatSetValuesCOO()): every host write goes through the value hooks, which pull them back first */
  if (rebuild || (ew->state != state && !ew->layout_only)) {
    const int         *ai = NULL, *aj = NULL;
    int               *tmp = NULL;
    const PetscScalar *aa  = NULL;

    PetscCall(GetCSR32(A, &ai, &aj, &tmp, &aa));
    if (rebuild) PetscCall(Build(A, ai, aj, NULL, NULL));
    PetscCall(Refresh(A, aa));
    PetscCall(PetscFree(tmp));
    ew->state = state;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Build the CUDA layout from a CSR pattern that is already on the device (ai: its row pointer on the host). The host
   values must be zero, as the layout's are after a build (MatSetPreallocationCOO()). */
PetscErrorCode MatEllWarpBuildFromDevice_Private(Mat A, const int ai[], const int d_ai[], const int d_aj[])
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCheck(ew->opt.backend == MAT_ELLWARP_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Needs the CUDA backend");
  PetscCall(Build(A, ai, NULL, d_ai, d_aj));
  PetscCall(PetscObjectStateGet((PetscObject)A, &ew->state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
/* A vector's array in device memory: its own when it lives there, else a device copy (copied back on restore) */
typedef struct {
  Vec                v;
  PetscBool          read, write, host;
  const PetscScalar *r;
  PetscScalar       *w;
  PetscScalar       *d;
} WarpVec;

static PetscErrorCode WarpVecGet(Mat A, Vec v, PetscInt slot, PetscBool read, PetscBool write, cudaStream_t st, WarpVec *wv)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscMemType       mt;
  PetscInt           n;

  PetscFunctionBegin;
  wv->v     = v;
  wv->read  = read;
  wv->write = write;
  wv->r     = NULL;
  wv->w     = NULL;
  if (write && read) PetscCall(VecGetArrayAndMemType(v, &wv->w, &mt));
  else if (write) PetscCall(VecGetArrayWriteAndMemType(v, &wv->w, &mt));
  else PetscCall(VecGetArrayReadAndMemType(v, &wv->r, &mt));
  wv->host = PetscMemTypeHost(mt);
  if (!wv->host) {
    wv->d = write ? wv->w : (PetscScalar *)wv->r;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetLocalSize(v, &n));
  if (ew->nwork < PetscMax(A->rmap->n, A->cmap->n)) {
    for (int i = 0; i < 3; i++) PetscCall(DeviceFree(&ew->d_work[i]));
    ew->nwork = PetscMax(A->rmap->n, A->cmap->n);
  }
  if (!ew->d_work[slot]) PetscCallCUDA(cudaMalloc((void **)&ew->d_work[slot], sizeof(PetscScalar) * PetscMax(ew->nwork, 1)));
  wv->d = ew->d_work[slot];
  if (read) {
    PetscCallCUDA(cudaMemcpyAsync(wv->d, write ? wv->w : wv->r, sizeof(PetscScalar) * n, cudaMemcpyHostToDevice, st));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WarpVecRestore(cudaStream_t st, WarpVec *wv)
{
  PetscInt n;

  PetscFunctionBegin;
  if (wv->host && wv->write) {
    PetscCall(VecGetLocalSize(wv->v, &n));
    PetscCallCUDA(cudaMemcpyAsync(wv->w, wv->d, sizeof(PetscScalar) * n, cudaMemcpyDeviceToHost, st));
    PetscCallCUDA(cudaStreamSynchronize(st));
    PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * n));
  }
  if (wv->write && wv->read) PetscCall(VecRestoreArrayAndMemType(wv->v, &wv->w));
  else if (wv->write) PetscCall(VecRestoreArrayWriteAndMemType(wv->v, &wv->w));
  else PetscCall(VecRestoreArrayReadAndMemType(wv->v, &wv->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ApplyCUDA(Mat A, PetscBool trans, Vec x, Vec z, Vec y)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  cudaStream_t       st;
  WarpVec            X, Z, Y;
  const PetscScalar *zd = NULL;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&st));
  PetscCall(WarpVecGet(A, x, 0, PETSC_TRUE, PETSC_FALSE, st, &X));
  if (z && z != y) {
    PetscCall(WarpVecGet(A, z, 1, PETSC_TRUE, PETSC_FALSE, st, &Z));
    zd = Z.d;
  }
  PetscCall(WarpVecGet(A, y, 2, (PetscBool)(z == y), PETSC_TRUE, st, &Y));
  if (z == y) zd = Y.d;
  PetscCall(PetscLogGpuTimeBegin());
  if (trans) PetscCallCUDA((cudaError_t)PetscWarpEllMultTransposeCUDA(&ew->E, X.d, zd, Y.d, st));
  else PetscCallCUDA((cudaError_t)PetscWarpEllMultVariantCUDA(&ew->E, ew->kernel == MAT_ELLWARP_KERNEL_K1 ? 1 : 2, (int)ew->opt.kc_variant, (int)MatEllWarpBlockSize_Private(A), X.d, zd, Y.d, st));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(2.0 * ew->E.nnz));
  PetscCall(WarpVecRestore(st, &Y));
  if (z && z != y) PetscCall(WarpVecRestore(st, &Z));
  PetscCall(WarpVecRestore(st, &X));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode ApplyHost(Mat A, PetscBool trans, Vec x, Vec z, Vec y)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const PetscScalar *xa, *za = NULL;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  if (z == y) PetscCall(VecGetArray(y, &ya));
  else {
    if (z) PetscCall(VecGetArrayRead(z, &za));
    PetscCall(VecGetArrayWrite(y, &ya));
  }
  if (z == y) za = ya;
  if (trans) PetscWarpEllMultTransposeHost(&ew->E, xa, za, ya);
  else PetscWarpEllMultHost(&ew->E, xa, za, ya);
  PetscCall(PetscLogFlops(2.0 * ew->E.nnz));
  if (z == y) PetscCall(VecRestoreArray(y, &ya));
  else {
    if (z) PetscCall(VecRestoreArrayRead(z, &za));
    PetscCall(VecRestoreArrayWrite(y, &ya));
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (+ z), or with A^T when trans; z may be NULL or y */
PetscErrorCode MatEllWarpApply_Private(Mat A, PetscBool trans, Vec x, Vec z, Vec y)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew->product_vecguard) PetscCall(MatEllWarpProductCheckVecs_Private(A, x, y, z)); /* device products: device vectors only */
  PetscCall(MatEllWarpSetUp_Private(A));
  PetscCall(PetscLogEventBegin(trans ? MATELLWARP_MultT : MATELLWARP_Mult, A, x, y, 0));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) PetscCall(ApplyHost(A, trans, x, z, y));
#if PetscDefined(HAVE_CUDA)
  else PetscCall(ApplyCUDA(A, trans, x, z, y));
#endif
  PetscCall(PetscLogEventEnd(trans ? MATELLWARP_MultT : MATELLWARP_Mult, A, x, y, 0));
  ew->nproducts++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y = A x and x'y as partial sums in parts[0 .. *nparts) (in the vectors' memory; their sum is x'y):
  KSPCGWARP's w = A p and p'w in one product, composed as "MatWarpMultDot_C". *nparts = 0: this matrix or these vectors
  do not allow it (not square, split rows, the schedule-0 kernels, vectors in the other memory), nothing done; -k: parts
  needs k entries, nothing done. Logged as a MatMult().
*/
PetscErrorCode MatEllWarpMultDot_Private(Mat A, Vec x, Vec y, PetscInt cap, PetscScalar parts[], PetscInt *nparts)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const PetscScalar *xa;
  PetscScalar       *ya;
  PetscMemType       mx, my;
  PetscInt           n = A->rmap->n, need = 1;
#if PetscDefined(HAVE_CUDA)
  int kernel = 0, variant = 0, bs = 0;
#endif

  PetscFunctionBegin;
  if (ew->product_vecguard) PetscCall(MatEllWarpProductCheckVecs_Private(A, x, y, NULL)); /* device products: device vectors only */
  *nparts = 0;
  if (A->rmap->n != A->cmap->n || !n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatEllWarpSetUp_Private(A));
  { /* where the vectors are (without a copy): the layout's memory, else the product's copies of MatMult() */
    PetscBool xcuda, ycuda;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &xcuda, VECSEQCUDA, VECMPICUDA, ""));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)y, &ycuda, VECSEQCUDA, VECMPICUDA, ""));
    if (xcuda != ycuda || xcuda != (ew->built_backend == MAT_ELLWARP_BACKEND_CUDA)) PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(HAVE_CUDA)
  if (ew->built_backend == MAT_ELLWARP_BACKEND_CUDA) {
    int np, e;
    kernel  = ew->kernel == MAT_ELLWARP_KERNEL_K1 ? 1 : 2;
    variant = (int)ew->opt.kc_variant;
    bs      = (int)MatEllWarpBlockSize_Private(A);
    e       = PetscWarpEllMultDotPartsCUDA(&ew->E, kernel, variant, bs, &np);
    if (e == (int)cudaErrorNotSupported) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCallCUDA((cudaError_t)e);
    need = np;
  }
#endif
  if (cap < need) {
    *nparts = -need;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(VecGetArrayReadAndMemType(x, &xa, &mx));
  PetscCall(VecGetArrayWriteAndMemType(y, &ya, &my));
  if (PetscMemTypeHost(mx) != (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) || PetscMemTypeHost(my) != PetscMemTypeHost(mx)) { /* e.g. device vectors bound to the CPU */
    PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
    PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_Mult, A, x, y, 0));
  PetscCall(PetscLogEventBegin(MATELLWARP_Mult, A, x, y, 0));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) {
    PetscWarpEllMultHost(&ew->E, xa, NULL, ya);
    parts[0] = 0.0;
    for (PetscInt i = 0; i < n; i++) parts[0] += xa[i] * ya[i];
    PetscCall(PetscLogFlops(2.0 * ew->E.nnz + 2.0 * n));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpEllMultDotCUDA(&ew->E, kernel, variant, bs, xa, ya, parts, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(2.0 * ew->E.nnz + 2.0 * n));
  }
#endif
  PetscCall(PetscLogEventEnd(MATELLWARP_Mult, A, x, y, 0));
  PetscCall(PetscLogEventEnd(MAT_Mult, A, x, y, 0));
  PetscCall(VecRestoreArrayWriteAndMemType(y, &ya));
  PetscCall(VecRestoreArrayReadAndMemType(x, &xa));
  ew->nproducts++;
  *nparts = need;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatEllWarpGetDiagonal_Private(Mat A, Vec d)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatEllWarpSetUp_Private(A));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) {
    PetscScalar *da;
    PetscCall(VecGetArrayWrite(d, &da));
    PetscWarpEllGetDiagonalHost(&ew->E, da);
    PetscCall(VecRestoreArrayWrite(d, &da));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    WarpVec      D;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(WarpVecGet(A, d, 2, PETSC_FALSE, PETSC_TRUE, st, &D));
    PetscCallCUDA((cudaError_t)PetscWarpEllGetDiagonalCUDA(&ew->E, D.d, st));
    PetscCall(WarpVecRestore(st, &D));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds of the last refresh: the gather into the layout and the upload before it (waits for them) */
PetscErrorCode MatEllWarpRefreshTimes_Private(Mat A, PetscLogDouble *gather, PetscLogDouble *upload)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  *gather = ew->built_backend == MAT_ELLWARP_BACKEND_HOST ? ew->refresh_time : 0;
  *upload = 0;
#if PetscDefined(HAVE_CUDA)
  if (ew->built_backend == MAT_ELLWARP_BACKEND_CUDA && ew->ev[2]) {
    float ms0, ms1;
    PetscCallCUDA(cudaEventSynchronize((cudaEvent_t)ew->ev[2]));
    PetscCallCUDA(cudaEventElapsedTime(&ms0, (cudaEvent_t)ew->ev[0], (cudaEvent_t)ew->ev[1]));
    PetscCallCUDA(cudaEventElapsedTime(&ms1, (cudaEvent_t)ew->ev[1], (cudaEvent_t)ew->ev[2]));
    *upload = 1e-3 * ms0;
    *gather = 1e-3 * ms1;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The layout's order of the rows of the block blk (perm[s] = row at sorted position s) as a permutation on A's
   communicator, in A's global row numbering (blk is A itself, or the diagonal block of an MPI matrix); builds the
   layout if needed */
PetscErrorCode MatEllWarpRowPermutation_Private(Mat A, Mat blk, IS *perm)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)blk->spptr;
  PetscInt           m = blk->rmap->n, rstart = A->rmap->rstart, *p;

  PetscFunctionBegin;
  PetscCall(MatEllWarpSetUp_Private(blk));
  PetscCall(PetscMalloc1(m, &p));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) {
    for (PetscInt s = 0; s < m; s++) p[s] = rstart + ew->E.perm[s];
  }
#if PetscDefined(HAVE_CUDA)
  else if (m) {
    int *d;
    PetscCall(PetscMalloc1(m, &d));
    PetscCallCUDA(cudaMemcpy(d, ew->E.perm, sizeof(int) * (size_t)m, cudaMemcpyDeviceToHost));
    PetscCall(PetscLogGpuToCpu(sizeof(int) * (PetscLogDouble)m));
    for (PetscInt s = 0; s < m; s++) p[s] = rstart + d[s];
    PetscCall(PetscFree(d));
  }
#endif
  PetscCall(ISCreateGeneral(PetscObjectComm((PetscObject)A), m, p, PETSC_OWN_POINTER, perm));
  PetscCall(ISSetPermutation(*perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
