static char help[] = "Matrix products with MATSEQAIJELLWARP operands against MATSEQAIJ's: MatMatMult, MatTransposeMatMult,\n"
                     "MatMatTransposeMult, MatPtAP, MatRARt, MatProductCreate(), mixed ellwarp/aij operands, new values\n"
                     "(MAT_REUSE_MATRIX, also with another first operand), values assembled into the layout (MatSetValuesCOO), and PCMG with a Galerkin coarse\n"
                     "operator (same iterations and solution as with AIJ operators).\n"
                     "  -n <n>               the 2D grid of the 5-point Laplacian (n x n unknowns, default 24)\n"
                     "  -expect_type <type>  the type the products of two ellwarp matrices must have (seqaijellwarp: SeqAIJ's host\n"
                     "                       products; seqaij: the host twin; seqaijcusparse: the device twin)\n"
                     "  -its_tol <k>         iteration counts of PCMG may differ from AIJ's by k (default 0)\n"
                     "  -expect_guard        the products ran on the device by the automatic rule (-mat_ellwarp_product_device unset):\n"
                     "                       MatMult() with host vectors must then be refused\n"
                     "  -shell_dm_vec_type <type>  attach a DMSHELL with this vector type to the Laplacians (MatSetDM()), as\n"
                     "                       DMCreateMatrix() attaches its DM: the automatic rule reads the vectors' type there\n";

#include "testutil.h"
#include <petscksp.h>
#include <petscdmshell.h>

static PetscReal tol = 1e-13;

