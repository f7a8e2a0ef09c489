/*
  MATSEQAIJELLWARP: matrix products (MatMatMult(), MatTransposeMatMult(), MatMatTransposeMult(), MatPtAP(), MatRARt(),
  MatProduct*()), as PCGAMG's and PCMG's Galerkin set-ups call them.

  MATSEQAIJELLWARP inherits MatProductSetFromOptions_SeqAIJ(): without this file every product with an ellwarp operand
  runs in SeqAIJ's host code, and its result takes the type of A (ellwarp), so that GAMG's whole hierarchy (prolongators,
  coarse operators) stays on the host, each level building ELL-WARP layouts on the way. Here the products of a matrix with
  the CUDA backend run in cuSPARSE, on a CSR twin of the matrix:

  - the twin is a MATSEQAIJCUSPARSE built once per nonzero pattern. Its row pointer and columns on the host are the
    matrix's own AIJ arrays (no copy; cuSPARSE uploads them once), its values are refreshed when the matrix's state
    changed: by a device gather from the ELL-WARP layout (PetscWarpEllToCSRCUDA(), the gather of the coherence pull,
    into the twin's device CSR values) when the layout holds the current values -- after a device assembly the layout
    holds the only current ones, and no host round trip happens --, else by one upload of the host values (e.g. a
    prolongator GAMG filled with MatSetValues(), which has no layout);
  - the product is cuSPARSE's (MatProductSetFromOptions_SeqAIJCUSPARSE: SpGEMM, PtAP and RARt as two of them), run on
    the twins standing in for the operands (operands of type MATSEQAIJCUSPARSE take part as they are); the result is a
    MATSEQAIJCUSPARSE. GAMG's prolongators and coarse operators are then aijcusparse, as on PETSc's own aijcusparse path,
    and only the finest operator is ellwarp.
  - MatProductNumeric() refreshes the twins' values first, then runs cuSPARSE's numeric phase on them.

  With the host backend products stay SeqAIJ's (on the matrices themselves, the result of type ellwarp), unless
  -mat_ellwarp_product_host_twin, which runs them on a MATSEQAIJ twin in the same way (the host twin of the mechanism,
  for tests). -mat_ellwarp_product_device 0 turns the device twin off. Blocks of MATMPIAIJELLWARP never use a twin:
  MPIAIJ's products read their host arrays.
*/
#include <petscwarp/private/ellwarpimpl.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

/* The type of the twin the products of A run on; NULL: SeqAIJ's products on A itself, for the reason *why */
static MatType TwinType(Mat A, const char **why)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  *why = NULL;
  if (ew->mpi_block) *why = "a block of an MPI matrix";
  else if (A->boundtocpu) *why = "bound to the CPU";
#if PetscDefined(HAVE_CUDA)
  else if (ew->opt.backend == MAT_ELLWARP_BACKEND_CUDA) {
    if (ew->product_device) return MATSEQAIJCUSPARSE;
    *why = "-mat_ellwarp_product_device 0";
  }
#endif
  else if (ew->product_host_twin)
    return MATSEQAIJ;
  else *why = "host backend";
  return NULL;
}

