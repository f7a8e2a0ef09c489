/*
  The DMPlex hook of SNES: Jacobians of a DMPlex + PetscFE problem assembled by PetscWarpAsm (on the device when there
  is one) instead of PETSc's closure-by-closure host assembly, for the PetscDS pointwise Jacobians that match a built-in
  physics, and residuals computed by PetscWarpAsm when the pointwise residual matches it too (else PETSc's own,
  DMPlexSNESComputeResidualFEM()). Shared parts: plexwarphook.c.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscsnes.h>

#define HOOK_NAME "DMPlexWarpSNES"

/* DMSNESSetBoundaryLocal(): the cached boundary values instead of PETSc's projection at every residual */
static PetscErrorCode BoundaryLocal(DM dm, Vec Xloc, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookBoundary_Private(dm, (DMPlexWarpHook *)ctx, PETSC_MIN_REAL, Xloc, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMSNESSetFunctionLocal(): Floc += r(Xloc), by PetscWarpAsm or by PETSc */
static PetscErrorCode ResidualLocal(DM dm, Vec Xloc, Vec Floc, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookResidual_Private(dm, (DMPlexWarpHook *)ctx, PETSC_MIN_REAL, Xloc, NULL, Floc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A global Jacobian (not a local one): the Jacobian of a built-in physics does not depend on the state, so the local
   state is made only when PETSc assembles, or for the pointwise functions of DMPlexWarpSetPointwise(); the Aliev-Panfilov
   model has its own (DMPlexWarpHookAPJacobian_Private()) */
static PetscErrorCode JacobianGlobal(SNES snes, Vec X, Mat J, Mat Jp, void *ctx)
{
  DMPlexWarpHook *h = (DMPlexWarpHook *)ctx;
  DM              dm;
  Vec             Xloc = NULL;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &dm));
  if (h->ap) {
    PetscCall(DMPlexWarpHookAPJacobian_Private(dm, h, PETSC_MIN_REAL, X, J, Jp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->pointwise) PetscCall(DMPlexWarpHookLocalState_Private(dm, h, PETSC_MIN_REAL, X, &Xloc));
  /* t = 0 as DMPlexSNESComputeJacobianFEM() */
  PetscCall(DMPlexWarpHookAssemble_Private(dm, h, NULL, 0.0, Xloc, NULL, J, Jp, &done));
  if (!done) { /* PETSc's own assembly */
    if (!h->warned) PetscCall(PetscInfo(dm, "Jacobian of type %s: assembled by PETSc (DMPlexSNESComputeJacobianFEM); PetscWarpAsm fills AIJ types (MPIAIJ ones on several ranks)\n", ((PetscObject)Jp)->type_name));
    h->warned = PETSC_TRUE;
    if (!Xloc) PetscCall(DMPlexWarpHookLocalState_Private(dm, h, PETSC_MIN_REAL, X, &Xloc));
    PetscCall(DMPlexSNESComputeJacobianFEM(dm, Xloc, J, Jp, NULL));
  } else if (h->check && !h->checked) {
    if (!Xloc) PetscCall(DMPlexWarpHookLocalState_Private(dm, h, PETSC_MIN_REAL, X, &Xloc));
    PetscCall(DMPlexWarpHookCheckJacobian_Private(dm, h, 0.0, Xloc, NULL, 0.0, Jp));
    h->checked = PETSC_TRUE;
  }
  if (Xloc) PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetSNESLocalFEM - The counterpart of `DMPlexSetSNESLocalFEM()` whose Jacobians are assembled, and whose
  residuals are computed, by `PetscWarpAsm`: on the device (or by the host twins of the kernels), straight into the
  values of the matrix and into the residual vector

  Logically Collective

  Input Parameter:
. dm - a `DMPLEX` with one `PetscFE` field whose `PetscDS` Jacobian is a built-in physics (see
       `DMPlexWarpRecognizePhysics()`), or whose pointwise functions were registered with `DMPlexWarpSetPointwise()`

  Options Database Keys:
+ -dm_plex_warp_check <bool>          - compare the first Jacobian with PETSc's `DMPlexSNESComputeJacobianFEM()` and the first
                                        residual with `DMPlexSNESComputeResidualFEM()` (an error when the relative difference
                                        exceeds 1e-10; the differences are printed with `-info`)
. -dm_plex_warp_residual <bool>       - compute the residual with `PetscWarpAsm` when the `PetscDS`'s residual is recognised
                                        (default true)
. -dm_plex_warp_cache_boundary <bool> - project the boundary values once and copy them at every residual (default true)
. -dm_plex_warp_preallocate <bool>    - on one rank, `DMCreateMatrix()` of an AIJ type gives the elements' pattern built by
                                        `PetscWarpAsm` instead of PETSc's preallocation: the same pattern, cheaper (default true)
- -mat_warp_*                         - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's
                                        prefix; the strategy defaults to rownz (atomic where the affine path cannot serve every cell)

  Level: intermediate

  Notes:
  Calls `DMPlexSetSNESLocalFEM()`, then replaces
+ the Jacobian - by a global one (`DMSNESSetJacobian()`: the state and its boundary values are not needed by a
  state-independent Jacobian) that `PetscWarpAsmAssembleMatrix()` fills. The matrix is the one `DMCreateMatrix()`
  makes: choose `-dm_mat_type ellwarp`, `sharednz` or `aijcusparse` for values on the device; with `aij` the host twins
  assemble it. Jacobians of other types (not AIJ) are assembled by PETSc, which `-info` says once.
. the residual - when `DMPlexWarpRecognizeResidual()` recognises the pointwise residual (f1 the flux of the physics, f0
  a constant, constant Neumann fluxes), by `PetscWarpAsmComputeResidualLocal()` on the local state (`DMSNESSetFunctionLocal()`: PETSc's wrapper
  scatters the state to a local vector and adds the local residual into the global one with `DMLocalToGlobal()`);
  otherwise PETSc's `DMPlexSNESComputeResidualFEM()`, the reason printed by `-info`.
- the boundary values - by the local vector of the boundary values projected once (`DMSNESSetBoundaryLocal()`: a
  `VecCopy()` instead of PETSc's projection at every residual, which costs more than the residual itself)

  When there is a device and the matrix type is a device one (`ellwarp`, `sharednz`, `aijcusparse`), the DM's vectors
  become `VECCUDA` unless `-dm_vec_type` was given: the state, the residual and the boundary values then stay on the
  device. On several ranks the vectors keep their type unless `-dm_vec_type cuda` asks for the device (the residual is
  then computed on the device and added with `DMLocalToGlobal()` on `VECMPICUDA`; otherwise by the host twin), except
  with `sharednz` and `aijcusparse`, PETSc's cuSPARSE matrices, which need CUDA vectors on any number of ranks: their
  vectors become `VECCUDA` whoever assembles, and a Jacobian of such a type with host vectors chosen by `-dm_vec_type` is
  an error (`PETSC_ERR_ARG_INCOMP`; the products would be silently wrong). Call it after the DM's matrix type is set
  (`DMSetFromOptions()`, `DMSetMatType()`).

  On several MPI ranks the mesh must be distributed without overlap (an error otherwise: a cell on two ranks would be
  assembled twice); ranks without cells are fine. Each rank computes its own cells: the Jacobian goes through the MPI
  matrix's `MatSetValuesCOO()` (`mpiaij`, `mpiaijcusparse`, `mpiaijellwarp`, `sharednz`), the residual through
  `DMLocalToGlobal()`.

  For any other one-field problem (nonlinear ones included), compile the element kernels of the `PetscDS`'s own
  pointwise functions with `PETSCWARP_POINTWISE()` (petscwarp/pointwise.cuh) and register them with
  `DMPlexWarpSetPointwise()` before this call: the Jacobian (at the state, with its boundary values) and the residual are
  then computed by those kernels, on the device, whatever the physics (tutorials/ex5.cu). Without them, the following
  holds for the built-in physics.

  The Jacobian must not depend on the state: linear problems, or the linear part of a Newton step. Natural (Neumann)
  boundary conditions with a constant flux (a constant boundary f0 per label value) are part of the residual computed by
  `PetscWarpAsm` (`PetscWarpAsmSetBoundaryFluxes()`: the face integrals of the basis functions computed once with PETSc's
  face quadrature and geometry); other fluxes, auxiliary fields and several regions leave the residual to PETSc.

.seealso: `DMPlexSetSNESLocalFEM()`, `DMPlexWarpSetPointwise()`, `PETSCWARP_POINTWISE()`, `DMPlexWarpSetTSLocalFEM()`,
          `DMPlexWarpRecognizePhysics()`, `DMPlexWarpRecognizeResidual()`, `DMPlexWarpGetAsm()`, `DMPlexWarpGetResidualCount()`, `PetscWarpAsm`
@*/
PetscErrorCode DMPlexWarpSetSNESLocalFEM(DM dm)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookCreate_Private(dm, PETSC_FALSE, PETSC_FALSE, HOOK_NAME, &h));
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, NULL));
  PetscCall(DMSNESSetBoundaryLocal(dm, BoundaryLocal, h));
  PetscCall(DMSNESSetFunctionLocal(dm, ResidualLocal, h));
  PetscCall(DMSNESSetJacobian(dm, JacobianGlobal, h)); /* replaces the DMLocal wrapper of the Jacobian only */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetSNESLocalAlievPanfilov - Installs the residual and the Jacobian of a backward Euler step of the
  Aliev-Panfilov monodomain model, computed and assembled by `PetscWarpAsm` (on the device, or by the host twins of the
  kernels), as the `SNES` local functions of a `DMPLEX`

  Collective

  Input Parameters:
+ dm    - a `DMPLEX` with one scalar `PetscFE` field (the voltage), its matrix type set (`-dm_mat_type ellwarp`,
          `sharednz`, `aijcusparse` or `aij`)
. p     - the model's parameters, `PETSCWARP_AP_NPARAM` values indexed by `PETSCWARP_AP_C`, ...
          (petscwarp/alievpanfilov.h; the time step `PETSCWARP_AP_DT` and the stimulus amplitude `PETSCWARP_AP_STIM` too), or
          `NULL` for `PetscWarpAPDefaults()`
. kcell - the conductivity tensor of every cell of the DM's height-0 stratum on this rank, dim*dim values per cell in
          cell order, row-major and symmetric (fibre anisotropy: D = d_iso I + d_ani n n^T); `NULL` on a rank without cells
- stim  - the stimulus mask, one value per cell (the current at a point of the cell is p[`PETSCWARP_AP_STIM`] * stim[cell]),
          or `NULL` for none

  Options Database Keys:
+ -dm_plex_warp_cache_boundary <bool> - as `DMPlexWarpSetSNESLocalFEM()`
. -dm_plex_warp_preallocate <bool>    - as `DMPlexWarpSetSNESLocalFEM()`
- -mat_warp_*                         - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's
                                        prefix; the strategy defaults to atomic

  Level: intermediate

  Notes:
  Each `SNESSolve()` with the DM solves one backward Euler step R(V) = M (V - V_n)/dt + K V - F(V) = 0 for the nodal
  voltages, the recovery variable being solved at each quadrature point for the current V (`PetscWarpAsmSetAlievPanfilov()`),
  with the consistent Jacobian: Newton's method converges quadratically. The hook keeps the previous step's voltage and
  recovery; in the time loop call `DMPlexWarpAPSetStep()` before a step's `SNESSolve()` and `DMPlexWarpAPAdvance()` with
  the converged state after it. Both start at 0 (`DMPlexWarpAPSetPrevious()` sets others).

  The residual and the Jacobian are replaced (`DMSNESSetFunctionLocal()`, `DMSNESSetJacobian()`); the boundary values
  are those of the `PetscDS` (`DMSNESSetBoundaryLocal()`, projected once: the model's natural no-flux condition needs
  none). The `PetscDS`'s pointwise functions are not used: the model is petscwarp's. As with
  `DMPlexWarpSetSNESLocalFEM()`, the DM's vectors become `VECCUDA` when a device assembles into a device matrix type
  (unless `-dm_vec_type` was given), `DMCreateMatrix()` gives the elements' pattern on one rank, and a Jacobian of a type
  `PetscWarpAsm` cannot fill is an error (`PETSC_ERR_SUP`). `-dm_plex_warp_check`, `-dm_plex_warp_residual 0` and
  `-dm_plex_warp_mpi_device 0` are ignored (PETSc's own assembly of the model needs the program's auxiliary fields:
  tutorials/heartproblem.c compares the two forms). On several MPI ranks each rank computes its own cells (a mesh
  distributed without overlap). Calling it again replaces the hook: the previous voltage and recovery are 0 again.

  The recovery at the quadrature points is that of `PetscWarpAsmAPGetRecovery()` on `DMPlexWarpGetAsm()`'s assembler.

.seealso: `DMPlexWarpAPSetStep()`, `DMPlexWarpAPAdvance()`, `DMPlexWarpAPSetPrevious()`, `PetscWarpAsmSetAlievPanfilov()`,
          `DMPlexWarpSetTSLocalAlievPanfilov()` (the same model through a `TS`), `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpGetAsm()`
@*/
PetscErrorCode DMPlexWarpSetSNESLocalAlievPanfilov(DM dm, const PetscReal p[], const PetscReal kcell[], const PetscReal stim[])
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookCreateAP_Private(dm, PETSC_FALSE, HOOK_NAME, p, kcell, stim, &h));
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, NULL));
  PetscCall(DMSNESSetBoundaryLocal(dm, BoundaryLocal, h));
  PetscCall(DMSNESSetFunctionLocal(dm, ResidualLocal, h));
  PetscCall(DMSNESSetJacobian(dm, JacobianGlobal, h)); /* the local state made by the hook itself */
  PetscFunctionReturn(PETSC_SUCCESS);
}
