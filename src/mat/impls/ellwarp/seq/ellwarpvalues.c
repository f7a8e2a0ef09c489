/*
  MATSEQAIJELLWARP values that live in the layout: a device assembly (PetscWarpAsm, MatSetValuesCOO) writes the
  layout's slots directly, after which the layout holds the only current values. The first host read pulls them back
  once (a gather from the layout's slots to CSR order on the device, one download).

  Host reads of AIJ values all go through MatSeqAIJGetArray{,Read,Write}() and MatSeqAIJGetCSRAndMemType(), which
  dispatch to the hooks of Mat_SeqAIJ::ops; AIJCUSPARSE and AIJKOKKOS keep their values coherent the same way. PETSc
  does not install the header of Mat_SeqAIJ, so scripts/setup.sh extracts it from the PETSc sdist it builds (the
  same version, so the layout of the struct matches); this file and ellwarpcoo.c (the COO pattern) are the only ones
  that include it.
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/ellwarpcookernels.h>
#include <petscwarp_petsc_aij.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

/* Values current only in the layout: bring them back to the host AIJ array */
static PetscErrorCode PullBack(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  Mat_SeqAIJ        *a  = (Mat_SeqAIJ *)A->data;

  PetscFunctionBegin;
  if (!ew || !ew->layout_only) PetscFunctionReturn(PETSC_SUCCESS);
  ew->layout_only = PETSC_FALSE;
  PetscCall(PetscLogEventBegin(MATELLWARP_ToHost, A, 0, 0, 0));
  if (ew->built_backend == MAT_ELLWARP_BACKEND_HOST) PetscWarpEllToCSRHost(&ew->E, a->a);
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (!ew->d_csrval) PetscCallCUDA(cudaMalloc((void **)&ew->d_csrval, sizeof(PetscScalar) * PetscMax(ew->E.nnz, 1)));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpEllToCSRCUDA(&ew->E, ew->d_csrval, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCallCUDA(cudaMemcpyAsync(a->a, ew->d_csrval, sizeof(PetscScalar) * ew->E.nnz, cudaMemcpyDeviceToHost, st));
    PetscCallCUDA(cudaStreamSynchronize(st));
    PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * (PetscLogDouble)ew->E.nnz));
  }