/* Build the twin: A's row pointer and columns, values of its own (zero until refreshed) */
static PetscErrorCode TwinBuild(Mat A, MatType type)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const PetscInt    *ai, *aj;
  PetscScalar       *v;
  PetscInt           m = A->rmap->n;
  Mat                T;
  PetscBool          aij;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATELLWARP_TwinBuild, A, 0, 0, 0));
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &ai, &aj, NULL, NULL)); /* the pattern only: no pull of values */
  PetscCall(PetscCalloc1(PetscMax(ai[m], 1), &v));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, A->cmap->n, (PetscInt *)ai, (PetscInt *)aj, v, &T));
  PetscCall(PetscObjectContainerCompose((PetscObject)T, "MatEllWarpTwinValues", v, PetscCtxDestroyDefault)); /* freed with T */
  PetscCall(MatSetBlockSizesFromMats(T, A, A));
  PetscCall(PetscStrcmp(type, MATSEQAIJ, &aij));
  if (!aij) PetscCall(MatConvert(T, type, MAT_INPLACE_MATRIX, &T));
  ew->twin         = T;
  ew->twin_nzstate = A->nonzerostate;
  ew->twin_state   = -1;
  ew->ntwinbuilds++;
  PetscCall(PetscInfo(A, "%s twin for the products: %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros, row pointer and columns shared with the host AIJ arrays\n", type, m, A->cmap->n, ai[m]));
  PetscCall(PetscLogEventEnd(MATELLWARP_TwinBuild, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Refresh the twin's values: a gather from the layout when it holds the current values in the twin's memory, else a
   copy of the host values */
static PetscErrorCode TwinValues(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  Mat                T  = ew->twin;
  const PetscInt    *ai;
  PetscBool          current, device;
  PetscInt           nnz;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATELLWARP_TwinValues, A, 0, 0, 0));
  PetscCall(MatSeqAIJGetCSRAndMemType(A, &ai, NULL, NULL, NULL));
  nnz = ai[A->rmap->n];
  PetscCall(PetscObjectTypeCompare((PetscObject)T, MATSEQAIJ, &device));
  device = (PetscBool)!device;
  PetscCall(MatEllWarpLayoutCurrent_Private(A, &current));
  current = (PetscBool)(current && (ew->built_backend == MAT_ELLWARP_BACKEND_CUDA) == device);
  PetscCheck(!current || ew->E.nnz == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ELL-WARP layout of %d entries for %" PetscInt_FMT " nonzeros", ew->E.nnz, nnz);
  if (!device) {
    PetscScalar *tv;

    PetscCall(MatSeqAIJGetArrayWrite(T, &tv));
    if (current) PetscWarpEllToCSRHost(&ew->E, tv);
    else {
      const PetscScalar *aa;
      PetscCall(MatSeqAIJGetArrayRead(A, &aa));
      PetscCall(PetscArraycpy(tv, aa, nnz));
      PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    }
    PetscCall(MatSeqAIJRestoreArrayWrite(T, &tv));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscScalar *dv;

    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCall(MatSeqAIJCUSPARSEGetArray(T, &dv)); /* the first time, cuSPARSE uploads the pattern */
    if (current) {
      PetscCall(PetscLogGpuTimeBegin());
      PetscCallCUDA((cudaError_t)PetscWarpEllToCSRCUDA(&ew->E, dv, st));
      PetscCall(PetscLogGpuTimeEnd());
    } else {
      const PetscScalar *aa;
      PetscCall(MatSeqAIJGetArrayRead(A, &aa));
      PetscCallCUDA(cudaMemcpyAsync(dv, aa, sizeof(PetscScalar) * nnz, cudaMemcpyHostToDevice, st));
      PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * (PetscLogDouble)nnz));
      PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    }
    PetscCall(MatSeqAIJCUSPARSERestoreArray(T, &dv));
  }
