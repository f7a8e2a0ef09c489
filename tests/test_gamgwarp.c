static const char help[] = "PCGAMG type warp through PETSc: repeated set-ups, near null spaces, PCView, unsupported cases.\n"
                           "  -n <n>         grid points per side of the 2D Laplacian (default 40, random coefficients)\n"
                           "  -mtype <t>     matrix type (default aij; aijcusparse with device vectors on a GPU)\n"
                           "  -case <c>      setups (default: two solves, values changed in between, same iterations; the\n"
                           "                 same with a near null space of one vector, the constant; PCView names the type),\n"
                           "                 nullspace <k>: a near null space of the constant and k - 1 random vectors (solved;\n"
                           "                 k = 17 is refused), nsmooths2 (refused)\n";

/* A 2D 5-point Laplacian with random positive edge weights (fresh each run), a small shift, the given type */
#include <petscwarp.h>
#include <petscksp.h>
#include "testutil.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static PetscErrorCode Laplacian(PetscInt m, MatType type, PetscRandom rnd, Mat *A)
{
  PetscInt n = m * m;

  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatSeqAIJSetPreallocation(*A, 5, NULL));
  for (PetscInt y = 0; y < m; y++)
    for (PetscInt x = 0; x < m; x++) {
      PetscInt    i = y * m + x, nb[4] = {x > 0 ? i - 1 : -1, x < m - 1 ? i + 1 : -1, y > 0 ? i - m : -1, y < m - 1 ? i + m : -1};
      PetscScalar d = 1e-3;
      for (PetscInt k = 0; k < 4; k++) {
        PetscReal w;
        if (nb[k] < 0) continue;
        PetscCall(PetscRandomGetValueReal(rnd, &w));
        w = 0.5 + w;
        d += w;
        PetscCall(MatSetValue(*A, i, nb[k], -w, ADD_VALUES)); /* unsymmetric weights: a_ij and a_ji drawn apart */
      }
      PetscCall(MatSetValue(*A, i, i, d, ADD_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Solve(KSP ksp, Mat A, Vec b, Vec x, PetscInt *its)
{
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "KSP did not converge: %s after %" PetscInt_FMT " iterations", KSPConvergedReasons[reason], *its);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateKSP(Mat A, KSP *ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetType(*ksp, KSPGMRES));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(PCGAMGSetType(pc, PCGAMGWARP));
  PetscCall(KSPSetTolerances(*ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 500));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    m         = 40, its[4];
  char        mtype[64] = MATAIJ, cs[32] = "setups";
  Mat         A;
  Vec         b, x;
  KSP         ksp;
  PetscRandom rnd;
  PetscBool   skip, nsm2, nul2;
  PetscInt    nvec = 2;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &m, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtype", mtype, sizeof(mtype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", cs, sizeof(cs), NULL));
  PetscCall(PetscStrcmp(cs, "nsmooths2", &nsm2));
  PetscCall(PetscStrcmp(cs, "nullspace", &nul2));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nvec", &nvec, NULL));
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(Laplacian(m, mtype, rnd, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSetRandom(b, rnd));
  if (nsm2) { /* PCGAMGSetNSmooths(2): refused */
    PC pc;
    PetscCall(CreateKSP(A, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGAMGSetNSmooths(pc, 2));
    PetscCall(KSPDestroy(&ksp));
  } else if (nul2) { /* the constant and nvec - 1 random vectors: the block path with bs 1 (at most 16 vectors) */
    MatNullSpace ns;
    Vec         *v;
    PetscCall(VecDuplicateVecs(x, nvec - 1, &v));
    for (PetscInt k = 0; k < nvec - 1; k++) PetscCall(VecSetRandom(v[k], rnd));
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, nvec - 1, v, &ns));
    PetscCall(MatSetNearNullSpace(A, ns));
    PetscCall(MatNullSpaceDestroy(&ns));
    PetscCall(VecDestroyVecs(nvec - 1, &v));
    PetscCall(CreateKSP(A, &ksp));
    PetscCall(Solve(ksp, A, b, x, &its[0]));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT "^2: GMRES + GAMG warp with a near null space of %" PetscInt_FMT " vectors, %" PetscInt_FMT " iterations\n", mtype, m, nvec, its[0]));
  } else {
    PetscViewer  sv;
    char         buf[1024];
    PetscBool    named;
    MatNullSpace ns;

    PetscCall(CreateKSP(A, &ksp));
    PetscCall(Solve(ksp, A, b, x, &its[0]));
    /* new values, same pattern: a second set-up (this type rebuilds the hierarchy); a scaled operator gives the same
       aggregates and damping, so the same iterations */
    PetscCall(MatScale(A, 4.0));
    PetscCall(VecScale(b, 4.0));
    PetscCall(Solve(ksp, A, b, x, &its[1]));
    { /* PCView through an ASCII file (PCGAMG's types print to ASCII viewers only) */
      char  fname[PETSC_MAX_PATH_LEN];
      FILE *fp;
      PetscCall(PetscSNPrintf(fname, sizeof(fname), "test_gamgwarp_view_%d.txt", (int)getpid()));
      PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, fname, &sv));
      PetscCall(KSPView(ksp, sv));
      PetscCall(PetscViewerDestroy(&sv));
      named = PETSC_FALSE;
      fp    = fopen(fname, "r");
      PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s", fname);
      while (fgets(buf, sizeof(buf), fp))
        if (strstr(buf, "GAMG-warp")) named = PETSC_TRUE;
      fclose(fp);
      remove(fname);
    }
    PetscCall(KSPDestroy(&ksp));
    /* a near null space of one vector, the constant: the default's hierarchy */
    PetscCall(MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, NULL, &ns));
    PetscCall(MatSetNearNullSpace(A, ns));
    PetscCall(MatNullSpaceDestroy(&ns));
    PetscCall(CreateKSP(A, &ksp));
    PetscCall(Solve(ksp, A, b, x, &its[2]));
    PetscCall(KSPDestroy(&ksp));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %" PetscInt_FMT "^2: GMRES + GAMG warp, %" PetscInt_FMT " iterations; after new values %" PetscInt_FMT "; with the constant as near null space %" PetscInt_FMT "; PCView %s the type\n", mtype, m, its[0], its[1], its[2], named ? "names" : "does not name"));
    PetscCheck(its[0] == its[1] && its[0] == its[2], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ");
    PetscCheck(named, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "PCView does not name GAMG-warp");
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
