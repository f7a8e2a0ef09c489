/*
  The no-code path of the DMPlex hook: a MATELLWARP or MATSHAREDNZ matrix made by DMCreateMatrix() of a DMPLEX, assembled
  by PETSc's DMSNES local FEM Jacobian (DMPlexSNESComputeJacobianFEM(), set by DMPlexSetSNESLocalFEM()), switches the DM
  to DMPlexWarpSetSNESLocalFEM() for the following Jacobians when the PetscDS's Jacobian is a recognised built-in
  physics (-dm_plex_warp_auto). The decision is taken once per DM, at the end of the first assembly that staged
  reassembly records (on several ranks: all ranks together), or, with staging off, at the end of the first
  ADD_VALUES assembly (src/mat/utils/warpstage.c calls the hook registered here; the Mat layer knows nothing of DMs);
  otherwise the matrix keeps PETSc's assembly, staged from the second Jacobian on.
*/
#include <petscwarp.h>
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/plexwarphook.h>
#include <petsc/private/dmimpl.h>
#include <petscdmplex.h>
#include <petscsnes.h>
#include <petscds.h>

#define AUTO_NAME "__PetscWarp_DMPlexAuto"
#define HOOK_NAME "DMPlexWarpSNES" /* what DMPlexWarpSetSNESLocalFEM() composes on the DM (plexwarpsnes.c) */

typedef struct {
  PetscBool installed;
  char      why[256];
} DMPlexWarpAuto;

static PetscErrorCode AutoDestroy(PetscCtxRt ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*(DMPlexWarpAuto **)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Why the DM's problem cannot go to PetscWarpAsm, beyond DMPlexWarpRecognizePhysics() (which probes g3 with zero
   auxiliary fields, so a coefficient read from them would look constant) */
