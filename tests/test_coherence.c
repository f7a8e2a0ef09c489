static char help[] = "Host/device coherence of MATELLWARP: every host-side change is seen by the ELL-WARP products,\n"
                     "and every inherited AIJ operation agrees with MATAIJ.\n";

#include "testutil.h"
#include <petscwarp/private/ellwarpimpl.h> /* MatEllWarpOpts: a duplicate keeps the options */

static PetscRandom rnd;

/* y = A x for both matrices with the same random x; error if they differ */
static PetscErrorCode Compare(Mat A, Mat B, const char *what)
{
  Vec       xa, ya, xb, yb;
  PetscReal err;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(MatCreateVecs(B, &xb, &yb));
  PetscCall(VecSetRandom(xa, rnd));
  PetscCall(VecCopy(xa, xb));
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(B, xb, yb));
  PetscCall(VecRelativeDifference(yb, ya, &err));
  PetscCheck(err < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: relative error %g", what, (double)err);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-40s rel. err %.2e\n", what, (double)err));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&yb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Same matrix entries: ||A - B||_F == 0 through an AIJ copy of B */
static PetscErrorCode CompareEntries(Mat A, Mat B, const char *what)
{
  Mat       C;
  PetscReal nrm;

  PetscFunctionBegin;
  PetscCall(MatConvert(B, MATAIJ, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatAXPY(C, -1.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(C, NORM_FROBENIUS, &nrm));
  PetscCheck(nrm == 0.0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: entries differ, ||A-B|| = %g", what, (double)nrm);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-40s entries identical\n", what));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BothSetValue(Mat A, Mat B, PetscInt i, PetscInt j, PetscScalar v)
{
  PetscFunctionBegin;
  PetscCall(MatSetValue(A, i, j, v, ADD_VALUES));
  PetscCall(MatSetValue(B, i, j, v, ADD_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BothAssemble(Mat A, Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                A, B, C, D;
  Vec                l, r;
  PetscBool          skip, isell, dev;
  PetscInt           rstart, rend, ncols, ncolsb, M, *existing;
  const PetscInt    *cols, *colsb;
  const PetscScalar *vals, *valsb;
  MatEllWarpInfo     info0, info1;
  PetscMPIInt        size;

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(TestCreateCase(PETSC_COMM_WORLD, "random", rnd, -1, &A));
  PetscCall(TestBlockOption(rnd, &A)); /* -block bs: the block layout until an entry breaks a block */
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatConvert(A, MATELLWARP, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatSetOption(B, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)B, size > 1 ? MATMPIAIJ : MATSEQAIJ, &isell));
  PetscCheck(isell, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MATELLWARP must have an AIJ base type name");
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(Compare(A, B, "after MatConvert"));

  /* values only: refresh, no rebuild */
  PetscCall(MatEllWarpGetInfo(B, &info0));
  PetscCall(PetscMalloc1(rend - rstart, &existing));
  for (PetscInt i = rstart; i < rend; i++) { /* an existing entry of each row, or -1 */
    PetscCall(MatGetRow(A, i, &ncols, &cols, NULL));
    existing[i - rstart] = ncols ? cols[ncols / 2] : -1;
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, NULL));
  }
  for (PetscInt i = rstart; i < rend; i += 7)
    if (existing[i - rstart] >= 0) PetscCall(BothSetValue(A, B, i, existing[i - rstart], 3.5));
  PetscCall(PetscFree(existing));
  PetscCall(BothAssemble(A, B));
  PetscCall(Compare(A, B, "MatSetValues on existing entries"));
  PetscCall(MatEllWarpGetInfo(B, &info1));
  if (size == 1) PetscCheck(info1.nbuilds == info0.nbuilds && info1.nrefreshes > info0.nrefreshes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "a value change must refresh, not rebuild");

  /* new nonzeros: rebuild */
  for (PetscInt i = rstart; i < rend; i += 11) PetscCall(BothSetValue(A, B, i, (i * 7 + 3) % M, -1.25));
  PetscCall(BothAssemble(A, B));
  PetscCall(Compare(A, B, "MatSetValues with new nonzeros"));

  PetscCall(MatZeroEntries(A));
  PetscCall(MatZeroEntries(B));
  PetscCall(Compare(A, B, "MatZeroEntries"));
  for (PetscInt i = rstart; i < rend; i++) PetscCall(BothSetValue(A, B, i, i, 2.0 + i % 5));
  for (PetscInt i = rstart; i < rend - 1; i++) PetscCall(BothSetValue(A, B, i, i + 1, -1.0));
  PetscCall(BothAssemble(A, B));
  PetscCall(Compare(A, B, "MatZeroEntries, then reassembly"));

  PetscCall(MatScale(A, 1.5));
  PetscCall(MatScale(B, 1.5));
  PetscCall(Compare(A, B, "MatScale"));
  PetscCall(MatShift(A, 0.25));
  PetscCall(MatShift(B, 0.25));
  PetscCall(Compare(A, B, "MatShift"));
  PetscCall(MatCreateVecs(A, &r, &l));
  PetscCall(VecSetRandom(l, rnd));
  PetscCall(VecSetRandom(r, rnd));
  PetscCall(MatDiagonalScale(A, l, r));
  PetscCall(MatDiagonalScale(B, l, r));
  PetscCall(Compare(A, B, "MatDiagonalScale"));
  { /* options that are not the command line's (host vectors as the DMPlex hook sets them, a sort window) */
    MatEllWarpOpts o;
    PetscUseMethod(B, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (B, &o));
    o.hostvecs = PETSC_TRUE;
    o.window   = 64;
    PetscUseMethod(B, "MatEllWarpSetOpts_C", (Mat, const MatEllWarpOpts *), (B, &o));
  }
  PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &C));
  PetscCall(PetscObjectTypeCompare((PetscObject)C, size > 1 ? MATMPIAIJELLWARP : MATSEQAIJELLWARP, &isell));
  PetscCheck(isell, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatDuplicate must keep the type");
  {
    MatEllWarpOpts ob, oc;
    VecType        vb, vc;
    PetscBool      same;
    PetscUseMethod(B, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (B, &ob));
    PetscUseMethod(C, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (C, &oc));
    PetscCheck(oc.hostvecs == ob.hostvecs && oc.window == ob.window && oc.backend == ob.backend && oc.kernel == ob.kernel, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatDuplicate must keep the options (host vectors %d/%d, window %" PetscInt_FMT "/%" PetscInt_FMT ")",
               (int)oc.hostvecs, (int)ob.hostvecs, oc.window, ob.window);
    PetscCall(MatGetVecType(B, &vb));
    PetscCall(MatGetVecType(C, &vc));
    PetscCall(PetscStrcmp(vb, vc, &same));
    PetscCheck(same, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "MatDuplicate must keep the vector type (%s, %s)", vc, vb);
  }
  PetscCall(Compare(A, C, "MatDuplicate"));
  PetscCall(MatAXPY(C, 2.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(B, 2.0, B, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(A, 3.0));
  PetscCall(Compare(A, B, "MatAXPY (same pattern)"));
  PetscCall(Compare(A, C, "MatAXPY into a duplicate"));
  PetscCall(MatZeroEntries(C));
  PetscCall(MatCopy(B, C, SAME_NONZERO_PATTERN));
  PetscCall(Compare(A, C, "MatCopy"));
  PetscCall(MatDestroy(&C));

  /* inherited host operations */
  for (PetscInt i = rstart; i < rend; i += 97) {
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    PetscCall(MatGetRow(B, i, &ncolsb, &colsb, &valsb));
    PetscCheck(ncols == ncolsb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRow: row lengths differ");
    for (PetscInt k = 0; k < ncols; k++) PetscCheck(cols[k] == colsb[k] && vals[k] == valsb[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRow differs");
    PetscCall(MatRestoreRow(B, i, &ncolsb, &colsb, &valsb));
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-40s identical\n", "MatGetRow"));
  PetscCall(CompareEntries(A, B, "MatConvert to aij"));
  PetscCall(MatTranspose(B, MAT_INITIAL_MATRIX, &C));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &D));
  PetscCall(CompareEntries(D, C, "MatTranspose"));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));
  PetscCall(MatMatMult(B, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C));
  PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &D));
  PetscCall(Compare(D, C, "MatMatMult"));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&D));

  PetscCall(MatBindToCPU(B, PETSC_TRUE));
  PetscCall(Compare(A, B, "MatBindToCPU(TRUE)"));
  PetscCall(MatBindToCPU(B, PETSC_FALSE));
  PetscCall(Compare(A, B, "MatBindToCPU(FALSE)"));

  /* conversions: in place to AIJ and back, and through aijcusparse when a device is present */
  PetscCall(MatConvert(B, MATAIJ, MAT_INPLACE_MATRIX, &B));
  PetscCall(PetscObjectTypeCompare((PetscObject)B, size > 1 ? MATMPIAIJ : MATSEQAIJ, &isell));
  PetscCheck(isell, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "in-place conversion to aij failed");
  PetscCall(MatConvert(B, MATELLWARP, MAT_INPLACE_MATRIX, &B));
  PetscCall(Compare(A, B, "MatConvert in place aij -> ellwarp"));
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (dev && size == 1) {
    PetscCall(MatConvert(B, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &C));
    PetscCall(Compare(A, C, "MatConvert ellwarp -> aijcusparse"));
    PetscCall(MatConvert(C, MATELLWARP, MAT_INITIAL_MATRIX, &D));
    PetscCall(Compare(A, D, "MatConvert aijcusparse -> ellwarp"));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&D));
  }
  /* MatSetType on an assembled AIJ matrix converts in place and keeps the values */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &C));
  PetscCall(MatSetType(C, MATELLWARP));
  PetscCall(Compare(A, C, "MatSetType(assembled aij, ellwarp)"));
  PetscCall(MatDestroy(&C));

  PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(B, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));

  PetscCall(VecDestroy(&l));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "coherence: all operations agree with AIJ\n"));
  PetscCall(PetscFinalize());
  return 0;
}