#endif
  if (current) ew->ntwingathers++;
  else ew->ntwinuploads++;
  PetscCall(MatPropagateSymmetryOptions(A, T)); /* the products may use the symmetry (AtB as AB) */
  PetscCall(PetscObjectStateGet((PetscObject)A, &ew->twin_state));
  PetscCall(PetscInfo(A, "twin values refreshed %s\n", current ? (device ? "by a device gather from the ELL-WARP layout" : "from the ELL-WARP layout") : (device ? "by an upload of the host values" : "from the host values")));
  PetscCall(PetscLogEventEnd(MATELLWARP_TwinValues, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin of A with A's current values (A must have one: TwinType() not NULL) */
PetscErrorCode MatEllWarpGetTwin_Private(Mat A, Mat *twin)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const char        *why;
  MatType            type = TwinType(A, &why);
  PetscObjectState   state;
  PetscBool          same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(type, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No product twin: %s", why);
  if (ew->twin) PetscCall(PetscObjectTypeCompare((PetscObject)ew->twin, type, &same));
  if (ew->twin && (!same || ew->twin_nzstate != A->nonzerostate || ew->twin->rmap->n != A->rmap->n || ew->twin->cmap->n != A->cmap->n)) PetscCall(MatDestroy(&ew->twin));
  if (!ew->twin) PetscCall(TwinBuild(A, type));
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (ew->twin_state != state) PetscCall(TwinValues(A));
  *twin = ew->twin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a product's operand runs as: the twin of a MATSEQAIJELLWARP, any other matrix itself */
static PetscErrorCode Operand(Mat X, Mat *T)
{
  PetscBool isew;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJELLWARP, &isew));
  if (isew) PetscCall(MatEllWarpGetTwin_Private(X, T));
  else *T = X;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin type an operand asks for: its twin's for MATSEQAIJELLWARP, MATSEQAIJCUSPARSE (not bound to the CPU) and
   MATSEQAIJ take part as they are; NULL for any other */
static PetscErrorCode OperandKind(Mat X, MatType *kind, const char **why)
{
  PetscBool is;

  PetscFunctionBegin;
  *kind = NULL;
  *why  = "operand types";
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJELLWARP, &is));
  if (is) {
    *kind = TwinType(X, why);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(HAVE_CUDA)
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJCUSPARSE, &is));
  if (is && !X->boundtocpu) *kind = MATSEQAIJCUSPARSE;
#endif
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJ, &is));
  if (is) *kind = MATSEQAIJ;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twins' product: the operands' twins (references), the twins' numeric phase and product data */
typedef struct {
  Mat tA, tB;
  PetscErrorCode (*numeric)(Mat);
  void              *data;
  PetscCtxDestroyFn *destroy;
} TwinProduct;

