static char help[] = "KSPCGWARP with PCJACOBI across solves of a changing matrix (KSPCGWARP computes Jacobi's inverse diagonal\n"
                     "itself): with KSPSetReusePreconditioner() both KSPCG and KSPCGWARP keep the first diagonal, without it\n"
                     "both take the new one; iteration counts equal, solutions within 1e-12 of KSPCG's.\n"
                     "  -n <n>          rows (default 300)\n"
                     "  -mat_type t     aij (default) or ellwarp (host backend with -mat_ellwarp_backend host)\n";

#include <petscwarp.h>
#include <petscksp.h>

/* A tridiagonal SPD matrix with a varying diagonal (so that Jacobi matters) */
static PetscErrorCode CreateMatrix(PetscInt n, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, n, n, n, n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 3, NULL));
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar d = 2.0 + 50.0 * (PetscScalar)((i * 7) % 13);
    PetscCall(MatSetValue(*A, i, i, d, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Two solves of type with the matrix's diagonal changed in between; reuse: KSPSetReusePreconditioner() */
static PetscErrorCode TwoSolves(KSPType type, PetscInt n, PetscBool reuse, PetscInt its[2], Vec x[2])
{
  Mat A;
  KSP ksp;
  PC  pc;
  Vec b, d;

  PetscFunctionBegin;
  PetscCall(CreateMatrix(n, &A));
  PetscCall(MatCreateVecs(A, &b, NULL));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 1000));
  PetscCall(KSPSetReusePreconditioner(ksp, reuse));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(VecDuplicate(b, &x[k]));
    PetscCall(KSPSolve(ksp, b, x[k]));
    PetscCall(KSPGetIterationNumber(ksp, &its[k]));
    if (k == 0) { /* a new diagonal, scaled row by row by 1..401 (still SPD): a reused Jacobi no longer fits it */
      PetscScalar *a;
      PetscInt     lo, hi;
      PetscCall(MatCreateVecs(A, &d, NULL));
      PetscCall(MatGetDiagonal(A, d));
      PetscCall(VecGetOwnershipRange(d, &lo, &hi));
      PetscCall(VecGetArray(d, &a));
      for (PetscInt i = lo; i < hi; i++) a[i - lo] *= 1.0 + 100.0 * (PetscScalar)((i * 3) % 5);
      PetscCall(VecRestoreArray(d, &a));
      PetscCall(MatDiagonalSet(A, d, INSERT_VALUES));
      PetscCall(VecDestroy(&d));
    }
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt n = 300, second = -1;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  for (int r = 0; r < 2; r++) {
    PetscBool reuse = (PetscBool)r;
    PetscInt  icg[2], iw[2];
    Vec       xcg[2], xw[2];
    PetscCall(TwoSolves(KSPCG, n, reuse, icg, xcg));
    PetscCall(TwoSolves(KSPCGWARP, n, reuse, iw, xw));
    for (int k = 0; k < 2; k++) {
      PetscReal dn, nx;
      PetscCheck(icg[k] == iw[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "reuse %d, solve %d: KSPCG %" PetscInt_FMT " iterations, KSPCGWARP %" PetscInt_FMT, r, k, icg[k], iw[k]);
      PetscCall(VecAXPY(xw[k], -1.0, xcg[k]));
      PetscCall(VecNorm(xw[k], NORM_INFINITY, &dn));
      PetscCall(VecNorm(xcg[k], NORM_INFINITY, &nx));
      PetscCheck(dn <= 1e-12 * nx, PETSC_COMM_SELF, PETSC_ERR_PLIB, "reuse %d, solve %d: |x_cgwarp - x_cg| / |x_cg| = %g", r, k, (double)(dn / nx));
      PetscCall(VecDestroy(&xw[k]));
      PetscCall(VecDestroy(&xcg[k]));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "reuse %d: iterations %" PetscInt_FMT ", %" PetscInt_FMT " (KSPCG and KSPCGWARP)\n", r, icg[0], icg[1]));
    if (r == 0) second = icg[1];
    else PetscCheck(icg[1] != second, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the reused Jacobi gave the same %" PetscInt_FMT " iterations as a new one: the test does not tell them apart", second);
  }
  PetscCall(PetscFinalize());
  return 0;
}
