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
    PtAP and RARt run as two products of our own on the twins (D = A P then P^T D; D = A R^T then R D), not through
    PETSc's MatProductSymbolic/Numeric_ABC_Basic(): those swap C->product and put MatProductNumeric_ABC_Basic() back as
    C's numeric phase after every numeric phase, so that MatPtAP(MAT_REUSE_MATRIX) skipped the twins (values not
    refreshed) and read our product data as theirs ("Missing numeric stage", H100 2026-11-23);
  - MatProductNumeric() refreshes the twins' values first, then runs the numeric phases on them; our symbolic and numeric
    phases are put back on C after every phase of the twins' products, whatever they left there;
  - -mat_ellwarp_product_check checks every product on twins and every refresh of a twin's values against SeqAIJ on
    host copies (an error if they differ; -info prints the differences): for tests and diagnosis on the GPU.

  With the host backend products stay SeqAIJ's (on the matrices themselves, the result of type ellwarp), unless
  -mat_ellwarp_product_host_twin, which runs them on a MATSEQAIJ twin in the same way (the host twin of the mechanism,
  for tests). With the CUDA backend the device twins are used where an operand's DM has device vectors and none says
  otherwise (TwinType(), ProductTwinType()); -mat_ellwarp_product_device sets it either way. Blocks of MATMPIAIJELLWARP never use a twin:
  MPIAIJ's products read their host arrays.
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petscdm.h> /* MatGetDM(), DMGetVecType() */
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

#if PetscDefined(HAVE_CUDA)
/* Whether the vectors that solvers give A are device vectors: not where the DMPlex hook made A's MatCreateVecs() give
   host vectors (opt.hostvecs: the DM's vectors are host ones), else the vector type of A's DM where A has one
   (DMCreateMatrix()), else that of MatCreateVecs() -- which says nothing of the vectors a user makes himself:
   *known is then false (a weak answer, ProductTwinType()) */
