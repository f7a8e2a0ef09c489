static char help[] = "DMPlexWarpSetSNESLocalFEM(): the Jacobian of SNES for a DMPlex + PetscFE problem assembled by PetscWarpAsm into\n"
                     "the DM's matrix type, against PETSc's DMPlexSNESComputeJacobianFEM (the -dm_plex_warp_check comparison and an\n"
                     "entry-wise one here), a Newton solve with the same iteration counts as PETSc's, the recognition of the PetscDS\n"
                     "(kappa and Lame parameters read from g3) and the errors for a PetscDS that is not a built-in physics.\n"
                     "  -physics laplace|elasticity   -types a,b,...  matrix types (default aij,ellwarp; sharednz with a device)\n"
                     "  -prealloc_only                DMSetMatrixPreallocateOnly() on every DM: the matrices come unassembled and\n"
                     "                                empty (PETSc's path), PetscWarpAsm gives them the elements' pattern\n"
                     "  -expect_vectype cuda|standard the DM's vector type the hook must leave (VECCUDA, or a host type: VECSTANDARD,\n"
                     "                                VECSEQ, VECMPI) for every type of -types\n";

#include "testutil.h"
#include <petscsnes.h>
#include <petscds.h>
#include <petsc/private/dmlabelimpl.h> /* the celltype label's readonly flag */

static void g0_mass(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[])
{
  g0[0] = 1.0;
}

static void g3_nonlinear(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0 + u[0] * u[0];
}

static void g3_kappa(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 2.5;
}

