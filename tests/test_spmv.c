static char help[] = "Compares MATELLWARP products with MATAIJ on pathological random matrices.\n"
                     "  -cases a,b,...     cases of testutil.c (default: all)\n"
                     "  -kernels k1,k2,auto kernels to test (default: all three)\n"
                     "  -threshold t       K2 threshold (default 4: splits most rows)\n"
                     "  -zero_rank r       MPI rank that owns no rows (default: the last rank when size > 1)\n"
                     "  -host_vecs         use host vectors with the CUDA backend\n"
                     "  -expect_window w   check that the layout of every case with at least 2w rows (rank 0) uses sort window w\n"
                     "  -block bs          every case expanded into bs x bs blocks (block size bs: the block layout's input)\n"
                     "  -block_break       ... with one entry of a block left out (not blocked: no block layout)\n"
                     "  -expect_mult_dot   check that the product with x'y (KSPCGWARP's) ran on at least one case (one rank)\n"
                     "  -expect_index i    check the column index layout in use (32, 16, block, block16) on rank 0; with\n"
                     "                     -mat_ellwarp_index auto only for cases of at least 5000 entries there\n";

#include "testutil.h"

static PetscInt nmultdot = 0; /* cases whose product with x'y ran and agreed */

static PetscErrorCode Check(const char *what, const char *cs, const char *k, Vec yb, Vec ya)
{
  PetscReal err;

  PetscFunctionBegin;
  PetscCall(VecRelativeDifference(yb, ya, &err));
  PetscCheck(err < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "case %s kernel %s: %s relative error %g >= 1e-12", cs, k, what, (double)err);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %-4s %-18s rel. err %.2e\n", cs, k, what, (double)err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -expect_index: the column index layout in use on rank 0 (the automatic choice only where there are enough entries) */
static PetscErrorCode CheckIndex(const char *cs, const MatEllWarpInfo *info)
{
  PetscInt        want = -1, req = MAT_ELLWARP_INDEX_AUTO;
  PetscBool       set, rset;
  PetscMPIInt     rank;
  MatEllWarpIndex r;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-expect_index", MatEllWarpIndices + 1, 4, &want, &set));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_ellwarp_index", MatEllWarpIndices, (PetscEnum *)&r, &rset));
  if (rset) req = r;
  if (!set || rank || (req == MAT_ELLWARP_INDEX_AUTO && info->nnz < 5000)) PetscFunctionReturn(PETSC_SUCCESS);
  if (req == MAT_ELLWARP_INDEX_AUTO) { /* auto keeps 16-bit codes where at least half the slices have them: "widecols"
                                           has them in about half (rows 0..999 of 2000), either choice is right */
    PetscBool wide;
    PetscCall(PetscStrcmp(cs, "widecols", &wide));
    if (wide) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(info->index == (MatEllWarpIndex)(want + 1), PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: column indices %s expected, %s used", cs, MatEllWarpIndices[want + 1], MatEllWarpIndices[info->index]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(const char *cs, const char *k, PetscInt threshold, PetscInt zerorank, PetscBool hostvecs, PetscRandom r)
{
  Mat              A, B;
  Vec              xa, ya, za, xb, yb, zb, ta, tb, va, vb;
  MatEllWarpKernel kern = MAT_ELLWARP_KERNEL_AUTO;
  PetscBool        flg;
  MatEllWarpInfo   info;
  PetscInt         M, N, m, n;
  PetscBool        samelayout;

  PetscFunctionBegin;
  PetscCall(TestCreateCase(PETSC_COMM_WORLD, cs, r, zerorank, &A));
  PetscCall(TestBlockOption(r, &A));
  PetscCall(MatConvert(A, MATELLWARP, MAT_INITIAL_MATRIX, &B));
  PetscCall(PetscStrcmp(k, "k1", &flg));
  if (flg) kern = MAT_ELLWARP_KERNEL_K1;
  PetscCall(PetscStrcmp(k, "k2", &flg));
  if (flg) kern = MAT_ELLWARP_KERNEL_K2;
  PetscCall(MatEllWarpSetKernel(B, kern, kern == MAT_ELLWARP_KERNEL_K2 ? threshold : PETSC_DETERMINE));
  PetscCall(MatGetSize(A, &M, &N));

  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(VecDuplicate(ya, &za));
  PetscCall(MatCreateVecs(A, &ta, &va));
  if (hostvecs) {
    PetscCall(MatCreateVecs(A, &xb, &yb));
  } else PetscCall(MatCreateVecs(B, &xb, &yb));
  PetscCall(VecDuplicate(yb, &zb));
  PetscCall(VecDuplicate(xb, &tb));
  PetscCall(VecDuplicate(yb, &vb));
  PetscCall(VecSetRandom(xa, r));
  PetscCall(VecSetRandom(za, r));
  PetscCall(VecSetRandom(va, r));
  PetscCall(VecCopy(xa, xb));
  PetscCall(VecCopy(za, zb));
  PetscCall(VecCopy(va, vb));

  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(B, xb, yb));
  PetscCall(Check("MatMult", cs, k, yb, ya));
  PetscCall(MatMultAdd(A, xa, za, ya));
  PetscCall(MatMultAdd(B, xb, zb, yb));
  PetscCall(Check("MatMultAdd", cs, k, yb, ya));
  PetscCall(VecCopy(za, ya));
  PetscCall(VecCopy(zb, yb));
  PetscCall(MatMultAdd(A, xa, ya, ya));
  PetscCall(MatMultAdd(B, xb, yb, yb));
  PetscCall(Check("MatMultAdd(y=y+Ax)", cs, k, yb, ya));
  PetscCall(MatMultTranspose(A, va, ta));
  PetscCall(MatMultTranspose(B, vb, tb));
  PetscCall(Check("MatMultTranspose", cs, k, tb, ta));
  PetscCall(MatMultTransposeAdd(A, va, xa, ta));
  PetscCall(MatMultTransposeAdd(B, vb, xb, tb));
  PetscCall(Check("MatMultTransposeAdd", cs, k, tb, ta));
  PetscCall(MatGetLocalSize(A, &m, &n));
  samelayout = (PetscBool)(m == n);
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &samelayout, 1, MPI_C_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  if (M == N && samelayout) { /* AIJ needs equal row and column partitions */
    PetscCall(MatGetDiagonal(A, ya));
    PetscCall(MatGetDiagonal(B, yb));
    PetscCall(Check("MatGetDiagonal", cs, k, yb, ya));
  }
  if (M == N && samelayout) { /* KSPCGWARP's product with p'w ("MatWarpMultDot_C", one rank): y = A x and x'y as partial sums */
    PetscErrorCode (*f)(Mat, Vec, Vec, PetscInt, PetscScalar[], PetscInt *) = NULL;
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size == 1) PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatWarpMultDot_C", &f));
    if (f) {
      PetscInt     need, np;
      Vec          parts;
      VecType      vt;
      PetscScalar *pa, dot, sum;
      PetscMemType mt;
      PetscReal    nx, ny;
      PetscCall((*f)(B, xb, yb, 0, NULL, &need));
      if (need < 0) {
        PetscCall(VecGetType(xb, &vt));
        PetscCall(VecCreate(PETSC_COMM_SELF, &parts));
        PetscCall(VecSetSizes(parts, -need, -need));
        PetscCall(VecSetType(parts, vt));
        PetscCall(VecGetArrayWriteAndMemType(parts, &pa, &mt));
        PetscCall((*f)(B, xb, yb, -need, pa, &np));
        PetscCall(VecRestoreArrayWriteAndMemType(parts, &pa));
        PetscCheck(np == -need, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: the product with x'y gave %" PetscInt_FMT " partial sums, %" PetscInt_FMT " announced", cs, np, -need);
        PetscCall(MatMult(A, xa, ya));
        PetscCall(Check("MatMult with x'y", cs, k, yb, ya));
        PetscCall(VecSum(parts, &sum));
        PetscCall(VecDot(ya, xa, &dot));
        PetscCall(VecNorm(xa, NORM_2, &nx));
        PetscCall(VecNorm(ya, NORM_2, &ny));
        PetscCheck(PetscAbsScalar(sum - dot) <= 1e-12 * (nx * ny + PETSC_SMALL), PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: x'y of the product %g, VecDot() %g", cs, (double)PetscRealPart(sum), (double)PetscRealPart(dot));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %-4s x'y with the product: %" PetscInt_FMT " partial sums, agrees with VecDot()\n", cs, k, np));
        nmultdot++;
#if PetscDefined(HAVE_DEVICE)                   /* a PETSc without devices binds nothing */
        PetscCall(MatBindToCPU(B, PETSC_TRUE)); /* MatMult() is then the parent's: the product with x'y must not run */
        PetscCall((*f)(B, xb, yb, -need, NULL, &np));
        PetscCheck(np == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: the product with x'y ran on a matrix bound to the CPU", cs);
        PetscCall(MatBindToCPU(B, PETSC_FALSE));
#endif
        PetscCall(VecDestroy(&parts));
      } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %-4s x'y with the product: not for this layout (%" PetscInt_FMT ")\n", cs, k, need));
    }
  }
  PetscCall(MatEllWarpGetInfo(B, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %-4s layout: %s, kernel %s, threshold %" PetscInt_FMT ", order %s, window %" PetscInt_FMT ", %" PetscInt_FMT " slices, padding %.3f, index %s (unit %" PetscInt_FMT ", %.2f 16-bit), %.2f B/nnz (%.2f with 32-bit columns), load schedule %" PetscInt_FMT "\n", cs, k,
                        MatEllWarpBackends[info.backend], MatEllWarpKernels[info.kernel], info.threshold, info.reorder, info.window, info.nwarps, (double)info.padding, MatEllWarpIndices[info.index], info.index_unit, (double)info.narrow_fraction,
                        (double)info.bytes_per_nnz, (double)info.bytes_per_nnz_32, info.kc_variant));
  PetscCheck(info.nproducts >= (M == N && samelayout ? 4 : 3) || m == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the products did not run in the ELL-WARP layout (%" PetscInt_FMT " products)", info.nproducts);
  {
    PetscInt  want = PETSC_DETERMINE;
    PetscBool wset;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_window", &want, &wset));
    PetscCheck(!wset || m < 2 * want || info.window == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: window %" PetscInt_FMT " expected, %" PetscInt_FMT " used", cs, want, info.window);
  }
  PetscCall(CheckIndex(cs, &info));
  { /* the automatic block size (512 for K2 with 32-bit columns and rows averaging over 2 t, else 128), and a block size
       set after the build taking effect */
    PetscInt bsopt = 0, want;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ellwarp_block_size", &bsopt, NULL));
    want = info.kernel == MAT_ELLWARP_KERNEL_K2 && info.index == MAT_ELLWARP_INDEX_32 && info.threshold > 0 && (PetscInt64)info.nnz > (PetscInt64)2 * info.threshold * m ? 512 : 128;
    PetscCheck(bsopt > 0 || m == 0 || info.block_size == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: automatic block size %" PetscInt_FMT " expected, %" PetscInt_FMT " used", cs, want, info.block_size);
    PetscCall(MatEllWarpSetBlockSize(B, 64));
    PetscCall(MatEllWarpGetInfo(B, &info));
    PetscCheck(m == 0 || info.block_size == 64, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: block size 64 set after the build, %" PetscInt_FMT " used", cs, info.block_size);
    PetscCall(MatMult(A, xa, ya));
    PetscCall(MatMult(B, xb, yb));
    PetscCall(Check("MatMult (64 threads)", cs, k, yb, ya));
    PetscCall(MatEllWarpSetBlockSize(B, 0)); /* back to the automatic one */
    PetscCall(MatEllWarpGetInfo(B, &info));
    PetscCheck(m == 0 || info.block_size == want, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: block size 0 (automatic) set after the build: %" PetscInt_FMT " expected, %" PetscInt_FMT " used", cs, want, info.block_size);
  }
  {
    PetscInt  kv;
    PetscBool kset;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_ellwarp_kc_variant", &kv, &kset));
    PetscCheck(!kset || kv < 0 || info.kc_variant == kv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "case %s: load schedule %" PetscInt_FMT " requested, %" PetscInt_FMT " used", cs, kv, info.kc_variant);
  }
  PetscCheck(kern == MAT_ELLWARP_KERNEL_AUTO || info.kernel == kern, PETSC_COMM_SELF, PETSC_ERR_PLIB, "kernel %s requested, %s used", MatEllWarpKernels[kern], MatEllWarpKernels[info.kernel]);

  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&za));
  PetscCall(VecDestroy(&ta));
  PetscCall(VecDestroy(&va));
  PetscCall(VecDestroy(&xb));
  PetscCall(VecDestroy(&yb));
  PetscCall(VecDestroy(&zb));
  PetscCall(VecDestroy(&tb));
  PetscCall(VecDestroy(&vb));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       *cases[16], *kernels[4];
  PetscInt    ncases = 16, nkernels = 4, threshold = 4, zerorank = -1;
  PetscBool   skip, hostvecs = PETSC_FALSE, set;
  PetscRandom r;
  PetscMPIInt size;
  const char *all[]  = {"random", "empty", "dense_row", "one", "zero", "longrow", "nonsquare", "nonmult32", "powerlaw", "widecols"};
  const char *allk[] = {"k1", "k2", "auto"};

  PetscFunctionBeginUser;
  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) zerorank = size - 1;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-zero_rank", &zerorank, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-threshold", &threshold, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-host_vecs", &hostvecs, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", cases, &ncases, &set));
  if (!set) {
    ncases = 10;
    for (PetscInt i = 0; i < ncases; i++) PetscCall(PetscStrallocpy(all[i], &cases[i]));
  }
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-kernels", kernels, &nkernels, &set));
  if (!set) {
    nkernels = 3;
    for (PetscInt i = 0; i < nkernels; i++) PetscCall(PetscStrallocpy(allk[i], &kernels[i]));
  }
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &r));
  for (PetscInt c = 0; c < ncases; c++)
    for (PetscInt k = 0; k < nkernels; k++) PetscCall(RunCase(cases[c], kernels[k], threshold, zerorank, hostvecs, r));
  for (PetscInt c = 0; c < ncases; c++) PetscCall(PetscFree(cases[c]));
  for (PetscInt k = 0; k < nkernels; k++) PetscCall(PetscFree(kernels[k]));
  PetscCall(PetscRandomDestroy(&r));
  {
    PetscBool want = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-expect_mult_dot", &want, NULL));
    PetscCheck(!want || size > 1 || nmultdot > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-expect_mult_dot: the product with x'y ran on no case");
    if (size == 1) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "the product with x'y ran on %" PetscInt_FMT " case(s)\n", nmultdot));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "all products agree with AIJ\n"));
  PetscCall(PetscFinalize());
  return 0;
}
