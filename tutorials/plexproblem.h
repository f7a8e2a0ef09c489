/* DMPlex finite-element problems shared by the tutorials, tests and benchmarks: Laplacian and isotropic linear
   elasticity on a box mesh, Dirichlet boundary, Lagrange elements of any degree. */
#pragma once
#include <petscdmplex.h>
#include <petscsnes.h>
#include <petscksp.h>

typedef enum {
  PLEX_PHYSICS_LAPLACE,
  PLEX_PHYSICS_ELASTICITY
} PlexPhysics;

/* Mesh from the options (-dm_plex_dim, -dm_plex_box_faces, -dm_plex_simplex, -dm_refine, ...) with prefix, FE of degree
   -petscspace_degree (default 1), physics, Dirichlet boundary */
PetscErrorCode PlexProblemCreate(MPI_Comm, const char prefix[], PlexPhysics, DM *);
/* Jacobian (at u = 0) assembled by PETSc's own path into a matrix of the given type (NULL: -dm_mat_type), and the
   right-hand side (minus the residual at u = 0) */
PetscErrorCode PlexProblemAssemble(DM, MatType, Mat *, Vec *);
/* ||a - b|| / ||b|| (||a - b|| when b vanishes), for comparing a path with PETSc's AIJ */
PetscErrorCode VecRelativeDifference(Vec, Vec, PetscReal *);
/* the same in another norm (NORM_INFINITY: max |a - b| / max |b|) */
PetscErrorCode VecRelativeDifferenceNorm(Vec, Vec, NormType, PetscReal *);
/* CG+Jacobi on ksp's operators; with perm, through PCELLWARPPERM (-ksp_type preonly -pc_type ellwarpperm
   -ellwarpperm_ksp_type cg -ellwarpperm_pc_type jacobi). Returns the KSP that iterates (ksp itself, or the inner one). */
PetscErrorCode KSPSetCGJacobi(KSP, PetscBool perm, KSP *);
/* Wait for the device, if there is one (for wall-clock timings) */
PetscErrorCode DeviceSync(void);
/* A wall-clock interval that includes the device's work: DeviceTic() waits for the device and reads the clock into
   *t0; DeviceTocAdd() waits again and adds the seconds since t0 to *t */
PetscErrorCode DeviceTic(PetscLogDouble *t0);
PetscErrorCode DeviceTocAdd(PetscLogDouble t0, PetscReal *t);
/* Open a CSV file to append to (PetscFOpen(): *fp is NULL except on rank 0), writing the header line first when the
   file is new or empty; close it with PetscFClose() */
PetscErrorCode CSVOpenAppend(MPI_Comm, const char file[], const char header[], FILE **);
