/* Shared helpers of the petscwarp tests: pathological random matrices, comparison with AIJ, GPU skip */
#pragma once
#include <petscwarp.h>

#define PETSCWARP_TEST_SKIP 200 /* CTest SKIP_RETURN_CODE: above every PETSc error code, which MPI_Abort passes on as the exit status */

/* Random AIJ matrix of a named case (see testutil.c); rows distributed over comm (rank zerorank gets none) */
PetscErrorCode TestCreateCase(MPI_Comm, const char[], PetscRandom, PetscInt, Mat *);
/* ||a - b|| / ||b|| (0 when both vanish) */
PetscErrorCode TestRelErr(Vec, Vec, PetscReal *);
/* Exit with the skip code and a visible reason unless a CUDA device is present, when the options ask for the CUDA backend */
PetscErrorCode TestSkipWithoutDevice(PetscBool *);
/* Random generator seeded from -seed or fresh from the clock; prints the seed */
PetscErrorCode TestRandomCreate(MPI_Comm, PetscRandom *);
