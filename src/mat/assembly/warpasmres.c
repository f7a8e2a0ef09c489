/*
  PetscWarpAsm residuals: the residual of the built-in physics at a state, computed per cell on the device (or by the
  host twin of the kernel) from a local vector and added into a local vector (kernels: src/kernels/warpasm_res*).
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpasmreskernels.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

PetscErrorCode PetscWarpAsmResidualReset_Private(PetscWarpAsm a)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(a->l2d));
#if PetscDefined(HAVE_CUDA)
  if (a->d_l2d) PetscCallCUDA(cudaFree(a->d_l2d));
#endif
  a->d_l2d = NULL;
  a->nl2d  = 0;
  a->nloc  = 0;
  PetscCall(PetscWarpAsmBdResidualReset_Private(a)); /* the faces index the cells' local dofs */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmLocalMapDevice_Private(PetscWarpAsm wa)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (!wa->d_l2d && wa->nl2d) {
    PetscCallCUDA(cudaMalloc((void **)&wa->d_l2d, sizeof(int) * (size_t)wa->nl2d));
    PetscCallCUDA(cudaMemcpy(wa->d_l2d, wa->l2d, sizeof(int) * (size_t)wa->nl2d, cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu(sizeof(int) * (PetscLogDouble)wa->nl2d));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetLocalElements - Sets the element-to-local-dof map used by residuals: where each element dof lives in a
  local vector (one with the constrained dofs, as `DMGetLocalVector()` makes it)

  Collective

  Input Parameters:
+ wa   - the assembly object, its elements set (`PetscWarpAsmSetElements()`)
. nloc - size of the local vectors
- l2d  - `l2d[cell*nel + i]`: index in the local vector of element dof i, in [0, nloc) (constrained dofs included: their
         values are the boundary values the state carries)

  Level: intermediate

  Note:
  The array is copied. `DMPlexWarpAsmCreate()` sets it from the closure indices of the local section.

.seealso: `PetscWarpAsm`, `PetscWarpAsmComputeResidualLocal()`, `PetscWarpAsmSetElements()`, `DMPlexWarpAsmCreate()`
@*/
PetscErrorCode PetscWarpAsmSetLocalElements(PetscWarpAsm wa, PetscInt nloc, const PetscInt l2d[])
{
  PetscInt n;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(wa->nel > 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Call PetscWarpAsmSetElements() before PetscWarpAsmSetLocalElements()");
  PetscCheck(nloc >= 0 && nloc <= PETSC_INT32_MAX, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Local size %" PetscInt_FMT " is out of the range of 32-bit indices", nloc);
  n = wa->ncells * wa->nel;
  if (n) PetscAssertPointer(l2d, 3);
  PetscCall(PetscWarpAsmResidualReset_Private(wa));
  PetscCall(PetscMalloc1(PetscMax(n, 1), &wa->l2d)); /* not NULL on a rank without cells: the map is set */
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(l2d[k] >= 0 && l2d[k] < nloc, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "Cell %" PetscInt_FMT " dof %" PetscInt_FMT " has local index %" PetscInt_FMT ", not in [0, %" PetscInt_FMT ")", k / wa->nel, k % wa->nel, l2d[k], nloc);
    wa->l2d[k] = (int)l2d[k];
  }
  wa->nloc = nloc;
  wa->nl2d = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Work of one residual: per (cell, q) the state's gradient, the flux, its pull-back, u_t; per entry its sum over q */
static PetscLogDouble ResidualFlops(PetscWarpAsm a, PetscBool ut)
{
  const PetscLogDouble dim = (PetscLogDouble)a->dim, nc = (PetscLogDouble)a->nc, nel = (PetscLogDouble)a->nel, nq = (PetscLogDouble)a->nq;
  return (PetscLogDouble)a->ncells * nq * (2 * nel * dim + 4 * nc * dim * dim + 4 * nc * dim + (ut ? 2 * nel : 0) + nel * (2 * dim + 2));
}

/* The arrays of the local state U (Ut: its time derivative, or NULL) and, when F is given, of the local residual F, after
   checking their sizes against the element map: in device memory when usedevice and every one of them is there, else the
   host arrays (la->device says which) */
PetscErrorCode PetscWarpAsmGetLocalArrays_Private(PetscWarpAsm wa, PetscBool usedevice, Vec U, Vec Ut, Vec F, PetscWarpAsmLocalArrays *la)
{
  PetscInt     nu, nf = wa->nloc, nt = 0;
  PetscMemType mtu, mtt = PETSC_MEMTYPE_HOST, mtf = PETSC_MEMTYPE_HOST;
  PetscBool    alldev, allhost;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(la, sizeof(*la)));
  PetscCall(VecGetLocalSize(U, &nu));
  if (F) PetscCall(VecGetLocalSize(F, &nf));
  if (Ut) PetscCall(VecGetLocalSize(Ut, &nt));
  PetscCheck(nu == wa->nloc && nf == wa->nloc && (!Ut || nt == wa->nloc), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Local vectors of sizes %" PetscInt_FMT " (state), %" PetscInt_FMT " (residual)%s, the element map has %" PetscInt_FMT " local dofs", nu, nf, Ut ? " and that of u_t" : "", wa->nloc);
  PetscCall(VecGetArrayReadAndMemType(U, &la->u, &mtu));
  if (Ut) PetscCall(VecGetArrayReadAndMemType(Ut, &la->ut, &mtt));
  if (F) PetscCall(VecGetArrayAndMemType(F, &la->f, &mtf));
  alldev     = (PetscBool)(!PetscMemTypeHost(mtu) && (!Ut || !PetscMemTypeHost(mtt)) && (!F || !PetscMemTypeHost(mtf)));
  allhost    = (PetscBool)(PetscMemTypeHost(mtu) && PetscMemTypeHost(mtt) && PetscMemTypeHost(mtf));
  la->device = (PetscBool)(usedevice && alldev);
  if (!la->device && !allhost) { /* vectors in both memories, or the device not in use: the host arrays */
    PetscCall(VecRestoreArrayReadAndMemType(U, &la->u));
    if (Ut) PetscCall(VecRestoreArrayReadAndMemType(Ut, &la->ut));
    if (F) PetscCall(VecRestoreArrayAndMemType(F, &la->f));
    PetscCall(VecGetArrayRead(U, &la->u));
    if (Ut) PetscCall(VecGetArrayRead(Ut, &la->ut));
    if (F) PetscCall(VecGetArray(F, &la->f));
    la->plain = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmRestoreLocalArrays_Private(Vec U, Vec Ut, Vec F, PetscWarpAsmLocalArrays *la)
{
  PetscFunctionBegin;
  if (la->plain) {
    PetscCall(VecRestoreArrayRead(U, &la->u));
    if (Ut) PetscCall(VecRestoreArrayRead(Ut, &la->ut));
    if (F) PetscCall(VecRestoreArray(F, &la->f));
  } else {
    PetscCall(VecRestoreArrayReadAndMemType(U, &la->u));
    if (Ut) PetscCall(VecRestoreArrayReadAndMemType(Ut, &la->ut));
    if (F) PetscCall(VecRestoreArrayAndMemType(F, &la->f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmComputeResidualLocal - Adds the residual of the built-in physics at a state into a local vector,
  r = K u + mass M u_t + F, computed per cell on the device when the vectors are there (or by the host twin of the kernel)

  Collective

  Input Parameters:
+ wa   - the assembly object, with its element-to-local-dof map (`PetscWarpAsmSetLocalElements()`)
. U    - the local state, boundary values included
. Ut   - its time derivative (local), or `NULL`
- mass - the coefficient of the mass term on u_t (ignored without `Ut`)

  Output Parameter:
. F - the local vector the residual is added to (zero it first for the residual alone)

  Level: intermediate

  Notes:
  Per cell, r_e[(a,c)] = int grad phi_a . flux_c + phi_a (mass u_t,c + f[c]) (plus, on the boundary faces set by
  `PetscWarpAsmSetBoundaryFluxes()`, int_f phi_a g_c dS) with the physics of
  `PetscWarpAsmSetLaplace()` (flux = K grad u) or `PetscWarpAsmSetElasticity()` (flux_c = row c of the stress
  mu (grad u + grad u^T) + lambda div(u) I) and the constant f of `PetscWarpAsmSetSource()`, which is the f0 of PETSc's
  pointwise residual (`PetscDSSetResidual()`): a body force b enters as f = -b. This is what
  `DMPlexSNESComputeResidualFEM()` (and `DMPlexTSComputeIFunctionFEM()` with f0 = mass u_t + f) adds for the pointwise
  residual of the physics; the shift (`PetscWarpAsmSetShift()`) is not part of it. The integrals are evaluated at the
  quadrature points (the state's gradient, then the flux), which is K_e u_e + mass M_e ut_e + F_e with the element
  matrices of `PetscWarpAsmAssembleMatrix()`.

  With `VECCUDA` vectors (and the device in use, `PetscWarpAsmUseDevice()`), everything stays on the device: one kernel,
  atomics into F. Otherwise the host twin runs on the host arrays.

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetLocalElements()`, `PetscWarpAsmSetSource()`, `DMPlexWarpSetSNESLocalFEM()`,
          `DMPlexWarpSetTSLocalFEM()`
@*/
PetscErrorCode PetscWarpAsmComputeResidualLocal(PetscWarpAsm wa, Vec U, Vec Ut, PetscReal mass, Vec F)
{
  PetscWarpFE             fe;
  PetscWarpMesh           mesh;
  PetscWarpPhys           ph;
  PetscWarpAsmLocalArrays la;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(U, VEC_CLASSID, 2);
  if (Ut) PetscValidHeaderSpecific(Ut, VEC_CLASSID, 3);
  PetscValidHeaderSpecific(F, VEC_CLASSID, 5);
  PetscCheck(wa->l2d && wa->nl2d == wa->ncells * wa->nel, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Set the element-to-local-dof map with PetscWarpAsmSetLocalElements() (after PetscWarpAsmSetElements()) before computing residuals");
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Residual, U, F, 0, 0));
  /* the device when it is in use and every vector is there */
  PetscCall(PetscWarpAsmGetLocalArrays_Private(wa, wa->usedevice, U, Ut, F, &la));
  PetscCall(PetscWarpAsmDescribe_Private(wa, la.device, &fe, &mesh, &ph));
  if (!la.device) {
    int err = PetscWarpAsmResidualHost(&fe, &mesh, &ph, (double)mass, wa->l2d, la.u, la.ut, la.f);
    PetscCheck(err == PETSCWARP_ASM_OK, PETSC_COMM_SELF, err == PETSCWARP_ASM_ERR_MEM ? PETSC_ERR_MEM : PETSC_ERR_SUP, "Host residual kernel failed (%d)", err);
    PetscCall(PetscLogFlops(ResidualFlops(wa, (PetscBool) !!Ut)));
    PetscCall(PetscWarpAsmBdResidual_Private(wa, PETSC_FALSE, la.f));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;

    PetscCall(PetscWarpAsmLocalMapDevice_Private(wa));
    /* PETSc's current stream: the one of the vectors' operations and of PetscSF's links (PetscSFLinkSetUp_CUPM() takes
       the current device context's stream, src/vec/is/sf/impls/basic/cupm/sfcupm_impl.hpp), so what follows on F
       (DMLocalToGlobal(): pack, then with -use_gpu_aware_mpi 0 a copy to the host after a synchronisation of that stream,
       PetscSFLinkSyncStreamBeforeCallMPI() in sfpack.h) is ordered after the kernel without a synchronisation here */
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpAsmResidualCUDA(&fe, &mesh, &ph, (double)mass, wa->d_l2d, la.u, la.ut, la.f, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(ResidualFlops(wa, (PetscBool) !!Ut)));
    PetscCall(PetscWarpAsmBdResidual_Private(wa, PETSC_TRUE, la.f));
  }
#endif
  PetscCall(PetscWarpAsmRestoreLocalArrays_Private(U, Ut, F, &la));
  wa->nresiduals++;
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Residual, U, F, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
