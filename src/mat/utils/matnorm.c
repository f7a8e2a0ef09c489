/*
  MatNorm(NORM_1) of MPIAIJ matrices whose vector type is a device one (MATMPIAIJELLWARP with the CUDA backend,
  MATSHAREDNZ on several ranks = MATMPIAIJCUSPARSE).

  PETSc 3.26.1's MatNorm_MPIAIJ() sums the column norms into vectors from MatCreateVecs() obtained with
  VecGetArrayWrite() and adds into them (+=) as if they were zero; for VECCUDA the host array behind VecGetArrayWrite()
  is allocated with PetscMalloc() and not initialised, so the 1-norm comes out of uninitialised memory (H100
  2026-11-23: 3.58 against AIJ's 3.36 on test_ellwarpcoo with 2 ranks). The other norms do not use vectors and stay
  MPIAIJ's own. Here the column sums go into host vectors created zeroed.

  Limits: the fix lives on the matrices we create. A MATSHAREDNZ on several ranks is PETSc's MATMPIAIJCUSPARSE, so its
  MatDuplicate()/MatConvert() results, and PETSc's own mpiaijcusparse matrices (e.g. GAMG's coarse operators there), keep
  PETSc's NORM_1.
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

/* Install (on) or remove (off) the corrected MatNorm on an MPIAIJ-derived matrix A; the parent's is kept composed */
PetscErrorCode MatWarpFixMPIAIJNorm_Private(Mat A, PetscBool on)
{
  PetscErrorCode (*parent)(Mat, NormType, PetscReal *) = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatNormParent_PetscWarp_C", &parent));
  if (on) {
    if (A->ops->norm == MatNorm_MPIAIJWarp) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatNormParent_PetscWarp_C", A->ops->norm));
    A->ops->norm = MatNorm_MPIAIJWarp;
  } else if (parent) {
    A->ops->norm = parent;
    PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatNormParent_PetscWarp_C", NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
