static char help[] = "DMPlexWarpAsmGetData_Private(), the DMPlex extraction of a PetscWarpAsm, against PETSc's own geometry and\n\
Jacobian: for Laplace and elasticity on triangles, quadrilaterals, tetrahedra and hexahedra of several degrees,\n\
(1) J and detJ from the extracted vertex coordinates, cell->vertex map and coordinate basis equal\n\
    DMPlexComputeCellGeometryFEM() at every quadrature point of every cell,\n\
(2) the matrix assembled in this test from the extracted data (a plain C loop over cells) equals the one PETSc\n\
    assembles through SNESComputeJacobian(),\n\
(3) unsupported input errors with PETSC_ERR_SUP.\n\
Options:\n\
  -case <name>        run only the case of this name, or only the error checks with -case errors (default: all)\n\
  -meshdir <dir>      the gmsh meshes square_tri.msh and cube_tet.msh (default: bench/meshes of the source tree)\n\
  -time_faces <n>     instead, time the extraction on an n^3 Q1 hexahedral mesh (Laplace and elasticity)\n\
On more than one MPI process it only checks that a distributed mesh is refused.\n";

#include <petscwarp/private/plexwarpasm.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petscfe.h>
#include <petscfv.h>
#include <petsctime.h>
#include "testutil.h"

#define TOL 1e-12

/* bench/meshes of the source tree (-meshdir overrides); the gmsh cases are skipped when it is not there */
static char meshdir[PETSC_MAX_PATH_LEN];

typedef struct {
  PetscInt   ncells, nel, nrows, dim, nverts, ncv, nb, nc, nq;
  PetscInt  *e2d, *cv;
  PetscReal *X, *w, *B, *D, *Dc;
} Data;

