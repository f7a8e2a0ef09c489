/*
  MATSEQAIJELLWARP: an AIJ subclass whose products run in the ELL-WARP layout (host twin or CUDA).
  The host AIJ values stay authoritative; the layout is rebuilt or refreshed lazily (ellwarpbackend.c).
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/warpstage.h>
#include <petscdevice.h>

static PetscErrorCode MatMult_SeqAIJEllWarp(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpApply_Private(A, PETSC_FALSE, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "MatWarpMultDot_C" (KSPCGWARP): only where MatMult() would run this layout's product itself (not bound to the CPU, not
   replaced with MatSetOperation()) and x is not y; else *nparts = 0 and the caller runs MatMult() */
static PetscErrorCode MatWarpMultDot_SeqAIJEllWarp(Mat A, Vec x, Vec y, PetscInt cap, PetscScalar parts[], PetscInt *nparts)
{
  PetscFunctionBegin;
  *nparts = 0;
  if (A->ops->mult != MatMult_SeqAIJEllWarp || x == y) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecLockReadPush(x));
  PetscCall(MatEllWarpMultDot_Private(A, x, y, cap, parts, nparts));
  PetscCall(VecLockReadPop(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_SeqAIJEllWarp(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpApply_Private(A, PETSC_FALSE, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_SeqAIJEllWarp(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpApply_Private(A, PETSC_TRUE, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_SeqAIJEllWarp(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpApply_Private(A, PETSC_TRUE, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* From the layout when it holds the current values, else from the host values: no layout is built or refreshed for a
   diagonal alone (e.g. GAMG's graph, scaled by its diagonal and never multiplied) */
static PetscErrorCode MatGetDiagonal_SeqAIJEllWarp(Mat A, Vec d)
{
  PetscBool current;

  PetscFunctionBegin;
  PetscCall(MatEllWarpLayoutCurrent_Private(A, &current));
  if (current) PetscCall(MatEllWarpGetDiagonal_Private(A, d));
  else PetscCall((*((Mat_SeqAIJEllWarp *)A->spptr)->parent.getdiagonal)(A, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The products of the layout, or the parent's host AIJ products when bound to the CPU */
static PetscErrorCode MatBindToCPU_SeqAIJEllWarp(Mat A, PetscBool flg)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew->parent.bindtocpu) PetscCall((*ew->parent.bindtocpu)(A, flg));
  A->ops->mult             = flg ? ew->parent.mult : MatMult_SeqAIJEllWarp;
  A->ops->multadd          = flg ? ew->parent.multadd : MatMultAdd_SeqAIJEllWarp;
  A->ops->multtranspose    = flg ? ew->parent.multtranspose : MatMultTranspose_SeqAIJEllWarp;
  A->ops->multtransposeadd = flg ? ew->parent.multtransposeadd : MatMultTransposeAdd_SeqAIJEllWarp;
  A->ops->getdiagonal      = flg ? ew->parent.getdiagonal : MatGetDiagonal_SeqAIJEllWarp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install validated options: a change of backend, kernel, threshold or ordering discards the layout */
static PetscErrorCode MatEllWarpSetOpts_SeqAIJEllWarp(Mat A, const MatEllWarpOpts *o)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          same;

  PetscFunctionBegin;
  PetscCall(MatEllWarpOptsCheck_Private(o));
  if (o->backend == MAT_ELLWARP_BACKEND_CUDA) {
#if PetscDefined(HAVE_CUDA)
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
#endif
  }
  PetscCall(PetscStrcmp(o->reorder, ew->opt.reorder, &same));
  if (o->backend != ew->opt.backend || o->kernel != ew->opt.kernel || o->threshold != ew->opt.threshold || o->index != ew->opt.index || !same) PetscCall(MatEllWarpReset_Private(A));
  ew->opt = *o;
  PetscCall(MatSetVecType(A, o->backend == MAT_ELLWARP_BACKEND_CUDA && !o->hostvecs ? VECCUDA : VECSTANDARD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpGetOpts_SeqAIJEllWarp(Mat A, MatEllWarpOpts *o)
{
  PetscFunctionBegin;
  *o = ((Mat_SeqAIJEllWarp *)A->spptr)->opt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpGetInfo_SeqAIJEllWarp(Mat A, MatEllWarpInfo *info)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscWarpEll      *E  = &ew->E;

  PetscFunctionBegin;
  PetscCheck(A->assembled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not for an unassembled matrix");
  PetscCall(MatEllWarpSetUp_Private(A));
  info->backend     = ew->built_backend;
  info->kernel      = ew->kernel;
  info->threshold   = E->threshold;
  info->block_size  = MatEllWarpBlockSize_Private(A);
  info->nwarps      = E->nwarps;
  info->nnz         = E->nnz;
  info->nslots      = E->nslots;
  info->maxwidth    = E->maxwidth;
  info->padding     = E->nnz ? (PetscReal)E->nslots / (PetscReal)E->nnz : 1.0;
  info->bytes       = (PetscLogDouble)E->nslots * (sizeof(double) + 2 * sizeof(int)) + (PetscLogDouble)E->nwarps * 3 * sizeof(int) + (PetscLogDouble)E->nrows * 2 * sizeof(int);
  info->build_time  = ew->build_time;
  info->upload_time = ew->upload_time;
  PetscCall(PetscStrncpy(info->reorder, ew->opt.reorder, sizeof(info->reorder)));
  PetscCall(MatEllWarpRefreshTimes_Private(A, &info->refresh_time, &info->refresh_upload_time));
  info->nbuilds     = ew->nbuilds;
  info->nrefreshes  = ew->nrefreshes;
  info->nproducts   = ew->nproducts;
  info->sorted_rows = (PetscBool)(E->identity != 0);
  PetscCall(MatEllWarpInfoLayout_Private(A, info)); /* window, bytes per nonzero (ellwarpbackend.c) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatEllWarpGetRowPermutation_SeqAIJEllWarp(Mat A, IS *perm)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpRowPermutation_Private(A, A, perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EllWarpOptions(Mat A, PetscOptionItems PetscOptionsObject)
{
  MatEllWarpOpts o = ((Mat_SeqAIJEllWarp *)A->spptr)->opt;

  PetscFunctionBegin;
  PetscCall(MatEllWarpOptionsRead_Private(PetscOptionsObject, &o));
  PetscCall(MatEllWarpSetOpts_SeqAIJEllWarp(A, &o));
  PetscCall(MatEllWarpProductOptions_Private(A, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_SeqAIJEllWarp(Mat A, PetscOptionItems PetscOptionsObject)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew->parent.setfromoptions) PetscCall((*ew->parent.setfromoptions)(A, PetscOptionsObject));
  PetscCall(EllWarpOptions(A, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_SeqAIJEllWarp(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          iascii;
  PetscViewerFormat  format;
  MatEllWarpInfo     info;

  PetscFunctionBegin;
  PetscCall((*ew->parent.view)(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatEllWarpGetInfo_SeqAIJEllWarp(A, &info));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: backend %s, kernel %s, threshold %" PetscInt_FMT ", block size %" PetscInt_FMT ", load schedule %" PetscInt_FMT " (-mat_ellwarp_kc_variant)\n", MatEllWarpBackends[info.backend],
                                   MatEllWarpKernels[info.kernel], info.threshold, info.block_size, info.kc_variant));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: %" PetscInt_FMT " slices of 32 lanes, %" PetscInt_FMT " slots for %" PetscInt_FMT " nonzeros (padding ratio %.4f), widest slice %" PetscInt_FMT ", %.3g MB\n", info.nwarps, info.nslots, info.nnz,
                                   (double)info.padding, info.maxwidth, info.bytes / 1e6));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: rows ordered by %s before the sort by length%s\n", info.reorder, info.sorted_rows ? "; rows already in sorted order (Kr form: coalesced stores, no permutation read)" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP: %" PetscInt_FMT " builds (last %.3g s, after a %.3g s upload of the indices), %" PetscInt_FMT " value refreshes (last %.3g s, after a %.3g s upload), %" PetscInt_FMT " products\n", info.nbuilds,
                                   info.build_time, info.upload_time, info.nrefreshes, info.refresh_time, info.refresh_upload_time, info.nproducts));
  PetscCall(MatEllWarpViewLayout_Private(A, viewer));  /* sort window, bytes per nonzero (ellwarpbackend.c) */
  PetscCall(MatEllWarpProductView_Private(A, viewer)); /* where products run, the twin (ellwarpproduct.c) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B (of type MATSEQAIJELLWARP, made from A) gets A's options and where A's products run */
static PetscErrorCode CopySettings(Mat A, Mat B)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr, *bw;

  PetscFunctionBegin;
  PetscCall(MatEllWarpSetOpts_SeqAIJEllWarp(B, &ew->opt));
  bw                    = (Mat_SeqAIJEllWarp *)B->spptr;
  bw->product_device    = ew->product_device;
  bw->product_host_twin = ew->product_host_twin;
  bw->product_check     = ew->product_check;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_SeqAIJEllWarp(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*ew->parent.duplicate)(A, op, B)); /* creates *B with A's type name, then copies the AIJ data */
  PetscCall(CopySettings(A, *B));
  ((Mat_SeqAIJEllWarp *)(*B)->spptr)->mpi_block = ew->mpi_block;
  PetscCall(MatEllWarpDuplicateCOO_Private(A, *B));
  PetscCall(MatWarpStageCopySettings_Private(A, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Submatrices (MatCreateSubMatrix() of one rank goes through here: fieldsplit's blocks, ...) get A's options, so that
   their vectors are of the same type as A's, and run their products where A's run */
static PetscErrorCode MatCreateSubMatrices_SeqAIJEllWarp(Mat A, PetscInt n, const IS isrow[], const IS iscol[], MatReuse scall, Mat *B[])
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          same;

  PetscFunctionBegin;
  PetscCall((*ew->parent.createsubmatrices)(A, n, isrow, iscol, scall, B));
  for (PetscInt i = 0; scall == MAT_INITIAL_MATRIX && i < n; i++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)(*B)[i], MATSEQAIJELLWARP, &same));
    if (same) PetscCall(CopySettings(A, (*B)[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ComposeAll(Mat B, PetscBool on);

/* Turn B back into a plain MATSEQAIJ, in place */
static PetscErrorCode RevertInPlace(Mat B)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)B->spptr;

  PetscFunctionBegin;
  PetscCall(MatEllWarpReset_Private(B)); /* pulls values assembled into the layout back to the host first */
  PetscCall(MatWarpStageUninstall_Private(B));
  PetscCall(MatEllWarpSetValueHooks_Private(B, PETSC_FALSE));
  PetscCall(MatEllWarpComposeTarget_Private(B, PETSC_FALSE));
  PetscCall(MatEllWarpComposeCOO_Private(B, PETSC_FALSE));
  PetscCall(MatEllWarpProductReset_Private(B));
  PetscCall(MatEllWarpComposeProduct_Private(B, PETSC_FALSE));
  B->ops->mult              = ew->parent.mult;
  B->ops->multadd           = ew->parent.multadd;
  B->ops->multtranspose     = ew->parent.multtranspose;
  B->ops->multtransposeadd  = ew->parent.multtransposeadd;
  B->ops->getdiagonal       = ew->parent.getdiagonal;
  B->ops->destroy           = ew->parent.destroy;
  B->ops->duplicate         = ew->parent.duplicate;
  B->ops->createsubmatrices = ew->parent.createsubmatrices;
  B->ops->view              = ew->parent.view;
  B->ops->setfromoptions    = ew->parent.setfromoptions;
  B->ops->bindtocpu         = ew->parent.bindtocpu;
  B->ops->creategraph       = ew->parent.creategraph;
  PetscCall(PetscFree(B->spptr));
  PetscCall(ComposeAll(B, PETSC_FALSE));
  PetscCall(MatSetVecType(B, VECSTANDARD));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATSEQAIJ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_SeqAIJEllWarp(Mat A)
{
  PetscBool hadq = (PetscBool)(((PetscObject)A)->qlist != NULL);

  PetscFunctionBegin;
  if (A->spptr) {
    ((Mat_SeqAIJEllWarp *)A->spptr)->layout_only = PETSC_FALSE; /* no values to keep */
    PetscCall(RevertInPlace(A));
  }
  PetscCall((*A->ops->destroy)(A));
  PetscCall(MatWarpDestroyQList_Private(A, hadq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A conversion keeps MatSetValuesCOO() working: the COO maps go to AIJ first */
static PetscErrorCode RevertInPlaceKeepCOO(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpCOOToAIJ_Private(B));
  PetscCall(RevertInPlace(B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqAIJEllWarp_SeqAIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  (void)type;
  PetscCall(MatEllWarpConvertWith_Private(A, reuse, newmat, RevertInPlaceKeepCOO));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
static PetscErrorCode MatConvert_SeqAIJEllWarp_SeqAIJCUSPARSE(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat B = reuse == MAT_INPLACE_MATRIX ? A : NULL;

  PetscFunctionBegin;
  (void)type;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatConvert_SeqAIJEllWarp_SeqAIJ(A, MATSEQAIJ, reuse, &B));
  PetscCall(MatConvert(B, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, &B));
  *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatConvert_SeqAIJCUSPARSE_SeqAIJEllWarp(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat B = reuse == MAT_INPLACE_MATRIX ? A : NULL;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatConvert(A, MATSEQAIJ, reuse, &B));
  PetscCall(MatConvert_SeqAIJ_SeqAIJEllWarp(B, type, MAT_INPLACE_MATRIX, &B));
  *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode ComposeAll(Mat B, PetscBool on)
{
  PetscObject o = (PetscObject)B;

  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaijellwarp_seqaij_C", on ? MatConvert_SeqAIJEllWarp_SeqAIJ : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaij_seqaijellwarp_C", on ? MatConvert_SeqAIJ_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaij_ellwarp_C", on ? MatConvert_SeqAIJ_SeqAIJEllWarp : NULL));
#if PetscDefined(HAVE_CUDA)
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaijellwarp_seqaijcusparse_C", on ? MatConvert_SeqAIJEllWarp_SeqAIJCUSPARSE : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaijellwarp_aijcusparse_C", on ? MatConvert_SeqAIJEllWarp_SeqAIJCUSPARSE : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaijcusparse_seqaijellwarp_C", on ? MatConvert_SeqAIJCUSPARSE_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatConvert_seqaijcusparse_ellwarp_C", on ? MatConvert_SeqAIJCUSPARSE_SeqAIJEllWarp : NULL));
#endif
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpSetOpts_C", on ? MatEllWarpSetOpts_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetOpts_C", on ? MatEllWarpGetOpts_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetInfo_C", on ? MatEllWarpGetInfo_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatEllWarpGetRowPermutation_C", on ? MatEllWarpGetRowPermutation_SeqAIJEllWarp : NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatWarpMultDot_C", on ? MatWarpMultDot_SeqAIJEllWarp : NULL)); /* KSPCGWARP's w = A p with p'w */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Turn a MATSEQAIJ into MATSEQAIJELLWARP, in place: save the parent's operations, install ours, compose the methods */
static PetscErrorCode ToEllWarpInPlace(Mat B)
{
  Mat_SeqAIJEllWarp *ew;
  PetscBool          same;
  MatEllWarpOpts     opt;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)B, MATSEQAIJELLWARP, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!B->spptr, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot convert a %s matrix in place to %s; convert it to %s first", ((PetscObject)B)->type_name, MATSEQAIJELLWARP, MATSEQAIJ);
  PetscCall(PetscNew(&ew));
  B->spptr = ew;
  PetscCall(MatEllWarpOptsDefault_Private(&opt));
  ew->opt            = opt;                 /* installed (and checked) below, once the type is in place */
  ew->product_device = PETSC_BOOL3_UNKNOWN; /* the device twin when the matrix's vectors are device vectors: GAMG with the twins ran AIJ's iteration counts on device vectors and other counts on host ones (H100, 2026-11-28; ellwarpproduct.c, TwinType()) */
  ew->parent.mult              = B->ops->mult;
  ew->parent.multadd           = B->ops->multadd;
  ew->parent.multtranspose     = B->ops->multtranspose;
  ew->parent.multtransposeadd  = B->ops->multtransposeadd;
  ew->parent.getdiagonal       = B->ops->getdiagonal;
  ew->parent.destroy           = B->ops->destroy;
  ew->parent.duplicate         = B->ops->duplicate;
  ew->parent.createsubmatrices = B->ops->createsubmatrices;
  ew->parent.view              = B->ops->view;
  ew->parent.setfromoptions    = B->ops->setfromoptions;
  ew->parent.bindtocpu         = B->ops->bindtocpu;
  ew->parent.creategraph       = B->ops->creategraph;
  B->ops->destroy              = MatDestroy_SeqAIJEllWarp;
  B->ops->duplicate            = MatDuplicate_SeqAIJEllWarp;
  B->ops->createsubmatrices    = MatCreateSubMatrices_SeqAIJEllWarp;
  B->ops->view                 = MatView_SeqAIJEllWarp;
  B->ops->setfromoptions       = MatSetFromOptions_SeqAIJEllWarp;
  B->ops->bindtocpu            = MatBindToCPU_SeqAIJEllWarp;
  B->ops->creategraph          = MatCreateGraph_SeqAIJEllWarp;
#if PetscDefined(HAVE_DEVICE)  /* a PETSc without devices has no binding */
  B->boundtocpu = PETSC_FALSE; /* PETSc creates matrices bound to the CPU; GPU types unbind them in their conversion */
#endif
  PetscCall(MatBindToCPU_SeqAIJEllWarp(B, PETSC_FALSE));
  PetscCall(ComposeAll(B, PETSC_TRUE));
  PetscCall(MatEllWarpSetValueHooks_Private(B, PETSC_TRUE));
  PetscCall(MatEllWarpComposeTarget_Private(B, PETSC_TRUE));
  PetscCall(MatEllWarpComposeCOO_Private(B, PETSC_TRUE));
  PetscCall(MatEllWarpComposeProduct_Private(B, PETSC_TRUE));
  PetscCall(MatWarpStageInstall_Private(B, "-mat_ellwarp_stage", PETSC_TRUE)); /* staged reassembly (warpstage.c) */
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATSEQAIJELLWARP));

  PetscCall(MatEllWarpSetOpts_SeqAIJEllWarp(B, &opt));
  /* a title of its own: -help prints a title once per prefix, and "Mat" was printed by the parent's options already */
  PetscOptionsBegin(PetscObjectComm((PetscObject)B), ((PetscObject)B)->prefix, "MATSEQAIJELLWARP options", "Mat");
  PetscCall(EllWarpOptions(B, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Convert a MATSEQAIJ to MATSEQAIJELLWARP */
PetscErrorCode MatConvert_SeqAIJ_SeqAIJEllWarp(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  PetscFunctionBegin;
  (void)type;
  PetscCall(PetscWarpInitializePackage());
  PetscCall(MatEllWarpConvertWith_Private(A, reuse, newmat, ToEllWarpInPlace));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  MATSEQAIJELLWARP - MATSEQAIJELLWARP = "seqaijellwarp" - The sequential `MATELLWARP` type: a `MATSEQAIJ` matrix whose
  products run in the ELL-WARP layout, on the GPU (CUDA) or in the host twin of the kernels.

  Options Database Keys:
+ -mat_type seqaijellwarp  - sets the type during `MatSetFromOptions()`
. -mat_ellwarp_backend <host,cuda> - where the products run
. -mat_ellwarp_kernel <auto,k1,k2> - product kernel
. -mat_ellwarp_threshold <t>      - K2 threshold (entries per lane)
. -mat_ellwarp_block_size <bs>    - threads per CUDA block
. -mat_ellwarp_stage <bool>       - staged reassembly of a repeated `MatSetValues()` sequence (`MatWarpSetStage()`)
. -mat_ellwarp_product_device <bool> - matrix products on the device through an aijcusparse twin (CUDA backend; default: when an operand's DM has device vectors)
. -mat_ellwarp_product_check <bool> - check every product on a twin (and every refresh of its values) against `MATSEQAIJ`'s on host copies (slow; tests)
- -mat_ellwarp_product_host_twin <bool> - matrix products of the host backend on a `MATSEQAIJ` twin (for tests; default false)

  Level: beginner

  Note:
  `MatSetPreallocationCOO()` builds the nonzero pattern and the layout on the device with the CUDA backend (sort,
  run-length encoding, layout build, one download of the pattern for the host AIJ arrays), and `MatSetValuesCOO()`, with
  values in host or device memory, writes the layout's slots directly; the values are then current in the layout only,
  and the first host read pulls them back once.

  Matrix products (`MatMatMult()`, `MatTransposeMatMult()`, `MatMatTransposeMult()`, `MatPtAP()`, `MatRARt()`, `MatProductCreate()`;
  `PCGAMG` and `PCMG`'s Galerkin set-ups) with the CUDA backend run in cuSPARSE on a `MATSEQAIJCUSPARSE` twin of the matrix when the
  solver's vectors are known to be device vectors -- an operand's `DM` (`DMCreateMatrix()` attaches it) has a device vector type
  (`DMGetVecType()`) and no operand says otherwise (an operand without a `DM`, such as `PCGAMG`'s prolongator, follows the others;
  with no `DM` at all the products stay on the host, since `MatCreateVecs()` does not say what vectors a user makes) -- or
  with `-mat_ellwarp_product_device`: the twin is built once
  per nonzero pattern (it shares the host row pointer and columns of the matrix), its values refreshed, when the matrix changed, by a
  device gather from the ELL-WARP layout (or one upload of the host values when the layout is not current); the other operand takes
  part as its own twin (`MATSEQAIJELLWARP`) or as it is (`MATSEQAIJCUSPARSE`), and the result is a `MATSEQAIJCUSPARSE` matrix, so that
  `PCGAMG`'s prolongators and coarse operators are aijcusparse; `MatPtAP()` and `MatRARt()` run as two products on the twins.
  Those aijcusparse results need device vectors, as PETSc's own `MATSEQAIJCUSPARSE` does (given host vectors they read whatever
  the device arrays hold: on the H100 GAMG then ran 16 iterations where AIJ ran 11): where the twins were chosen because
  the vectors were device vectors, a host vector given to the matrix's `MatMult()` is an error that names the remedies. With
  the host backend, with host vectors, with `-mat_ellwarp_product_device 0`, or with operands of other types, the products are `MATSEQAIJ`'s on the host (the result of the type of the first operand). `MatView()` with
  `PETSC_VIEWER_ASCII_INFO` reports where the products run and the twin's memory; -info names the path of every product; the log events
  `EllWarpTwin` and `EllWarpTwinVal` time the twin's builds and value refreshes.

.seealso: [](ch_matrices), `MATELLWARP`, `MATMPIAIJELLWARP`, `MatCreateSeqAIJEllWarp()`, `MatEllWarpGetInfo()`, `MatSetPreallocationCOO()`, `MatSetValuesCOO()`
M*/
PetscErrorCode MatCreate_SeqAIJEllWarp(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(B, MATSEQAIJ));
  PetscCall(MatConvert_SeqAIJ_SeqAIJEllWarp(B, MATSEQAIJELLWARP, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