#endif
  PetscCall(PetscLogEventEnd(MATELLWARP_ToHost, A, 0, 0, 0));
  PetscCall(PetscObjectStateGet((PetscObject)A, &ew->state)); /* both copies agree now: no refresh before a host write */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetArray(Mat A, PetscScalar **v)
{
  PetscFunctionBegin;
  PetscCall(PullBack(A));
  *v = ((Mat_SeqAIJ *)A->data)->a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetArrayRead(Mat A, const PetscScalar **v)
{
  PetscFunctionBegin;
  PetscCall(PullBack(A));
  *v = ((Mat_SeqAIJ *)A->data)->a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A write of every value: nothing to pull back; the layout is refreshed from the host before the next product (the
   state changes) */
static PetscErrorCode GetArrayWrite(Mat A, PetscScalar **v)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew) ew->layout_only = PETSC_FALSE;
  *v = ((Mat_SeqAIJ *)A->data)->a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreArray(Mat A, PetscScalar **v)
{
  PetscFunctionBegin;
  *v = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreArrayRead(Mat A, const PetscScalar **v)
{
  PetscFunctionBegin;
  *v = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetCSRAndMemType(Mat A, const PetscInt **i, const PetscInt **j, PetscScalar **v, PetscMemType *mt)
{
  Mat_SeqAIJ *a = (Mat_SeqAIJ *)A->data;

  PetscFunctionBegin;
  if (v) PetscCall(PullBack(A));
  if (i) *i = a->i;
  if (j) *j = a->j;
  if (v) *v = a->a;
  if (mt) *mt = PETSC_MEMTYPE_HOST;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install (on) or remove the hooks; the parent MATSEQAIJ has none */
PetscErrorCode MatEllWarpSetValueHooks_Private(Mat A, PetscBool on)
{
  Mat_SeqAIJ *a = (Mat_SeqAIJ *)A->data;

  PetscFunctionBegin;
  a->ops->getarray          = on ? GetArray : NULL;
  a->ops->restorearray      = on ? RestoreArray : NULL;
  a->ops->getarrayread      = on ? GetArrayRead : NULL;
  a->ops->restorearrayread  = on ? RestoreArrayRead : NULL;
  a->ops->getarraywrite     = on ? GetArrayWrite : NULL;
  a->ops->restorearraywrite = on ? RestoreArray : NULL;
  a->ops->getcsrandmemtype  = on ? GetCSRAndMemType : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bring the host values up to date (before the layout is dropped, or the type reverted to AIJ) */
PetscErrorCode MatEllWarpSyncHost_Private(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PullBack(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CSR position -> layout slot, on the host, for the layout in use (computed where the layout lives: on the device a
   scatter of the slots' map and one download of nnz ints, instead of the map's download and a host scatter) */
static PetscErrorCode Pos2Slot(Mat A, const int **p2s)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscWarpEll      *E  = &ew->E;

  PetscFunctionBegin;
  if (!ew->pos2slot || ew->pos2slot_build != ew->nbuilds) {
    PetscCall(PetscFree(ew->pos2slot));
    PetscCall(PetscMalloc1(PetscMax(E->nnz, 1), &ew->pos2slot));
    PetscWarpHugePages_Private(ew->pos2slot, sizeof(int) * (size_t)E->nnz); /* written at once: fewer page faults */
#if PetscDefined(HAVE_CUDA)
    if (ew->built_backend == MAT_ELLWARP_BACKEND_CUDA) {
      int         *d = NULL;
      cudaStream_t st;
      cudaError_t  cerr;

      PetscCall(PetscGetCurrentCUDAStream(&st));
      PetscCallCUDA(cudaMalloc((void **)&d, sizeof(int) * (size_t)PetscMax(E->nnz, 1)));
      cerr = (cudaError_t)PetscWarpEllPos2SlotCUDA(E, d, st);
      if (cerr == cudaSuccess) cerr = cudaMemcpyAsync(ew->pos2slot, d, sizeof(int) * (size_t)E->nnz, cudaMemcpyDeviceToHost, st);
      if (cerr == cudaSuccess) cerr = cudaStreamSynchronize(st);
      PetscCallCUDA(cudaFree(d));
      PetscCallCUDA(cerr);
      PetscCall(PetscLogGpuToCpu(sizeof(int) * (PetscLogDouble)E->nnz));
    } else
#endif
      PetscWarpEllPos2SlotHost(E, ew->pos2slot);
    ew->pos2slot_build = ew->nbuilds;
  }
  *p2s = ew->pos2slot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Values were written into the layout's slots (PetscWarpAsm, MatSetValuesCOO()): the layout holds the only current
   values until the first host read pulls them back */
PetscErrorCode MatEllWarpLayoutWritten_Private(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscCall(PetscObjectStateGet((PetscObject)A, &ew->state)); /* the layout holds the current values */
  ew->layout_only = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscWarpAsm's access to the layout's values (MatWarpTargetBegin) */
static PetscErrorCode TargetEnd(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatEllWarpLayoutWritten_Private(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatWarpTargetBegin_SeqAIJEllWarp(Mat A, PetscBool device, MatWarpTarget *t)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  (void)device;                          /* the layout's backend decides */
  PetscCall(MatEllWarpSetUp_Private(A)); /* build the layout if the pattern changed */
  PetscCall(Pos2Slot(A, &t->pos2slot));
  t->device = (PetscBool)(ew->built_backend == MAT_ELLWARP_BACKEND_CUDA);
  t->nslots = ew->E.nslots;
  t->val    = ew->E.val;
  t->ell    = PETSC_TRUE;
  t->end    = TargetEnd;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatEllWarpComposeTarget_Private(Mat A, PetscBool on)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatWarpTargetBegin_C", on ? MatWarpTargetBegin_SeqAIJEllWarp : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