static PetscErrorCode DataGet(DM dm, PetscWarpPhysics ph, Data *a)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpAsmGetData_Private(dm, ph, &a->ncells, &a->nel, &a->nrows, &a->e2d, &a->dim, &a->nverts, &a->X, &a->ncv, &a->cv, &a->nb, &a->nc, &a->nq, &a->w, &a->B, &a->D, &a->Dc, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DataFree(Data *a)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(a->e2d));
  PetscCall(PetscFree(a->cv));
  PetscCall(PetscFree(a->X));
  PetscCall(PetscFree(a->w));
  PetscCall(PetscFree(a->B));
  PetscCall(PetscFree(a->D));
  PetscCall(PetscFree(a->Dc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J = dx/dxi (J[i*dim+j] = dx_i/dxi_j) at quadrature point q of a cell, from the extracted data; its determinant and
   inverse (invJ[j*dim+i] = dxi_j/dx_i) */
static void CellJacobian(const Data *a, PetscInt cell, PetscInt q, PetscReal J[], PetscReal *detJ, PetscReal invJ[])
{
  const PetscInt dim = a->dim;

  for (PetscInt i = 0; i < dim * dim; ++i) J[i] = 0.0;
  for (PetscInt k = 0; k < a->ncv; ++k) {
    const PetscReal *x = &a->X[a->cv[cell * a->ncv + k] * dim];
    const PetscReal *g = &a->Dc[(q * a->ncv + k) * dim];

    for (PetscInt i = 0; i < dim; ++i)
      for (PetscInt j = 0; j < dim; ++j) J[i * dim + j] += x[i] * g[j];
  }
  if (dim == 2) {
    *detJ   = J[0] * J[3] - J[1] * J[2];
    invJ[0] = J[3] / *detJ;
    invJ[1] = -J[1] / *detJ;
    invJ[2] = -J[2] / *detJ;
    invJ[3] = J[0] / *detJ;
  } else {
    *detJ = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
    for (PetscInt i = 0; i < 3; ++i)
      for (PetscInt j = 0; j < 3; ++j) {
        /* cofactor of J[j][i] (adjugate) */
        const PetscInt r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;

        invJ[i * 3 + j] = (J[r0 * 3 + c0] * J[r1 * 3 + c1] - J[r0 * 3 + c1] * J[r1 * 3 + c0]) / *detJ;
      }
  }
}

/* (0) the basis: B, D, w are PETSc's tabulation of the field, which is the interlaced vector basis b = a*nc + c */
static PetscErrorCode CheckReference(DM dm, const Data *a, PetscReal *err)
{
  PetscFE          fe;
  PetscQuadrature  quad;
  PetscTabulation  T;
  const PetscReal *wts;
  PetscInt         Nq, Nb;

  PetscFunctionBegin;
  *err = 0.0;
  PetscCall(DMGetField(dm, 0, NULL, (PetscObject *)&fe));
  PetscCall(PetscFEGetQuadrature(fe, &quad));
  PetscCall(PetscQuadratureGetData(quad, NULL, NULL, &Nq, NULL, &wts));
  PetscCall(PetscFEGetDimension(fe, &Nb));
  PetscCheck(Nq == a->nq && Nb == a->nb * a->nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "nq %" PetscInt_FMT " or nb*nc %" PetscInt_FMT " wrong", a->nq, a->nb * a->nc);
  PetscCall(PetscFEGetCellTabulation(fe, 1, &T));
  for (PetscInt q = 0; q < Nq; ++q) {
    *err = PetscMax(*err, PetscAbsReal(wts[q] - a->w[q]));
    for (PetscInt b = 0; b < Nb; ++b) {
      const PetscInt aa = b / a->nc, c = b % a->nc;

      for (PetscInt c2 = 0; c2 < a->nc; ++c2) {
        const PetscReal v = T->T[0][(q * Nb + b) * a->nc + c2];

        *err = PetscMax(*err, PetscAbsReal(v - (c == c2 ? a->B[q * a->nb + aa] : 0.0)));
        for (PetscInt d = 0; d < a->dim; ++d) {
          const PetscReal g = T->T[1][((q * Nb + b) * a->nc + c2) * a->dim + d];

          *err = PetscMax(*err, PetscAbsReal(g - (c == c2 ? a->D[(q * a->nb + aa) * a->dim + d] : 0.0)));
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (1) geometry: X[cv] is the cell's coordinate closure, and J, detJ from X, cv, Dc equal DMPlexComputeCellGeometryFEM() */
static PetscErrorCode CheckGeometry(DM dm, const Data *a, PetscReal *errJ, PetscReal *errX)
{
  PetscFE         fe;
  PetscQuadrature quad;
  PetscReal      *Jp, *detJp;
  PetscInt        cStart, cEnd, dim = a->dim;

  PetscFunctionBegin;
  *errJ = *errX = 0.0;
  PetscCall(DMGetField(dm, 0, NULL, (PetscObject *)&fe));
  PetscCall(PetscFEGetQuadrature(fe, &quad));
  PetscCall(PetscMalloc2(a->nq * dim * dim, &Jp, a->nq, &detJp));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCheck(cEnd - cStart == a->ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ncells");
  for (PetscInt c = cStart; c < cEnd; ++c) {
    const PetscInt     cell = c - cStart;
    const PetscScalar *array;
    PetscScalar       *coords = NULL;
    PetscInt           n;
    PetscBool          isDG;

    PetscCall(DMPlexGetCellCoordinates(dm, c, &isDG, &n, &array, &coords));
    PetscCheck(n == a->ncv * dim, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cell %" PetscInt_FMT ": %" PetscInt_FMT " coordinates, not ncv*dim", c, n);
    for (PetscInt k = 0; k < a->ncv; ++k)
      for (PetscInt d = 0; d < dim; ++d) *errX = PetscMax(*errX, PetscAbsReal(PetscRealPart(coords[k * dim + d]) - a->X[a->cv[cell * a->ncv + k] * dim + d]));
    PetscCall(DMPlexRestoreCellCoordinates(dm, c, &isDG, &n, &array, &coords));
    PetscCall(DMPlexComputeCellGeometryFEM(dm, c, quad, NULL, Jp, NULL, detJp));
    for (PetscInt q = 0; q < a->nq; ++q) {
      PetscReal J[9], invJ[9], detJ, scale = 0.0, e = 0.0;

      CellJacobian(a, cell, q, J, &detJ, invJ);
      for (PetscInt i = 0; i < dim * dim; ++i) {
        scale = PetscMax(scale, PetscAbsReal(Jp[q * dim * dim + i]));
        e     = PetscMax(e, PetscAbsReal(J[i] - Jp[q * dim * dim + i]));
      }
      *errJ = PetscMax(*errJ, e / scale);
      *errJ = PetscMax(*errJ, PetscAbsReal(detJ - detJp[q]) / PetscAbsReal(detJp[q]));
    }
  }
  PetscCall(PetscFree2(Jp, detJp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (2) element matrices from the extracted data (straightforward loops, lambda = mu = 1 as plexproblem.c), scattered
   with e2d into a MATSEQAIJ preallocated from e2d alone */
static PetscErrorCode AssembleFromData(const Data *a, PetscWarpPhysics ph, Mat *A)
{
  const PetscInt dim = a->dim, nb = a->nb, nc = a->nc, nel = a->nel;
  PetscInt      *nnz;
  PetscReal     *Ae, *G;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(a->nrows, &nnz));
  for (PetscInt i = 0; i < a->ncells * nel; ++i)
    if (a->e2d[i] >= 0) nnz[a->e2d[i]] += nel;
  for (PetscInt r = 0; r < a->nrows; ++r) nnz[r] = PetscMin(nnz[r], a->nrows);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, a->nrows, a->nrows, 0, nnz, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscFree(nnz));
  PetscCall(PetscMalloc2(nel * nel, &Ae, nb * dim, &G));
  for (PetscInt cell = 0; cell < a->ncells; ++cell) {
    PetscCall(PetscArrayzero(Ae, nel * nel));
    for (PetscInt q = 0; q < a->nq; ++q) {
      PetscReal J[9], invJ[9], detJ, wq;

      CellJacobian(a, cell, q, J, &detJ, invJ);
      wq = a->w[q] * detJ;
      for (PetscInt b = 0; b < nb; ++b) /* physical gradients: d phi/dx_i = sum_j d phi/dxi_j dxi_j/dx_i */
        for (PetscInt i = 0; i < dim; ++i) {
          G[b * dim + i] = 0.0;
          for (PetscInt j = 0; j < dim; ++j) G[b * dim + i] += a->D[(q * nb + b) * dim + j] * invJ[j * dim + i];
        }
      for (PetscInt p = 0; p < nb; ++p)
        for (PetscInt r = 0; r < nb; ++r) {
          const PetscReal *gp = &G[p * dim], *gr = &G[r * dim];
          PetscReal        dot = 0.0;

          for (PetscInt i = 0; i < dim; ++i) dot += gp[i] * gr[i];
          if (ph == PETSCWARP_PHYSICS_LAPLACE) Ae[p * nel + r] += wq * dot;
          else
            for (PetscInt c = 0; c < nc; ++c)
              for (PetscInt e = 0; e < nc; ++e) /* mu (delta_ce grad phi_p . grad phi_r + d_e phi_p d_c phi_r) + lambda d_c phi_p d_e phi_r */
                Ae[(p * nc + c) * nel + r * nc + e] += wq * ((c == e ? dot : 0.0) + gp[e] * gr[c] + gp[c] * gr[e]);
        }
    }
    PetscCall(MatSetValues(*A, nel, &a->e2d[cell * nel], nel, &a->e2d[cell * nel], Ae, ADD_VALUES));
  }
  PetscCall(PetscFree2(Ae, G));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMaxAbs(Mat A, PetscReal *m)
{
  Vec v;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, NULL, &v));
  PetscCall(MatGetRowMaxAbs(A, v, NULL));
  PetscCall(VecNorm(v, NORM_INFINITY, m));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |A - J| / max |J| */
static PetscErrorCode MatRelDiff(Mat A, Mat J, PetscReal *err)
{
  Mat       Dm;
  PetscInt  m, n, mj, nj;
  PetscReal md, mjv;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatGetSize(J, &mj, &nj));
  PetscCheck(m == mj && n == nj, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sizes %" PetscInt_FMT "x%" PetscInt_FMT " and PETSc's %" PetscInt_FMT "x%" PetscInt_FMT " differ", m, n, mj, nj);
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &Dm));
  PetscCall(MatAXPY(Dm, -1.0, J, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatMaxAbs(Dm, &md));
  PetscCall(MatMaxAbs(J, &mjv));
  *err = mjv > 0 ? md / mjv : md;
  PetscCall(MatDestroy(&Dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char *name;
  const char *opts; /* mesh options, without the prefix */
  PlexPhysics phys;
  PetscInt    degree;
  PetscReal   amp;    /* vertex perturbation */
  PetscBool   clperm; /* tensor closure permutation of the section, used by the Jacobian */
  PetscBool   nobc;   /* no Dirichlet boundary: every dof is a row */
} Case;

#define BOX2Q  "-dm_plex_dim 2 -dm_plex_simplex 0 -dm_plex_box_faces 6,5"
#define BOX2T  "-dm_plex_dim 2 -dm_plex_simplex 0 -dm_plex_box_faces 5,4 -dm_plex_transform_type refine_tosimplex -dm_refine 1"
#define BOX3H  "-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 4,3,3"
#define REFTRI "-dm_plex_reference_cell_domain -dm_plex_cell triangle -dm_refine 3"
#define REFTET "-dm_plex_reference_cell_domain -dm_plex_cell tetrahedron -dm_refine 3"

static const Case cases[] = {
  {"tri_lap_p1",          BOX2T,                                PLEX_PHYSICS_LAPLACE,    1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tri_lap_p2",          BOX2T,                                PLEX_PHYSICS_LAPLACE,    2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tri_lap_p3",          BOX2T,                                PLEX_PHYSICS_LAPLACE,    3, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tri_ela_p1",          BOX2T,                                PLEX_PHYSICS_ELASTICITY, 1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tri_ela_p2",          BOX2T,                                PLEX_PHYSICS_ELASTICITY, 2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tri_ela_p3",          BOX2T,                                PLEX_PHYSICS_ELASTICITY, 3, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"reftri_lap_p3",       REFTRI,                               PLEX_PHYSICS_LAPLACE,    3, 0.0,  PETSC_FALSE, PETSC_FALSE},
  {"quad_lap_q1",         BOX2Q,                                PLEX_PHYSICS_LAPLACE,    1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"quad_lap_q2",         BOX2Q,                                PLEX_PHYSICS_LAPLACE,    2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"quad_ela_q1",         BOX2Q,                                PLEX_PHYSICS_ELASTICITY, 1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"quad_ela_q2",         BOX2Q,                                PLEX_PHYSICS_ELASTICITY, 2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"quad_ela_q2_clperm",  BOX2Q,                                PLEX_PHYSICS_ELASTICITY, 2, 0.05, PETSC_TRUE,  PETSC_FALSE},
  {"quad_lap_q1_nocoord", BOX2Q " -dm_coord_space 0",           PLEX_PHYSICS_LAPLACE,    1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"tet_lap_p1",          REFTET,                               PLEX_PHYSICS_LAPLACE,    1, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_lap_p2",          REFTET,                               PLEX_PHYSICS_LAPLACE,    2, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_lap_p3",          REFTET,                               PLEX_PHYSICS_LAPLACE,    3, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_ela_p1",          REFTET,                               PLEX_PHYSICS_ELASTICITY, 1, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_ela_p2",          REFTET,                               PLEX_PHYSICS_ELASTICITY, 2, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_ela_p3",          REFTET,                               PLEX_PHYSICS_ELASTICITY, 3, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"tet_lap_p2_nocoord",  REFTET " -dm_coord_space 0",          PLEX_PHYSICS_LAPLACE,    2, 0.03, PETSC_FALSE, PETSC_FALSE},
  {"hex_lap_q1",          BOX3H,                                PLEX_PHYSICS_LAPLACE,    1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"hex_lap_q2",          BOX3H,                                PLEX_PHYSICS_LAPLACE,    2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"hex_ela_q1",          BOX3H,                                PLEX_PHYSICS_ELASTICITY, 1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"hex_ela_q2",          BOX3H,                                PLEX_PHYSICS_ELASTICITY, 2, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"hex_lap_q2_clperm",   BOX3H,                                PLEX_PHYSICS_LAPLACE,    2, 0.05, PETSC_TRUE,  PETSC_FALSE},
  {"quad_ela_q2_nobc",    BOX2Q,                                PLEX_PHYSICS_ELASTICITY, 2, 0.05, PETSC_FALSE, PETSC_TRUE },
  {"tri_lap_p3_nobc",     BOX2T,                                PLEX_PHYSICS_LAPLACE,    3, 0.05, PETSC_FALSE, PETSC_TRUE },
  {"tet_ela_p2_nobc",     REFTET,                               PLEX_PHYSICS_ELASTICITY, 2, 0.03, PETSC_FALSE, PETSC_TRUE },
  {"hex_lap_q2_nobc",     BOX3H,                                PLEX_PHYSICS_LAPLACE,    2, 0.05, PETSC_FALSE, PETSC_TRUE },
  {"hex_ela_q1_nocoord",  BOX3H " -dm_coord_space 0",           PLEX_PHYSICS_ELASTICITY, 1, 0.05, PETSC_FALSE, PETSC_FALSE},
  {"gmsh_tri_lap_p1",     "-dm_plex_filename @/square_tri.msh", PLEX_PHYSICS_LAPLACE,    1, 0.0,  PETSC_FALSE, PETSC_FALSE},
  {"gmsh_tri_ela_p2",     "-dm_plex_filename @/square_tri.msh", PLEX_PHYSICS_ELASTICITY, 2, 0.0,  PETSC_FALSE, PETSC_FALSE},
  {"gmsh_tet_lap_p1",     "-dm_plex_filename @/cube_tet.msh",   PLEX_PHYSICS_LAPLACE,    1, 0.0,  PETSC_FALSE, PETSC_FALSE},
};

/* Creates the problem of a case with the options under the prefix "<name>_" */
static PetscErrorCode CaseCreate(const Case *cs, DM *dm)
{
  char prefix[64], opts[2048], deg[16];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", cs->name));
  { /* prefix every option of cs->opts; @ stands for the mesh directory */
    const char *o   = cs->opts;
    size_t      len = 0;

    opts[0] = 0;
    while (*o) {
      char tok[PETSC_MAX_PATH_LEN];
      int  k = 0;

      while (*o == ' ') ++o;
      if (!*o) break;
      while (*o && *o != ' ' && k < (int)sizeof(tok) - 1) tok[k++] = *o++;
      tok[k] = 0;
      if (tok[0] == '-' && !(tok[1] >= '0' && tok[1] <= '9')) PetscCall(PetscSNPrintf(opts + len, sizeof(opts) - len, " -%s%s", prefix, tok + 1));
      else if (tok[0] == '@') PetscCall(PetscSNPrintf(opts + len, sizeof(opts) - len, " %s%s", meshdir, tok + 1));
      else PetscCall(PetscSNPrintf(opts + len, sizeof(opts) - len, " %s", tok));
      PetscCall(PetscStrlen(opts, &len));
    }
  }
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(PetscSNPrintf(opts, sizeof(opts), "-%spetscspace_degree", prefix));
  PetscCall(PetscSNPrintf(deg, sizeof(deg), "%" PetscInt_FMT, cs->degree));
  PetscCall(PetscOptionsSetValue(NULL, opts, deg));
  PetscCall(PlexProblemCreate(PETSC_COMM_SELF, prefix, cs->phys, dm));
  PetscCall(TestPerturbCoordinates(*dm, cs->amp, PETSC_MAX_REAL));
  if (cs->nobc) { /* before the sections exist: the boundary condition then constrains no dof */
    DMLabel label;

    PetscCall(DMGetLabel(*dm, "marker", &label));
    PetscCall(DMLabelClearStratum(label, 1));
  }
  if (cs->clperm) {
    PetscCall(DMPlexSetClosurePermutationTensor(*dm, PETSC_DETERMINE, NULL));
    PetscCall(DMPlexSetUseMatClosurePermutation(*dm, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Allocations of the sizes of e2d and l2d (n, two) and of cv (m), filled with -7 and freed: the heap's next blocks of
   those sizes are likely these */
static PetscErrorCode PoisonFree(PetscInt n, PetscInt k, PetscInt m)
{
  PetscInt *a[3] = {NULL, NULL, NULL};

  PetscFunctionBegin;
  for (PetscInt j = 0; j <= k; j++) {
    const PetscInt len = j < k ? n : m;

    PetscCall(PetscMalloc1(len, &a[j]));
    for (PetscInt i = 0; i < len; i++) a[j][i] = -7;
  }
  for (PetscInt j = k; j >= 0; j--) PetscCall(PetscFree(a[j]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The extraction from the cone arrays and sections, on one thread and on three (-dm_plex_warp_threads: the cells split
   into three ranges), against PETSc's per-cell DMPlexGetClosureIndices() and DMPlexGetTransitiveClosure()
   (-dm_plex_warp_asm_reference_closures): entries of e2d, l2d and cv that differ */
static PetscErrorCode CompareReferenceClosures(DM dm, PetscWarpPhysics ph, PetscInt *ndiff)
{
  Data        d[3];
  PetscInt    nloc[3], *l2d[3];
  PetscBool   had;
  const char *pre;
  char        opt[2][PETSC_MAX_OPTION_NAME];

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)dm, &pre));
  PetscCall(PetscSNPrintf(opt[0], sizeof(opt[0]), "-%sdm_plex_warp_asm_reference_closures", pre ? pre : ""));
  PetscCall(PetscSNPrintf(opt[1], sizeof(opt[1]), "-%sdm_plex_warp_threads", pre ? pre : ""));
  PetscCall(PetscOptionsHasName(NULL, NULL, opt[0], &had));
  *ndiff = 0;
  for (PetscInt k = 0; k < 3; k++) { /* the reference, then one thread, then three */
    Data *a = &d[k];

    if (k == 0 && !had) PetscCall(PetscOptionsSetValue(NULL, opt[0], "1"));
    if (k > 0) { /* the arrays of the reference freed poisoned first, so that an entry left unwritten is seen */
      PetscCall(PetscOptionsSetValue(NULL, opt[1], k == 1 ? "1" : "3"));
      PetscCall(PoisonFree(d[0].ncells * d[0].nel, 2, d[0].ncells * d[0].ncv));
    }
    PetscCall(DMPlexWarpAsmGetData_Private(dm, ph, &a->ncells, &a->nel, &a->nrows, &a->e2d, &a->dim, &a->nverts, &a->X, &a->ncv, &a->cv, &a->nb, &a->nc, &a->nq, &a->w, &a->B, &a->D, &a->Dc, &nloc[k], &l2d[k]));
    if (k == 0 && !had) PetscCall(PetscOptionsClearValue(NULL, opt[0]));
    if (k > 0) PetscCall(PetscOptionsClearValue(NULL, opt[1]));
    if (k > 0) {
      Data *r = &d[0];

      if (a->ncells != r->ncells || a->nel != r->nel || a->ncv != r->ncv || a->nrows != r->nrows || nloc[k] != nloc[0]) *ndiff += 1;
      for (PetscInt i = 0; !*ndiff && i < r->ncells * r->nel; ++i) *ndiff += (a->e2d[i] != r->e2d[i]) + (l2d[k][i] != l2d[0][i]);
      for (PetscInt i = 0; !*ndiff && i < r->ncells * r->ncv; ++i) *ndiff += a->cv[i] != r->cv[i];
    }
  }
  for (PetscInt k = 0; k < 3; k++) {
    PetscCall(DataFree(&d[k]));
    PetscCall(PetscFree(l2d[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(const Case *cs, PetscBool *pass)
{
  DM               dm;
  Data             a;
  Mat              A, J;
  Vec              b;
  PetscReal        eref = 0, egeo = 0, ex = 0, emat = 0;
  PetscInt         nref = 0;
  PetscWarpPhysics ph   = cs->phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY;
  PetscLogDouble   t0, t1;
  PetscBool        ok;

  PetscFunctionBegin;
  if (strchr(cs->opts, '@')) {
    PetscBool exists;

    PetscCall(PetscTestDirectory(meshdir, 'r', &exists));
    if (!exists) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-20s SKIPPED: no mesh directory %s (-meshdir)\n", cs->name, meshdir));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(CaseCreate(cs, &dm));
  PetscCall(PetscTime(&t0));
  PetscCall(DataGet(dm, ph, &a));
  PetscCall(PetscTime(&t1));
  PetscCall(CheckReference(dm, &a, &eref));
  PetscCall(CheckGeometry(dm, &a, &egeo, &ex));
  PetscCall(AssembleFromData(&a, ph, &A));
  PetscCall(PlexProblemAssemble(dm, MATAIJ, &J, &b));
  PetscCall(MatRelDiff(A, J, &emat));
  PetscCall(CompareReferenceClosures(dm, ph, &nref));
  ok = (PetscBool)(eref <= TOL && egeo <= TOL && ex == 0.0 && emat <= TOL && nref == 0);
  if (cs->clperm) { /* the closure permutation must have changed the element-to-dof map for the case to mean anything */
    Data     a0;
    PetscInt nd = 0;

    PetscCall(DMPlexSetUseMatClosurePermutation(dm, PETSC_FALSE));
    PetscCall(DataGet(dm, ph, &a0));
    for (PetscInt i = 0; i < a.ncells * a.nel; ++i) nd += a.e2d[i] != a0.e2d[i];
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-20s the closure permutation changes %" PetscInt_FMT " of %" PetscInt_FMT " entries of e2d\n", cs->name, nd, a.ncells * a.nel));
    if (!nd) ok = PETSC_FALSE;
    PetscCall(DataFree(&a0));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-20s cells %6" PetscInt_FMT " nel %3" PetscInt_FMT " rows %6" PetscInt_FMT " nq %3" PetscInt_FMT " ncv %" PetscInt_FMT "  basis %.1e  geometry %.1e  X[cv] %.1e  matrix %.1e  vs PETSc's closures %" PetscInt_FMT "  (%.3f s)  %s\n", cs->name, a.ncells, a.nel, a.nrows, a.nq, a.ncv, (double)eref, (double)egeo, (double)ex, (double)emat, nref, t1 - t0, ok ? "ok" : "FAILED"));
  if (!ok) *pass = PETSC_FALSE;
  PetscCall(DataFree(&a));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (3) the errors: a call that must fail with the given code */
static PetscErrorCode ExpectError(DM dm, PetscWarpPhysics ph, PetscErrorCode expect, const char what[], PetscBool *pass)
{
  Data           a;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DataGet(dm, ph, &a);
  PetscCall(PetscPopErrorHandler());
  if (ierr == PETSC_SUCCESS) PetscCall(DataFree(&a));
  else {
    const char *text;
    const char *specific;

    PetscCall(PetscErrorMessage(ierr, &text, &specific));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-40s -> error %d (expected %d) %s\n      \"%s\"\n", what, (int)ierr, (int)expect, ierr == expect ? "ok" : "FAILED", specific ? specific : ""));
  }
  if (ierr == PETSC_SUCCESS) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-40s -> no error (expected %d) FAILED\n", what, (int)expect));
  if (ierr != expect) *pass = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CreateFromOpts(const char prefix[], const char opts[], PlexPhysics phys, DM *dm)
{
  Case cs = {prefix, opts, phys, 1, 0.0, PETSC_FALSE, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(CaseCreate(&cs, dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a bare DM of the given cell type with one Lagrange field of nc components */
static PetscErrorCode CreateReferenceWithFE(DMPolytopeType ct, PetscInt nc, DM *dm)
{
  PetscFE  fe;
  PetscInt dim;

  PetscFunctionBegin;
  PetscCall(DMPlexCreateReferenceCell(PETSC_COMM_SELF, ct, dm));
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(PetscFECreateLagrangeByCell(PETSC_COMM_SELF, dim, nc, ct, 1, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(PetscFEDestroy(&fe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunErrors(PetscBool *pass)
{
  DM dm;

  PetscFunctionBegin;
  /* wrong number of components; physics out of range */
  PetscCall(CreateFromOpts("e_comp", BOX2Q, PLEX_PHYSICS_ELASTICITY, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "LAPLACE on a field of dim components", pass));
  PetscCall(ExpectError(dm, (PetscWarpPhysics)7, PETSC_ERR_ARG_OUTOFRANGE, "physics 7", pass));
  PetscCall(DMDestroy(&dm));
  PetscCall(CreateFromOpts("e_comp1", BOX3H, PLEX_PHYSICS_LAPLACE, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_ELASTICITY, PETSC_ERR_SUP, "ELASTICITY on a scalar field", pass));
  /* two fields */
  {
    PetscFE fe;

    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, 3, 1, PETSC_FALSE, 1, PETSC_DETERMINE, &fe));
    PetscCall(DMAddField(dm, NULL, (PetscObject)fe));
    PetscCall(DMCreateDS(dm));
    PetscCall(PetscFEDestroy(&fe));
    PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "two fields", pass));
  }
  PetscCall(DMDestroy(&dm));
  /* a finite-volume field */
  {
    PetscFV fv;

    PetscCall(CreateFromOpts("e_fv", BOX2Q, PLEX_PHYSICS_LAPLACE, &dm));
    PetscCall(PetscFVCreate(PETSC_COMM_SELF, &fv));
    PetscCall(PetscFVSetSpatialDimension(fv, 2));
    PetscCall(PetscFVSetNumComponents(fv, 1));
    PetscCall(DMClearFields(dm));
    PetscCall(DMAddField(dm, NULL, (PetscObject)fv));
    PetscCall(DMCreateDS(dm));
    PetscCall(PetscFVDestroy(&fv));
    PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "a PetscFV field", pass));
    PetscCall(DMDestroy(&dm));
  }
  /* an H(div) element */
  PetscCall(CreateFromOpts("e_hdiv", BOX2T " -petscdualspace_form_degree -1", PLEX_PHYSICS_ELASTICITY, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_ELASTICITY, PETSC_ERR_SUP, "an H(div) element", pass));
  PetscCall(DMDestroy(&dm));
  /* other cell types */
  PetscCall(CreateReferenceWithFE(DM_POLYTOPE_TRI_PRISM, 1, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "a triangular prism", pass));
  PetscCall(DMDestroy(&dm));
  /* mixed cell types: one quadrilateral and two triangles, from a gmsh file */
  {
    char        name[PETSC_MAX_PATH_LEN], dir[PETSC_MAX_PATH_LEN];
    FILE       *f;
    PetscFE     fe;
    const char *msh = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 0 1 0\n5 1 1 0\n6 2 1 0\n$EndNodes\n"
                      "$Elements\n3\n1 3 2 1 1 1 2 5 4\n2 2 2 1 1 2 3 6\n3 2 2 1 1 2 6 5\n$EndElements\n";

    PetscCall(PetscGetTmp(PETSC_COMM_SELF, dir, sizeof(dir)));
    PetscCall(PetscStrlcat(dir, "/plexasmXXXXXX", sizeof(dir)));
    PetscCall(PetscMkdtemp(dir));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s/mixed.msh", dir));
    f = fopen(name, "w");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", name);
    fputs(msh, f);
    fclose(f);
    PetscCall(DMPlexCreateFromFile(PETSC_COMM_SELF, name, NULL, PETSC_TRUE, &dm));
    PetscCall(PetscRMTree(dir));
    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, 2, 1, PETSC_FALSE, 1, PETSC_DETERMINE, &fe));
    PetscCall(DMSetField(dm, 0, NULL, (PetscObject)fe));
    PetscCall(DMCreateDS(dm));
    PetscCall(PetscFEDestroy(&fe));
    PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "mixed triangles and quadrilaterals", pass));
    PetscCall(DMDestroy(&dm));
  }
  /* periodic (localized coordinates) */
  PetscCall(CreateFromOpts("e_per", BOX2Q " -dm_plex_box_bd periodic,none", PLEX_PHYSICS_LAPLACE, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "a periodic box", pass));
  PetscCall(DMDestroy(&dm));
  /* coordinates of degree 2 */
  PetscCall(CreateFromOpts("e_q2c", BOX2Q " -dm_coord_petscspace_degree 2", PLEX_PHYSICS_LAPLACE, &dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "Q2 coordinates", pass));
  PetscCall(DMDestroy(&dm));
  /* anchors (hanging-node constraints): one vertex anchored to another */
  PetscCall(CreateFromOpts("e_anc", BOX2Q, PLEX_PHYSICS_LAPLACE, &dm));
  PetscCall(TestAnchorOneVertex(dm));
  PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "anchors", pass));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -time_faces n: the extraction on an n^3 Q1 hexahedral mesh */
static PetscErrorCode RunTiming(PetscInt n)
{
  char faces[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(faces, sizeof(faces), "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT, n, n, n));
  for (PetscInt p = 0; p < 2; ++p) {
    DM               dm;
    Data             a;
    PetscLogDouble   t0, t1, t2, t3;
    PetscWarpPhysics ph     = p ? PETSCWARP_PHYSICS_ELASTICITY : PETSCWARP_PHYSICS_LAPLACE;
    const char      *prefix = p ? "time_ela_" : "time_lap_";
    char             opt[128];

    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_dim", prefix));
    PetscCall(PetscOptionsSetValue(NULL, opt, "3"));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_simplex", prefix));
    PetscCall(PetscOptionsSetValue(NULL, opt, "0"));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_box_faces", prefix));
    PetscCall(PetscOptionsSetValue(NULL, opt, faces));
    PetscCall(PetscTime(&t0));
    PetscCall(PlexProblemCreate(PETSC_COMM_SELF, prefix, p ? PLEX_PHYSICS_ELASTICITY : PLEX_PHYSICS_LAPLACE, &dm));
    { /* the sections exist before the timing (DMCreateMatrix and the solvers create them anyway) */
      PetscSection gs;
      PetscCall(DMGetGlobalSection(dm, &gs));
    }
    PetscCall(PetscTime(&t1));
    PetscCall(DataGet(dm, ph, &a));
    PetscCall(PetscTime(&t2));
    PetscCall(DataFree(&a));
    PetscCall(DataGet(dm, ph, &a));
    PetscCall(PetscTime(&t3));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s Q1 %" PetscInt_FMT "^3: cells %" PetscInt_FMT " rows %" PetscInt_FMT " nel %" PetscInt_FMT "  problem set-up %.2f s  extraction %.3f s (again %.3f s)\n", p ? "elasticity" : "Laplace   ", n, a.ncells, a.nrows, a.nel, t1 - t0, t2 - t1, t3 - t2));
    PetscCall(DataFree(&a));
    PetscCall(DMDestroy(&dm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;
  PetscBool   pass = PETSC_TRUE, flg, errors = PETSC_FALSE;
  char        only[64] = "";
  PetscInt    tn       = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-case", only, sizeof(only), &flg));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-time_faces", &tn, NULL));
  { /* default mesh directory: bench/meshes beside the tests/ directory of this source file */
    const char *file = __FILE__, *tail = strstr(file, "tests/test_plexasm.c");
    size_t      n = tail ? (size_t)(tail - file) : 0;

    if (tail) {
      PetscCall(PetscStrncpy(meshdir, file, PetscMin(n + 1, sizeof(meshdir))));
      PetscCall(PetscStrlcat(meshdir, "bench/meshes", sizeof(meshdir)));
    } else PetscCall(PetscStrncpy(meshdir, "../bench/meshes", sizeof(meshdir)));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-meshdir", meshdir, sizeof(meshdir), NULL));
  }
  if (size > 1) {
    DM dm;

    PetscCall(PetscOptionsInsertString(NULL, "-mpi_dm_plex_dim 2 -mpi_dm_plex_simplex 0 -mpi_dm_plex_box_faces 4,4"));
    PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, "mpi_", PLEX_PHYSICS_LAPLACE, &dm));
    PetscCall(ExpectError(dm, PETSCWARP_PHYSICS_LAPLACE, PETSC_ERR_SUP, "more than one MPI process", &pass));
    PetscCall(DMDestroy(&dm));
  } else if (tn > 0) {
    PetscCall(RunTiming(tn));
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "cases (max errors: basis vs PetscFE tabulation, relative J/detJ vs DMPlexComputeCellGeometryFEM, X[cv] vs the cell coordinates, max|A - J_PETSc|/max|J_PETSc|):\n"));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
      PetscBool match = PETSC_TRUE;

      if (flg) PetscCall(PetscStrcmp(only, cases[i].name, &match));
      if (match) PetscCall(RunCase(&cases[i], &pass));
    }
    if (flg) PetscCall(PetscStrcmp(only, "errors", &errors));
    if (!flg || errors) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "errors:\n"));
      PetscCall(RunErrors(&pass));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", pass ? "PASSED" : "FAILED"));
  PetscCheck(pass, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "test_plexasm failed");
  PetscCall(PetscFinalize());
  return 0;
}
