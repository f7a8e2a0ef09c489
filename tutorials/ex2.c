static char help[] = "petscwarp tutorial 2: the steady heat problem of Cecka, Lew and Darve (section 6.1) on a 2D domain with holes,\n"
                     "  -div(grad u) = f = 0.1,  u = 200 on the left edge (gmsh Face Set 1), u = 10 on the holes (Face Set 2),\n"
                     "  grad u . n = q elsewhere (Face Set 3; -q <q>, default 0: insulated; a constant q is part of the device residual),\n"
                     "Lagrange elements of any degree on the gmsh triangles (or quadrilaterals) refined by DMPlex, one Newton step\n"
                     "(the problem is linear) with CG. Each path sets the problem up the same way and differs only in the\n"
                     "Jacobian's matrix type and who assembles it and the residual:\n"
                     "  aij      PETSc's CPU path: DMPlexSetSNESLocalFEM(), MATAIJ, DMPlexSNESComputeJacobianFEM()\n"
                     "  ellwarp  DMPlexWarpSetSNESLocalFEM(): the Jacobian computed and reduced by PetscWarpAsm into MATELLWARP's\n"
                     "           layout, on the GPU when there is one (vectors VECCUDA), else by the host twins of the kernels; the\n"
                     "           residual computed by PetscWarpAsm too (per cell, into a local vector, cached boundary values)\n"
                     "  sharednz the same into MATSHAREDNZ (cuSPARSE CSR; GPU only)\n"
                     "and prints set-up, residual and assembly (first, with the set-up; again, as in time stepping), the\n"
                     "preconditioner's set-up, solve,\n"
                     "iterations and the agreement of the solutions with the aij path.\n"
                     "  -paths a,b,...     paths to run (default aij,ellwarp, and sharednz with a GPU); the first is the reference\n"
                     "  -paths_gamg_type t PCGAMG type of the paths other than aij with -pc_type gamg (e.g. warp: set up on the device)\n"
                     "  -rtol <r>          CG relative tolerance (default 1e-10)\n"
                     "  -check             exit with an error if a path's solution differs from aij's by more than 100 rtol or\n"
                     "                     its iteration count by more than max(1, 0.5%): the sums of the assembly run in another\n"
                     "                     order than PETSc's (atomics: in any order), which moves CG by a few of thousands of steps\n"
                     "  -require_device    exit with the skip code 200 (and say so) when there is no CUDA device\n"
                     "  -csv <file>        append one line per path (problem, degree, ranks, unknowns, path, pc, times, its, error, how, ksp; a header\n"
                     "                     first when the file is new)\n"
                     "Mesh: -dm_plex_filename (default the shipped bench/meshes/holed_tri.msh), -dm_refine (default 4 with a GPU:\n"
                     "490 k unknowns at P1; 5 gives 1.96 M, the size of the paper's largest mesh; 3 without a GPU: 123 k),\n"
                     "element: -petscspace_degree (default 1); solver: -ksp_type, -pc_type (default cg, jacobi; e.g. -pc_type gamg)\n\n";

#include <petscwarp.h>
#include "plexpaths.h"
#include <petscsnes.h>
#include <petscdmplex.h>
#include <petscds.h>

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

/* the boundary f0 of the flux grad u . n = q (constant 0 of the PetscDS) on Face Set 3: -q */
static void f0_flux(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  f0[0] = -constants[0];
}

static void f1_heat(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = u_x[d];
}

static void g3_heat(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

/* The mesh, the field and the problem (the same for every path); tutorials/plexpaths.c sets the path's matrix type and
   SNES callbacks */
static PetscErrorCode CreateProblem(MPI_Comm comm, PetscBool device, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, hot = 1, cold = 2;
  PetscReal      q = 0.0;
  DMPolytopeType ct;
  PetscBool      simplex;

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
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-q", &q, NULL));
  if (q != 0.0) { /* a Neumann flux on Face Set 3 (the natural boundary with q = 0 needs no term) */
    PetscWeakForm wf;
    PetscScalar   c = q;
    PetscInt      bd, ins = 3;

    PetscCall(PetscDSSetConstants(ds, 1, &c));
    PetscCall(DMAddBoundary(*dm, DM_BC_NATURAL, "flux", label, 1, &ins, 0, 0, NULL, NULL, NULL, NULL, &bd));
    PetscCall(PetscDSGetBoundary(ds, bd, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    PetscCall(PetscWeakFormSetIndexBdResidual(wf, label, ins, 0, 0, 0, f0_flux, 0, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char           *paths[8];
  PetscInt        npaths = 8;
  PetscBool       set, device, check = PETSC_FALSE, skip;
  PetscReal       rtol = 1e-10;
  PlexPathResult  res[8];
  Vec             uref = NULL;
  char            mesh[PETSC_MAX_PATH_LEN];
  PlexPathProblem prob = {"heat problem", CreateProblem, PCJACOBI};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PlexPathOptions(device, &npaths, paths, &rtol, &check, &skip));
  if (skip) { /* a GPU test without a GPU: skipped, with the reason (exit code 200: CTest's skip) */
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
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PlexPathRun(&prob, paths[p], device, rtol, uref, p == 0 ? &uref : NULL, &res[p]));
  PetscCall(PlexPathReport(&prob, npaths, res, device, check, rtol));
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PetscFree(paths[p]));
  PetscCall(VecDestroy(&uref));
  PetscCall(PetscFinalize());
  return 0;
}
