/*
  PetscWarpAsm boundary residuals: the Neumann term int_f phi_a g_c dS of constant fluxes g on boundary faces, added into
  a local residual on the device (or by the host twin of the kernel) with the residual of the cells
  (kernels: src/kernels/warpasm_bdres*).
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpasmreskernels.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

PetscErrorCode PetscWarpAsmBdResidualReset_Private(PetscWarpAsm a)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(a->bfcell, a->bfset, a->bW, a->bg));
#if PetscDefined(HAVE_CUDA)
  if (a->d_bfcell) PetscCallCUDA(cudaFree(a->d_bfcell));
  if (a->d_bfset) PetscCallCUDA(cudaFree(a->d_bfset));
  if (a->d_bW) PetscCallCUDA(cudaFree(a->d_bW));
  if (a->d_bg) PetscCallCUDA(cudaFree(a->d_bg));
#endif
  a->d_bfcell = a->d_bfset = NULL;
  a->d_bW = a->d_bg = NULL;
  a->nbf = a->nbset = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetBoundaryFluxes - Sets boundary faces with constant (Neumann) fluxes, whose term int_f phi_a g_c dS
  `PetscWarpAsmComputeResidualLocal()` adds to the residual

  Collective

  Input Parameters:
+ wa     - the assembly object, with its elements, reference element and element-to-local-dof map set
           (`PetscWarpAsmSetLocalElements()`)
. nfaces - the number of boundary faces on this rank (a face may come several times, once per flux)
. fcell  - `fcell[f]`: the cell (in [0, ncells)) whose basis functions the face f integrates
. fset   - `fset[f]`: the flux of face f, in [0, nsets)
. W      - `W[f*nb + a]`: the integral over the face f of the cell's scalar basis function a (nb of them,
           `PetscWarpAsmSetReference()`), the face's quadrature and geometry folded in
. nsets  - the number of fluxes
- g      - `g[s*nc + c]`: component c of flux s

  Level: intermediate

  Notes:
  The arrays are copied; later calls replace them, `nfaces` = 0 removes them, and so does `PetscWarpAsmSetLocalElements()`.
  The term is r[(a, c)] += g_c W[f*nb + a] for each face f, in the local dofs of the face's cell: PETSc's boundary
  residual (`DMAddBoundary()` with `DM_BC_NATURAL` and a boundary f0 = g) for a flux that depends on nothing.
  `DMPlexWarpSetSNESLocalFEM()` computes W with PETSc's face geometry and quadrature and sets the fluxes it recognised.

.seealso: `PetscWarpAsm`, `PetscWarpAsmComputeResidualLocal()`, `PetscWarpAsmSetLocalElements()`, `DMPlexWarpSetSNESLocalFEM()`
@*/
PetscErrorCode PetscWarpAsmSetBoundaryFluxes(PetscWarpAsm wa, PetscInt nfaces, const PetscInt fcell[], const PetscInt fset[], const PetscReal W[], PetscInt nsets, const PetscReal g[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(wa->l2d && wa->nb > 0 && wa->nc > 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Set the reference element and the element-to-local-dof map (PetscWarpAsmSetReference(), PetscWarpAsmSetLocalElements()) before the boundary fluxes");
  PetscCheck(nfaces >= 0 && nsets >= 0 && nfaces * wa->nb * wa->nc <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " faces and %" PetscInt_FMT " fluxes: out of range", nfaces, nsets);
  PetscCall(PetscWarpAsmBdResidualReset_Private(wa));
  if (!nfaces) PetscFunctionReturn(PETSC_SUCCESS);
  PetscAssertPointer(fcell, 3);
  PetscAssertPointer(fset, 4);
  PetscAssertPointer(W, 5);
  PetscAssertPointer(g, 7);
  PetscCall(PetscMalloc4(nfaces, &wa->bfcell, nfaces, &wa->bfset, nfaces * wa->nb, &wa->bW, nsets * wa->nc, &wa->bg));
  for (PetscInt f = 0; f < nfaces; f++) {
    PetscCheck(fcell[f] >= 0 && fcell[f] < wa->ncells && fset[f] >= 0 && fset[f] < nsets, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Face %" PetscInt_FMT ": cell %" PetscInt_FMT " (of %" PetscInt_FMT ") or flux %" PetscInt_FMT " (of %" PetscInt_FMT ") out of range", f, fcell[f], wa->ncells, fset[f], nsets);
    wa->bfcell[f] = (int)fcell[f];
    wa->bfset[f]  = (int)fset[f];
  }
  for (PetscInt k = 0; k < nfaces * wa->nb; k++) wa->bW[k] = W[k];
  for (PetscInt k = 0; k < nsets * wa->nc; k++) wa->bg[k] = g[k];
  wa->nbf   = nfaces;
  wa->nbset = nsets;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmBdResidual_Private(PetscWarpAsm a, PetscBool device, PetscScalar *f)
{
  const PetscLogDouble flops = 2.0 * (PetscLogDouble)a->nbf * a->nb * a->nc;

  PetscFunctionBegin;
  if (!a->nbf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(PETSCWARPASM_BdResidual, 0, 0, 0, 0));
  if (!device) {
    int err = PetscWarpAsmBdResidualHost((int)a->nbf, (int)a->nb, (int)a->nc, a->bfcell, a->bfset, a->bW, a->bg, a->l2d, f);
    PetscCheck(err == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_SUP, "Host boundary residual kernel failed (%d)", err);
    PetscCall(PetscLogFlops(flops));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;

    if (!a->d_bfcell) {
      const size_t nf = (size_t)a->nbf;
      PetscCallCUDA(cudaMalloc((void **)&a->d_bfcell, sizeof(int) * nf));
      PetscCallCUDA(cudaMalloc((void **)&a->d_bfset, sizeof(int) * nf));
      PetscCallCUDA(cudaMalloc((void **)&a->d_bW, sizeof(double) * nf * a->nb));
      PetscCallCUDA(cudaMalloc((void **)&a->d_bg, sizeof(double) * (size_t)PetscMax(a->nbset * a->nc, 1)));
      PetscCallCUDA(cudaMemcpy(a->d_bfcell, a->bfcell, sizeof(int) * nf, cudaMemcpyHostToDevice));
      PetscCallCUDA(cudaMemcpy(a->d_bfset, a->bfset, sizeof(int) * nf, cudaMemcpyHostToDevice));
      PetscCallCUDA(cudaMemcpy(a->d_bW, a->bW, sizeof(double) * nf * a->nb, cudaMemcpyHostToDevice));
      PetscCallCUDA(cudaMemcpy(a->d_bg, a->bg, sizeof(double) * (size_t)a->nbset * a->nc, cudaMemcpyHostToDevice));
      PetscCall(PetscLogCpuToGpu((PetscLogDouble)(sizeof(int) * 2 * nf + sizeof(double) * (nf * a->nb + (size_t)a->nbset * a->nc))));
    }
    PetscCheck(a->d_l2d, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The element-to-local-dof map is not on the device");
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpAsmBdResidualCUDA((int)a->nbf, (int)a->nb, (int)a->nc, a->d_bfcell, a->d_bfset, a->d_bW, a->d_bg, a->d_l2d, f, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(flops));
  }
#endif
  PetscCall(PetscLogEventEnd(PETSCWARPASM_BdResidual, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
