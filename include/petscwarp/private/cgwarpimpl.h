/* KSPCGWARP (src/ksp/ksp/impls/cgwarp/cgwarp.c): log events and the constructor registered by the package */
#pragma once

#include <petscwarp.h>

PETSC_INTERN PetscLogEvent  KSPCGWARP_SetUp, KSPCGWARP_Direction, KSPCGWARP_Alpha, KSPCGWARP_Update, KSPCGWARP_Step, KSPCGWARP_Check;
PETSC_INTERN PetscErrorCode KSPCreate_CGWarp(KSP);
