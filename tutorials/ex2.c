static char help[] = "petscwarp tutorial 2: the steady heat problem of Cecka, Lew and Darve (section 6.1) on a 2D domain with holes,\n"
                     "  -div(grad u) = f = 0.1,  u = 200 on the left edge (gmsh Face Set 1), u = 10 on the holes (Face Set 2),\n"
                     "  grad u . n = 0 elsewhere (Face Set 3),\n"
                     "Lagrange elements of any degree on the gmsh triangles (or quadrilaterals) refined by DMPlex, one Newton step\n"
                     "(the problem is linear) with CG. Each path sets the problem up the same way and differs only in the\n"
                     "Jacobian's matrix type and who assembles it and the residual:\n"
                     "  aij      PETSc's CPU path: DMPlexSetSNESLocalFEM(), MATAIJ, DMPlexSNESComputeJacobianFEM()\n"
                     "  ellwarp  DMPlexWarpSetSNESLocalFEM(): the Jacobian computed and reduced by PetscWarpAsm into MATELLWARP's\n"
                     "           layout, on the GPU when there is one (vectors VECCUDA), else by the host twins of the kernels; the\n"
                     "           residual computed by PetscWarpAsm too (per cell, into a local vector, cached boundary values)\n"
                     "  sharednz the same into MATSHAREDNZ (cuSPARSE CSR; GPU only)\n"
                     "and prints set-up, residual and assembly (first, with the set-up; again, as in time stepping), solve,\n"
                     "iterations and the agreement of the solutions with the aij path.\n"
                     "  -paths a,b,...     paths to run (default aij,ellwarp, and sharednz with a GPU)\n"
                     "  -rtol <r>          CG relative tolerance (default 1e-10)\n"
                     "  -check             exit with an error if a path's solution differs from aij's by more than 100 rtol or\n"
                     "                     its iteration count by more than max(1, 0.5%): the sums of the assembly run in another\n"
                     "                     order than PETSc's (atomics: in any order), which moves CG by a few of thousands of steps\n"
                     "  -require_device    exit with the skip code 200 (and say so) when there is no CUDA device\n"
                     "Mesh: -dm_plex_filename (default the shipped bench/meshes/holed_tri.msh), -dm_refine (default 4 with a GPU:\n"
                     "490 k unknowns at P1; 5 gives 1.96 M, the size of the paper's largest mesh; 3 without a GPU: 123 k),\n"
                     "element: -petscspace_degree (default 1); solver: -ksp_type, -pc_type (default cg, jacobi; e.g. -pc_type gamg)\n\n";

#include <petscwarp.h>
#include "plexproblem.h"
#include <petscsnes.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscdevice.h>
#include <petsctime.h>

#ifndef PETSCWARP_SOURCE_DIR
  #define PETSCWARP_SOURCE_DIR "."
#endif

static PetscErrorCode g200(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  u[0] = 200.0;
  return PETSC_SUCCESS;
}

static PetscErrorCode g10(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  u[0] = 10.0;
  return PETSC_SUCCESS;
}

static void f0_heat(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  f0[0] = -0.1; /* -f */
}

static void f1_heat(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = u_x[d];
}

static void g3_heat(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

typedef struct {
  char      name[16];
  PetscReal t_setup, t_res1, t_res2, t_asm1, t_asm2, t_solve, err;
  PetscInt  its, rows;
  char      how[64];
} Result;

/* The mesh, the field and the problem (the same for every path); the SNES callbacks by the path */
static PetscErrorCode CreateProblem(MPI_Comm comm, const char *path, PetscBool device, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, hot = 1, cold = 2;
  DMPolytopeType ct;
  PetscBool      simplex, warp;

  PetscFunctionBegin;
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, NULL));
  PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
  simplex = DMPolytopeTypeGetNumVertices(ct) == DMPolytopeTypeGetDim(ct) + 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscFECreateDefault(PETSC_COMM_SELF, dim, 1, simplex, NULL, PETSC_DETERMINE, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "temperature"));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetResidual(ds, 0, f0_heat, f1_heat));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_heat));
  PetscCall(DMGetLabel(*dm, "Face Sets", &label));
  PetscCheck(label, comm, PETSC_ERR_ARG_WRONG, "The mesh has no \"Face Sets\" label: use a gmsh mesh with physical groups 1 (u = 200) and 2 (u = 10)");
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "hot", label, 1, &hot, 0, 0, NULL, (PetscVoidFn *)g200, NULL, NULL, NULL));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "cold", label, 1, &cold, 0, 0, NULL, (PetscVoidFn *)g10, NULL, NULL, NULL));
  PetscCall(PetscStrcmp(path, "aij", &warp));
  warp = (PetscBool)!warp;
  PetscCall(DMSetMatType(*dm, warp ? path : MATAIJ));
  if (warp && device) PetscCall(DMSetVecType(*dm, VECCUDA));
  if (warp) PetscCall(DMPlexWarpSetSNESLocalFEM(*dm));
  else PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One path: u0 = 0 (boundary values inserted by DMPlex), F = F(u0), J (twice), du = J^{-1} F, u = u0 - du */
