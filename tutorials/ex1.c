static char help[] = "petscwarp tutorial 1: a DMPlex finite-element Laplacian (or elasticity) assembled by PETSc, then SpMV and\n"
                     "CG+Jacobi with PETSc's AIJ on the CPU, MATELLWARP (on the GPU when there is one, else its host twin)\n"
                     "(also through PCELLWARPPERM: the system solved in the ELL-WARP numbering) and, with a GPU, PETSc's\n"
                     "aijcusparse; prints time, GB/s, iterations and agreement with AIJ.\n"
                     "  -physics <laplace,elasticity>  problem (default laplace)\n"
                     "  -nmult <n>                     timed products per path (median reported, default 50)\n"
                     "  -rtol <r>                      CG relative tolerance (default 1e-8)\n"
                     "  -check                         exit with an error if any path disagrees with AIJ\n"
                     "Mesh and element: -dm_plex_dim, -dm_plex_box_faces, -dm_plex_simplex, -petscspace_degree\n\n";

#include <petscwarp.h>
#include <petscksp.h>
#include <petscdevice.h>
#include "plexproblem.h"

typedef struct {
  const char *name;
  MatType     type;
  PetscBool   perm; /* solve through PCELLWARPPERM (the system in the ELL-WARP numbering); SpMV of its permuted matrix */
  PetscReal   t_mult, gbs, err_mult, err_sol, t_solve;
  PetscInt    its;
} PathResult;

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

