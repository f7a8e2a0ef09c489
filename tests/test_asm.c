static char help[] = "Finite-element assembly by PetscWarpAsm against PETSc's own (DMPlexSNESComputeJacobianFEM into MATAIJ):\n"
                     "every strategy into every target type (also matrices without preallocation: the elements' pattern),\n"
                     "reproducibility, plan reuse and rebuild, the AIJ operations that read values after a device assembly,\n"
                     "load vectors, and bad input.\n"
                     "  -strategies sharednz,globalnz,color,atomic,coo,rownz  strategies to check (default all)\n"
                     "  -types aij,ellwarp,sharednz                     target types (default all)\n"
                     "  -physics laplace|elasticity  -reassemble n      assemblies per plan (default 3)\n"
                     "  -expect_sharednz_runs <sharednz|globalnz>  check which strategy the sharednz plans run\n"
                     "  -expect_rownz_runs <rownz|atomic>          check which strategy the rownz plans run (default, unless\n"
                     "                                              -mat_warp_rownz_min_lanes > 0: rownz where the affine path\n"
                     "                                              served every cell, else atomic)\n"
                     "  -affine 1,0                                 the affine fast path on and/or off for every strategy and type\n"
                     "                                              (default both: each compared with PETSc's AIJ)\n"
                     "  -perturb amp -perturb_xmax x                move the vertices with x_0 < x (default: all) by at most amp:\n"
                     "                                              quadrilaterals and hexahedra touching them are not affine\n"
                     "  -expect_affine <all|mixed|none>             check the cells the affine path computed (mixed: atomic and\n"
                     "                                              color some but not all, the other strategies none)\n"
                     "  -coef <constant|cell|tensor> -shift s       Laplace: a conductivity per cell (scalar or symmetric tensor,\n"
                     "                                              smooth in the cell's centroid) and a mass shift; PETSc's\n"
                     "                                              reference reads them from a P0 auxiliary field (g3) and g0\n";

#include "testutil.h"
#include <petscds.h>
#include <petscdmplex.h>

/* PETSc's reference of the coefficient options: constants[0] = shift, constants[1] = coefficient kind
   (PetscWarpCoefficient); the per-cell values in the P0 auxiliary field 0 */
static void g0_shift(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[])
{
  const PetscInt nc = uOff[1] - uOff[0];
  for (PetscInt c = 0; c < nc; c++) g0[c * nc + c] = constants[0];
}

static void g3_coef(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  const PetscInt coef = (PetscInt)PetscRealPart(constants[1]);
  for (PetscInt d = 0; d < dim; ++d)
    for (PetscInt e = 0; e < dim; ++e) g3[d * dim + e] = coef == PETSCWARP_COEF_TENSOR ? a[aOff[0] + d * dim + e] : d == e ? (coef == PETSCWARP_COEF_CELL ? a[aOff[0]] : 1.0) : 0.0;
}

/* A coefficient per cell from its centroid x: the scalar 1.5 + x_0 + 0.5 x_1, or a symmetric positive definite tensor */
static void CellCoefficient(PetscWarpCoefficient coef, PetscInt dim, const PetscReal x[], PetscReal *k)
{
  if (coef == PETSCWARP_COEF_CELL) k[0] = 1.5 + x[0] + 0.5 * x[1];
  else
    for (PetscInt d = 0; d < dim; d++)
      for (PetscInt e = d; e < dim; e++) k[d * dim + e] = k[e * dim + d] = d == e ? 2.0 + x[d] + 0.25 * d : 0.2 + 0.1 * (d + e) * x[0] - 0.05 * x[1];
}

/* -coef, -shift: the coefficients of the Laplacian (and the shift of either physics) in PETSc's problem (a P0
   auxiliary field and g0) and in wa; *auxdm and *aux to destroy */
