static char help[] = "petscwarp tutorial 5: your own nonlinear problem on the device, through its pointwise functions\n"
                     "  -div((1 + beta u^2) grad u) + gamma u^3 = s sin(pi x) sin(pi y) (sin(pi z)),  u = (x + y) / 2 on the boundary,\n"
                     "on a box mesh, Lagrange elements, Newton (GMRES + Jacobi). The pointwise functions f0, f1, g0, g2, g3 are written\n"
                     "once, as __host__ __device__ functions (PETSCWARP_HD) in this file, and given both to the PetscDS (PETSc's host\n"
                     "path) and to PETSCWARP_POINTWISE(), which compiles petscwarp's element kernels from them here (nvcc: device\n"
                     "kernels and host twins; a host C++ compiler: host twins). Paths (the same DM, PetscDS and solver):\n"
                     "  aij      PETSc's CPU path: DMPlexSetSNESLocalFEM(), MATAIJ, DMPlexSNESComputeJacobianFEM()/ResidualFEM()\n"
                     "  ellwarp  DMPlexWarpSetPointwise() + DMPlexWarpSetSNESLocalFEM(): Jacobians and residuals by the compiled\n"
                     "           kernels, on the GPU when there is one (VECCUDA vectors), reduced into MATELLWARP's layout\n"
                     "  sharednz the same into MATSHAREDNZ (cuSPARSE CSR; GPU only)\n"
                     "Prints per path the Newton and GMRES iterations, the time in residuals and in Jacobians (count, total, per\n"
                     "call; device synchronised), the SNESSolve time and the difference of the solution from the first path's.\n"
                     "  -paths a,b,...     paths (default aij,ellwarp, and sharednz with a GPU); the first is the reference\n"
                     "  -beta <b>          conductivity coefficient (default 1), -gamma <g> reaction (default 1), -s <s> source\n"
                     "                     amplitude (default 10): the PetscDS's constants, read by the kernels at every call\n"
                     "  -check             error unless every path has the reference's Newton iterations, linear iterations within\n"
                     "                     max(1, 1%) and a solution within 1e-8 (relative)\n"
                     "  -require_device    exit with the skip code 200 (and say so) when there is no CUDA device\n"
                     "  -fields 2          two fields (PETSCWARP_POINTWISE_FIELDS_BEGIN()): u advected by a field w of dim components and\n"
                     "                     degree max(k - 1, 1), w - alpha grad u - lap w = 0 (w = 0 on the boundary), alpha = -alpha (default 1)\n"
                     "                       -div((1 + beta u^2) grad u) + gamma u^3 + w . grad u = s sin(pi x) ...\n"
                     "Mesh: -dm_plex_dim (default 2), -dm_plex_box_faces (default 96,96 with a GPU, 48,48 without),\n"
                     "-dm_plex_simplex (default 0; simplices need a gmsh mesh: -dm_plex_filename), -dm_refine; element:\n"
                     "-petscspace_degree (default 2); solver: -snes_*, -ksp_*, -pc_* (defaults -snes_rtol 1e-10, -ksp_rtol 1e-10)\n\n";

#include <petscwarp/pointwise.cuh>
#include <petscsnes.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petsctime.h>
extern "C" {
#include "plexproblem.h" /* VecRelativeDifference(), DeviceSync() */
}

/* ---- the problem: each pointwise function written once, for PETSc (host) and petscwarp (device) ---- */
#define PW_ARGS \
  PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t
#define PW_F_ARGS PW_ARGS, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[]
#define PW_G_ARGS PW_ARGS, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[]

/* constants[0] = beta, constants[1] = gamma, constants[2] = s */
static PETSCWARP_HD void f0_u(PW_F_ARGS, PetscScalar f0[])
{
  PetscScalar s = constants[2];
  for (PetscInt d = 0; d < dim; ++d) s *= PetscSinReal(PETSC_PI * x[d]);
  f0[0] = constants[1] * u[0] * u[0] * u[0] - s;
}
static PETSCWARP_HD void f1_u(PW_F_ARGS, PetscScalar f1[])
{
  const PetscScalar k = 1.0 + constants[0] * u[0] * u[0];
  for (PetscInt d = 0; d < dim; ++d) f1[d] = k * u_x[d];
}
static PETSCWARP_HD void g0_uu(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = 3.0 * constants[1] * u[0] * u[0];
}
static PETSCWARP_HD void g2_uu(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt d = 0; d < dim; ++d) g2[d] = 2.0 * constants[0] * u[0] * u_x[d];
}
static PETSCWARP_HD void g3_uu(PW_G_ARGS, PetscScalar g3[])
{
  const PetscScalar k = 1.0 + constants[0] * u[0] * u[0];
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = k;
}
/* petscwarp's element kernels of these functions (f0, f1, g0, g1, g2, g3; g1 absent) */
PETSCWARP_POINTWISE(ex5_pointwise, f0_u, f1_u, g0_uu, nullptr, g2_uu, g3_uu);

