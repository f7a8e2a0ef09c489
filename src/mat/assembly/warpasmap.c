/*
  PetscWarpAsm with the Aliev-Panfilov monodomain model (issue 8): the recovery variable kept at the quadrature points
  (host or device memory), the reaction and its consistent tangent evaluated there by one kernel
  (src/kernels/warpasm_ap*), and the residual and Jacobian of a backward Euler step through the Laplace physics with a
  per-point source (PetscWarpPhys.fq) and a per-point mass coefficient (PetscWarpPhys.cq).
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpasmapkernels.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

enum {
  AP_NONE,
  AP_CQ,
  AP_FQ
};

struct _n_PetscWarpAsmAP {
  double    p[PETSCWARP_AP_NPARAM];
  PetscInt  n;                           /* ncells*nq */
  PetscInt  ncells;                      /* stimulus mask entries */
  double   *rn, *rq, *pq, *stim;         /* host: recovery of the previous step, of the current state, per-point work, mask */
  double   *d_rn, *d_rq, *d_pq, *d_stim; /* device copies */
  PetscBool rndev;                       /* rn is current on the device (else on the host) */
  PetscBool pqdev;                       /* pq was computed on the device */
  int       use;                         /* what the next kernel call takes from pq: AP_CQ, AP_FQ or nothing */
  PetscInt  npoints;                     /* evaluations */
};

