#include "testutil.h"
#include <petscds.h>
#include <petscts.h>
#include <time.h>

PetscErrorCode TestRandomCreate(MPI_Comm comm, PetscRandom *r)
{
  PetscInt seed = (PetscInt)(time(NULL) % 1000003);

  PetscFunctionBegin;
  PetscCallMPI(MPI_Bcast(&seed, 1, MPIU_INT, 0, comm));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscPrintf(comm, "random seed %" PetscInt_FMT " (rerun with -seed %" PetscInt_FMT ")\n", seed, seed));
  PetscCall(PetscRandomCreate(comm, r));
  PetscCall(PetscRandomSetSeed(*r, (unsigned long)seed));
  PetscCall(PetscRandomSeed(*r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt RandInt(PetscRandom r, PetscInt lo, PetscInt hi) /* in [lo, hi) */
{
  PetscReal v;
  PetscCallAbort(PETSC_COMM_SELF, PetscRandomGetValueReal(r, &v));
  return PetscMin(hi - 1, lo + (PetscInt)(v * (PetscReal)(hi - lo)));
}

/*
  Cases (global sizes; rows split evenly, rank zerorank gets none):
  random     1000-2000 square, row lengths 0..40 (empty rows included), diagonal present on most rows
  empty      every third row empty, the others 1..8 entries
  dense_row  500 rows, row 7 dense
  one        1 x 1
  zero       0 x 5
  longrow    1500 rows of ~8 entries, and 3 rows of 400 (> 32x the median)
  nonsquare  300 x 777
  nonmult32  1000 + 17 rows (not a multiple of 32), lengths 1..30
  powerlaw   3000 rows, lengths ~ 1/u^2 capped at the column count
  widecols   2000 x 140000: rows 0..999 of 1..10 entries near column 70 i (slices whose columns fit 16-bit offsets),
             rows 1000.. of 11..20 entries anywhere (slices spanning more than 65536 columns: 32-bit fallback)
*/
PetscErrorCode TestCreateCase(MPI_Comm comm, const char name[], PetscRandom r, PetscInt zerorank, Mat *A)
{
  PetscMPIInt  size, rank;
  PetscInt     M = 0, N = 0, m, rstart, *cols;
  PetscScalar *vals;
  PetscBool    flg;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
#define IS(s) (PetscStrcmp(name, s, &flg), flg)
  if (IS("random")) M = N = RandInt(r, 1000, 2000);
  else if (IS("empty")) M = N = 999;
  else if (IS("dense_row")) M = N = 500;
  else if (IS("one")) M = N = 1;
  else if (IS("zero")) M = 0, N = 5;
  else if (IS("longrow")) M = N = 1500;
  else if (IS("nonsquare")) M = 300, N = 777;
  else if (IS("nonmult32")) M = N = 1017;
  else if (IS("powerlaw")) M = N = 3000;
  else if (IS("widecols")) M = 2000, N = 140000;
  else SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown test case %s", name);
  /* the ranks' random streams diverge once they generate different rows: take rank 0's sizes */
  PetscCallMPI(MPI_Bcast(&M, 1, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(&N, 1, MPIU_INT, 0, comm));
  /* rows: even split over the ranks other than zerorank */
  {
    PetscMPIInt nr = size > 1 && zerorank >= 0 && zerorank < size ? size - 1 : size, idx = rank;
    if (nr < size) idx = rank < zerorank ? rank : rank - 1;
    m = (nr < size && rank == zerorank) ? 0 : M / nr + (idx < M % nr ? 1 : 0);
  }
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, m, PETSC_DECIDE, M, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetUp(*A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rstart, NULL));
  PetscCall(PetscMalloc2(PetscMax(N, 1), &cols, PetscMax(N, 1), &vals));
  for (PetscInt i = rstart; i < rstart + m; i++) {
    PetscInt len = 0;
    if (IS("random")) len = RandInt(r, 0, 41);
    else if (IS("empty")) len = i % 3 ? RandInt(r, 1, 9) : 0;
    else if (IS("dense_row")) len = i == 7 ? N : RandInt(r, 1, 12);
    else if (IS("one")) len = 1;
    else if (IS("longrow")) len = (i == 3 || i == 700 || i == 1499) ? 400 : RandInt(r, 6, 11);
    else if (IS("nonsquare")) len = RandInt(r, 0, 25);
    else if (IS("nonmult32")) len = RandInt(r, 1, 31);
    else if (IS("powerlaw")) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(r, &u));
      len = (PetscInt)PetscMin((PetscReal)N, 2.0 / PetscMax(u * u, 1e-9));
    } else if (IS("widecols")) len = i < 1000 ? RandInt(r, 1, 11) : RandInt(r, 11, 21);
    len = PetscMin(len, N);
    for (PetscInt k = 0; k < len; k++) {
      cols[k] = len == N ? k : (IS("widecols") && i < 1000 ? 70 * i + RandInt(r, 0, 2000) : RandInt(r, 0, N));
      PetscCall(PetscRandomGetValue(r, &vals[k]));
      vals[k] -= 0.5;
    }
    if (len && i < N && !IS("nonsquare") && !IS("widecols")) cols[0] = i; /* a diagonal for most rows */
    PetscCall(MatSetValues(*A, 1, &i, len, cols, vals, ADD_VALUES));
  }
#undef IS
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A (x) (bs x bs random blocks): row bs i + a, column bs c + b for every entry (i, c) of A, block sizes bs; with brk, the
   first nonempty local row of the result misses the second column of its first block (a pattern that is not blocked) */
PetscErrorCode TestBlockExpand(Mat A, PetscInt bs, PetscBool brk, PetscRandom r, Mat *B)
{
  PetscInt     m, n, rstart, ncols, *bc;
  PetscScalar *bv;
  PetscBool    broken = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), B));
  PetscCall(MatSetSizes(*B, bs * m, bs * n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetBlockSizes(*B, bs, bs));
  PetscCall(MatSetType(*B, MATAIJ));
  PetscCall(MatSetUp(*B));
  PetscCall(MatSetOption(*B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = rstart; i < rstart + m; i++) {
    const PetscInt *cols;
    PetscCall(MatGetRow(A, i, &ncols, &cols, NULL));
    PetscCall(PetscMalloc2(PetscMax(bs * ncols, 1), &bc, PetscMax(bs * ncols, 1), &bv));
    for (PetscInt a = 0; a < bs; a++) {
      PetscInt row = bs * i + a, len = 0;
      for (PetscInt k = 0; k < ncols; k++)
        for (PetscInt b = 0; b < bs; b++) {
          if (brk && !broken && a == 0 && k == 0 && b == 1) {
            broken = PETSC_TRUE;
            continue;
          }
          bc[len] = bs * cols[k] + b;
          PetscCall(PetscRandomGetValue(r, &bv[len]));
          bv[len++] -= 0.5;
        }
      PetscCall(MatSetValues(*B, 1, &row, len, bc, bv, INSERT_VALUES));
    }
    PetscCall(PetscFree2(bc, bv));
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, NULL));
  }
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -block bs (and -block_break): *A replaced by its bs x bs block expansion (TestBlockExpand()); nothing without it */
PetscErrorCode TestBlockOption(PetscRandom r, Mat *A)
{
  PetscInt  bs  = 1;
  PetscBool brk = PETSC_FALSE;
  Mat       Ab;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-block", &bs, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-block_break", &brk, NULL));
  if (bs < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TestBlockExpand(*A, bs, brk, r, &Ab));
  PetscCall(MatDestroy(A));
  *A = Ab;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscInitialize(), the petscwarp package, and whether to skip (a GPU test without a device) */
