static char help[] = "KSP and SNES on a DMPlex problem with -dm_mat_type aij and ellwarp: the same iteration counts and\n"
                     "solutions. Solver options come from the command line (-ksp_type, -pc_type, ...).\n"
                     "  -physics <laplace,elasticity>\n";

#include "testutil.h"
#include "../tutorials/plexproblem.h"

/* SNES (ksponly) solve with the DM's matrix of the given type; returns the solution and iteration counts */
static PetscErrorCode Solve(DM dm, MatType type, Vec u, PetscInt *its, PetscInt *lits)
{
  SNES snes;
  KSP  ksp;
  Mat  J;

  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, type));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(SNESCreate(PetscObjectComm((PetscObject)dm), &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESSetJacobian(snes, J, J, NULL, NULL));
  PetscCall(SNESSetType(snes, SNESKSPONLY));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 2000));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESSolve(snes, NULL, u));
  PetscCall(SNESGetIterationNumber(snes, its));
  PetscCall(KSPGetIterationNumber(ksp, lits));
  PetscCall(SNESDestroy(&snes));
  PetscCall(MatDestroy(&J));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM          dm;
  Vec         ua, ub;
  PetscInt    physics = 0, its[2], lits[2];
  PetscReal   err;
  PetscBool   skip;
  const char *phys[]     = {"laplace", "elasticity"};
  char        pctype[64] = "", ksptype[64] = "";

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-physics", phys, 2, &physics, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ksp_type", ksptype, sizeof(ksptype), NULL));
  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, (PlexPhysics)physics, &dm));
  PetscCall(DMCreateGlobalVector(dm, &ua));
  PetscCall(VecDuplicate(ua, &ub));
  PetscCall(Solve(dm, MATAIJ, ua, &its[0], &lits[0]));
  PetscCall(Solve(dm, MATELLWARP, ub, &its[1], &lits[1]));
  PetscCall(VecRelativeDifference(ub, ua, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, ksp %s, pc %s: aij %" PetscInt_FMT " iterations, ellwarp %" PetscInt_FMT " iterations, solutions differ by %.2e\n", phys[physics], ksptype, pctype, lits[0], lits[1], (double)err));
  PetscCheck(lits[0] == lits[1] && its[0] == its[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ");
  PetscCheck(err < 1e-8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ by %g", (double)err);
  PetscCall(VecDestroy(&ua));
  PetscCall(VecDestroy(&ub));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
