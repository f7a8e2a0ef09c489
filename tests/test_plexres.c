static char help[] = "Residuals by PetscWarpAsm (PetscWarpAsmComputeResidualLocal, DMPlexWarpSetSNESLocalFEM, DMPlexWarpSetTSLocalFEM,\n"
                     "DMPlexWarpSetKSPLocalFEM: operator and right-hand side of a KSP with KSPSetDM())\n"
                     "against PETSc's DMPlexSNESComputeResidualFEM / DMPlexTSComputeIFunctionFEM at random states with non-zero\n"
                     "Dirichlet values (relative difference < 1e-12, local and global), SNES and backward Euler TS solves with the\n"
                     "same iteration counts and solutions as PETSc's path, and the refusals of residuals that are not recognised.\n"
                     "  -physics laplace|elasticity  -degrees 1,2  -types aij,ellwarp (matrix types of the hook; sharednz with a device)\n"
                     "  -ts  also the TS hook;  -neumann  constant Neumann fluxes on the faces at x = 1;  -bc_field  the Dirichlet values\n"
                     "  as a DM_BC_ESSENTIAL_FIELD condition;  mesh: -dm_plex_* options\n"
                     "Newton (TS: step) iteration counts must be equal, CG counts within one (the residual is summed in another order).\n"
                     "  -diagnose  per rank, where the global residuals differ and replays of the hook's path (Diagnose());\n"
                     "  -shared_draw  the random states drawn into one vector twice, copied in between (the race of CompareResiduals())\n";

#include "testutil.h"
#include <petscsnes.h>
#include <petscts.h>
#include <petscds.h>
#include <petscsf.h>

#define KAPPA  2.5
#define LAMBDA 1.5
#define MU     0.75
#define MASS   3.0

static PetscErrorCode bc(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = 1.0 + x[0] - 0.5 * x[1] + 0.1 * c;
  return PETSC_SUCCESS;
}

/* -bc_field: bc() as a DM_BC_ESSENTIAL_FIELD condition (a pointwise function, projected with the state's DM) */
static void bc_field(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar bcval[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) bcval[c] = 1.0 + x[0] - 0.5 * x[1] + 0.1 * c;
}

static void f0_const(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = -0.7 + 0.4 * c;
}

static void f0_ts(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = MASS * u_t[c] - 0.7 + 0.4 * c;
}

static void f0_x(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = x[0];
}

static void f1_lap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = KAPPA * u_x[d];
}

static void f1_lap_wrong(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = (KAPPA + u[0] * u[0]) * u_x[d];
}

static void g3_lap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = KAPPA;
}

static void f1_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  PetscScalar div = 0.0;
  for (PetscInt d = 0; d < dim; ++d) div += u_x[d * dim + d];
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) f1[c * dim + d] = MU * (u_x[c * dim + d] + u_x[d * dim + c]) + (c == d ? LAMBDA * div : 0.0);
}

static void g3_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt g = 0; g < dim; ++g)
      for (PetscInt d = 0; d < dim; ++d)
        for (PetscInt e = 0; e < dim; ++e) g3[((c * dim + g) * dim + d) * dim + e] = MU * ((c == g && d == e) + (c == e && d == g)) + LAMBDA * (c == d && g == e);
}

static void g0_ts(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[])
{
  PetscInt nc = uOff[1] - uOff[0];
  for (PetscInt c = 0; c < nc; ++c) g0[c * nc + c] = MASS * u_tShift;
}

static void bdf0(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  f0[0] = 1.0;
}

static PetscBool neumann = PETSC_FALSE; /* -neumann: fluxes on the faces at x = 1 */
static PetscBool bcfield = PETSC_FALSE; /* -bc_field: the Dirichlet values as a DM_BC_ESSENTIAL_FIELD condition */

static void bdf0_a(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = 0.8 + 0.3 * c;
}

static void bdf0_b(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = -1.1;
}

static void bdf0_x(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = x[1];
}

/* -neumann: the boundary faces at x = 1 get natural conditions, constant fluxes bdf0_a (y < 1/2, value 1) and bdf0_b
   (value 2), the others stay Dirichlet (*label becomes theirs) */
