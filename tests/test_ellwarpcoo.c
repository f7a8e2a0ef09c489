static char help[] = "MatSetPreallocationCOO()/MatSetValuesCOO() of MATELLWARP against MATAIJ with the same COO input.\n"
                     "  -cases a,b,...  cases (default: all: random, dense_row, one, nonsquare, tall, allneg, none)\n"
                     "  -n_coo <n>      instead, time MatSetPreallocationCOO() and MatSetValuesCOO() of about n entries (Q1\n"
                     "                  hexahedra, 64 entries per cell, cell by cell) with MATSEQAIJ, MATSEQAIJCUSPARSE (with a\n"
                     "                  device) and MATELLWARP (-mat_ellwarp_backend), and check the products agree\n"
                     "  -shuffle        with -n_coo: the entries in random order\n"
                     "  -reps <r>       with -n_coo: repetitions (the best time is printed; default 2)\n"
                     "  -block <bs>     every entry (i, j) of the cases becomes a bs x bs block, block sizes bs (the block layout)\n";

#include "testutil.h"
#include <petscdevice.h>
#include <petsctime.h>

typedef struct {
  PetscInt   M, N, m; /* global sizes, local rows */
  PetscCount n;
  PetscInt  *i, *j;
} COOList;

static PetscInt blk = 1; /* -block */

