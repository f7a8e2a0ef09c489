/* petscwarp package: registration of types and log events, the dynamic-library entry point, the public API. */
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/cgwarpimpl.h>
#include <petscwarp/private/plexwarpasm.h>
PETSC_INTERN PetscErrorCode DMPlexWarpAutoRegister_Private(void);
PETSC_INTERN PetscErrorCode PetscWarpThreadsFinalize_Private(void);

const char *const MatEllWarpBackends[] = {"host", "cuda", "MatEllWarpBackend", "MAT_ELLWARP_BACKEND_", NULL};
const char *const MatEllWarpKernels[]  = {"auto", "k1", "k2", "MatEllWarpKernel", "MAT_ELLWARP_KERNEL_", NULL};
const char *const MatEllWarpIndices[]  = {"auto", "32", "16", "block", "block16", "MatEllWarpIndex", "MAT_ELLWARP_INDEX_", NULL};

PetscLogEvent MATELLWARP_Build, MATELLWARP_Refresh, MATELLWARP_Mult, MATELLWARP_MultT, MATELLWARP_ToHost;
PetscLogEvent MATELLWARP_COOPre, MATELLWARP_COOVal;
PetscLogEvent MATELLWARP_TwinBuild, MATELLWARP_TwinValues;
PetscLogEvent DMPLEXWARP_RigidBody;
PetscLogEvent PETSCWARPASM_Plan, PETSCWARPASM_Assemble, PETSCWARPASM_Elem, PETSCWARPASM_Reduce, PETSCWARPASM_Vector, PETSCWARPASM_COOPrealloc, PETSCWARPASM_Residual, PETSCWARPASM_APPoints, PETSCWARPASM_BdResidual, PETSCWARPASM_PWJacobian, PETSCWARPASM_PWResidual;
PetscLogEvent               PETSCWARPASM_Extract, PETSCWARPASM_Pattern, PETSCWARPASM_PlanSlots, PETSCWARPASM_PlanColor, PETSCWARPASM_PlanRed, PETSCWARPASM_PlanPart, PETSCWARPASM_PlanBlocks, PETSCWARPASM_PlanUpload, PETSCWARPASM_PlanRowNZ;
PetscClassId                PETSCWARPASM_CLASSID;
PETSC_INTERN PetscErrorCode MatCreate_SharedNZ(Mat);
PetscLogEvent               PCELLWARPPERM_SetUp, PCELLWARPPERM_Scatter;
PetscLogEvent               PCGAMGWARP_Aggregate, PCGAMGWARP_Prolongator, PCGAMGWARP_Galerkin, PCGAMGWARP_EigEst, PCGAMGWARP_ProlMat, PCGAMGWARP_Smooth;
PETSC_INTERN PetscErrorCode PCCreateGAMG_Warp(PC);
PETSC_INTERN PetscErrorCode PCCreate_EllWarpPerm(PC);

static PetscBool PetscWarpPackageInitialized = PETSC_FALSE;

/*@C
  PetscWarpFinalizePackage - Frees what `PetscWarpInitializePackage()` set up; called from `PetscFinalize()`

  Level: developer

.seealso: `PetscWarpInitializePackage()`
@*/
PetscErrorCode PetscWarpFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpThreadsFinalize_Private()); /* before PetscFinalize() dlcloses a -dll_append library */
  PetscWarpPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscWarpInitializePackage - Registers the petscwarp matrix types (`MATELLWARP`, `MATSHAREDNZ`), preconditioner
  (`PCELLWARPPERM`), `PCGAMG` type (`PCGAMGWARP`), Krylov method (`KSPCGWARP`), the `PetscWarpAsm` class and log events

  Not Collective

  Level: beginner

  Note:
  Idempotent, and called lazily by every petscwarp entry point. Programs that do not link petscwarp get the types with
  `-dll_append <path>/libpetscwarp.so`.