static PetscErrorCode SplitBoundary(DM dm, PetscDS ds, DMLabel *label)
{
  DMLabel         dir, neu;
  IS              is;
  PetscWeakForm   wf;
  PetscInt        n       = 0, bd;
  const PetscInt  vals[2] = {1, 2};
  const PetscInt *pts;

  PetscFunctionBegin;
  PetscCall(DMCreateLabel(dm, "dirichlet"));
  PetscCall(DMGetLabel(dm, "dirichlet", &dir));
  PetscCall(DMCreateLabel(dm, "neumann"));
  PetscCall(DMGetLabel(dm, "neumann", &neu));
  PetscCall(DMGetCoordinatesLocalSetUp(dm)); /* for the face centroids (a mesh read from a file, not distributed) */
  PetscCall(DMLabelGetStratumIS(*label, 1, &is));
  if (is) {
    PetscCall(ISGetLocalSize(is, &n));
    PetscCall(ISGetIndices(is, &pts));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal cen[3];
    PetscCall(DMPlexComputeCellGeometryFVM(dm, pts[i], NULL, cen, NULL));
    if (cen[0] > 1 - 1e-8) PetscCall(DMLabelSetValue(neu, pts[i], cen[1] < 0.5 ? 1 : 2));
    else PetscCall(DMLabelSetValue(dir, pts[i], 1));
  }
  if (is) PetscCall(ISRestoreIndices(is, &pts));
  PetscCall(ISDestroy(&is));
  PetscCall(DMAddBoundary(dm, DM_BC_NATURAL, "flux", neu, 2, vals, 0, 0, NULL, NULL, NULL, NULL, &bd));
  PetscCall(PetscDSGetBoundary(ds, bd, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(PetscWeakFormSetIndexBdResidual(wf, neu, 1, 0, 0, 0, bdf0_a, 0, NULL));
  PetscCall(PetscWeakFormSetIndexBdResidual(wf, neu, 2, 0, 0, 0, bdf0_b, 0, NULL));
  *label = dir;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem on the mesh of the options: Lagrange elements of the degree, Dirichlet values bc() on the whole boundary;
   hook: the petscwarp callbacks on a DM of matrix type mattype, else PETSc's own (aij) */
static PetscErrorCode CreateDM(PetscBool elas, PetscBool ts, PetscInt degree, const char *mattype, PetscBool hook, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, cEnd, id = 1;
  DMPolytopeType ct;

  PetscFunctionBegin;
  PetscCall(TestPlexCreate(PETSC_COMM_WORLD, dm)); /* distributed without overlap; -empty_rank r: rank r without cells */
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, &cEnd));
  { /* a rank without cells takes the others' cell type */
    PetscInt ict = DM_POLYTOPE_UNKNOWN;
    if (cEnd > cStart) {
      PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
      ict = ct;
    }
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &ict, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
    ct = (DMPolytopeType)ict;
  }
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, elas ? dim : 1, DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE, degree, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, ts ? f0_ts : f0_const, elas ? f1_elas : f1_lap));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, ts ? g0_ts : NULL, NULL, NULL, elas ? g3_elas : g3_lap));
  PetscCall(DMCreateLabel(*dm, "marker"));
  PetscCall(DMGetLabel(*dm, "marker", &label));
  PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
  if (neumann) PetscCall(SplitBoundary(*dm, ds, &label));
  PetscCall(DMPlexLabelComplete(*dm, label));
  if (bcfield) PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL_FIELD, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)bc_field, NULL, NULL, NULL));
  else PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)bc, NULL, NULL, NULL));
  PetscCall(DMSetMatType(*dm, hook ? mattype : MATAIJ));
  if (hook) {
    if (ts) PetscCall(DMPlexWarpSetTSLocalFEM(*dm));
    else PetscCall(DMPlexWarpSetSNESLocalFEM(*dm));
  } else if (ts) {
    PetscCall(DMTSSetBoundaryLocal(*dm, DMPlexTSComputeBoundary, NULL));
    PetscCall(DMTSSetIFunctionLocal(*dm, DMPlexTSComputeIFunctionFEM, NULL));
    PetscCall(DMTSSetIJacobianLocal(*dm, DMPlexTSComputeIJacobianFEM, NULL));
  } else PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||a - b|| / ||b|| of two vectors, whatever their types */