/* Every entry (i, j) of L into the blk x blk block (blk i + a, blk j + b); a negative index stays negative */
static PetscErrorCode BlockList(COOList *L)
{
  PetscInt  *ni, *nj;
  PetscCount n = 0;

  PetscFunctionBegin;
  if (blk < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(L->n * blk * blk + 1, &ni, L->n * blk * blk + 1, &nj));
  for (PetscCount k = 0; k < L->n; k++)
    for (PetscInt a = 0; a < blk; a++)
      for (PetscInt b = 0; b < blk; b++, n++) {
        ni[n] = L->i[k] < 0 ? -1 : blk * L->i[k] + a;
        nj[n] = L->j[k] < 0 ? -1 : blk * L->j[k] + b;
      }
  PetscCall(PetscFree2(L->i, L->j));
  L->i = ni;
  L->j = nj;
  L->n = n;
  L->M *= blk;
  L->N *= blk;
  L->m *= blk;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt RandInt(PetscRandom r, PetscInt lo, PetscInt hi) /* in [lo, hi) */
{
  PetscReal v;
  PetscCallAbort(PETSC_COMM_SELF, PetscRandomGetValueReal(r, &v));
  return PetscMin(hi - 1, lo + (PetscInt)(v * (PetscReal)(hi - lo)));
}

static PetscErrorCode Push(COOList *L, PetscCount *cap, PetscInt i, PetscInt j)
{
  PetscFunctionBegin;
  if (L->n == *cap) {
    PetscInt *ni, *nj;
    *cap = 2 * *cap + 16;
    PetscCall(PetscMalloc2(*cap, &ni, *cap, &nj));
    PetscCall(PetscArraycpy(ni, L->i, L->n));
    PetscCall(PetscArraycpy(nj, L->j, L->n));
    PetscCall(PetscFree2(L->i, L->j));
    L->i = ni;
    L->j = nj;
  }
  L->i[L->n]   = i;
  L->j[L->n++] = j;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  COO lists of a named case (global sizes; each rank gives entries of its own rows and, with several ranks, a few of
  other ranks' rows), in random order, with duplicates and entries with a negative index (ignored):
  random     200-600 square, 0-11 entries per row drawn from 8 columns (many duplicates), row M/2 empty
  dense_row  300 square, row 5 dense (every column twice), the others 1-6 entries
  one        1 x 1
  nonsquare  150 x 377
  tall       500 x 20
  allneg     50 x 50, every entry with a negative index: an empty pattern
  none       40 x 40, no entry at all
*/
static PetscErrorCode MakeList(MPI_Comm comm, const char name[], PetscRandom r, PetscInt Mprev, COOList *L)
{
  PetscMPIInt size;
  PetscInt    rstart, empty = -1;
  PetscCount  cap = 0;
  PetscBool   flg;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscMemzero(L, sizeof(*L)));
#define IS(s) (PetscStrcmp(name, s, &flg), flg)
  if (IS("random")) L->M = L->N = Mprev > 0 ? Mprev : RandInt(r, 200, 600); /* the size of a matrix preallocated again */
  else if (IS("dense_row")) L->M = L->N = 300;
  else if (IS("one")) L->M = L->N = 1;
  else if (IS("nonsquare")) L->M = 150, L->N = 377;
  else if (IS("tall")) L->M = 500, L->N = 20;
  else if (IS("allneg")) L->M = L->N = 50;
  else if (IS("none")) L->M = L->N = 40;
  else SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown case %s", name);
  PetscCallMPI(MPI_Bcast(&L->M, 1, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(&L->N, 1, MPIU_INT, 0, comm));
  L->m = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(comm, &L->m, &L->M));
  PetscCallMPI(MPI_Scan(&L->m, &rstart, 1, MPIU_INT, MPI_SUM, comm));
  rstart -= L->m;
  if (IS("random")) empty = L->M / 2;
  for (PetscInt r0 = rstart; r0 < rstart + L->m; r0++) {
    PetscInt len = 0;
    if (IS("random")) len = r0 == empty ? 0 : RandInt(r, 0, 12);
    else if (IS("dense_row")) len = r0 == 5 ? 2 * L->N : RandInt(r, 1, 7);
    else if (IS("one")) len = 3;
    else if (IS("nonsquare")) len = RandInt(r, 0, 21);
    else if (IS("tall")) len = RandInt(r, 0, 9);
    for (PetscInt k = 0; k < len; k++) {
      PetscInt row = r0, col;
      if (IS("random")) col = (7 * row + 13 * RandInt(r, 0, 8)) % L->N;
      else if (IS("dense_row") && r0 == 5) col = k % L->N;
      else col = RandInt(r, 0, L->N);
      if (size > 1 && RandInt(r, 0, 10) == 0) { /* another rank's row */
        row = RandInt(r, 0, L->M);
        if (row == empty) row = 0;
      }
      PetscCall(Push(L, &cap, row, col));
    }
  }
  if (!IS("none")) { /* ignored entries: negative row or column (a negative column drops even a row out of range) */
    PetscInt nneg = IS("allneg") ? 20 : 1 + L->m / 20;
    for (PetscInt k = 0; k < nneg; k++) {
      PetscInt c = RandInt(r, 0, 3);
      PetscCall(Push(L, &cap, c == 0 ? -1 : RandInt(r, 0, L->M), c == 0 ? RandInt(r, 0, L->N) : -RandInt(r, 1, 4)));
    }
    PetscCall(Push(L, &cap, L->M + 3, -1));
    PetscCall(Push(L, &cap, -7, L->N + 5));
  }
#undef IS
  for (PetscCount k = L->n - 1; k > 0; k--) { /* random order */
    PetscCount p = RandInt(r, 0, (PetscInt)k + 1);
    PetscInt   t;
    t = L->i[k], L->i[k] = L->i[p], L->i[p] = t;
    t = L->j[k], L->j[k] = L->j[p], L->j[p] = t;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A matrix of the given type preallocated with (copies of: the call may change them) the list's indices */
static PetscErrorCode Preallocate(MPI_Comm comm, const COOList *L, MatType type, Mat *A)
{
  PetscInt *i, *j;

  PetscFunctionBegin;
  if (!*A) {
    PetscCall(MatCreate(comm, A));
    PetscCall(MatSetSizes(*A, L->m, PETSC_DECIDE, L->M, L->N));
    PetscCall(MatSetBlockSizes(*A, blk, blk));
    PetscCall(MatSetType(*A, type));
  }
  PetscCall(PetscMalloc2(L->n, &i, L->n, &j));
  PetscCall(PetscArraycpy(i, L->i, L->n));
  PetscCall(PetscArraycpy(j, L->j, L->n));
  PetscCall(MatSetPreallocationCOO(*A, L->n, i, j));
  PetscCall(PetscFree2(i, j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckRel(const char *what, const char *cs, PetscReal b, PetscReal a)
{
  PetscReal err = PetscAbsReal(b - a) / PetscMax(PetscAbsReal(a), PETSC_SMALL);

  PetscFunctionBegin;
  if (a == 0) err = PetscAbsReal(b);
  PetscCheck(err < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "case %s: %s %g, AIJ %g: relative error %g >= 1e-12", cs, what, (double)b, (double)a, (double)err);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckMult(const char *cs, const char *stage, Mat A, Mat B, PetscRandom r)
{
  Vec       xa, ya, xb, yb, ta, tb;
  PetscReal err, err2;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(MatCreateVecs(B, &xb, &yb));
  PetscCall(VecDuplicate(xa, &ta));
  PetscCall(VecDuplicate(xb, &tb));
  PetscCall(VecSetRandom(xa, r));
  PetscCall(VecCopy(xa, xb));
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(B, xb, yb));
  PetscCall(VecRelativeDifference(yb, ya, &err));
  PetscCall(VecSetRandom(ya, r));
  PetscCall(VecCopy(ya, yb));
  PetscCall(MatMultTranspose(A, ya, ta));
  PetscCall(MatMultTranspose(B, yb, tb));
  PetscCall(VecRelativeDifference(tb, ta, &err2));
  PetscCheck(err < 1e-12 && err2 < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "case %s, %s: MatMult relative error %g, MatMultTranspose %g (>= 1e-12)", cs, stage, (double)err, (double)err2);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %-34s MatMult rel. err %.1e, MatMultTranspose %.1e\n", cs, stage, (double)err, (double)err2));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&yb));
  PetscCall(VecDestroy(&ta));
  PetscCall(VecDestroy(&tb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Host reads: the pattern and values of some rows (MatGetRow), MatGetValues on them and on a column outside, norms */
static PetscErrorCode CheckHost(const char *cs, Mat A, Mat B, PetscRandom r)
{
  PetscInt  rstart, rend, M, N, rows[6];
  PetscReal na, nb;

  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetSize(A, &M, &N));
  rows[0] = rstart, rows[1] = rend - 1, rows[2] = 5, rows[3] = M / 2;
  rows[4] = RandInt(r, rstart, rend), rows[5] = RandInt(r, rstart, rend);
  for (PetscInt q = 0; q < 6; q++) {
    const PetscInt    *ca, *cb;
    const PetscScalar *va, *vb;
    PetscInt           na_, nb_, row = rows[q];
    PetscScalar        g[64], outside = 1.0;
    if (row < rstart || row >= rend) continue;
    PetscCall(MatGetRow(A, row, &na_, &ca, &va));
    PetscCall(MatGetRow(B, row, &nb_, &cb, &vb));
    PetscCheck(na_ == nb_, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: row %" PetscInt_FMT " has %" PetscInt_FMT " entries, AIJ %" PetscInt_FMT, cs, row, nb_, na_);
    for (PetscInt k = 0; k < na_; k++) {
      PetscCheck(ca[k] == cb[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: row %" PetscInt_FMT " entry %" PetscInt_FMT ": column %" PetscInt_FMT ", AIJ %" PetscInt_FMT, cs, row, k, cb[k], ca[k]);
      PetscCall(CheckRel("MatGetRow value", cs, PetscRealPart(vb[k]), PetscRealPart(va[k])));
    }
    if (na_ && na_ <= 64) { /* MatGetValues on the row's columns */
      PetscCall(MatGetValues(B, 1, &row, na_, ca, g));
      for (PetscInt k = 0; k < na_; k++) PetscCall(CheckRel("MatGetValues", cs, PetscRealPart(g[k]), PetscRealPart(va[k])));
    }
    for (PetscInt c = 0; c < N; c++) { /* a column outside the pattern reads 0 */
      PetscBool in = PETSC_FALSE;
      for (PetscInt k = 0; k < na_; k++) in = (PetscBool)(in || ca[k] == c);
      if (!in) {
        PetscCall(MatGetValues(B, 1, &row, 1, &c, &outside));
        break;
      }
    }
    PetscCheck(outside == 0.0 || na_ == N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: row %" PetscInt_FMT ": a column outside the pattern reads %g", cs, row, (double)PetscRealPart(outside));
    PetscCall(MatRestoreRow(B, row, &nb_, &cb, &vb));
    PetscCall(MatRestoreRow(A, row, &na_, &ca, &va));
  }
  for (PetscInt q = 0; q < 3; q++) {
    NormType t = q == 0 ? NORM_1 : (q == 1 ? NORM_FROBENIUS : NORM_INFINITY);
    PetscCall(MatNorm(A, t, &na));
    PetscCall(MatNorm(B, t, &nb));
    PetscCall(CheckRel(NormTypes[t], cs, nb, na));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random values for the list; vd: a device copy when the backend is cuda (else NULL) */
static PetscErrorCode MakeValues(const COOList *L, PetscRandom r, PetscBool device, PetscScalar **v, Vec *vd)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(L->n, v));
  for (PetscCount k = 0; k < L->n; k++) {
    PetscCall(PetscRandomGetValue(r, &(*v)[k]));
    (*v)[k] -= 0.5;
  }
  *vd = NULL;
  if (device) {
    PetscScalar *a;
    PetscCall(VecCreate(PETSC_COMM_SELF, vd));
    PetscCall(VecSetSizes(*vd, (PetscInt)L->n, (PetscInt)L->n));
    PetscCall(VecSetType(*vd, VECCUDA));
    PetscCall(VecGetArrayWrite(*vd, &a));
    PetscCall(PetscArraycpy(a, *v, L->n));
    PetscCall(VecRestoreArrayWrite(*vd, &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatSetValuesCOO() with v on A (AIJ) and with v, or its device copy, on B */
static PetscErrorCode SetBoth(Mat A, Mat B, const PetscScalar *v, Vec vd, InsertMode mode)
{
  PetscFunctionBegin;
  PetscCall(MatSetValuesCOO(A, v, mode));
  if (vd) {
    const PetscScalar *d;
    PetscMemType       mt;
    PetscInt           n;
    PetscCall(VecGetLocalSize(vd, &n));
    PetscCall(VecGetArrayReadAndMemType(vd, &d, &mt));
    PetscCheck(!PetscMemTypeHost(mt) || n == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "expected device values");
    PetscCall(MatSetValuesCOO(B, d, mode));
    PetscCall(VecRestoreArrayReadAndMemType(vd, &d));
  } else PetscCall(MatSetValuesCOO(B, v, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(const char *cs, PetscBool device, PetscRandom r)
{
  MPI_Comm    comm = PETSC_COMM_WORLD;
  Mat         B    = NULL;
  PetscMPIInt size;
  PetscInt    M = -1;
  char        stage[64];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  for (PetscInt pass = 0; pass < 2; pass++) { /* the second preallocation of B replaces the first */
    COOList      L;
    Mat          A = NULL;
    PetscScalar *v[4];
    Vec          vd[4];

    PetscCall(MakeList(comm, cs, r, M, &L));
    PetscCall(BlockList(&L));
    M = L.M / blk;
    PetscCall(Preallocate(comm, &L, MATAIJ, &A));
    PetscCall(Preallocate(comm, &L, MATELLWARP, &B));
    for (PetscInt k = 0; k < 4; k++) PetscCall(MakeValues(&L, r, (PetscBool)(device && k >= 2), &v[k], &vd[k]));
    /* host values: INSERT, products first, then host reads */
    PetscCall(SetBoth(A, B, v[0], NULL, INSERT_VALUES));
    PetscCall(PetscSNPrintf(stage, sizeof(stage), "pass %" PetscInt_FMT " INSERT host values", pass));
    PetscCall(CheckMult(cs, stage, A, B, r));
    PetscCall(CheckHost(cs, A, B, r));
    /* ADD twice, host reads first (pulling the values back), then products */
    PetscCall(SetBoth(A, B, v[1], NULL, ADD_VALUES));
    PetscCall(SetBoth(A, B, v[0], NULL, ADD_VALUES));
    PetscCall(CheckHost(cs, A, B, r));
    PetscCall(PetscSNPrintf(stage, sizeof(stage), "pass %" PetscInt_FMT " ADD host values twice", pass));
    PetscCall(CheckMult(cs, stage, A, B, r));
    /* device values (host values with the host backend): INSERT then ADD */
    PetscCall(SetBoth(A, B, v[2], vd[2], INSERT_VALUES));
    PetscCall(SetBoth(A, B, v[3], vd[3], ADD_VALUES));
    PetscCall(PetscSNPrintf(stage, sizeof(stage), "pass %" PetscInt_FMT " INSERT+ADD %s values", pass, device ? "device" : "host"));
    PetscCall(CheckMult(cs, stage, A, B, r));
    PetscCall(CheckHost(cs, A, B, r));
    /* a host write (MatScale) then ADD: the layout is refreshed from the host first */
    PetscCall(MatScale(A, 2.0));
    PetscCall(MatScale(B, 2.0));
    PetscCall(SetBoth(A, B, v[1], vd[1], ADD_VALUES));
    PetscCall(PetscSNPrintf(stage, sizeof(stage), "pass %" PetscInt_FMT " MatScale then ADD", pass));
    PetscCall(CheckMult(cs, stage, A, B, r));
    if (pass == 0) {
      Mat A2, B2, C;
      /* a duplicate shares the COO maps */
      PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &A2));
      PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &B2));
      PetscCall(CheckMult(cs, "MatDuplicate", A2, B2, r));
      PetscCall(SetBoth(A2, B2, v[3], vd[3], ADD_VALUES));
      PetscCall(CheckMult(cs, "MatDuplicate then ADD", A2, B2, r));
      PetscCall(CheckHost(cs, A2, B2, r));
      PetscCall(MatDestroy(&B2));
      /* a conversion to AIJ keeps them */
      PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &C));
      PetscCall(CheckMult(cs, "MatConvert to AIJ", A, C, r));
      PetscCall(MatSetValuesCOO(A2, v[2], INSERT_VALUES));
      PetscCall(MatSetValuesCOO(C, v[2], INSERT_VALUES));
      PetscCall(CheckMult(cs, "MatConvert to AIJ then INSERT", A2, C, r));
      PetscCall(MatDestroy(&C));
      /* AIJ preallocated with COO, converted to ELL-WARP: AIJ's maps */
      PetscCall(MatConvert(A2, MATELLWARP, MAT_INITIAL_MATRIX, &C));
      PetscCall(MatSetValuesCOO(A2, v[1], ADD_VALUES));
      PetscCall(MatSetValuesCOO(C, v[1], ADD_VALUES));
      PetscCall(CheckMult(cs, "AIJ COO converted to ELL-WARP, ADD", A2, C, r));
      PetscCall(MatDestroy(&C));
      PetscCall(MatDestroy(&A2));
      if (device) { /* the maps follow a change of backend: to the host (device values copied there) and back */
        PetscCall(MatEllWarpSetBackend(B, MAT_ELLWARP_BACKEND_HOST));
        PetscCall(SetBoth(A, B, v[3], vd[3], ADD_VALUES));
        PetscCall(CheckMult(cs, "backend host, ADD device values", A, B, r));
        PetscCall(MatEllWarpSetBackend(B, MAT_ELLWARP_BACKEND_CUDA));
        PetscCall(SetBoth(A, B, v[2], vd[2], INSERT_VALUES));
        PetscCall(CheckMult(cs, "backend cuda again, INSERT", A, B, r));
      }
    }
    for (PetscInt k = 0; k < 4; k++) {
      PetscCall(PetscFree(v[k]));
      PetscCall(VecDestroy(&vd[k]));
    }
    PetscCall(PetscFree2(L.i, L.j));
    PetscCall(MatDestroy(&A));
  }
  {
    MatType   t;
    PetscBool isell = PETSC_TRUE;
    PetscCall(MatGetType(B, &t));
    if (size > 1) { /* MPIAIJ's COO rebuilds the blocks: they must come back as ELL-WARP */
      Mat Ad, Ao;
      PetscCall(MatMPIAIJGetSeqAIJ(B, &Ad, &Ao, NULL));
      PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJELLWARP, &isell));
      if (isell) PetscCall(PetscObjectTypeCompare((PetscObject)Ao, MATSEQAIJELLWARP, &isell));
    }
    PetscCheck(isell, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: the blocks of the MPI matrix are not %s", cs, MATSEQAIJELLWARP);
    PetscCall(PetscPrintf(comm, "  %-10s agrees with AIJ (%s%s)\n", cs, t, size > 1 ? ", blocks seqaijellwarp" : ""));
  }
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Out-of-range indices: the error of MatSetPreallocationCOO_SeqAIJ(), PETSC_ERR_ARG_OUTOFRANGE (one rank; not compared
   by running AIJ, whose error path leaks what -malloc_dump would report) */
static PetscErrorCode CheckErrors(void)
{
  PetscInt M = 10, N = 7;
  MatType  types[1] = {MATELLWARP};
  PetscInt bi[2][3] = {
    {1, 10, 2},
    {1, 3,  2}
  };
  PetscInt bj[2][3] = {
    {0, 1, 2},
    {0, 7, 2}
  };
  PetscInt  code[1][2];
  PetscBool one;

  PetscFunctionBegin;
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    one = (PetscBool)(size == 1);
  }
  if (!one) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt t = 0; t < 1; t++)
    for (PetscInt b = 0; b < 2; b++) {
      Mat            A;
      PetscInt       i[3], j[3];
      PetscErrorCode ierr;
      PetscCall(PetscArraycpy(i, bi[b], 3));
      PetscCall(PetscArraycpy(j, bj[b], 3));
      PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
      PetscCall(MatSetSizes(A, M, N, M, N));
      PetscCall(MatSetType(A, types[t]));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = MatSetPreallocationCOO(A, 3, i, j);
      PetscCall(PetscPopErrorHandler());
      code[t][b] = (PetscInt)ierr;
      PetscCall(MatDestroy(&A));
    }
  for (PetscInt b = 0; b < 2; b++) {
    PetscCheck(code[0][b] == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "out-of-range %s: error %" PetscInt_FMT ", AIJ gives %d", b ? "column" : "row", code[0][b], (int)PETSC_ERR_ARG_OUTOFRANGE);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  out-of-range COO %-6s index: error %" PetscInt_FMT " (PETSC_ERR_ARG_OUTOFRANGE, as AIJ)\n", b ? "column" : "row", code[0][b]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Q1 hexahedra on a k^3 box: 64 entries per cell, cell by cell (or shuffled) */
static PetscErrorCode HexList(PetscInt k, PetscBool shuffle, PetscRandom r, COOList *L)
{
  PetscInt   p = k + 1;
  PetscCount e = 0;

  PetscFunctionBegin;
  L->M = L->N = L->m = p * p * p;
  L->n               = (PetscCount)64 * k * k * k;
  PetscCall(PetscMalloc2(L->n, &L->i, L->n, &L->j));
  for (PetscInt cz = 0; cz < k; cz++)
    for (PetscInt cy = 0; cy < k; cy++)
      for (PetscInt cx = 0; cx < k; cx++) {
        PetscInt v[8];
        for (PetscInt c = 0; c < 8; c++) v[c] = (cz + (c >> 2)) * p * p + (cy + ((c >> 1) & 1)) * p + cx + (c & 1);
        for (PetscInt a = 0; a < 8; a++)
          for (PetscInt b = 0; b < 8; b++) L->i[e] = v[a], L->j[e++] = v[b];
      }
  if (shuffle)
    for (PetscCount q = L->n - 1; q > 0; q--) {
      PetscCount s = (PetscCount)RandInt(r, 0, (PetscInt)q + 1);
      PetscInt   t;
      t = L->i[q], L->i[q] = L->i[s], L->i[s] = t;
      t = L->j[q], L->j[q] = L->j[s], L->j[s] = t;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Best times of MatSetPreallocationCOO() and of the first MatSetValuesCOO() (host values) of a type over reps runs;
   the matrix of the last run is returned */
static PetscErrorCode TimeType(const COOList *L, MatType type, const PetscScalar *v, PetscInt reps, PetscLogDouble *tp, PetscLogDouble *tv, Mat *A)
{
  PetscFunctionBegin;
  *tp = *tv = PETSC_MAX_REAL;
  for (PetscInt rep = 0; rep < reps; rep++) {
    PetscLogDouble t0, t1, t2;
    PetscInt      *i, *j;
    PetscCall(MatDestroy(A));
    PetscCall(MatCreate(PETSC_COMM_SELF, A));
    PetscCall(MatSetSizes(*A, L->M, L->N, L->M, L->N));
    PetscCall(MatSetType(*A, type));
    PetscCall(PetscMalloc2(L->n, &i, L->n, &j)); /* the call may change them */
    PetscCall(PetscArraycpy(i, L->i, L->n));
    PetscCall(PetscArraycpy(j, L->j, L->n));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t0));
    PetscCall(MatSetPreallocationCOO(*A, L->n, i, j));
    PetscCall(DeviceSync());
    PetscCall(PetscFree2(i, j));
    PetscCall(PetscTime(&t1));
    PetscCall(MatSetValuesCOO(*A, v, INSERT_VALUES));
    PetscCall(DeviceSync());
    PetscCall(PetscTime(&t2));
    *tp = PetscMin(*tp, t1 - t0);
    *tv = PetscMin(*tv, t2 - t1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Timing(PetscCount ncoo, PetscRandom r)
{
  COOList           L, W;
  PetscInt          k = 1, reps = 2, nnz;
  PetscBool         shuffle = PETSC_FALSE, dev;
  PetscScalar      *v;
  MatType           types[3] = {MATSEQAIJ, MATSEQAIJCUSPARSE, MATELLWARP};
  const char       *names[3] = {"seqaij", "seqaijcusparse", "ellwarp"};
  PetscLogDouble    tp[3] = {0, 0, 0}, tv[3] = {0, 0, 0};
  Mat               A[3] = {NULL, NULL, NULL};
  MatInfo           info;
  MatEllWarpBackend be;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-shuffle", &shuffle, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscWarpDeviceAvailable(&dev));
  while ((PetscCount)64 * (k + 1) * (k + 1) * (k + 1) <= ncoo) k++;
  PetscCall(HexList(k, shuffle, r, &L));
  PetscCall(HexList(2, shuffle, r, &W)); /* warm-up: device context, libraries, kernel loading */
  PetscCall(PetscMalloc1(PetscMax(L.n, W.n), &v));
  for (PetscCount q = 0; q < PetscMax(L.n, W.n); q++) v[q] = 1.0 + (PetscReal)(q % 17) / 16.0;
  for (PetscInt t = 0; t < 3; t++) {
    PetscLogDouble a, b;
    if (t == 1 && !dev) continue;
    PetscCall(TimeType(&W, types[t], v, 1, &a, &b, &A[t]));
    PetscCall(TimeType(&L, types[t], v, reps, &tp[t], &tv[t], &A[t]));
  }
  PetscCall(MatEllWarpGetBackend(A[2], &be));
  PetscCall(MatGetInfo(A[0], MAT_LOCAL, &info));
  nnz = (PetscInt)info.nz_used;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "COO of Q1 hexahedra on a %" PetscInt_FMT "^3 box%s: %" PetscCount_FMT " entries, %" PetscInt_FMT " rows, %" PetscInt_FMT " nonzeros; best of %" PetscInt_FMT "\n", k, shuffle ? " (shuffled)" : "", L.n, L.M, nnz, reps));
  for (PetscInt t = 0; t < 3; t++) {
    if (!A[t]) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s (no device)\n", names[t]));
      continue;
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s MatSetPreallocationCOO %8.4f s (%5.1fx seqaij)   MatSetValuesCOO %8.4f s%s\n", t == 2 ? (be == MAT_ELLWARP_BACKEND_CUDA ? "ellwarp (cuda)" : "ellwarp (host)") : names[t], tp[t], tp[0] / tp[t], tv[t], t == 0 ? "" : " (host values)"));
    if (t) PetscCall(CheckMult(names[t], "timing matrix", A[0], A[t], r));
  }
  for (PetscInt t = 0; t < 3; t++) PetscCall(MatDestroy(&A[t]));
  PetscCall(PetscFree(v));
  PetscCall(PetscFree2(L.i, L.j));
  PetscCall(PetscFree2(W.i, W.j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       *cases[16];
  PetscInt    ncases = 16, ncoo = 0;
  PetscBool   skip, set, device = PETSC_FALSE;
  PetscRandom r;
  const char *all[]       = {"random", "dense_row", "one", "nonsquare", "tall", "allneg", "none"};
  char        backend[16] = "";

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ellwarp_backend", backend, sizeof(backend), &set));
  if (set) PetscCall(PetscStrcmp(backend, "cuda", &device));
  else PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n_coo", &ncoo, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-block", &blk, NULL));
  if (ncoo > 0) {
    PetscCall(Timing(ncoo, r));
  } else {
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", cases, &ncases, &set));
    if (!set) {
      ncases = 7;
      for (PetscInt i = 0; i < ncases; i++) PetscCall(PetscStrallocpy(all[i], &cases[i]));
    }
    for (PetscInt c = 0; c < ncases; c++) PetscCall(RunCase(cases[c], device, r));
    for (PetscInt c = 0; c < ncases; c++) PetscCall(PetscFree(cases[c]));
    PetscCall(CheckErrors());
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatSetPreallocationCOO/MatSetValuesCOO agree with AIJ\n"));
  }
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscFinalize());
  return 0;
}
