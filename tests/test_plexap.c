static char help[] = "The Aliev-Panfilov monodomain model through the DMPlex hook DMPlexWarpSetSNESLocalAlievPanfilov (PetscWarpAsm:\n"
                     "residual, consistent Jacobian, recovery at the quadrature points) against PETSc's pointwise form of the same\n"
                     "problem (tutorials/heartproblem.c: DMPlexSNESComputeResidualFEM/JacobianFEM with auxiliary fields) on the shell\n"
                     "mesh, on any number of MPI ranks:\n"
                     "  1. at a random state (previous voltage, recovery, current voltage; stimulus on): residuals and Jacobians\n"
                     "     agree to 1e-12 (relative, max norm), for each matrix type of -types (default aij,ellwarp; sharednz too\n"
                     "     with a device);\n"
                     "  2. one backward Euler step solved by Newton (CG + Jacobi to 1e-14) from the previous voltage: the same Newton\n"
                     "     iteration count, CG's within 1 (the assembled values' rounding differs), the same solution and recovery\n"
                     "     (1e-10), and quadratic convergence of both\n"
                     "     (log r_{k+1} / log r_k >= 1.8 for the residual norms relative to the first, while above 1e-13).\n"
                     "  3. the hook's errors (DMPlexWarpSetSNESLocalAlievPanfilov): its functions without it (PETSC_ERR_ARG_WRONGSTATE),\n"
                     "     a non-positive time step (PETSC_ERR_ARG_OUTOFRANGE), a vector field and a conductivity that is not symmetric\n"
                     "     (PETSC_ERR_ARG_WRONG), and a matrix type\n"
                     "     PetscWarpAsm does not fill (baij: PETSC_ERR_SUP at the first Jacobian, nothing leaked).\n"
                     "  4. the TS form (DMPlexWarpSetTSLocalAlievPanfilov, TSBEULER, no calls in the time loop) against the SNES form's\n"
                     "     time loop, for each type: -ts_steps n (default 4) steps from the random previous state in two TSSolve()\n"
                     "     calls, step 1's stage rejected once and retried at half the step (TSAdaptSetCheckStage), step 3 at the\n"
                     "     full step again, the SNES loop taking the same steps, the stimulus switched off after the second: the\n"
                     "     same Newton iteration total\n"
                     "     (besides the rejected stage's), CG's within one per step, the same solution and recovery (1e-10); the TS\n"
                     "     restarted at t = 0 after DMPlexWarpAPSetPrevious (1e-12 from its first run); its errors: not backward\n"
                     "     Euler (TSCN), a shift other than 1/dt (PETSC_ERR_SUP), the SNES form's step calls on it, its stimulus\n"
                     "     function on the SNES form, both forms on one DM, TSSetTime(0) without DMPlexWarpAPSetPrevious\n"
                     "     (PETSC_ERR_ARG_WRONGSTATE).\n"
                     "  -types a,b  -dm_refine n  -heart_* (tutorials/heartproblem.c)  -seed s (default: from the clock)\n";

#include "testutil.h"
#include "../tutorials/heartproblem.h"
#include <petscts.h>

#ifndef PETSCWARP_SOURCE_DIR
  #define PETSCWARP_SOURCE_DIR "."
#endif

typedef struct {
  Heart     h;
  SNES      snes;
  Mat       J;
  Vec       U, F;
  PetscReal hist[32];
  PetscInt  hits[32], nhist, its, lits;
} Path;