.seealso: `MATELLWARP`, `PetscWarpFinalizePackage()`
@*/
PetscErrorCode PetscWarpInitializePackage(void)
{
  PetscFunctionBegin;
  if (PetscWarpPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscWarpPackageInitialized = PETSC_TRUE;
  PetscCall(MatInitializePackage());
  PetscCall(MatRegisterRootName(MATELLWARP, MATSEQAIJELLWARP, MATMPIAIJELLWARP));
  PetscCall(MatRegister(MATSEQAIJELLWARP, MatCreate_SeqAIJEllWarp));
  PetscCall(MatRegister(MATMPIAIJELLWARP, MatCreate_MPIAIJEllWarp));
  PetscCall(MatSeqAIJRegister(MATSEQAIJELLWARP, MatConvert_SeqAIJ_SeqAIJEllWarp));
  PetscCall(PetscLogEventRegister("EllWarpBuild", MAT_CLASSID, &MATELLWARP_Build));
  PetscCall(PetscLogEventRegister("EllWarpRefresh", MAT_CLASSID, &MATELLWARP_Refresh));
  PetscCall(PetscLogEventRegister("EllWarpMult", MAT_CLASSID, &MATELLWARP_Mult));
  PetscCall(PetscLogEventRegister("EllWarpMultT", MAT_CLASSID, &MATELLWARP_MultT));
  PetscCall(PetscLogEventRegister("EllWarpToHost", MAT_CLASSID, &MATELLWARP_ToHost));
  PetscCall(PetscLogEventRegister("EllWarpCOOPre", MAT_CLASSID, &MATELLWARP_COOPre));
  PetscCall(PetscLogEventRegister("EllWarpCOOVal", MAT_CLASSID, &MATELLWARP_COOVal));
  PetscCall(PetscLogEventRegister("EllWarpTwin", MAT_CLASSID, &MATELLWARP_TwinBuild));
  PetscCall(PetscLogEventRegister("EllWarpTwinVal", MAT_CLASSID, &MATELLWARP_TwinValues));
  PetscCall(MatRegister(MATSHAREDNZ, MatCreate_SharedNZ));
  PetscCall(PetscLogEventRegister("WarpStageBuild", MAT_CLASSID, &MATWARP_StageBuild));
  PetscCall(PetscLogEventRegister("WarpStageUpload", MAT_CLASSID, &MATWARP_StageUpload));
  PetscCall(PetscLogEventRegister("WarpStageFallback", MAT_CLASSID, &MATWARP_StageFallback));
  PetscCall(DMPlexWarpAutoRegister_Private());
  PetscCall(PetscClassIdRegister("PetscWarpAsm", &PETSCWARPASM_CLASSID));
  PetscCall(PetscLogEventRegister("WarpAsmPlan", PETSCWARPASM_CLASSID, &PETSCWARPASM_Plan));
  PetscCall(PetscLogEventRegister("WarpAsmAssemble", PETSCWARPASM_CLASSID, &PETSCWARPASM_Assemble));
  PetscCall(PetscLogEventRegister("WarpAsmElem", PETSCWARPASM_CLASSID, &PETSCWARPASM_Elem));
  PetscCall(PetscLogEventRegister("WarpAsmReduce", PETSCWARPASM_CLASSID, &PETSCWARPASM_Reduce));
  PetscCall(PetscLogEventRegister("WarpAsmVector", PETSCWARPASM_CLASSID, &PETSCWARPASM_Vector));
  PetscCall(PetscLogEventRegister("WarpAsmCOOPrealloc", PETSCWARPASM_CLASSID, &PETSCWARPASM_COOPrealloc));
  PetscCall(PetscLogEventRegister("WarpAsmResidual", PETSCWARPASM_CLASSID, &PETSCWARPASM_Residual));
  PetscCall(PetscLogEventRegister("WarpAsmAPPoints", PETSCWARPASM_CLASSID, &PETSCWARPASM_APPoints));
  PetscCall(PetscLogEventRegister("WarpAsmBdResidual", PETSCWARPASM_CLASSID, &PETSCWARPASM_BdResidual));
  PetscCall(PetscLogEventRegister("WarpAsmPWJacobian", PETSCWARPASM_CLASSID, &PETSCWARPASM_PWJacobian)); /* element kernels of user pointwise functions */
  PetscCall(PetscLogEventRegister("WarpAsmPWResidual", PETSCWARPASM_CLASSID, &PETSCWARPASM_PWResidual));
  /* the phases of the set-up (bench_assembly -setup_only prints them) */
  PetscCall(PetscLogEventRegister("WarpAsmExtract", PETSCWARPASM_CLASSID, &PETSCWARPASM_Extract));
  PetscCall(PetscLogEventRegister("WarpRigidBody", DM_CLASSID, &DMPLEXWARP_RigidBody)); /* DMPlexWarpCreateRigidBody() */
  PetscCall(PetscLogEventRegister("WarpAsmPattern", PETSCWARPASM_CLASSID, &PETSCWARPASM_Pattern));
  PetscCall(PetscLogEventRegister("WarpAsmPlanSlots", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanSlots));
  PetscCall(PetscLogEventRegister("WarpAsmPlanColor", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanColor));
  PetscCall(PetscLogEventRegister("WarpAsmPlanRed", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanRed));
  PetscCall(PetscLogEventRegister("WarpAsmPlanPart", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanPart));
  PetscCall(PetscLogEventRegister("WarpAsmPlanBlocks", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanBlocks));
  PetscCall(PetscLogEventRegister("WarpAsmPlanRowNZ", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanRowNZ));
  PetscCall(PetscLogEventRegister("WarpAsmPlanUpload", PETSCWARPASM_CLASSID, &PETSCWARPASM_PlanUpload));
  PetscCall(PCInitializePackage());
  PetscCall(PCRegister(PCELLWARPPERM, PCCreate_EllWarpPerm));
  PetscCall(PetscLogEventRegister("EllWarpPermSetUp", PC_CLASSID, &PCELLWARPPERM_SetUp));
  PetscCall(PCGAMGRegister(PCGAMGWARP, PCCreateGAMG_Warp));
  PetscCall(PetscLogEventRegister("GAMGWarpAgg", PC_CLASSID, &PCGAMGWARP_Aggregate));
  PetscCall(PetscLogEventRegister("GAMGWarpProl", PC_CLASSID, &PCGAMGWARP_Prolongator));
  PetscCall(PetscLogEventRegister("GAMGWarpRAP", PC_CLASSID, &PCGAMGWARP_Galerkin));
  PetscCall(PetscLogEventRegister("GAMGWarpEig", PC_CLASSID, &PCGAMGWARP_EigEst));
  PetscCall(PetscLogEventRegister("GAMGWarpProlMat", PC_CLASSID, &PCGAMGWARP_ProlMat));
  PetscCall(PetscLogEventRegister("GAMGWarpSmooth", PC_CLASSID, &PCGAMGWARP_Smooth));
  PetscCall(PetscLogEventRegister("EllWarpPermScatter", PC_CLASSID, &PCELLWARPPERM_Scatter));
  PetscCall(KSPInitializePackage());
  PetscCall(KSPRegister(KSPCGWARP, KSPCreate_CGWarp));
  PetscCall(PetscLogEventRegister("CGWarpSetUp", KSP_CLASSID, &KSPCGWARP_SetUp));
  PetscCall(PetscLogEventRegister("CGWarpDirection", KSP_CLASSID, &KSPCGWARP_Direction));
  PetscCall(PetscLogEventRegister("CGWarpAlpha", KSP_CLASSID, &KSPCGWARP_Alpha));
  PetscCall(PetscLogEventRegister("CGWarpUpdate", KSP_CLASSID, &KSPCGWARP_Update));
  PetscCall(PetscLogEventRegister("CGWarpStep", KSP_CLASSID, &KSPCGWARP_Step));
  PetscCall(PetscLogEventRegister("CGWarpCheck", KSP_CLASSID, &KSPCGWARP_Check));
  PetscCall(PetscRegisterFinalize(PetscWarpFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Entry point of -dll_append .../libpetscwarp.so */
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscwarp(void)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpDeviceAvailable - Whether petscwarp can run its CUDA kernels here

  Not Collective

  Output Parameter:
. avail - `PETSC_TRUE` when PETSc was configured with CUDA and a CUDA device is present

  Level: intermediate

.seealso: `MatEllWarpSetBackend()`
@*/
PetscErrorCode PetscWarpDeviceAvailable(PetscBool *avail)
{
  PetscFunctionBegin;
  PetscAssertPointer(avail, 1);
  *avail = PETSC_FALSE;
#if PetscDefined(HAVE_CUDA)
  {
    static int count = -1;
    if (count < 0) (void)PetscWarpCUDADeviceCount(&count);
    *avail = count > 0 ? PETSC_TRUE : PETSC_FALSE;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatCreateSeqAIJEllWarp - Creates a sequential `MATSEQAIJELLWARP` matrix, preallocated like `MatCreateSeqAIJ()`

  Collective

  Input Parameters:
+ comm - MPI communicator, `PETSC_COMM_SELF`
. m    - number of rows
. n    - number of columns
. nz   - number of nonzeros per row (same for all rows)
- nnz  - array of the number of nonzeros in each row, or `NULL`

  Output Parameter:
. A - the matrix

  Level: intermediate

.seealso: `MATELLWARP`, `MatCreateSeqAIJ()`, `MatCreateAIJEllWarp()`
@*/
PetscErrorCode MatCreateSeqAIJEllWarp(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt nz, const PetscInt nnz[], Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpInitializePackage());
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, m, n));
  PetscCall(MatSetType(*A, MATSEQAIJELLWARP));
  PetscCall(MatSeqAIJSetPreallocation(*A, nz, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatCreateAIJEllWarp - Creates a `MATELLWARP` matrix, preallocated like `MatCreateAIJ()`

  Collective

  Input Parameters:
+ comm  - MPI communicator
. m     - number of local rows (or `PETSC_DECIDE`)
. n     - number of local columns (or `PETSC_DECIDE`)
. M     - number of global rows (or `PETSC_DETERMINE`)
. N     - number of global columns (or `PETSC_DETERMINE`)
. d_nz  - nonzeros per row of the diagonal block
. d_nnz - nonzeros of each row of the diagonal block, or `NULL`
. o_nz  - nonzeros per row of the off-diagonal block
- o_nnz - nonzeros of each row of the off-diagonal block, or `NULL`

  Output Parameter:
. A - the matrix

  Level: intermediate

.seealso: `MATELLWARP`, `MatCreateAIJ()`, `MatCreateSeqAIJEllWarp()`
@*/
PetscErrorCode MatCreateAIJEllWarp(MPI_Comm comm, PetscInt m, PetscInt n, PetscInt M, PetscInt N, PetscInt d_nz, const PetscInt d_nnz[], PetscInt o_nz, const PetscInt o_nnz[], Mat *A)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpInitializePackage());
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, n, M, N));
  PetscCall(MatSetType(*A, MATELLWARP));
  PetscCall(MatSeqAIJSetPreallocation(*A, d_nz, d_nnz));
  PetscCall(MatMPIAIJSetPreallocation(*A, d_nz, d_nnz, o_nz, o_nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Change one field of a MATELLWARP matrix's options; a no-op for other types */
#define ELLWARP_SET_OPT(A, assign) \
  do { \
    PetscErrorCode (*get_)(Mat, MatEllWarpOpts *) = NULL; \
    MatEllWarpOpts o_; \
    PetscCall(PetscObjectQueryFunction((PetscObject)(A), "MatEllWarpGetOpts_C", &get_)); \
    if (get_) { \
      PetscCall((*get_)(A, &o_)); \
      assign; \
      PetscUseMethod(A, "MatEllWarpSetOpts_C", (Mat, const MatEllWarpOpts *), (A, &o_)); \
    } \
  } while (0)

/*@
  MatEllWarpSetBackend - Sets where the products of a `MATELLWARP` matrix run

  Logically Collective

  Input Parameters:
+ A - the matrix
- b - `MAT_ELLWARP_BACKEND_HOST` or `MAT_ELLWARP_BACKEND_CUDA`

  Options Database Key:
. -mat_ellwarp_backend <host,cuda> - the backend

  Level: intermediate

  Notes:
  The default is CUDA when PETSc was configured with CUDA and a device is present, otherwise the host twin of the
  kernels. The host twin is the reference implementation (the tests compare the CUDA kernels with it); it is slower than
  `MATSEQAIJ` on a CPU. Asking for CUDA without a device is an error. The backend also sets the vector type of `MatCreateVecs()`
  (`VECCUDA` or `VECSTANDARD`). Other matrix types ignore the call.

.seealso: `MATELLWARP`, `MatEllWarpGetBackend()`, `MatEllWarpSetKernel()`
@*/
PetscErrorCode MatEllWarpSetBackend(Mat A, MatEllWarpBackend b)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, b, 2);
  ELLWARP_SET_OPT(A, o_.backend = b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpGetBackend - Gets where the products of a `MATELLWARP` matrix run

  Not Collective

  Input Parameter:
. A - the matrix

  Output Parameter:
. b - the backend

  Level: intermediate

.seealso: `MATELLWARP`, `MatEllWarpSetBackend()`
@*/
PetscErrorCode MatEllWarpGetBackend(Mat A, MatEllWarpBackend *b)
{
  MatEllWarpOpts o;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(b, 2);
  PetscUseMethod(A, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (A, &o));
  *b = o.backend;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpSetKernel - Chooses the ELL-WARP product kernel and its threshold

  Logically Collective

  Input Parameters:
+ A         - the matrix
. k         - `MAT_ELLWARP_KERNEL_AUTO`, `MAT_ELLWARP_KERNEL_K1` or `MAT_ELLWARP_KERNEL_K2`
- threshold - K2: most entries per lane before a row is split over 2, 4, ..., 32 lanes; `PETSC_DETERMINE` for automatic

  Options Database Keys:
+ -mat_ellwarp_kernel <auto,k1,k2> - the kernel
- -mat_ellwarp_threshold <t>      - the threshold

  Level: advanced

  Notes:
  K1 runs one thread per row; it pays on matrices whose rows have similar lengths inside each slice of 32 sorted rows,
  as finite-element matrices do. K2 splits rows longer than the threshold over several lanes of a warp and combines the
  partial sums with warp shuffles; it pays when a few rows are much longer than the rest (a dense row, power-law row
  lengths), where K1 would leave one lane of a warp working alone through the long row, and when rows are long on
  average (high-order elements), where neighbouring lanes of a row read neighbouring columns. Rows longer than 32 times
  the threshold are split over several warps whose partial sums are added atomically. The automatic choice: K2 with a
  threshold of a quarter of the mean row length (a power of two, at least 32) when the mean is 64 or more; K2 with a
  threshold of 8 when the mean is 12 to 63 and fewer than 3/4 of the rows are as long as the row before them
  (unstructured meshes: the sort by length separates neighbouring rows, so the lanes of a K1 slice read unrelated parts
  of x, while 2 to 4 lanes of one row read neighbouring columns); K2 with a threshold of twice the mean (at least 16)
  when some row is longer than that; K1 otherwise. `-info` prints the statistics and the choice. The layout is rebuilt
  at the next product.

.seealso: `MATELLWARP`, `MatEllWarpSetBackend()`, `MatEllWarpSetBlockSize()`, `MatEllWarpGetInfo()`
@*/
PetscErrorCode MatEllWarpSetKernel(Mat A, MatEllWarpKernel k, PetscInt threshold)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, k, 2);
  PetscValidLogicalCollectiveInt(A, threshold, 3);
  ELLWARP_SET_OPT(A, (o_.kernel = k, o_.threshold = threshold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpSetBlockSize - Sets the number of threads per CUDA block of the ELL-WARP products

  Logically Collective

  Input Parameters:
+ A  - the matrix
- bs - a multiple of 32 from 32 to 1024, or 0 for the automatic choice

  Options Database Key:
. -mat_ellwarp_block_size <bs> - the block size

  Level: advanced

  Note:
  Each warp of a block works on its own slice: the block size only changes how many slices share a multiprocessor's
  scheduling unit, and its effect is small (see `bench/RESULTS.md`).

.seealso: `MATELLWARP`, `MatEllWarpSetKernel()`
@*/
PetscErrorCode MatEllWarpSetBlockSize(Mat A, PetscInt bs)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveInt(A, bs, 2);
  ELLWARP_SET_OPT(A, o_.block_size = bs);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpSetReorder - Sets a locality ordering of the rows inside the ELL-WARP format

  Logically Collective

  Input Parameters:
+ A    - the matrix
- type - "none" or a `MatOrderingType` (`MATORDERINGRCM`, `MATORDERINGND`, ...)

  Options Database Key:
. -mat_ellwarp_reorder <none,rcm,nd,...> - the ordering

  Level: advanced

  Notes:
  The rows are placed in the given ordering before the (stable) sort by length, so that the 32 rows of a slice, and
  the slices of a thread block, are neighbours in the ordering and share the entries of x they read. Vectors stay in
  the user's numbering and no extra pass over x or y is needed: only the processing order of the rows changes. It pays
  on badly numbered meshes (random or partition-scrambled numberings) whose x does not fit in the GPU's L2 cache; on a
  mesh numbered by DMPlex it changes little. The ordering is computed on the host with `MatGetOrdering()` when the
  layout is built, for square matrices (blocks) only: a non-square matrix, such as the off-diagonal block of a
  `MATMPIAIJELLWARP` matrix, is left in its natural order.

.seealso: `MATELLWARP`, `MatGetOrdering()`, `MatEllWarpSetKernel()`
@*/
PetscErrorCode MatEllWarpSetReorder(Mat A, MatOrderingType type)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(type, 2);
  ELLWARP_SET_OPT(A, PetscCall(PetscStrncpy(o_.reorder, type, sizeof(o_.reorder))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpGetInfo - Statistics of the ELL-WARP layout of an assembled `MATSEQAIJELLWARP` matrix (of the diagonal
  block for `MATMPIAIJELLWARP`)

  Not Collective

  Input Parameter:
. A - the matrix

  Output Parameter:
. info - slices, slots, padding ratio, kernel, threshold, bytes, build time, the column index layout in use and the
         bytes a product reads per nonzero with it and with 32-bit columns

  Level: intermediate

  Note:
  Builds the layout if it is out of date.

.seealso: `MATELLWARP`, `MatEllWarpInfo`, `MatView()`
@*/
PetscErrorCode MatEllWarpGetInfo(Mat A, MatEllWarpInfo *info)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(info, 2);
  PetscUseMethod(A, "MatEllWarpGetInfo_C", (Mat, MatEllWarpInfo *), (A, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatEllWarpGetRowPermutation - The order in which the ELL-WARP layout of a `MATELLWARP` matrix stores the rows: rows
  sorted by length, longest first, after the locality ordering of `MatEllWarpSetReorder()`

  Collective

  Input Parameter:
. A - the assembled matrix

  Output Parameter:
. perm - a permutation: entry s is the row (global number) stored at sorted position s; each rank permutes its own
         rows (for `MATMPIAIJELLWARP`, the order of the diagonal block's layout). Destroy it with `ISDestroy()`.

  Level: advanced

  Notes:
  This is the numbering of the paper's Kr and Krs kernels. `MatPermute(A, perm, perm, &B)` gives B = P A P^T, whose rows
  are already in sorted order: B's layout has the identity permutation (`MatEllWarpInfo.sorted_rows`), so its products
  store y with coalesced writes and do not read the permutation, and x is read in the same numbering (Kr). PETSc keeps the
  columns of each AIJ row sorted, so B's entries are also in increasing column order within each row, which is Krs. A
  solver pays the permutation only at the vector boundary, once per solve; `PCELLWARPPERM` does that for any `KSP`.

  The gain over the products of A itself is the scattered store of y and the read of the permutation, 4 to 12 bytes
  per row against 12 per nonzero: a few percent for finite-element matrices (see `bench/RESULTS.md`). It is largest
  with the `MatEllWarpSetReorder()` locality ordering on a badly numbered mesh, where A's stores of y are scattered
  over the whole vector.

  Builds the layout if it is out of date.

.seealso: `MATELLWARP`, `PCELLWARPPERM`, `MatPermute()`, `MatEllWarpSetReorder()`, `MatEllWarpGetInfo()`
@*/
PetscErrorCode MatEllWarpGetRowPermutation(Mat A, IS *perm)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidType(A, 1);
  PetscAssertPointer(perm, 2);
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Not for unassembled matrix");
  PetscUseMethod(A, "MatEllWarpGetRowPermutation_C", (Mat, IS *), (A, perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
