/*
  A SeqAIJ matrix's nonzero pattern set from a CSR (rows sorted, columns unique and in range, as PetscWarpPlanPattern()
  makes them) without MatSeqAIJSetPreallocationCSR()'s MatSetValues() row by row, which took about half of
  PetscWarpAsmCreateMatrix() on 0.5 M-row hexahedral patterns: the preallocation is exact, so the column indices are
  copied into place at once, and PETSc's own assembly (and the type's: cuSPARSE's, ELL-WARP's) does the rest.
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp_petsc_aij.h>

PetscErrorCode MatWarpSeqAIJSetPatternCSR_Private(Mat B, const PetscInt Ii[], const PetscInt J[])
{
  PetscBool   known;
  PetscInt    m, n, *nnz;
  Mat_SeqAIJ *a;

  PetscFunctionBegin;
  /* the types whose MatSeqAIJSetPreallocationCSR() is SeqAIJ's (MatSetValues_SeqAIJ() per row, then assembly) */
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &known, MATSEQAIJ, MATSEQAIJCUSPARSE, MATSEQAIJELLWARP, ""));
  if (!known) {
    PetscCall(MatSeqAIJSetPreallocationCSR(B, Ii, J, NULL));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(Ii[0] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Ii[0] must be 0, it is %" PetscInt_FMT, Ii[0]);
  PetscCall(PetscLayoutSetUp(B->rmap));
  PetscCall(PetscLayoutSetUp(B->cmap));
  PetscCall(MatGetSize(B, &m, &n));
  PetscCall(PetscMalloc1(m + 1, &nnz));
  for (PetscInt r = 0; r < m; r++) {
    nnz[r] = Ii[r + 1] - Ii[r];
    PetscCheck(nnz[r] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Row %" PetscInt_FMT " has a negative number of columns %" PetscInt_FMT, r, nnz[r]);
  }
  PetscCall(MatSeqAIJSetPreallocation(B, 0, nnz));
  PetscCall(PetscFree(nnz));
  a = (Mat_SeqAIJ *)B->data;
  PetscCheck(!m || a->i[m] == Ii[m], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Preallocated %" PetscInt_FMT " entries, the pattern has %" PetscInt_FMT, a->i[m], Ii[m]);
  PetscWarpHugePages_Private(a->j, sizeof(PetscInt) * (size_t)Ii[m]); /* before their first write: fewer page faults */
  if (!B->structure_only) PetscWarpHugePages_Private(a->a, sizeof(PetscScalar) * (size_t)Ii[m]);
  PetscCall(PetscArraycpy(a->j, J, Ii[m]));
  if (!B->structure_only) PetscCall(PetscArrayzero(a->a, Ii[m]));
  for (PetscInt r = 0; r < m; r++) a->ilen[r] = Ii[r + 1] - Ii[r];
  a->nz = Ii[m];
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
