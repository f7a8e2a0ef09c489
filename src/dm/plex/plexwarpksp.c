/*
  The DMPlex hook of KSP: for codes that solve the linear problem of a DMPlex + PetscFE discretisation with KSPSetDM(),
  the operator (the Jacobian of the PetscDS, a built-in physics) assembled by PetscWarpAsm and the right-hand side
  b = -F(0), the residual at the zero state with the Dirichlet values, computed by PetscWarpAsm when the PetscDS's
  residual is recognised. Shared parts: plexwarphook.c.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscksp.h>

#define HOOK_NAME "DMPlexWarpKSP"

/* The local zero state with the boundary values (cached ones: projected once) */
static PetscErrorCode ZeroState(DM dm, DMPlexWarpHook *h, Vec *Xloc)
{
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, Xloc));
  PetscCall(VecZeroEntries(*Xloc));
  PetscCall(DMPlexWarpHookBoundary_Private(dm, h, PETSC_MIN_REAL, *Xloc, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMKSPSetComputeOperators(): A and P by PetscWarpAsm (PETSc's DMPlexSNESComputeJacobianFEM() for types it does not fill);
   the pointwise functions of DMPlexWarpSetPointwise() at the zero state with the boundary values, as PETSc */
static PetscErrorCode ComputeOperators(KSP ksp, Mat A, Mat P, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  Vec             Xloc = NULL;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(KSPGetDM(ksp, &dm));
  if (h->pointwise) PetscCall(ZeroState(dm, h, &Xloc));
  PetscCall(DMPlexWarpHookAssemble_Private(dm, h, NULL, 0.0, Xloc, NULL, A, P, &done));
  if (!done) {
    if (!h->warned) PetscCall(PetscInfo(dm, "Operator of type %s: assembled by PETSc (DMPlexSNESComputeJacobianFEM); PetscWarpAsm fills AIJ types (MPIAIJ ones on several ranks)\n", ((PetscObject)P)->type_name));
    h->warned = PETSC_TRUE;
  }
  if (!done || (h->check && !h->checked)) {
    if (!Xloc) PetscCall(ZeroState(dm, h, &Xloc));
    if (!done) PetscCall(DMPlexSNESComputeJacobianFEM(dm, Xloc, A, P, NULL));
    else {
      PetscCall(DMPlexWarpHookCheckJacobian_Private(dm, h, 0.0, Xloc, NULL, 0.0, P));
      h->checked = PETSC_TRUE;
    }
  }
  if (Xloc) PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMKSPSetComputeRHS(): b = -F(0), the residual at the zero state with the boundary values, summed over the ranks */
static PetscErrorCode ComputeRHS(KSP ksp, Vec b, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  Vec             Xloc;

  PetscFunctionBegin;
  PetscCall(KSPGetDM(ksp, &dm));
  PetscCall(ZeroState(dm, h, &Xloc));
  PetscCall(DMPlexWarpHookResidualGlobal_Private(dm, h, PETSC_MIN_REAL, Xloc, b));
  PetscCall(VecScale(b, -1.0));
  PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetKSPLocalFEM - For a linear finite-element problem solved with `KSPSetDM()`: sets the `DMKSP` functions that
  assemble the operator with `PetscWarpAsm` and compute the right-hand side from the `PetscDS` (with `PetscWarpAsm`
  when its residual is recognised)

  Logically Collective

  Input Parameter:
. dm - a `DMPLEX` with one `PetscFE` field whose `PetscDS` Jacobian is a built-in physics (`DMPlexWarpRecognizePhysics()`),
       or whose pointwise functions were registered with `DMPlexWarpSetPointwise()`

  Options Database Keys:
+ -dm_plex_warp_check <bool>          - compare the first operator with PETSc's `DMPlexSNESComputeJacobianFEM()` and the
                                        first residual with `DMPlexSNESComputeResidualFEM()` (an error above 1e-10)
. -dm_plex_warp_residual <bool>       - compute the right-hand side with `PetscWarpAsm` when the `PetscDS`'s residual is
                                        recognised (default true)
. -dm_plex_warp_cache_boundary <bool> - project the boundary values once (default true)
. -dm_plex_warp_preallocate <bool>    - on one rank, `DMCreateMatrix()` of an AIJ type gives the elements' pattern built by
                                        `PetscWarpAsm` instead of PETSc's preallocation: the same pattern, cheaper (default true)
- -mat_warp_*                         - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's prefix

  Level: intermediate

  Notes:
  The problem is the linear one whose residual F(u) = K u + F(0) the `PetscDS` describes (f0, f1, and the Dirichlet
  values of `DMAddBoundary()`): `DMKSPSetComputeOperators()` gets a function that assembles K (the Jacobian, constrained
  dofs removed) with `PetscWarpAsmAssembleMatrix()` into the matrices `KSP` makes with `DMCreateMatrix()`
  (`-dm_mat_type ellwarp`, `sharednz`, `aijcusparse` for values on the device; `aij` with the host twins; types that are
  not AIJ are assembled by PETSc's `DMPlexSNESComputeJacobianFEM()`), and `DMKSPSetComputeRHS()` one that computes
  b = -F(0): the residual at the zero state with the boundary values, by `PetscWarpAsmComputeResidualLocal()` when
  `DMPlexWarpRecognizeResidual()` recognises it (else `DMPlexSNESComputeResidualFEM()`), added into b with
  `DMLocalToGlobal()`. The solution of `KSPSolve`(ksp, NULL, NULL) (`KSPGetSolution()`) is then the state u whose
  residual vanishes: what `SNESSolve()` with `DMPlexSetSNESLocalFEM()` finds in one Newton step from zero.

  With pointwise functions registered by `DMPlexWarpSetPointwise()` (compiled with `PETSCWARP_POINTWISE()` from the
  `PetscDS`'s own functions) K and F(0) of any linear one-field problem (e.g. g0 and an anisotropic g3) are computed by
  those kernels, on the device, at the zero state with the boundary values.

  On several MPI ranks the mesh must be distributed without overlap, as for `DMPlexWarpSetSNESLocalFEM()`.

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`, `DMPlexWarpSetPointwise()`, `DMKSPSetComputeOperators()`,
          `DMKSPSetComputeRHS()`, `KSPSetDM()`, `DMPlexWarpGetAsm()`, `DMPlexWarpGetResidualCount()`
@*/
PetscErrorCode DMPlexWarpSetKSPLocalFEM(DM dm)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookCreate_Private(dm, PETSC_FALSE, PETSC_FALSE, HOOK_NAME, &h));
  PetscCall(DMKSPSetComputeOperators(dm, ComputeOperators, h));
  PetscCall(DMKSPSetComputeRHS(dm, ComputeRHS, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}
