/* The comparison that the DMPlex tutorials print: one problem set up the same way for every path, PETSc's CPU path
   (aij: DMPlexSetSNESLocalFEM(), MatSetValues on the host) against the petscwarp paths (DMPlexWarpSetSNESLocalFEM()
   into ellwarp, sharednz, aijcusparse), timed phase by phase, solutions and iteration counts compared. */
#pragma once
#include <petscwarp.h>
#include <petscsnes.h>

typedef struct {
  const char *name;                                           /* for the report */
  PetscErrorCode (*create)(MPI_Comm, PetscBool device, DM *); /* mesh, field, PetscDS and boundary conditions */
  PCType pctype;                                              /* the default preconditioner (CG is the default solver) */
} PlexPathProblem;

typedef struct {
  char               name[16];
  PetscReal          t_setup, t_mesh, t_mat, t_res1, t_res2, t_asm1, t_asm2, t_pcsetup, t_solve, err; /* t_setup includes t_mesh (the DM) and t_mat (DMCreateMatrix()) */
  PetscInt           its, rows;
  KSPConvergedReason reason; /* of the solve: a path that did not converge is flagged in the report and the CSV */
  char               how[128];
  char               pc[32];  /* the PC type as solved (the report's header, the CSV's pc column) */
  char               ksp[32]; /* the KSP type as solved (the report's header, the CSV's ksp column) */
} PlexPathResult;

/* -paths (default aij,ellwarp and, with a device, sharednz; the first is the reference), -rtol, -check, -require_device
   (returns *skip); PlexPathRun() reads -paths_gamg_type (the PCGAMG type of the paths other than aij, e.g. warp) */
PetscErrorCode PlexPathOptions(PetscBool device, PetscInt *npaths, char *paths[], PetscReal *rtol, PetscBool *check, PetscBool *skip);
/* One path: u0 = 0 (boundary values inserted by DMPlex), F = F(u0) and J twice (first; again, as in a Newton step: the
   log stages "<path> first" and "<path> step"), du = J^{-1} F, u = u0 - du */
PetscErrorCode PlexPathRun(const PlexPathProblem *, const char path[], PetscBool device, PetscReal rtol, Vec uref, Vec *uout, PlexPathResult *);
/* The table, the speed-ups against the first path (aij), a warning for each solve that did not converge, and with
   check the agreement and convergence (error otherwise) */
PetscErrorCode PlexPathReport(const PlexPathProblem *, PetscInt, const PlexPathResult[], PetscBool device, PetscBool check, PetscReal rtol);