/* Median time of nmult products, after two warm-up products */
static PetscErrorCode TimeMult(Mat A, Vec x, Vec y, PetscInt nmult, PetscReal *t)
{
  PetscReal     *ts;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nmult, &ts));
  for (PetscInt i = 0; i < 2; i++) PetscCall(MatMult(A, x, y));
  for (PetscInt i = 0; i < nmult; i++) {
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t0));
    PetscCall(MatMult(A, x, y));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t1));
    ts[i] = (PetscReal)(t1 - t0);
  }
  qsort(ts, (size_t)nmult, sizeof(PetscReal), CmpReal);
  *t = ts[nmult / 2];
  PetscCall(PetscFree(ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run one path: convert the AIJ matrix, time SpMV, solve with CG+Jacobi, compare with the AIJ results */
/* uref: AIJ solution to compare with, or NULL for the AIJ path itself, whose solution goes to uout */
static PetscErrorCode RunPath(Mat A, Vec b, Vec yref, Vec uref, Vec uout, PetscInt nmult, PetscReal rtol, PathResult *r)
{
  Mat            B = A, M;
  Vec            x, y, rhs, u;
  KSP            ksp, solver;
  PetscInt       m, nnz;
  MatInfo        info;
  PetscLogDouble t0, t1;
  IS             perm = NULL;

  PetscFunctionBegin;
  if (r->type) PetscCall(MatConvert(A, r->type, MAT_INITIAL_MATRIX, &B));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, B, B));
  PetscCall(KSPSetCGJacobi(ksp, r->perm, &solver));
  PetscCall(KSPSetTolerances(solver, rtol, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(KSPSetErrorIfNotConverged(solver, PETSC_TRUE)); /* the timings are of a solve only if it converged */
  PetscCall(KSPSetUp(ksp));
  M = B;
  if (r->perm) { /* the products the solver runs: the permuted matrix's, on permuted vectors */
    PetscCall(KSPGetOperators(solver, &M, NULL));
    PetscCall(MatEllWarpGetRowPermutation(B, &perm));
  }
  PetscCall(MatCreateVecs(M, &x, &y));
  PetscCall(VecCopy(b, x));
  if (perm) PetscCall(VecPermute(x, perm, PETSC_FALSE)); /* x'[s] = b[perm[s]] */
  PetscCall(TimeMult(M, x, y, nmult, &r->t_mult));
  if (perm) PetscCall(VecPermute(y, perm, PETSC_TRUE)); /* back to the user's numbering */
  PetscCall(VecRelativeDifference(y, yref, &r->err_mult));
  PetscCall(MatGetSize(B, &m, NULL));
  PetscCall(MatGetInfo(B, MAT_GLOBAL_SUM, &info));
  nnz    = (PetscInt)info.nz_used;
  r->gbs = (12.0 * nnz + 20.0 * m) / r->t_mult / 1e9;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(ISDestroy(&perm));
  PetscCall(MatCreateVecs(B, &rhs, &u));
  PetscCall(VecCopy(b, rhs));
  PetscCall(KSPSolve(ksp, rhs, u)); /* warm-up */
  PetscCall(VecSet(u, 0.0));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSolve(ksp, rhs, u));
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  r->t_solve = (PetscReal)(t1 - t0);
  PetscCall(KSPGetIterationNumber(solver, &r->its));
  r->err_sol = 0;
  if (uref) PetscCall(VecRelativeDifference(u, uref, &r->err_sol));
  if (uout) PetscCall(VecCopy(u, uout));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&rhs));
  PetscCall(VecDestroy(&u));
  if (B != A) PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM             dm;
  Mat            A;
  Vec            b, yref, uref;
  PetscInt       nmult = 50, physics = 0, m, npaths = 0;
  PetscReal      rtol = 1e-8;
  PetscBool      dev, check = PETSC_FALSE;
  PetscLogDouble t0, t1;
  PathResult     paths[4];
  const char    *phys[] = {"laplace", "elasticity", "PlexPhysics", "PLEX_PHYSICS_", NULL};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "petscwarp ex1 options", NULL);
  PetscCall(PetscOptionsEList("-physics", "Problem", "ex1.c", phys, 2, phys[0], &physics, NULL));
  PetscCall(PetscOptionsInt("-nmult", "Timed products per path", "ex1.c", nmult, &nmult, NULL));
  PetscCall(PetscOptionsReal("-rtol", "CG relative tolerance", "ex1.c", rtol, &rtol, NULL));
  PetscCall(PetscOptionsBool("-check", "Fail if a path disagrees with AIJ", "ex1.c", check, &check, NULL));
  PetscOptionsEnd();
  PetscCheck(nmult > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-nmult must be positive");
  PetscCall(PetscWarpDeviceAvailable(&dev));

  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, (PlexPhysics)physics, &dm));
  PetscCall(PetscTime(&t0));
  PetscCall(PlexProblemAssemble(dm, MATAIJ, &A, &b));
  PetscCall(PetscTime(&t1));
  PetscCall(MatGetSize(A, &m, NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %" PetscInt_FMT " rows, assembled by PETSc (host, MatSetValues) in %.3f s; GPU: %s\n", phys[physics], m, t1 - t0, dev ? "yes" : "no (ellwarp runs its host twin)"));

  paths[npaths++] = (PathResult){"aij (CPU)", NULL, PETSC_FALSE, 0, 0, 0, 0, 0, 0};
  paths[npaths++] = (PathResult){dev ? "ellwarp (GPU)" : "ellwarp (host)", MATELLWARP, PETSC_FALSE, 0, 0, 0, 0, 0, 0};
  paths[npaths++] = (PathResult){dev ? "ellwarp+pc perm (GPU)" : "ellwarp+pc perm (host)", MATELLWARP, PETSC_TRUE, 0, 0, 0, 0, 0, 0};
  if (dev) paths[npaths++] = (PathResult){"aijcusparse (GPU)", MATAIJCUSPARSE, PETSC_FALSE, 0, 0, 0, 0, 0, 0};

  PetscCall(MatCreateVecs(A, &uref, &yref));
  PetscCall(MatMult(A, b, yref));
  PetscCall(RunPath(A, b, yref, NULL, uref, nmult, rtol, &paths[0]));
  for (PetscInt p = 1; p < npaths; p++) PetscCall(RunPath(A, b, yref, uref, NULL, nmult, rtol, &paths[p]));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n%-22s %12s %10s %10s %12s %6s %12s %12s\n", "path", "SpMV (us)", "GB/s", "vs aij", "y=Ax err", "CG its", "CG time (s)", "u err"));
  for (PetscInt p = 0; p < npaths; p++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-22s %12.1f %10.1f %9.2fx %12.2e %6" PetscInt_FMT " %12.4f %12.2e\n", paths[p].name, paths[p].t_mult * 1e6, paths[p].gbs, paths[0].t_mult / paths[p].t_mult, paths[p].err_mult, paths[p].its, paths[p].t_solve,
                          paths[p].err_sol));
    if (check) {
      PetscCheck(paths[p].err_mult < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: y = A x differs from AIJ by %g", paths[p].name, (double)paths[p].err_mult);
      PetscCheck(paths[p].its == paths[0].its, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " CG iterations, AIJ %" PetscInt_FMT, paths[p].name, paths[p].its, paths[0].its);
      PetscCheck(paths[p].err_sol < 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: solution differs from AIJ by %g", paths[p].name, (double)paths[p].err_sol);
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                        "(GB/s counts the minimum bytes of a CSR product: 12 per nonzero + 20 per row; times are medians of %" PetscInt_FMT " products;\n"
                        " ellwarp+pc perm: -ksp_type preonly -pc_type ellwarpperm with CG+Jacobi inside, SpMV of its permuted matrix)\n",
                        nmult));
  PetscCall(VecDestroy(&yref));
  PetscCall(VecDestroy(&uref));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