static PetscErrorCode DFree(double **p)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (*p) PetscCallCUDA(cudaFree(*p));
#endif
  *p = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmAPReset_Private(PetscWarpAsm wa)
{
  struct _n_PetscWarpAsmAP *ap = wa->ap;

  PetscFunctionBegin;
  if (!ap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(ap->rn)); /* separate allocations: rn and rq swap at each step */
  PetscCall(PetscFree(ap->rq));
  PetscCall(PetscFree(ap->pq));
  PetscCall(PetscFree(ap->stim));
  PetscCall(DFree(&ap->d_rn));
  PetscCall(DFree(&ap->d_rq));
  PetscCall(DFree(&ap->d_pq));
  PetscCall(DFree(&ap->d_stim));
  PetscCall(PetscFree(wa->ap));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n doubles between host h and device *d (allocated when NULL), on PETSc's stream; downloads wait for it */
static PetscErrorCode Move(PetscInt n, double *h, double **d, PetscBool up)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  {
    cudaStream_t st;
    size_t       bytes = sizeof(double) * (size_t)n;
    if (!n) PetscFunctionReturn(PETSC_SUCCESS);
    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (!*d) PetscCallCUDA(cudaMalloc((void **)d, bytes));
    if (up) {
      PetscCallCUDA(cudaMemcpyAsync(*d, h, bytes, cudaMemcpyHostToDevice, st));
      PetscCallCUDA(cudaStreamSynchronize(st)); /* h may change after the call */
      PetscCall(PetscLogCpuToGpu((PetscLogDouble)bytes));
    } else {
      PetscCallCUDA(cudaMemcpyAsync(h, *d, bytes, cudaMemcpyDeviceToHost, st));
      PetscCallCUDA(cudaStreamSynchronize(st));
      PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
    }
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "PETSc has no CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rn current in the memory asked for */
static PetscErrorCode RecoveryTo(struct _n_PetscWarpAsmAP *ap, PetscBool device)
{
  PetscFunctionBegin;
  if (ap->rndev == device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Move(ap->n, ap->rn, &ap->d_rn, device));
  ap->rndev = device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmAPDescribe_Private(PetscWarpAsm wa, PetscBool device, PetscWarpPhys *ph)
{
  struct _n_PetscWarpAsmAP *ap = wa->ap;

  PetscFunctionBegin;
  ph->cq = ph->fq = NULL;
  if (!ap || ap->use == AP_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  if (ap->pqdev != device) { /* computed in the other memory (e.g. the state on the device, the matrix on the host) */
    PetscCall(Move(ap->n, ap->pq, &ap->d_pq, device));
    ap->pqdev = device;
  }
  if (ap->use == AP_CQ) ph->cq = device ? ap->d_pq : ap->pq;
  else ph->fq = device ? ap->d_pq : ap->pq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetAP(PetscWarpAsm wa, struct _n_PetscWarpAsmAP **ap)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(wa->ap, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Call PetscWarpAsmSetAlievPanfilov() first");
  *ap = wa->ap;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmSetAlievPanfilov - Adds the Aliev-Panfilov reaction of the monodomain model to a `PetscWarpAsm` of the
  Laplace physics (the conductivity), with the recovery variable at the quadrature points

  Collective

  Input Parameters:
+ wa   - the assembly object: elements, local element map (`PetscWarpAsmSetLocalElements()`), mesh and reference element
         set, the physics `PETSCWARP_PHYSICS_LAPLACE` (the conductivity: `PETSCWARP_COEF_TENSOR` for fibres)
. p    - the model's parameters, `PETSCWARP_AP_NPARAM` values indexed by `PETSCWARP_AP_C`, ... (include/petscwarp/alievpanfilov.h),
         or `NULL` for `PetscWarpAPDefaults()`
- stim - the stimulus mask, one value per cell (the stimulus current at a point of the cell is
         p[`PETSCWARP_AP_STIM`] * stim[cell]), or `NULL` for none

  Level: intermediate

  Notes:
  One backward Euler step of dV/dt = div(D grad V) + f(V, r) + I_stim, dr/dt = g(V, r) solves the nonlinear system
  R(V) = M (V - V_n)/dt + K V - F(V) = 0 for the nodal voltages, the recovery r being solved at each quadrature point for
  the current V (the global-local splitting of Wong, Kuhl and Darve): `PetscWarpAsmAPComputeResidualLocal()` computes R,
  `PetscWarpAsmAPAssembleJacobian()` its consistent Jacobian K + M_c (c = 1/dt - df/dV at each point),
  `PetscWarpAsmAPAdvance()` accepts the step. The recovery starts at 0.

  The same discrete problem in PETSc's pointwise form (f0 = (u - u_n)/dt - f - I_stim, f1 = D grad u,
  g0 = 1/dt - df/dV, g3 = D; `PetscWarpAPLocal()` at each point) gives the same residuals and Jacobians when the recovery
  of the previous step reaches the pointwise functions exactly at the quadrature points (e.g. one point per cell and a
  piecewise constant auxiliary field: see tutorials/heartproblem.c).

.seealso: `PetscWarpAsm`, `PetscWarpAsmAPSetStep()`, `PetscWarpAsmAPComputeResidualLocal()`, `PetscWarpAsmAPAssembleJacobian()`,
          `PetscWarpAsmAPAdvance()`, `PetscWarpAsmSetLaplace()`
@*/
PetscErrorCode PetscWarpAsmSetAlievPanfilov(PetscWarpAsm wa, const PetscReal p[], const PetscReal stim[])
{
  struct _n_PetscWarpAsmAP *ap;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(wa, PETSCWARPASM_CLASSID, 1);
  PetscCheck(wa->physics == PETSCWARP_PHYSICS_LAPLACE && wa->nc == 1, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_WRONGSTATE, "The Aliev-Panfilov model needs the Laplace physics of a scalar element (PetscWarpAsmSetLaplace())");
  PetscCheck(wa->nq > 0 && wa->l2d, PetscObjectComm((PetscObject)wa), PETSC_ERR_ORDER, "Set the reference element and the local element map before PetscWarpAsmSetAlievPanfilov()");
  PetscCall(PetscWarpAsmAPReset_Private(wa));
  PetscCall(PetscNew(&wa->ap));
  ap = wa->ap;
  if (p) {
    for (int k = 0; k < PETSCWARP_AP_NPARAM; k++) ap->p[k] = (double)p[k];
  } else PetscWarpAPDefaults(ap->p);
  PetscCheck(ap->p[PETSCWARP_AP_DT] > 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "The time step must be positive, not %g", ap->p[PETSCWARP_AP_DT]);
  ap->n      = wa->ncells * wa->nq;
  ap->ncells = stim ? wa->ncells : 0;
  PetscCall(PetscCalloc1(ap->n, &ap->rn));
  PetscCall(PetscCalloc1(ap->n, &ap->rq));
  PetscCall(PetscCalloc1(ap->n, &ap->pq));
  PetscCall(PetscCalloc1(ap->ncells, &ap->stim));
  if (stim) PetscCall(PetscArraycpy(ap->stim, stim, ap->ncells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPSetStep - Sets the time step and the stimulus amplitude of the next Aliev-Panfilov step

  Logically Collective

  Input Parameters:
+ wa   - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`
. dt   - the time step (positive)
- stim - the stimulus amplitude (0: no stimulus)

  Level: intermediate

.seealso: `PetscWarpAsmSetAlievPanfilov()`
@*/
PetscErrorCode PetscWarpAsmAPSetStep(PetscWarpAsm wa, PetscReal dt, PetscReal stim)
{
  struct _n_PetscWarpAsmAP *ap;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  PetscCheck(dt > 0, PetscObjectComm((PetscObject)wa), PETSC_ERR_ARG_OUTOFRANGE, "The time step must be positive, not %g", (double)dt);
  ap->p[PETSCWARP_AP_DT]   = (double)dt;
  ap->p[PETSCWARP_AP_STIM] = (double)stim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model at every point for the local state U (and Un, for the residual's source): r into rq, with out the source
   (AP_FQ) or the mass coefficient (AP_CQ) into pq; on the device when it is in use and the vectors are there */
static PetscErrorCode Points(PetscWarpAsm wa, Vec U, Vec Un, int out, PetscBool *ondevice)
{
  struct _n_PetscWarpAsmAP *ap = wa->ap;
  PetscWarpFE               fe;
  PetscWarpMesh             mesh;
  PetscWarpPhys             ph;
  PetscWarpAP               k;
  const PetscScalar        *u, *un   = NULL;
  PetscMemType              mtu, mtn = PETSC_MEMTYPE_DEVICE;
  PetscInt                  nu, nn   = 0;
  PetscBool                 device;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(U, VEC_CLASSID, 2);
  if (Un) PetscValidHeaderSpecific(Un, VEC_CLASSID, 3);
  PetscCall(VecGetLocalSize(U, &nu));
  if (Un) PetscCall(VecGetLocalSize(Un, &nn));
  PetscCheck(nu == wa->nloc && (!Un || nn == wa->nloc), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Local vectors of sizes %" PetscInt_FMT " and %" PetscInt_FMT ", the element map has %" PetscInt_FMT " local dofs", nu, nn, wa->nloc);
  PetscCall(PetscLogEventBegin(PETSCWARPASM_APPoints, U, 0, 0, 0));
  PetscCall(VecGetArrayReadAndMemType(U, &u, &mtu));
  if (Un) PetscCall(VecGetArrayReadAndMemType(Un, &un, &mtn));
  device = (PetscBool)(wa->usedevice && !PetscMemTypeHost(mtu) && !PetscMemTypeHost(mtn));
  if (!device) {
    PetscCall(VecRestoreArrayReadAndMemType(U, &u));
    if (Un) PetscCall(VecRestoreArrayReadAndMemType(Un, &un));
    PetscCall(VecGetArrayRead(U, &u));
    if (Un) PetscCall(VecGetArrayRead(Un, &un));
  }
  ap->use = AP_NONE;
  PetscCall(PetscWarpAsmDescribe_Private(wa, device, &fe, &mesh, &ph));
  PetscCall(RecoveryTo(ap, device));
  for (int m = 0; m < PETSCWARP_AP_NPARAM; m++) k.p[m] = ap->p[m];
  if (!device) {
    int err;
    k.rn   = ap->rn;
    k.stim = ap->ncells ? ap->stim : NULL;
    err    = PetscWarpAPPointsHost(&fe, (int)wa->ncells, &k, wa->l2d, u, un, ap->rq, out == AP_FQ ? ap->pq : NULL, out == AP_CQ ? ap->pq : NULL);
    PetscCheck(err == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Host Aliev-Panfilov kernel failed (%d)", err);
    PetscCall(VecRestoreArrayRead(U, &u));
    if (Un) PetscCall(VecRestoreArrayRead(Un, &un));
    PetscCall(PetscLogFlops(60.0 * ap->n));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    if (ap->ncells && !ap->d_stim) PetscCall(Move(ap->ncells, ap->stim, &ap->d_stim, PETSC_TRUE));
    if (!ap->d_rq) PetscCallCUDA(cudaMalloc((void **)&ap->d_rq, sizeof(double) * (size_t)ap->n));
    if (!ap->d_pq) PetscCallCUDA(cudaMalloc((void **)&ap->d_pq, sizeof(double) * (size_t)ap->n));
    PetscCall(PetscWarpAsmLocalMapDevice_Private(wa));
    k.rn   = ap->d_rn;
    k.stim = ap->ncells ? ap->d_stim : NULL;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpAPPointsCUDA(&fe, (int)wa->ncells, &k, wa->d_l2d, u, un, ap->d_rq, out == AP_FQ ? ap->d_pq : NULL, out == AP_CQ ? ap->d_pq : NULL, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(60.0 * ap->n));
    PetscCall(VecRestoreArrayReadAndMemType(U, &u));
    if (Un) PetscCall(VecRestoreArrayReadAndMemType(Un, &un));
  }
#endif
  ap->pqdev = device;
  ap->npoints++;
  *ondevice = device;
  PetscCall(PetscLogEventEnd(PETSCWARPASM_APPoints, U, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPComputeResidualLocal - Adds the residual of a backward Euler step of the Aliev-Panfilov monodomain model
  at a state into a local vector

  Collective

  Input Parameters:
+ wa - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`
. U  - the local state (the voltage of this step, current Newton iterate)
- Un - the local voltage of the previous step

  Output Parameter:
. F - the local vector the residual is added to

  Level: intermediate

  Notes:
  r_a = int (u - u_n)/dt phi_a + D grad u . grad phi_a - (f(u, r(u)) + I_stim) phi_a, with r(u) the recovery of this step
  solved at each quadrature point from the previous step's. Two kernels (the model at the points, then the residual
  with the per-point source); on the device with `VECCUDA` vectors.

.seealso: `PetscWarpAsmSetAlievPanfilov()`, `PetscWarpAsmAPAssembleJacobian()`, `PetscWarpAsmComputeResidualLocal()`
@*/
PetscErrorCode PetscWarpAsmAPComputeResidualLocal(PetscWarpAsm wa, Vec U, Vec Un, Vec F)
{
  struct _n_PetscWarpAsmAP *ap;
  PetscBool                 device;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  PetscValidHeaderSpecific(Un, VEC_CLASSID, 3);
  PetscCall(Points(wa, U, Un, AP_FQ, &device));
  ap->use = AP_FQ;
  PetscCall(PetscWarpAsmComputeResidualLocal(wa, U, U, (PetscReal)(1.0 / ap->p[PETSCWARP_AP_DT]), F));
  ap->use = AP_NONE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPAssembleJacobian - Assembles the consistent Jacobian of a backward Euler step of the Aliev-Panfilov
  monodomain model at a state, K + M_c with c = 1/dt - df/dV (the consistent tangent of the recovery's local solve) at
  each quadrature point

  Collective

  Input Parameters:
+ wa - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`
. U  - the local state
- J  - the matrix (as for `PetscWarpAsmAssembleMatrix()`)

  Level: intermediate

  Note:
  The shift of `PetscWarpAsmSetShift()` is not used (the mass term is M_c).

.seealso: `PetscWarpAsmSetAlievPanfilov()`, `PetscWarpAsmAPComputeResidualLocal()`, `PetscWarpAsmAssembleMatrix()`
@*/
PetscErrorCode PetscWarpAsmAPAssembleJacobian(PetscWarpAsm wa, Vec U, Mat J)
{
  struct _n_PetscWarpAsmAP *ap;
  PetscBool                 device;
  PetscReal                 shift = wa->shift;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  PetscCall(Points(wa, U, NULL, AP_CQ, &device));
  ap->use   = AP_CQ;
  wa->shift = 1.0;
  PetscCall(PetscWarpAsmAssembleMatrix(wa, J));
  wa->shift = shift;
  ap->use   = AP_NONE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPAdvance - Accepts a time step of the Aliev-Panfilov model: the recovery at every quadrature point becomes
  that of the converged state

  Collective

  Input Parameters:
+ wa - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`
- U  - the local state of the converged step

  Level: intermediate

.seealso: `PetscWarpAsmSetAlievPanfilov()`, `PetscWarpAsmAPGetRecovery()`
@*/
PetscErrorCode PetscWarpAsmAPAdvance(PetscWarpAsm wa, Vec U)
{
  struct _n_PetscWarpAsmAP *ap;
  PetscBool                 device;
  double                   *t;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  PetscCall(Points(wa, U, NULL, AP_NONE, &device));
  if (device) {
    t        = ap->d_rn;
    ap->d_rn = ap->d_rq;
    ap->d_rq = t;
  } else {
    t      = ap->rn;
    ap->rn = ap->rq;
    ap->rq = t;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPGetRecovery - Copies the recovery variable of the last accepted step at the quadrature points

  Not Collective

  Input Parameter:
. wa - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`

  Output Parameter:
. r - `r[cell*nq + q]` (host memory, ncells*nq values)

  Level: intermediate

.seealso: `PetscWarpAsmSetAlievPanfilov()`, `PetscWarpAsmAPSetRecovery()`, `PetscWarpAsmAPAdvance()`
@*/
PetscErrorCode PetscWarpAsmAPGetRecovery(PetscWarpAsm wa, PetscReal r[])
{
  struct _n_PetscWarpAsmAP *ap;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  if (ap->n) PetscAssertPointer(r, 2);
  PetscCall(RecoveryTo(ap, PETSC_FALSE));
  for (PetscInt k = 0; k < ap->n; k++) r[k] = (PetscReal)ap->rn[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PetscWarpAsmAPSetRecovery - Sets the recovery variable of the previous step at the quadrature points

  Logically Collective

  Input Parameters:
+ wa - the assembly object, with `PetscWarpAsmSetAlievPanfilov()`
- r  - `r[cell*nq + q]` (host memory, ncells*nq values)

  Level: intermediate

.seealso: `PetscWarpAsmSetAlievPanfilov()`, `PetscWarpAsmAPGetRecovery()`
@*/
PetscErrorCode PetscWarpAsmAPSetRecovery(PetscWarpAsm wa, const PetscReal r[])
{
  struct _n_PetscWarpAsmAP *ap;

  PetscFunctionBegin;
  PetscCall(GetAP(wa, &ap));
  if (ap->n) PetscAssertPointer(r, 2);
  for (PetscInt k = 0; k < ap->n; k++) ap->rn[k] = (double)r[k];
  ap->rndev = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
