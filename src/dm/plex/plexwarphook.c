/*
  What the SNES and TS hooks of DMPlex share (plexwarpsnes.c, plexwarpts.c): recognition of the PetscDS and options at
  set-up, the PetscWarpAsm, the cached boundary values, and the comparisons with PETSc of -dm_plex_warp_check.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscsnes.h>
#include <petscts.h>
#include <petscds.h>
#include <petscwarp/private/warpasmimpl.h> /* PetscWarpAsmSetPattern_Private() */
#include <petsc/private/dmimpl.h>          /* dm->ops->creatematrix, dm->prealloc_skip */
#include <petsc/private/dmlabelimpl.h>     /* DMLabel's readonly flag (CellTypesSorted()) */

static PetscErrorCode HookDestroy(PetscCtxRt ctx)
{
  DMPlexWarpHook *h = *(DMPlexWarpHook **)ctx;

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmDestroy(&h->wa));
  PetscCall(VecDestroy(&h->bc));
  PetscCall(VecDestroy(&h->bc_t));
  PetscCall(PetscFree(h->flux));
  PetscCall(PetscFree(h->apk));
  PetscCall(PetscFree(h->apstim));
  PetscCall(VecDestroy(&h->apUn));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A's type is one of PETSc's cuSPARSE matrices (MATSHAREDNZ is one when there is a device): their MatMult()
   takes the device arrays of the vectors with VecCUDAGetArrayRead()/VecCUDAGetArray() (MatMultAddKernel_SeqAIJCUSPARSE()
   in src/mat/impls/aij/seq/seqcusparse/aijcusparse.cu, the PetscCheckTypeNames() of Vec_CUPMBase::GetArray() in
   include/petsc/private/veccupmimpl.h is compiled out of optimised builds): a host vector (VECSEQ, VECMPI) then gets a
   device copy that host operations never update (their VecGetArray() ignores the offload mask, rvector.c VecGetArray()),
   and Krylov solves go silently wrong. Measured: the sharednz (mpiaijcusparse) Newton solves on 2 and 3 ranks with VECMPI
   vectors (26-50 Newton iterations instead of 1 on the H100, 2026-11-23) */
