static const char help[] = "Staged reassembly (MatWarpSetStage) of ellwarp/sharednz against plain MATAIJ: the same MatSetValues() calls,\n"
                           "repeated assemblies, a changed sequence, fewer calls, INSERT_VALUES, MatSetValuesBlocked, no MatZeroEntries.\n"
                           "On several ranks element e is set by rank e mod size (rows of other ranks included), the changed sequence and the\n"
                           "missing call on one rank only: every rank must take the same path.\n"
                           "  -mat_type <ellwarp|sharednz>  -blocked (MatSetValuesBlocked with bs 2)  -n <nodes>  -tol <t> (0: the exact AIJ matrix)\n"
                           "  -zero_rank <r> (rank r sets no values)  -ignore_off_proc (MAT_IGNORE_OFF_PROC_ENTRIES: rows of other ranks dropped)\n"
                           "  -eliminate_zeros (after the first assembly an explicit zero coupling the first and last rows, removed by\n"
                           "   MatEliminateZeros(): the off-diagonal block keeps its column)  -check_paths 0 (values only: not the paths taken\n"
                           "   nor the nonzero state; with -ignore_off_proc the MatDiagonalSet() run then adds nonzeros inside the blocks: use\n"
                           "   -product 0, a product is not reused across a change of pattern)\n"
                           "A product A*A made after the recorded assembly is reused after every later one (MAT_REUSE_MATRIX) and\n"
                           "compared with AIJ's, and the matrix's storage objects (its blocks on several ranks) must stay the same.\n";

#include "testutil.h"

/* Element e couples the nodes e, e+1, e+w, e+w+1 (mod n), like a structured quad mesh; every 13th element has a
   constrained (negative) node, dropped as MatSetValues() drops it */
typedef struct {
  PetscInt    n, w, ne, bs, zero_rank;
  PetscBool   blocked;
  PetscMPIInt rank, size;
} Problem;

typedef enum {
  SEQ_SAME,
  SEQ_PERMUTED, /* one element in the middle lists its nodes in another order */
  SEQ_FEWER,    /* the last element is missing */
  SEQ_INSERT    /* the same calls with INSERT_VALUES (as DMCreateMatrix() fills the pattern with zeros) */
} Sequence;

