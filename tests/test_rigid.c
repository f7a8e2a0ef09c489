static char help[] = "DMPlexWarpCreateRigidBody() against PETSc's DMPlexCreateRigidBody() on the elasticity problem of the\n"
                     "tutorials (Dirichlet conditions on the boundary): the same number of modes and the same orthonormal\n"
                     "vectors to rounding, from the vertex coordinates where the field is Lagrange with its dofs on the vertices\n"
                     "(no DMProjectFunction() call, counted by PETSc's log), through DMPlexCreateRigidBody() otherwise.\n"
                     "Mesh and element options as for PETSc's DMPlex (-dm_plex_dim, -dm_plex_simplex, -dm_plex_box_faces,\n"
                     "-dm_plex_filename, -petscspace_degree, -dm_vec_type, ...).\n"
                     "  -expect_vertex <bool>  whether the vertex coordinates must have been used (default true)\n";

#include "testutil.h"

int main(int argc, char **argv)
{
  DM                 dm;
  MatNullSpace       sp[2];
  PetscInt           n[2], count[2];
  const Vec         *v[2];
  PetscBool          skip, has[2], expect = PETSC_TRUE, vertex;
  PetscLogEvent      ev;
  PetscEventPerfInfo info;
  PetscLogDouble     t[3];
  PetscReal          worst = 0;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_vertex", &expect, NULL));
  PetscCall(PetscLogDefaultBegin()); /* the count of DMProjectFunction() calls */
  PetscCall(DMInitializePackage());  /* registers the event */
  PetscCall(PetscLogEventGetId("DMProjectFunc", &ev));
  PetscCheck(ev >= 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "no DMProjectFunc event");
  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, PLEX_PHYSICS_ELASTICITY, &dm));
  PetscCall(DMSetUp(dm));
  { /* the local and global sections made before the timings */
    Vec g;
    PetscCall(DMGetGlobalVector(dm, &g));
    PetscCall(DMRestoreGlobalVector(dm, &g));
  }
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  count[0] = info.count;
  PetscCall(PetscTime(&t[0]));
  PetscCall(DMPlexWarpCreateRigidBody(dm, 0, &sp[1]));
  PetscCall(PetscTime(&t[1]));
  PetscCall(PetscLogEventGetPerfInfo(0, ev, &info));
  count[1] = info.count;
  PetscCall(DMPlexCreateRigidBody(dm, 0, &sp[0]));
  PetscCall(PetscTime(&t[2]));
  vertex = (PetscBool)(count[1] == count[0]);
  for (PetscInt k = 0; k < 2; k++) PetscCall(MatNullSpaceGetVecs(sp[k], &has[k], &n[k], &v[k]));
  PetscCheck(n[0] == n[1] && has[0] == has[1], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " modes against PETSc's %" PetscInt_FMT, n[1], n[0]);
  for (PetscInt i = 0; i < n[0]; i++) {
    PetscReal err;
    PetscCall(VecRelativeDifferenceNorm(v[1][i], v[0][i], NORM_INFINITY, &err));
    worst = PetscMax(worst, err);
  }
  {
    PetscInt dim, N;
    PetscCall(DMGetDimension(dm, &dim));
    N = 0;
    if (n[0] > 0) PetscCall(VecGetSize(v[0][0], &N));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dim %" PetscInt_FMT ", %" PetscInt_FMT " unknowns: %" PetscInt_FMT " modes, %s, max |difference| / max |mode| %.2e; %.4f s against DMPlexCreateRigidBody()'s %.4f s\n", dim, N, n[0], vertex ? "from the vertex coordinates" : "by DMPlexCreateRigidBody()", (double)worst, t[1] - t[0], t[2] - t[1]));
  }
  PetscCheck(vertex == expect, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the modes were %s, expected %s", vertex ? "from the vertex coordinates" : "projected", expect ? "from the vertex coordinates" : "projected");
  PetscCheck(worst < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "the modes differ from PETSc's by %g", (double)worst);
  PetscCall(MatNullSpaceDestroy(&sp[0]));
  PetscCall(MatNullSpaceDestroy(&sp[1]));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