static PetscErrorCode SetCoefficients(DM dm, PlexPhysics phys, PetscWarpCoefficient coef, PetscReal shift, DM *auxdm, Vec *aux, PetscReal **kcell)
{
  PetscDS          ds;
  PetscPointJacFn *g0, *g1, *g2, *g3;
  PetscScalar      constants[2];
  PetscInt         dim, cStart, cEnd, nk;

  PetscFunctionBegin;
  *auxdm = NULL;
  *aux   = NULL;
  *kcell = NULL;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetJacobian(ds, 0, 0, &g0, &g1, &g2, &g3));
  constants[0] = shift;
  constants[1] = (PetscReal)coef;
  PetscCall(PetscDSSetConstants(ds, 2, constants));
  PetscCall(PetscDSSetJacobian(ds, 0, 0, shift != 0.0 ? g0_shift : NULL, g1, g2, phys == PLEX_PHYSICS_LAPLACE && coef != PETSCWARP_COEF_CONSTANT ? g3_coef : g3));
  if (phys != PLEX_PHYSICS_LAPLACE || coef == PETSCWARP_COEF_CONSTANT) PetscFunctionReturn(PETSC_SUCCESS);
  nk = coef == PETSCWARP_COEF_CELL ? 1 : dim * dim;
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCall(PetscMalloc1((cEnd - cStart) * nk, kcell));
  {
    PetscFE        fe, feu;
    PetscSection   sec;
    PetscScalar   *a;
    DMPolytopeType ct;

    PetscCall(DMGetField(dm, 0, NULL, (PetscObject *)&feu));
    PetscCall(DMPlexGetCellType(dm, cStart, &ct));
    PetscCall(DMClone(dm, auxdm));
    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, nk, DMPolytopeTypeGetNumVertices(ct) == (PetscInt)dim + 1 ? PETSC_TRUE : PETSC_FALSE, 0, PETSC_DETERMINE, &fe));
    PetscCall(PetscFECopyQuadrature(feu, fe));
    PetscCall(PetscObjectSetName((PetscObject)fe, "k"));
    PetscCall(DMSetField(*auxdm, 0, NULL, (PetscObject)fe));
    PetscCall(PetscFEDestroy(&fe));
    PetscCall(DMCreateDS(*auxdm));
    PetscCall(DMCreateLocalVector(*auxdm, aux));
    PetscCall(DMGetLocalSection(*auxdm, &sec));
    PetscCall(VecGetArray(*aux, &a));
    for (PetscInt c = cStart; c < cEnd; c++) {
      PetscReal x[3], vol, *k = *kcell + (c - cStart) * nk;
      PetscInt  off;
      PetscCall(DMPlexComputeCellGeometryFVM(dm, c, &vol, x, NULL));
      CellCoefficient(coef, dim, x, k);
      PetscCall(PetscSectionGetOffset(sec, c, &off));
      for (PetscInt m = 0; m < nk; m++) a[off + m] = k[m];
    }
    PetscCall(VecRestoreArray(*aux, &a));
    PetscCall(DMSetAuxiliaryVec(dm, NULL, 0, 0, *aux));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The AIJ operations that read values, on A (assembled on the device) against B (PETSc's AIJ): each must agree */
static PetscErrorCode CheckReads(Mat A, Mat B, PetscRandom rnd, const char *what)
{
  Vec                x, ya, yb, da, db;
  PetscReal          e, na, nb;
  PetscInt           ncols, row, nb_cols;
  const PetscInt    *cols, *bcols;
  const PetscScalar *vals, *bvals;
  Mat                C, D;
  PetscScalar        va, vb;

  PetscFunctionBegin;
  /* MatMult (the format's own product) */
  PetscCall(MatCreateVecs(B, &x, &yb));
  PetscCall(MatCreateVecs(A, NULL, &ya));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(MatMult(B, x, yb));
  {
    Vec xa;
    PetscCall(MatCreateVecs(A, &xa, NULL));
    PetscCall(VecCopy(x, xa));
    PetscCall(MatMult(A, xa, ya));
    PetscCall(VecDestroy(&xa));
  }
  PetscCall(VecRelativeDifference(ya, yb, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatMult rel. err %g", what, (double)e);
  /* MatGetDiagonal */
  PetscCall(VecDuplicate(ya, &da));
  PetscCall(VecDuplicate(yb, &db));
  PetscCall(MatGetDiagonal(A, da));
  PetscCall(MatGetDiagonal(B, db));
  PetscCall(VecRelativeDifference(da, db, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatGetDiagonal rel. err %g", what, (double)e);
  /* MatNorm (host read through the AIJ accessors) */
  PetscCall(MatNorm(A, NORM_FROBENIUS, &na));
  PetscCall(MatNorm(B, NORM_FROBENIUS, &nb));
  PetscCheck(PetscAbsReal(na - nb) <= 1e-12 * nb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatNorm %g vs %g", what, (double)na, (double)nb);
  /* MatGetRow of a middle row, entry by entry */
  PetscCall(MatGetLocalSize(A, &row, NULL));
  row /= 2;
  PetscCall(MatGetRow(A, row, &ncols, &cols, &vals));
  PetscCall(MatGetRow(B, row, &nb_cols, &bcols, &bvals));
  for (PetscInt k = 0, l = 0; k < ncols; k++) {
    while (l < nb_cols && bcols[l] < cols[k]) l++;
    vb = (l < nb_cols && bcols[l] == cols[k]) ? bvals[l] : 0.0;
    PetscCheck(PetscAbsScalar(vals[k] - vb) <= 1e-12 * nb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatGetRow(%" PetscInt_FMT ") column %" PetscInt_FMT ": %g vs %g", what, row, cols[k], (double)PetscRealPart(vals[k]), (double)PetscRealPart(vb));
  }
  PetscCall(MatRestoreRow(B, row, &nb_cols, &bcols, &bvals));
  PetscCall(MatRestoreRow(A, row, &ncols, &cols, &vals));
  /* MatGetValues of the diagonal entry */
  PetscCall(MatGetValues(A, 1, &row, 1, &row, &va));
  PetscCall(MatGetValues(B, 1, &row, 1, &row, &vb));
  PetscCheck(PetscAbsScalar(va - vb) <= 1e-12 * PetscAbsScalar(vb), PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatGetValues %g vs %g", what, (double)PetscRealPart(va), (double)PetscRealPart(vb));
  /* MatDuplicate with values, MatConvert to AIJ (TestEntryDifference), MatCopy, MatTranspose */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &C));
  PetscCall(TestEntryDifference(C, B, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatDuplicate rel. err %g", what, (double)e);
  PetscCall(MatDestroy(&C));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatTranspose(B, MAT_INITIAL_MATRIX, &D));
  PetscCall(TestEntryDifference(C, D, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatTranspose rel. err %g", what, (double)e);
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));
  /* MatMatMult (host product of the values) */
  PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C));
  PetscCall(MatMatMult(B, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &D));
  PetscCall(TestEntryDifference(C, D, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatMatMult rel. err %g", what, (double)e);
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));
  /* a host write after a device assembly: MatScale and a product again */
  PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &D));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatScale(D, 2.0));
  PetscCall(TestEntryDifference(A, D, &e));
  PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: MatScale rel. err %g", what, (double)e);
  PetscCall(MatDestroy(&D));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&yb));
  PetscCall(VecDestroy(&da));
  PetscCall(VecDestroy(&db));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Values of two assemblies are bitwise equal */
static PetscErrorCode Bitwise(Mat A, Mat B, PetscBool *same)
{
  Mat       C;
  PetscReal n;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatAXPY(C, -1.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(C, NORM_MAX, &n));
  *same = (PetscBool)(n == 0.0);
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rownz assembly of the unit square as one Q1 cell (one quadrature point at the centre: affine, so that the plan
   is built) with the element map e2d into A (nrows x ncols); the error the plan gives, its message starting with msg */
static PetscErrorCode RowNZError(PetscInt nrows, PetscInt ncols, const PetscInt e2d[], Mat A, PetscErrorCode expect, const char msg[], const char what[])
{
  PetscWarpAsm    b;
  PetscErrorCode  ierr;
  const char     *text;
  const char     *specific = NULL;
  PetscBool       match;
  const PetscReal X[8] = {0, 0, 1, 0, 1, 1, 0, 1}, w[1] = {4}, B[4] = {0.25, 0.25, 0.25, 0.25};
  const PetscReal Dc[8] = {-0.25, -0.25, 0.25, -0.25, 0.25, 0.25, -0.25, 0.25}; /* Q1 on [-1,1]^2 at the centre */
  const PetscInt  cv[4] = {0, 1, 2, 3};

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmCreate(PETSC_COMM_SELF, &b));
  PetscCall(PetscWarpAsmSetElements(b, 1, 4, nrows, ncols, e2d));
  PetscCall(PetscWarpAsmSetMesh(b, 2, 4, X, 4, cv));
  PetscCall(PetscWarpAsmSetReference(b, 4, 1, 1, w, B, Dc, Dc));
  PetscCall(PetscWarpAsmSetLaplace(b, PETSCWARP_COEF_CONSTANT, 1.0, NULL));
  PetscCall(PetscWarpAsmSetStrategy(b, PETSCWARP_ASM_ROWNZ));
  PetscCall(PetscWarpAsmSetAffine(b, PETSC_TRUE));
  ierr = PetscWarpAsmAssembleMatrix(b, A);
  PetscCall(PetscErrorMessage(ierr, &text, &specific));
  PetscCall(PetscStrbeginswith(specific, msg, &match));
  PetscCheck(ierr == expect && match, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rownz plan, %s: expected error %d \"%s...\", got %d \"%s\"", what, (int)expect, msg, (int)ierr, specific ? specific : "");
  PetscCall(PetscWarpAsmDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The rownz plan's checks of its input (warpasmrownz.c), reached through the public interface: an element map index
   beyond the matrix's columns (a rectangular map: PetscWarpAsmSetElements() checks the rows only) and an element
   entry outside the matrix's pattern; -malloc_dump shows that the failed plans leak nothing */
static PetscErrorCode RowNZErrors(void)
{
  Mat            A;
  const PetscInt e2d[4] = {0, 1, 2, 3};

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 4, 3, 3, NULL, &A));
  for (PetscInt i = 0; i < 4; i++)
    for (PetscInt j = 0; j < 3; j++) PetscCall(MatSetValue(A, i, j, 0.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(RowNZError(4, 3, e2d, A, PETSC_ERR_ARG_OUTOFRANGE, "Element map index 3 out of range", "index beyond the columns"));
  PetscCall(MatDestroy(&A));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 4, 4, 1, NULL, &A)); /* the diagonal only */
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatSetValue(A, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(RowNZError(4, 4, e2d, A, PETSC_ERR_ARG_INCOMP, "Element entry (", "entry outside the pattern"));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckErrors(PetscWarpAsm wa)
{
  Mat              D;
  PetscErrorCode   ierr;
  PetscInt         bad[4] = {0, 1, 2, 1 << 30}, ok[4] = {0, 1, 2, 1};
  PetscWarpAsmInfo info;
  PetscReal        w[1] = {1}, B[80], Dr[160];

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(PetscWarpAsmSetStrategy(wa, PETSCWARP_ASM_GLOBALNZ)); /* COO would take any pattern */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  /* a dense matrix */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, info.nrows, info.nrows, NULL, &D));
  PetscCall(MatAssemblyBegin(D, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(D, MAT_FINAL_ASSEMBLY));
  ierr = PetscWarpAsmAssembleMatrix(wa, D);
  PetscCheck(ierr == PETSC_ERR_SUP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dense target: expected PETSC_ERR_SUP, got %d", (int)ierr);
  PetscCall(MatDestroy(&D));
  /* wrong sizes */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, info.nrows + 1, info.nrows + 1, 1, NULL, &D));
  PetscCall(MatAssemblyBegin(D, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(D, MAT_FINAL_ASSEMBLY));
  ierr = PetscWarpAsmAssembleMatrix(wa, D);
  PetscCheck(ierr == PETSC_ERR_ARG_SIZ, PETSC_COMM_SELF, PETSC_ERR_PLIB, "wrong sizes: expected PETSC_ERR_ARG_SIZ, got %d", (int)ierr);
  PetscCall(MatDestroy(&D));
  /* a matrix without the elements' couplings (a plan for another matrix); a one-row problem has none to miss */
  if (info.nrows > 1) {
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, info.nrows, info.nrows, 1, NULL, &D));
    for (PetscInt i = 0; i < info.nrows; i++) PetscCall(MatSetValue(D, i, i, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(D, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(D, MAT_FINAL_ASSEMBLY));
    ierr = PetscWarpAsmAssembleMatrix(wa, D);
    PetscCheck(ierr == PETSC_ERR_ARG_INCOMP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "missing couplings: expected PETSC_ERR_ARG_INCOMP, got %d", (int)ierr);
    PetscCall(MatDestroy(&D));
  }
  /* a matrix that is not assembled: values set with MatSetValues() (in MatSetUp()'s hash table), or not preallocated */
  if (info.nrows > 0) {
    PetscCall(MatCreate(PETSC_COMM_SELF, &D));
    PetscCall(MatSetSizes(D, info.nrows, info.nrows, info.nrows, info.nrows));
    PetscCall(MatSetType(D, MATSEQAIJ));
    ierr = PetscWarpAsmAssembleMatrix(wa, D);
    PetscCheck(ierr == PETSC_ERR_ARG_WRONGSTATE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "not preallocated: expected PETSC_ERR_ARG_WRONGSTATE, got %d", (int)ierr);
    PetscCall(MatSetUp(D));
    PetscCall(MatSetValue(D, 0, 0, 1.0, INSERT_VALUES));
    ierr = PetscWarpAsmAssembleMatrix(wa, D);
    PetscCheck(ierr == PETSC_ERR_ARG_WRONGSTATE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "values set, not assembled: expected PETSC_ERR_ARG_WRONGSTATE, got %d", (int)ierr);
    PetscCall(MatDestroy(&D));
  }
  /* an element map with an index out of range */
  {
    PetscWarpAsm b;
    PetscCall(PetscWarpAsmCreate(PETSC_COMM_SELF, &b));
    ierr = PetscWarpAsmSetElements(b, 1, 4, 3, 3, bad);
    PetscCheck(ierr == PETSC_ERR_ARG_OUTOFRANGE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "index out of range: expected PETSC_ERR_ARG_OUTOFRANGE, got %d", (int)ierr);
    /* an element beyond the compiled limits, and one whose dofs do not match */
    PetscCall(PetscArrayzero(B, 80));
    PetscCall(PetscArrayzero(Dr, 160));
    {
      PetscReal X[8]  = {0, 0, 1, 0, 1, 1, 0, 1};
      PetscInt  cv[4] = {0, 1, 2, 3};
      PetscCall(PetscWarpAsmSetElements(b, 1, 4, 3, 3, ok));
      PetscCall(PetscWarpAsmSetMesh(b, 2, 4, X, 4, cv));
    }
    ierr = PetscWarpAsmSetReference(b, 3, 1, 1, w, B, Dr, Dr);
    PetscCheck(ierr == PETSC_ERR_ARG_INCOMP, PETSC_COMM_SELF, PETSC_ERR_PLIB, "dof count mismatch: expected PETSC_ERR_ARG_INCOMP, got %d", (int)ierr);
    { /* a conductivity tensor that is not symmetric (the kernels compute symmetric element matrices) */
      PetscReal K[4] = {2, 0.5, 0.25, 2};
      ierr           = PetscWarpAsmSetLaplace(b, PETSCWARP_COEF_TENSOR, 0, K);
      PetscCheck(ierr == PETSC_ERR_ARG_WRONG, PETSC_COMM_SELF, PETSC_ERR_PLIB, "non-symmetric tensor: expected PETSC_ERR_ARG_WRONG, got %d", (int)ierr);
    }
    PetscCall(PetscWarpAsmDestroy(&b));
  }
  PetscCall(RowNZErrors());
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  bad input: dense target, wrong sizes, missing couplings, not preallocated, values set but not assembled,\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "             index out of range, dof count, non-symmetric tensor,\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "             rownz plan: element map out of the columns, entry outside the pattern -> clear errors\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                   dm;
  Mat                  Jref, A, A2;
  Vec                  b;
  PetscWarpAsm         wa;
  PetscBool            skip, device, same;
  PetscRandom          rnd;
  char                 physname[32], expect[32] = "", expectrow[32] = "";
  char                *strategies[8], *types[8];
  PetscInt             ns = 8, nt = 8, nre = 3;
  PetscBool            flg;
  PlexPhysics          phys;
  PetscWarpAsmInfo     info;
  PetscReal            e;
  PetscWarpAsmStrategy strat;
  PetscBool            affs[2] = {PETSC_TRUE, PETSC_FALSE};
  PetscInt             naff = 2, ncoef = 0;
  PetscReal            amp = 0, xmax = PETSC_MAX_REAL, shift = 0, *kcell = NULL, minlanes = 0;
  char                 expaff[16] = "", coefname[16] = "constant";
  PetscWarpCoefficient coef = PETSCWARP_COEF_CONSTANT;
  DM                   auxdm;
  Vec                  aux;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(TestGetPhysics(physname, sizeof(physname), &phys));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reassemble", &nre, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_sharednz_runs", expect, sizeof(expect), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_rownz_runs", expectrow, sizeof(expectrow), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_warp_rownz_min_lanes", &minlanes, NULL));
  PetscCall(TestGetStrategies(strategies, &ns));
  PetscCall(PetscOptionsGetBoolArray(NULL, NULL, "-affine", affs, &naff, &flg));
  if (!flg) naff = 2; /* on and off */
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-perturb", &amp, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-perturb_xmax", &xmax, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect_affine", expaff, sizeof(expaff), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-shift", &shift, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-coef", coefname, sizeof(coefname), NULL));
  for (ncoef = 0; ncoef < 3; ncoef++) {
    const char *names[3] = {"constant", "cell", "tensor"};
    PetscCall(PetscStrcmp(coefname, names[ncoef], &flg));
    if (flg) break;
  }
  PetscCheck(ncoef < 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-coef %s: constant, cell or tensor", coefname);
  coef = (PetscWarpCoefficient)ncoef;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &nt, &flg));
  if (!flg) {
    nt = 3;
    PetscCall(PetscStrallocpy(MATAIJ, &types[0]));
    PetscCall(PetscStrallocpy(MATELLWARP, &types[1]));
    PetscCall(PetscStrallocpy(MATSHAREDNZ, &types[2]));
  }

  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, phys, &dm));
  PetscCall(TestPerturbCoordinates(dm, amp, xmax));
  PetscCall(SetCoefficients(dm, phys, coef, shift, &auxdm, &aux, &kcell));
  PetscCall(PlexProblemAssemble(dm, MATAIJ, &Jref, &b));
  PetscCall(DMPlexWarpAsmCreate(dm, phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY, &wa));
  if (kcell) PetscCall(PetscWarpAsmSetLaplace(wa, coef, 1.0, kcell));
  PetscCall(PetscWarpAsmSetShift(wa, shift));
  PetscCall(PetscWarpAsmSetFromOptions(wa));
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_warp_assembly_device", &device, NULL));
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s, %" PetscInt_FMT " rows, %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs; coefficient %s, shift %g%s; assembly on the %s\n", physname, info.nrows, info.ncells, info.nel, coefname, (double)shift, amp != 0 ? ", perturbed vertices" : "", device ? "device" : "host"));

  for (PetscInt t = 0; t < nt; t++) {
    for (PetscInt sa = 0; sa < ns * naff; sa++) {
      PetscInt  nsetups = 0, s = sa / naff;
      PetscReal setup0 = -1;
      PetscBool aff    = affs[sa % naff];
      char      what[128];

      PetscCall(PetscEnumFind(PetscWarpAsmStrategies, strategies[s], (PetscEnum *)&strat, &flg));
      PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown strategy %s", strategies[s]);
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s into %s%s", strategies[s], types[t], aff ? "" : " (noaffine)"));
      PetscCall(PetscWarpAsmSetStrategy(wa, strat));
      PetscCall(PetscWarpAsmSetAffine(wa, aff));
      /* a matrix of the type from PETSc's preallocation (the DM), values from PetscWarpAsm */
      PetscCall(DMSetMatType(dm, types[t]));
      PetscCall(DMCreateMatrix(dm, &A));
      for (PetscInt k = 0; k < nre; k++) {
        PetscCall(PetscWarpAsmAssembleMatrix(wa, A));
        PetscCall(PetscWarpAsmGetInfo(wa, &info));
        if (info.setup_time != setup0) nsetups++;
        setup0 = info.setup_time;
      }
      PetscCheck(nsetups == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the plan was set up %" PetscInt_FMT " times in %" PetscInt_FMT " assemblies", what, nsetups, nre);
      PetscCall(TestEntryDifference(A, Jref, &e));
      PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: max entry difference %g relative to max entry", what, (double)e);
      /* a second matrix from the symbolic assembly of the elements: reproducible values (all but atomic) */
      PetscCall(PetscWarpAsmCreateMatrix(wa, types[t], &A2));
      { /* a new matrix is zero, in its product too (ELL-WARP of the CUDA backend builds its layout from the device pattern) */
        Vec       x, y;
        PetscReal ny;
        PetscCall(MatCreateVecs(A2, &x, &y));
        PetscCall(VecSetRandom(x, rnd));
        PetscCall(MatMult(A2, x, y));
        PetscCall(VecNorm(y, NORM_INFINITY, &ny));
        PetscCheck(ny == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the product of a new matrix is not zero (%g)", what, (double)ny);
        PetscCall(VecDestroy(&x));
        PetscCall(VecDestroy(&y));
      }
      PetscCall(PetscWarpAsmAssembleMatrix(wa, A2)); /* another matrix: plan rebuilt */
      PetscCall(PetscWarpAsmAssembleMatrix(wa, A2));
      PetscCall(TestEntryDifference(A2, Jref, &e));
      PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, symbolic pattern: max entry difference %g", what, (double)e);
      if (strat != PETSCWARP_ASM_ATOMIC && strat != PETSCWARP_ASM_COO && info.used != PETSCWARP_ASM_ATOMIC) { /* rownz may fall back to atomic */
        Mat A3;
        PetscCall(MatConvert(A2, MATAIJ, MAT_INITIAL_MATRIX, &A3));
        PetscCall(PetscWarpAsmAssembleMatrix(wa, A2));
        PetscCall(Bitwise(A2, A3, &same));
        PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: two assemblies differ (not bitwise reproducible)", what);
        PetscCall(MatDestroy(&A3));
      }
      { /* a matrix of the DM without PETSc's preallocation (as the DMPlex hooks make them): the first assembly gives it
           the elements' pattern, which is PETSc's */
        Mat A4;
        for (PetscInt variant = 0; variant < 2; variant++) { /* 0: never assembled, planned first; 1: assembled empty */
          PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_TRUE));
          PetscCall(DMCreateMatrix(dm, &A4));
          PetscCall(DMSetMatrixPreallocateSkip(dm, PETSC_FALSE));
          if (variant == 0) PetscCall(PetscWarpAsmSetUpMatrix(wa, A4)); /* the coo plan leaves it unassembled */
          else {
            PetscCall(MatAssemblyBegin(A4, MAT_FINAL_ASSEMBLY));
            PetscCall(MatAssemblyEnd(A4, MAT_FINAL_ASSEMBLY));
          }
          PetscCall(PetscWarpAsmAssembleMatrix(wa, A4));
          PetscCall(PetscWarpAsmAssembleMatrix(wa, A4));
          PetscCall(TestEntryDifference(A4, Jref, &e));
          PetscCheck(e < 1e-12, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s, matrix without preallocation (%s): max entry difference %g", what, variant ? "assembled empty" : "planned first", (double)e);
          PetscCall(TestSamePattern(A4, Jref, &same)); /* Jref: PETSc's preallocation and assembly */
          PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the elements' pattern differs from PETSc's preallocation", what);
          PetscCall(MatDestroy(&A4));
        }
      }
      PetscCall(PetscWarpAsmAssembleMatrix(wa, A)); /* back to the first matrix */
      PetscCall(CheckReads(A, Jref, rnd, what));
      PetscCall(PetscWarpAsmGetInfo(wa, &info));
      { /* the cells the affine path computed */
        PetscBool split = (PetscBool)(info.used == PETSCWARP_ASM_ATOMIC || info.used == PETSCWARP_ASM_COLOR), all, mixed, none;
        PetscCall(PetscStrcmp(expaff, "all", &all));
        PetscCall(PetscStrcmp(expaff, "mixed", &mixed));
        PetscCall(PetscStrcmp(expaff, "none", &none));
        PetscCheck(aff || info.affine_last == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " cells by the affine path, which is off", what, info.affine_last);
        if (aff && all) PetscCheck(info.affine_last == info.ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " cells by the affine path, expected all", what, info.affine_last, info.ncells);
        if (aff && none) PetscCheck(info.affine_last == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " cells by the affine path, expected none", what, info.affine_last);
        if (aff && mixed && split)
          PetscCheck(info.affine_last > 0 && info.affine_last < info.ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " cells by the affine path, expected some", what, info.affine_last, info.ncells);
        if (aff && mixed && !split) PetscCheck(info.affine_last == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " cells by the affine path on a mixed mesh, expected none", what, info.affine_last);
      }
      if (strat == PETSCWARP_ASM_ROWNZ && aff && (expectrow[0] || minlanes <= 0)) { /* without the affine path rownz always runs atomic */
        /* by default: the affine path served every cell of the last assembly (whichever ran: then every cell is affine and
           the reference matrices fit the shared-memory budget, rownz's gate) and no -mat_warp_rownz_min_lanes gate: rownz */
        const char *exp = expectrow[0] ? expectrow : PetscWarpAsmStrategies[info.affine_last == info.ncells ? PETSCWARP_ASM_ROWNZ : PETSCWARP_ASM_ATOMIC];
        PetscCall(PetscStrcmp(exp, PetscWarpAsmStrategies[info.used], &flg));
        PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the plan runs %s, expected %s%s (affine path: %" PetscInt_FMT " of %" PetscInt_FMT " cells)", what, PetscWarpAsmStrategies[info.used], exp, expectrow[0] ? "" : " by default", info.affine_last,
                   info.ncells);
      }
      if (strat == PETSCWARP_ASM_ROWNZ && !aff) PetscCheck(info.used == PETSCWARP_ASM_ATOMIC, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: rownz without the affine path runs %s, expected atomic", what, PetscWarpAsmStrategies[info.used]);
      if (expect[0] && strat == PETSCWARP_ASM_SHAREDNZ) {
        PetscCall(PetscStrcmp(expect, PetscWarpAsmStrategies[info.used], &flg));
        PetscCheck(flg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: the plan runs %s, expected %s", what, PetscWarpAsmStrategies[info.used], expect);
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-41s %-8s max entry diff %.2e, affine %" PetscInt_FMT "/%" PetscInt_FMT " cells, plan %.3g s %.3g MB%s%s%s, reads after assembly agree\n", what, device && info.device ? "(device)" : "(host)", (double)e,
                            info.affine_last, info.ncells, info.setup_time, info.plan_bytes / 1e6, strat != PETSCWARP_ASM_ATOMIC && strat != PETSCWARP_ASM_COO && info.used != PETSCWARP_ASM_ATOMIC ? ", bitwise reproducible" : "", info.used != info.strategy ? ", ran as " : "",
                            info.used != info.strategy ? PetscWarpAsmStrategies[info.used] : ""));
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&A2));
    }
  }
  PetscCall(TestCheckLoad(dm, wa, device ? VECCUDA : VECSTANDARD, 1));
  PetscCall(PetscObjectViewFromOptions((PetscObject)wa, NULL, "-warpasm_view"));
  PetscCall(CheckErrors(wa));

  for (PetscInt s = 0; s < ns; s++) PetscCall(PetscFree(strategies[s]));
  for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscWarpAsmDestroy(&wa));
  PetscCall(PetscFree(kcell));
  PetscCall(VecDestroy(&aux));
  PetscCall(DMDestroy(&auxdm));
  PetscCall(MatDestroy(&Jref));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
