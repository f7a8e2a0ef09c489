/* Private interface of the element kernels of user pointwise functions (src/mat/assembly/warpasmpw.c): what the DMPlex
   hooks call when a PetscWarpPointwise is registered (DMPlexWarpSetPointwise(), src/dm/plex/plexwarppw.c) */
#pragma once

#include <petscwarp.h>

/* The values Bc[q*ncv + k] of the P1/Q1 coordinate basis at the quadrature points (for the points x), copied */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseSetCoordinateBasis_Private(PetscWarpAsm, const PetscReal[]);
/* The fields of an element of several (nf; per field its scalar basis functions fnb[f], components fnc[f], basis values
   fB[f][q*fnb[f] + a] and reference derivatives fD[f] at the assembler's points; copied), set after the coordinate basis */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseSetFields_Private(PetscWarpAsm, PetscInt, const PetscInt[], const PetscInt[], const PetscReal *const[], const PetscReal *const[]);
/* Several fields: each field's cell basis at the tabulated face points (fB[f][p*fnb[f] + a], fD[f]) and each boundary face's
   field (that of its natural boundary), set after the fields and the boundary faces; copied */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseSetBoundaryFields_Private(PetscWarpAsm, PetscInt, const PetscReal *const[], const PetscReal *const[], const PetscInt[]);
/* Whether the kernels have a boundary residual (f0_bd or f1_bd of any field) */
PETSC_INTERN PetscBool PetscWarpPointwiseHasBoundaryResidual_Private(const PetscWarpPointwise *);
/* The Jacobian of the user's g0..g3 (and g0_bd on the boundary faces) at the local state U (Ut or NULL), time t and
   shift, the PetscDS's constants: element matrices by the user's kernels, the boundary terms added into those of the
   faces' cells, reduced into A by PetscWarpAsmAssembleElementMatrices() */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseJacobian_Private(PetscWarpAsm, const PetscWarpPointwise *, PetscInt, const PetscScalar[], PetscReal, PetscReal, Vec, Vec, Mat);
/* F += the residual of the user's f0, f1 at the local state U (Ut or NULL) and time t: element vectors by the user's
   kernels, added into the local vector F through the element->local map */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseResidual_Private(PetscWarpAsm, const PetscWarpPointwise *, PetscInt, const PetscScalar[], PetscReal, Vec, Vec, Vec);
/* Whether the last Jacobian / residual ran on the device */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseGetDevice_Private(PetscWarpAsm, PetscBool *, PetscBool *);
/* The natural boundary faces of the user's f0_bd and g0_bd (copied): nf faces of nq points, the cell basis (B[ntab*nb]) and its
   reference derivatives (D[ntab*nb*dim]) at the ntab tabulated face points, and per face its cell (fcell[nf]) and per
   point (k = f*nq + q) its tabulated point tab[k], weight w[k], point x, outward normal n and the cell's inverse
   Jacobian invJ (PetscWarpPointwiseBdData); nf = 0 removes them. Kept until the mesh or element changes */
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseSetBoundary_Private(PetscWarpAsm, PetscInt, PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscInt[], const PetscInt[], const PetscReal[], const PetscReal[], const PetscReal[], const PetscReal[]);