static PetscErrorCode Assemble(const Problem *p, Mat A, PetscInt it, Sequence seq, PetscBool zero, PetscBool diag)
{
  PetscInt    nb = 4, ne = seq == SEQ_FEWER ? p->ne - 1 : p->ne, bs = p->bs;
  PetscScalar v[64];

  PetscFunctionBegin;
  if (zero) PetscCall(MatZeroEntries(A));
  if (diag) { /* values changed between MatZeroEntries() and the calls: the staged sums must add onto them */
    Vec d;
    PetscCall(MatCreateVecs(A, &d, NULL));
    PetscCall(VecSet(d, 0.75));
    PetscCall(MatDiagonalSet(A, d, INSERT_VALUES));
    PetscCall(VecDestroy(&d));
  }
  {
    InsertMode mode = seq == SEQ_INSERT ? INSERT_VALUES : ADD_VALUES;
    for (PetscInt e = 0; e < ne; e++) {
      PetscMPIInt owner = (PetscMPIInt)(e % p->size);
      if (seq == SEQ_INSERT) owner = 0; /* entries inserted by several ranks: the stash's arrival order would decide */
      if (owner == p->zero_rank) owner = (owner + 1) % p->size;
      if (owner != p->rank) continue;
      PetscInt idx[4] = {e % p->n, (e + 1) % p->n, (e + p->w) % p->n, (e + p->w + 1) % p->n}, pidx[8];
      if (e % 13 == 0) idx[2] = -1;
      if (seq == SEQ_PERMUTED && e == p->ne / 2) {
        PetscInt t = idx[0];
        idx[0]     = idx[3];
        idx[3]     = t;
      }
      for (PetscInt i = 0; i < nb * bs; i++)
        for (PetscInt j = 0; j < nb * bs; j++) v[i * nb * bs + j] = PetscSinReal(0.37 * e + 1.3 * i + 0.7 * j + it) / 3.0 + (i == j ? 2.0 : 0.0);
      if (p->blocked) PetscCall(MatSetValuesBlocked(A, nb, idx, nb, idx, v, mode));
      else {
        for (PetscInt i = 0; i < nb; i++)
          for (PetscInt c = 0; c < bs; c++) pidx[i * bs + c] = idx[i] < 0 ? -1 : idx[i] * bs + c;
        PetscCall(MatSetValues(A, nb * bs, pidx, nb * bs, pidx, v, mode));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A against R: the values (host, after the pull from the layout), the nonzero pattern, and a product (the layout) */
static PetscErrorCode Compare(Mat A, Mat R, PetscReal tol, const char *what)
{
  Mat       B;
  Vec       x, ya, yr;
  PetscReal nd, nr, pd, pr;
  MatInfo   ia, ir;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &ya));
  PetscCall(MatCreateVecs(R, NULL, &yr));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(A, x, ya));
  PetscCall(MatMult(R, x, yr));
  PetscCall(VecNorm(yr, NORM_2, &pr));
  PetscCall(VecAXPY(ya, -1.0, yr));
  PetscCall(VecNorm(ya, NORM_2, &pd));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &ia));
  PetscCall(MatGetInfo(R, MAT_GLOBAL_SUM, &ir));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &nr));
  PetscCall(MatAXPY(B, -1.0, R, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &nd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-44s |A-R|_F/|R|_F = %.3g, product %.3g, nonzeros %g/%g\n", what, (double)(nd / nr), (double)(pd / pr), ia.nz_used, ir.nz_used));
  PetscCheck(nd <= tol * nr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: values differ from AIJ's (%g relative)", what, (double)(nd / nr));
  PetscCheck(pd <= 1e-13 * pr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: product differs from AIJ's (%g relative)", what, (double)(pd / pr));
  PetscCheck(ia.nz_used == ir.nz_used, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: nonzero pattern differs from AIJ's", what);
  PetscCall(MatDestroy(&B));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Problem          p = {.n = 300, .w = 17, .bs = 1, .zero_rank = -1};
  Mat              A, R, C = NULL, CR = NULL, part0[2] = {NULL, NULL};
  MatWarpStageInfo info;
  PetscBool        expect_off = PETSC_FALSE, skip, mpi, product = PETSC_TRUE, ignore_off_proc = PETSC_FALSE, eliminate = PETSC_FALSE, check_paths = PETSC_TRUE;
  PetscObjectState nz0, nz1;
  PetscReal        tol = 0;
  /* the assemblies: sequence, MatZeroEntries, tolerance (0: the exact matrix) */
  const struct {
    Sequence    seq;
    PetscBool   zero, diag;
    PetscReal   tol;
    const char *what;
  } run[] = {
    {SEQ_INSERT,   PETSC_FALSE, PETSC_FALSE, 0,     "1 INSERT_VALUES (plain)"                        },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "2 first ADD assembly (recorded)"                },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "3 same sequence (staged, COO made)"             },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "4 same sequence (staged)"                       },
    {SEQ_SAME,     PETSC_FALSE, PETSC_FALSE, 1e-14, "5 no MatZeroEntries (staged, ADD)"              },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_TRUE,  1e-14, "5b MatZeroEntries, MatDiagonalSet (staged, ADD)"},
    {SEQ_PERMUTED, PETSC_TRUE,  PETSC_FALSE, 0,     "6 permuted element (fallback)"                  },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "7 original sequence (recorded again)"           },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "8 original sequence (staged)"                   },
    {SEQ_FEWER,    PETSC_TRUE,  PETSC_FALSE, 0,     "9 one call fewer (fallback at the end)"         },
    {SEQ_INSERT,   PETSC_FALSE, PETSC_FALSE, 0,     "10 INSERT_VALUES (plain)"                       },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "11 original sequence (recorded, 3rd time)"      },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "12 original sequence (staged)"                  },
    {SEQ_SAME,     PETSC_TRUE,  PETSC_FALSE, 0,     "13 original sequence (staged)"                  },
  };

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &p.n, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-blocked", &p.blocked, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-zero_rank", &p.zero_rank, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &p.rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &p.size));
  if (p.size == 1) p.zero_rank = -1;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_off", &expect_off, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-product", &product, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ignore_off_proc", &ignore_off_proc, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-eliminate_zeros", &eliminate, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_paths", &check_paths, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL)); /* PETSc's own COO (sharednz) sums in the order of an unstable sort */
  if (p.blocked) p.bs = 2;
  p.ne = p.n - p.w - 1;
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, p.n * p.bs, p.n * p.bs));
  PetscCall(MatSetBlockSize(A, p.bs));
  PetscCall(MatSetType(A, MATELLWARP));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 9 * p.bs, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 9 * p.bs, NULL, 9 * p.bs, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, p.n * p.bs, p.n * p.bs, 9 * p.bs, NULL, 9 * p.bs, NULL, &R));
  PetscCall(MatSetBlockSize(R, p.bs));
  if (ignore_off_proc) { /* the first assembly (rank 0 only) leaves other ranks' rows empty: later ones allocate */
    PetscCall(MatSetOption(A, MAT_IGNORE_OFF_PROC_ENTRIES, PETSC_TRUE));
    PetscCall(MatSetOption(R, MAT_IGNORE_OFF_PROC_ENTRIES, PETSC_TRUE));
    PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatSetOption(R, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  }
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  for (size_t r = 0; r < PETSC_STATIC_ARRAY_LENGTH(run); r++) {
    Mat part[2] = {A, NULL};

    PetscCall(MatGetNonzeroState(A, &nz0));
    /* with rows of other ranks dropped, some rows lack their diagonal: MatDiagonalSet() adds it (a new nonzero inside a
       block, which the MPI matrix's nonzero state sees only at its next assembly end): only with -check_paths 0 */
    const PetscBool diag = (PetscBool)(run[r].diag && (!ignore_off_proc || !check_paths));
    PetscCall(Assemble(&p, A, (PetscInt)r, run[r].seq, run[r].zero, diag));
    PetscCall(Assemble(&p, R, (PetscInt)r, run[r].seq, run[r].zero, diag));
    if (eliminate && r == 0) { /* an explicit zero coupling the first and the last row, then removed: the off-diagonal
                                  block keeps the column (garray) while the later assemblies add no new nonzero */
      Mat         M[2] = {A, R};
      PetscInt    i0 = 0, j0 = p.n * p.bs - 1, rs, re;
      PetscScalar z = 0;
      PetscCall(MatGetOwnershipRange(A, &rs, &re));
      for (int k = 0; k < 2; k++) {
        PetscCall(MatSetOption(M[k], MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
        if (rs == 0 && re > 0) PetscCall(MatSetValues(M[k], 1, &i0, 1, &j0, &z, INSERT_VALUES));
        PetscCall(MatAssemblyBegin(M[k], MAT_FINAL_ASSEMBLY));
        PetscCall(MatAssemblyEnd(M[k], MAT_FINAL_ASSEMBLY));
        PetscCall(MatEliminateZeros(M[k], PETSC_TRUE));
      }
    }
    PetscCall(MatGetNonzeroState(A, &nz1));
    PetscCall(Compare(A, R, PetscMax(run[r].tol, tol), run[r].what));
    if (r >= 2 && check_paths) PetscCheck(nz0 == nz1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the nonzero state changed", run[r].what);
    if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &part[0], &part[1], NULL));
    if (r == 1) { /* after the recorded assembly: the storage objects, and a product reused from now on */
      part0[0] = part[0];
      part0[1] = part[1];
      if (product) {
        PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C));
        PetscCall(MatMatMult(R, R, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CR));
      }
    } else if (r > 1) {
      PetscCheck(part[0] == part0[0] && part[1] == part0[1], PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the matrix's storage (blocks) was replaced", run[r].what);
      if (product) {
        PetscReal nd, nr;
        Mat       D;
        PetscCall(MatMatMult(A, A, MAT_REUSE_MATRIX, PETSC_DETERMINE, &C));
        PetscCall(MatMatMult(R, R, MAT_REUSE_MATRIX, PETSC_DETERMINE, &CR));
        PetscCall(MatConvert(C, MATAIJ, MAT_INITIAL_MATRIX, &D));
        PetscCall(MatNorm(CR, NORM_FROBENIUS, &nr));
        PetscCall(MatAXPY(D, -1.0, CR, DIFFERENT_NONZERO_PATTERN));
        PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
        PetscCall(MatDestroy(&D));
        PetscCheck(nd <= 1e-13 * nr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the reused product A*A differs from AIJ's (%g relative)", run[r].what, (double)(nd / nr));
      }
    }
  }
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&CR));
  PetscCall(MatWarpGetStageInfo(A, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s: staging %s; %" PetscInt_FMT " recorded, %" PetscInt_FMT " staged, %" PetscInt_FMT " fell back, %" PetscInt_FMT " plain; recording of %" PetscInt_FMT " calls, %" PetscCount_FMT " values; last reason: %s\n",
                        ((PetscObject)A)->type_name, info.enabled ? "on" : "off", info.nrecorded, info.nstaged, info.nfallback, info.nplain, info.ncalls, info.nvalues, info.reason));
  if (!check_paths) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "paths not checked (-check_paths 0)\n"));
  else if (expect_off) PetscCheck(!info.enabled && info.nplain == (PetscInt)PETSC_STATIC_ARRAY_LENGTH(run) && !info.nstaged, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staging ran although turned off");
  else PetscCheck(info.available && info.nrecorded == 3 && info.nstaged == 7 && info.nfallback == 2 && info.nplain == 2 + (eliminate ? 1 : 0), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected paths");
  { /* a duplicate keeps the setting (MATELLWARP; a MATSHAREDNZ's duplicate is PETSc's type, without staging) */
    Mat              D;
    MatWarpStageInfo di;
    PetscCall(MatWarpSetStage(A, PETSC_FALSE));
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
    PetscCall(MatWarpGetStageInfo(D, &di));
    PetscCheck(!di.available || !di.enabled, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A duplicate of a matrix with staging turned off stages");
    PetscCall(MatDestroy(&D));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscFinalize());
  return 0;
}