static PetscErrorCode TwinProductDestroy(PetscCtxRt ptr)
{
  TwinProduct *tp = *(TwinProduct **)ptr;

  PetscFunctionBegin;
  if (tp->destroy) PetscCall((*tp->destroy)(&tp->data));
  PetscCall(MatDestroy(&tp->tA));
  PetscCall(MatDestroy(&tp->tB));
  PetscCall(PetscFree(tp));
  *(TwinProduct **)ptr = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run a phase of the twins' product on C: the twins stand in for A and B, the twins' product data for ours */
static PetscErrorCode OnTwins(Mat C, TwinProduct *tp, PetscErrorCode (*phase)(Mat))
{
  Mat_Product       *product = C->product;
  Mat                A = product->A, B = product->B;
  void              *data    = product->data;
  PetscCtxDestroyFn *destroy = product->destroy;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  product->A       = tp->tA;
  product->B       = tp->tB;
  product->data    = tp->data;
  product->destroy = tp->destroy;
  ierr             = (*phase)(C);
  tp->data         = product->data;
  tp->destroy      = product->destroy;
  product->A       = A;
  product->B       = B;
  product->data    = data;
  product->destroy = destroy;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twins' MatProductSetFromOptions() and symbolic phase (both twins have the same type, so the same dispatch) */
static PetscErrorCode SymbolicPhase(Mat C)
{
  Mat_Product *product = C->product;

  PetscFunctionBegin;
  C->ops->productsymbolic = NULL;
  C->ops->productnumeric  = NULL;
  PetscCall((*product->A->ops->productsetfromoptions)(C));
  PetscCheck(C->ops->productsymbolic, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatProduct %s not supported by %s", MatProductTypes[product->type], ((PetscObject)product->A)->type_name);
  PetscCall((*C->ops->productsymbolic)(C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProductNumeric_Twin(Mat C)
{
  Mat_Product *product = C->product;
  TwinProduct *tp      = (TwinProduct *)product->data;
  Mat          tA, tB;

  PetscFunctionBegin;
  PetscCheck(tp && product->destroy == TwinProductDestroy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Missing the twins' product data");
  PetscCall(Operand(product->A, &tA)); /* refreshes the twins' values */
  PetscCall(Operand(product->B, &tB));
  if (tA != tp->tA || tB != tp->tB) { /* another matrix (MatProductReplaceMats()) or a new pattern */
    PetscCheck(product->type != MATPRODUCT_PtAP && product->type != MATPRODUCT_RARt, PETSC_COMM_SELF, PETSC_ERR_SUP, "The operands of this %s changed matrix or nonzero pattern since its symbolic phase: compute it again with MAT_INITIAL_MATRIX",
               MatProductTypes[product->type]);
    PetscCheck(tA->rmap->n == tp->tA->rmap->n && tA->cmap->n == tp->tA->cmap->n && tB->rmap->n == tp->tB->rmap->n && tB->cmap->n == tp->tB->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Operands of other sizes than in the symbolic phase");
    PetscCall(PetscInfo(C, "MatProduct %s: operands replaced since the symbolic phase, the numeric phase runs on their twins\n", MatProductTypes[product->type]));
    PetscCall(PetscObjectReference((PetscObject)tA));
    PetscCall(PetscObjectReference((PetscObject)tB));
    PetscCall(MatDestroy(&tp->tA));
    PetscCall(MatDestroy(&tp->tB));
    tp->tA = tA;
    tp->tB = tB;
  }
  PetscCall(OnTwins(C, tp, tp->numeric));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProductSymbolic_Twin(Mat C)
{
  Mat_Product *product = C->product;
  TwinProduct *tp;

  PetscFunctionBegin;
  PetscCall(PetscNew(&tp));
  product->data    = tp; /* first: MatProductClear() frees it whatever happens below */
  product->destroy = TwinProductDestroy;
  PetscCall(Operand(product->A, &tp->tA));
  PetscCall(PetscObjectReference((PetscObject)tp->tA));
  PetscCall(Operand(product->B, &tp->tB));
  PetscCall(PetscObjectReference((PetscObject)tp->tB));
  PetscCall(OnTwins(C, tp, SymbolicPhase));
  tp->numeric            = C->ops->productnumeric;
  C->ops->productnumeric = ProductNumeric_Twin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin type of the product (NULL: SeqAIJ's products on the operands themselves, for the reason *why) */
static PetscErrorCode ProductTwinType(Mat C, MatType *type, const char **why)
{
  Mat_Product *product = C->product;
  MatType      ka, kb;
  const char  *wa, *wb;
  PetscBool    same;

  PetscFunctionBegin;
  *type = NULL;
  *why  = "product type";
  if (product->type != MATPRODUCT_AB && product->type != MATPRODUCT_AtB && product->type != MATPRODUCT_ABt && product->type != MATPRODUCT_PtAP && product->type != MATPRODUCT_RARt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OperandKind(product->A, &ka, &wa));
  PetscCall(OperandKind(product->B, &kb, &wb));
  *why = !ka ? wa : wb;
  if (!ka || !kb) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrcmp(ka, kb, &same));
  *why = "operands of different kinds";
  if (same) *type = ka;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SeqAIJ's MatProductSetFromOptions(), saved by the first MATSEQAIJELLWARP operand */
static PetscErrorCode ParentSetFromOptions(Mat C)
{
  Mat_Product *product = C->product;
  Mat          X[3]    = {product->A, product->B, product->C};
  PetscBool    aij     = PETSC_TRUE, is;

  PetscFunctionBegin;
  for (int i = 0; i < 3; i++) {
    if (!X[i]) continue;
    PetscCall(PetscObjectBaseTypeCompare((PetscObject)X[i], MATSEQAIJ, &is));
    aij = (PetscBool)(aij && is);
  }
  if (!aij) PetscFunctionReturn(PETSC_SUCCESS); /* e.g. a dense B: PETSc's own fallbacks */
  for (int i = 0; i < 3; i++) {
    if (!X[i]) continue;
    PetscCall(PetscObjectTypeCompare((PetscObject)X[i], MATSEQAIJELLWARP, &is));
    if (is) {
      PetscCall((*((Mat_SeqAIJEllWarp *)X[i]->spptr)->parent.productsetfromoptions)(C));
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSetFromOptions_SeqAIJEllWarp(Mat C)
{
  Mat_Product *product = C->product;
  MatType      type;
  const char  *why;

  PetscFunctionBegin;
  PetscCall(ProductTwinType(C, &type, &why));
  if (type) {
    PetscBool aij;
    PetscCall(PetscStrcmp(type, MATSEQAIJ, &aij));
    C->ops->productsymbolic = ProductSymbolic_Twin;
    PetscCall(PetscInfo(C, "MatProduct %s of %s and %s: on %s twins (%s)\n", MatProductTypes[product->type], ((PetscObject)product->A)->type_name, ((PetscObject)product->B)->type_name, type, aij ? "SeqAIJ on the host" : "cuSPARSE on the device"));
  } else {
    PetscCall(ParentSetFromOptions(C));
    PetscCall(PetscInfo(C, "MatProduct %s of %s and %s: SeqAIJ's on the host, no twin (%s)\n", MatProductTypes[product->type], ((PetscObject)product->A)->type_name, ((PetscObject)product->B)->type_name, why));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install (on) or remove the products: the operation for products of two ellwarp matrices, the composed one that
   MatProductSetFromOptions() queries for any other pair with an ellwarp operand */
PetscErrorCode MatEllWarpComposeProduct_Private(Mat A, PetscBool on)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (on) ew->parent.productsetfromoptions = A->ops->productsetfromoptions;
  A->ops->productsetfromoptions = on ? MatProductSetFromOptions_SeqAIJEllWarp : ew->parent.productsetfromoptions;
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatProductSetFromOptions_anytype_C", on ? MatProductSetFromOptions_SeqAIJEllWarp : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatEllWarpProductOptions_Private(Mat A, PetscOptionItems PetscOptionsObject)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  PetscCall(PetscOptionsBool("-mat_ellwarp_product_device", "Matrix products (MatMatMult, MatPtAP, ...; PCGAMG's set-up) on the device through an aijcusparse twin (CUDA backend)", "MATSEQAIJELLWARP", ew->product_device, &ew->product_device, NULL));
  PetscCall(PetscOptionsBool("-mat_ellwarp_product_host_twin", "Matrix products of the host backend on a MATSEQAIJ twin (tests the twin mechanism without a GPU)", "MATSEQAIJELLWARP", ew->product_host_twin, &ew->product_host_twin, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatEllWarpProductReset_Private(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&((Mat_SeqAIJEllWarp *)A->spptr)->twin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One line of MatView() ::ascii_info: where the products run, the twin's builds, refreshes and memory */
PetscErrorCode MatEllWarpProductView_Private(Mat A, PetscViewer viewer)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const char        *why;
  MatType            type = TwinType(A, &why);

  PetscFunctionBegin;
  if (!type) PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP products: SeqAIJ's, on the host (%s)\n", why));
  else {
    PetscLogDouble nnz = 0, m = (PetscLogDouble)A->rmap->n, dev, host;
    PetscBool      device;

    if (ew->twin) {
      const PetscInt *ai;
      PetscCall(MatSeqAIJGetCSRAndMemType(A, &ai, NULL, NULL, NULL));
      nnz = (PetscLogDouble)ai[A->rmap->n];
    }
    PetscCall(PetscStrcmp(type, MATSEQAIJ, &device));
    device = (PetscBool)!device;
    /* the values and the imax/ilen arrays on the host (row pointer and columns are the matrix's); the CSR on the device */
    host = ew->twin ? nnz * sizeof(PetscScalar) + 2 * m * sizeof(PetscInt) : 0;
    dev  = ew->twin && device ? nnz * (sizeof(PetscScalar) + sizeof(PetscInt)) + (m + 1) * sizeof(PetscInt) : 0;
    PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP products: %s on a %s twin; twin built %" PetscInt_FMT " times, values refreshed %" PetscInt_FMT " times from the layout and %" PetscInt_FMT " from the host values; %.3g MB on the device%s, %.3g MB on the host\n", device ? "cuSPARSE" : "SeqAIJ", type, ew->ntwinbuilds, ew->ntwingathers, ew->ntwinuploads, dev / 1e6, device ? " (and its transpose where a product formed it)" : "", host / 1e6));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
