static char help[] = "KSPCGWARP against KSPCG on MATAIJ: the same convergence reason, iteration count, residual history and\n"
                     "solution on random SPD matrices built from testutil.c's pathological cases.\n"
                     "  -cases a,b,...      random,empty,dense_row,one,longrow,nonmult32,powerlaw,indefinite,inf (default: all)\n"
                     "  -mat_types a,b,...  operator types of the KSPCGWARP solve (default aij,ellwarp; e.g. aijcusparse, sharednz)\n"
                     "  -norm_types a,b,... preconditioned,unpreconditioned,natural,none (default: all)\n"
                     "  -pcs a,b,...        jacobi,none,sor (symmetric SOR: applied with PCApply) (default: all)\n"
                     "  -custom_test        a convergence test the device cannot copy: KSPCGWARP may run up to\n"
                     "                      -ksp_cgwarp_check_every - 1 iterations more than KSPCG\n"
                     "  -nonzero_guess      start from a random initial guess\n"
                     "  -host_vecs          host vectors (VECSTANDARD) for the solves on the converted operator\n"
                     "  -chknorm n, -min_it n, -uirnorm   KSPSetCheckNormIteration(), KSPSetMinimumIterations(),\n"
                     "                      KSPConvergedDefaultSetUIRNorm() on both solvers\n"
                     "  -rtol r             relative tolerance (default 1e-10)\n"
                     "  -tol t              largest relative difference of solutions and first residual norms (default 1e-7)\n"
                     "  -its_tol n          KSPCG's iterations on the operator type against AIJ: largest difference (default: 0 for\n"
                     "                      AIJ, else max(2, 5%%): another order of the sums in the product moves counts at near ties;\n"
                     "                      max(3, 10%%) where round-off decides: no preconditioner, overflow)\n"
                     "KSPCGWARP options (-ksp_cgwarp_*) apply to the KSPCGWARP solves. With several MPI ranks: checks that\n"
                     "KSPCGWARP refuses them with a clear error.\n";

#include "testutil.h"

/* A symmetric, strictly diagonally dominant matrix with a positive diagonal from a test case C: (C + C^T)/2 off the
   diagonal, d_i = sum_j |a_ij| + e_i with e_i random in [1e-3, 1e-2] (poorly conditioned: many iterations). The case
   "indefinite" flips the sign of the diagonal of every 50th row, "inf" puts Inf on the diagonal of the last row. */