static PetscErrorCode VectorsOnDevice(Mat A, PetscBool *dev, PetscBool *known)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  DM                 dm;
  VecType            vt;

  PetscFunctionBegin;
  *dev   = PETSC_FALSE;
  *known = PETSC_TRUE;
  if (ew->opt.hostvecs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetDM(A, &dm));
  if (dm) PetscCall(DMGetVecType(dm, &vt));
  else {
    vt     = A->defaultvectype;
    *known = PETSC_FALSE;
  }
  if (vt) PetscCall(PetscStrcmpAny(vt, dev, VECCUDA, VECSEQCUDA, VECMPICUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* The type of the twin the products of A run on; NULL: SeqAIJ's products on A itself, for the reason *why.
   -mat_ellwarp_product_device unset: the device twin when A's vectors are device vectors; *weak when that comes from
   MatCreateVecs() alone (A has no DM): a product then runs on the device only where another operand's vectors are
   known to be device vectors (ProductTwinType(); GAMG's prolongator, which has no DM, follows the operator's). The
   products' results are then MATSEQAIJCUSPARSE (GAMG's coarse operators and smoothed prolongators), whose MatMult()
   reads its vectors' device arrays without a type check in an optimised PETSc: given host vectors they compute with
   whatever those arrays hold (H100, 2026-11-28: GAMG 16 iterations where AIJ took 11, on host vectors; 11 on device
   vectors) */
static PetscErrorCode TwinType(Mat A, MatType *type, const char **why, PetscBool *weak)
{
  Mat_SeqAIJEllWarp *ew    = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          bound = PETSC_FALSE;

  PetscFunctionBegin;
  *type = NULL;
  *why  = NULL;
  *weak = PETSC_FALSE;
#if PetscDefined(HAVE_DEVICE) /* a PETSc without devices binds nothing (its MatBoundToCPU() says true) */
  bound = A->boundtocpu;
#endif
  if (ew->mpi_block) *why = "a block of an MPI matrix";
  else if (bound) *why = "bound to the CPU";
#if PetscDefined(HAVE_CUDA)
  else if (ew->opt.backend == MAT_ELLWARP_BACKEND_CUDA) {
    PetscBool dev = PETSC_FALSE, known = PETSC_TRUE;

    if (ew->product_device == PETSC_BOOL3_UNKNOWN) PetscCall(VectorsOnDevice(A, &dev, &known));
    if (ew->product_device == PETSC_BOOL3_TRUE || dev) *type = MATSEQAIJCUSPARSE;
    else *why = ew->product_device == PETSC_BOOL3_FALSE ? "-mat_ellwarp_product_device 0" : "the matrix's vectors are host vectors, which the device products' aijcusparse results cannot take; -mat_ellwarp_product_device forces them";
    *weak = (PetscBool)(*type && !known);
  }
#endif
  else if (ew->product_host_twin)
    *type = MATSEQAIJ;
  else *why = "host backend";
  PetscFunctionReturn(PETSC_SUCCESS);
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
  if (ew->product_check) { /* the twin's values (downloaded) against the matrix's host values (pulled back if needed) */
    const PetscScalar *tv, *aa;
    PetscReal          diff = 0, amax = 0;

    PetscCall(MatSeqAIJGetArrayRead(T, &tv));
    PetscCall(MatSeqAIJGetArrayRead(A, &aa));
    for (PetscInt k = 0; k < nnz; k++) {
      diff = PetscMax(diff, PetscAbsScalar(tv[k] - aa[k]));
      amax = PetscMax(amax, PetscAbsScalar(aa[k]));
    }
    PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    PetscCall(MatSeqAIJRestoreArrayRead(T, &tv));
    PetscCall(PetscInfo(A, "-mat_ellwarp_product_check: twin values refreshed %s: max difference %g from the host values (largest %g)\n", current ? "from the layout" : "from the host", (double)diff, (double)amax));
    PetscCheck(diff == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-mat_ellwarp_product_check: the twin's values (refreshed %s) differ from the matrix's by %g (largest value %g)", current ? "by a gather from the ELL-WARP layout" : "from the host values", (double)diff, (double)amax);
  }
  PetscCall(PetscInfo(A, "twin values refreshed %s\n", current ? (device ? "by a device gather from the ELL-WARP layout" : "from the ELL-WARP layout") : (device ? "by an upload of the host values" : "from the host values")));
  PetscCall(PetscLogEventEnd(MATELLWARP_TwinValues, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin of A with A's current values (A must have one: TwinType() not NULL) */
PetscErrorCode MatEllWarpGetTwin_Private(Mat A, Mat *twin)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  const char        *why;
  MatType            type;
  PetscObjectState   state;
  PetscBool          same = PETSC_FALSE, weak;

  PetscFunctionBegin;
  PetscCall(TwinType(A, &type, &why, &weak));
  PetscCheck(type, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No product twin: %s", why);
  if (ew->twin) PetscCall(PetscObjectTypeCompare((PetscObject)ew->twin, type, &same));
  if (ew->twin && (!same || ew->twin_nzstate != A->nonzerostate || ew->twin->rmap->n != A->rmap->n || ew->twin->cmap->n != A->cmap->n)) PetscCall(MatDestroy(&ew->twin));
  if (!ew->twin) PetscCall(TwinBuild(A, type));
  if (ew->product_device == PETSC_BOOL3_UNKNOWN) { /* the automatic rule chose the device */
    PetscBool aij;

    PetscCall(PetscStrcmp(type, MATSEQAIJ, &aij));
    if (!aij) ew->product_vecguard = PETSC_TRUE;
  }
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  if (ew->twin_state != state) PetscCall(TwinValues(A));
  *twin = ew->twin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* For PCGAMG type warp: A's aijcusparse twin (its CSR on the device, current values) when A's products run on the device
   by a decision that does not depend on the other operand (a DM of device vectors, or -mat_ellwarp_product_device);
   else NULL and why. A device prolongator built from the twin makes PCGAMG's coarse operators device matrices, which
   need device vectors: hence not on a weak (DM-less) decision */
PetscErrorCode MatEllWarpGetDeviceTwin_Private(Mat A, Mat *twin, const char **why)
{
  MatType   type;
  PetscBool weak, dev = PETSC_FALSE;

  PetscFunctionBegin;
  *twin = NULL;
  PetscCall(TwinType(A, &type, why, &weak));
  if (type) PetscCall(PetscStrcmp(type, MATSEQAIJCUSPARSE, &dev));
  if (dev && weak) *why = "no DM says where the vectors are (the products' rule then waits for the other operand)";
  else if (!dev && type) *why = "its products run on the host";
  if (dev && !weak) PetscCall(MatEllWarpGetTwin_Private(A, twin));
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
static PetscErrorCode OperandKind(Mat X, MatType *kind, const char **why, PetscBool *weak)
{
  PetscBool is;

  PetscFunctionBegin;
  *kind = NULL;
  *why  = "operand types";
  *weak = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJELLWARP, &is));
  if (is) {
    PetscCall(TwinType(X, kind, why, weak));
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

/*
  A product on the twins never lets PETSc's code swap C->product or reset C's product operations (PETSc's
  MatProductSymbolic_ABC_Basic() and MatProductNumeric_ABC_Basic(), matproduct.c, do both: after one numeric phase C's
  productnumeric is MatProductNumeric_ABC_Basic() again, which then reads our product data as its own -- the "Missing
  numeric stage" of MatPtAP(MAT_REUSE_MATRIX) on the H100). Every step is ours and explicit:

  - AB, AtB, ABt: one stage, C = op(tA) op(tB), run on C by the twins' own symbolic and numeric phases;
  - PtAP: D = tA tP (a product matrix of ours, AB), then the stage C = tP^T D (AtB);
  - RARt: D = tA tR^T (ABt), then the stage C = tR D (AB);
  (the two products of PETSc's aijcusparse PtAP and RARt). A stage runs with C->product's operands, type, algorithm
  and data replaced by the stage's (api_user off: the numeric phase always computes), and put back after; our
  symbolic and numeric operations are put back on C after every stage, whatever it left there.
*/
typedef struct {
  MatProductType type; /* C = op(A) op(B) */
  Mat            A, B; /* twins, or D (references) */
  PetscErrorCode (*numeric)(Mat);
  void              *data;
  PetscCtxDestroyFn *destroy;
} TwinStage;

typedef struct {
  Mat       tA, tB; /* the twins of product->A and product->B used by the last phase (references) */
  Mat       D;      /* PtAP and RARt: the first product, on the twins */
  TwinStage stage;  /* the product that computes C */
  char      ttype[64];
  PetscInt  nnumeric;
} TwinProduct;

static PetscErrorCode ProductSymbolic_Twin(Mat);
static PetscErrorCode ProductNumeric_Twin(Mat);

static PetscErrorCode TwinProductDestroy(PetscCtxRt ptr)
{
  TwinProduct *tp = *(TwinProduct **)ptr;

  PetscFunctionBegin;
  if (tp->stage.destroy) PetscCall((*tp->stage.destroy)(&tp->stage.data));
  PetscCall(MatDestroy(&tp->stage.A));
  PetscCall(MatDestroy(&tp->stage.B));
  PetscCall(MatDestroy(&tp->D));
  PetscCall(MatDestroy(&tp->tA));
  PetscCall(MatDestroy(&tp->tB));
  PetscCall(PetscFree(tp));
  *(TwinProduct **)ptr = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The stage's symbolic (symbolic) or numeric phase on C, with the stage standing in for C's product */
static PetscErrorCode StageRun(Mat C, TwinProduct *tp, PetscBool symbolic)
{
  Mat_Product       *product = C->product;
  Mat                A = product->A, B = product->B;
  MatProductType     type     = product->type;
  char              *alg      = product->alg;
  PetscBool          api_user = product->api_user;
  void              *data     = product->data;
  PetscCtxDestroyFn *destroy  = product->destroy;
  PetscErrorCode     ierr;
  PetscBool          unsupported = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(tp->stage.A && tp->stage.B, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the stage has no operands", MatProductTypes[type]);
  PetscCheck(symbolic || tp->stage.numeric, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: no numeric phase for the stage %s (symbolic phase not run?)", MatProductTypes[type], MatProductTypes[tp->stage.type]);
  PetscCheck(symbolic || (tp->stage.numeric != ProductNumeric_Twin), PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the stage's numeric phase is the twins' own", MatProductTypes[type]);
  product->A        = tp->stage.A;
  product->B        = tp->stage.B;
  product->type     = tp->stage.type;
  product->api_user = PETSC_FALSE; /* no values computed in the symbolic phase and skipped in the next numeric one */
  product->data     = tp->stage.data;
  product->destroy  = tp->stage.destroy;
  ierr              = PetscStrallocpy(MATPRODUCTALGORITHMDEFAULT, &product->alg); /* the stage's algorithm: its type's default */
  if (!ierr) {
    if (symbolic) {
      C->ops->productsymbolic = NULL;
      C->ops->productnumeric  = NULL;
      ierr                    = (*tp->stage.A->ops->productsetfromoptions)(C);
      if (!ierr && !C->ops->productsymbolic) unsupported = PETSC_TRUE;
      if (!ierr && !unsupported) ierr = (*C->ops->productsymbolic)(C);
      if (!ierr && !unsupported) tp->stage.numeric = C->ops->productnumeric;
    } else ierr = (*tp->stage.numeric)(C);
  }
  /* whatever the stage did, C's product is ours again */
  tp->stage.data    = product->data;
  tp->stage.destroy = product->destroy;
  if (product->alg != alg) PetscCall(PetscFree(product->alg));
  product->alg            = alg;
  product->A              = A;
  product->B              = B;
  product->type           = type;
  product->api_user       = api_user;
  product->data           = data;
  product->destroy        = destroy;
  C->ops->productsymbolic = ProductSymbolic_Twin;
  C->ops->productnumeric  = ProductNumeric_Twin;
  PetscCheck(C->product == product, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the stage %s replaced the product of C", MatProductTypes[type], MatProductTypes[tp->stage.type]);
  PetscCall(ierr);
  PetscCheck(!unsupported, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatProduct %s on twins: the stage %s is not supported by %s and %s", MatProductTypes[type], MatProductTypes[tp->stage.type], ((PetscObject)tp->stage.A)->type_name, ((PetscObject)tp->stage.B)->type_name);
  PetscCheck(!symbolic || tp->stage.numeric, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the symbolic phase of the stage %s set no numeric phase", MatProductTypes[type], MatProductTypes[tp->stage.type]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Puts the device twin's values on the device (the twins' products read them there): a twin whose current values are
   on the host only (created from host values and not refreshed since, as GAMG's prolongators: H100 2026-11-23, offload
   mask CPU at GAMG's first MatPtAP) is uploaded here, as cuSPARSE's own products would */
static PetscErrorCode TwinOnDevice(Mat T, const char *what)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  {
    PetscBool cusp;
    PetscCall(PetscObjectTypeCompare((PetscObject)T, MATSEQAIJCUSPARSE, &cusp));
    if (cusp) {
      PetscCheck(!T->boundtocpu, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The twin of %s is bound to the CPU", what);
      if (T->offloadmask == PETSC_OFFLOAD_CPU) {
        const PetscScalar *dv;
        PetscCall(MatSeqAIJCUSPARSEGetArrayRead(T, &dv)); /* copies the values to the device */
        PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(T, &dv));
      }
      PetscCheck(T->offloadmask == PETSC_OFFLOAD_GPU || T->offloadmask == PETSC_OFFLOAD_BOTH, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The values of the twin of %s are not on the device (offload mask %d) after their refresh", what, (int)T->offloadmask);
    }
  }
#else
  (void)T;
  (void)what;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether an ellwarp operand of C asked for -mat_ellwarp_product_check */
static PetscErrorCode ProductCheckAsked(Mat C, PetscBool *ask)
{
  Mat       X[2] = {C->product->A, C->product->B};
  PetscBool is;

  PetscFunctionBegin;
  *ask = PETSC_FALSE;
  for (int i = 0; i < 2; i++) {
    PetscCall(PetscObjectTypeCompare((PetscObject)X[i], MATSEQAIJELLWARP, &is));
    if (is && ((Mat_SeqAIJEllWarp *)X[i]->spptr)->product_check) *ask = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The number of nonzeros of a twin (its struct, not its row pointer: that of a replaced twin may be gone) */
static PetscErrorCode TwinNonzeros(Mat T, PetscLogDouble *nz)
{
  MatInfo info;

  PetscFunctionBegin;
  PetscCall(MatGetInfo(T, MAT_LOCAL, &info));
  *nz = info.nz_used;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether two twins have the same nonzero pattern (host row pointers and columns) */
static PetscErrorCode SamePattern(Mat S, Mat T, PetscBool *same)
{
  const PetscInt *si, *sj, *ti, *tj;
  PetscInt        sn, tn;
  PetscBool       sd, td;

  PetscFunctionBegin;
  *same = PETSC_FALSE;
  PetscCall(MatGetRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &sn, &si, &sj, &sd));
  PetscCall(MatGetRowIJ(T, 0, PETSC_FALSE, PETSC_FALSE, &tn, &ti, &tj, &td));
  if (sd && td && sn == tn) {
    PetscCall(PetscArraycmp(si, ti, sn + 1, same));
    if (*same) PetscCall(PetscArraycmp(sj, tj, si[sn], same));
  }
  PetscCall(MatRestoreRowIJ(S, 0, PETSC_FALSE, PETSC_FALSE, &sn, &si, &sj, &sd));
  PetscCall(MatRestoreRowIJ(T, 0, PETSC_FALSE, PETSC_FALSE, &tn, &ti, &tj, &td));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A MATSEQAIJ copy of X with its current values (host products of them are the reference) */
static PetscErrorCode HostCopy(Mat X, Mat *Y)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATSEQAIJ, &is));
  if (is) PetscCall(MatDuplicate(X, MAT_COPY_VALUES, Y));
  else PetscCall(MatConvert(X, MATSEQAIJ, MAT_INITIAL_MATRIX, Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_ellwarp_product_check: C against SeqAIJ's product of host copies of the operands (an error if they differ) */
static PetscErrorCode CheckProduct(Mat C)
{
  Mat_Product *product = C->product;
  Mat          hA, hB, ref, hC;
  PetscReal    nref, ndiff;

  PetscFunctionBegin;
  PetscCall(HostCopy(product->A, &hA));
  PetscCall(HostCopy(product->B, &hB));
  PetscCall(MatProductCreate(hA, hB, NULL, &ref));
  PetscCall(MatProductSetType(ref, product->type));
  PetscCall(MatProductSetFromOptions(ref));
  PetscCall(MatProductSymbolic(ref));
  PetscCall(MatProductNumeric(ref));
  PetscCall(HostCopy(C, &hC));
  PetscCall(MatNorm(ref, NORM_FROBENIUS, &nref));
  PetscCall(MatAXPY(hC, -1.0, ref, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(hC, NORM_FROBENIUS, &ndiff));
  PetscCall(PetscInfo(C, "-mat_ellwarp_product_check: MatProduct %s of %s and %s (result %s): relative difference %g from SeqAIJ's\n", MatProductTypes[product->type], ((PetscObject)product->A)->type_name, ((PetscObject)product->B)->type_name,
                      ((PetscObject)C)->type_name, (double)(nref > 0 ? ndiff / nref : ndiff)));
  PetscCheck(ndiff <= 1e-10 * nref, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-mat_ellwarp_product_check: MatProduct %s of %s and %s on twins differs from SeqAIJ's by %g (relative)", MatProductTypes[product->type], ((PetscObject)product->A)->type_name,
             ((PetscObject)product->B)->type_name, (double)(nref > 0 ? ndiff / nref : ndiff));
  PetscCall(MatDestroy(&hC));
  PetscCall(MatDestroy(&ref));
  PetscCall(MatDestroy(&hA));
  PetscCall(MatDestroy(&hB));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProductNumeric_Twin(Mat C)
{
  Mat_Product *product = C->product;
  TwinProduct *tp      = (TwinProduct *)product->data;
  Mat          tA, tB;
  PetscBool    check;

  PetscFunctionBegin;
  PetscCheck(tp && product->destroy == TwinProductDestroy, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s: missing the twins' product data (the product data of C was replaced)", MatProductTypes[product->type]);
  PetscCall(Operand(product->A, &tA)); /* refreshes the twins' values */
  PetscCall(Operand(product->B, &tB));
  PetscCall(TwinOnDevice(tA, "A"));
  PetscCall(TwinOnDevice(tB, "B"));
  if (tA != tp->tA || tB != tp->tB) { /* another matrix (MatProductReplaceMats()) or a new pattern */
    PetscCheck(!tp->D, PETSC_COMM_SELF, PETSC_ERR_SUP, "The operands of this %s changed matrix or nonzero pattern since its symbolic phase: compute it again with MAT_INITIAL_MATRIX", MatProductTypes[product->type]);
    PetscCheck(tA->rmap->n == tp->tA->rmap->n && tA->cmap->n == tp->tA->cmap->n && tB->rmap->n == tp->tB->rmap->n && tB->cmap->n == tp->tB->cmap->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Operands of other sizes than in the symbolic phase");
    {
      PetscLogDouble nz[4];
      PetscCall(TwinNonzeros(tA, &nz[0]));
      PetscCall(TwinNonzeros(tp->tA, &nz[1]));
      PetscCall(TwinNonzeros(tB, &nz[2]));
      PetscCall(TwinNonzeros(tp->tB, &nz[3]));
      PetscCheck(nz[0] == nz[1] && nz[2] == nz[3], PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "MatProduct %s: operands with other numbers of nonzeros than in the symbolic phase: compute it again with MAT_INITIAL_MATRIX", MatProductTypes[product->type]);
    }
    { /* the symbolic data (cuSPARSE's) holds for the old patterns only: the same counts are not enough */
      PetscBool sa, sb;
      PetscCall(SamePattern(tA, tp->tA, &sa));
      PetscCall(SamePattern(tB, tp->tB, &sb));
      PetscCheck(sa && sb, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "MatProduct %s: operands with other nonzero patterns than in the symbolic phase: compute it again with MAT_INITIAL_MATRIX", MatProductTypes[product->type]);
    }
    PetscCall(PetscInfo(C, "MatProduct %s: operands replaced since the symbolic phase, the numeric phase runs on their twins\n", MatProductTypes[product->type]));
    PetscCall(PetscObjectReference((PetscObject)tA));
    PetscCall(PetscObjectReference((PetscObject)tB));
    PetscCall(MatDestroy(&tp->tA));
    PetscCall(MatDestroy(&tp->tB));
    tp->tA = tA;
    tp->tB = tB;
    PetscCall(PetscObjectReference((PetscObject)tA));
    PetscCall(PetscObjectReference((PetscObject)tB));
    PetscCall(MatDestroy(&tp->stage.A));
    PetscCall(MatDestroy(&tp->stage.B));
    tp->stage.A = tA;
    tp->stage.B = tB;
  }
  if (tp->D) PetscCall(MatProductNumeric(tp->D));
  PetscCall(StageRun(C, tp, PETSC_FALSE));
  tp->nnumeric++;
  PetscCall(PetscInfo(C, "MatProduct %s: numeric phase %" PetscInt_FMT " on %s twins done%s\n", MatProductTypes[product->type], tp->nnumeric, tp->ttype, tp->D ? " (two products)" : ""));
  PetscCall(ProductCheckAsked(C, &check));
  if (check) PetscCall(CheckProduct(C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProductSymbolic_Twin(Mat C)
{
  Mat_Product *product = C->product;
  TwinProduct *tp;
  const char  *prefix;
  PetscBool    same;

  PetscFunctionBegin;
  PetscCheck(!product->data, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: product data not empty", MatProductTypes[product->type]);
  PetscCall(PetscNew(&tp));
  product->data    = tp; /* first: MatProductClear() frees it whatever happens below */
  product->destroy = TwinProductDestroy;
  PetscCall(Operand(product->A, &tp->tA));
  PetscCall(PetscObjectReference((PetscObject)tp->tA));
  PetscCall(Operand(product->B, &tp->tB));
  PetscCall(PetscObjectReference((PetscObject)tp->tB));
  PetscCall(TwinOnDevice(tp->tA, "A"));
  PetscCall(TwinOnDevice(tp->tB, "B"));
  PetscCall(PetscObjectTypeCompare((PetscObject)tp->tA, ((PetscObject)tp->tB)->type_name, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins of different types %s and %s", MatProductTypes[product->type], ((PetscObject)tp->tA)->type_name, ((PetscObject)tp->tB)->type_name);
  PetscCall(PetscStrncpy(tp->ttype, ((PetscObject)tp->tA)->type_name, sizeof(tp->ttype)));
  switch (product->type) {
  case MATPRODUCT_AB:
  case MATPRODUCT_AtB:
  case MATPRODUCT_ABt:
    tp->stage.type = product->type;
    tp->stage.A    = tp->tA;
    tp->stage.B    = tp->tB;
    break;
  case MATPRODUCT_PtAP:
  case MATPRODUCT_RARt: {
    PetscBool ptap = (PetscBool)(product->type == MATPRODUCT_PtAP);

    PetscCall(MatProductCreate(tp->tA, tp->tB, NULL, &tp->D));
    PetscCall(MatGetOptionsPrefix(C, &prefix));
    PetscCall(MatSetOptionsPrefix(tp->D, prefix));
    PetscCall(MatAppendOptionsPrefix(tp->D, "P1_"));
    PetscCall(MatProductSetType(tp->D, ptap ? MATPRODUCT_AB : MATPRODUCT_ABt));
    PetscCall(MatProductSetAlgorithm(tp->D, MATPRODUCTALGORITHMDEFAULT));
    PetscCall(MatProductSetFill(tp->D, product->fill));
    PetscCall(MatProductSetFromOptions(tp->D));
    PetscCheck(tp->D->ops->productsymbolic, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatProduct %s on twins: %s not supported by %s", MatProductTypes[product->type], ptap ? "AB" : "ABt", tp->ttype);
    PetscCall(MatProductSymbolic(tp->D));
    PetscCall(PetscObjectTypeCompare((PetscObject)tp->D, tp->ttype, &same));
    PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the first product is of type %s, not %s", MatProductTypes[product->type], ((PetscObject)tp->D)->type_name, tp->ttype);
    tp->stage.type = ptap ? MATPRODUCT_AtB : MATPRODUCT_AB; /* PtAP: P^T (A P); RARt: R (A R^T) */
    tp->stage.A    = tp->tB;
    tp->stage.B    = tp->D;
  } break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s not run on twins", MatProductTypes[product->type]);
  }
  PetscCall(PetscObjectReference((PetscObject)tp->stage.A));
  PetscCall(PetscObjectReference((PetscObject)tp->stage.B));
  PetscCall(StageRun(C, tp, PETSC_TRUE));
  PetscCall(PetscObjectTypeCompare((PetscObject)C, tp->ttype, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatProduct %s on twins: the result is of type %s, not %s", MatProductTypes[product->type], ((PetscObject)C)->type_name, tp->ttype);
  PetscCall(PetscInfo(C, "MatProduct %s: symbolic phase on %s twins (%s), %" PetscInt_FMT " x %" PetscInt_FMT " result\n", MatProductTypes[product->type], tp->ttype, tp->D ? (product->type == MATPRODUCT_PtAP ? "D = A P, then P^T D" : "D = A R^T, then R D") : "one product",
                      C->rmap->n, C->cmap->n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The twin type of the product (NULL: SeqAIJ's products on the operands themselves, for the reason *why) */
static PetscErrorCode ProductTwinType(Mat C, MatType *type, const char **why)
{
  Mat_Product *product = C->product;
  MatType      ka, kb;
  const char  *wa, *wb;
  PetscBool    same, weaka, weakb;

  PetscFunctionBegin;
  *type = NULL;
  *why  = "product type";
  if (product->type != MATPRODUCT_AB && product->type != MATPRODUCT_AtB && product->type != MATPRODUCT_ABt && product->type != MATPRODUCT_PtAP && product->type != MATPRODUCT_RARt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(OperandKind(product->A, &ka, &wa, &weaka));
  PetscCall(OperandKind(product->B, &kb, &wb, &weakb));
  *why = !ka ? wa : wb;
  if (!ka || !kb) PetscFunctionReturn(PETSC_SUCCESS);
  *why = "no operand has a DM of device vectors (-mat_ellwarp_product_device forces the device twins)";
  if (weaka && weakb) PetscFunctionReturn(PETSC_SUCCESS); /* MatCreateVecs() alone does not tell the solver's vectors */
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

/* MatCreateGraph() (PCGAMG's strength graph) on the twin where the products run on one (not on the weak answer of a
   matrix without a DM, TwinType()): with the device twin the
   graph's operations (duplicate, transpose, sum, diagonal scaling) then run on the aijcusparse twin as on PETSc's own
   aijcusparse, instead of SeqAIJ's host code on a copy of the matrix pulled from the layout (H100, heat P1 at 1.95 M
   unknowns: 1.38 s against sharednz's 0.53 s, with a row-by-row MatAXPY() of the transpose), and the graph is
   aijcusparse; the host twin (tests) gives SeqAIJ's graph of the twin. Without a twin, the parent's */
PetscErrorCode MatCreateGraph_SeqAIJEllWarp(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, PetscInt nidx, PetscInt idx[], Mat *G)
{
  MatType     type;
  const char *why;
  PetscBool   weak;

  PetscFunctionBegin;
  PetscCall(TwinType(A, &type, &why, &weak));
  if (type && !weak) {
    Mat T;

    PetscCall(MatEllWarpGetTwin_Private(A, &T));
    PetscCall(MatPropagateSymmetryOptions(A, T)); /* a symmetric matrix's graph needs no transpose */
    PetscCall(PetscInfo(A, "MatCreateGraph() on the %s twin\n", type));
    PetscCall(MatCreateGraph(T, sym, scale, filter, nidx, idx, G));
    if (*G == T) { /* the graph is the matrix itself (no symmetrization, scaling or filtering): a copy, since the twin
                      shares the matrix's row pointer and columns and is refreshed in place */
      PetscCall(MatDestroy(G));
      PetscCall(MatDuplicate(T, MAT_COPY_VALUES, G));
    }
  } else PetscCall((*((Mat_SeqAIJEllWarp *)A->spptr)->parent.creategraph)(A, sym, scale, filter, nidx, idx, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With the device products chosen by the automatic rule (A's vectors were device vectors), a host vector given to A's
   MatMult() and friends means that the solver's vectors are host ones, which the products' aijcusparse results (e.g.
   PCGAMG's coarse operators and prolongators) would read as device arrays: refused with the remedies */
PetscErrorCode MatEllWarpProductCheckVecs_Private(Mat A, Vec x, Vec y, Vec z)
{
  Vec       v[3] = {x, y, z};
  PetscBool dev;

  PetscFunctionBegin;
  for (int i = 0; i < 3; i++) {
    if (!v[i]) continue;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)v[i], &dev, VECSEQCUDA, VECMPICUDA, ""));
    PetscCheck(dev, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "A host vector (type %s) given to a %s matrix whose products (MatPtAP(), MatMatMult(); PCGAMG's set-up) ran on the device because a DM (its own or another operand's) has device vectors: their %s results (e.g. PCGAMG's coarse operators) read device arrays and cannot take host vectors. Give the solver device vectors (MatCreateVecs(), -dm_vec_type cuda) or keep the products on the host (-mat_ellwarp_product_device 0)",
               ((PetscObject)v[i])->type_name, ((PetscObject)A)->type_name, MATSEQAIJCUSPARSE);
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
  PetscCall(PetscOptionsBool3("-mat_ellwarp_product_device", "Matrix products (MatMatMult, MatPtAP, ...; PCGAMG's set-up) on the device through an aijcusparse twin (CUDA backend; default: when an operand's DM has device vectors)", "MATSEQAIJELLWARP", PetscBool3ToBool(ew->product_device), &ew->product_device, NULL));
  PetscCall(PetscOptionsBool("-mat_ellwarp_product_check", "Check every product on twins (and every refresh of a twin's values) against SeqAIJ's on host copies (slow; for tests and diagnosis)", "MATSEQAIJELLWARP", ew->product_check, &ew->product_check, NULL));
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
  MatType            type;
  PetscBool          weak;

  PetscFunctionBegin;
  PetscCall(TwinType(A, &type, &why, &weak));
  if (!type) PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP products: SeqAIJ's, on the host (%s)\n", why));
  else if (weak && !ew->twin)
    PetscCall(PetscViewerASCIIPrintf(viewer, "ELL-WARP products: on a %s twin where another operand has a DM of device vectors, else SeqAIJ's on the host (the matrix has no DM; -mat_ellwarp_product_device forces the twin)\n", type));
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
