/* Private interface of the DMPlex extraction of a PetscWarpAsm (src/dm/plex/plexwarpasm.c) */
#pragma once

#include <petscwarp.h>
#include <petscdmplex.h>

/*
  DMPlexWarpAsmGetData_Private - The arrays that DMPlexWarpAsmCreate() hands to the PetscWarpAsm setters, extracted from
  a single-field DMPlex/PetscFE problem on one MPI process (see the man page of DMPlexWarpAsmCreate() for the checks).

  Output (every array allocated with PetscMalloc1(); the caller frees them with PetscFree()):
    ncells, nel, nrows    cells, element dofs (nb*nc), rows (= columns) of the matrix
    e2d[ncells*nel]       global row of element dof i of cell c at e2d[c*nel+i]; constrained dofs negative
    dim, nverts, X        dimension, vertices, vertex coordinates X[v*dim+d]
    ncv, cv[ncells*ncv]   vertices per cell, in the order of the coordinate basis (vertex number = point - vStart)
    nb, nc, nq            scalar basis functions, components, quadrature points
    w[nq]                 quadrature weights (reference cell [-1,1]^dim or PETSc's reference simplex)
    B[nq*nb]              scalar basis values B[q*nb+a]
    D[nq*nb*dim]          reference derivatives D[(q*nb+a)*dim+d]
    Dc[nq*ncv*dim]        reference derivatives of the P1/Q1 coordinate basis Dc[(q*ncv+k)*dim+d]
    nloc, l2d[ncells*nel] (optional: NULL for none) local vector size, and the index in the local vector of element dof
                          i of cell c at l2d[c*nel+i] (closure of the local section, constrained dofs included)
*/
PETSC_EXTERN PetscErrorCode DMPlexWarpAsmGetData_Private(DM, PetscWarpPhysics, PetscInt *, PetscInt *, PetscInt *, PetscInt **, PetscInt *, PetscInt *, PetscReal **, PetscInt *, PetscInt **, PetscInt *, PetscInt *, PetscInt *, PetscReal **, PetscReal **, PetscReal **, PetscReal **, PetscInt *, PetscInt **);

/* The "physics" of an assembler for user pointwise functions: a field of any number of components, no built-in physics
   (DMPlexWarpAsmCreate_Private(), DMPlexWarpAsmGetData_Private()) */
#define DMPLEXWARP_PHYSICS_ANY ((PetscWarpPhysics)-1)
PETSC_INTERN PetscLogEvent  DMPLEXWARP_RigidBody; /* DMPlexWarpCreateRigidBody() */
PETSC_INTERN PetscErrorCode DMPlexWarpAsmCreate_Private(DM, PetscWarpPhysics, PetscWarpAsm *);
/* The fields' tabulations for the pointwise kernels of several fields: fnb, fnc, fB, fD (PetscFree2(fB[f], fD[f])) */
PETSC_INTERN PetscErrorCode DMPlexWarpFieldTabulations_Private(DM, PetscInt *, PetscInt[], PetscInt[], PetscReal *[], PetscReal *[]);
/* The coordinate basis of the mesh: the coordinate DM's PetscFE, else P1/Q1 Lagrange of the cell type (a new reference) */
PETSC_INTERN PetscErrorCode DMPlexWarpCoordinateFE_Private(DM, DMPolytopeType, PetscFE *);