/* -fields 2: u (field 0) advected by w (field 1, dim components), w - alpha grad u - lap w = 0; constants[3] = alpha. With
   several fields u of field f is u[uOff[f]], its gradient u_x[uOff_x[f]], the element matrix block (f, g) has
   Nc_f x Nc_g entries per term */
static PETSCWARP_HD void f0_adv(PW_F_ARGS, PetscScalar f0[])
{
  f0_u(dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, numConstants, constants, f0);
  for (PetscInt d = 0; d < dim; ++d) f0[0] += u[uOff[1] + d] * u_x[uOff_x[0] + d];
}
static PETSCWARP_HD void g1_adv(PW_G_ARGS, PetscScalar g1[])
{
  for (PetscInt d = 0; d < dim; ++d) g1[d] = u[uOff[1] + d];
}
static PETSCWARP_HD void g0_uw(PW_G_ARGS, PetscScalar g0[])
{
  for (PetscInt e = 0; e < dim; ++e) g0[e] = u_x[uOff_x[0] + e];
}
static PETSCWARP_HD void f0_w(PW_F_ARGS, PetscScalar f0[])
{
  for (PetscInt c = 0; c < dim; ++c) f0[c] = u[uOff[1] + c] - constants[3] * u_x[uOff_x[0] + c];
}
static PETSCWARP_HD void f1_w(PW_F_ARGS, PetscScalar f1[])
{
  for (PetscInt m = 0; m < dim * dim; ++m) f1[m] = u_x[uOff_x[1] + m];
}
static PETSCWARP_HD void g1_wu(PW_G_ARGS, PetscScalar g1[])
{
  for (PetscInt c = 0; c < dim; ++c) g1[c * dim + c] = -constants[3];
}
static PETSCWARP_HD void g0_ww(PW_G_ARGS, PetscScalar g0[])
{
  for (PetscInt c = 0; c < dim; ++c) g0[c * dim + c] = 1.0;
}
static PETSCWARP_HD void g3_ww(PW_G_ARGS, PetscScalar g3[])
{
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * dim + c) * dim + d) * dim + d] = 1.0;
}
PETSCWARP_POINTWISE_FIELDS_BEGIN(ex5_fields, 2)
PETSCWARP_POINTWISE_RESIDUAL(0, f0_adv, f1_u)
PETSCWARP_POINTWISE_RESIDUAL(1, f0_w, f1_w)
PETSCWARP_POINTWISE_JACOBIAN(0, 0, g0_uu, g1_adv, g2_uu, g3_uu)
PETSCWARP_POINTWISE_JACOBIAN(0, 1, g0_uw, nullptr, nullptr, nullptr)
PETSCWARP_POINTWISE_JACOBIAN(1, 0, nullptr, g1_wu, nullptr, nullptr)
PETSCWARP_POINTWISE_JACOBIAN(1, 1, g0_ww, nullptr, nullptr, g3_ww)
PETSCWARP_POINTWISE_FIELDS_END(ex5_fields)
static PetscInt nfields = 1; /* -fields */

static PetscErrorCode zero(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; ++c) u[c] = 0.0;
  return PETSC_SUCCESS;
}

static PetscErrorCode boundary(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  u[0] = 0.5 * (x[0] + x[1]);
  return PETSC_SUCCESS;
}