PetscErrorCode TestBegin(int *argc, char ***argv, const char help[], PetscBool *skip)
{
  PetscFunctionBegin;
  PetscCall(PetscInitialize(argc, argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(TestSkipWithoutDevice(skip));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int TestSkip(void)
{
  PetscCall(PetscFinalize());
  return PETSCWARP_TEST_SKIP;
}

PetscErrorCode TestSkipWithoutDevice(PetscBool *skip)
{
  char      backend[16] = "";
  PetscBool avail, set, cuda, require = PETSC_FALSE;

  PetscFunctionBegin;
  *skip = PETSC_FALSE;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ellwarp_backend", backend, sizeof(backend), &set));
  PetscCall(PetscStrcmp(backend, "cuda", &cuda));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-test_require_device", &require, NULL)); /* a GPU test that uses the host backend */
  if ((!set || !cuda) && !require) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscWarpDeviceAvailable(&avail));
  if (!avail) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED: no CUDA device is present (or PETSc was built without CUDA); this GPU test did not run\n"));
    *skip = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestCopyValues(Vec from, Vec to)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n, m;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetLocalSize(to, &m));
  PetscCheck(n == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Local sizes %" PetscInt_FMT " and %" PetscInt_FMT " differ", n, m);
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayWrite(to, &b));
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestEvaluate(DM dm, PetscBool ts, Vec X, Vec Xt, Vec F, Mat J)
{
  PetscFunctionBegin;
  if (ts) {
    TS t;
    PetscCall(TSCreate(PetscObjectComm((PetscObject)dm), &t));
    PetscCall(TSSetDM(t, dm));
    PetscCall(TSComputeIFunction(t, 0.3, X, Xt, F, PETSC_FALSE));
    PetscCall(TSComputeIJacobian(t, 0.3, X, Xt, 7.0, J, J, PETSC_FALSE));
    PetscCall(TSDestroy(&t));
  } else {
    SNES snes;
    PetscCall(SNESCreate(PetscObjectComm((PetscObject)dm), &snes));
    PetscCall(SNESSetDM(snes, dm));
    PetscCall(SNESComputeFunction(snes, X, F));
    PetscCall(SNESComputeJacobian(snes, X, J, J));
    PetscCall(SNESDestroy(&snes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestEntryDifference(Mat A, Mat B, PetscReal *rel)
{
  Mat       C;
  PetscReal nd, nb;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatAXPY(C, -1.0, B, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(C, NORM_MAX, &nd));
  PetscCall(MatNorm(B, NORM_MAX, &nb));
  *rel = nb > 0 ? nd / nb : nd;
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void f0_const(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = 1.0 + c;
}

PetscErrorCode TestCheckLoad(DM dm, PetscWarpAsm wa, VecType vtype, PetscInt nrep)
{
  PetscDS   ds;
  SNES      snes;
  Vec       u, r, F;
  PetscReal f[3] = {1, 2, 3}, e;
  PetscInt  n;
  MPI_Comm  comm = PetscObjectComm((PetscObject)dm);
  void (*f0)(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, const PetscReal[], PetscInt, const PetscScalar[], PetscScalar[]);
  void (*f1)(PetscInt, PetscInt, PetscInt, const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], const PetscInt[], const PetscInt[], const PetscScalar[], const PetscScalar[], const PetscScalar[], PetscReal, const PetscReal[], PetscInt, const PetscScalar[], PetscScalar[]);

  PetscFunctionBegin;
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetResidual(ds, 0, &f0, &f1));
  PetscCall(PetscDSSetResidual(ds, 0, f0_const, f1));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecDuplicate(u, &r));
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESCreate(comm, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESComputeFunction(snes, u, r));
  PetscCall(PetscDSSetResidual(ds, 0, f0, f1));
  PetscCall(VecCreate(comm, &F));
  PetscCall(VecGetLocalSize(r, &n));
  PetscCall(VecSetSizes(F, n, PETSC_DETERMINE));
  PetscCall(VecSetType(F, vtype));
  PetscCall(PetscWarpAsmSetSource(wa, f));
  for (PetscInt k = 0; k < nrep; k++) {
    PetscCall(VecSet(F, 7.0)); /* overwritten */
    PetscCall(PetscWarpAsmAssembleVector(wa, F));
  }
  PetscCall(VecRelativeDifference(F, r, &e));
  PetscCheck(e < 1e-12, comm, PETSC_ERR_PLIB, "load vector rel. err %g", (double)e);
  PetscCall(PetscPrintf(comm, "  load vector (%s, %" PetscInt_FMT " assemblies)          rel. err %.2e\n", vtype, nrep, (double)e));
  PetscCall(SNESDestroy(&snes));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestPlexCreate(MPI_Comm comm, DM *dm)
{
  PetscMPIInt size, rank;
  PetscInt    empty = -1, overlap = 0;
  DM          dist = NULL;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-empty_rank", &empty, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_overlap", &overlap, NULL));
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  PetscCall(DMPlexDistributeSetDefault(*dm, PETSC_FALSE));
  PetscCall(DMSetFromOptions(*dm));
  if (size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  if (empty >= 0) { /* contiguous blocks of cells to the ranks other than empty */
    PetscPartitioner part;
    PetscInt         cStart, cEnd, n, *sizes, *points;

    PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, &cEnd));
    n = rank == 0 ? cEnd - cStart : 0;
    PetscCall(PetscCalloc2(size, &sizes, n, &points));
    for (PetscInt r = 0, k = 0; r < size; r++) {
      if (r == empty) continue;
      sizes[r] = n / (size - 1) + (k < n % (size - 1) ? 1 : 0);
      k++;
    }
    for (PetscInt i = 0; i < n; i++) points[i] = i;
    PetscCall(DMPlexGetPartitioner(*dm, &part));
    PetscCall(PetscPartitionerSetType(part, PETSCPARTITIONERSHELL));
    PetscCall(PetscPartitionerShellSetPartition(part, size, sizes, points));
    PetscCall(PetscFree2(sizes, points));
  }
  PetscCall(DMPlexDistribute(*dm, overlap, NULL, &dist));
  if (dist) {
    PetscCall(DMDestroy(dm));
    *dm = dist;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestGetTypes(PetscBool device, char *types[], PetscInt *n)
{
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, n, &flg));
  if (!flg) {
    *n = device ? 3 : 2;
    PetscCall(PetscStrallocpy(MATAIJ, &types[0]));
    PetscCall(PetscStrallocpy(MATELLWARP, &types[1]));
    if (device) PetscCall(PetscStrallocpy(MATSHAREDNZ, &types[2]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestGetPhysics(char name[], size_t len, PlexPhysics *phys)
{
  PetscBool elas;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, "laplace", len));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-physics", name, len, NULL));
  PetscCall(PetscStrcmp(name, "elasticity", &elas));
  *phys = elas ? PLEX_PHYSICS_ELASTICITY : PLEX_PHYSICS_LAPLACE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestGetStrategies(char *strategies[], PetscInt *n)
{
  PetscBool flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-strategies", strategies, n, &flg));
  if (!flg) {
    *n = 6; /* every PetscWarpAsmStrategy */
    for (PetscInt s = 0; s < *n; s++) PetscCall(PetscStrallocpy(PetscWarpAsmStrategies[s], &strategies[s]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestPerturbCoordinates(DM dm, PetscReal amp, PetscReal xmax)
{
  Vec          x, y;
  PetscScalar *a;
  PetscInt     n, dim;

  PetscFunctionBegin;
  if (amp == 0.0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetCoordinateDim(dm, &dim));
  PetscCall(DMGetCoordinatesLocal(dm, &x));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecCopy(x, y));
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArray(y, &a));
  for (PetscInt v = 0; v < n / dim; ++v) {
    PetscReal s = 0.0;

    if (PetscRealPart(a[v * dim]) >= xmax) continue;
    for (PetscInt d = 0; d < dim; ++d) s += (3.0 + 2.0 * d) * PetscRealPart(a[v * dim + d]);
    for (PetscInt d = 0; d < dim; ++d) a[v * dim + d] += amp * PetscSinReal(s + 1.3 * d);
  }
  PetscCall(VecRestoreArray(y, &a));
  PetscCall(DMSetCoordinatesLocal(dm, y));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A and B have the same nonzero pattern (their AIJ copies' row pointers and column indices) */
PetscErrorCode TestSamePattern(Mat A, Mat B, PetscBool *same)
{
  Mat             C[2];
  const PetscInt *ia[2], *ja[2];
  PetscInt        n[2];
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &C[0]));
  PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &C[1]));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(MatGetRowIJ(C[k], 0, PETSC_FALSE, PETSC_FALSE, &n[k], &ia[k], &ja[k], &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "No row pointers");
  }
  *same = (PetscBool)(n[0] == n[1]);
  if (*same) PetscCall(PetscArraycmp(ia[0], ia[1], n[0] + 1, same));
  if (*same) PetscCall(PetscArraycmp(ja[0], ja[1], ia[0][n[0]], same));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(MatRestoreRowIJ(C[k], 0, PETSC_FALSE, PETSC_FALSE, &n[k], &ia[k], &ja[k], &done));
    PetscCall(MatDestroy(&C[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode TestAnchorOneVertex(DM dm)
{
  PetscSection as;
  IS           ais;
  PetscInt     vStart, vEnd;

  PetscFunctionBegin;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCheck(vEnd - vStart >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Need two vertices, the mesh has %" PetscInt_FMT, vEnd - vStart);
  PetscCall(PetscSectionCreate(PETSC_COMM_SELF, &as));
  PetscCall(PetscSectionSetChart(as, vStart, vStart + 1));
  PetscCall(PetscSectionSetDof(as, vStart, 1));
  PetscCall(PetscSectionSetUp(as));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, 1, vStart + 1, 1, &ais));
  PetscCall(DMPlexSetAnchors(dm, as, ais));
  PetscCall(PetscSectionDestroy(&as));
  PetscCall(ISDestroy(&ais));
  PetscFunctionReturn(PETSC_SUCCESS);
}