static PetscErrorCode RelDiff(Vec a, Vec b, PetscReal *e)
{
  Vec       ah;
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)a, ((PetscObject)b)->type_name, &same));
  if (same) PetscCall(VecRelativeDifference(a, b, e));
  else {
    PetscCall(VecDuplicate(b, &ah));
    PetscCall(VecCopy(a, ah));
    PetscCall(VecRelativeDifference(ah, b, e));
    PetscCall(VecDestroy(&ah));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local state of X with PETSc's boundary values at time t */
static PetscErrorCode LocalState(DM dm, PetscReal t, Vec X, Vec *Xloc)
{
  PetscFunctionBegin;
  PetscCall(DMCreateLocalVector(dm, Xloc));
  PetscCall(VecZeroEntries(*Xloc));
  PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, *Xloc, t, NULL, NULL, NULL));
  PetscCall(DMGlobalToLocalBegin(dm, X, INSERT_VALUES, *Xloc));
  PetscCall(DMGlobalToLocalEnd(dm, X, INSERT_VALUES, *Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Jacobian of the hook's DM against PETSc's, entry by entry, and that PetscWarpAsm assembled it */
static PetscErrorCode CompareJacobians(DM dmw, Mat Jw, Mat Jp, const char *what)
{
  PetscReal        e;
  PetscWarpAsm     wa;
  PetscWarpAsmInfo info;

  PetscFunctionBegin;
  PetscCall(TestEntryDifference(Jw, Jp, &e));
  PetscCall(DMPlexWarpGetAsm(dmw, &wa));
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: Jacobian (%s) max entry diff. %.1e, assembled by PetscWarpAsm (%s, %s)\n", what, ((PetscObject)Jw)->type_name, (double)e, PetscWarpAsmStrategies[info.used], info.device ? "device" : "host"));
  PetscCheck(e < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the Jacobian differs from PETSc's: max entry difference %g", what, (double)e);
  PetscCheck(info.nassemblies == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " Jacobians by PetscWarpAsm, expected 1", what, info.nassemblies);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -diagnose: the SNES (TS) path of the hook's DM replayed by hand at the state X (Xt), PETSc's boundary values at t:
   mode 0: PETSc's local residual (DMPlexSNESComputeResidualFEM / DMPlexTSComputeIFunctionFEM) then DMLocalToGlobal();
   mode 1: PetscWarpAsmComputeResidualLocal() then DMLocalToGlobal() (what the hook does), with the offload masks of the
           local residual and of the global vector after the kernel and after the scatter;
   mode 2: as 1 with a device synchronisation between the kernel and the scatter;
   mode 3: as 1 with the reduction done by PetscSFReduce() on host arrays (PetscSF's device path not used).
   G: the global residual (zeroed here, the hook's DM's type) */
static PetscErrorCode Replay(DM dm, PetscBool ts, PetscReal t, Vec X, Vec Xt, PetscInt mode, Vec G, char masks[], size_t len)
{
  Vec              Xloc, Xtloc = NULL, Floc;
  PetscWarpAsm     wa;
  PetscOffloadMask m[4];

  PetscFunctionBegin;
  PetscCall(LocalState(dm, ts ? t : PETSC_MIN_REAL, X, &Xloc));
  if (ts) {
    PetscCall(DMCreateLocalVector(dm, &Xtloc));
    PetscCall(VecZeroEntries(Xtloc));
    PetscCall(DMGlobalToLocalBegin(dm, Xt, INSERT_VALUES, Xtloc));
    PetscCall(DMGlobalToLocalEnd(dm, Xt, INSERT_VALUES, Xtloc));
  }
  PetscCall(DMCreateLocalVector(dm, &Floc));
  PetscCall(VecZeroEntries(Floc));
  PetscCall(VecZeroEntries(G));
  if (mode == 0) {
    if (ts) PetscCall(DMPlexTSComputeIFunctionFEM(dm, t, Xloc, Xtloc, Floc, NULL));
    else PetscCall(DMPlexSNESComputeResidualFEM(dm, Xloc, Floc, NULL));
  } else {
    PetscCall(DMPlexWarpGetAsm(dm, &wa));
    PetscCall(PetscWarpAsmComputeResidualLocal(wa, Xloc, Xtloc, ts ? MASS : 0.0, Floc));
  }
  PetscCall(VecGetOffloadMask(Floc, &m[0]));
  PetscCall(VecGetOffloadMask(G, &m[1]));
  if (mode == 2) PetscCall(DeviceSync());
  if (mode == 3) {
    PetscSF            sf;
    const PetscScalar *l;
    PetscScalar       *g;

    PetscCall(DMGetSectionSF(dm, &sf));
    PetscCall(VecGetArrayRead(Floc, &l));
    PetscCall(VecGetArray(G, &g));
    PetscCall(PetscSFReduceBegin(sf, MPIU_SCALAR, l, g, MPIU_SUM));
    PetscCall(PetscSFReduceEnd(sf, MPIU_SCALAR, l, g, MPIU_SUM));
    PetscCall(VecRestoreArray(G, &g));
    PetscCall(VecRestoreArrayRead(Floc, &l));
  } else {
    PetscCall(DMLocalToGlobalBegin(dm, Floc, ADD_VALUES, G));
    PetscCall(DMLocalToGlobalEnd(dm, Floc, ADD_VALUES, G));
  }
  PetscCall(VecGetOffloadMask(Floc, &m[2]));
  PetscCall(VecGetOffloadMask(G, &m[3]));
  PetscCall(PetscSNPrintf(masks, len, "local F %s, global F %s before the scatter; %s, %s after", PetscOffloadMaskToString(m[0]), PetscOffloadMaskToString(m[1]), PetscOffloadMaskToString(m[2]), PetscOffloadMaskToString(m[3])));
  PetscCall(VecDestroy(&Xloc));
  PetscCall(VecDestroy(&Xtloc));
  PetscCall(VecDestroy(&Floc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |a - b| over this rank's rows, where, and a[i], b[i] there (a and b of the same layout, any types) */
static PetscErrorCode MaxDiff(Vec a, Vec b, PetscReal *e, PetscInt *at, PetscScalar *va, PetscScalar *vb)
{
  const PetscScalar *x, *y;
  PetscInt           n, rs;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetOwnershipRange(a, &rs, NULL));
  PetscCall(VecGetArrayRead(a, &x));
  PetscCall(VecGetArrayRead(b, &y));
  *e  = 0.0;
  *at = -1;
  *va = *vb = 0.0;
  for (PetscInt i = 0; i < n; i++)
    if (PetscAbsScalar(x[i] - y[i]) > *e || *at < 0) {
      *e  = PetscAbsScalar(x[i] - y[i]);
      *at = rs + i;
      *va = x[i];
      *vb = y[i];
    }
  PetscCall(VecRestoreArrayRead(a, &x));
  PetscCall(VecRestoreArrayRead(b, &y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -diagnose (scripts/gpu_run.sh mpires): why the hook's global residual Fw and PETSc's Fp differ, per rank. Which
   hypothesis holds: the states differ (|X - Xp| > 0: the copies of the random state); the hook's path differs from
   the replays (mode 1 = 0: the kernel and the scatter are right, the SNES path adds something: cached boundary values,
   DMGetLocalVector()'s reused vectors); mode 1 differs from 2 (a missing synchronisation before PetscSF's
   host-staged communication) or from 3 (PetscSF's device path); the largest differences on rows shared by several
   ranks (sharers > 1: the remote part of the scatter) or not (the local part, the kernel) */
static PetscErrorCode Diagnose(DM dmw, PetscBool ts, PetscReal t, Vec X, Vec Xt, Vec Xp, Vec Xtp, Vec Fw, Vec Fp, const char *what)
{
  Vec         G, ones, share;
  PetscMPIInt rank;
  PetscReal   ex, ext = 0, e;
  PetscInt    at, atx;
  PetscScalar a, b, c;
  char        masks[256];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MaxDiff(X, Xp, &ex, &atx, &a, &b));
  if (ts) PetscCall(MaxDiff(Xt, Xtp, &ext, &atx, &a, &b));
  PetscCall(VecDuplicate(Fw, &G));
  PetscCall(VecDuplicate(Fw, &share)); /* per owned dof: how many ranks' local vectors hold it */
  PetscCall(DMCreateLocalVector(dmw, &ones));
  PetscCall(VecSet(ones, 1.0));
  PetscCall(VecZeroEntries(share));
  PetscCall(DMLocalToGlobalBegin(dmw, ones, ADD_VALUES, share));
  PetscCall(DMLocalToGlobalEnd(dmw, ones, ADD_VALUES, share));
  PetscCall(MaxDiff(Fw, Fp, &e, &at, &a, &b));
  {
    const PetscScalar *sh;
    PetscInt           rs;
    PetscCall(VecGetOwnershipRange(share, &rs, NULL));
    PetscCall(VecGetArrayRead(share, &sh));
    c = at >= 0 ? sh[at - rs] : 0.0;
    PetscCall(VecRestoreArrayRead(share, &sh));
  }
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "  [%d] diagnose %s: max |X - Xp| %.1e, |Xt - Xtp| %.1e; max |Fw - Fp| %.2e at row %" PetscInt_FMT " (Fw %g, Fp %g, sharers %g)\n", rank, what, (double)ex, (double)ext, (double)e, at, (double)PetscRealPart(a), (double)PetscRealPart(b), (double)PetscRealPart(c)));
  for (PetscInt mode = 0; mode < 4; mode++) {
    const char *name[] = {"PETSc's residual + DMLocalToGlobal", "kernel + DMLocalToGlobal", "kernel + sync + DMLocalToGlobal", "kernel + host PetscSFReduce"};
    PetscCall(Replay(dmw, ts, t, X, Xt, mode, G, masks, sizeof(masks)));
    PetscCall(MaxDiff(G, Fp, &e, &at, &a, &b));
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "  [%d]   replay %" PetscInt_FMT " (%s): max |R - Fp| %.2e at row %" PetscInt_FMT "; max |R - Fw| ", rank, mode, name[mode], (double)e, at));
    PetscCall(MaxDiff(G, Fw, &e, &at, &a, &b));
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "%.2e; %s\n", (double)e, masks));
  }
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(VecDestroy(&G));
  PetscCall(VecDestroy(&ones));
  PetscCall(VecDestroy(&share));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Residuals at a random state (and time derivative): the hook's DM against PETSc's, locally (PetscWarpAsm's kernel
   against PETSc's integration on the same local state) and globally (SNESComputeFunction / TSComputeIFunction) */
static PetscErrorCode CompareResiduals(DM dmw, DM dmp, PetscBool ts, PetscRandom rnd, const char *what)
{
  Vec             Xs, X, Xt, Xp, Xtp, Fw, Fp, Xloc, Xtloc = NULL, Rw, Rp;
  PetscBool       diag = PETSC_FALSE, shared = PETSC_FALSE;
  Mat             Jw, Jp;
  PetscWarpAsm    wa;
  PetscReal       el, eg;
  PetscInt        nwarp;
  const PetscReal t = 0.3;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dmp, &Xs));
  PetscCall(DMCreateGlobalVector(dmw, &X));
  PetscCall(VecDuplicate(X, &Xt));
  PetscCall(VecDuplicate(X, &Fw));
  PetscCall(VecDuplicate(Xs, &Xp));
  PetscCall(VecDuplicate(Xs, &Xtp));
  PetscCall(VecDuplicate(Xs, &Fp));
  /* each random state drawn into its own vector, then copied; never one vector drawn again while copies from it may be
     pending: with CUDA vectors (PETSc's DM too on several ranks with -dm_vec_type cuda) VecCopy() from a vector whose
     host array is the current one is an asynchronous copy from pinned host memory (VecSeq_CUPM::CopyAsync() in
     src/vec/vec/impls/seq/cupm/vecseqcupm_impl.hpp: no synchronisation on a default stream; HostAllocateCheck_() in
     include/petsc/private/veccupmimpl.h pins every host array, minimum_bytes_pinned_memory 0), and VecSetRandom() writes
     that host array at once (VecSeq_CUPM::SetRandom(): HostArrayWrite(), nothing to move, no synchronisation), so a
     second draw into the same vector could overwrite the first before the copies read it. X and Xp then differed: the
     global residuals 0.26-1.26 apart on 2 ranks sharing the H100 while the local ones (both from X) agreed */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-shared_draw", &shared, NULL));
  if (shared) { /* -shared_draw: as before (GPU diagnosis of the race, with -diagnose: |X - Xp| > 0 when it struck) */
    PetscCall(VecSetRandom(Xs, rnd));
    PetscCall(VecCopy(Xs, Xp));
    PetscCall(VecCopy(Xs, X));
    PetscCall(VecSetRandom(Xs, rnd));
    PetscCall(VecCopy(Xs, Xtp));
    PetscCall(VecCopy(Xs, Xt));
  } else {
    PetscCall(VecSetRandom(Xp, rnd));
    PetscCall(VecSetRandom(Xtp, rnd));
    PetscCall(VecCopy(Xp, X));
    PetscCall(VecCopy(Xtp, Xt));
  }
  /* local: the kernel against PETSc on the same local state */
  PetscCall(DMPlexWarpGetAsm(dmw, &wa));
  PetscCall(LocalState(dmw, ts ? t : PETSC_MIN_REAL, X, &Xloc));
  if (ts) { /* the boundary values of u_t are zero (they do not depend on time) */
    PetscCall(DMCreateLocalVector(dmw, &Xtloc));
    PetscCall(VecZeroEntries(Xtloc));
    PetscCall(DMGlobalToLocalBegin(dmw, Xt, INSERT_VALUES, Xtloc));
    PetscCall(DMGlobalToLocalEnd(dmw, Xt, INSERT_VALUES, Xtloc));
  }
  PetscCall(VecDuplicate(Xloc, &Rw));
  PetscCall(VecDuplicate(Xloc, &Rp));
  PetscCall(VecZeroEntries(Rw));
  PetscCall(VecZeroEntries(Rp));
  PetscCall(PetscWarpAsmComputeResidualLocal(wa, Xloc, Xtloc, ts ? MASS : 0.0, Rw));
  if (ts) PetscCall(DMPlexTSComputeIFunctionFEM(dmw, t, Xloc, Xtloc, Rp, NULL));
  else PetscCall(DMPlexSNESComputeResidualFEM(dmw, Xloc, Rp, NULL));
  PetscCall(VecRelativeDifference(Rw, Rp, &el));
  /* global: the hook's callbacks against PETSc's */
  PetscCall(DMCreateMatrix(dmw, &Jw));
  PetscCall(DMCreateMatrix(dmp, &Jp));
  PetscCall(TestEvaluate(dmw, ts, X, Xt, Fw, Jw));
  PetscCall(TestEvaluate(dmp, ts, Xp, Xtp, Fp, Jp));
  PetscCall(RelDiff(Fw, Fp, &eg));
  PetscCall(CompareJacobians(dmw, Jw, Jp, what));
  PetscCall(MatDestroy(&Jw));
  PetscCall(MatDestroy(&Jp));
  PetscCall(DMPlexWarpGetResidualCount(dmw, &nwarp, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: residual rel. diff. local %.1e, global %.1e (%s vectors)\n", what, (double)el, (double)eg, ((PetscObject)X)->type_name));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-diagnose", &diag, NULL));
  if (diag) PetscCall(Diagnose(dmw, ts, t, X, Xt, Xp, Xtp, Fw, Fp, what));
  PetscCheck(el < 1e-12 && eg < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: residuals differ from PETSc's: local %g, global %g", what, (double)el, (double)eg);
  PetscCheck(nwarp == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " residuals by PetscWarpAsm, expected 1", what, nwarp);
  PetscCall(VecDestroy(&Xs));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&Xt));
  PetscCall(VecDestroy(&Xp));
  PetscCall(VecDestroy(&Xtp));
  PetscCall(VecDestroy(&Fw));
  PetscCall(VecDestroy(&Fp));
  PetscCall(VecDestroy(&Xloc));
  PetscCall(VecDestroy(&Xtloc));
  PetscCall(VecDestroy(&Rw));
  PetscCall(VecDestroy(&Rp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetKSP(KSP ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-12, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A Newton solve (SNES) or 3 backward Euler steps (TS) from u = 0: iterations and solution */
static PetscErrorCode Solve(DM dm, PetscBool ts, PetscInt *its, PetscInt *lits, Vec *u)
{
  SNES snes;
  KSP  ksp;
  TS   t = NULL;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dm, u));
  PetscCall(VecSet(*u, 0.0));
  if (ts) {
    PetscCall(TSCreate(PETSC_COMM_WORLD, &t));
    PetscCall(TSSetDM(t, dm));
    PetscCall(TSSetType(t, TSBEULER));
    PetscCall(TSSetTimeStep(t, 0.01));
    PetscCall(TSSetMaxSteps(t, 3));
    PetscCall(TSSetExactFinalTime(t, TS_EXACTFINALTIME_MATCHSTEP));
    PetscCall(TSGetSNES(t, &snes));
  } else {
    PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
    PetscCall(SNESSetDM(snes, dm));
  }
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(SetKSP(ksp));
  if (ts) {
    PetscCall(TSSetFromOptions(t));
    PetscCall(TSSolve(t, *u));
    PetscCall(TSGetSNESIterations(t, its));
    PetscCall(TSGetKSPIterations(t, lits));
    PetscCall(TSDestroy(&t));
  } else {
    PetscCall(SNESSetFromOptions(snes));
    PetscCall(SNESSolve(snes, NULL, *u));
    PetscCall(SNESGetIterationNumber(snes, its));
    PetscCall(SNESGetLinearSolveIterations(snes, lits));
    PetscCall(SNESDestroy(&snes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What is not recognised: the hook falls back to PETSc's residual (counted), or the recognizer says why */
static PetscErrorCode Refusals(PetscBool elas)
{
  DM        dm;
  PetscDS   ds;
  PetscBool found;
  PetscReal coef[2] = {elas ? LAMBDA : KAPPA, MU}, f[3];
  char      why[256];
  PetscInt  nwarp, npetsc;
  Vec       u, F;
  SNES      snes;

  PetscFunctionBegin;
  PetscCall(CreateDM(elas, PETSC_FALSE, 1, MATAIJ, PETSC_FALSE, &dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(DMPlexWarpRecognizeResidual(dm, elas ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
  PetscCheck(found && PetscAbsReal(f[0] + 0.7) < 1e-14, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the constant f0 was not recognised: %s", why);
  /* a mass term in f0 without g0 (a steady problem): refused */
  PetscCall(PetscDSSetResidual(ds, 0, f0_ts, elas ? f1_elas : f1_lap));
  PetscCall(DMPlexWarpRecognizeResidual(dm, elas ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
  PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "f0 = c u_t + f recognised for a steady problem");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused: f0 with u_t, steady (%s)\n", why));
  /* f1 that is not the Jacobian's flux */
  if (!elas) {
    PetscCall(PetscDSSetResidual(ds, 0, f0_const, f1_lap_wrong));
    PetscCall(DMPlexWarpRecognizeResidual(dm, PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
    PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a nonlinear f1 was recognised");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused: nonlinear f1 (%s)\n", why));
  }
  /* a Neumann flux */
  PetscCall(PetscDSSetResidual(ds, 0, f0_const, elas ? f1_elas : f1_lap));
  PetscCall(PetscDSSetBdResidual(ds, 0, bdf0, NULL));
  PetscCall(DMPlexWarpRecognizeResidual(dm, elas ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
  PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a boundary residual was accepted");
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused: boundary residual (%s)\n", why));
  if (neumann) { /* a Neumann flux that depends on x */
    PetscWeakForm wf;
    DMLabel       neu;
    PetscCall(DMDestroy(&dm));
    PetscCall(CreateDM(elas, PETSC_FALSE, 1, MATAIJ, PETSC_FALSE, &dm));
    PetscCall(DMGetDS(dm, &ds));
    PetscCall(DMPlexWarpRecognizeResidual(dm, elas ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "constant Neumann fluxes not recognised: %s", why);
    PetscCall(DMGetLabel(dm, "neumann", &neu));
    PetscCall(PetscDSGetBoundary(ds, 0, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)); /* "flux", added first */
    PetscCall(PetscWeakFormSetIndexBdResidual(wf, neu, 2, 0, 0, 0, bdf0_x, 0, NULL));
    PetscCall(DMPlexWarpRecognizeResidual(dm, elas ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE, coef, 0.0, &found, f, why, sizeof(why)));
    PetscCheck(!found, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a Neumann flux that depends on x was recognised");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused: Neumann flux g(x) (%s)\n", why));
  }
  PetscCall(DMDestroy(&dm));
  /* the hook with an f0 that depends on x: PETSc's residual, counted */
  PetscCall(CreateDM(elas, PETSC_FALSE, 1, MATAIJ, PETSC_FALSE, &dm));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, f0_x, elas ? f1_elas : f1_lap));
  PetscCall(DMPlexWarpSetSNESLocalFEM(dm));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecDuplicate(u, &F));
  PetscCall(VecSet(u, 1.0));
  PetscCall(SNESComputeFunction(snes, u, F));
  PetscCall(DMPlexWarpGetResidualCount(dm, &nwarp, &npetsc));
  PetscCheck(nwarp == 0 && npetsc == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "f0(x): %" PetscInt_FMT " residuals by PetscWarpAsm, %" PetscInt_FMT " by PETSc", nwarp, npetsc);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  f0(x): residual left to PETSc\n"));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&F));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The KSP hook (DMPlexWarpSetKSPLocalFEM) with KSPSetDM(): operator entry-wise against PETSc's Jacobian, right-hand side
   against -F(0) of PETSc's residual, and the solution and CG iterations of PETSc's Newton step (up, lits0) */
static PetscErrorCode KSPHook(PetscBool elas, PetscInt degree, const char *type, DM dmp, Vec up, PetscInt lits0)
{
  DM               dm;
  KSP              ksp;
  SNES             snes;
  Mat              A, Jp;
  Vec              b, x, u0, F;
  PetscReal        ej, eb, eu;
  PetscInt         lits, nwarp, npetsc;
  PetscWarpAsm     wa;
  PetscWarpAsmInfo info;

  PetscFunctionBegin;
  PetscCall(CreateDM(elas, PETSC_FALSE, degree, MATAIJ, PETSC_FALSE, &dm));
  PetscCall(DMSetMatType(dm, type));
  PetscCall(DMPlexWarpSetKSPLocalFEM(dm));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetDM(ksp, dm));
  PetscCall(SetKSP(ksp));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, NULL, NULL));
  PetscCall(KSPGetIterationNumber(ksp, &lits));
  PetscCall(KSPGetSolution(ksp, &x));
  PetscCall(KSPGetRhs(ksp, &b));
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  /* PETSc's Jacobian and -F(0) */
  PetscCall(DMCreateMatrix(dmp, &Jp));
  PetscCall(DMCreateGlobalVector(dmp, &u0));
  PetscCall(VecDuplicate(u0, &F));
  PetscCall(VecZeroEntries(u0));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dmp));
  PetscCall(SNESComputeJacobian(snes, u0, Jp, Jp));
  PetscCall(SNESComputeFunction(snes, u0, F));
  PetscCall(VecScale(F, -1.0));
  PetscCall(SNESDestroy(&snes));
  PetscCall(TestEntryDifference(A, Jp, &ej));
  PetscCall(RelDiff(b, F, &eb));
  PetscCall(RelDiff(x, up, &eu));
  PetscCall(DMPlexWarpGetAsm(dm, &wa));
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(DMPlexWarpGetResidualCount(dm, &nwarp, &npetsc));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-8s KSP: operator (%s) max entry diff. %.1e, rhs rel. diff. %.1e, %" PetscInt_FMT " CG iterations, solution rel. diff. %.1e; %" PetscInt_FMT " operators and %" PetscInt_FMT " rhs by PetscWarpAsm\n", type,
                        ((PetscObject)A)->type_name, (double)ej, (double)eb, lits, (double)eu, info.nassemblies, nwarp));
  PetscCheck(ej < 1e-12 && eb < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s KSP: operator (%g) or right-hand side (%g) differs from PETSc's", type, (double)ej, (double)eb);
  PetscCheck(PetscAbsInt(lits - lits0) <= 1 && eu < 1e-9, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s KSP: %" PetscInt_FMT " CG iterations (PETSc %" PetscInt_FMT "), solution differs by %g", type, lits, lits0, (double)eu);
  PetscCheck(info.nassemblies == 1 && nwarp == 1 && npetsc == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s KSP: %" PetscInt_FMT " operators, %" PetscInt_FMT "/%" PetscInt_FMT " right-hand sides by PetscWarpAsm/PETSc", type, info.nassemblies, nwarp, npetsc);
  PetscCall(MatDestroy(&Jp));
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&F));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Several ranks: a mesh distributed with overlap is refused by the hooks with PETSC_ERR_SUP (its cells would be
   assembled twice) */
static PetscErrorCode Overlap(PetscBool elas)
{
  DM             dm;
  PetscErrorCode ierr;
  PetscMPIInt    size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsSetValue(NULL, "-test_overlap", "1"));
  PetscCall(CreateDM(elas, PETSC_FALSE, 1, MATAIJ, PETSC_FALSE, &dm));
  PetscCall(PetscOptionsClearValue(NULL, "-test_overlap"));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DMPlexWarpSetSNESLocalFEM(dm);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "a mesh with overlap 1: expected PETSC_ERR_SUP from DMPlexWarpSetSNESLocalFEM(), got %d", (int)ierr);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  refused: a mesh distributed with overlap 1\n"));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscBool   skip, device, elas, flg, ts = PETSC_FALSE;
  char        physname[32], *types[8];
  PlexPhysics phys;
  PetscInt    nt = 8, degrees[4] = {1, 2}, nd = 4;
  PetscRandom rnd;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(TestGetPhysics(physname, sizeof(physname), &phys));
  elas = (PetscBool)(phys == PLEX_PHYSICS_ELASTICITY);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ts", &ts, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-neumann", &neumann, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bc_field", &bcfield, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-degrees", degrees, &nd, &flg));
  if (!flg) nd = 2;
  PetscCall(TestGetTypes(device, types, &nt));
  {
    PetscMPIInt size;
    PetscInt    nc = 0, ncmin, ncmax;
    DM          dm;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCall(CreateDM(elas, PETSC_FALSE, 1, MATAIJ, PETSC_FALSE, &dm));
    PetscCall(DMPlexGetHeightStratum(dm, 0, NULL, &nc));
    PetscCallMPI(MPIU_Allreduce(&nc, &ncmin, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
    PetscCallMPI(MPIU_Allreduce(&nc, &ncmax, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d ranks, %" PetscInt_FMT " to %" PetscInt_FMT " cells per rank\n", size, ncmin, ncmax));
    PetscCall(DMDestroy(&dm));
  }
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 20261123));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt k = 0; k < nd; k++)
    for (PetscInt pass = 0; pass < (ts ? 2 : 1); pass++) {
      PetscBool tsp = (PetscBool)(pass == 1);
      DM        dmp;
      Vec       up;
      PetscInt  its0, lits0;

      PetscCall(CreateDM(elas, tsp, degrees[k], MATAIJ, PETSC_FALSE, &dmp));
      PetscCall(Solve(dmp, tsp, &its0, &lits0, &up));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s, degree %" PetscInt_FMT ": PETSc %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations\n", elas ? "elasticity" : "Laplace", tsp ? "TS (backward Euler, 3 steps)" : "SNES", degrees[k], its0, lits0));
      for (PetscInt t = 0; t < nt; t++) {
        DM        dmw;
        Vec       u;
        PetscInt  its, lits, nwarp, npetsc;
        PetscReal e;
        char      what[64];

        PetscCall(PetscSNPrintf(what, sizeof(what), "%-8s %s", types[t], tsp ? "TS" : "SNES"));
        PetscCall(CreateDM(elas, tsp, degrees[k], types[t], PETSC_TRUE, &dmw));
        PetscCall(CompareResiduals(dmw, dmp, tsp, rnd, what));
        PetscCall(DMDestroy(&dmw));
        PetscCall(CreateDM(elas, tsp, degrees[k], types[t], PETSC_TRUE, &dmw));
        PetscCall(Solve(dmw, tsp, &its, &lits, &u));
        PetscCall(RelDiff(u, up, &e));
        PetscCall(DMPlexWarpGetResidualCount(dmw, &nwarp, &npetsc));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %" PetscInt_FMT " Newton, %" PetscInt_FMT " CG iterations, solution rel. diff. %.1e, %" PetscInt_FMT " residuals by PetscWarpAsm\n", what, its, lits, (double)e, nwarp));
        /* the residual is summed in another order than PETSc's (at 1e-16): CG may cross its tolerance one step apart */
        PetscCheck(its == its0 && PetscAbsInt(lits - lits0) <= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: iterations %" PetscInt_FMT "/%" PetscInt_FMT ", PETSc %" PetscInt_FMT "/%" PetscInt_FMT, what, its, lits, its0, lits0);
        PetscCheck(e < 1e-9, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: solution differs by %g", what, (double)e);
        PetscCheck(nwarp > 0 && npetsc == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " residuals by PetscWarpAsm, %" PetscInt_FMT " by PETSc", what, nwarp, npetsc);
        PetscCall(VecDestroy(&u));
        PetscCall(DMDestroy(&dmw));
        if (!tsp) PetscCall(KSPHook(elas, degrees[k], types[t], dmp, up, lits0));
      }
      PetscCall(VecDestroy(&up));
      PetscCall(DMDestroy(&dmp));
    }
  PetscCall(Refusals(elas));
  PetscCall(Overlap(elas));
  PetscCall(PetscRandomDestroy(&rnd));
  for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscFinalize());
  return 0;
}
