/* MatNorm(NORM_1) for MPIAIJ matrices with device vectors (src/mat/utils/matnorm.c): PETSc 3.26.1's MatNorm_MPIAIJ()
   adds into the uninitialised host arrays of VECCUDA vectors */
#pragma once

#include <petscwarp.h>
#include <petsc/private/matimpl.h>

PETSC_INTERN PetscErrorCode MatWarpFixMPIAIJNorm_Private(Mat, PetscBool);
