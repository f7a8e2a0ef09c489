/*
  The DMPlex hooks of TS (the Aliev-Panfilov one at the end): implicit Jacobians u_tShift c M + K assembled by PetscWarpAsm (the mass term through its shift)
  and implicit functions c M u_t + K u + F computed by it, for a PetscDS whose g0 = c u_tShift, g3 a built-in physics,
  f0 = c u_t + a constant and f1 the physics' flux. Shared parts: plexwarphook.c.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscts.h>

#define HOOK_NAME "DMPlexWarpTS"

/* DMTSSetBoundaryLocal(): the cached boundary values (time-independent ones) instead of PETSc's projection */
static PetscErrorCode BoundaryLocal(DM dm, PetscReal t, Vec locX, Vec locX_t, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookBoundary_Private(dm, (DMPlexWarpHook *)ctx, t, locX, locX_t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMTSSetIFunctionLocal(): locF += F(t, locX, locX_t), by PetscWarpAsm or by PETSc */
static PetscErrorCode IFunctionLocal(DM dm, PetscReal t, Vec locX, Vec locX_t, Vec locF, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookResidual_Private(dm, (DMPlexWarpHook *)ctx, t, locX, locX_t, locF));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local state and time derivative with their boundary values, as TSComputeIJacobian_DMLocal() makes them */
static PetscErrorCode LocalState(DM dm, DMPlexWarpHook *h, PetscReal t, Vec X, Vec X_t, Vec *locX, Vec *locX_t)
{
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, locX));
  PetscCall(DMGetLocalVector(dm, locX_t));
  PetscCall(DMPlexWarpHookBoundary_Private(dm, h, t, *locX, *locX_t));
  PetscCall(DMGlobalToLocalBegin(dm, X, INSERT_VALUES, *locX));
  PetscCall(DMGlobalToLocalEnd(dm, X, INSERT_VALUES, *locX));
  PetscCall(DMGlobalToLocalBegin(dm, X_t, INSERT_VALUES, *locX_t));
  PetscCall(DMGlobalToLocalEnd(dm, X_t, INSERT_VALUES, *locX_t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A global implicit Jacobian: shift c M + K of a built-in physics does not depend on the state (the local state is made
   only when PETSc assembles, or for the pointwise functions of DMPlexWarpSetPointwise(), which get the shift itself) */
static PetscErrorCode IJacobianGlobal(TS ts, PetscReal t, Vec X, Vec X_t, PetscReal shift, Mat J, Mat Jp, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  Vec             locX = NULL, locX_t = NULL;
  PetscReal       mshift = shift * h->mass;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(TSGetDM(ts, &dm));
  if (h->pointwise) PetscCall(LocalState(dm, h, t, X, X_t, &locX, &locX_t));
  PetscCall(DMPlexWarpHookAssemble_Private(dm, h, h->pointwise ? &shift : &mshift, t, locX, locX_t, J, Jp, &done));
  if (!done) { /* PETSc's own assembly */
    if (!h->warned) PetscCall(PetscInfo(dm, "Jacobian of type %s: assembled by PETSc (DMPlexTSComputeIJacobianFEM); PetscWarpAsm fills AIJ types (MPIAIJ ones on several ranks)\n", ((PetscObject)Jp)->type_name));
    h->warned = PETSC_TRUE;
    if (!locX) PetscCall(LocalState(dm, h, t, X, X_t, &locX, &locX_t));
    PetscCall(DMPlexTSComputeIJacobianFEM(dm, t, locX, locX_t, shift, J, Jp, NULL));
  } else if (h->check && !h->checked) {
    if (!locX) PetscCall(LocalState(dm, h, t, X, X_t, &locX, &locX_t));
    PetscCall(DMPlexWarpHookCheckJacobian_Private(dm, h, t, locX, locX_t, shift, Jp));
    h->checked = PETSC_TRUE;
  }
  if (locX) {
    PetscCall(DMRestoreLocalVector(dm, &locX));
    PetscCall(DMRestoreLocalVector(dm, &locX_t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetTSLocalFEM - The counterpart of `DMTSSetBoundaryLocal()`, `DMTSSetIFunctionLocal()` and
  `DMTSSetIJacobianLocal()` with `DMPlexTSComputeBoundary()`, `DMPlexTSComputeIFunctionFEM()` and
  `DMPlexTSComputeIJacobianFEM()`, whose implicit Jacobians are assembled, and whose implicit functions are computed, by
  `PetscWarpAsm` (on the device, or by the host twins of the kernels)

  Logically Collective

  Input Parameter:
. dm - a `DMPLEX` with one `PetscFE` field whose `PetscDS` Jacobian is g0 = c u_tShift (a mass term; may be absent) and
       g3 a built-in physics (`DMPlexWarpRecognizePhysics()`), or whose pointwise functions were registered with
       `DMPlexWarpSetPointwise()`

  Options Database Keys:
+ -dm_plex_warp_check <bool>          - compare the first implicit Jacobian and function with PETSc's (an error when the
                                        relative difference exceeds 1e-10; the differences are printed with `-info`)
. -dm_plex_warp_residual <bool>       - compute the implicit function with `PetscWarpAsm` when it is recognised (default
                                        true)
. -dm_plex_warp_cache_boundary <bool> - project the boundary values once when they do not depend on time (default true)
. -dm_plex_warp_preallocate <bool>    - on one rank, `DMCreateMatrix()` of an AIJ type gives the elements' pattern built by
                                        `PetscWarpAsm` instead of PETSc's preallocation: the same pattern, cheaper (default true)
- -mat_warp_*                         - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's prefix

  Level: intermediate

  Notes:
  The implicit Jacobian u_tShift c M + K is assembled by `PetscWarpAsmAssembleMatrix()` with the shift u_tShift c
  (`PetscWarpAsmSetShift()`) into the matrix `DMCreateMatrix()` makes (`-dm_mat_type ellwarp`, `sharednz`,
  `aijcusparse` for values on the device; other types are assembled by PETSc). The implicit
  function c M u_t + K u + F is computed by `PetscWarpAsmComputeResidualLocal()` when `DMPlexWarpRecognizeResidual()`
  recognises f0 = c u_t + f (f constant) and f1 the physics' flux, else by `DMPlexTSComputeIFunctionFEM()`.

  With pointwise functions registered by `DMPlexWarpSetPointwise()` (compiled with `PETSCWARP_POINTWISE()` from the
  `PetscDS`'s own f0, f1, g0, ..., g3) the implicit function and Jacobian of any one-field problem are computed by those
  kernels instead, on the device: f0 and f1 get u_t, the g's u_tShift and t, as in `DMPlexTSComputeIFunctionFEM()` and
  `DMPlexTSComputeIJacobianFEM()` (no dynamic Jacobian, `PetscDSSetDynamicJacobian()`).

  Boundary values are projected once and copied at every call when they do not depend on time: the first call projects
  them (and those of u_t) at its time t and at t + 1.2345; when the two differ they are projected at every call, as
  PETSc does.

  As `DMPlexWarpSetSNESLocalFEM()`, the DM's vectors become `VECCUDA` when a device assembles into a device matrix type
  (and always for `sharednz` and `aijcusparse`), unless `-dm_vec_type` was given. Use an implicit method (`TSBEULER`, `TSTHETA`, `TSBDF`, ...) with the `TS`'s DM set to dm.

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalAlievPanfilov()`, `DMPlexWarpSetPointwise()`, `PETSCWARP_POINTWISE()`, `DMTSSetIFunctionLocal()`,
          `DMPlexTSComputeIFunctionFEM()`, `DMPlexWarpRecognizeResidual()`, `PetscWarpAsmSetShift()`, `DMPlexWarpGetAsm()`, `DMPlexWarpGetResidualCount()`
@*/
PetscErrorCode DMPlexWarpSetTSLocalFEM(DM dm)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookCreate_Private(dm, PETSC_TRUE, PETSC_FALSE, HOOK_NAME, &h));
  PetscCall(DMTSSetBoundaryLocal(dm, BoundaryLocal, h));
  PetscCall(DMTSSetIFunctionLocal(dm, IFunctionLocal, h));
  PetscCall(DMTSSetIJacobian(dm, IJacobianGlobal, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------- the Aliev-Panfilov model through a TS (DMPlexWarpSetTSLocalAlievPanfilov()) ---------------- */

/*
  The TS's state U at its time `time` (a step's start, or an accepted state given to the monitor):
  - the first call (after the set-up or DMPlexWarpAPSetPrevious()): U becomes the previous voltage, the recovery stays;
  - the current step's start again: nothing, unless U was changed since it was read (a new object or state, e.g.
    TSSetSolution(), a rejected step copying the start back): U is read again, the recovery stays;
  - a later time, one step (the last stage's size, which the assembler still has) after the current start: that step
    was accepted with state U: the recovery is advanced to U with that size, and U becomes the previous voltage;
  - any other time (TSSetTime(), another TS on the DM) is an error: DMPlexWarpAPSetPrevious() restarts.
*/
static PetscErrorCode APAccept(DM dm, DMPlexWarpHook *h, Vec U, PetscReal time)
{
  PetscObjectId    id;
  PetscObjectState state;
  PetscBool        advance = h->apstarted;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)U, &id));
  PetscCall(PetscObjectStateGet((PetscObject)U, &state));
  if (h->apstarted && time == h->apt0) {
    if (id == h->apUid && state == h->apUstate) PetscFunctionReturn(PETSC_SUCCESS);
    advance = PETSC_FALSE;
  } else if (h->apstarted) {
    const PetscReal dt = h->app[PETSCWARP_AP_DT];
    PetscCheck(time > h->apt0 && PetscIsCloseAtTol(time - h->apt0, dt, 1e-10 * dt, 0), PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "The Aliev-Panfilov hook's TS moved from t = %g to %g, not by its last step %g: after TSSetTime(), or with another TS, call DMPlexWarpAPSetPrevious() first",
               (double)h->apt0, (double)time, (double)dt);
  }
  PetscCall(DMPlexWarpHookAPPrevious_Private(dm, h, time, U, advance, NULL));
  if (advance) PetscCall(PetscInfo(dm, "Aliev-Panfilov: the step from t = %g to %g accepted, the recovery advanced with dt %g\n", (double)h->apt0, (double)time, (double)h->app[PETSCWARP_AP_DT]));
  h->apstarted = PETSC_TRUE;
  h->apt0      = time;
  h->apUid     = id;
  h->apUstate  = state;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A TS monitor: TSSolve() calls it with every accepted state (before each step and after the last), so that the
   recovery is that of the TS's solution when TSSolve() returns; not with an interpolated one (step -1) */
static PetscErrorCode APMonitor(TS ts, PetscInt step, PetscReal time, Vec U, void *ctx)
{
  DM              dm;
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  (void)ctx; /* the hook is the DM's (the DM outlives the monitor's TS, not a replaced hook) */
  if (step < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, HOOK_NAME, &h));
  if (!h || !h->ap || !h->apstarted) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(APAccept(dm, h, U, time));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Before every implicit function or Jacobian: the method must be backward Euler (the recovery's local solve is one);
  the step's start state is accepted (APAccept(): normally done already by the monitor, which is added to the TS here,
  TSMonitorSet() skipping it when it is there); then this stage's step size and stimulus amplitude
*/
static PetscErrorCode APStage(TS ts, DM dm, DMPlexWarpHook *h, PetscReal t, PetscReal *dt)
{
  PetscBool theta;
  PetscReal ptime, amp;
  Vec       U;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)ts, &theta, TSBEULER, TSTHETA, ""));
  if (theta) {
    PetscReal th;
    PetscCall(TSThetaGetTheta(ts, &th));
    theta = (PetscBool)(th == 1.0);
  }
  PetscCheck(theta, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The TS form of the Aliev-Panfilov hook needs backward Euler (TSBEULER, or TSTHETA with theta 1): its recovery variable is advanced by backward Euler; this TS is %s",
             ((PetscObject)ts)->type_name);
  PetscCall(TSGetTime(ts, &ptime));
  PetscCall(TSGetTimeStep(ts, dt));
  PetscCheck(*dt > 0, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_OUTOFRANGE, "The Aliev-Panfilov hook needs a positive time step, not %g", (double)*dt);
  PetscCall(DMPlexWarpHookGetAsm_Private(dm, h));
  PetscCall(TSGetSolution(ts, &U));
  PetscCheck(U, PetscObjectComm((PetscObject)ts), PETSC_ERR_ARG_WRONGSTATE, "The Aliev-Panfilov hook needs the TS's solution (TSSetSolution(), TSSolve()): the state the step starts from");
  PetscCall(APAccept(dm, h, U, ptime));
  PetscCall(TSMonitorSet(ts, APMonitor, NULL, NULL));
  amp = h->app[PETSCWARP_AP_STIM];
  if (h->apstimfn) PetscCall((*h->apstimfn)(t, &amp, h->apstimctx));
  if (*dt != h->app[PETSCWARP_AP_DT] || amp != h->apstimlast) {
    h->app[PETSCWARP_AP_DT] = *dt;
    h->apstimlast           = amp;
    PetscCall(PetscWarpAsmAPSetStep(h->wa, *dt, amp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMTSSetIFunction(): F = M V_t + K V - f(V, r(V)) - I_stim, V_t = (V - V_n)/dt (the previous voltage kept by the hook) */
static PetscErrorCode APIFunction(TS ts, PetscReal t, Vec X, Vec X_t, Vec F, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  Vec             locX;
  PetscReal       dt;

  PetscFunctionBegin;
  (void)X_t; /* backward Euler's (X - X_n)/dt, which the hook forms itself */
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(APStage(ts, dm, h, t, &dt));
  PetscCall(DMPlexWarpHookLocalState_Private(dm, h, t, X, &locX));
  PetscCall(DMPlexWarpHookResidualGlobal_Private(dm, h, t, locX, F));
  PetscCall(DMRestoreLocalVector(dm, &locX));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMTSSetIJacobian(): shift M + K - df/dV (consistent), backward Euler's shift being 1/dt */
static PetscErrorCode APIJacobian(TS ts, PetscReal t, Vec X, Vec X_t, PetscReal shift, Mat J, Mat Jp, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  PetscReal       dt;

  PetscFunctionBegin;
  (void)X_t;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(APStage(ts, dm, h, t, &dt));
  PetscCheck(PetscAbsReal(shift * dt - 1) <= 1e-12, PetscObjectComm((PetscObject)ts), PETSC_ERR_SUP, "The Aliev-Panfilov hook's Jacobian is backward Euler's, with shift 1/dt = %g, not %g", (double)(1 / dt), (double)shift);
  PetscCall(DMPlexWarpHookAPJacobian_Private(dm, h, t, X, J, Jp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetTSLocalAlievPanfilov - Installs the implicit function and the implicit Jacobian of the Aliev-Panfilov
  monodomain model, computed and assembled by `PetscWarpAsm` (on the device, or by the host twins of the kernels), as
  the `TS` functions of a `DMPLEX`: a backward Euler `TS` (`TSBEULER`) then solves the model without calls in the time
  loop

  Collective

  Input Parameters:
+ dm    - a `DMPLEX` with one scalar `PetscFE` field (the voltage), its matrix type set (`-dm_mat_type ellwarp`,
          `sharednz`, `aijcusparse` or `aij`)
. p     - the model's parameters, `PETSCWARP_AP_NPARAM` values (as `DMPlexWarpSetSNESLocalAlievPanfilov()`; the time step
          comes from the `TS`, p[`PETSCWARP_AP_STIM`] is the stimulus amplitude unless `DMPlexWarpAPSetStimulusFunction()`
          gives one), or `NULL` for `PetscWarpAPDefaults()`
. kcell - the conductivity tensor of every cell of the DM's height-0 stratum on this rank, dim*dim values per cell in
          cell order, row-major and symmetric; `NULL` on a rank without cells
- stim  - the stimulus mask, one value per cell (the current at a point of the cell is the amplitude times stim[cell]),
          or `NULL` for none

  Options Database Keys:
+ -dm_plex_warp_cache_boundary <bool> - as `DMPlexWarpSetTSLocalFEM()`
. -dm_plex_warp_preallocate <bool>    - as `DMPlexWarpSetTSLocalFEM()`
- -mat_warp_*                         - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's
                                        prefix; the strategy defaults to atomic

  Level: intermediate

  Notes:
  The implicit function is F(t, V, V_t) = M V_t + K V - f(V, r(V)) - I_stim(t) with the recovery r(V) solved at each
  quadrature point by backward Euler from the previous step's; its Jacobian is the consistent one, shift M + K - df/dV.
  The recovery's backward Euler step needs the `TS`'s step size and its accepted states, which a local `DMTS` function
  does not see: the functions installed are global ones (`DMTSSetIFunction()`, `DMTSSetIJacobian()`) that read the step
  size (`TSGetTimeStep()`), the start of the step (`TSGetTime()`) and its state (`TSGetSolution()`), and add a monitor
  to the `TS` (`TSMonitorSet()`; again after a `TSMonitorCancel()`), which `TSSolve()` calls with every accepted state.
  At an accepted state (one step after the current start) the recovery is advanced to that state with the accepted
  step's size, and the state becomes the previous voltage, so that when `TSSolve()` returns the recovery is that of
  `TSGetSolution()` at `TSGetTime()` (`DMPlexWarpGetAsm()`, `PetscWarpAsmAPGetRecovery()`; not that of an interpolated
  final state). A program that calls `TSStep()` itself (no monitors) gets the same at each step's first function, so
  that only the recovery after its loop lags one step. Rejected steps (a failed `SNESSolve()`, a smaller step retried)
  keep the recovery; a start state changed at the same time (`TSSetSolution()`) is read again. So:
+ the method must be backward Euler, `TSBEULER` or `TSTHETA` with theta 1 (an error otherwise, at the first function),
  and the Jacobian's shift 1/dt; no adjoint (`TSAdjointSolve()`);
. adaptive step sizes are fine;
- to restart a `TS` from another time or state (`TSSetTime()`, `TSSetSolution()`), or to use the DM with another `TS`,
  call `DMPlexWarpAPSetPrevious()` first: the next step then starts from the `TS`'s solution without advancing the
  recovery (a time that is not one step later is an error otherwise, `PETSC_ERR_ARG_WRONGSTATE`).

  The stimulus amplitude at the stage time (the end of the step) is p[`PETSCWARP_AP_STIM`], or that of
  `DMPlexWarpAPSetStimulusFunction()`; p[`PETSCWARP_AP_DT`] is not used. One form per DM: a DM with the SNES form
  refuses this one (`PETSC_ERR_ARG_WRONGSTATE`). `DMPlexWarpAPSetStep()` and `DMPlexWarpAPAdvance()` are the SNES form's and are
  errors here. Each step takes the same Newton iterations as `DMPlexWarpSetSNESLocalAlievPanfilov()` with its time loop
  (tests/test_plexap.c compares them). Vectors, matrix types, several ranks, boundary values and the options ignored are
  as in `DMPlexWarpSetSNESLocalAlievPanfilov()`. Calling it again replaces the hook.

.seealso: `DMPlexWarpSetSNESLocalAlievPanfilov()`, `DMPlexWarpAPSetStimulusFunction()`, `DMPlexWarpAPSetPrevious()`,
          `DMPlexWarpSetTSLocalFEM()`, `PetscWarpAsmSetAlievPanfilov()`, `TSBEULER`
@*/
PetscErrorCode DMPlexWarpSetTSLocalAlievPanfilov(DM dm, const PetscReal p[], const PetscReal kcell[], const PetscReal stim[])
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookCreateAP_Private(dm, PETSC_TRUE, HOOK_NAME, p, kcell, stim, &h));
  h->apstimlast = h->app[PETSCWARP_AP_STIM];
  PetscCall(DMTSSetIFunction(dm, APIFunction, h));
  PetscCall(DMTSSetIJacobian(dm, APIJacobian, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}
