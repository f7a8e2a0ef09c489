/*
  The Aliev-Panfilov hooks of DMPlex: what the SNES form (DMPlexWarpSetSNESLocalAlievPanfilov(), plexwarpsnes.c) and the
  TS form (DMPlexWarpSetTSLocalAlievPanfilov(), plexwarpts.c) share: the checks and data at set-up, the previous step's
  state (voltage and recovery), the consistent Jacobian at a global state, and the public calls of the time loop.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscwarp/private/warpasmimpl.h> /* PetscWarpCheckSymmetricTensors_Private() */

/* The checks of both forms, then the hook (transient: the TS form) with copies of the model's data */
PetscErrorCode DMPlexWarpHookCreateAP_Private(DM dm, PetscBool transient, const char name[], const PetscReal p[], const PetscReal kcell[], const PetscReal stim[], DMPlexWarpHook **hook)
{
  DMPlexWarpHook *h;
  PetscInt        dim, nf, cStart, cEnd;
  PetscObject     disc;
  PetscClassId    id;
  PetscBool       isplex;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &isplex));
  PetscCheck(isplex, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The Aliev-Panfilov hook needs a DMPLEX, not %s", ((PetscObject)dm)->type_name);
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetNumFields(dm, &nf));
  PetscCheck(nf == 1, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The Aliev-Panfilov model needs one field (the voltage), the DM has %" PetscInt_FMT, nf);
  PetscCall(DMGetField(dm, 0, NULL, &disc));
  PetscCall(PetscObjectGetClassId(disc, &id));
  PetscCheck(id == PETSCFE_CLASSID, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The Aliev-Panfilov model needs a PetscFE field");
  {
    PetscInt nc;
    PetscCall(PetscFEGetNumComponents((PetscFE)disc, &nc));
    PetscCheck(nc == 1, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The Aliev-Panfilov model needs a scalar field, this one has %" PetscInt_FMT " components", nc);
  }
  PetscCheck(transient || !p || p[PETSCWARP_AP_DT] > 0, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_OUTOFRANGE, "The time step p[PETSCWARP_AP_DT] must be positive, not %g", p ? (double)p[PETSCWARP_AP_DT] : 0.0); /* the TS form's comes from the TS */
  { /* one form per DM: DMPlexWarpGetAsm() and the time-loop calls find the hook by name */
    DMPlexWarpHook *o;
    PetscCall(PetscObjectContainerQuery((PetscObject)dm, transient ? "DMPlexWarpSNES" : "DMPlexWarpTS", &o));
    PetscCheck(!o || !o->ap, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "This DM has the %s form of the Aliev-Panfilov hook: install the %s form on another DM (DMClone())", transient ? "SNES" : "TS", transient ? "TS" : "SNES");
  }
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  if (cEnd > cStart) PetscAssertPointer(kcell, 3);
  PetscCall(PetscWarpCheckSymmetricTensors_Private(PETSC_COMM_SELF, cEnd - cStart, dim, kcell)); /* now: the assembler is made later */
  PetscCall(DMPlexWarpHookCreate_Private(dm, transient, PETSC_TRUE, name, &h));
  if (p) {
    for (PetscInt k = 0; k < PETSCWARP_AP_NPARAM; k++) h->app[k] = p[k];
  } else PetscWarpAPDefaults(h->app);
  h->apncells = cEnd - cStart;
  PetscCall(PetscMalloc1(h->apncells * dim * dim, &h->apk));
  if (h->apncells) PetscCall(PetscArraycpy(h->apk, kcell, h->apncells * dim * dim));
  if (stim) {
    PetscCall(PetscMalloc1(h->apncells, &h->apstim));
    PetscCall(PetscArraycpy(h->apstim, stim, h->apncells));
  }
  *hook = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook of either form, or an error */
PetscErrorCode DMPlexWarpHookGetAP_Private(DM dm, DMPlexWarpHook **h)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookQuery_Private(dm, h));
  PetscCheck(*h && (*h)->ap, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "Call DMPlexWarpSetSNESLocalAlievPanfilov() or DMPlexWarpSetTSLocalAlievPanfilov() first");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The previous step's voltage becomes the global U (its boundary values at time t: PETSC_MIN_REAL for the SNES form);
   its recovery that of U (advance: with the assembler's time step, the accepted step's), r (given), or stays */
PetscErrorCode DMPlexWarpHookAPPrevious_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec U, PetscBool advance, const PetscReal r[])
{
  Vec Uloc;

  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookGetAsm_Private(dm, h));
  if (r) PetscCall(PetscWarpAsmAPSetRecovery(h->wa, r));
  PetscCall(DMPlexWarpHookLocalState_Private(dm, h, t, U, &Uloc));
  if (advance) PetscCall(PetscWarpAsmAPAdvance(h->wa, Uloc));
  PetscCall(VecCopy(Uloc, h->apUn));
  PetscCall(DMRestoreLocalVector(dm, &Uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The consistent Jacobian at the global state X (boundary values at time t) into J and Jp, by PetscWarpAsm only (PETSc
   cannot assemble the model without the program's auxiliary fields): a matrix type it does not fill is an error, raised
   after the local state is given back */
PetscErrorCode DMPlexWarpHookAPJacobian_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec X, Mat J, Mat Jp)
{
  Vec       Xloc;
  PetscBool done;

  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookLocalState_Private(dm, h, t, X, &Xloc));
  PetscCall(DMPlexWarpHookAssemble_Private(dm, h, NULL, 0.0, Xloc, NULL, J, Jp, &done));
  PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscCheck(done, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "The Aliev-Panfilov Jacobian is assembled by PetscWarpAsm only, into AIJ types (aij, aijcusparse, sharednz, ellwarp), not %s%s%s: choose -dm_mat_type ellwarp, sharednz or aij",
             ((PetscObject)Jp)->type_name, J != Jp ? " and " : "", J != Jp ? ((PetscObject)J)->type_name : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpAPSetStep - Sets the time step and the stimulus amplitude of the next Aliev-Panfilov step of
  `DMPlexWarpSetSNESLocalAlievPanfilov()`

  Logically Collective

  Input Parameters:
+ dm   - the `DMPLEX`
. dt   - the time step (positive)
- stim - the stimulus amplitude (0: no stimulus)

  Level: intermediate

  Note:
  Not for the `TS` form (`DMPlexWarpSetTSLocalAlievPanfilov()`), which takes the time step from the `TS` and the stimulus
  amplitude from `DMPlexWarpAPSetStimulusFunction()`: an error there.

.seealso: `DMPlexWarpSetSNESLocalAlievPanfilov()`, `DMPlexWarpAPAdvance()`, `PetscWarpAsmAPSetStep()`
@*/
PetscErrorCode DMPlexWarpAPSetStep(DM dm, PetscReal dt, PetscReal stim)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscValidLogicalCollectiveReal(dm, dt, 2);
  PetscValidLogicalCollectiveReal(dm, stim, 3);
  PetscCall(DMPlexWarpHookGetAP_Private(dm, &h));
  PetscCheck(!h->transient, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "The TS form of the Aliev-Panfilov hook takes the time step from the TS, and the stimulus from DMPlexWarpAPSetStimulusFunction()");
  PetscCheck(dt > 0, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_OUTOFRANGE, "The time step must be positive, not %g", (double)dt);
  h->app[PETSCWARP_AP_DT]   = dt;
  h->app[PETSCWARP_AP_STIM] = stim;
  if (h->wa) PetscCall(PetscWarpAsmAPSetStep(h->wa, dt, stim));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpAPAdvance - Accepts a step of `DMPlexWarpSetSNESLocalAlievPanfilov()`: the converged voltage becomes the
  previous one, and the recovery at every quadrature point that of this voltage

  Collective

  Input Parameters:
+ dm - the `DMPLEX`
- U  - the converged global state of the step (the solution of `SNESSolve()`)

  Level: intermediate

  Note:
  Not for the `TS` form (`DMPlexWarpSetTSLocalAlievPanfilov()`), which accepts its steps itself: an error there.

.seealso: `DMPlexWarpSetSNESLocalAlievPanfilov()`, `DMPlexWarpAPSetStep()`, `DMPlexWarpAPSetPrevious()`, `PetscWarpAsmAPAdvance()`
@*/
PetscErrorCode DMPlexWarpAPAdvance(DM dm, Vec U)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscValidHeaderSpecific(U, VEC_CLASSID, 2);
  PetscCall(DMPlexWarpHookGetAP_Private(dm, &h));
  PetscCheck(!h->transient, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "The TS form of the Aliev-Panfilov hook accepts its steps itself (at the first implicit function of the next step)");
  PetscCall(DMPlexWarpHookAPPrevious_Private(dm, h, PETSC_MIN_REAL, U, PETSC_TRUE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpAPSetPrevious - Sets the previous step's voltage and, optionally, its recovery variable for the Aliev-Panfilov
  hooks (to start from a state other than 0, or to restart)

  Collective

  Input Parameters:
+ dm - the `DMPLEX`
. Un - the previous voltage (a global vector of the DM)
- r  - the previous recovery at the quadrature points, r[cell*nq + q] on the host (as `PetscWarpAsmAPGetRecovery()` gives
       it), or `NULL` to keep the current one

  Level: intermediate

  Note:
  In the `TS` form (`DMPlexWarpSetTSLocalAlievPanfilov()`) the next step starts from the `TS`'s solution (which replaces
  Un) with this recovery, without advancing it, at whatever time the `TS` has: call this before `TSSolve()` when the
  `TS` restarts from a new state or time (`TSSetTime()`, `TSSetSolution()`).

.seealso: `DMPlexWarpSetSNESLocalAlievPanfilov()`, `DMPlexWarpSetTSLocalAlievPanfilov()`, `DMPlexWarpAPAdvance()`,
          `PetscWarpAsmAPSetRecovery()`, `PetscWarpAsmAPGetRecovery()`
@*/
PetscErrorCode DMPlexWarpAPSetPrevious(DM dm, Vec Un, const PetscReal r[])
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscValidHeaderSpecific(Un, VEC_CLASSID, 2);
  PetscCheckSameComm(dm, 1, Un, 2);
  PetscCall(DMPlexWarpHookGetAP_Private(dm, &h));
  PetscCall(DMPlexWarpHookAPPrevious_Private(dm, h, h->transient ? h->apt0 : PETSC_MIN_REAL, Un, PETSC_FALSE, r));
  h->apstarted = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  DMPlexWarpAPSetStimulusFunction - Sets the stimulus amplitude of the `TS` form of the Aliev-Panfilov hook as a
  function of time

  Logically Collective

  Input Parameters:
+ dm  - the `DMPLEX`, with `DMPlexWarpSetTSLocalAlievPanfilov()`
. fn  - the amplitude at time t, `fn(t, &amp, ctx)` (the same on every rank), or `NULL` for the constant
        p[`PETSCWARP_AP_STIM`] given to `DMPlexWarpSetTSLocalAlievPanfilov()`
- ctx - its context, or `NULL`

  Calling sequence of `fn`:
+ t   - the time of the backward Euler stage (the end of the step)
. amp - the amplitude: the current at a point of a cell is amp * stim[cell]
- ctx - the context

  Level: intermediate

  Note:
  The SNES form (`DMPlexWarpSetSNESLocalAlievPanfilov()`) takes each step's amplitude from `DMPlexWarpAPSetStep()`: an
  error there.

.seealso: `DMPlexWarpSetTSLocalAlievPanfilov()`, `DMPlexWarpAPSetStep()`
@*/
PetscErrorCode DMPlexWarpAPSetStimulusFunction(DM dm, PetscErrorCode (*fn)(PetscReal t, PetscReal *amp, void *ctx), void *ctx)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookGetAP_Private(dm, &h));
  PetscCheck(h->transient, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "The SNES form of the Aliev-Panfilov hook takes each step's stimulus from DMPlexWarpAPSetStep()");
  h->apstimfn  = fn;
  h->apstimctx = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}
