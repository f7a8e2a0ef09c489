#include "heartproblem.h"
#include "plexproblem.h"
#include <petscdmplex.h>
#include <petscds.h>
#include <petscdevice.h>
#include <petsctime.h>

/* PetscDS constants: the model's parameters (PETSCWARP_AP_*), then diso, dani */
#define HEART_DISO PETSCWARP_AP_NPARAM
#define HEART_DANI (PETSCWARP_AP_NPARAM + 1)
#define HEART_NCON (PETSCWARP_AP_NPARAM + 2)
/* auxiliary fields */
enum {
  AUX_VN,
  AUX_RN,
  AUX_FIBRE,
  AUX_STIM
};

PetscErrorCode HeartParamsFromOptions(HeartParams *hp)
{
  PetscReal dt = 0.1;

  PetscFunctionBegin;
  PetscWarpAPDefaults(hp->p);
  hp->diso     = 3.0;
  hp->dani     = 9.0;
  hp->stim_amp = 2.0;
  hp->stim_t   = 1.0;
  hp->stim_z   = -16.0;
  hp->helix    = 60.0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Aliev-Panfilov monodomain model (tutorial 4)", NULL);
  PetscCall(PetscOptionsReal("-heart_dt", "time step (dimensionless time: 1 = 12.9 ms)", NULL, dt, &dt, NULL));
  PetscCall(PetscOptionsReal("-heart_c", "excitation rate c", NULL, hp->p[PETSCWARP_AP_C], &hp->p[PETSCWARP_AP_C], NULL));
  PetscCall(PetscOptionsReal("-heart_alpha", "excitation threshold alpha", NULL, hp->p[PETSCWARP_AP_ALPHA], &hp->p[PETSCWARP_AP_ALPHA], NULL));
  PetscCall(PetscOptionsReal("-heart_gamma", "recovery rate gamma", NULL, hp->p[PETSCWARP_AP_GAMMA], &hp->p[PETSCWARP_AP_GAMMA], NULL));
  PetscCall(PetscOptionsReal("-heart_b", "recovery parameter b", NULL, hp->p[PETSCWARP_AP_B], &hp->p[PETSCWARP_AP_B], NULL));
  PetscCall(PetscOptionsReal("-heart_mu1", "recovery parameter mu1", NULL, hp->p[PETSCWARP_AP_MU1], &hp->p[PETSCWARP_AP_MU1], NULL));
  PetscCall(PetscOptionsReal("-heart_mu2", "recovery parameter mu2", NULL, hp->p[PETSCWARP_AP_MU2], &hp->p[PETSCWARP_AP_MU2], NULL));
  PetscCall(PetscOptionsReal("-heart_diso", "isotropic conductivity (mm^2 per time unit)", NULL, hp->diso, &hp->diso, NULL));
  PetscCall(PetscOptionsReal("-heart_dani", "additional conductivity along the fibres", NULL, hp->dani, &hp->dani, NULL));
  PetscCall(PetscOptionsReal("-heart_stim_amp", "stimulus current", NULL, hp->stim_amp, &hp->stim_amp, NULL));
  PetscCall(PetscOptionsReal("-heart_stim_t", "stimulus duration", NULL, hp->stim_t, &hp->stim_t, NULL));
  PetscCall(PetscOptionsReal("-heart_stim_z", "stimulated region: cells whose centroid has z below this (mm; apex at -20)", NULL, hp->stim_z, &hp->stim_z, NULL));
  PetscCall(PetscOptionsReal("-heart_helix", "fibre helix angle at the endocardium, minus at the epicardium (degrees)", NULL, hp->helix, &hp->helix, NULL));
  PetscOptionsEnd();
  PetscCheck(dt > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-heart_dt must be positive");
  hp->p[PETSCWARP_AP_DT] = dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------- PETSc's pointwise functions ---------------- */
static void f0_ap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  double r, f, dfdV;
  PetscWarpAPLocal(constants, u[0], a[aOff[AUX_RN]], &r, &f, &dfdV);
  f0[0] = (u[0] - a[aOff[AUX_VN]]) / constants[PETSCWARP_AP_DT] - f - constants[PETSCWARP_AP_STIM] * a[aOff[AUX_STIM]];
}

static void f1_ap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  const PetscScalar *n = &a[aOff[AUX_FIBRE]];
  for (PetscInt d = 0; d < dim; d++) {
    PetscScalar s = 0.0;
    for (PetscInt e = 0; e < dim; e++) s += (constants[HEART_DISO] * (d == e) + constants[HEART_DANI] * n[d] * n[e]) * u_x[e];
    f1[d] = s;
  }
}