/* The mesh, field, PetscDS and boundary condition: the same for every path */
static PetscErrorCode CreateProblem(MPI_Comm comm, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, id = 1;
  PetscScalar    c[4] = {1.0, 1.0, 10.0, 1.0};
  DMPolytopeType ct;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-beta", &c[0], NULL));
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-gamma", &c[1], NULL));
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-s", &c[2], NULL));
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-alpha", &c[3], NULL));
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, NULL));
  PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
  PetscCall(PetscFECreateDefault(PETSC_COMM_SELF, dim, 1, DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE, NULL, PETSC_DETERMINE, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "u"));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  if (nfields == 2) { /* w: dim components, one degree less (at least 1), at u's quadrature */
    PetscFE    few;
    PetscInt   k;
    PetscBool  simplex = DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE;
    PetscSpace sp;
    PetscCall(PetscFEGetBasisSpace(fe, &sp));
    PetscCall(PetscSpaceGetDegree(sp, &k, NULL));
    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, dim, simplex, PetscMax(k - 1, 1), PETSC_DETERMINE, &few));
    PetscCall(PetscFECopyQuadrature(fe, few));
    PetscCall(PetscObjectSetName((PetscObject)few, "w"));
    PetscCall(DMSetField(*dm, 1, NULL, (PetscObject)few));
    PetscCall(PetscFEDestroy(&few));
  }
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  if (nfields == 2) { /* the functions PETSCWARP_POINTWISE_FIELDS_BEGIN() was given */
    PetscCall(PetscDSSetResidual(ds, 0, f0_adv, f1_u));
    PetscCall(PetscDSSetResidual(ds, 1, f0_w, f1_w));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_uu, g1_adv, g2_uu, g3_uu));
    PetscCall(PetscDSSetJacobian(ds, 0, 1, g0_uw, NULL, NULL, NULL));
    PetscCall(PetscDSSetJacobian(ds, 1, 0, NULL, g1_wu, NULL, NULL));
    PetscCall(PetscDSSetJacobian(ds, 1, 1, g0_ww, NULL, NULL, g3_ww));
  } else {
    PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u)); /* the functions PETSCWARP_POINTWISE() was given */
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_uu, NULL, g2_uu, g3_uu));
  }
  PetscCall(PetscDSSetConstants(ds, 4, c));
  PetscCall(DMCreateLabel(*dm, "boundary"));
  PetscCall(DMGetLabel(*dm, "boundary", &label));
  PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
  PetscCall(DMPlexLabelComplete(*dm, label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)boundary, NULL, NULL, NULL));
  if (nfields == 2) PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall_w", label, 1, &id, 1, 0, NULL, (PetscVoidFn *)zero, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- timing: the SNES's residual and Jacobian wrapped, the device synchronised around each call ---- */
typedef struct {
  char            name[16];
  PetscInt        newton, linear, nres, njac, rows;
  PetscLogDouble  t_res, t_jac, t_total;
  PetscReal       err;
  SNESFunctionFn *f;
  SNESJacobianFn *j;
  void           *fctx, *jctx;
} Result;

static PetscErrorCode TimedFunction(SNES snes, Vec X, Vec F, void *ctx)
{
  Result        *r = (Result *)ctx;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t0));
  PetscCall((*r->f)(snes, X, F, r->fctx));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  r->t_res += t1 - t0;
  r->nres++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TimedJacobian(SNES snes, Vec X, Mat J, Mat P, void *ctx)
{
  Result        *r = (Result *)ctx;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t0));
  PetscCall((*r->j)(snes, X, J, P, r->jctx));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  r->t_jac += t1 - t0;
  r->njac++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One path: the problem, its SNES callbacks (PETSc's, or petscwarp's with the pointwise kernels), a Newton solve from
   u = 0 in the interior; the solution of the first path is kept (uref) and the others compared with it */