static PetscErrorCode IsCUSPARSEType(MatType mt, PetscBool *cusp)
{
  PetscFunctionBegin;
  PetscCall(PetscStrcmpAny(mt ? mt : MATAIJ, cusp, MATSHAREDNZ, MATAIJCUSPARSE, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IsCUDAVecType(VecType vt, PetscBool *cuda)
{
  PetscFunctionBegin;
  PetscCall(PetscStrcmpAny(vt ? vt : VECSTANDARD, cuda, VECCUDA, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* VECCUDA for the DM's vectors, unless the vector type was chosen (-dm_vec_type, or a type other than the standard one):
   - on any number of ranks when the matrix type is one of PETSc's cuSPARSE ones (sharednz, aijcusparse), whoever
     assembles it: their MatMult() needs device vectors (IsCUSPARSEType());
   - on one rank when the device assembles into a matrix whose values live there (ellwarp with the cuda backend). On
     several, ellwarp keeps host vectors (its products take either) unless -dm_vec_type cuda asks for VECMPICUDA (device
     residuals added through DMLocalToGlobal()) */
static PetscErrorCode DeviceVectors(DM dm)
{
  const char *prefix;
  MatType     mt;
  VecType     vt;
  PetscBool   dev, devmat, cusp, set, std, flg = PETSC_TRUE, hostbe = PETSC_FALSE;
  char        be[16];
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!dev) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &size));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)dm, &prefix));
  PetscCall(DMGetMatType(dm, &mt));
  PetscCall(IsCUSPARSEType(mt, &cusp));
  PetscCall(PetscStrbeginswith(mt ? mt : MATAIJ, MATELLWARP, &devmat));
  if (!devmat) PetscCall(PetscStrcmpAny(mt ? mt : MATAIJ, &devmat, MATSEQAIJELLWARP, MATMPIAIJELLWARP, ""));
  devmat = (PetscBool)(devmat || cusp);
  PetscCall(PetscOptionsHasName(((PetscObject)dm)->options, prefix, "-dm_vec_type", &set));
  PetscCall(DMGetVecType(dm, &vt));
  PetscCall(PetscStrcmpAny(vt ? vt : VECSTANDARD, &std, VECSTANDARD, VECSEQ, VECMPI, ""));
  PetscCall(PetscOptionsGetBool(((PetscObject)dm)->options, prefix, "-mat_warp_assembly_device", &flg, NULL));
  PetscCall(PetscOptionsGetString(((PetscObject)dm)->options, prefix, "-mat_ellwarp_backend", be, sizeof(be), &hostbe));
  if (hostbe) PetscCall(PetscStrcmp(be, "host", &hostbe));
  if (!std || set) PetscFunctionReturn(PETSC_SUCCESS);
  if (cusp) {
    PetscCall(DMSetVecType(dm, VECCUDA));
    PetscCall(PetscInfo(dm, "Vectors of type %s: the multiplications of %s matrices need them\n", VECCUDA, mt));
  } else if (size == 1 && devmat && flg && !hostbe) {
    PetscCall(DMSetVecType(dm, VECCUDA));
    PetscCall(PetscInfo(dm, "Vectors of type %s: the device assembles into %s matrices\n", VECCUDA, mt));
  } else if (size > 1 && devmat) PetscCall(PetscInfo(dm, "%d ranks: the vectors keep their type (-dm_vec_type cuda for device residuals)\n", size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's multiplications will see the DM's vectors (KSP takes its work vectors from the DM): a cuSPARSE matrix with host
   vectors is refused, see IsCUSPARSEType() */
static PetscErrorCode CheckVectors(DM dm, Mat A)
{
  PetscBool cusp, cuda;
  VecType   vt;

  PetscFunctionBegin;
  PetscCall(IsCUSPARSEType(((PetscObject)A)->type_name, &cusp));
  if (cusp) {
    PetscBool bound;
    PetscCall(MatBoundToCPU(A, &bound)); /* bound to the CPU: host products, host vectors are right */
    cusp = (PetscBool)!bound;
  }
  if (!cusp) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetVecType(dm, &vt));
  PetscCall(IsCUDAVecType(vt, &cuda));
  PetscCheck(cuda, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_INCOMP, "A %s matrix needs CUDA vectors (its MatMult() reads their device arrays; host ones would give wrong products silently in an optimised PETSc), but the DM's vectors are %s: use -dm_vec_type cuda (or leave -dm_vec_type unset)",
             ((PetscObject)A)->type_name, vt ? vt : VECSTANDARD);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  A matrix of the DM whose solvers will mix its vectors with the DM's: a cuSPARSE matrix with host vectors is refused
  (CheckVectors()); a MATELLWARP matrix with the cuda backend gives VECCUDA vectors from MatCreateVecs() (and so do its
  submatrices: fieldsplit's blocks, Schur complements), which with the DM's host vectors end up in the same Vec
  operations, where an optimised PETSc reads a host vector's stale device copy (measured: PETSc's ts ex46 with a Schur
  fieldsplit on 2 ranks, H100 2026-11-26: velocity solves of 67-93 iterations instead of 16-17, then a failed step).
  Such a matrix (and its submatrices, and the duplicates MatDuplicate() gives its vector type) then gives host vectors;
  its products take either kind.
*/
PetscErrorCode DMPlexWarpMatchVectors_Private(DM dm, Mat A)
{
  PetscBool ew, cuda;
  VecType   vt;

  PetscFunctionBegin;
  PetscCall(CheckVectors(dm, A));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &ew, MATSEQAIJELLWARP, MATMPIAIJELLWARP, ""));
  if (!ew) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetVecType(dm, &vt));
  PetscCall(IsCUDAVecType(vt, &cuda));
  if (!cuda) {
    MatEllWarpOpts o;
    PetscUseMethod(A, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (A, &o));
    if (o.backend == MAT_ELLWARP_BACKEND_CUDA && !o.hostvecs) {
      o.hostvecs = PETSC_TRUE;
      PetscUseMethod(A, "MatEllWarpSetOpts_C", (Mat, const MatEllWarpOpts *), (A, &o));
      PetscCall(PetscInfo(A, "The DM's vectors are %s: MatCreateVecs() of this %s matrix (and of its submatrices) gives host vectors too, so that solvers do not mix them with device ones (-dm_vec_type cuda keeps the solve's vectors on the device)\n", vt ? vt : VECSTANDARD,
                          ((PetscObject)A)->type_name));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Several ranks: each assembles its own cells, so a cell may not be on two ranks (an overlap would add it twice) */
static PetscErrorCode CheckOverlap(DM dm)
{
  PetscMPIInt size;
  PetscInt    ov;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMPlexGetOverlap(dm, &ov));
  PetscCheck(ov == 0, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "The PetscWarpAsm hooks need a mesh distributed without overlap (-dm_distribute_overlap 0, DMPlexDistribute() with overlap 0); this one has overlap %" PetscInt_FMT ": its cells would be assembled on two ranks. Use PETSc's DMPlexSetSNESLocalFEM() (or DMTSSetIFunctionLocal() ...) for it", ov);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook of a DM (SNES, TS or KSP), or NULL */
PetscErrorCode DMPlexWarpHookQuery_Private(DM dm, DMPlexWarpHook **h)
{
  PetscFunctionBegin;
  *h = NULL;
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, "DMPlexWarpSNES", h));
  if (!*h) PetscCall(PetscObjectContainerQuery((PetscObject)dm, "DMPlexWarpTS", h));
  if (!*h) PetscCall(PetscObjectContainerQuery((PetscObject)dm, "DMPlexWarpKSP", h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's DMCreateMatrix_Plex() (PETSC_INTERN in PETSc: read from the operations of a new DMPLEX) */
static PetscErrorCode (*CreateMatrixPlex)(DM, Mat *) = NULL;

/* Whether the elements' pattern is PETSc's for dm: every field with the finite-element adjacency (the closure of the
   star; DMPlexPreallocateOperator() follows DMGetAdjacency()) */
static PetscErrorCode FEAdjacency(DM dm, PetscBool *fe)
{
  PetscInt  nf;
  PetscBool cone, closure;

  PetscFunctionBegin;
  *fe = PETSC_TRUE;
  PetscCall(DMGetNumFields(dm, &nf));
  for (PetscInt f = nf ? 0 : -1; f < PetscMax(nf, 0); f++) {
    PetscCall(DMGetAdjacency(dm, f, &cone, &closure));
    if (cone || !closure) *fe = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  DMCreateMatrix() of a DMPlex with a hook on one rank (-dm_plex_warp_preallocate, default true): PETSc's
  DMCreateMatrix_Plex() with the preallocation skipped (DMPlexPreallocateOperator(): the adjacency of every point, then
  MatSetValues() of zeros, 2.09 of the 3.44 s of the heat tutorial's set-up at 122 k unknowns on one core), then the
  elements' pattern set by PetscWarpAsm: the matrix comes back assembled with zero values and the same pattern, block
  sizes, local-to-global map and MAT_NEW_NONZERO_ALLOCATION_ERR as PETSc's, so that anything may use it before the
  first Jacobian (-snes_fd_color, MatDuplicate(), a PC). PETSc's own path serves: types PetscWarpAsm does not fill (not
  SeqAIJ-based; the matrix is then made twice), preallocation flags the user set (DMSetMatrixPreallocateOnly(),
  DMSetMatrixPreallocateSkip()), fields without the finite-element adjacency (DMSetAdjacency()), meshes PetscWarpAsm does
  not support (its PETSC_ERR_SUP when it is made here, which is otherwise the first Jacobian's error; any other error
  is raised with its message), and DMs without a hook (DMRefine() and DMCoarsen() copy the DM's operations).
  The PetscWarpAsm made here reads the coordinates, the section and the -mat_warp_ options now, not at the first
  Jacobian.
*/
static PetscErrorCode DMCreateMatrix_PlexWarp(DM dm, Mat *J)
{
  DMPlexWarpHook *h;
  PetscBool       seqaij, fe;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookQuery_Private(dm, &h));
  fe = PETSC_FALSE;
  if (h && h->ownpattern && !dm->prealloc_skip && !dm->prealloc_only) PetscCall(FEAdjacency(dm, &fe));
  if (!fe) {
    PetscCall(CreateMatrixPlex(dm, J));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  dm->prealloc_skip = PETSC_TRUE;
  ierr              = CreateMatrixPlex(dm, J);
  dm->prealloc_skip = PETSC_FALSE; /* also after an error: DMClone() copies the flag */
  PetscCall(ierr);
  /* the type (MatSetFromOptions() may change it): only the types PetscWarpAsm fills make the assembler here */
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)*J, MATSEQAIJ, &seqaij));
  if (seqaij) {
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DMPlexWarpHookGetAsm_Private(dm, h);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      const char *specific = NULL;
      char        msg[512];

      PetscCall(PetscErrorMessage(ierr, NULL, &specific));
      PetscCall(PetscStrncpy(msg, specific ? specific : "", sizeof(msg)));
      PetscCall(PetscWarpAsmDestroy(&h->wa)); /* possibly half made: the first Jacobian makes it again */
      PetscCall(MatDestroy(J));
      PetscCheck(ierr == PETSC_ERR_SUP, PetscObjectComm((PetscObject)dm), ierr, "%s", msg);
      PetscCall(PetscInfo(dm, "PetscWarpAsm cannot serve this DM (%s): PETSc's preallocation\n", msg));
      seqaij = PETSC_FALSE;
    }
  }
  if (seqaij) {
    PetscCall(PetscWarpAsmSetPattern_Private(h->wa, *J));
    PetscCall(MatSetOption(*J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE)); /* as DMPlexPreallocateOperator() */
    PetscCall(PetscInfo(dm, "DMCreateMatrix(): the elements' pattern from PetscWarpAsm instead of PETSc's preallocation (-dm_plex_warp_preallocate 0: PETSc's)\n"));
  } else { /* made again by PETSc, with its preallocation */
    PetscCall(MatDestroy(J));
    PetscCall(CreateMatrixPlex(dm, J));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Installs DMCreateMatrix_PlexWarp() on dm, unless its DMCreateMatrix() is not PETSc's (then -info says so). A DM
   replaced in place later (DMSetFromOptions() refining or distributing it: DMPlexReplace_Internal()) gets PETSc's
   operations back, and with them PETSc's preallocation */
static PetscErrorCode WrapCreateMatrix(DM dm, DMPlexWarpHook *h)
{
  PetscFunctionBegin;
  if (dm->ops->creatematrix == DMCreateMatrix_PlexWarp) PetscFunctionReturn(PETSC_SUCCESS);
  if (!CreateMatrixPlex) {
    DM plex;

    PetscCall(DMPlexCreate(PETSC_COMM_SELF, &plex));
    CreateMatrixPlex = plex->ops->creatematrix;
    PetscCall(DMDestroy(&plex));
  }
  if (dm->ops->creatematrix != CreateMatrixPlex) {
    h->ownpattern = PETSC_FALSE;
    PetscCall(PetscInfo(dm, "DMCreateMatrix() was replaced: PETSc's preallocation kept\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  dm->ops->creatematrix = DMCreateMatrix_PlexWarp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook of dm under name: transient (TS) or not; ap: the Aliev-Panfilov model (DMPlexWarpHookCreateAP_Private(),
   which sets the model's data after this call), else the PetscDS's pointwise functions recognised or registered */
PetscErrorCode DMPlexWarpHookCreate_Private(DM dm, PetscBool transient, PetscBool ap, const char name[], DMPlexWarpHook **hook)
{
  DMPlexWarpHook *h;
  PetscBool       isplex, found, useres = PETSC_TRUE;
  char            why[256];

  PetscFunctionBegin;
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &isplex));
  PetscCheck(isplex, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The PetscWarpAsm hooks need a DMPLEX, not %s", ((PetscObject)dm)->type_name);
  PetscCall(CheckOverlap(dm));
  PetscCall(PetscNew(&h));
  h->transient = transient;
  h->cachebc   = PETSC_TRUE;
  h->ap        = ap;
  if (ap) { /* the model's own residual and Jacobian, whatever the PetscDS says */
    h->physics  = PETSCWARP_PHYSICS_LAPLACE;
    h->residual = PETSC_TRUE;
  } else {
    const PetscWarpPointwise *pw;
    PetscCall(DMPlexWarpPointwiseGet_Private(dm, &pw));
    if (pw) { /* user pointwise functions (DMPlexWarpSetPointwise()) instead of a built-in physics */
      PetscErrorCode ierr = DMPlexWarpPointwiseCheck_Private(dm, pw, transient);
      if (ierr) PetscCall(PetscFree(h));
      PetscCall(ierr);
      h->pointwise = PETSC_TRUE;
      h->pw        = *pw;
      h->residual  = PETSC_TRUE;
    }
  }
  if (!h->pointwise && !h->ap) {
    PetscCall(DMPlexWarpRecognizeJacobian_Private(dm, transient, &found, &h->physics, h->coef, &h->mass, why, sizeof(why)));
    if (!found) {
      PetscCall(PetscFree(h));
      SETERRQ(PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "The PetscDS's Jacobian is not a built-in physics of PetscWarpAsm: %s (or register device pointwise functions with DMPlexWarpSetPointwise())", why);
    }
    PetscCall(DMPlexWarpRecognizeResidual(dm, h->physics, h->coef, h->mass, &h->residual, h->f, h->why, sizeof(h->why)));
  }
  /* not PetscObjectOptionsBegin(): after DMSetFromOptions() the DM's options count as printed, -help would omit these */
  PetscOptionsBegin(PetscObjectComm((PetscObject)dm), ((PetscObject)dm)->prefix, "DMPlex petscwarp hook options", "DM");
  PetscCall(PetscOptionsBool("-dm_plex_warp_check", "Compare the first device Jacobian and residual with PETSc's", "DMPlexWarpSetSNESLocalFEM", h->check, &h->check, NULL));
  PetscCall(PetscOptionsBool("-dm_plex_warp_residual", "Compute the residual with PetscWarpAsm when the PetscDS's residual is recognised", "DMPlexWarpSetSNESLocalFEM", useres, &useres, NULL));
  PetscCall(PetscOptionsBool("-dm_plex_warp_cache_boundary", "Project the (time-independent) boundary values once and copy them at every residual", "DMPlexWarpSetSNESLocalFEM", h->cachebc, &h->cachebc, NULL));
  { /* several ranks with the device assembling: the device paths by default since the H100 run of 2026-11-23 (the earlier
       failures were the test's racing random draws and host vectors with mpiaijcusparse Jacobians, both mended);
       -dm_plex_warp_mpi_device 0 keeps PETSc's Jacobians and residuals there */
    PetscMPIInt size;
    PetscBool   dev, asmdev = PETSC_TRUE, mpidev = PETSC_TRUE, own = PETSC_TRUE;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)dm), &size));
    PetscCall(PetscWarpDeviceAvailable(&dev));
    PetscCall(PetscOptionsGetBool(((PetscObject)dm)->options, ((PetscObject)dm)->prefix, "-mat_warp_assembly_device", &asmdev, NULL));
    PetscCall(PetscOptionsBool("-dm_plex_warp_mpi_device", "On several ranks, use the device paths (Jacobians through MatSetValuesCOO, residuals through DMLocalToGlobal); 0: PETSc's", "DMPlexWarpSetSNESLocalFEM", mpidev, &mpidev, NULL));
    h->mpioff = (PetscBool)(size > 1 && dev && asmdev && !mpidev);
    /* one rank: DMCreateMatrix() wrapped (DMCreateMatrix_PlexWarp()) */
    PetscCall(PetscOptionsBool("-dm_plex_warp_preallocate", "One rank: DMCreateMatrix() gives the elements' pattern (by PetscWarpAsm) instead of PETSc's preallocation", "DMPlexWarpSetSNESLocalFEM", own, &own, NULL));
    h->ownpattern = (PetscBool)(own && size == 1);
  }
  PetscOptionsEnd();
  if (h->ap) { /* PETSc cannot compute this model without the user's auxiliary fields: the options that ask for it are ignored */
    if (h->check || h->mpioff || !useres)
      PetscCall(PetscInfo(dm, "The Aliev-Panfilov hook ignores -dm_plex_warp_check, -dm_plex_warp_residual 0 and -dm_plex_warp_mpi_device 0: PETSc's assembly of the model needs the program's own PetscDS with auxiliary fields\n"));
    h->check  = PETSC_FALSE;
    h->mpioff = PETSC_FALSE;
    useres    = PETSC_TRUE;
  }
  if (h->mpioff) {
    h->residual = PETSC_FALSE;
    PetscCall(PetscStrncpy(h->why, "several ranks with the device: -dm_plex_warp_mpi_device 0", sizeof(h->why)));
    PetscCall(PetscInfo(dm, "Jacobians by PETSc: %s\n", h->why));
  }
  if (h->residual && !useres) {
    h->residual = PETSC_FALSE;
    PetscCall(PetscStrncpy(h->why, "-dm_plex_warp_residual 0", sizeof(h->why)));
  }
  if (h->residual && !h->pointwise && !h->ap) { /* the Neumann fluxes (recognised with the residual) */
    PetscBool ok;
    PetscCall(DMPlexWarpRecognizeBoundary_Private(dm, &ok, &h->nflux, &h->flux, why, sizeof(why)));
    PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Boundary fluxes recognised, then not: %s", why);
  }
  if (h->ap) PetscCall(PetscInfo(dm, "Jacobians and residuals by PetscWarpAsm: the Aliev-Panfilov monodomain model\n"));
  else {
    if (h->pointwise) PetscCall(PetscInfo(dm, "Jacobians by PetscWarpAsm: the pointwise kernels %s (device kernels %s)\n", h->pw.name, h->pw.jacobian_device ? "compiled" : "not compiled: host twins"));
    else if (h->physics == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscInfo(dm, "Jacobians by PetscWarpAsm: Laplacian, kappa %g, mass %g\n", (double)h->coef[0], (double)h->mass));
    else PetscCall(PetscInfo(dm, "Jacobians by PetscWarpAsm: isotropic elasticity, lambda %g, mu %g, mass %g\n", (double)h->coef[0], (double)h->coef[1], (double)h->mass));
    if (h->residual && h->pointwise) PetscCall(PetscInfo(dm, "Residuals by PetscWarpAsm: the pointwise kernels %s\n", h->pw.name));
    else if (h->residual) PetscCall(PetscInfo(dm, "Residuals by PetscWarpAsm: f0 = %s(%g, %g, %g), %" PetscInt_FMT " constant Neumann fluxes\n", transient ? "c u_t + " : "", (double)h->f[0], (double)h->f[1], (double)h->f[2], h->nflux));
    else PetscCall(PetscInfo(dm, "Residuals by PETSc: %s\n", h->why));
  }
  PetscCall(DeviceVectors(dm));
  PetscCall(PetscObjectContainerCompose((PetscObject)dm, name, h, HookDestroy)); /* replaces (and frees) an earlier one */
  if (h->ownpattern) PetscCall(WrapCreateMatrix(dm, h));
  *hook = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DMPlexWarpHookGet_Private(DM dm, DMPlexWarpHook **h)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpHookQuery_Private(dm, h));
  PetscCheck(*h, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "Call DMPlexWarpSetSNESLocalFEM(), DMPlexWarpSetTSLocalFEM() or DMPlexWarpSetKSPLocalFEM() first");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembler, made at the first use (the section is final by then) */
PetscErrorCode DMPlexWarpHookGetAsm_Private(DM dm, DMPlexWarpHook *h)
{
  PetscFunctionBegin;
  if (h->wa) PetscFunctionReturn(PETSC_SUCCESS);
  if (h->pointwise) { /* no physics: the element matrices come from the user's kernels */
    PetscCall(DMPlexWarpPointwiseAsmCreate_Private(dm, &h->wa));
    PetscCall(PetscWarpAsmSetStrategy(h->wa, PETSCWARP_ASM_GLOBALNZ)); /* the reduction of given element matrices (or coo) */
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)h->wa, ((PetscObject)dm)->prefix));
    PetscCall(PetscWarpAsmSetFromOptions(h->wa));
    { /* -mat_warp_assembly names a strategy for the built-in physics too: given element matrices need globalnz or coo */
      PetscWarpAsmStrategy st;
      PetscCall(PetscWarpAsmGetStrategy(h->wa, &st));
      if (st != PETSCWARP_ASM_GLOBALNZ && st != PETSCWARP_ASM_COO) {
        PetscCall(PetscInfo(dm, "Pointwise kernels: -mat_warp_assembly %s computes element matrices itself; the user's are reduced by globalnz\n", PetscWarpAsmStrategies[st]));
        PetscCall(PetscWarpAsmSetStrategy(h->wa, PETSCWARP_ASM_GLOBALNZ));
      }
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->ap) { /* the conductivity tensors, the model with the recovery at the quadrature points, the previous voltage */
    PetscInt cStart, cEnd;
    PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
    PetscCheck(cEnd - cStart == h->apncells, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The DM has %" PetscInt_FMT " cells, the Aliev-Panfilov hook was given data for %" PetscInt_FMT ": install it on the final mesh", cEnd - cStart, h->apncells);
    PetscCall(DMPlexWarpAsmCreate(dm, PETSCWARP_PHYSICS_LAPLACE, &h->wa));
    PetscCall(PetscWarpAsmSetLaplace(h->wa, PETSCWARP_COEF_TENSOR, 0.0, h->apk));
    PetscCall(PetscWarpAsmSetStrategy(h->wa, PETSCWARP_ASM_ATOMIC)); /* a mass coefficient per quadrature point: the per-element kernels */
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)h->wa, ((PetscObject)dm)->prefix));
    PetscCall(PetscWarpAsmSetFromOptions(h->wa));
    PetscCall(PetscWarpAsmSetAlievPanfilov(h->wa, h->app, h->apstim));
    if (!h->apUn) {
      PetscCall(DMCreateLocalVector(dm, &h->apUn));
      PetscCall(VecZeroEntries(h->apUn));
      PetscCall(VecSetDM(h->apUn, NULL)); /* the DM holds the hook: no reference back */
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMPlexWarpAsmCreate(dm, h->physics, &h->wa));
  if (h->physics == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscWarpAsmSetLaplace(h->wa, PETSCWARP_COEF_CONSTANT, h->coef[0], NULL));
  else PetscCall(PetscWarpAsmSetElasticity(h->wa, h->coef[0], h->coef[1]));
  PetscCall(PetscWarpAsmSetSource(h->wa, h->f));
  if (h->residual && h->nflux) PetscCall(DMPlexWarpSetBoundaryFluxes_Private(dm, h->nflux, h->flux, h->wa));
  PetscCall(PetscWarpAsmSetStrategy(h->wa, PETSCWARP_ASM_ROWNZ)); /* the fastest on the H100 for every case measured (bench/RESULTS.md, 2026-11-23 fourth session); atomic where the affine path cannot serve every cell */
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)h->wa, ((PetscObject)dm)->prefix));
  PetscCall(PetscWarpAsmSetFromOptions(h->wa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether PetscWarpAsm can fill this matrix: an AIJ type (seqaij, seqaijcusparse, sharednz, seqaijellwarp) on one rank;
   on several, an MPIAIJ one (mpiaij, mpiaijcusparse, mpiaijellwarp, sharednz), filled through its MatSetValuesCOO() */
static PetscErrorCode Supported(Mat A, PetscBool *ok)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, size > 1 ? MATMPIAIJ : MATSEQAIJ, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Jacobian Jp (and J, unless it is Jp or a MATMFFD that only needs assembling) by PetscWarpAsm, with the mass shift
   when shift is given; *done is false, nothing assembled, when PetscWarpAsm cannot fill them: the caller assembles with
   PETSc. Pointwise functions (h->pointwise): at the local state locX (locX_t) and time t, shift the u_tShift (0 when
   NULL); the built-in physics ignore t, locX and locX_t */
PetscErrorCode DMPlexWarpHookAssemble_Private(DM dm, DMPlexWarpHook *h, const PetscReal *shift, PetscReal t, Vec locX, Vec locX_t, Mat J, Mat Jp, PetscBool *done)
{
  PetscBool okp, okj = PETSC_TRUE, mffd;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATMFFD, &mffd));
  PetscCall(DMPlexWarpMatchVectors_Private(dm, Jp)); /* also when PETSc assembles: the solve is wrong either way */
  if (J != Jp && !mffd) PetscCall(DMPlexWarpMatchVectors_Private(dm, J));
  if (h->mpioff) { /* see DMPlexWarpHookCreate_Private() */
    *done = PETSC_FALSE;
    h->nhost++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Supported(Jp, &okp));
  if (J != Jp && !mffd) PetscCall(Supported(J, &okj));
  *done = (PetscBool)(okp && okj);
  if (!*done) {
    h->nhost++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMPlexWarpHookGetAsm_Private(dm, h));
  if (h->ap) { /* at the local state; no shift (the mass term is the model's) */
    PetscCheck(locX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The Aliev-Panfilov Jacobian needs the local state");
    PetscCall(PetscWarpAsmAPAssembleJacobian(h->wa, locX, Jp));
    if (J != Jp) {
      if (mffd) {
        PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
      } else PetscCall(PetscWarpAsmAPAssembleJacobian(h->wa, locX, J));
    }
    h->ndevice++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (h->pointwise) {
    PetscCall(DMPlexWarpPointwiseJacobian_Private(dm, h, t, shift ? *shift : 0.0, locX, locX_t, J, Jp, mffd));
    if (J != Jp && mffd) {
      PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    }
    h->ndevice++;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (shift) PetscCall(PetscWarpAsmSetShift(h->wa, *shift));
  PetscCall(PetscWarpAsmAssembleMatrix(h->wa, Jp));
  if (J != Jp) {
    if (mffd) {
      PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    } else PetscCall(PetscWarpAsmAssembleMatrix(h->wa, J));
  }
  h->ndevice++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The celltype label kept sorted through PETSc's boundary projection. PETSc 3.26's DMPlexGetSimplexOrBoxCells() sorts
  every stratum of the celltype label (DMLabelGetStratumBounds()) and turns the label back into hash sets at its end,
  at every call, and DMPlexInsertBoundaryValues() calls it five times per essential condition (DMPlexLabelAddCells(),
  three times in DMProjectFunctionLabelLocal(), DMPlexLabelClearCells()): 7 of the 8.2 s of the first residual of the
  heat tutorial at 487 k unknowns on one core. Here every stratum is sorted once and the label is marked read-only
  (PETSc's flag for labels that keep their sorted form) for the projection only; the flag is restored on return (the
  label stays sorted, as after any PETSc lookup). The projection does not modify the celltype label: if it tried, PETSc
  would raise its "Read-only labels cannot be altered" error. Begin with on = PETSC_TRUE (*was: the flag before), end
  with on = PETSC_FALSE.
*/
static PetscErrorCode CellTypesSorted(DM dm, PetscBool on, PetscBool *was)
{
#if PETSC_VERSION_GE(3, 26, 0) && PETSC_VERSION_LT(3, 27, 0) /* the layout of PETSc's private DMLabel this relies on */
  DMLabel ct;

  PetscFunctionBegin;
  PetscCall(DMPlexGetCellTypeLabel(dm, &ct));
  if (on) {
    IS              vis;
    const PetscInt *v;
    PetscInt        nv;
    DM              cdm;
    DMField         cf;

    *was = ct->readonly;
    if (ct->readonly) PetscFunctionReturn(PETSC_SUCCESS);
    /* the coordinate DM and field made now if they are not yet: the projection would clone the DM for them, and
       DMLabelDuplicate() copies the read-only flag into the clone's labels for good */
    PetscCall(DMGetCoordinateDM(dm, &cdm));
    PetscCall(DMGetCoordinateField(dm, &cf));
    PetscCall(DMLabelGetValueIS(ct, &vis));
    PetscCall(ISGetLocalSize(vis, &nv));
    PetscCall(ISGetIndices(vis, &v));
    for (PetscInt i = 0; i < nv; i++) PetscCall(DMLabelGetStratumBounds(ct, v[i], NULL, NULL)); /* sorts the stratum */
    PetscCall(ISRestoreIndices(vis, &v));
    PetscCall(ISDestroy(&vis));
    ct->readonly = PETSC_TRUE;
  } else ct->readonly = *was;
  PetscFunctionReturn(PETSC_SUCCESS);
#else /* another PETSc: its own sorting as it is */
  PetscFunctionBegin;
  (void)dm;
  (void)on;
  (void)was;
  PetscFunctionReturn(PETSC_SUCCESS);
#endif
}

static PetscErrorCode InsertBoundaryValues(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t)
{
  PetscFunctionBegin;
  if (!h->transient) PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, locX, PETSC_MIN_REAL, NULL, NULL, NULL));
  else {
    PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, locX, t, NULL, NULL, NULL));
    if (locX_t) PetscCall(DMPlexInsertTimeDerivativeBoundaryValues(dm, PETSC_TRUE, locX_t, t, NULL, NULL, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's projection of the boundary values (and of their time derivative) into local vectors, with the celltype label
   sorted once (CellTypesSorted()) */
static PetscErrorCode InsertBoundary(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t)
{
  PetscErrorCode ierr;
  PetscBool      was = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(CellTypesSorted(dm, PETSC_TRUE, &was));
  ierr = InsertBoundaryValues(dm, h, t, locX, locX_t);
  PetscCall(CellTypesSorted(dm, PETSC_FALSE, &was)); /* also after an error: the label writable again */
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether any PetscDS of dm has an essential boundary condition (the only kind PETSc inserts into a PetscFE field's local
   vector, DMPlexInsertBoundaryValues_Plex()) */
static PetscErrorCode HasEssential(DM dm, PetscBool *has)
{
  PetscInt nds;

  PetscFunctionBegin;
  *has = PETSC_FALSE;
  PetscCall(DMGetNumDS(dm, &nds));
  for (PetscInt s = 0; s < nds && !*has; s++) {
    PetscDS  ds;
    PetscInt nbd;

    PetscCall(DMGetRegionNumDS(dm, s, NULL, NULL, &ds, NULL));
    PetscCall(PetscDSGetNumBoundary(ds, &nbd));
    for (PetscInt b = 0; b < nbd && !*has; b++) {
      DMBoundaryConditionType type;

      PetscCall(PetscDSGetBoundary(ds, b, NULL, &type, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
      if (type & DM_BC_ESSENTIAL) *has = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The boundary values of the local state (and of its time derivative) at time t, into locX (locX_t), as PETSc's
  DMPlexSNESComputeBoundaryFEM() (DMPlexTSComputeBoundary()) puts them there. PETSc projects them at every call
  (about 1 s at 120 k unknowns on one core); they are projected once into cached local vectors and copied (on the
  device with VECCUDA), unless they depend on time: the first call (of a TS) projects them at t and at t + 1.2345 and
  keeps projecting at every call when the two differ (-info says which).
*/
PetscErrorCode DMPlexWarpHookBoundary_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t)
{
  PetscFunctionBegin;
  if (!h->bcchecked) { /* no essential condition: nothing to insert, and no projection (whose first call sorts the
                          celltype label: about 1 s of the heart's first residual at 1.14 M unknowns on the H100 machine) */
    h->bcchecked = PETSC_TRUE;
    PetscCall(HasEssential(dm, &h->hasbc));
    if (!h->hasbc) PetscCall(PetscInfo(dm, "No essential boundary conditions: the local state gets no boundary values\n"));
  }
  if (!h->hasbc) PetscFunctionReturn(PETSC_SUCCESS);
  if (h->cachebc && !h->bcprobed) {
    h->bcprobed = PETSC_TRUE;
    /* the vectors keep the DM while PETSc projects into them (DM_BC_ESSENTIAL_FIELD conditions read the state's DM), then
       drop it: the DM owns them, and a reference back would never be released */
    PetscCall(DMCreateLocalVector(dm, &h->bc));
    PetscCall(DMCreateLocalVector(dm, &h->bc_t));
    PetscCall(VecZeroEntries(h->bc));
    PetscCall(VecZeroEntries(h->bc_t));
    PetscCall(InsertBoundary(dm, h, t, h->bc, h->bc_t));
    if (h->transient) {
      Vec       b, bt;
      PetscBool e1, e2;

      PetscCall(DMGetLocalVector(dm, &b));
      PetscCall(DMGetLocalVector(dm, &bt));
      PetscCall(VecZeroEntries(b));
      PetscCall(VecZeroEntries(bt));
      PetscCall(InsertBoundary(dm, h, t + 1.2345, b, bt));
      PetscCall(VecEqual(b, h->bc, &e1));
      PetscCall(VecEqual(bt, h->bc_t, &e2));
      h->bctimedep = (PetscBool) !(e1 && e2);
      PetscCall(DMRestoreLocalVector(dm, &b));
      PetscCall(DMRestoreLocalVector(dm, &bt));
    }
    PetscCall(VecSetDM(h->bc, NULL));
    PetscCall(VecSetDM(h->bc_t, NULL));
    PetscCall(PetscInfo(dm, "Boundary values %s\n", h->bctimedep ? "depend on time: projected at every call" : "cached (projected once)"));
    { /* VECCUDA: the projection wrote the host arrays; copy them to the device once (a synchronous move, offload mask
         both), so that every VecCopy() below is device-to-device instead of an asynchronous copy from pinned host memory
         (VecSeq_CUPM::CopyAsync() in src/vec/vec/impls/seq/cupm/vecseqcupm_impl.hpp) */
      const PetscScalar *a;

      PetscCall(VecGetArrayReadAndMemType(h->bc, &a, NULL));
      PetscCall(VecRestoreArrayReadAndMemType(h->bc, &a));
      PetscCall(VecGetArrayReadAndMemType(h->bc_t, &a, NULL));
      PetscCall(VecRestoreArrayReadAndMemType(h->bc_t, &a));
    }
  }
  if (!h->cachebc || h->bctimedep) PetscCall(InsertBoundary(dm, h, t, locX, locX_t));
  else {
    PetscCall(VecCopy(h->bc, locX));
    if (locX_t) PetscCall(VecCopy(h->bc_t, locX_t));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local state of the global X with its boundary values at t, as SNESComputeJacobian_DMLocal() makes it (for the
   SNES hook's PETSc assembly and pointwise functions, and for the Aliev-Panfilov hooks) */
PetscErrorCode DMPlexWarpHookLocalState_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec X, Vec *Xloc)
{
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, Xloc));
  PetscCall(DMPlexWarpHookBoundary_Private(dm, h, t, *Xloc, NULL));
  PetscCall(DMGlobalToLocalBegin(dm, X, INSERT_VALUES, *Xloc));
  PetscCall(DMGlobalToLocalEnd(dm, X, INSERT_VALUES, *Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  locF += the residual (SNES) or implicit function (TS) at the local state locX (and locX_t), boundary values included:
  by PetscWarpAsm when the PetscDS's residual was recognised, else by PETSc (counted; -dm_plex_warp_check compares the
  first one with PETSc's)
*/
PetscErrorCode DMPlexWarpHookResidual_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t, Vec locF)
{
  PetscFunctionBegin;
  if (!h->residual) {
    h->nrpetsc++;
    if (h->transient) PetscCall(DMPlexTSComputeIFunctionFEM(dm, t, locX, locX_t, locF, NULL));
    else PetscCall(DMPlexSNESComputeResidualFEM(dm, locX, locF, NULL));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMPlexWarpHookGetAsm_Private(dm, h));
  if (h->ap) PetscCall(PetscWarpAsmAPComputeResidualLocal(h->wa, locX, h->apUn, locF));
  else if (h->pointwise) PetscCall(DMPlexWarpPointwiseResidual_Private(dm, h, t, locX, h->transient ? locX_t : NULL, locF));
  else PetscCall(PetscWarpAsmComputeResidualLocal(h->wa, locX, h->transient ? locX_t : NULL, h->mass, locF));
  h->nrwarp++;
  if (h->check && !h->rchecked) {
    h->rchecked = PETSC_TRUE;
    PetscCall(DMPlexWarpHookCheckResidual_Private(dm, h, t, locX, locX_t, locF));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* F = the residual (as DMPlexWarpHookResidual_Private()) at the local state locX, summed into the global F over the
   ranks (a global function's: the TS form of the Aliev-Panfilov hook, the KSP hook's right-hand side) */
PetscErrorCode DMPlexWarpHookResidualGlobal_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec F)
{
  Vec locF;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, &locF));
  PetscCall(VecZeroEntries(locF));
  PetscCall(DMPlexWarpHookResidual_Private(dm, h, t, locX, NULL, locF));
  PetscCall(VecZeroEntries(F));
  PetscCall(DMLocalToGlobalBegin(dm, locF, ADD_VALUES, F));
  PetscCall(DMLocalToGlobalEnd(dm, locF, ADD_VALUES, F));
  PetscCall(DMRestoreLocalVector(dm, &locF));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -dm_plex_warp_check: the device Jacobian against PETSc's at the same state */
PetscErrorCode DMPlexWarpHookCheckJacobian_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t, PetscReal shift, Mat A)
{
  Mat       D, R;
  PetscReal nd, nr;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &D)); /* the values pulled from the device once */
  PetscCall(MatDuplicate(D, MAT_DO_NOT_COPY_VALUES, &R));
  if (h->transient) PetscCall(DMPlexTSComputeIJacobianFEM(dm, t, locX, locX_t, shift, R, R, NULL));
  else PetscCall(DMPlexSNESComputeJacobianFEM(dm, locX, R, R, NULL));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &nr));
  PetscCall(MatAXPY(D, -1.0, R, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscInfo(dm, "-dm_plex_warp_check: |J_warp - J_PETSc|_F / |J_PETSc|_F = %g\n", (double)(nr > 0 ? nd / nr : nd)));
  PetscCheck(nd <= 1e-10 * nr, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "The device Jacobian differs from PETSc's: relative Frobenius difference %g", (double)(nd / nr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -dm_plex_warp_check: the device residual (local, constrained dofs included) against PETSc's at the same state */
PetscErrorCode DMPlexWarpHookCheckResidual_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t, Vec locF)
{
  Vec       R;
  PetscReal nd, nr;

  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, &R));
  PetscCall(VecZeroEntries(R));
  if (h->transient) PetscCall(DMPlexTSComputeIFunctionFEM(dm, t, locX, locX_t, R, NULL));
  else PetscCall(DMPlexSNESComputeResidualFEM(dm, locX, R, NULL));
  PetscCall(VecNorm(R, NORM_2, &nr));
  PetscCall(VecAXPY(R, -1.0, locF));
  PetscCall(VecNorm(R, NORM_2, &nd));
  PetscCall(DMRestoreLocalVector(dm, &R));
  { /* the local vectors of every rank (a rank may have no cells) */
    PetscReal s[2] = {nr * nr, nd * nd};
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, s, 2, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)dm)));
    nr = PetscSqrtReal(s[0]);
    nd = PetscSqrtReal(s[1]);
  }
  PetscCall(PetscInfo(dm, "-dm_plex_warp_check: |r_warp - r_PETSc| / |r_PETSc| = %g\n", (double)(nr > 0 ? nd / nr : nd)));
  PetscCheck(nd <= 1e-10 * PetscMax(nr, PETSC_SMALL), PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "The device residual differs from PETSc's: relative difference %g", (double)(nr > 0 ? nd / nr : nd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpGetAsm - Gets the `PetscWarpAsm` that `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`,
  `DMPlexWarpSetKSPLocalFEM()` or `DMPlexWarpSetSNESLocalAlievPanfilov()` installed (made at the first call)

  Collective the first time (it may make the assembler), then Not Collective

  Input Parameter:
. dm - the `DMPLEX`

  Output Parameter:
. wa - the assembler (owned by the DM), for `PetscWarpAsmGetInfo()`, `PetscWarpAsmView()` or settings

  Level: intermediate

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`, `DMPlexWarpSetKSPLocalFEM()`, `PetscWarpAsm`
@*/
PetscErrorCode DMPlexWarpGetAsm(DM dm, PetscWarpAsm *wa)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(wa, 2);
  PetscCall(DMPlexWarpHookGet_Private(dm, &h));
  PetscCall(DMPlexWarpHookGetAsm_Private(dm, h));
  *wa = h->wa;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpGetResidualCount - Gets how many residuals the hook computed with `PetscWarpAsm` and how many it left to
  PETSc

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`, with `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()` or `DMPlexWarpSetKSPLocalFEM()` called

  Output Parameters:
+ nwarp  - residuals (`SNES` functions, `TS` implicit functions, `KSP` right-hand sides) computed by `PetscWarpAsmComputeResidualLocal()`
           (on the device or by the host twin), or `NULL`
- npetsc - residuals computed by PETSc (`DMPlexSNESComputeResidualFEM()`, `DMPlexTSComputeIFunctionFEM()`) because the
           `PetscDS`'s residual was not recognised (the reason is printed with `-info`), or `NULL`

  Level: intermediate

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`, `DMPlexWarpRecognizeResidual()`
@*/
PetscErrorCode DMPlexWarpGetResidualCount(DM dm, PetscInt *nwarp, PetscInt *npetsc)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookGet_Private(dm, &h));
  if (nwarp) *nwarp = h->nrwarp;
  if (npetsc) *npetsc = h->nrpetsc;
  PetscFunctionReturn(PETSC_SUCCESS);
}
