/*
  PCELLWARPPERM: solve in the numbering of the ELL-WARP layout (the paper's Kr/Krs kernels), permuting the vectors
  once per solve at the boundary. Modelled on PCKSP (an inner KSP) and PCREDISTRIBUTE (a permuted inner system).
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petsc/private/pcimpl.h>
#include <petscksp.h>

typedef struct {
  KSP        ksp;     /* inner solver, on the permuted system */
  Mat        A, B;    /* P Amat P^T and P Pmat P^T (the same object when Amat == Pmat) */
  IS         perm;    /* sorted position -> row, global numbering */
  VecScatter scatter; /* user numbering -> sorted numbering */
  Vec        x, y;    /* work vectors in the sorted numbering */
  PetscInt  *map[2];  /* B block k, CSR position q  <-  Pmat block k, CSR position map[k][q] */
  PetscInt   its;     /* inner iterations, all solves */
} PC_EllWarpPerm;

static PetscErrorCode CreateKSP(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  const char     *prefix;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)pc), &jac->ksp));
  PetscCall(KSPSetNestLevel(jac->ksp, pc->kspnestlevel));
  PetscCall(KSPSetErrorIfNotConverged(jac->ksp, pc->erroriffailure));
  PetscCall(PetscObjectIncrementTabLevel((PetscObject)jac->ksp, (PetscObject)pc, 1));
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCall(KSPSetOptionsPrefix(jac->ksp, prefix));
  PetscCall(KSPAppendOptionsPrefix(jac->ksp, "ellwarpperm_"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sequential blocks of an AIJ matrix: itself, or its diagonal and off-diagonal blocks */
static PetscErrorCode GetBlocks(Mat M, PetscInt *n, Mat blk[2])
{
  PetscBool mpi;

  PetscFunctionBegin;
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)M, MATMPIAIJ, &mpi));
  if (mpi) {
    PetscCall(MatMPIAIJGetSeqAIJ(M, &blk[0], &blk[1], NULL));
    *n = 2;
  } else {
    blk[0] = M;
    blk[1] = NULL;
    *n     = 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Entries of a sequential AIJ block */
static PetscErrorCode BlockNnz(Mat blk, PetscInt *nz)
{
  const PetscInt *i, *j;
  PetscScalar    *a;
  PetscMemType    mt;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetCSRAndMemType(blk, &i, &j, &a, &mt));
  *nz = i[blk->rmap->n];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  B = P Pmat P^T as a MATELLWARP matrix with Pmat's options (no reordering: its rows are already in order), and the map
  from B's value positions to Pmat's: Pmat's values are replaced by their positions (+1 in the diagonal block, -1 - q in
  the off-diagonal block) in a duplicate, which MatPermute() moves exactly like the values (INSERT_VALUES, integers below
  2^53). Later setups with the same nonzero pattern only gather the values through the map.
