static char help[] = "petscwarp tutorial 3: linear elasticity on hexahedra (or any mesh DMPlex reads), the counterpart of PETSc's\n"
                     "snes/tutorials/ex56: -div sigma(u) = b, sigma = lambda div(u) I + mu (grad u + grad u^T), b = (0, .., -1)\n"
                     "(gravity), u = 0 on one face (Face Sets value -fixed_face: the left face x = 0 of a box by default), free\n"
                     "elsewhere; Q1 or Q2 (-petscspace_degree), one Newton step (the problem is linear) with CG and GAMG, the\n"
                     "rigid-body modes as GAMG's near null space (DMPlexWarpCreateRigidBody(): DMPlexCreateRigidBody()'s modes,\n"
                     "from the vertex coordinates for Q1; on every path). Each path sets the problem up the\n"
                     "same way and differs only in the Jacobian's matrix type and who assembles it:\n"
                     "  aij      PETSc's CPU path: DMPlexSetSNESLocalFEM(), MATAIJ, DMPlexSNESComputeJacobianFEM()\n"
                     "  ellwarp  DMPlexWarpSetSNESLocalFEM(): the Jacobian computed and reduced by PetscWarpAsm into MATELLWARP's\n"
                     "           layout, on the GPU when there is one (vectors VECCUDA), else by the host twins of the kernels\n"
                     "  sharednz the same into MATSHAREDNZ (cuSPARSE CSR; GPU only)\n"
                     "and prints set-up, residual, assembly (first, with the plan; again), GAMG's set-up, solve, iterations and\n"
                     "the agreement of the solutions with the aij path.\n"
                     "  -lambda <l> -mu <m>  Lame parameters (default 1, 1)\n"
                     "  -fixed_face <id>     the Face Sets value of the clamped face (default: 6, the box's x = 0 face in 3D; 4 in 2D)\n"
                     "  -paths a,b,...       paths to run (default aij,ellwarp, and sharednz with a GPU); the first is the reference\n"
                     "  -paths_gamg_type t   PCGAMG type of the paths other than aij with -pc_type gamg (e.g. warp: set up on the device)\n"
                     "  -rtol <r>            CG relative tolerance (default 1e-8)\n"
                     "  -check               exit with an error if a path's solution differs from aij's by more than 100 rtol or\n"
                     "                       its iteration count by more than max(1, 0.5%)\n"
                     "  -require_device      exit with the skip code 200 (and say so) when there is no CUDA device\n"
                     "  -csv <file>          append one line per path (problem, degree, ranks, unknowns, path, pc, times, its, error, how, ksp; a header\n"
                     "                       first when the file is new)\n"
                     "Mesh: the box -dm_plex_box_faces (default 40,40,40 with a GPU: 206 k unknowns at Q1; 10,10,10 without), or\n"
                     "-dm_plex_filename; solver: -ksp_type, -pc_type, -pc_gamg_* (default cg, gamg)\n\n";

#include <petscwarp.h>
#include "plexpaths.h"
#include <petscdmplex.h>
#include <petscds.h>

static PetscErrorCode zero(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = 0.0;
  return PETSC_SUCCESS;
}

/* f0 = -b, b = (0, .., -1) */
static void f0_gravity(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < dim; c++) f0[c] = 0.0;
  f0[dim - 1] = 1.0;
}

/* f1 = sigma(u) = lambda div(u) I + mu (grad u + grad u^T); constants = (lambda, mu) */
static void f1_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  const PetscScalar lambda = constants[0], mu = constants[1];
  PetscScalar       div = 0.0;

  for (PetscInt c = 0; c < dim; c++) div += u_x[c * dim + c];
  for (PetscInt c = 0; c < dim; c++)
    for (PetscInt d = 0; d < dim; d++) f1[c * dim + d] = mu * (u_x[c * dim + d] + u_x[d * dim + c]) + (c == d ? lambda * div : 0.0);
}

/* g3[c][g][d][e] = d f1[c][d] / d u_x[g][e] = mu (delta_cg delta_de + delta_ce delta_dg) + lambda delta_cd delta_ge */
static void g3_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  const PetscScalar lambda = constants[0], mu = constants[1];

  for (PetscInt c = 0; c < dim; c++)
    for (PetscInt g = 0; g < dim; g++)
      for (PetscInt d = 0; d < dim; d++)
        for (PetscInt e = 0; e < dim; e++) g3[((c * dim + g) * dim + d) * dim + e] = mu * ((c == g && d == e) + (c == e && d == g)) + lambda * (c == d && g == e);
}

static PetscErrorCode RigidBody(DM dm, PetscInt origField, PetscInt field, MatNullSpace *nullspace)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpCreateRigidBody(dm, origField, nullspace)); /* DMPlexCreateRigidBody()'s modes; Q1: from the coordinates */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateElasticity(MPI_Comm comm, PetscBool device, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, fixed;
  DMPolytopeType ct;
  PetscBool      simplex, file;
  PetscScalar    lm[2] = {1.0, 1.0};

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-lambda", &lm[0], NULL));
  PetscCall(PetscOptionsGetScalar(NULL, NULL, "-mu", &lm[1], NULL));
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, NULL));
  PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
  simplex = DMPolytopeTypeGetNumVertices(ct) == DMPolytopeTypeGetDim(ct) + 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscFECreateDefault(PETSC_COMM_SELF, dim, dim, simplex, NULL, PETSC_DETERMINE, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "displacement"));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  PetscCall(PetscDSSetConstants(ds, 2, lm));
  PetscCall(PetscDSSetResidual(ds, 0, f0_gravity, f1_elas));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_elas));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &file));
  fixed = file ? 1 : (dim == 3 ? 6 : 4); /* DMPlexCreateBoxMesh(): the face x = 0 */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-fixed_face", &fixed, NULL));
  PetscCall(DMGetLabel(*dm, "Face Sets", &label));
  PetscCheck(label, comm, PETSC_ERR_ARG_WRONG, "The mesh has no \"Face Sets\" label: a box mesh or a gmsh mesh with physical groups");
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "clamped", label, 1, &fixed, 0, 0, NULL, (PetscVoidFn *)zero, NULL, NULL, NULL));
  PetscCall(DMSetNearNullSpaceConstructor(*dm, 0, RigidBody));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char           *paths[8];
  PetscInt        npaths = 8;
  PetscBool       set, device, check = PETSC_FALSE, skip;
  PetscReal       rtol = 1e-8;
  PlexPathResult  res[8];
  Vec             uref = NULL;
  PlexPathProblem prob = {"linear elasticity", CreateElasticity, PCGAMG};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PlexPathOptions(device, &npaths, paths, &rtol, &check, &skip));
  if (skip) {
    PetscCall(PetscFinalize());
    return 200;
  }
  /* the defaults: the unit cube, Q1 hexahedra */
  PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_filename", &set));
  if (!set) {
    PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_dim", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_dim", "3"));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_simplex", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_simplex", "0"));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-dm_plex_box_faces", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-dm_plex_box_faces", device ? "40,40,40" : "10,10,10"));
  }
  PetscCall(PetscOptionsHasName(NULL, NULL, "-petscspace_degree", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-petscspace_degree", "1"));
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PlexPathRun(&prob, paths[p], device, rtol, uref, p == 0 ? &uref : NULL, &res[p]));
  PetscCall(PlexPathReport(&prob, npaths, res, device, check, rtol));
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PetscFree(paths[p]));
  PetscCall(VecDestroy(&uref));
  PetscCall(PetscFinalize());
  return 0;
}