/* 5-point Laplacian on an n x n grid with a shift on the first row (SPD) */
static PetscErrorCode Laplacian(PetscInt n, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n * n, n * n, 5, NULL, A));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscInt    row = i * n + j, cols[5], k = 0;
      PetscScalar v[5];
      cols[k] = row;
      v[k++]  = 4.0 + (i == 0 ? 1.0 : 0.0) + 0.01 * (PetscReal)j;
      if (i > 0) cols[k] = row - n, v[k++] = -1.0;
      if (i < n - 1) cols[k] = row + n, v[k++] = -1.0;
      if (j > 0) cols[k] = row - 1, v[k++] = -1.0;
      if (j < n - 1) cols[k] = row + 1, v[k++] = -1.0;
      PetscCall(MatSetValues(*A, 1, &row, k, cols, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Aggregation of 2 x 2 blocks of grid points, weights varying by point (n even) */
static PetscErrorCode Prolongation(PetscInt n, Mat *P)
{
  PetscInt nc = n / 2;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n * n, nc * nc, 1, NULL, P));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscInt    row = i * n + j, col = (i / 2) * nc + j / 2;
      PetscScalar v = 1.0 + 0.1 * (PetscReal)((i + 2 * j) % 3);
      PetscCall(MatSetValues(*P, 1, &row, 1, &col, &v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*P, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  PROD_AB,
  PROD_ATB,
  PROD_ABT,
  PROD_PTAP,
  PROD_RART,
  PROD_API_PTAP
} Prod;
static const char *ProdNames[] = {"MatMatMult", "MatTransposeMatMult", "MatMatTransposeMult", "MatPtAP", "MatRARt", "MatProductCreate PtAP"};

/* C = the product p of X and Y (MAT_INITIAL_MATRIX when *C is NULL, else MAT_REUSE_MATRIX) */
static PetscErrorCode Product(Prod p, Mat X, Mat Y, Mat *C)
{
  MatReuse reuse = *C ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX;

  PetscFunctionBegin;
  switch (p) {
  case PROD_AB:
    PetscCall(MatMatMult(X, Y, reuse, PETSC_DETERMINE, C));
    break;
  case PROD_ATB:
    PetscCall(MatTransposeMatMult(X, Y, reuse, PETSC_DETERMINE, C));
    break;
  case PROD_ABT:
    PetscCall(MatMatTransposeMult(X, Y, reuse, PETSC_DETERMINE, C));
    break;
  case PROD_PTAP:
    PetscCall(MatPtAP(X, Y, reuse, PETSC_DETERMINE, C));
    break;
  case PROD_RART:
    PetscCall(MatRARt(X, Y, reuse, PETSC_DETERMINE, C));
    break;
  case PROD_API_PTAP:
    if (reuse == MAT_INITIAL_MATRIX) {
      PetscCall(MatProductCreate(X, Y, NULL, C));
      PetscCall(MatProductSetType(*C, MATPRODUCT_PtAP));
      PetscCall(MatProductSetFromOptions(*C));
      PetscCall(MatProductSymbolic(*C));
    }
    PetscCall(MatProductNumeric(*C));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operands of product p: the Laplacian, and P, P^T (AtB: P^T A; ABt: A R^T; RARt: R A R^T) */
static void Operands(Prod p, Mat A, Mat P, Mat R, Mat *X, Mat *Y)
{
  *X = p == PROD_ATB ? P : A;
  *Y = (p == PROD_ABT || p == PROD_RART) ? R : (p == PROD_ATB ? A : P);
}

/* Every product with ellwarp operands (e*) against AIJ (a*), into C[] (created or reused); the results' types checked
   against expect (products of ellwarp operands only) */
static PetscErrorCode AllProducts(const char *what, Mat eA, Mat eP, Mat eR, Mat aA, Mat aP, Mat aR, Mat C[], const char expect[])
{
  PetscFunctionBegin;
  for (Prod p = PROD_AB; p <= PROD_API_PTAP; p++) {
    Mat       X, Y, aX, aY, ref = NULL;
    PetscReal err;
    PetscBool same = PETSC_TRUE;

    Operands(p, eA, eP, eR, &X, &Y);
    Operands(p, aA, aP, aR, &aX, &aY);
    PetscCall(Product(p, X, Y, &C[p]));
    PetscCall(Product(p, aX, aY, &ref));
    PetscCall(TestEntryDifference(C[p], ref, &err));
    if (expect[0]) PetscCall(PetscObjectTypeCompare((PetscObject)C[p], expect, &same));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-10s %-22s %-15s rel. err %.2e\n", what, ProdNames[p], ((PetscObject)C[p])->type_name, (double)err));
    PetscCheck(err < tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: relative error %g", what, ProdNames[p], (double)err);
    PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s %s: result of type %s, expected %s", what, ProdNames[p], ((PetscObject)C[p])->type_name, expect);
    PetscCall(MatDestroy(&ref));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One operand ellwarp, the other AIJ (either way round): the products agree with AIJ's */
static PetscErrorCode Mixed(Mat eA, Mat eP, Mat aA, Mat aP)
{
  Mat       C[3] = {NULL, NULL, NULL}, ref[3] = {NULL, NULL, NULL};
  PetscReal err;

  PetscFunctionBegin;
  PetscCall(MatMatMult(eA, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C[0]));
  PetscCall(MatMatMult(aA, eP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C[1]));
  PetscCall(MatPtAP(eA, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C[2]));
  PetscCall(MatMatMult(aA, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &ref[0]));
  PetscCall(MatMatMult(aA, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &ref[1]));
  PetscCall(MatPtAP(aA, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &ref[2]));
  for (int i = 0; i < 3; i++) {
    const char *names[] = {"ellwarp * aij", "aij * ellwarp", "PtAP(ellwarp, aij)"};
    PetscCall(TestEntryDifference(C[i], ref[i], &err));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  mixed      %-22s %-15s rel. err %.2e\n", names[i], ((PetscObject)C[i])->type_name, (double)err));
    PetscCheck(err < tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: relative error %g", names[i], (double)err);
    PetscCall(MatDestroy(&C[i]));
    PetscCall(MatDestroy(&ref[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MAT_REUSE_MATRIX with another first operand of the same pattern (MatProductReplaceMats()): C = 3 A P */
static PetscErrorCode Replaced(Mat eA, Mat eP, Mat aA, Mat aP, Mat C)
{
  Mat       eA3, aA3, ref;
  PetscReal err;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(eA, MAT_COPY_VALUES, &eA3));
  PetscCall(MatDuplicate(aA, MAT_COPY_VALUES, &aA3));
  PetscCall(MatScale(eA3, 3.0));
  PetscCall(MatScale(aA3, 3.0));
  PetscCall(MatMatMult(eA3, eP, MAT_REUSE_MATRIX, PETSC_DETERMINE, &C));
  PetscCall(MatMatMult(aA3, aP, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &ref));
  PetscCall(TestEntryDifference(C, ref, &err));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  replaced   %-22s %-15s rel. err %.2e\n", "MatMatMult(3 A, P)", ((PetscObject)C)->type_name, (double)err));
  PetscCheck(err < tol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatMatMult with a replaced A: relative error %g", (double)err);
  PetscCall(MatDestroy(&ref));
  PetscCall(MatDestroy(&eA3));
  PetscCall(MatDestroy(&aA3));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A copy of the AIJ matrix aA of type ellwarp whose values were assembled into the layout (MatSetValuesCOO) */
static PetscErrorCode EllWarpByCOO(Mat aA, Mat *A)
{
  const PetscInt    *ai, *aj;
  const PetscScalar *av;
  PetscInt           m, nnz, *ci, *cj;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(MatGetSize(aA, &m, NULL));
  PetscCall(MatGetRowIJ(aA, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  nnz = ai[m];
  PetscCall(PetscMalloc2(nnz, &ci, nnz, &cj));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) ci[k] = i, cj[k] = aj[k];
  PetscCall(MatRestoreRowIJ(aA, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatGetSize(aA, &m, NULL)); /* MatRestoreRowIJ() zeroes it */
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, m, m, m, m));
  PetscCall(MatSetType(*A, MATELLWARP));
  PetscCall(MatSetPreallocationCOO(*A, nnz, ci, cj));
  PetscCall(PetscFree2(ci, cj));
  PetscCall(MatSeqAIJGetArrayRead(aA, &av));
  PetscCall(MatSetValuesCOO(*A, av, INSERT_VALUES));
  PetscCall(MatSeqAIJRestoreArrayRead(aA, &av));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG + PCMG, two levels, the coarse operator by Galerkin (MatPtAP) from the interpolation P */
static PetscErrorCode SolveMG(Mat A, Mat P, Vec b, Vec x, PetscInt *its)
{
  KSP ksp;
  PC  pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 500));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCMG));
  PetscCall(PCMGSetLevels(pc, 2, NULL));
  PetscCall(PCMGSetInterpolation(pc, 1, P));
  PetscCall(PCMGSetGalerkin(pc, PC_MG_GALERKIN_BOTH));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, its));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       aA, aP, aR, eA, eP, eR, cA, C[PROD_API_PTAP + 1] = {NULL}, Cc[PROD_API_PTAP + 1] = {NULL};
  Vec       b, be, xa, xe;
  PetscInt  n = 24, its[2], itstol = 0;
  PetscReal err;
  PetscBool skip, guard = PETSC_FALSE;
  char      expect[64] = "", dmvec[64] = "";
  DM        shell = NULL;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tol", &itstol, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_type", expect, sizeof(expect), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_guard", &guard, NULL));
  PetscCheck(n > 1 && n % 2 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-n must be even");
  PetscCall(Laplacian(n, &aA));
  PetscCall(Prolongation(n, &aP));
  PetscCall(MatTranspose(aP, MAT_INITIAL_MATRIX, &aR));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-shell_dm_vec_type", dmvec, sizeof(dmvec), NULL));
  if (dmvec[0]) {
    PetscCall(DMShellCreate(PETSC_COMM_SELF, &shell));
    PetscCall(DMSetVecType(shell, dmvec));
  }
  PetscCall(MatConvert(aA, MATELLWARP, MAT_INITIAL_MATRIX, &eA));
  if (shell) PetscCall(MatSetDM(eA, shell));
  PetscCall(MatConvert(aP, MATELLWARP, MAT_INITIAL_MATRIX, &eP));
  PetscCall(MatConvert(aR, MATELLWARP, MAT_INITIAL_MATRIX, &eR));

  /* first products; A's layout built (a product of it) before, P's not */
  PetscCall(MatCreateVecs(aA, &xa, &b));
  PetscCall(VecSet(xa, 1.0));
  PetscCall(MatMult(eA, xa, b));
  PetscCall(AllProducts("initial", eA, eP, eR, aA, aP, aR, C, expect));
  /* new values on the host (same patterns): the numeric phase with MAT_REUSE_MATRIX sees them */
  PetscCall(MatShift(eA, 1.5));
  PetscCall(MatShift(aA, 1.5));
  PetscCall(MatScale(eP, 0.5));
  PetscCall(MatScale(aP, 0.5));
  PetscCall(MatScale(eR, 0.5));
  PetscCall(MatScale(aR, 0.5));
  PetscCall(AllProducts("new values", eA, eP, eR, aA, aP, aR, C, expect));
  PetscCall(AllProducts("again", eA, eP, eR, aA, aP, aR, C, expect)); /* nothing changed */
  PetscCall(Mixed(eA, eP, aA, aP));
  PetscCall(Replaced(eA, eP, aA, aP, C[PROD_AB]));

  /* values assembled into the layout (MatSetValuesCOO): current there only; the twin gathers them from the layout */
  PetscCall(EllWarpByCOO(aA, &cA));
  if (shell) PetscCall(MatSetDM(cA, shell));
  PetscCall(AllProducts("COO values", cA, eP, eR, aA, aP, aR, Cc, expect));
  PetscCall(MatScale(aA, 2.0)); /* and again, new values into the layout, the products reused */
  {
    const PetscScalar *av;
    PetscCall(MatSeqAIJGetArrayRead(aA, &av));
    PetscCall(MatSetValuesCOO(cA, av, INSERT_VALUES));
    PetscCall(MatSeqAIJRestoreArrayRead(aA, &av));
  }
  PetscCall(AllProducts("COO again", cA, eP, eR, aA, aP, aR, Cc, expect));
  PetscCall(MatViewFromOptions(cA, NULL, "-view_coo"));
  PetscCall(MatViewFromOptions(eA, NULL, "-view_a"));

  /* PCMG with the Galerkin coarse operator: the same iterations and solution; the ellwarp solve on the vectors of its
     matrix (device vectors with the CUDA backend, which the device products' aijcusparse results need) */
  PetscCall(MatCreateVecs(cA, &xe, &be));
  PetscCall(VecCopy(b, be));
  PetscCall(SolveMG(aA, aP, b, xa, &its[0]));
  PetscCall(SolveMG(cA, eP, be, xe, &its[1]));
  PetscCall(VecRelativeDifference(xe, xa, &err));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  PCMG Galerkin: aij %" PetscInt_FMT " iterations, ellwarp %" PetscInt_FMT " iterations, solutions differ by %.2e\n", its[0], its[1], (double)err));
  PetscCheck(PetscAbsInt(its[0] - its[1]) <= itstol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PCMG: iteration counts differ");
  PetscCheck(err < 1e-8, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PCMG: solutions differ by %g", (double)err);
  if (guard) EXPECT_CODE(MatMult(cA, xa, b), PETSC_ERR_ARG_WRONG, "MatMult() with host vectors after automatic device products");

  for (Prod p = PROD_AB; p <= PROD_API_PTAP; p++) {
    PetscCall(MatDestroy(&C[p]));
    PetscCall(MatDestroy(&Cc[p]));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&be));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&xe));
  PetscCall(MatDestroy(&cA));
  PetscCall(MatDestroy(&eA));
  PetscCall(MatDestroy(&eP));
  PetscCall(MatDestroy(&eR));
  PetscCall(MatDestroy(&aA));
  PetscCall(MatDestroy(&aP));
  PetscCall(MatDestroy(&aR));
  PetscCall(DMDestroy(&shell));
  PetscCall(PetscFinalize());
  return 0;
}