*/
static PetscErrorCode BuildPermuted(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  Mat             T, tb[2], bb[2];
  PetscInt        nt, nb;
  MatEllWarpOpts  o;
  PetscBool       isew;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(pc->pmat, MAT_DO_NOT_COPY_VALUES, &T));
  PetscCall(GetBlocks(T, &nt, tb));
  for (PetscInt k = 0; k < nt; k++) {
    PetscInt     nz = 0;
    PetscScalar *a;
    PetscCall(BlockNnz(tb[k], &nz));
    PetscCall(MatSeqAIJGetArrayWrite(tb[k], &a));
    for (PetscInt q = 0; q < nz; q++) a[q] = k == 0 ? (PetscScalar)(q + 1) : (PetscScalar)(-1 - q);
    PetscCall(MatSeqAIJRestoreArrayWrite(tb[k], &a));
  }
  PetscCall(MatDestroy(&jac->B));
  PetscCall(MatPermute(T, jac->perm, jac->perm, &jac->B));
  PetscCall(MatDestroy(&T));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)jac->B, &isew, MATSEQAIJELLWARP, MATMPIAIJELLWARP, ""));
  if (!isew) PetscCall(MatConvert(jac->B, MATELLWARP, MAT_INPLACE_MATRIX, &jac->B));
  PetscUseMethod(pc->pmat, "MatEllWarpGetOpts_C", (Mat, MatEllWarpOpts *), (pc->pmat, &o));
  PetscCall(PetscStrncpy(o.reorder, "none", sizeof(o.reorder)));
  PetscUseMethod(jac->B, "MatEllWarpSetOpts_C", (Mat, const MatEllWarpOpts *), (jac->B, &o));
  PetscCall(GetBlocks(jac->B, &nb, bb));
  PetscCheck(nb == nt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Permuted matrix has %" PetscInt_FMT " blocks, expected %" PetscInt_FMT, nb, nt);
  for (PetscInt k = 0; k < nb; k++) {
    PetscInt           nz = 0;
    const PetscScalar *a;
    PetscCall(BlockNnz(bb[k], &nz));
    PetscCall(PetscFree(jac->map[k]));
    PetscCall(PetscMalloc1(nz, &jac->map[k]));
    PetscCall(MatSeqAIJGetArrayRead(bb[k], &a));
    for (PetscInt q = 0; q < nz; q++) {
      PetscInt v = (PetscInt)PetscRealPart(a[q]);
      PetscCheck(k == 0 ? v > 0 : v < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A permuted entry left its block");
      jac->map[k][q] = k == 0 ? v - 1 : -1 - v;
    }
    PetscCall(MatSeqAIJRestoreArrayRead(bb[k], &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B's values from Pmat's current values, through the map; B's layout refreshes at its next product */
static PetscErrorCode GatherValues(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  Mat             pb[2], bb[2];
  PetscInt        np, nb;

  PetscFunctionBegin;
  PetscCall(GetBlocks(pc->pmat, &np, pb));
  PetscCall(GetBlocks(jac->B, &nb, bb));
  for (PetscInt k = 0; k < nb; k++) {
    PetscInt           nz = 0;
    const PetscScalar *pa;
    PetscScalar       *ba;
    PetscCall(BlockNnz(bb[k], &nz));
    PetscCall(MatSeqAIJGetArrayRead(pb[k], &pa));
    PetscCall(MatSeqAIJGetArrayWrite(bb[k], &ba));
    for (PetscInt q = 0; q < nz; q++) ba[q] = pa[jac->map[k][q]];
    PetscCall(MatSeqAIJRestoreArrayWrite(bb[k], &ba));
    PetscCall(MatSeqAIJRestoreArrayRead(pb[k], &pa));
  }
  PetscCall(PetscObjectStateIncrease((PetscObject)jac->B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_EllWarpPerm(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  PetscBool       isew;
  Vec             u;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)pc->pmat, &isew, MATSEQAIJELLWARP, MATMPIAIJELLWARP, ""));
  PetscCheck(isew, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_WRONG, "PCELLWARPPERM needs a MATELLWARP matrix to build the preconditioner from, not %s: use -mat_type ellwarp (or -dm_mat_type ellwarp)", ((PetscObject)pc->pmat)->type_name);
  PetscCall(PetscLogEventBegin(PCELLWARPPERM_SetUp, pc, 0, 0, 0));
  if (!jac->ksp) {
    PetscCall(CreateKSP(pc));
    PetscCall(KSPSetFromOptions(jac->ksp));
  }
  if (!pc->setupcalled || pc->flag == DIFFERENT_NONZERO_PATTERN || !jac->B) {
    PetscCall(ISDestroy(&jac->perm));
    PetscCall(VecScatterDestroy(&jac->scatter));
    PetscCall(VecDestroy(&jac->x));
    PetscCall(VecDestroy(&jac->y));
    PetscCall(MatEllWarpGetRowPermutation(pc->pmat, &jac->perm));
    PetscCall(BuildPermuted(pc));
    PetscCall(MatCreateVecs(jac->B, &jac->x, &jac->y));
    PetscCall(MatCreateVecs(pc->pmat, &u, NULL));
    PetscCall(VecScatterCreate(u, jac->perm, jac->x, NULL, &jac->scatter));
    PetscCall(VecDestroy(&u));
  }
  PetscCall(GatherValues(pc));
  PetscCall(MatDestroy(&jac->A));
  if (pc->useAmat && pc->mat != pc->pmat) PetscCall(MatPermute(pc->mat, jac->perm, jac->perm, &jac->A));
  else {
    PetscCall(PetscObjectReference((PetscObject)jac->B));
    jac->A = jac->B;
  }
  PetscCall(KSPSetOperators(jac->ksp, jac->A, jac->B));
  PetscCall(KSPSetUp(jac->ksp));
  PetscCall(PetscLogEventEnd(PCELLWARPPERM_SetUp, pc, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Apply(PC pc, Vec b, Vec x, PetscBool transpose)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  PetscInt        its;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PCELLWARPPERM_Scatter, pc, b, 0, 0));
  PetscCall(VecScatterBegin(jac->scatter, b, jac->x, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(jac->scatter, b, jac->x, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PetscLogEventEnd(PCELLWARPPERM_Scatter, pc, b, 0, 0));
  if (transpose) PetscCall(KSPSolveTranspose(jac->ksp, jac->x, jac->y));
  else PetscCall(KSPSolve(jac->ksp, jac->x, jac->y));
  PetscCall(KSPCheckSolve(jac->ksp, pc, jac->y));
  PetscCall(KSPGetIterationNumber(jac->ksp, &its));
  jac->its += its;
  PetscCall(PetscLogEventBegin(PCELLWARPPERM_Scatter, pc, x, 0, 0));
  PetscCall(VecScatterBegin(jac->scatter, jac->y, x, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(jac->scatter, jac->y, x, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(PetscLogEventEnd(PCELLWARPPERM_Scatter, pc, x, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_EllWarpPerm(PC pc, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(Apply(pc, b, x, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_EllWarpPerm(PC pc, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCall(Apply(pc, b, x, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_EllWarpPerm(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;

  PetscFunctionBegin;
  if (jac->ksp) PetscCall(KSPReset(jac->ksp));
  PetscCall(MatDestroy(&jac->A));
  PetscCall(MatDestroy(&jac->B));
  PetscCall(ISDestroy(&jac->perm));
  PetscCall(VecScatterDestroy(&jac->scatter));
  PetscCall(VecDestroy(&jac->x));
  PetscCall(VecDestroy(&jac->y));
  for (int k = 0; k < 2; k++) PetscCall(PetscFree(jac->map[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_EllWarpPerm(PC pc)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_EllWarpPerm(pc));
  PetscCall(KSPDestroy(&jac->ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCEllWarpPermGetKSP_C", NULL));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_EllWarpPerm(PC pc, PetscOptionItems PetscOptionsObject)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC ELLWARPPERM options (the inner solver has the prefix ellwarpperm_)");
  if (!jac->ksp) PetscCall(CreateKSP(pc));
  PetscCall(KSPSetFromOptions(jac->ksp));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_EllWarpPerm(PC pc, PetscViewer viewer)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;
  PetscBool       iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (jac->B) {
    MatEllWarpInfo info;
    PetscCall(MatEllWarpGetInfo(jac->B, &info));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  solves P A P^T in the ELL-WARP sorted numbering (Krs): rows already in sorted order %s, kernel %s; %" PetscInt_FMT " inner iterations so far\n", info.sorted_rows ? "yes" : "no", MatEllWarpKernels[info.kernel],
                                     jac->its));
  }
  if (jac->ksp) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  inner KSP (prefix ellwarpperm_):\n"));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(KSPView(jac->ksp, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCEllWarpPermGetKSP_EllWarpPerm(PC pc, KSP *ksp)
{
  PC_EllWarpPerm *jac = (PC_EllWarpPerm *)pc->data;

  PetscFunctionBegin;
  if (!jac->ksp) PetscCall(CreateKSP(pc));
  *ksp = jac->ksp;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  PCEllWarpPermGetKSP - The inner solver of a `PCELLWARPPERM` preconditioner, which works on the permuted system

  Not Collective

  Input Parameter:
. pc - the preconditioner

  Output Parameter:
. ksp - the inner `KSP` (options prefix `ellwarpperm_` after the `PC`'s prefix)

  Level: intermediate

.seealso: `PCELLWARPPERM`, `PCKSPGetKSP()`
@*/
PetscErrorCode PCEllWarpPermGetKSP(PC pc, KSP *ksp)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscAssertPointer(ksp, 2);
  PetscUseMethod(pc, "PCEllWarpPermGetKSP_C", (PC, KSP *), (pc, ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  PCELLWARPPERM - "ellwarpperm": solves the linear system in the numbering of the `MATELLWARP` layout, so that every
  product inside the solver runs the paper's Kr/Krs kernels, and permutes the vectors only at the boundary, once per
  solve

  Options Database Keys:
+ -pc_type ellwarpperm                 - selects it; use it with `-ksp_type preonly`
- -ellwarpperm_ksp_type, -ellwarpperm_pc_type, ... - the inner solver and its preconditioner (any `KSP` and `PC`)

  Level: intermediate

  Notes:
  The preconditioning matrix must be a `MATELLWARP` matrix. At setup, B = P A P^T is formed with the row order of its
  ELL-WARP layout (`MatEllWarpGetRowPermutation()`: rows sorted by length after the `MatEllWarpSetReorder()` locality
  ordering); B's rows are then already in sorted order, so its products store y with coalesced writes and read no
  permutation (Kr), and its rows have increasing columns (Krs). The inner `KSP` solves B y = P b, and x = P^T y. The
  permutation is a device gather of b and a scatter of y per solve (`VecScatter`, one each), instead of a scattered
  store of y in every product.

  Correctness: B is similar to A by a permutation, so a Krylov method with a preconditioner that does not depend on the
  numbering (none, Jacobi, point-block Jacobi, Chebyshev with either) takes the same iterations in exact arithmetic;
  with ILU, SOR, or GAMG the preconditioner sees a different ordering and the iteration count can change (as it would
  with any renumbering of the unknowns).

  When it pays: when a solve runs many products (an unpreconditioned or Jacobi-preconditioned Krylov method), on
  matrices whose store of y is a visible part of the product (low-order elements, short rows), and most of all with a
  locality ordering on a badly numbered mesh, where A's stores of y are scattered over the whole vector. It costs one
  `MatPermute()` and one layout build at the first setup (a new nonzero pattern), and a host gather of the values plus
  a device refresh at later setups (new values, same pattern). It does not pay for a single product or a few
  iterations; use `MATELLWARP`'s own products there.

.seealso: `MATELLWARP`, `MatEllWarpGetRowPermutation()`, `PCEllWarpPermGetKSP()`, `PCKSP`, `PCREDISTRIBUTE`
M*/
PETSC_INTERN PetscErrorCode PCCreate_EllWarpPerm(PC pc)
{
  PC_EllWarpPerm *jac;

  PetscFunctionBegin;
  PetscCall(PetscNew(&jac));
  pc->data                = (void *)jac;
  pc->ops->apply          = PCApply_EllWarpPerm;
  pc->ops->applytranspose = PCApplyTranspose_EllWarpPerm;
  pc->ops->setup          = PCSetUp_EllWarpPerm;
  pc->ops->reset          = PCReset_EllWarpPerm;
  pc->ops->destroy        = PCDestroy_EllWarpPerm;
  pc->ops->setfromoptions = PCSetFromOptions_EllWarpPerm;
  pc->ops->view           = PCView_EllWarpPerm;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCEllWarpPermGetKSP_C", PCEllWarpPermGetKSP_EllWarpPerm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
