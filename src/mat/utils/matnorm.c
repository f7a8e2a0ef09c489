/*
  MatNorm(NORM_1) of MPIAIJ matrices whose vector type is a device one (MATMPIAIJELLWARP with the CUDA backend,
  MATSHAREDNZ on several ranks = MATMPIAIJCUSPARSE).

  PETSc 3.26.1's MatNorm_MPIAIJ() sums the column norms into vectors from MatCreateVecs() obtained with
  VecGetArrayWrite() and adds into them (+=) as if they were zero; for VECCUDA the host array behind VecGetArrayWrite()
  is allocated with PetscMalloc() and not initialised, so the 1-norm comes out of uninitialised memory (H100
  2026-11-23: 3.58 against AIJ's 3.36 on test_ellwarpcoo with 2 ranks). The other norms do not use vectors and stay
  MPIAIJ's own. Here the column sums go into host vectors created zeroed.

  The fix follows MatDuplicate(): the matrix's duplicate method is wrapped too and installs it on the duplicate (a
  MATSHAREDNZ on several ranks is PETSc's MATMPIAIJCUSPARSE, whose duplicate is created as PETSc's type; a
  MATMPIAIJELLWARP's duplicate gets it from its own creation as well). It is installed on MATSHAREDNZ matrices of several
  ranks with and without a device (on the host they are MATMPIAIJ: the same sums, one code path). A type that keeps state
  of its own that MatDuplicate() does not copy composes "MatWarpDuplicateFinish_C" (Mat A, Mat M), called on the duplicate
  M after the parent's duplicate (one wrapper of the duplicate method, not two that would fight over it).

  Limits: the fix lives on the matrices we create and their duplicates. MatConvert() results of a MATSHAREDNZ, and
  PETSc's own mpiaijcusparse matrices (e.g. GAMG's coarse operators there), keep PETSc's NORM_1.
*/
#include <petscwarp/private/matnormimpl.h>

static PetscErrorCode ColumnSums(Mat A, PetscScalar *sums)
{
  const PetscInt    *ia, *ja;
  const PetscScalar *v;
  PetscInt           m;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "MatGetRowIJ() not available for %s", ((PetscObject)A)->type_name);
  PetscCall(MatSeqAIJGetArrayRead(A, &v));
  for (PetscInt k = 0; k < ia[m]; k++) sums[ja[k]] += PetscAbsScalar(v[k]);
  PetscCall(MatSeqAIJRestoreArrayRead(A, &v));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatNorm_MPIAIJWarp(Mat A, NormType type, PetscReal *norm)
{
  PetscErrorCode (*parent)(Mat, NormType, PetscReal *) = NULL;

  PetscFunctionBegin;
  if (type == NORM_1) {
    Mat             Ad, Ao;
    const PetscInt *garray;
    Vec             col, bcol;
    PetscScalar    *a;
    PetscInt        no;

    PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(VecCreate(PetscObjectComm((PetscObject)A), &col));
    PetscCall(VecSetLayout(col, A->cmap));
    PetscCall(VecSetType(col, VECSTANDARD)); /* zeroed */
    PetscCall(VecGetArray(col, &a));
    PetscCall(ColumnSums(Ad, a));
    PetscCall(VecRestoreArray(col, &a));
    PetscCall(MatGetLocalSize(Ao, NULL, &no));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, no, &bcol));
    PetscCall(VecGetArray(bcol, &a));
    PetscCall(ColumnSums(Ao, a));
    PetscCall(VecSetValues(col, no, garray, a, ADD_VALUES));
    PetscCall(VecRestoreArray(bcol, &a));
    PetscCall(VecDestroy(&bcol));
    PetscCall(VecAssemblyBegin(col));
    PetscCall(VecAssemblyEnd(col));
    PetscCall(VecNorm(col, NORM_INFINITY, norm));
    PetscCall(VecDestroy(&col));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatNormParent_PetscWarp_C", &parent));
  PetscCheck(parent, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "MatNorm of the parent type missing");
  PetscCall((*parent)(A, type, norm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_MPIAIJWarpNorm(Mat A, MatDuplicateOption op, Mat *M)
{
  PetscErrorCode (*parent)(Mat, MatDuplicateOption, Mat *) = NULL;
  PetscErrorCode (*finish)(Mat, Mat)                       = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatDuplicateParent_PetscWarp_C", &parent));
  PetscCheck(parent, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "MatDuplicate of the parent type missing");
  PetscCall((*parent)(A, op, M));
  PetscCall(MatWarpFixMPIAIJNorm_Private(*M, PETSC_TRUE)); /* the duplicate is created as the parent type: PETSc's NORM_1 */
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatWarpDuplicateFinish_C", &finish));
  if (finish) PetscCall((*finish)(A, *M)); /* the type's own state that MatDuplicate() does not copy (MATMPIAIJELLWARP's options) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install (on) or remove (off) the corrected MatNorm on an MPIAIJ-derived matrix A, and the duplicate method that passes
   it on; the parent's methods are kept composed */
PetscErrorCode MatWarpFixMPIAIJNorm_Private(Mat A, PetscBool on)
{
  PetscErrorCode (*norm)(Mat, NormType, PetscReal *)          = NULL;
  PetscErrorCode (*duplicate)(Mat, MatDuplicateOption, Mat *) = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatNormParent_PetscWarp_C", &norm));
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatDuplicateParent_PetscWarp_C", &duplicate));
  if (on) {
    if (A->ops->norm != MatNorm_MPIAIJWarp) {
      PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatNormParent_PetscWarp_C", A->ops->norm));
      A->ops->norm = MatNorm_MPIAIJWarp;
    }
    if (A->ops->duplicate && A->ops->duplicate != MatDuplicate_MPIAIJWarpNorm) {
      PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDuplicateParent_PetscWarp_C", A->ops->duplicate));
      A->ops->duplicate = MatDuplicate_MPIAIJWarpNorm;
    }
  } else {
    if (norm) {
      A->ops->norm = norm;
      PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatNormParent_PetscWarp_C", NULL));
    }
    if (duplicate) {
      A->ops->duplicate = duplicate;
      PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatDuplicateParent_PetscWarp_C", NULL));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