/* The solver settings of PathCreate() on a SNES */
static PetscErrorCode SolverSettings(SNES snes)
{
  KSP            ksp;
  PC             pc;
  SNESLineSearch ls;

  PetscFunctionBegin;
  PetscCall(SNESSetTolerances(snes, 1e-30, 1e-13, 0.0, 20, PETSC_CURRENT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-14, 1e-50, PETSC_CURRENT, 10000));
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHNONE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PathCreate(const HeartParams *hp, const char *type, Path *p)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(HeartCreate(PETSC_COMM_WORLD, hp, type, PETSCWARP_SOURCE_DIR, &p->h));
  PetscCall(DMCreateMatrix(p->h.dm, &p->J));
  PetscCall(DMCreateGlobalVector(p->h.dm, &p->U));
  PetscCall(VecDuplicate(p->U, &p->F));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &p->snes));
  PetscCall(SNESSetDM(p->snes, p->h.dm));
  PetscCall(SNESSetJacobian(p->snes, p->J, p->J, NULL, NULL));
  PetscCall(SolverSettings(p->snes));
  PetscCall(SNESSetConvergenceHistory(p->snes, p->hist, p->hits, 32, PETSC_TRUE));
  PetscCall(SNESSetFromOptions(p->snes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PathDestroy(Path *p)
{
  PetscFunctionBegin;
  PetscCall(SNESDestroy(&p->snes));
  PetscCall(MatDestroy(&p->J));
  PetscCall(VecDestroy(&p->U));
  PetscCall(VecDestroy(&p->F));
  PetscCall(HeartDestroy(&p->h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Newton's residual norms r_0, r_1, ...: quadratic where the error dominates roundoff */
static PetscErrorCode CheckQuadratic(const char *name, const Path *p)
{
  PetscInt nq = 0;

  PetscFunctionBegin;
  PetscCheck(p->nhist >= 3, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " residual norms, too few to see the convergence", name, p->nhist);
  for (PetscInt k = 1; k + 1 < p->nhist; k++) {
    PetscReal a = p->hist[k] / p->hist[0], b = p->hist[k + 1] / p->hist[0];
    if (a >= 1e-1 || b <= 1e-13) continue; /* before the quadratic regime, or at roundoff */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: |F_%" PetscInt_FMT "|/|F_0| = %.3e -> %.3e: order %.2f\n", name, k, (double)a, (double)b, (double)(PetscLogReal(b) / PetscLogReal(a))));
    PetscCheck(PetscLogReal(b) / PetscLogReal(a) >= 1.8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: Newton is not quadratic: %g -> %g", name, (double)a, (double)b);
    nq++;
  }
  PetscCheck(nq >= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: no step in the quadratic regime (residual norms %g .. %g)", name, (double)p->hist[0], (double)p->hist[p->nhist - 1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook's errors, on the same mesh */
static PetscErrorCode HookErrors(const HeartParams *hp)
{
  Heart h;
  Vec   U;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "hook errors:\n"));
  { /* PETSc's path: no hook */
    PetscCall(HeartCreate(PETSC_COMM_WORLD, hp, NULL, PETSCWARP_SOURCE_DIR, &h));
    PetscCall(DMCreateGlobalVector(h.dm, &U));
    EXPECT_CODE(DMPlexWarpAPAdvance(h.dm, U), PETSC_ERR_ARG_WRONGSTATE, "DMPlexWarpAPAdvance() without the hook");
    EXPECT_CODE(DMPlexWarpAPSetStep(h.dm, 0.1, 0.0), PETSC_ERR_ARG_WRONGSTATE, "DMPlexWarpAPSetStep() without the hook");
    { /* a vector field on a clone of the mesh */
      DM      dm;
      PetscFE fe;
      PetscCall(DMClone(h.dm, &dm));
      PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, 3, 3, PETSC_TRUE, 1, PETSC_DETERMINE, &fe));
      PetscCall(DMSetField(dm, 0, NULL, (PetscObject)fe));
      PetscCall(DMCreateDS(dm));
      EXPECT_CODE(DMPlexWarpSetSNESLocalAlievPanfilov(dm, hp->p, h.kcell, h.stim), PETSC_ERR_ARG_WRONG, "a field of 3 components");
      PetscCall(PetscFEDestroy(&fe));
      PetscCall(DMDestroy(&dm));
    }
    {
      PetscReal p[PETSCWARP_AP_NPARAM];
      PetscCall(PetscArraycpy(p, hp->p, PETSCWARP_AP_NPARAM));
      p[PETSCWARP_AP_DT] = 0.0;
      EXPECT_CODE(DMPlexWarpSetSNESLocalAlievPanfilov(h.dm, p, h.kcell, h.stim), PETSC_ERR_ARG_OUTOFRANGE, "time step 0 in the parameters");
    }
    if (h.ncells) { /* a conductivity that is not symmetric (a rank without cells has none to check) */
      PetscReal *k;
      PetscCall(PetscMalloc1(9 * h.ncells, &k));
      PetscCall(PetscArraycpy(k, h.kcell, 9 * h.ncells));
      k[9 * (h.ncells - 1) + 1] += 1.0;
      EXPECT_CODE(DMPlexWarpSetSNESLocalAlievPanfilov(h.dm, hp->p, k, h.stim), PETSC_ERR_ARG_WRONG, "a conductivity tensor that is not symmetric");
      PetscCall(PetscFree(k));
    }
    PetscCall(VecDestroy(&U));
    PetscCall(HeartDestroy(&h));
  }
  { /* the hook with BAIJ: installed, then refused at the first Jacobian; a non-positive step refused */
    SNES snes;
    Mat  J;
    PetscCall(HeartCreate(PETSC_COMM_WORLD, hp, MATBAIJ, PETSCWARP_SOURCE_DIR, &h));
    EXPECT_CODE(DMPlexWarpAPSetStep(h.dm, -1.0, 0.0), PETSC_ERR_ARG_OUTOFRANGE, "DMPlexWarpAPSetStep() with dt -1");
    PetscCall(DMCreateMatrix(h.dm, &J));
    PetscCall(DMCreateGlobalVector(h.dm, &U));
    PetscCall(VecSet(U, 0.5));
    PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
    PetscCall(SNESSetDM(snes, h.dm));
    EXPECT_CODE(SNESComputeJacobian(snes, U, J, J), PETSC_ERR_SUP, "the first Jacobian into a baij matrix");
    PetscCall(DMPlexWarpAPSetPrevious(h.dm, U, NULL)); /* the hook still serves: a voltage without a recovery */
    PetscCall(SNESDestroy(&snes));
    PetscCall(MatDestroy(&J));
    PetscCall(VecDestroy(&U));
    PetscCall(HeartDestroy(&h));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TSAdaptSetCheckStage(): the stage of step 1 rejected once, with its Newton and CG iterations (the retry, and the
   steps after it, take half the step: TSAdaptSetScaleSolveFailed(0.5)) */
typedef struct {
  PetscBool done;
  PetscInt  its, lits;
  PetscReal dt; /* the first step */
} Reject;

static PetscErrorCode RejectOnce(TSAdapt adapt, TS ts, PetscReal t, Vec X, PetscBool *accept)
{
  Reject  *rj;
  PetscInt n;
  SNES     snes;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &rj));
  PetscCall(TSGetStepNumber(ts, &n));
  if (n == 1 && !rj->done) {
    *accept  = PETSC_FALSE;
    rj->done = PETSC_TRUE;
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESGetIterationNumber(snes, &rj->its));
    PetscCall(SNESGetLinearSolveIterations(snes, &rj->lits));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TSSetPostStep(): after step 2 the step goes back to dt (the accepted step's size is not the next one's) */
static PetscErrorCode StepBack(TS ts)
{
  Reject  *rj;
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &rj));
  PetscCall(TSGetStepNumber(ts, &n));
  if (n == 3) PetscCall(TSSetTimeStep(ts, rj->dt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The TS's adaptor (none; a rejected stage halves the step, RejectOnce()) and solver (PathCreate()'s) */
static PetscErrorCode TSSettings(TS ts)
{
  TSAdapt adapt;
  SNES    snes;

  PetscFunctionBegin;
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSAdaptSetScaleSolveFailed(adapt, 0.5));
  PetscCall(TSAdaptSetCheckStage(adapt, RejectOnce));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SolverSettings(snes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The relative max difference of two recoveries (every rank's cells) */
static PetscErrorCode RecoveryDifference(PetscInt ncells, const PetscReal r[], const PetscReal ref[], PetscReal *e)
{
  PetscReal m[2] = {0, 0};

  PetscFunctionBegin;
  for (PetscInt c = 0; c < ncells; c++) {
    m[0] = PetscMax(m[0], PetscAbsReal(r[c] - ref[c]));
    m[1] = PetscMax(m[1], PetscAbsReal(ref[c]));
  }
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, m, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
  *e = m[1] > 0 ? m[0] / m[1] : m[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  4. The TS form against the SNES form's time loop from the previous state (Un, rn), nsteps steps: the TS in two
  TSSolve() calls, step 1's stage rejected once (retried, with step 2, at dt/2; step 3 and later at dt again), the
  SNES loop with the same steps (dt, dt/2, dt/2, dt, ...) and stimulus; then the TS restarted at t = 0 (refused without DMPlexWarpAPSetPrevious(),
  the same run again after it)
*/
static PetscErrorCode TSForm(const HeartParams *hp0, const char *type, Vec Un, const PetscReal rn[], PetscInt nsteps)
{
  HeartParams hp = *hp0;
  Path        w;
  Heart       h;
  TS          ts;
  Mat         J;
  Vec         U, U1;
  Reject      rj  = {PETSC_FALSE, 0, 0, hp0->p[PETSCWARP_AP_DT]};
  PetscInt    its = 0, lits = 0, tits, tlits, ncells;
  PetscReal  *r0, *r1, *r2, eU, er, t = 0, dt = hp0->p[PETSCWARP_AP_DT];

  PetscFunctionBegin;
  hp.stim_t = 1.75 * dt; /* steps dt, dt/2, dt/2, dt, ...: the stimulus on for the first two */
  /* the SNES form: DMPlexWarpAPSetStep(), SNESSolve(), HeartAdvance() per step */
  PetscCall(PathCreate(&hp, type, &w));
  ncells = w.h.ncells;
  PetscCall(PetscMalloc3(ncells, &r0, ncells, &r1, ncells, &r2));
  PetscCall(HeartSetPrevious(&w.h, rn, Un));
  PetscCall(VecCopy(Un, w.U));
  for (PetscInt n = 0; n < nsteps; n++) {
    PetscReal dtn = n == 1 || n == 2 ? dt / 2 : dt; /* as the TS: step 1 rejected and retried at dt/2, step 3 back to dt */
    PetscInt  k, l;
    t += dtn;
    PetscCall(DMPlexWarpAPSetStep(w.h.dm, dtn, HeartStimulus(&hp, t)));
    PetscCall(SNESSolve(w.snes, NULL, w.U));
    PetscCall(SNESGetIterationNumber(w.snes, &k));
    PetscCall(SNESGetLinearSolveIterations(w.snes, &l));
    its += k;
    lits += l;
    PetscCall(HeartAdvance(&w.h, w.U));
  }
  PetscCall(HeartGetRecovery(&w.h, r0));
  /* the TS form */
  PetscCall(HeartCreateTS(PETSC_COMM_WORLD, &hp, type, PETSCWARP_SOURCE_DIR, &h));
  PetscCall(DMCreateMatrix(h.dm, &J));
  PetscCall(DMCreateGlobalVector(h.dm, &U));
  PetscCall(VecDuplicate(U, &U1));
  PetscCall(VecCopy(Un, U));
  PetscCall(DMPlexWarpAPSetPrevious(h.dm, U, rn));
  PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
  PetscCall(TSSetDM(ts, h.dm));
  PetscCall(TSSetType(ts, TSBEULER));
  PetscCall(TSSetIJacobian(ts, J, J, NULL, NULL));
  PetscCall(TSSetTimeStep(ts, dt));
  PetscCall(TSSetMaxSteps(ts, nsteps / 2)); /* two TSSolve() calls, the second continuing the first */
  PetscCall(TSSetMaxTime(ts, 1e30));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetApplicationContext(ts, &rj));
  PetscCall(TSSetPostStep(ts, StepBack));
  PetscCall(TSSettings(ts));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSSetMaxSteps(ts, nsteps));
  PetscCall(TSSolve(ts, U));
  PetscCall(TSGetSNESIterations(ts, &tits));
  PetscCall(TSGetKSPIterations(ts, &tlits));
  PetscCall(HeartGetRecovery(&h, r1)); /* the final state's: the hook's monitor accepted it */
  PetscCall(VecRelativeDifferenceNorm(U, w.U, NORM_INFINITY, &eU));
  PetscCall(RecoveryDifference(ncells, r1, r0, &er));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, TS form: %" PetscInt_FMT " steps (a stage rejected: %s), %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations besides the rejected stage's (SNES form %" PetscInt_FMT ", %" PetscInt_FMT "); solution differs by %.2e, recovery by %.2e\n", type, nsteps, rj.done ? "yes" : "no", tits - rj.its, tlits - rj.lits, its, lits, (double)eU, (double)er));
  PetscCheck(rj.done && tits - rj.its == its && PetscAbsInt(tlits - rj.lits - lits) <= nsteps, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the TS form's iteration counts differ from the SNES form's", type);
  PetscCheck(eU <= 1e-10 && er <= 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the TS form's state differs from the SNES form's", type);
  { /* its errors */
    Vec F, Ut;
    PetscCall(VecDuplicate(U, &F));
    PetscCall(VecDuplicate(U, &Ut));
    PetscCall(VecZeroEntries(Ut));
    PetscCall(TSGetTime(ts, &t));
    PetscCall(TSGetTimeStep(ts, &dt));
    EXPECT_CODE(TSComputeIJacobian(ts, t + dt, U, Ut, 2.0 / dt, J, J, PETSC_FALSE), PETSC_ERR_SUP, "TS form: a Jacobian with shift 2/dt");
    EXPECT_CODE(DMPlexWarpAPSetStep(h.dm, dt, 0.0), PETSC_ERR_ARG_WRONGSTATE, "TS form: DMPlexWarpAPSetStep()");
    EXPECT_CODE(DMPlexWarpAPAdvance(h.dm, U), PETSC_ERR_ARG_WRONGSTATE, "TS form: DMPlexWarpAPAdvance()");
    EXPECT_CODE(DMPlexWarpAPSetStimulusFunction(w.h.dm, NULL, NULL), PETSC_ERR_ARG_WRONGSTATE, "SNES form: DMPlexWarpAPSetStimulusFunction()");
    EXPECT_CODE(DMPlexWarpSetTSLocalAlievPanfilov(w.h.dm, hp.p, w.h.kcell, w.h.stim), PETSC_ERR_ARG_WRONGSTATE, "the TS form on a DM with the SNES form");
    PetscCall(TSSetTime(ts, 0.0));
    EXPECT_CODE(TSComputeIFunction(ts, dt, U, Ut, F, PETSC_FALSE), PETSC_ERR_ARG_WRONGSTATE, "TS form: TSSetTime(0) without DMPlexWarpAPSetPrevious()");
    PetscCall(TSSetType(ts, TSCN));
    EXPECT_CODE(TSComputeIFunction(ts, t + dt, U, Ut, F, PETSC_FALSE), PETSC_ERR_SUP, "TS form: Crank-Nicolson (TSCN)");
    PetscCall(TSSetType(ts, TSBEULER));
    PetscCall(VecDestroy(&F));
    PetscCall(VecDestroy(&Ut));
  }
  { /* the restart: the same run again from t = 0, one TSSolve() */
    PetscReal e2;
    PetscCall(VecCopy(U, U1));
    PetscCall(TSSetTime(ts, 0.0));
    PetscCall(TSSetStepNumber(ts, 0));
    PetscCall(TSSetTimeStep(ts, hp0->p[PETSCWARP_AP_DT]));
    PetscCall(TSSetMaxSteps(ts, nsteps));
    PetscCall(TSSettings(ts)); /* again: TSSetType() above reset the TS */
    rj.done = PETSC_FALSE;
    PetscCall(VecCopy(Un, U));
    PetscCall(DMPlexWarpAPSetPrevious(h.dm, U, rn));
    PetscCall(TSSolve(ts, U));
    PetscCall(HeartGetRecovery(&h, r2));
    PetscCall(VecRelativeDifferenceNorm(U, U1, NORM_INFINITY, &eU));
    PetscCall(RecoveryDifference(ncells, r2, r1, &e2));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, TS form restarted at t = 0: solution differs from the first run by %.2e, recovery by %.2e\n", type, (double)eU, (double)e2));
    PetscCheck(rj.done && eU <= 1e-12 && e2 <= 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the restarted TS form differs from its first run", type);
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&U1));
  PetscCall(HeartDestroy(&h));
  PetscCall(PetscFree3(r0, r1, r2));
  PetscCall(PathDestroy(&w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscBool   skip, device;
  char       *types[8];
  PetscInt    nt = 8, ncells, n, nsteps = 4;
  PetscRandom rnd;
  HeartParams hp;
  Path        ref;
  Vec         Un, Ustate;
  Mat         Jref;
  PetscReal  *rn, *r0, *r1;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(TestGetTypes(device, types, &nt));
  PetscCall(HeartParamsFromOptions(&hp));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ts_steps", &nsteps, NULL));
  PetscCall(PathCreate(&hp, NULL, &ref));
  ncells = ref.h.ncells;
  PetscCall(PetscMalloc3(ncells, &rn, ncells, &r0, ncells, &r1));
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(VecDuplicate(ref.U, &Un));
  PetscCall(VecDuplicate(ref.U, &Ustate));
  PetscCall(VecSetRandom(Un, rnd));     /* previous voltage in [0, 1) */
  PetscCall(VecSetRandom(Ustate, rnd)); /* a state for the residual and Jacobian */
  for (PetscInt c = 0; c < ncells; c++) {
    PetscReal v;
    PetscCall(PetscRandomGetValueReal(rnd, &v));
    rn[c] = 0.5 * v;
  }
  PetscCall(VecGetSize(Un, &n));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "shell: %" PetscInt_FMT " cells, %" PetscInt_FMT " unknowns, one quadrature point per cell\n", ncells, n));
  /* PETSc: residual, Jacobian, one step */
  PetscCall(HeartSetPrevious(&ref.h, rn, Un));
  PetscCall(HeartSetStep(&ref.h, 0));
  PetscCall(SNESComputeFunction(ref.snes, Ustate, ref.F));
  PetscCall(SNESComputeJacobian(ref.snes, Ustate, ref.J, ref.J));
  PetscCall(MatDuplicate(ref.J, MAT_COPY_VALUES, &Jref)); /* the solve below overwrites ref.J */
  PetscCall(VecCopy(Un, ref.U));
  PetscCall(SNESSolve(ref.snes, NULL, ref.U));
  PetscCall(SNESGetIterationNumber(ref.snes, &ref.its));
  PetscCall(SNESGetLinearSolveIterations(ref.snes, &ref.lits));
  PetscCall(SNESGetConvergenceHistory(ref.snes, NULL, NULL, &ref.nhist));
  PetscCall(HeartAdvance(&ref.h, ref.U));
  PetscCall(HeartGetRecovery(&ref.h, r0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PETSc: %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations\n", ref.its, ref.lits));
  PetscCall(CheckQuadratic("PETSc", &ref));
  for (PetscInt t = 0; t < nt; t++) {
    Path      w;
    PetscReal eF, eJ, eU, er = 0, rmax = 0;

    PetscCall(PathCreate(&hp, types[t], &w));
    PetscCall(HeartSetPrevious(&w.h, rn, Un));
    PetscCall(HeartSetStep(&w.h, 0));
    PetscCall(VecCopy(Ustate, w.U));
    PetscCall(SNESComputeFunction(w.snes, w.U, w.F));
    PetscCall(VecRelativeDifferenceNorm(w.F, ref.F, NORM_INFINITY, &eF));
    PetscCall(SNESComputeJacobian(w.snes, w.U, w.J, w.J));
    PetscCall(TestEntryDifference(w.J, Jref, &eJ));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: residual differs by %.2e, Jacobian by %.2e (relative, max)\n", types[t], (double)eF, (double)eJ));
    PetscCheck(eF <= 1e-12 && eJ <= 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: residual or Jacobian differs from PETSc's", types[t]);
    PetscCall(VecCopy(Un, w.U));
    PetscCall(SNESSolve(w.snes, NULL, w.U));
    PetscCall(SNESGetIterationNumber(w.snes, &w.its));
    PetscCall(SNESGetLinearSolveIterations(w.snes, &w.lits));
    PetscCall(SNESGetConvergenceHistory(w.snes, NULL, NULL, &w.nhist));
    PetscCall(HeartAdvance(&w.h, w.U));
    PetscCall(HeartGetRecovery(&w.h, r1));
    PetscCall(VecRelativeDifferenceNorm(w.U, ref.U, NORM_INFINITY, &eU));
    for (PetscInt c = 0; c < ncells; c++) {
      er   = PetscMax(er, PetscAbsReal(r1[c] - r0[c]));
      rmax = PetscMax(rmax, PetscAbsReal(r0[c]));
    }
    { /* over every rank's cells */
      PetscReal m[2] = {er, rmax};
      PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, m, 2, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
      er = m[1] > 0 ? m[0] / m[1] : m[0];
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations; solution differs by %.2e, recovery by %.2e\n", types[t], w.its, w.lits, (double)eU, (double)er));
    PetscCheck(w.its == ref.its && PetscAbsInt(w.lits - ref.lits) <= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: iteration counts differ from PETSc's", types[t]);
    PetscCheck(eU <= 1e-10 && er <= 1e-10, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: step differs from PETSc's", types[t]);
    PetscCall(CheckQuadratic(types[t], &w));
    PetscCall(PathDestroy(&w));
    PetscCall(TSForm(&hp, types[t], Un, rn, nsteps));
    PetscCall(PetscFree(types[t]));
  }
  PetscCall(PetscFree3(rn, r0, r1));
  PetscCall(VecDestroy(&Un));
  PetscCall(VecDestroy(&Ustate));
  PetscCall(MatDestroy(&Jref));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PathDestroy(&ref));
  PetscCall(HookErrors(&hp));
  PetscCall(PetscFinalize());
  return 0;
}