static PetscErrorCode CreateSPD(const char *cs, PetscRandom r, Mat *A)
{
  Mat       C, Ct;
  Vec       d;
  PetscInt  m, rstart;
  PetscBool indef, inf;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(cs, "indefinite", &indef));
  PetscCall(PetscStrcmp(cs, "inf", &inf));
  PetscCall(TestCreateCase(PETSC_COMM_WORLD, indef || inf ? "random" : cs, r, -1, &C));
  PetscCall(MatTranspose(C, MAT_INITIAL_MATRIX, &Ct));
  PetscCall(MatAXPY(C, 1.0, Ct, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatScale(C, 0.5));
  PetscCall(MatDestroy(&Ct));
  PetscCall(MatCreateVecs(C, &d, NULL));
  PetscCall(MatGetOwnershipRange(C, &rstart, NULL));
  PetscCall(MatGetLocalSize(C, &m, NULL));
  for (PetscInt i = rstart; i < rstart + m; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscReal          s = 0, e;
    PetscCall(MatGetRow(C, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++)
      if (cols[k] != i) s += PetscAbsScalar(vals[k]);
    PetscCall(MatRestoreRow(C, i, &nc, &cols, &vals));
    PetscCall(PetscRandomGetValueReal(r, &e));
    s += 1e-3 + 9e-3 * e;
    if (indef && i % 50 == 49) s = -s;
    if (inf && i == rstart + m - 1) s = PETSC_INFINITY; /* Inf and NaN in the products: KSP_DIVERGED_NANORINF */
    PetscCall(VecSetValue(d, i, s, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(d));
  PetscCall(VecAssemblyEnd(d));
  PetscCall(MatSetOption(C, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatDiagonalSet(C, d, INSERT_VALUES));
  PetscCall(VecDestroy(&d));
  *A = C;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSPConvergedDefault() behind another function pointer: the device cannot copy it */
static PetscErrorCode CustomTest(KSP ksp, PetscInt n, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  return KSPConvergedDefault(ksp, n, rnorm, reason, ctx);
}

/* settings of both solvers (-chknorm, -min_it, -uirnorm) */
static PetscInt  chknorm = -1, min_it = 0;
static PetscBool uirnorm = PETSC_FALSE;

typedef struct {
  KSPConvergedReason reason;
  PetscInt           its;
  const PetscReal   *hist;
  PetscInt           nhist;
} Result;

static PetscErrorCode Solve(KSP ksp, Mat A, KSPType type, KSPNormType nt, const char *pctype, PetscReal rtol, PetscBool custom, Vec b, Vec x0, Vec x, PetscReal *hist, PetscInt maxit, Result *res)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, type));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, pctype));
  if (!strcmp(pctype, PCSOR)) PetscCall(PCSORSetSymmetric(pc, SOR_SYMMETRIC_SWEEP));
  PetscCall(PCSetFromOptions(pc)); /* -pc_jacobi_type, -pc_jacobi_abs, -pc_jacobi_fixdiagonal: the same for both KSPs */
  PetscCall(KSPSetNormType(ksp, nt));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-50, PETSC_CURRENT, nt == KSP_NORM_NONE ? 60 : maxit));
  PetscCall(KSPSetResidualHistory(ksp, hist, maxit + 1, PETSC_TRUE));
  if (custom) {
    void *cctx;
    PetscCall(KSPConvergedDefaultCreate(&cctx));
    PetscCall(KSPSetConvergenceTest(ksp, CustomTest, cctx, KSPConvergedDefaultDestroy));
  }
  if (chknorm >= 0) PetscCall(KSPSetCheckNormIteration(ksp, chknorm));
  if (min_it > 0) PetscCall(KSPSetMinimumIterations(ksp, min_it));
  if (uirnorm && !custom) PetscCall(KSPConvergedDefaultSetUIRNorm(ksp));
  if (!strcmp(type, KSPCGWARP)) PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetType(ksp, type)); /* in case -ksp_type was given */
  PetscCall(KSPSetInitialGuessNonzero(ksp, x0 ? PETSC_TRUE : PETSC_FALSE));
  if (x0) PetscCall(TestCopyValues(x0, x));
  /* KSPCGWARP: work vectors from the operator, before the solution vector is known (it must remake them like x). Not for
     KSPCG: it would keep them, and with -host_vecs run its vector operations on the device (FMA, other sums) while
     KSPCGWARP runs on host vectors, which is not the comparison meant */
  if (!strcmp(type, KSPCGWARP)) PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &res->reason));
  PetscCall(KSPGetIterationNumber(ksp, &res->its));
  PetscCall(KSPGetResidualHistory(ksp, &res->hist, &res->nhist));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max_i |a_i - b_i| / max_i |b_i|, through host arrays */
static PetscErrorCode MaxDiff(Vec va, Vec vb, PetscReal *d)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          nd = 0, nb = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(vb, &n));
  PetscCall(VecGetArrayRead(va, &a));
  PetscCall(VecGetArrayRead(vb, &b));
  for (PetscInt i = 0; i < n; i++) {
    nd = PetscMax(nd, PetscAbsScalar(a[i] - b[i]));
    nb = PetscMax(nb, PetscAbsScalar(b[i]));
  }
  PetscCall(VecRestoreArrayRead(va, &a));
  PetscCall(VecRestoreArrayRead(vb, &b));
  *d = nb > 0 ? nd / nb : nd;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  KSPCG on B (the same operator and vectors: only the order of the sums in the dot products and norms differs) against
  KSPCGWARP on B: the same reason and iteration count, the same residual history for the first iterations (later, round
  off grows differently in both), solutions within tol. KSPCG on A (AIJ) too: the same reason, the iteration count within
  -its_tol (0: the same; a product with another order of sums can move a count at a near tie).
