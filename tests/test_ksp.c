static char help[] = "KSP and SNES on a DMPlex problem with -dm_mat_type aij and ellwarp: the same iteration counts and\n"
                     "solutions. Solver options come from the command line (-ksp_type, -pc_type, ...).\n"
                     "  -physics <laplace,elasticity>\n"
                     "  -ellwarpperm   the ellwarp solve runs -ksp_type preonly -pc_type ellwarpperm with the given KSP and PC inside\n"
                     "                 (the system solved in the ELL-WARP sorted numbering): iteration counts must still agree\n"
                     "  -compare_type t  the matrix type compared with aij (default ellwarp; e.g. aijcusparse for PETSc's own GPU path)\n"
                     "  -expect_coarse_type t  the type the compared solve's multigrid coarse operator must have (PCMG, PCGAMG: where\n"
                     "                 the Galerkin products ran; seqaijcusparse for the ellwarp device twins)\n";

#include "testutil.h"
#include "../tutorials/plexproblem.h"

/* SNES (ksponly) solve with the DM's matrix of the given type; returns the solution and iteration counts */
static PetscErrorCode Solve(DM dm, MatType type, PetscBool perm, const char expect[], Vec u, PetscInt *its, PetscInt *lits)
{
  SNES snes;
  KSP  ksp, inner = NULL;
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
  if (perm) { /* the outer solver's KSP and PC move inside PCELLWARPPERM */
    PC        pc, ipc;
    KSPType   kt0;
    PCType    pt0;
    char      kt[64], pt[64];
    PetscReal rtol;
    PetscCall(KSPGetType(ksp, &kt0));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCGetType(pc, &pt0));
    PetscCall(PetscStrncpy(kt, kt0, sizeof(kt))); /* copies: the names go with the types changed below */
    PetscCall(PetscStrncpy(pt, pt0 ? pt0 : PCJACOBI, sizeof(pt)));
    PetscCall(KSPGetTolerances(ksp, &rtol, NULL, NULL, NULL));
    PetscCall(PCSetType(pc, PCELLWARPPERM));
    PetscCall(PCEllWarpPermGetKSP(pc, &inner));
    PetscCall(KSPSetType(inner, kt));
    PetscCall(KSPGetPC(inner, &ipc));
    PetscCall(PCSetType(ipc, pt));
    PetscCall(KSPSetTolerances(inner, rtol, PETSC_CURRENT, PETSC_CURRENT, 2000));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
  }
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESSolve(snes, NULL, u));
  PetscCall(SNESGetIterationNumber(snes, its));
  PetscCall(KSPGetIterationNumber(inner ? inner : ksp, lits));
  if (expect && expect[0]) { /* the coarse operator of the multigrid: the type of the Galerkin products' results */
    PC        pc;
    KSP       coarse;
    Mat       Ac;
    PetscBool same;

    PetscCall(KSPGetPC(inner ? inner : ksp, &pc));
    PetscCall(PCMGGetCoarseSolve(pc, &coarse));
    PetscCall(KSPGetOperators(coarse, &Ac, NULL));
    PetscCall(PetscObjectTypeCompare((PetscObject)Ac, expect, &same));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)dm), "%s: the coarse operator is %s\n", type, ((PetscObject)Ac)->type_name));
    PetscCheck(same, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "the coarse operator is %s, not %s", ((PetscObject)Ac)->type_name, expect);
  }
  if (inner) { /* new values, same pattern: the preconditioner gathers them into its permuted matrix */
    Vec       b, x, r;
    PetscReal nr, nb;
    PetscCall(KSPView(ksp, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)dm))));
    PetscCall(MatCreateVecs(J, &x, &b));
    PetscCall(VecDuplicate(b, &r));
    PetscCall(VecSetRandom(b, NULL));
    PetscCall(MatShift(J, 1.0));
    PetscCall(KSPSetOperators(ksp, J, J));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(MatMult(J, x, r));
    PetscCall(VecAXPY(r, -1.0, b));
    PetscCall(VecNorm(r, NORM_2, &nr));
    PetscCall(VecNorm(b, NORM_2, &nb));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)dm), "after MatShift: residual of the permuted solve %.2e\n", (double)(nr / nb)));
    PetscCheck(nr < 1e-6 * nb, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "PCELLWARPPERM did not take the new values: residual %g", (double)(nr / nb));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&r));
  }
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
  PetscBool   skip, perm = PETSC_FALSE, cusparse;
  const char *phys[]     = {"laplace", "elasticity"};
  char        pctype[64] = "", ksptype[64] = "", ctype[64] = MATELLWARP, expect[64] = "";

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-physics", phys, 2, &physics, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", pctype, sizeof(pctype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ksp_type", ksptype, sizeof(ksptype), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ellwarpperm", &perm, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-compare_type", ctype, sizeof(ctype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_coarse_type", expect, sizeof(expect), NULL));
  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, (PlexPhysics)physics, &dm));
  PetscCall(DMCreateGlobalVector(dm, &ua));
  PetscCall(Solve(dm, MATAIJ, PETSC_FALSE, NULL, ua, &its[0], &lits[0]));
  /* PETSc's device matrix types take the DM's vectors on the device (an aijcusparse MatMult() of host vectors reads
     their device arrays) */
  PetscCall(PetscStrendswith(ctype, "cusparse", &cusparse));
  if (cusparse) PetscCall(DMSetVecType(dm, VECCUDA));
  PetscCall(DMCreateGlobalVector(dm, &ub));
  PetscCall(Solve(dm, ctype, perm, expect, ub, &its[1], &lits[1]));
  PetscCall(VecRelativeDifference(ub, ua, &err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, ksp %s, pc %s%s: aij %" PetscInt_FMT " iterations, %s %" PetscInt_FMT " iterations, solutions differ by %.2e\n", phys[physics], ksptype, pctype, perm ? " (inside ellwarpperm for ellwarp)" : "", lits[0], ctype, lits[1], (double)err));
  PetscCheck(lits[0] == lits[1] && its[0] == its[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "iteration counts differ");
  PetscCheck(err < 1e-8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "solutions differ by %g", (double)err);
  PetscCall(VecDestroy(&ua));
  PetscCall(VecDestroy(&ub));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
