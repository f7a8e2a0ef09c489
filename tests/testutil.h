/* Shared helpers of the petscwarp tests: pathological random matrices, comparison with AIJ, GPU skip */
#pragma once
#include <petscwarp.h>
#include "../tutorials/plexproblem.h" /* VecRelativeDifference() */

#define PETSCWARP_TEST_SKIP 200 /* CTest SKIP_RETURN_CODE: above every PETSc error code, which MPI_Abort passes on as the exit status */

/* Random AIJ matrix of a named case (see testutil.c); rows distributed over comm (rank zerorank gets none) */
PetscErrorCode TestCreateCase(MPI_Comm, const char[], PetscRandom, PetscInt, Mat *);
/* A (x) random bs x bs blocks, block sizes bs (brk: one entry of the first local row left out: not blocked) */
PetscErrorCode TestBlockExpand(Mat, PetscInt, PetscBool, PetscRandom, Mat *);
/* -block bs, -block_break: the matrix replaced by its block expansion */
PetscErrorCode TestBlockOption(PetscRandom, Mat *);
/* PetscInitialize(), PetscWarpInitializePackage(), and *skip when a GPU test finds no device; then return TestSkip() */
PetscErrorCode TestBegin(int *, char ***, const char[], PetscBool *);
int            TestSkip(void);
/* Exit with the skip code and a visible reason unless a CUDA device is present, when the options ask for the CUDA backend
   (or -test_require_device: a GPU test of a host backend on the GPU machine) */
PetscErrorCode TestSkipWithoutDevice(PetscBool *);
/* Random generator seeded from -seed or fresh from the clock; prints the seed */
PetscErrorCode TestRandomCreate(MPI_Comm, PetscRandom *);
/* The values of a vector into another of the same local size and any type (host or device), through host arrays */
PetscErrorCode TestCopyValues(Vec, Vec);
/* The global residual and Jacobian of dm's SNES callbacks at X, or (ts) the implicit function at t = 0.3 and the
   implicit Jacobian with shift 7 of its TS callbacks at (X, Xt) */
PetscErrorCode TestEvaluate(DM, PetscBool, Vec, Vec, Vec, Mat);
/* max |A - B| / max |B| over the entries, through an AIJ copy of A (B: PETSc's AIJ matrix) */
PetscErrorCode TestEntryDifference(Mat, Mat, PetscReal *);
/* whether two one-rank matrices have the same nonzero pattern (row pointers and columns of their AIJ copies) */
PetscErrorCode TestSamePattern(Mat, Mat, PetscBool *);
/* The load vector of the source f = (1, 2, 3) assembled nrep times by wa into a vector of the given type (its values
   overwritten each time) against PETSc's residual at u = 0 with f0 = f: an error above 1e-12 */
PetscErrorCode TestCheckLoad(DM, PetscWarpAsm, VecType, PetscInt);
/* A DMPLEX from the options (-dm_plex_*), distributed over comm by DMPlexDistribute() with overlap -test_overlap (default
   0); -empty_rank r: contiguous blocks of cells to the other ranks, none to rank r */
PetscErrorCode TestPlexCreate(MPI_Comm, DM *);
/* The matrix types of -types a,b,... (at most *n on input), by default aij, ellwarp and, with a device, sharednz; each
   freed by the caller with PetscFree() */
PetscErrorCode TestGetTypes(PetscBool, char *[], PetscInt *);
/* -physics laplace|elasticity (default laplace): its name into name[len] and the problem */
PetscErrorCode TestGetPhysics(char[], size_t, PlexPhysics *);
/* The strategies of -strategies a,b,... (at most *n on input), by default all five; each freed with PetscFree() */
PetscErrorCode TestGetStrategies(char *[], PetscInt *);

/* A smooth displacement of the vertices with x_0 < xmax (PETSC_MAX_REAL: every vertex) by at most amp in each direction,
   so that quadrilaterals and hexahedra touching them are not affine (nothing when amp is 0) */
PetscErrorCode TestPerturbCoordinates(DM, PetscReal, PetscReal);

/* One hanging-node constraint: the first vertex anchored to the second (DMPlexSetAnchors()) */
PetscErrorCode TestAnchorOneVertex(DM);

/* Run a call that must fail; record its error code */
#define EXPECT_ERROR(call, what) \
  do { \
    PetscErrorCode ierr_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCheck(ierr_ != PETSC_SUCCESS, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "expected an error: %s", what); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-52s -> error %d (as expected)\n", what, (int)ierr_)); \
  } while (0)

/* Run a call that must fail with the error code code */
#define EXPECT_CODE(call, code, what) \
  do { \
    PetscErrorCode ierr_; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr_ = (call); \
    PetscCall(PetscPopErrorHandler()); \
    PetscCheck(ierr_ == (code), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: expected error %d, got %d", what, (int)(code), (int)ierr_); \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-64s -> error %d (as expected)\n", what, (int)ierr_)); \
  } while (0)