static PetscErrorCode Decide(DM dm, Mat A, PetscBool *ok, char why[], size_t len)
{
  PetscMPIInt      size;
  PetscInt         naux, ov = 0;
  PetscBool        found;
  PetscWarpPhysics phys;
  PetscReal        coef[2] = {0, 0};
  PetscObject      hook;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscObjectQuery((PetscObject)dm, HOOK_NAME, &hook));
  PetscCall(DMGetNumAuxiliaryVec(dm, &naux));
  if (size > 1) PetscCall(DMPlexGetOverlap(dm, &ov));
  if (hook) PetscCall(PetscStrncpy(why, "DMPlexWarpSetSNESLocalFEM() is already installed and leaves this matrix to PETSc", len));
  else if (ov) PetscCall(PetscSNPrintf(why, len, "the mesh is distributed with overlap %" PetscInt_FMT " (each rank assembles its own cells: overlap 0 needed)", ov));
  else if (naux) PetscCall(PetscSNPrintf(why, len, "the problem has %" PetscInt_FMT " auxiliary fields (coefficients the recognition cannot see)", naux));
  else {
    PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &phys, coef, why, len));
    if (found && phys == PETSCWARP_PHYSICS_LAPLACE && coef[0] == 0) {
      PetscCall(PetscStrncpy(why, "g3 is zero", len));
      found = PETSC_FALSE;
    }
    if (found) {
      if (phys == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscSNPrintf(why, len, "recognised: Laplacian, kappa %g", (double)coef[0]));
      else PetscCall(PetscSNPrintf(why, len, "recognised: isotropic elasticity, lambda %g, mu %g", (double)coef[0], (double)coef[1]));
    }
    *ok = found;
  }
  if (size > 1) { /* collective: every rank switches, or none (the recognition probes the same functions on each) */
    PetscBool all;
    PetscCallMPI(MPIU_Allreduce(ok, &all, 1, MPI_C_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
    if (*ok && !all) PetscCall(PetscStrncpy(why, "not recognised on every rank", len));
    *ok = all;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AutoHook(Mat A, PetscBool *taken)
{
  DM              dm = NULL;
  DMPlexWarpAuto *st = NULL;
  PetscBool       isplex, on = PETSC_FALSE, ok;
  PetscErrorCode (*jac)(DM, Vec, Mat, Mat, void *) = NULL;
  void *ctx;

  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  PetscCall(MatGetDM(A, &dm));
  if (!dm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &isplex));
  if (!isplex) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMPlexWarpMatchVectors_Private(dm, A));    /* before the solver makes its vectors (SNES, TS or KSP) */
  if (!dm->dmsnes) PetscFunctionReturn(PETSC_SUCCESS); /* no SNES on this DM: not a DMSNES Jacobian */
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, AUTO_NAME, &st));
  if (st) PetscFunctionReturn(PETSC_SUCCESS); /* decided already */
  PetscCall(DMSNESGetJacobianLocal(dm, &jac, &ctx));
  if (jac != DMPlexSNESComputeJacobianFEM) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&st));
  PetscCall(PetscObjectContainerCompose((PetscObject)dm, AUTO_NAME, st, AutoDestroy));
  /* not PetscObjectOptionsBegin(): after DMSetFromOptions() the DM's options count as printed, -help would omit these */
  PetscOptionsBegin(PetscObjectComm((PetscObject)dm), ((PetscObject)dm)->prefix, "DMPlex petscwarp automatic switch options", "DM");
  PetscCall(PetscOptionsBool("-dm_plex_warp_auto", "Switch a recognised DMSNES FEM Jacobian into an ellwarp/sharednz matrix to DMPlexWarpSetSNESLocalFEM()", "DMPlexWarpAutoGetStatus", on, &on, NULL));
  PetscOptionsEnd();
  if (!on) {
    PetscCall(PetscStrncpy(st->why, "-dm_plex_warp_auto is off", sizeof(st->why)));
    ok = PETSC_FALSE;
  } else PetscCall(Decide(dm, A, &ok, st->why, sizeof(st->why)));
  if (ok) {
    PetscCall(DMPlexWarpSetSNESLocalFEM(dm));
    st->installed = PETSC_TRUE;
    *taken        = PETSC_TRUE;
    PetscCall(PetscInfo(dm, "Jacobian %s of type %s assembled by DMPlexSNESComputeJacobianFEM(): %s; the next Jacobians by DMPlexWarpSetSNESLocalFEM() (PetscWarpAsm)\n", ((PetscObject)A)->name ? ((PetscObject)A)->name : "", ((PetscObject)A)->type_name, st->why));
  } else PetscCall(PetscInfo(dm, "Jacobian of type %s assembled by DMPlexSNESComputeJacobianFEM(), PetscWarpAsm not used: %s; the next Jacobians by PETSc's assembly, staged (MatWarpSetStage())\n", ((PetscObject)A)->type_name, st->why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode DMPlexWarpAutoRegister_Private(void);
PetscErrorCode              DMPlexWarpAutoRegister_Private(void)
{
  PetscFunctionBegin;
  PetscCall(MatWarpStageSetHook_Private(AutoHook));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpAutoGetStatus - Whether the no-code path (`-dm_plex_warp_auto`) switched a DM's SNES Jacobians to
  `DMPlexWarpSetSNESLocalFEM()`, and why (not)

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`

  Output Parameters:
+ installed - `PETSC_TRUE` when the Jacobians after the first are assembled by `PetscWarpAsm`
- why       - the reason (a buffer of `len` characters; may be `NULL`): the recognised physics, why it was not
              recognised, or that no decision was taken (no `MATELLWARP`/`MATSHAREDNZ` Jacobian assembled yet by
              `DMPlexSNESComputeJacobianFEM()`)

  Options Database Key:
. -dm_plex_warp_auto <bool> - (with the DM's prefix) switch when the `PetscDS` Jacobian is recognised (default false)

  Level: intermediate

  Notes:
  The decision is taken at the end of the first `ADD_VALUES` assembly of a `MATELLWARP` or `MATSHAREDNZ` matrix made by
  `DMCreateMatrix()` of a `DMPLEX` whose `DMSNES` local Jacobian is `DMPlexSNESComputeJacobianFEM()` (that assembly is
  PETSc's own), once per DM. It needs one field, a Jacobian with only g3 that `DMPlexWarpRecognizePhysics()` recognises,
  no auxiliary fields, and on several MPI ranks a mesh distributed without overlap (every rank decides the same:
  collective); otherwise the Jacobians stay PETSc's, with their values staged to the device (`MatWarpSetStage()`). On
  several ranks the switched Jacobians are summed through the MPI matrix's `MatSetValuesCOO()`, as
  `DMPlexWarpSetSNESLocalFEM()` does. `-info` says which path runs and why.

  Off by default: the recognition probes the pointwise g3 at a few states and points, which cannot prove that it is
  constant (a g3 reading a global variable or the time through other means would be taken for a constant one), and the
  Jacobian then comes from another code path (the same matrix up to rounding, checked by `-dm_plex_warp_check`). The
  default no-code path is therefore PETSc's exact assembly with staged values; `-dm_plex_warp_auto` opts in.

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpRecognizePhysics()`, `MatWarpSetStage()`, `DMPlexSetSNESLocalFEM()`
@*/
PetscErrorCode DMPlexWarpAutoGetStatus(DM dm, PetscBool *installed, char why[], size_t len)
{
  DMPlexWarpAuto *st = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(installed, 2);
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, AUTO_NAME, &st));
  *installed = st ? st->installed : PETSC_FALSE;
  if (why && len) PetscCall(PetscStrncpy(why, st ? st->why : "no decision taken (no ellwarp/sharednz Jacobian assembled by DMPlexSNESComputeJacobianFEM() yet)", len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
