/*
  MATMPIAIJELLWARP: an MPIAIJ matrix whose diagonal and off-diagonal blocks are MATSEQAIJELLWARP. MPIAIJ's own
  products (halo exchange through its VecScatter, overlapped with the diagonal-block product) call the blocks' ELL-WARP
  products.
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/matnormimpl.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

/* Make both blocks MATSEQAIJELLWARP with the matrix's options */
static PetscErrorCode ConvertBlocks(Mat A)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  Mat                blk[2];
  PetscBool          is;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
  for (int i = 0; i < 2; i++) {
    if (!blk[i]) continue;
    PetscCall(PetscObjectTypeCompare((PetscObject)blk[i], MATSEQAIJELLWARP, &is));
    if (!is) PetscCall(MatConvert_SeqAIJ_SeqAIJEllWarp(blk[i], MATSEQAIJELLWARP, MAT_INPLACE_MATRIX, &blk[i]));
    ((Mat_SeqAIJEllWarp *)blk[i]->spptr)->mpi_block = PETSC_TRUE; /* MPIAIJ's products read the blocks' host arrays: no twin */
    PetscCall(MatWarpStageUninstall_Private(blk[i]));             /* MPIAIJ's MatSetValues() does not go through the blocks' operations: the MPI matrix stages */
    PetscUseMethod(blk[i], "MatEllWarpSetOpts_C", (Mat, const MatEllWarpOpts *), (blk[i], &mw->opt));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIAIJSetPreallocation_MPIAIJEllWarp(Mat A, PetscInt d_nz, const PetscInt d_nnz[], PetscInt o_nz, const PetscInt o_nnz[])
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*mw->prealloc)(A, d_nz, d_nnz, o_nz, o_nnz));
  PetscCall(ConvertBlocks(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_MPIAIJEllWarp(Mat A, MatAssemblyType mode)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*mw->assemblyend)(A, mode));
  if (mode == MAT_FINAL_ASSEMBLY) PetscCall(ConvertBlocks(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CopyToHost(void *dst, const void *src, size_t bytes)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  PetscCallCUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
  PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Device memory without CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* COO: MPIAIJ's own (it sums on the host into the blocks through their value accessors, and handles off-process
   entries); indices or values in device memory are first copied to the host, which MPIAIJ's code reads directly */
static PetscErrorCode MatSetPreallocationCOO_MPIAIJEllWarp(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  PetscMemType       mt = PETSC_MEMTYPE_HOST;
  PetscInt          *ij = NULL;

  PetscFunctionBegin;
  if (ncoo) PetscCall(PetscGetMemType(coo_i, &mt));
  if (PetscMemTypeDevice(mt)) {
    PetscCall(PetscInfo(A, "COO indices in device memory: copied to the host for MPIAIJ's preallocation\n"));
    PetscCall(PetscMalloc1(2 * ncoo, &ij));
    PetscCall(CopyToHost(ij, coo_i, sizeof(PetscInt) * (size_t)ncoo));
    PetscCall(CopyToHost(ij + ncoo, coo_j, sizeof(PetscInt) * (size_t)ncoo));
  }
  PetscCall((*mw->setpreallocationcoo)(A, ncoo, ij ? ij : coo_i, ij ? ij + ncoo : coo_j));
  PetscCall(PetscFree(ij));
  PetscCall(ConvertBlocks(A)); /* MPIAIJ made new blocks of the root type: give them the matrix's options */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValuesCOO_MPIAIJEllWarp(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  PetscMemType       mt = PETSC_MEMTYPE_HOST;
  PetscScalar       *hv = NULL;

  PetscFunctionBegin;
  if (v) PetscCall(PetscGetMemType(v, &mt));
  if (PetscMemTypeDevice(mt)) {
    PetscContainer c;
    PetscCount    *n; /* MatCOOStruct_MPIAIJ (src/mat/impls/aij/mpi/mpiaij.h) begins with the number of COO entries */
    PetscCall(PetscObjectQuery((PetscObject)A, "__PETSc_MatCOOStruct_Host", (PetscObject *)&c));
    PetscCheck(c, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Call MatSetPreallocationCOO() before MatSetValuesCOO()");
    PetscCall(PetscContainerGetPointer(c, &n));
    if (*n) {
      PetscCall(PetscMalloc1(*n, &hv));
      PetscCall(CopyToHost(hv, v, sizeof(PetscScalar) * (size_t)*n));
    }
  }
  PetscCall((*mw->setvaluescoo)(A, hv ? hv : v, imode));
  PetscCall(PetscFree(hv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpSetOpts_MPIAIJEllWarp(Mat A, const MatEllWarpOpts *o)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall(MatEllWarpOptsCheck_Private(o));
  mw->opt = *o;
  PetscCall(MatSetVecType(A, o->backend == MAT_ELLWARP_BACKEND_CUDA && !o->hostvecs ? VECCUDA : VECSTANDARD));
  if (A->preallocated) PetscCall(ConvertBlocks(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpGetOpts_MPIAIJEllWarp(Mat A, MatEllWarpOpts *o)
{
  PetscFunctionBegin;
  *o = ((Mat_MPIAIJEllWarp *)A->spptr)->opt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpGetInfo_MPIAIJEllWarp(Mat A, MatEllWarpInfo *info)
{
  Mat Ad;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCall(MatEllWarpGetInfo(Ad, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal block's order, in global numbering: each rank permutes its own rows */
static PetscErrorCode MatEllWarpGetRowPermutation_MPIAIJEllWarp(Mat A, IS *perm)
{
  Mat Ad;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCall(MatEllWarpRowPermutation_Private(A, Ad, perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_MPIAIJEllWarp(Mat A, PetscOptionItems PetscOptionsObject)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  MatEllWarpOpts     o  = mw->opt;

  PetscFunctionBegin;
  if (mw->setfromoptions) PetscCall((*mw->setfromoptions)(A, PetscOptionsObject));
  PetscCall(MatEllWarpOptionsRead_Private(PetscOptionsObject, &o));
  PetscCall(MatEllWarpSetOpts_MPIAIJEllWarp(A, &o));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_MPIAIJEllWarp(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  PetscBool          iascii;
  PetscViewerFormat  format;

  PetscFunctionBegin;
  PetscCall((*mw->view)(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
    MatEllWarpInfo info;
    PetscCall(MatEllWarpGetInfo_MPIAIJEllWarp(A, &info));
    PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP (rank 0 diagonal block): backend %s, kernel %s, %" PetscInt_FMT " slices, padding ratio %.4f\n", MatEllWarpBackends[info.backend], MatEllWarpKernels[info.kernel], info.nwarps, (double)info.padding));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A submatrix (fieldsplit's blocks, ...) gets A's options, so that its vectors are of the same type as A's */
static PetscErrorCode MatCreateSubMatrix_MPIAIJEllWarp(Mat A, IS isrow, IS iscol, MatReuse scall, Mat *B)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)A->spptr;
  PetscBool          same;

  PetscFunctionBegin;
  PetscCall((*mw->createsubmatrix)(A, isrow, iscol, scall, B));
  PetscCall(PetscObjectTypeCompare((PetscObject)*B, MATMPIAIJELLWARP, &same));
  if (scall == MAT_INITIAL_MATRIX && same) PetscCall(MatEllWarpSetOpts_MPIAIJEllWarp(*B, &mw->opt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Called by the duplicate method (matnorm.c wraps it): the duplicate, created by MPIAIJ's MatDuplicate() with A's type
   name and so with the options' defaults, gets A's options (the cuda backend's host vectors of a DM with host vectors,
   the setters' choices); its blocks already have their own from their duplicates */
static PetscErrorCode MatWarpDuplicateFinish_MPIAIJEllWarp(Mat A, Mat M)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)M, MATMPIAIJELLWARP, &same));
  if (same) {
    PetscCall(MatEllWarpSetOpts_MPIAIJEllWarp(M, &((Mat_MPIAIJEllWarp *)A->spptr)->opt));
    PetscCall(MatWarpStageCopySettings_Private(A, M));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ComposeAll(Mat B, PetscBool on);

static PetscErrorCode RevertInPlace(Mat B)
{
  Mat_MPIAIJEllWarp *mw = (Mat_MPIAIJEllWarp *)B->spptr;
  Mat                blk[2];

  PetscFunctionBegin;
  PetscCall(MatWarpStageUninstall_Private(B)); /* before the operations it wrapped are put back */
  if (B->preallocated) {
    PetscCall(MatMPIAIJGetSeqAIJ(B, &blk[0], &blk[1], NULL));
    for (int i = 0; i < 2; i++)
      if (blk[i]) PetscCall(MatConvert(blk[i], MATSEQAIJ, MAT_INPLACE_MATRIX, &blk[i]));
  }
  B->ops->assemblyend     = mw->assemblyend;
  B->ops->createsubmatrix = mw->createsubmatrix;
  B->ops->destroy         = mw->destroy;
  B->ops->setfromoptions  = mw->setfromoptions;
  B->ops->view            = mw->view;
  PetscCall(MatWarpFixMPIAIJNorm_Private(B, PETSC_FALSE));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatMPIAIJSetPreallocation_C", mw->prealloc));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSetPreallocationCOO_C", mw->setpreallocationcoo));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSetValuesCOO_C", mw->setvaluescoo));
  PetscCall(PetscFree(B->spptr));
  PetscCall(ComposeAll(B, PETSC_FALSE));
  PetscCall(MatSetVecType(B, VECSTANDARD));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATMPIAIJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIAIJEllWarp(Mat A)
{
  Mat_MPIAIJEllWarp *mw          = (Mat_MPIAIJEllWarp *)A->spptr;
  PetscErrorCode (*destroy)(Mat) = mw->destroy;
  PetscBool hadq                 = (PetscBool)(((PetscObject)A)->qlist != NULL);

  PetscFunctionBegin;
  PetscCall(MatWarpStageUninstall_Private(A));
  PetscCall(ComposeAll(A, PETSC_FALSE));
  PetscCall(MatWarpFixMPIAIJNorm_Private(A, PETSC_FALSE));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", NULL));
  PetscCall(PetscFree(A->spptr));
  PetscCall(PetscObjectChangeTypeName((PetscObject)A, MATMPIAIJ));
  PetscCall((*destroy)(A));
  PetscCall(MatWarpDestroyQList_Private(A, hadq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIAIJEllWarp_MPIAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  (void)type;
  PetscCall(MatEllWarpConvertWith_Private(A, reuse, newmat, RevertInPlace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIAIJ_MPIAIJEllWarp(Mat A, MatType type, MatReuse reuse, Mat *newmat);

static PetscErrorCode ComposeAll(Mat B, PetscBool on)
{
  PetscObject o = (PetscObject)B;

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_mpiaijellwarp_mpiaij_C", on ? MatConvert_MPIAIJEllWarp_MPIAIJ : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_mpiaij_mpiaijellwarp_C", on ? MatConvert_MPIAIJ_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_mpiaij_ellwarp_C", on ? MatConvert_MPIAIJ_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpSetOpts_C", on ? MatEllWarpSetOpts_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetOpts_C", on ? MatEllWarpGetOpts_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetInfo_C", on ? MatEllWarpGetInfo_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetRowPermutation_C", on ? MatEllWarpGetRowPermutation_MPIAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatWarpDuplicateFinish_C", on ? MatWarpDuplicateFinish_MPIAIJEllWarp : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Turn a MATMPIAIJ into MATMPIAIJELLWARP, in place */
static PetscErrorCode ToEllWarpInPlace(Mat B)
{
  Mat_MPIAIJEllWarp *mw;
  PetscBool          same;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATMPIAIJELLWARP, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!B->spptr, PetscObjectComm((PetscObject)B), PETSC_ERR_SUP, "Cannot convert a %s matrix in place to %s; convert it to %s first", ((PetscObject)B)->type_name, MATMPIAIJELLWARP, MATMPIAIJ);
  PetscCall(PetscNew(&mw));
  B->spptr = mw;
  PetscCall(MatEllWarpOptsDefault_Private(&mw->opt));
  PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatMPIAIJSetPreallocation_C", &mw->prealloc));
  PetscCheck(mw->prealloc, PetscObjectComm((PetscObject)B), PETSC_ERR_PLIB, "MPIAIJ has no MatMPIAIJSetPreallocation_C");
  PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatSetPreallocationCOO_C", &mw->setpreallocationcoo));
  PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatSetValuesCOO_C", &mw->setvaluescoo));
  PetscCheck(mw->setpreallocationcoo && mw->setvaluescoo, PetscObjectComm((PetscObject)B), PETSC_ERR_PLIB, "MPIAIJ has no MatSetPreallocationCOO_C");
  mw->assemblyend         = B->ops->assemblyend;
  mw->createsubmatrix     = B->ops->createsubmatrix;
  mw->destroy             = B->ops->destroy;
  mw->setfromoptions      = B->ops->setfromoptions;
  mw->view                = B->ops->view;
  B->ops->assemblyend     = MatAssemblyEnd_MPIAIJEllWarp;
  B->ops->createsubmatrix = MatCreateSubMatrix_MPIAIJEllWarp;
  B->ops->destroy         = MatDestroy_MPIAIJEllWarp;
  B->ops->setfromoptions  = MatSetFromOptions_MPIAIJEllWarp;
  B->ops->view            = MatView_MPIAIJEllWarp;
  PetscCall(MatWarpFixMPIAIJNorm_Private(B, PETSC_TRUE)); /* PETSc's NORM_1 reads uninitialised VECCUDA host arrays */
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatMPIAIJSetPreallocation_C", MatMPIAIJSetPreallocation_MPIAIJEllWarp));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSetPreallocationCOO_C", MatSetPreallocationCOO_MPIAIJEllWarp));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSetValuesCOO_C", MatSetValuesCOO_MPIAIJEllWarp));
  PetscCall(ComposeAll(B, PETSC_TRUE));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATMPIAIJELLWARP));
  {
    MatEllWarpOpts o = mw->opt;
    PetscObjectOptionsBegin((PetscObject)B);
    PetscCall(MatEllWarpOptionsRead_Private(PetscOptionsObject, &o));
    PetscOptionsEnd();
    PetscCall(MatEllWarpSetOpts_MPIAIJEllWarp(B, &o));
  }
  PetscCall(MatWarpStageInstall_Private(B, "-mat_ellwarp_stage", PETSC_TRUE)); /* staged reassembly of the MPI matrix's calls (warpstage.c, a shadow matrix holds the COO); its assembly end asks the DMPlex no-code path's hook either way */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_MPIAIJ_MPIAIJEllWarp(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  (void)type;
  PetscCall(PetscWarpInitializePackage());
  PetscCall(MatEllWarpConvertWith_Private(A, reuse, newmat, ToEllWarpInPlace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  MATMPIAIJELLWARP - MATMPIAIJELLWARP = "mpiaijellwarp" - The parallel `MATELLWARP` type: a `MATMPIAIJ` matrix whose
  diagonal and off-diagonal blocks are `MATSEQAIJELLWARP`.

  Options Database Keys:
. -mat_type mpiaijellwarp - sets the type during `MatSetFromOptions()`; see `MATELLWARP` for the other options

  Level: beginner

  Note:
  The halo exchange is MPIAIJ's own (`VecScatter`), overlapped with the diagonal-block product.

.seealso: [](ch_matrices), `MATELLWARP`, `MATSEQAIJELLWARP`, `MatCreateAIJEllWarp()`
M*/
PetscErrorCode MatCreate_MPIAIJEllWarp(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATMPIAIJ));
  PetscCall(MatConvert_MPIAIJ_MPIAIJEllWarp(B, MATMPIAIJELLWARP, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
