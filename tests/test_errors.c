static char help[] = "Bad input to MATELLWARP gets a clear PETSc error, not a crash.\n";

#include "testutil.h"

/* call fails with a clear error while the option name is set to value (then cleared) */
#define EXPECT_OPTION_ERROR(call, name, value) \
  do { \
    PetscCall(PetscOptionsSetValue(NULL, name, value)); \
    EXPECT_ERROR(call, name " " value); \
    PetscCall(PetscOptionsClearValue(NULL, name)); \
  } while (0)

int main(int argc, char **argv)
{
  Mat         A, B;
  Vec         x, y, xs;
  PetscRandom r;
  PetscBool   dev;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCall(TestCreateCase(PETSC_COMM_WORLD, "nonsquare", r, -1, &A));
  PetscCall(MatConvert(A, MATELLWARP, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatCreateVecs(B, &x, &y));
  PetscCall(VecCreate(PETSC_COMM_WORLD, &xs));
  PetscCall(VecSetSizes(xs, PETSC_DECIDE, 17));
  PetscCall(VecSetFromOptions(xs));
  EXPECT_ERROR(MatMult(B, xs, y), "MatMult with a wrong-sized x");
  EXPECT_ERROR(MatMult(B, y, x), "MatMult with x and y exchanged");
  EXPECT_ERROR(MatMultTranspose(B, x, y), "MatMultTranspose with wrong sizes");
  EXPECT_ERROR(MatEllWarpSetKernel(B, MAT_ELLWARP_KERNEL_K2, -5), "MatEllWarpSetKernel with threshold -5");
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!dev) EXPECT_ERROR(MatEllWarpSetBackend(B, MAT_ELLWARP_BACKEND_CUDA), "MatEllWarpSetBackend(cuda) without a device");
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  (a device is present: the no-device error is not exercised)\n"));
  EXPECT_OPTION_ERROR(MatSetFromOptions(B), "-mat_ellwarp_kernel", "k7");
  EXPECT_OPTION_ERROR(MatSetFromOptions(B), "-mat_ellwarp_block_size", "48");
  EXPECT_OPTION_ERROR(MatSetFromOptions(B), "-mat_ellwarp_kc_variant", "4");
  EXPECT_OPTION_ERROR(MatSetFromOptions(B), "-mat_ellwarp_backend", "opencl");
  EXPECT_OPTION_ERROR(MatSetFromOptions(B), "-mat_ellwarp_reorder", "bogus");
  { /* the assembly object's options out of range */
    PetscWarpAsm wa;
    PetscCall(PetscWarpAsmCreate(PETSC_COMM_WORLD, &wa));
    EXPECT_OPTION_ERROR(PetscWarpAsmSetFromOptions(wa), "-mat_warp_rownz_prefetch", "3");
    EXPECT_OPTION_ERROR(PetscWarpAsmSetFromOptions(wa), "-mat_warp_rownz_simplex_geometry", "3");
    PetscCall(PetscWarpAsmDestroy(&wa));
  }
  EXPECT_ERROR(MatEllWarpGetInfo(A, NULL), "MatEllWarpGetInfo on an aij matrix");
  {
    IS  perm;
    Mat S, Su;
    KSP ksp;
    PC  pc;
    EXPECT_ERROR(MatEllWarpGetRowPermutation(A, &perm), "MatEllWarpGetRowPermutation on an aij matrix");
    PetscCall(MatCreate(PETSC_COMM_WORLD, &Su));
    PetscCall(MatSetSizes(Su, PETSC_DECIDE, PETSC_DECIDE, 10, 10));
    PetscCall(MatSetType(Su, MATELLWARP));
    PetscCall(MatSetUp(Su));
    EXPECT_ERROR(MatEllWarpGetRowPermutation(Su, &perm), "MatEllWarpGetRowPermutation unassembled");
    PetscCall(MatDestroy(&Su));
    PetscCall(TestCreateCase(PETSC_COMM_WORLD, "random", r, -1, &S));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, S, S));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCELLWARPPERM));
    EXPECT_ERROR(KSPSetUp(ksp), "PCELLWARPPERM with an aij matrix");
    PetscCall(KSPDestroy(&ksp));
    PetscCall(MatDestroy(&S));
  }
  /* the matrix still works after the errors */
  PetscCall(VecSetRandom(x, r));
  PetscCall(MatMult(B, x, y));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xs));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "errors: all bad inputs rejected\n"));
  PetscCall(PetscFinalize());
  return 0;
}