/* Newton solve of the problem with the DM's callbacks: iterations and solution */
static PetscErrorCode Solve(DM dm, PetscInt *its, PetscInt *lits, Vec *u)
{
  SNES snes;
  KSP  ksp;

  PetscFunctionBegin;
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-12, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
  {
    PC pc;
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
  }
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(DMCreateGlobalVector(dm, u));
  PetscCall(VecSet(*u, 0.0));
  PetscCall(SNESSolve(snes, NULL, *u));
  PetscCall(SNESGetIterationNumber(snes, its));
  PetscCall(SNESGetLinearSolveIterations(snes, lits));
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM               dm;
  PetscBool        skip, device, found;
  char             physname[32], *types[8], why[256];
  PetscInt         nt = 8, its0 = -1, lits0 = -1;
  PlexPhysics      phys;
  PetscWarpPhysics wp;
  PetscReal        coef[2];
  Vec              u0      = NULL;
  Mat              Mref    = NULL;
  PetscBool        preonly = PETSC_FALSE, ownpattern = PETSC_TRUE, expvt;
  char             expect[16];
  PetscDS          ds;
  PetscErrorCode   ierr;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(TestGetPhysics(physname, sizeof(physname), &phys));
  PetscCall(TestGetTypes(device, types, &nt));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-prealloc_only", &preonly, NULL));
  PetscCall(PetscLogDefaultBegin()); /* the event counts below */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-dm_plex_warp_preallocate", &ownpattern, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_vectype", expect, sizeof(expect), &expvt));
  /* every matrix type: PETSc's Newton solve (aij, DMPlexSetSNESLocalFEM) against the hook's */
  for (PetscInt t = -1; t < nt; t++) {
    PetscInt its, lits;
    Vec      u;

    PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, phys, &dm)); /* DMPlexSetSNESLocalFEM() */
    if (preonly) PetscCall(DMSetMatrixPreallocateOnly(dm, PETSC_TRUE));
    if (t >= 0) {
      PetscCall(DMSetMatType(dm, types[t]));
      PetscCall(DMPlexWarpSetSNESLocalFEM(dm));
      if (expvt) { /* the hook's own choice of vector type (no -dm_vec_type) */
        VecType   vt;
        PetscBool cuda, want;
        PetscCall(DMGetVecType(dm, &vt));
        PetscCall(PetscStrcmpAny(vt ? vt : VECSTANDARD, &cuda, VECCUDA, VECSEQCUDA, VECMPICUDA, ""));
        PetscCall(PetscStrcmp(expect, "cuda", &want));
        PetscCheck(cuda == want, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the hook left vectors of type %s, expected %s", types[t], vt ? vt : VECSTANDARD, expect);
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: the hook's vectors are %s, as expected\n", types[t], vt ? vt : VECSTANDARD));
      }
    } else PetscCall(DMSetMatType(dm, MATAIJ));
    { /* DMCreateMatrix(): on one rank the hook's (the elements' pattern, -dm_plex_warp_preallocate) against PETSc's */
      PetscMPIInt size;
      Mat         M;

      PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
      if (size == 1 && !preonly) {
        PetscLogEvent      prealloc;
        PetscEventPerfInfo before, after;

        /* the hook's DMCreateMatrix() must not run PETSc's preallocation (a silent fallback would pass the rest) */
        PetscCall(PetscLogEventGetId("DMPlexPrealloc", &prealloc));
        PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, prealloc, &before));
        PetscCall(DMCreateMatrix(dm, &M));
        PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, prealloc, &after));
        if (t >= 0 && ownpattern) PetscCheck(after.count == before.count, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the hook's DMCreateMatrix() ran PETSc's preallocation (DMPlexPrealloc %d times)", types[t], after.count - before.count);
        else PetscCheck(after.count > before.count, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PETSc's DMCreateMatrix() did not log DMPlexPrealloc (the check of the hook's would see nothing)");
        if (t < 0) Mref = M;
        else {
          PetscBool same, assembled;
          PetscInt  bs, bsref;

          PetscCall(MatAssembled(M, &assembled));
          PetscCheck(assembled, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: DMCreateMatrix() gave a matrix that is not assembled", types[t]);
          PetscCall(TestSamePattern(M, Mref, &same));
          PetscCall(MatGetBlockSize(M, &bs));
          PetscCall(MatGetBlockSize(Mref, &bsref));
          PetscCheck(same && bs == bsref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: DMCreateMatrix() of the hook differs from PETSc's (pattern %s, block size %" PetscInt_FMT " against %" PetscInt_FMT ")", types[t], same ? "equal" : "differs", bs, bsref);
          PetscCall(MatDestroy(&M));
        }
      }
    }
    PetscCall(Solve(dm, &its, &lits, &u));
    if (t < 0) {
      its0  = its;
      lits0 = lits;
      u0    = u;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  PETSc (aij, DMPlexSetSNESLocalFEM): %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations\n", its, lits));
    } else {
      PetscReal        e;
      PetscWarpAsm     wa;
      PetscWarpAsmInfo info;

      PetscCall(VecRelativeDifference(u, u0, &e));
      PetscCall(DMPlexWarpGetAsm(dm, &wa));
      PetscCall(PetscWarpAsmGetInfo(wa, &info));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s DMPlexWarpSetSNESLocalFEM: %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations, solution rel. diff %.2e, %" PetscInt_FMT " Jacobians by PetscWarpAsm (%s, %s)\n", types[t], its, lits, (double)e,
                            info.nassemblies, PetscWarpAsmStrategies[info.used], info.device ? "device" : "host"));
      PetscCheck(its == its0 && lits == lits0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: iterations %" PetscInt_FMT "/%" PetscInt_FMT ", PETSc %" PetscInt_FMT "/%" PetscInt_FMT, types[t], its, lits, its0, lits0);
      PetscCheck(e < 1e-9, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: solution differs by %g", types[t], (double)e);
      PetscCheck(info.nassemblies >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the Jacobian was not assembled by PetscWarpAsm", types[t]);
      { /* the hook's boundary projection marks the celltype label read-only while it runs: writable again after it */
        DMLabel ct;
        PetscCall(DMPlexGetCellTypeLabel(dm, &ct));
        PetscCheck(!ct->readonly, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the celltype label was left read-only by the hook's boundary projection", types[t]);
      }
      PetscCall(VecDestroy(&u));
    }
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(VecDestroy(&u0));
  PetscCall(MatDestroy(&Mref));

  /* recognition: coefficients read from g3; what is not a built-in physics is refused with the reason */
  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, phys, &dm));
  PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &wp, coef, why, sizeof(why)));
  PetscCheck(found && wp == (phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY) && PetscAbsReal(coef[0] - 1) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "recognition of the test problem: %s", why);
  PetscCall(DMGetDS(dm, &ds));
  if (phys == PLEX_PHYSICS_LAPLACE) {
    PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_kappa));
    PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &wp, coef, why, sizeof(why)));
    PetscCheck(found && PetscAbsReal(coef[0] - 2.5) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "kappa 2.5 not read");
    PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_nonlinear));
    PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &wp, coef, why, sizeof(why)));
    PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a state-dependent g3 was recognised");
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DMPlexWarpSetSNESLocalFEM(dm);
    PetscCall(PetscPopErrorHandler());
    PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "unrecognised PetscDS: expected PETSC_ERR_SUP, got %d", (int)ierr);
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_mass, NULL, NULL, g3_kappa));
    PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &wp, coef, why, sizeof(why)));
    PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a Jacobian with g0 was recognised");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  recognition: kappa read from g3; state-dependent g3 and g0 refused (%s)\n", why));
    PetscCall(DMDestroy(&dm));
    /* a recognised PetscDS on a mesh with anchors (hanging-node constraints) through the hook: PETSc's preallocation
       at DMCreateMatrix(), then a clear error at the first Jacobian, not PETSc's assembly or a wrong matrix */
    {
      SNES        snes;
      Mat         J;
      Vec         x;
      const char *specific = NULL;
      char       *hit      = NULL;

      PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, phys, &dm));
      PetscCall(TestAnchorOneVertex(dm));
      PetscCall(DMSetMatType(dm, MATELLWARP));
      if (device) PetscCall(DMSetVecType(dm, VECCUDA));
      PetscCall(DMPlexWarpSetSNESLocalFEM(dm));
      PetscCall(DMCreateMatrix(dm, &J));
      PetscCall(DMCreateGlobalVector(dm, &x));
      PetscCall(VecSet(x, 0.0));
      PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
      PetscCall(SNESSetDM(snes, dm));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = SNESComputeJacobian(snes, x, J, J);
      PetscCall(PetscPopErrorHandler());
      if (ierr) PetscCall(PetscErrorMessage(ierr, NULL, &specific));
      PetscCall(PetscStrstr(specific ? specific : "", "anchors", &hit));
      PetscCheck(ierr == PETSC_ERR_SUP && hit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "anchors through the hook: expected PETSC_ERR_SUP naming the anchors, got %d", (int)ierr);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  anchors through the hook: refused at the first Jacobian\n"));
      PetscCall(SNESDestroy(&snes));
      PetscCall(VecDestroy(&x));
      PetscCall(MatDestroy(&J));
    }
  } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  recognition: elasticity, lambda %g mu %g\n", (double)coef[0], (double)coef[1]));
  PetscCall(DMDestroy(&dm));
  for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscFinalize());
  return 0;
}