*/
static PetscErrorCode Compare(const char *label, Mat A, Mat B, KSPNormType nt, const char *pctype, PetscReal rtol, PetscReal tol, PetscInt its_tol, PetscBool custom, PetscBool devtest, PetscBool guess, PetscBool hostvecs, PetscRandom r)
{
  KSP        kr, kb, kw;
  Vec        br, xr, bw, xb, xw, x0 = NULL, x0w = NULL;
  Result     rr, rb, rw;
  PetscReal *hr, *hb, *hw, dx = 0, dh = 0;
  PetscInt   maxit = 5000, every = 1, slack = 0;
  PetscBool  zero, rough, inf;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(maxit + 1, &hr, maxit + 1, &hb, maxit + 1, &hw));
  PetscCall(MatCreateVecs(A, &xr, &br));
  if (hostvecs) { /* host vectors with a device operator: KSPCGWARP runs the host twins, the operator copies */
    PetscInt m;
    PetscCall(MatGetLocalSize(B, &m, NULL));
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, m, PETSC_DETERMINE, &xw));
    PetscCall(VecDuplicate(xw, &bw));
  } else PetscCall(MatCreateVecs(B, &xw, &bw));
  PetscCall(VecDuplicate(xw, &xb));
  PetscCall(VecSetRandom(br, r));
  PetscCall(TestCopyValues(br, bw));
  if (guess) {
    PetscCall(VecDuplicate(xr, &x0));
    PetscCall(VecSetRandom(x0, r));
    PetscCall(VecDuplicate(xw, &x0w));
    PetscCall(TestCopyValues(x0, x0w));
  }
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &kr));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &kb));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &kw));
  PetscCall(Solve(kr, A, KSPCG, nt, pctype, rtol, custom, br, x0, xr, hr, maxit, &rr));
  PetscCall(Solve(kb, B, KSPCG, nt, pctype, rtol, custom, bw, x0w, xb, hb, maxit, &rb));
  PetscCall(Solve(kw, B, KSPCGWARP, nt, pctype, rtol, custom, bw, x0w, xw, hw, maxit, &rw));
  PetscCall(MaxDiff(xw, xb, &dx));
  for (PetscInt k = 0; k < PetscMin(PetscMin(rb.nhist, rw.nhist), 8); k++) dh = PetscMax(dh, PetscAbsReal(hw[k] - hb[k]) / PetscMax(hb[0], PETSC_SMALL));
  PetscCall(KSPCGWarpGetCheckEvery(kw, &every));
  if ((custom || !devtest) && every > 1) slack = every - 1; /* a test the device does not copy: up to k-1 iterations more */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-30s %-16s %-6s its aij %4" PetscInt_FMT " cg %4" PetscInt_FMT " cgwarp %4" PetscInt_FMT "  %-26s  x diff %.1e  hist diff %.1e\n", label, KSPNormTypes[nt], pctype, rr.its, rb.its, rw.its, KSPConvergedReasons[rw.reason], (double)dx, (double)dh));
  /* atol is 1e-50: CONVERGED_ATOL is an exactly zero norm or KSPCG's beta = 0 stop, which round-off decides (the 1x1
     case "one": one iteration solves it exactly or to round-off). AIJ runs host arithmetic, a device operator's
     vectors another (FMA, other sums): against AIJ a stop at a zero residual needs only to be a convergence, at any
     count, or KSPCG's own breakdown stop: without a norm (KSP_NORM_NONE) a residual that round-off leaves a hair above
     zero shrinks until p'Ap is exactly 0, which KSPCG reports as DIVERGED_INDEFINITE_MAT (H100 2026-11-23, "one": AIJ 2
     iterations CONVERGED_ATOL, KSPCG and KSPCGWARP on ellwarp 11, both DIVERGED_INDEFINITE_MAT, x diff 0), and the other
     way round (H100 2026-11-27, "one" without a norm, -ksp_cgwarp_fuse 0 on aijcusparse: AIJ DIVERGED_INDEFINITE_MAT,
     KSPCG and KSPCGWARP CONVERGED_ATOL). KSPCG and KSPCGWARP on the same operator and vectors must agree exactly. */
  /* where round-off decides the details (H100 2026-11-23): CG without a preconditioner on the badly conditioned random
     cases, and the overflow case "inf"; elsewhere the strict limits */
  PetscCall(PetscStrcmp(pctype, PCNONE, &rough));
  PetscCall(PetscStrbeginswith(label, "inf", &inf));
  rough = (PetscBool)(rough || inf);
  zero  = (PetscBool)(A != B && (rr.reason == KSP_CONVERGED_ATOL || rb.reason == KSP_CONVERGED_ATOL));
  /* KSPCGWARP must stop for KSPCG's reason on the same operator and vectors; against AIJ only where PETSc's own KSPCG on
     that operator agrees with AIJ (an infinite right-hand side: cuBLAS's norm gives DIVERGED_DTOL where the host's gives
     DIVERGED_NANORINF, H100 2026-11-23) */
  /* an overflow ("inf") is caught as DIVERGED_NANORINF or DIVERGED_DTOL depending on whether a norm came out inf or just
     huge, which the order of the sums decides (H100 2026-11-23: KSPCGWARP DTOL where KSPCG on the same operator said
     NANORINF): either counts as the other */
  if (inf && (rw.reason == KSP_DIVERGED_DTOL || rw.reason == KSP_DIVERGED_NANORINF) && (rb.reason == KSP_DIVERGED_DTOL || rb.reason == KSP_DIVERGED_NANORINF)) rw.reason = rb.reason;
  PetscCheck(rw.reason == rb.reason && (rw.reason == rr.reason || (inf && rb.reason != rr.reason) || (zero && rr.reason > 0 && (rb.reason > 0 || rb.reason == KSP_DIVERGED_INDEFINITE_MAT)) || (zero && rb.reason > 0 && rr.reason == KSP_DIVERGED_INDEFINITE_MAT)), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: KSPCGWARP stopped with %s, KSPCG with %s (on AIJ %s)", label, KSPConvergedReasons[rw.reason], KSPConvergedReasons[rb.reason], KSPConvergedReasons[rr.reason]);
  { /* device vectors: KSPCGWARP's dot products are its own grid reductions, KSPCG's are cuBLAS's (another order of
       sums). Where CG needs hundreds of iterations (no preconditioner on the badly conditioned cases) round-off decides
       the count: up to 5%, at least 2 (H100 2026-11-23: 421 against 424 and 436 against 443 on "empty", 57 against 55 on
       "dense_row", without a preconditioner, where KSPCG itself moved 444 -> 443 and 56 -> 55 between AIJ and
       aijcusparse; earlier 391/392 .. 397/398). The residual
       histories of the first iterations are still compared to tol below. */
    PetscBool devvec;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)xw, &devvec, VECSEQCUDA, VECMPICUDA, ""));
    if (devvec) {
      PetscInt d = rough ? PetscMax(2, rb.its / 20) : PetscMax(1, rb.its / 200);
      PetscCheck(rw.its >= rb.its - d && rw.its <= rb.its + slack + d, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: KSPCGWARP ran %" PetscInt_FMT " iterations, KSPCG %" PetscInt_FMT " (slack %" PetscInt_FMT ", device sums %" PetscInt_FMT ")", label, rw.its, rb.its, slack, d);
      if (rw.its != rb.its) slack = PetscMax(slack, 1); /* the solutions are then compared by convergence only */
    } else PetscCheck(rw.its >= rb.its && rw.its <= rb.its + slack, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: KSPCGWARP ran %" PetscInt_FMT " iterations, KSPCG %" PetscInt_FMT " (slack %" PetscInt_FMT ")", label, rw.its, rb.its, slack);
  }
  /* PETSc's own KSPCG on a device operator against AIJ: 10 against 7 iterations with SOR on the rescaled "inf" case (H100
     2026-11-23); 40 against 43 without a preconditioner on the rescaled "longrow" case (H100 2026-11-26, seed 706564,
     KSPCGWARP 40 like KSPCG on the same operator): where round-off decides (rough), 10%, at least 3 */
  if (its_tol < 0) its_tol = A == B ? 0 : rough ? PetscMax(3, rr.its / 10) : PetscMax(2, rr.its / 20);
  PetscCheck(zero || PetscAbsInt(rb.its - rr.its) <= its_tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: KSPCG ran %" PetscInt_FMT " iterations with this operator, %" PetscInt_FMT " with AIJ", label, rb.its, rr.its);
  /* diverging runs may record their last norm at another point of the iteration that detected it (H100 2026-11-23, "inf"
     rescaled without a preconditioner: KSPCG 3 iterations and 3 norms, KSPCGWARP 2 and 3, both DIVERGED_DTOL) */
  PetscCheck(rb.reason < 0 || rw.nhist == rb.nhist + (rw.its - rb.its), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: residual histories of %" PetscInt_FMT " and %" PetscInt_FMT " entries", label, rw.nhist, rb.nhist);
  /* diverging runs (their norms near overflow on "inf": 3e16 apart relative to the first, H100) stop for the same reason;
     their histories are not compared */
  PetscCheck(dh <= tol || rb.reason < 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: residual histories differ by %g", label, (double)dh);
  if (rb.reason > 0 && !slack) PetscCheck(dx <= tol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: solutions differ by %g", label, (double)dx);
  PetscCall(KSPDestroy(&kr));
  PetscCall(KSPDestroy(&kb));
  PetscCall(KSPDestroy(&kw));
  PetscCall(VecDestroy(&xr));
  PetscCall(VecDestroy(&br));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&xw));
  PetscCall(VecDestroy(&bw));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&x0w));
  PetscCall(PetscFree3(hr, hb, hw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Refusals: several ranks; singular value estimates */
static PetscErrorCode CheckErrors(PetscRandom r)
{
  Mat         A;
  KSP         ksp;
  Vec         x, b;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(CreateSPD("random", r, &A));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetType(ksp, KSPCGWARP));
  PetscCall(KSPSetOperators(ksp, A, A));
  if (size > 1) EXPECT_ERROR(KSPSolve(ksp, b, x), "KSPCGWARP on several MPI ranks");
  else {
    PetscCall(KSPSetComputeSingularValues(ksp, PETSC_TRUE));
    EXPECT_ERROR(KSPSolve(ksp, b, x), "KSPCGWARP with singular value estimates");
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A list option (at most *n entries), or the defaults */
static PetscErrorCode GetList(const char opt[], PetscInt nd, const char *const def[], char *list[], PetscInt *n)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, opt, list, n, &set));
  if (!set) {
    *n = nd;
    for (PetscInt i = 0; i < nd; i++) PetscCall(PetscStrallocpy(def[i], &list[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeList(PetscInt n, char *list[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree(list[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       *cases[16], *types[8], *norms[4], *pcs[4];
  PetscInt    ncases = 16, ntypes = 8, nnorms = 4, npcs = 4;
  PetscBool   skip, custom = PETSC_FALSE, guess = PETSC_FALSE, devtest = PETSC_TRUE, hostvecs = PETSC_FALSE;
  PetscReal   rtol = 1e-10, tol = 1e-7;
  PetscInt    its_tol = -1;
  PetscRandom r;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &r));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(CheckErrors(r));
  if (size > 1) {
    PetscCall(PetscRandomDestroy(&r));
    PetscCall(PetscFinalize());
    return 0;
  }
  {
    const char *dc[] = {"random", "empty", "dense_row", "one", "longrow", "nonmult32", "powerlaw", "indefinite", "inf"};
    const char *dt[] = {MATAIJ, MATELLWARP}, *dn[] = {"PRECONDITIONED", "UNPRECONDITIONED", "NATURAL", "NONE"}, *dp[] = {PCJACOBI, PCNONE, PCSOR};
    PetscCall(GetList("-cases", 9, dc, cases, &ncases));
    PetscCall(GetList("-mat_types", 2, dt, types, &ntypes));
    PetscCall(GetList("-norm_types", 4, dn, norms, &nnorms));
    PetscCall(GetList("-pcs", 3, dp, pcs, &npcs));
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-custom_test", &custom, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nonzero_guess", &guess, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-host_vecs", &hostvecs, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-chknorm", &chknorm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-min_it", &min_it, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-uirnorm", &uirnorm, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-ksp_cgwarp_device_test", &devtest, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-its_tol", &its_tol, NULL));
  for (PetscInt c = 0; c < ncases; c++) {
    Mat A;
    PetscCall(CreateSPD(cases[c], r, &A));
    for (PetscInt t = 0; t < ntypes; t++) {
      Mat       B;
      PetscBool aij;
      PetscCall(PetscStrcmp(types[t], MATAIJ, &aij));
      if (aij) PetscCall(PetscObjectReference((PetscObject)A));
      B = A;
      if (!aij) PetscCall(MatConvert(A, types[t], MAT_INITIAL_MATRIX, &B));
      for (PetscInt rep = 0; rep < 2; rep++) { /* the second time with new values (the same pattern) */
        for (PetscInt nn = 0; nn < nnorms; nn++) {
          KSPNormType nt;
          PetscBool   found;
          PetscCall(PetscEnumFind(KSPNormTypes, norms[nn], (PetscEnum *)&nt, &found));
          PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown norm type %s", norms[nn]);
          for (PetscInt p = 0; p < npcs; p++) {
            char label[96];
            PetscCall(PetscSNPrintf(label, sizeof(label), "%s %s%s", cases[c], types[t], rep ? " (rescaled)" : ""));
            PetscCall(Compare(label, A, B, nt, pcs[p], rtol, tol, its_tol, custom, devtest, guess, hostvecs, r));
          }
        }
        PetscCall(MatScale(A, 3.0));
        if (B != A) PetscCall(MatScale(B, 3.0));
      }
      PetscCall(MatDestroy(&B));
    }
    PetscCall(MatDestroy(&A));
  }
  PetscCall(FreeList(ncases, cases));
  PetscCall(FreeList(ntypes, types));
  PetscCall(FreeList(nnorms, norms));
  PetscCall(FreeList(npcs, pcs));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscFinalize());
  return 0;
}