static PetscErrorCode RunPath(const char *path, PetscBool device, PetscReal rtol, Vec uref, Vec *uout, Result *r)
{
  DM             dm;
  SNES           snes;
  KSP            ksp;
  PC             pc;
  Mat            J;
  Vec            u, F, du;
  PetscLogDouble t0, t1;
  PetscLogStage  stage[2];
  char           sname[64];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->name, path, sizeof(r->name)));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t0));
  PetscCall(CreateProblem(PETSC_COMM_WORLD, path, device, &dm));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(DMCreateMatrix(dm, &J));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecDuplicate(u, &F));
  PetscCall(VecDuplicate(u, &du));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(VecSet(u, 0.0));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  r->t_setup = (PetscReal)(t1 - t0);
  PetscCall(VecGetSize(u, &r->rows));

  /* residual and Jacobian twice: first (boundary values projected, plans built), then again as in a Newton step; the
     second time and the solve are the log stage "<path> step" (-log_view: its CpuToGpu/GpuToCpu are one Newton step's) */
  PetscCall(PetscSNPrintf(sname, sizeof(sname), "%s first", path));
  PetscCall(PetscLogStageRegister(sname, &stage[0]));
  PetscCall(PetscSNPrintf(sname, sizeof(sname), "%s step", path));
  PetscCall(PetscLogStageRegister(sname, &stage[1]));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscLogStagePush(stage[k]));
    PetscCall(PetscTime(&t0));
    PetscCall(SNESComputeFunction(snes, u, F));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t1));
    if (k == 0) r->t_res1 = (PetscReal)(t1 - t0);
    else r->t_res2 = (PetscReal)(t1 - t0);
    PetscCall(PetscTime(&t0));
    PetscCall(SNESComputeJacobian(snes, u, J, J));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t1));
    if (k == 0) r->t_asm1 = (PetscReal)(t1 - t0);
    else r->t_asm2 = (PetscReal)(t1 - t0);
    if (k == 0) PetscCall(PetscLogStagePop());
  }
  PetscCall(KSPSetOperators(ksp, J, J));
  PetscCall(KSPSetUp(ksp));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, F, du));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  r->t_solve = (PetscReal)(t1 - t0);
  PetscCall(KSPGetIterationNumber(ksp, &r->its));
  PetscCall(VecAXPY(u, -1.0, du));
  PetscCall(PetscLogStagePop());
  if (uref) {
    Vec       d;
    PetscReal nd, nr;
    PetscCall(VecDuplicate(uref, &d));
    PetscCall(VecCopy(u, d)); /* VecCopy between a CUDA and a standard vector of the same layout goes through the host */
    PetscCall(VecAXPY(d, -1.0, uref));
    PetscCall(VecNorm(d, NORM_INFINITY, &nd));
    PetscCall(VecNorm(uref, NORM_INFINITY, &nr));
    r->err = nr > 0 ? nd / nr : nd;
    PetscCall(VecDestroy(&d));
  }
  {
    PetscBool w;
    PetscCall(PetscStrcmp(path, "aij", &w));
    if (!w) {
      PetscWarpAsm     wa;
      PetscWarpAsmInfo info;
      PetscInt         nwarp;
      PetscCall(DMPlexWarpGetAsm(dm, &wa));
      PetscCall(PetscWarpAsmGetInfo(wa, &info));
      PetscCall(DMPlexWarpGetResidualCount(dm, &nwarp, NULL));
      PetscCall(PetscSNPrintf(r->how, sizeof(r->how), "PetscWarpAsm %s on the %s, residual by %s", PetscWarpAsmStrategies[info.used], info.device ? "GPU" : "host", nwarp ? "PetscWarpAsm" : "PETSc"));
    } else PetscCall(PetscStrncpy(r->how, "PETSc, MatSetValues on the CPU; PETSc's residual", sizeof(r->how)));
  }
  PetscCall(DMViewFromOptions(dm, NULL, "-dm_view"));
  if (uout) {
    PetscCall(VecDuplicate(u, uout));
    PetscCall(VecCopy(u, *uout));
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&du));
  PetscCall(MatDestroy(&J));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       *paths[8];
  PetscInt    npaths = 8;
  PetscBool   set, device, check = PETSC_FALSE, require = PETSC_FALSE;
  PetscReal   rtol = 1e-10;
  Result      res[8];
  Vec         uref = NULL;
  PetscMPIInt size;
  char        mesh[PETSC_MAX_PATH_LEN];

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_device", &require, NULL));
  if (require && !device) { /* a GPU test without a GPU: skipped, with the reason (exit code 200: CTest's skip) */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED: -require_device and no CUDA device is available\n"));
    PetscCall(PetscFinalize());
    return 200;
  }
  /* the defaults: the shipped holed mesh, refined 3 times, P1 */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &set));
  if (!set) {
    PetscCall(PetscSNPrintf(mesh, sizeof(mesh), "%s/bench/meshes/holed_tri.msh", PETSCWARP_SOURCE_DIR));
    PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_filename", mesh));
  }
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_refine", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_refine", device ? "4" : "3")); /* 490 k / 123 k unknowns at P1 */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-petscspace_degree", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-petscspace_degree", "1"));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", &check, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-paths", paths, &npaths, &set));
  if (!set) {
    npaths = device ? 3 : 2;
    PetscCall(PetscStrallocpy("aij", &paths[0]));
    PetscCall(PetscStrallocpy("ellwarp", &paths[1]));
    if (device) PetscCall(PetscStrallocpy("sharednz", &paths[2]));
  }
  for (PetscInt p = 0; p < npaths; p++) {
    PetscBool isaij;
    PetscCall(PetscStrcmp(paths[p], "aij", &isaij));
    PetscCheck(p > 0 || isaij, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "The first path must be aij (the reference)");
    PetscCall(RunPath(paths[p], device, rtol, uref, p == 0 ? &uref : NULL, &res[p]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "heat problem on %d rank(s), %" PetscInt_FMT " unknowns; the Jacobian assembled %s; times in seconds\n", size, res[0].rows, device ? "on the GPU by the petscwarp paths" : "by the host twins of the kernels for the petscwarp paths (no GPU)"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %8s %9s %9s %10s %10s %8s %8s %6s %10s  %s\n", "path", "set-up", "res first", "res again", "asm first", "asm again", "solve", "asm+solve", "its", "max|du|/|u|", "assembly by"));
  for (PetscInt p = 0; p < npaths; p++) {
    Result *r = &res[p];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %8.3f %9.4f %9.5f %10.4f %10.5f %8.4f %8.4f %6" PetscInt_FMT " %10.2e  %s\n", r->name, (double)r->t_setup, (double)r->t_res1, (double)r->t_res2, (double)r->t_asm1, (double)r->t_asm2, (double)r->t_solve, (double)(r->t_asm2 + r->t_solve), r->its,
                          (double)r->err, r->how));
  }
  for (PetscInt p = 1; p < npaths; p++)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s against aij: residual %.1fx faster (again), assembly %.1fx (again), solve %.1fx, assembly + solve %.1fx\n", res[p].name, (double)(res[0].t_res2 / res[p].t_res2), (double)(res[0].t_asm2 / res[p].t_asm2),
                          (double)(res[0].t_solve / res[p].t_solve), (double)((res[0].t_asm2 + res[0].t_solve) / (res[p].t_asm2 + res[p].t_solve))));
  if (check)
    for (PetscInt p = 1; p < npaths; p++) {
      PetscCheck(res[p].err <= 100 * rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: solution differs from aij's by %g", res[p].name, (double)res[p].err);
      PetscCheck(PetscAbsInt(res[p].its - res[0].its) <= PetscMax(1, res[0].its / 200), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: %" PetscInt_FMT " iterations, aij %" PetscInt_FMT, res[p].name, res[p].its, res[0].its);
    }
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PetscFree(paths[p]));
  PetscCall(VecDestroy(&uref));
  PetscCall(PetscFinalize());
  return 0;
}