static void g0_ap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[])
{
  double r, f, dfdV;
  PetscWarpAPLocal(constants, u[0], a[aOff[AUX_RN]], &r, &f, &dfdV);
  g0[0] = 1.0 / constants[PETSCWARP_AP_DT] - dfdV;
}

static void g3_ap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  const PetscScalar *n = &a[aOff[AUX_FIBRE]];
  for (PetscInt d = 0; d < dim; d++)
    for (PetscInt e = 0; e < dim; e++) g3[d * dim + e] = constants[HEART_DISO] * (d == e) + constants[HEART_DANI] * n[d] * n[e];
}

/* ---------------- the installed SNES local functions, timed (assembly = residuals + Jacobians) ---------------- */
static PetscErrorCode ResidualLocal(DM dm, Vec X, Vec F, void *ctx)
{
  Heart         *h = (Heart *)ctx;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(DeviceTic(&t0));
  PetscCall(h->residual(dm, X, F, h->rctx));
  PetscCall(DeviceTocAdd(t0, &h->t_asm));
  h->nres++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the SNES Jacobian (a global one: the hook makes the local state itself, PETSc's DMLocal wrapper does for PETSc's path) */
static PetscErrorCode Jacobian(SNES snes, Vec X, Mat J, Mat Jp, void *ctx)
{
  Heart         *h = (Heart *)ctx;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(DeviceTic(&t0));
  PetscCall(h->jacobian(snes, X, J, Jp, h->jctx));
  PetscCall(DeviceTocAdd(t0, &h->t_asm));
  h->njac++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the TS form (HeartCreateTS()): the hook's global implicit function and Jacobian, timed the same way */
static PetscErrorCode IFunction(TS ts, PetscReal t, Vec X, Vec X_t, Vec F, void *ctx)
{
  Heart         *h = (Heart *)ctx;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(DeviceTic(&t0));
  PetscCall(h->ifunction(ts, t, X, X_t, F, h->rctx));
  PetscCall(DeviceTocAdd(t0, &h->t_asm));
  h->nres++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode IJacobian(TS ts, PetscReal t, Vec X, Vec X_t, PetscReal shift, Mat J, Mat Jp, void *ctx)
{
  Heart         *h = (Heart *)ctx;
  PetscLogDouble t0;

  PetscFunctionBegin;
  PetscCall(DeviceTic(&t0));
  PetscCall(h->ijacobian(ts, t, X, X_t, shift, J, Jp, h->jctx));
  PetscCall(DeviceTocAdd(t0, &h->t_asm));
  h->njac++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal HeartStimulus(const HeartParams *par, PetscReal t)
{
  return t <= par->stim_t + 1e-12 ? par->stim_amp : 0.0;
}

/* DMPlexWarpAPSetStimulusFunction(): the amplitude at time t, as HeartSetStep() for the step ending at t */
static PetscErrorCode Stimulus(PetscReal t, PetscReal *amp, void *ctx)
{
  PetscFunctionBeginUser;
  *amp = HeartStimulus(&((Heart *)ctx)->par, t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Transmural depth of a point of the shell: s in [0, 1] (endocardium semi-axes 7, 7, 17 mm, epicardium 10, 10, 20) */
static PetscReal Transmural(const PetscReal x[])
{
  PetscReal lo = 0.0, hi = 1.0;
  for (int it = 0; it < 50; it++) {
    PetscReal s = 0.5 * (lo + hi), rs = 7.0 + 3.0 * s, rl = 17.0 + 3.0 * s;
    if ((x[0] * x[0] + x[1] * x[1]) / (rs * rs) + x[2] * x[2] / (rl * rl) > 1.0) lo = s;
    else hi = s;
  }
  return 0.5 * (lo + hi);
}

/* Fibre direction at x: the helix angle turns from +helix (endocardium) to -helix (epicardium) between the
   circumferential direction and the longitudinal tangent of the ellipsoid through x */
static void Fibre(const PetscReal x[], PetscReal helix, PetscReal n[])
{
  PetscReal s = Transmural(x), rs = 7.0 + 3.0 * s, rl = 17.0 + 3.0 * s, ec[3], nrm[3], el[3], l, h = helix * (1.0 - 2.0 * s) * PETSC_PI / 180.0;
  l = PetscSqrtReal(x[0] * x[0] + x[1] * x[1]);
  if (l < 1e-8) ec[0] = 1.0, ec[1] = 0.0;
  else ec[0] = -x[1] / l, ec[1] = x[0] / l;
  ec[2]  = 0.0;
  nrm[0] = x[0] / (rs * rs), nrm[1] = x[1] / (rs * rs), nrm[2] = x[2] / (rl * rl);
  el[0] = nrm[1] * ec[2] - nrm[2] * ec[1], el[1] = nrm[2] * ec[0] - nrm[0] * ec[2], el[2] = nrm[0] * ec[1] - nrm[1] * ec[0];
  l = PetscSqrtReal(el[0] * el[0] + el[1] * el[1] + el[2] * el[2]);
  for (int d = 0; d < 3; d++) n[d] = PetscCosReal(h) * ec[d] + (l > 0 ? PetscSinReal(h) * el[d] / l : 0.0);
}

/* The per-cell data: fibres, stimulus mask, conductivity tensors */
static PetscErrorCode CellData(Heart *h)
{
  PetscInt cStart, cEnd;

  PetscFunctionBegin;
  PetscCall(DMGetCoordinatesLocalSetUp(h->dm));
  PetscCall(DMPlexGetHeightStratum(h->dm, 0, &cStart, &cEnd));
  h->ncells = cEnd - cStart;
  PetscCall(PetscMalloc3(3 * h->ncells, &h->fibre, h->ncells, &h->stim, 9 * h->ncells, &h->kcell));
  for (PetscInt c = cStart; c < cEnd; c++) {
    PetscReal x[3], vol, *n = &h->fibre[3 * (c - cStart)], *K = &h->kcell[9 * (c - cStart)];
    PetscCall(DMPlexComputeCellGeometryFVM(h->dm, c, &vol, x, NULL));
    Fibre(x, h->par.helix, n);
    h->stim[c - cStart] = x[2] < h->par.stim_z ? 1.0 : 0.0;
    for (int d = 0; d < 3; d++)
      for (int e = 0; e < 3; e++) K[3 * d + e] = h->par.diso * (d == e) + h->par.dani * n[d] * n[e];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc: the auxiliary DM and vector (Vn = 0, rn = 0, fibres, stimulus) */
static PetscErrorCode AuxCreate(Heart *h, PetscFE feu)
{
  PetscFE      fe[4];
  PetscInt     dim, cStart, cEnd;
  PetscSection s;
  PetscScalar *a;
  const char  *names[4] = {"Vn", "rn", "fibre", "stim"};

  PetscFunctionBegin;
  PetscCall(DMGetDimension(h->dm, &dim));
  PetscCall(DMClone(h->dm, &h->dmAux));
  for (PetscInt f = 0; f < 4; f++) {
    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, f == AUX_FIBRE ? 3 : 1, PETSC_TRUE, f == AUX_VN ? 1 : 0, PETSC_DETERMINE, &fe[f]));
    PetscCall(PetscFECopyQuadrature(feu, fe[f]));
    PetscCall(PetscObjectSetName((PetscObject)fe[f], names[f]));
    PetscCall(DMSetField(h->dmAux, f, NULL, (PetscObject)fe[f]));
    PetscCall(PetscFEDestroy(&fe[f]));
  }
  PetscCall(DMCreateDS(h->dmAux));
  PetscCall(DMCreateLocalVector(h->dmAux, &h->aux));
  PetscCall(VecZeroEntries(h->aux));
  PetscCall(DMGetLocalSection(h->dmAux, &s));
  PetscCall(DMPlexGetHeightStratum(h->dm, 0, &cStart, &cEnd));
  PetscCall(VecGetArray(h->aux, &a));
  for (PetscInt c = cStart; c < cEnd; c++) {
    PetscInt of, os;
    PetscCall(PetscSectionGetFieldOffset(s, c, AUX_FIBRE, &of));
    PetscCall(PetscSectionGetFieldOffset(s, c, AUX_STIM, &os));
    for (int d = 0; d < 3; d++) a[of + d] = h->fibre[3 * (c - cStart) + d];
    a[os] = h->stim[c - cStart];
  }
  PetscCall(VecRestoreArray(h->aux, &a));
  PetscCall(DMSetAuxiliaryVec(h->dm, NULL, 0, 0, h->aux));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Create(MPI_Comm comm, const HeartParams *par, const char mattype[], const char srcdir[], PetscBool ts, Heart *h)
{
  PetscFE         fe;
  PetscDS         ds;
  PetscInt        dim, cStart;
  PetscBool       set;
  DMPolytopeType  ct;
  PetscQuadrature q;
  char            mesh[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(h, sizeof(*h)));
  h->par  = *par;
  h->warp = (PetscBool)(mattype != NULL);
  PetscCheck(!ts || h->warp, comm, PETSC_ERR_ARG_WRONG, "The TS form of the heart problem is petscwarp's: give a matrix type");
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &set));
  if (!set) {
    PetscCall(PetscSNPrintf(mesh, sizeof(mesh), "%s/bench/meshes/shell_tet.msh", srcdir));
    PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_filename", mesh));
  }
  PetscCall(DMCreate(comm, &h->dm));
  PetscCall(DMSetType(h->dm, DMPLEX));
  PetscCall(DMSetFromOptions(h->dm));
  PetscCall(DMGetDimension(h->dm, &dim));
  PetscCall(DMPlexGetHeightStratum(h->dm, 0, &cStart, NULL));
  PetscCall(DMPlexGetCellType(h->dm, cStart, &ct));
  PetscCheck(dim == 3 && ct == DM_POLYTOPE_TETRAHEDRON, comm, PETSC_ERR_ARG_WRONG, "The heart problem needs a tetrahedral mesh (e.g. bench/meshes/shell_tet.msh)");
  /* P1 with one quadrature point (the centroid): the reduced integration of seeds/004 */
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 1, PETSC_TRUE, 1, PETSC_DETERMINE, &fe));
  {
    PetscReal *pt, *wt;
    PetscCall(PetscMalloc1(3, &pt)); /* owned by the quadrature, which frees them one by one */
    PetscCall(PetscMalloc1(1, &wt));
    for (int d = 0; d < 3; d++) pt[d] = -0.5; /* the centroid of PETSc's reference tetrahedron, whose volume is 4/3 */
    wt[0] = 4.0 / 3.0;
    PetscCall(PetscQuadratureCreate(PETSC_COMM_SELF, &q));
    PetscCall(PetscQuadratureSetData(q, dim, 1, 1, pt, wt));
    PetscCall(PetscFESetQuadrature(fe, q));
    PetscCall(PetscQuadratureDestroy(&q));
  }
  PetscCall(PetscFEGetQuadrature(fe, &q));
  PetscCall(PetscQuadratureGetData(q, NULL, NULL, &h->nq, NULL, NULL));
  PetscCheck(h->nq == 1, comm, PETSC_ERR_PLIB, "Expected one quadrature point, PetscFE has %" PetscInt_FMT, h->nq);
  PetscCall(PetscObjectSetName((PetscObject)fe, "V"));
  PetscCall(DMSetField(h->dm, 0, NULL, (PetscObject)fe));
  PetscCall(DMCreateDS(h->dm));
  PetscCall(DMGetDS(h->dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, f0_ap, f1_ap));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_ap, NULL, NULL, g3_ap));
  {
    PetscScalar c[HEART_NCON];
    for (int k = 0; k < PETSCWARP_AP_NPARAM; k++) c[k] = h->par.p[k];
    c[HEART_DISO] = h->par.diso;
    c[HEART_DANI] = h->par.dani;
    PetscCall(PetscDSSetConstants(ds, HEART_NCON, c));
  }
  PetscCall(CellData(h));
  if (h->warp) { /* one call: petscwarp's device model (it sets VECCUDA vectors when the device assembles) */
    PetscCall(DMSetMatType(h->dm, mattype));
    if (ts) {
      PetscCall(DMPlexWarpSetTSLocalAlievPanfilov(h->dm, h->par.p, h->kcell, h->stim));
      PetscCall(DMPlexWarpAPSetStimulusFunction(h->dm, Stimulus, h));
    } else PetscCall(DMPlexWarpSetSNESLocalAlievPanfilov(h->dm, h->par.p, h->kcell, h->stim));
  } else { /* PETSc's pointwise form with the auxiliary fields */
    PetscCall(DMSetMatType(h->dm, MATAIJ));
    PetscCall(AuxCreate(h, fe));
    PetscCall(DMPlexSetSNESLocalFEM(h->dm, PETSC_FALSE, NULL));
  }
  PetscCall(PetscFEDestroy(&fe));
  /* the installed functions, wrapped by the timed ones: the local residual and the SNES Jacobian, or the TS's implicit
     function and Jacobian */
  if (ts) {
    PetscCall(DMTSGetIFunction(h->dm, &h->ifunction, &h->rctx));
    PetscCall(DMTSGetIJacobian(h->dm, &h->ijacobian, &h->jctx));
    PetscCall(DMTSSetIFunction(h->dm, IFunction, h));
    PetscCall(DMTSSetIJacobian(h->dm, IJacobian, h));
  } else {
    PetscCall(DMSNESGetFunctionLocal(h->dm, &h->residual, &h->rctx));
    PetscCall(DMSNESGetJacobian(h->dm, &h->jacobian, &h->jctx));
    PetscCall(DMSNESSetFunctionLocal(h->dm, ResidualLocal, h));
    PetscCall(DMSNESSetJacobian(h->dm, Jacobian, h));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartCreate(MPI_Comm comm, const HeartParams *par, const char mattype[], const char srcdir[], Heart *h)
{
  PetscFunctionBegin;
  PetscCall(Create(comm, par, mattype, srcdir, PETSC_FALSE, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartCreateTS(MPI_Comm comm, const HeartParams *par, const char mattype[], const char srcdir[], Heart *h)
{
  PetscFunctionBegin;
  PetscCall(Create(comm, par, mattype, srcdir, PETSC_TRUE, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartDestroy(Heart *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(h->fibre, h->stim, h->kcell));
  PetscCall(VecDestroy(&h->aux));
  PetscCall(DMDestroy(&h->dmAux));
  PetscCall(DMDestroy(&h->dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartSetStep(Heart *h, PetscInt n)
{
  PetscReal dt = h->par.p[PETSCWARP_AP_DT], amp = HeartStimulus(&h->par, (n + 1) * dt);

  PetscFunctionBegin;
  if (h->warp) PetscCall(DMPlexWarpAPSetStep(h->dm, dt, amp));
  else {
    PetscDS            ds;
    PetscInt           nc;
    const PetscScalar *c0;
    PetscScalar        c[HEART_NCON];
    PetscCall(DMGetDS(h->dm, &ds));
    PetscCall(PetscDSGetConstants(ds, &nc, &c0));
    PetscCall(PetscArraycpy(c, c0, HEART_NCON));
    c[PETSCWARP_AP_DT]   = dt;
    c[PETSCWARP_AP_STIM] = amp;
    PetscCall(PetscDSSetConstants(ds, HEART_NCON, c));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc: the voltage at the (one) quadrature point of each cell from the local state, and rn <- r(V, rn) there; Vn <- U */
static PetscErrorCode AuxAdvance(Heart *h, Vec Uloc, const PetscReal *rset)
{
  PetscSection       s, su;
  PetscDS            ds;
  PetscFE            fe;
  PetscTabulation    T;
  PetscInt           cStart, cEnd, vStart, vEnd, nc;
  PetscScalar       *a;
  const PetscScalar *c;

  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(h->dmAux, &s));
  PetscCall(DMGetLocalSection(h->dm, &su));
  PetscCall(DMGetDS(h->dm, &ds));
  PetscCall(PetscDSGetConstants(ds, &nc, &c));
  PetscCall(PetscDSGetDiscretization(ds, 0, (PetscObject *)&fe));
  PetscCall(PetscFEGetCellTabulation(fe, 0, &T));
  PetscCall(DMPlexGetHeightStratum(h->dm, 0, &cStart, &cEnd));
  PetscCall(DMPlexGetDepthStratum(h->dm, 0, &vStart, &vEnd));
  PetscCall(VecGetArray(h->aux, &a));
  for (PetscInt cell = cStart; cell < cEnd; cell++) {
    PetscInt off;
    PetscCall(PetscSectionGetFieldOffset(s, cell, AUX_RN, &off));
    if (rset) a[off] = rset[cell - cStart];
    else {
      PetscScalar *u = NULL;
      PetscInt     n;
      double       V = 0.0, r, f, dfdV;
      PetscCall(DMPlexVecGetClosure(h->dm, su, Uloc, cell, &n, &u));
      for (PetscInt b = 0; b < n; b++) V += T->T[0][b] * u[b];
      PetscCall(DMPlexVecRestoreClosure(h->dm, su, Uloc, cell, &n, &u));
      PetscWarpAPLocal(c, V, a[off], &r, &f, &dfdV);
      a[off] = r;
    }
  }
  if (Uloc) {
    const PetscScalar *u;
    PetscCall(VecGetArrayRead(Uloc, &u));
    for (PetscInt v = vStart; v < vEnd; v++) {
      PetscInt off, ou;
      PetscCall(PetscSectionGetFieldOffset(s, v, AUX_VN, &off));
      PetscCall(PetscSectionGetOffset(su, v, &ou));
      a[off] = u[ou];
    }
    PetscCall(VecRestoreArrayRead(Uloc, &u));
  }
  PetscCall(VecRestoreArray(h->aux, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The previous step's voltage from the global U, and its recovery: r given, or (r NULL) solved at U */
static PetscErrorCode Previous(Heart *h, Vec U, const PetscReal r[])
{
  Vec Uloc;

  PetscFunctionBegin;
  if (h->warp) {
    if (r) PetscCall(DMPlexWarpAPSetPrevious(h->dm, U, r));
    else PetscCall(DMPlexWarpAPAdvance(h->dm, U));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMGetLocalVector(h->dm, &Uloc));
  PetscCall(DMGlobalToLocal(h->dm, U, INSERT_VALUES, Uloc));
  PetscCall(AuxAdvance(h, Uloc, r));
  PetscCall(DMRestoreLocalVector(h->dm, &Uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartAdvance(Heart *h, Vec U)
{
  PetscFunctionBegin;
  PetscCall(Previous(h, U, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartGetRecovery(Heart *h, PetscReal r[])
{
  PetscFunctionBegin;
  if (h->warp) {
    PetscWarpAsm wa;
    PetscCall(DMPlexWarpGetAsm(h->dm, &wa));
    PetscCall(PetscWarpAsmAPGetRecovery(wa, r));
  } else {
    PetscSection       s;
    PetscInt           cStart, cEnd;
    const PetscScalar *a;
    PetscCall(DMGetLocalSection(h->dmAux, &s));
    PetscCall(DMPlexGetHeightStratum(h->dm, 0, &cStart, &cEnd));
    PetscCall(VecGetArrayRead(h->aux, &a));
    for (PetscInt c = cStart; c < cEnd; c++) {
      PetscInt off;
      PetscCall(PetscSectionGetFieldOffset(s, c, AUX_RN, &off));
      r[c - cStart] = PetscRealPart(a[off]);
    }
    PetscCall(VecRestoreArrayRead(h->aux, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode HeartSetPrevious(Heart *h, const PetscReal r[], Vec Un)
{
  PetscFunctionBegin;
  PetscCall(Previous(h, Un, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}
