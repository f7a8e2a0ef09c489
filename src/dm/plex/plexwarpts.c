/*
  The DMPlex hook of TS: implicit Jacobians u_tShift c M + K assembled by PetscWarpAsm (the mass term through its shift)
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

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetPointwise()`, `PETSCWARP_POINTWISE()`, `DMTSSetIFunctionLocal()`,
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
