static char help[] = "A plain PETSc program (it does not link petscwarp): with -dll_append .../libpetscwarp.so -mat_type ellwarp\n"
                     "it gets a MATELLWARP matrix and multiplies with it.\n";

#include <petscmat.h>

int main(int argc, char **argv)
{
  Mat       A;
  Vec       x, y;
  PetscInt  n = 100, rstart, rend;
  MatType   type;
  PetscReal nrm;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 3, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 3, NULL, 2, NULL));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscInt    c[3] = {i - 1, i, i + 1}, first = i == 0, last = i == n - 1;
    PetscScalar v[3] = {-1, 2, -1};
    PetscCall(MatSetValues(A, 1, &i, 3 - first - last, c + first, v + first, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(VecNorm(y, NORM_1, &nrm));
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix type %s, |A 1|_1 = %g\n", type, (double)nrm));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