static PetscErrorCode RunPath(const char path[], Vec *uref, Result *r)
{
  DM        dm;
  SNES      snes;
  KSP       ksp;
  PC        pc;
  Vec       u;
  PetscBool aij;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->name, path, sizeof(r->name)));
  PetscCall(PetscStrcmp(path, "aij", &aij));
  PetscCall(CreateProblem(PETSC_COMM_WORLD, &dm));
  PetscCall(DMSetMatType(dm, path));
  if (aij) PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, NULL)); /* PETSc's host path */
  else {
    PetscCall(DMPlexWarpSetPointwise(dm, nfields == 2 ? &ex5_fields : &ex5_pointwise)); /* before the hook */
    PetscCall(DMPlexWarpSetSNESLocalFEM(dm));
  }
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecGetSize(u, &r->rows));
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESSetTolerances(snes, PETSC_CURRENT, 1e-10, PETSC_CURRENT, 50, PETSC_CURRENT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(SNESSetFromOptions(snes));
  /* the DM's residual and Jacobian (PETSc's or the hook's), timed */
  PetscCall(SNESGetFunction(snes, NULL, &r->f, &r->fctx));
  PetscCall(SNESGetJacobian(snes, NULL, NULL, &r->j, &r->jctx));
  PetscCall(SNESSetFunction(snes, NULL, TimedFunction, r));
  PetscCall(SNESSetJacobian(snes, NULL, NULL, TimedJacobian, r));
  {
    PetscLogDouble t0, t1;
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t0));
    PetscCall(SNESSolve(snes, NULL, u));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t1));
    r->t_total = t1 - t0;
  }
  {
    SNESConvergedReason reason;
    PetscCall(SNESGetConvergedReason(snes, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "Path %s: Newton did not converge (%s)", path, SNESConvergedReasons[reason]);
  }
  PetscCall(SNESGetIterationNumber(snes, &r->newton));
  PetscCall(SNESGetLinearSolveIterations(snes, &r->linear));
  { /* the solution as a host vector: the reference (first path), or compared with it */
    Vec                uh;
    PetscInt           n;
    const PetscScalar *a;
    PetscScalar       *b;
    PetscCall(VecGetLocalSize(u, &n));
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE, &uh));
    PetscCall(VecGetArrayRead(u, &a));
    PetscCall(VecGetArrayWrite(uh, &b));
    PetscCall(PetscArraycpy(b, a, n));
    PetscCall(VecRestoreArrayRead(u, &a));
    PetscCall(VecRestoreArrayWrite(uh, &b));
    if (!*uref) *uref = uh;
    else {
      PetscCall(VecRelativeDifference(uh, *uref, &r->err));
      PetscCall(VecDestroy(&uh));
    }
  }
  PetscCall(VecDestroy(&u));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char     *paths[8];
  PetscInt  npaths = 8;
  PetscBool set, device, check = PETSC_FALSE, require = PETSC_FALSE;
  Result    res[8];
  Vec       uref = NULL;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_device", &require, NULL));
  if (require && !device) { /* a GPU test without a GPU: skipped, with the reason (exit code 200: CTest's skip) */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED: -require_device and no CUDA device is available\n"));
    PetscCall(PetscFinalize());
    return 200;
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-fields", &nfields, NULL));
  PetscCheck(nfields == 1 || nfields == 2, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-fields 1 or 2, not %" PetscInt_FMT, nfields);
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-paths", paths, &npaths, &set));
  if (!set) {
    npaths = device ? 3 : 2;
    PetscCall(PetscStrallocpy("aij", &paths[0]));
    PetscCall(PetscStrallocpy("ellwarp", &paths[1]));
    if (device) PetscCall(PetscStrallocpy("sharednz", &paths[2]));
  }
  /* the defaults: a 2D box of quadrilaterals, Q2 */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_simplex", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_simplex", "0"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_faces", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_box_faces", device ? "96,96" : "48,48"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-petscspace_degree", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-petscspace_degree", "2"));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Pointwise kernels %s; %s\n", ex5_pointwise.jacobian_device ? "compiled for the device and the host" : "compiled for the host only (no nvcc)", device ? "a CUDA device is present" : "no CUDA device: the host twins run"));
  for (PetscInt p = 0; p < npaths; p++) PetscCall(RunPath(paths[p], &uref, &res[p]));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%" PetscInt_FMT " unknowns; times in seconds (residuals and Jacobians: count, total, per call)\n", res[0].rows));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %6s %7s %4s %9s %10s %4s %9s %10s %9s %10s\n", "path", "Newton", "linear", "res", "res total", "per res", "jac", "jac total", "per jac", "SNESSolve", "rel. diff."));
  for (PetscInt p = 0; p < npaths; p++) {
    const Result *r = &res[p];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %6" PetscInt_FMT " %7" PetscInt_FMT " %4" PetscInt_FMT " %9.4f %10.6f %4" PetscInt_FMT " %9.4f %10.6f %9.4f %10.2e\n", r->name, r->newton, r->linear, r->nres, r->t_res, r->t_res / PetscMax(r->nres, 1), r->njac, r->t_jac, r->t_jac / PetscMax(r->njac, 1), r->t_total,
                          (double)r->err));
  }
  for (PetscInt p = 1; p < npaths; p++)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s against %s: residuals %.1fx, Jacobians %.1fx, SNESSolve %.1fx\n", res[p].name, res[0].name, res[0].t_res / res[p].t_res, res[0].t_jac / res[p].t_jac, res[0].t_total / res[p].t_total));
  if (check) {
    for (PetscInt p = 1; p < npaths; p++) {
      PetscCheck(res[p].newton == res[0].newton, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: %" PetscInt_FMT " Newton iterations, %s %" PetscInt_FMT, res[p].name, res[p].newton, res[0].name, res[0].newton);
      PetscCheck(PetscAbsInt(res[p].linear - res[0].linear) <= PetscMax(1, res[0].linear / 100), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: %" PetscInt_FMT " linear iterations, %s %" PetscInt_FMT, res[p].name, res[p].linear, res[0].name, res[0].linear);
      PetscCheck(res[p].err < 1e-8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: the solution differs from %s's by %g", res[p].name, res[0].name, (double)res[p].err);
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "check passed: the Newton iterations of %s, linear iterations within max(1, 1%%), solutions within 1e-8\n", res[0].name));
  }
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PetscFree(paths[p]));
  PetscCall(VecDestroy(&uref));
  PetscCall(PetscFinalize());
  return 0;
}
