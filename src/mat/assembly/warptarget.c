/*
  The value array of a matrix that PetscWarpAsm writes: MATSEQAIJ (host), MATSEQAIJCUSPARSE / MATSHAREDNZ (device CSR
  values through PETSc's accessors, so PETSc's offload mask keeps host and device coherent), or any type that composes
  "MatWarpTargetBegin_C" / "MatWarpTargetEnd_C" (MATSEQAIJELLWARP: its layout's slots).
*/
#include <petscwarp/private/warpasmimpl.h>

/* The pattern, slots and value location of A's target, without access to its values (no MatWarpTargetEnd() needed);
   a type's "MatWarpTargetBegin_C" must not change the matrix's state (its "end" does) */
static PetscErrorCode TargetLayout(Mat A, PetscBool device, MatWarpTarget *t, PetscBool *composed)
{
  PetscErrorCode (*f)(Mat, PetscBool, MatWarpTarget *) = NULL;
  PetscBool       isaij, iscusp;
  const PetscInt *ia, *ja;
  PetscInt        n;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, &isaij));
  PetscCheck(isaij, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "PetscWarpAsm assembles MATSEQAIJ, MATSEQAIJCUSPARSE, MATSHAREDNZ and MATELLWARP matrices, not %s", ((PetscObject)A)->type_name);
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the CSR pattern of the matrix");
  t->nrows   = A->rmap->n;
  t->ncols   = A->cmap->n;
  t->rowptr  = ia;
  t->colidx  = ja;
  t->nnz     = ia[n];
  t->nslots  = t->nnz;
  t->nzstate = A->nonzerostate;
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done)); /* MATSEQAIJ gives its own arrays */
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatWarpTargetBegin_C", &f));
  *composed = (PetscBool) !!f;
  if (f) PetscCall((*f)(A, device, t));
  else {
    PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, &iscusp));
    t->device = (PetscBool)(PetscDefined(HAVE_CUDA) && device && iscusp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpTargetGetLayout(Mat A, PetscBool device, MatWarpTarget *t)
{
  PetscBool composed;

  PetscFunctionBegin;
  PetscCall(TargetLayout(A, device, t, &composed));
  t->val = NULL;
  t->end = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpTargetBegin(Mat A, PetscBool device, MatWarpTarget *t)
{
  PetscBool composed;

  PetscFunctionBegin;
  PetscCall(TargetLayout(A, device, t, &composed));
  if (composed) PetscFunctionReturn(PETSC_SUCCESS);
  if (t->device) {
#if PetscDefined(HAVE_CUDA)
    PetscCall(MatSeqAIJCUSPARSEGetArray(A, &t->val)); /* creates the device CSR on first use; no copy once the device holds the values */
    t->aijval = t->val;
#endif
  } else {
    PetscCall(MatSeqAIJGetArrayWrite(A, &t->val));
    t->aijval = t->val;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values were written: hand them back to the matrix, which now holds them on the side written */
PetscErrorCode MatWarpTargetEnd(Mat A, MatWarpTarget *t)
{
  PetscFunctionBegin;
  if (t->end) PetscCall((*t->end)(A));
  else if (t->device) {
#if PetscDefined(HAVE_CUDA)
    PetscCall(MatSeqAIJCUSPARSERestoreArray(A, &t->aijval)); /* offload mask GPU, state increased */
#endif
  } else PetscCall(MatSeqAIJRestoreArrayWrite(A, &t->aijval));
  PetscFunctionReturn(PETSC_SUCCESS);
}
