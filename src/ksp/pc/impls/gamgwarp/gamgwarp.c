/*
  PCGAMGWARP ("warp"): a PCGAMG type whose set-up runs where the operator's values are. PCGAMGAGG builds its strength
  graph, its coarsening (maximal independent sets on a squared graph) and its tentative prolongator on the host, also
  for a device matrix: on an H100/H200 that is about 2 s of the 2.3-3.4 s of a heat P1 problem of 1.95 M unknowns
  (bench/RESULTS.md, 2026-11-28). This type computes the same kind of hierarchy (smoothed aggregation, one smoothing
  step of the prolongator with PCGAMGAGG's damping 1.4 / emax(D^-1 A)) with kernels on the device
  (src/kernels/gamgwarp.cu; the algorithm in include/petscwarp/private/gamgwarpkernels.h) and hands PCGAMG the
  prolongator; the coarse operators are D = A P, then P^T D (cuSPARSE on the device), and PCGAMG forms the smoothers and
  the coarse solver as for PCGAMGAGG. The aggregates are not PCGAMGAGG's, so iteration counts differ from it.

  Block operators (block size bs > 1, e.g. elasticity, or several near-null vectors): the aggregation runs on the node
  graph (the Frobenius norms of the bs x bs blocks; PCGAMGAGG's graph sums |a_ij| over a block, so a given
  -pc_gamg_threshold selects differently), the tentative prolongator is the QR of each aggregate's block of
  near-null vectors (Householder, as PCGAMGAGG's LAPACK QR), and the smoothing uses PETSc's products (A P0 on the
  device for device matrices), as PCGAMGAGG does.

  Scope: one MPI rank, block sizes up to 16 and up to 16 near-null vectors (MatSetNearNullSpace(), else the constant of
  each component), AIJ storage with 32-bit indices: MATSEQAIJ (host kernels), MATSEQAIJCUSPARSE
  and MATSHAREDNZ (device), MATSEQAIJELLWARP (device when its products run on the device, on its aijcusparse twin).
*/
#include <petscwarp.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/gamgwarpkernels.h>
#include <petsc/private/pcgamgimpl.h>
#include <petsc/private/kspimpl.h>
#include <petsc/private/matimpl.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

PETSC_INTERN PetscLogEvent PCGAMGWARP_Aggregate, PCGAMGWARP_Prolongator, PCGAMGWARP_Galerkin, PCGAMGWARP_EigEst, PCGAMGWARP_ProlMat, PCGAMGWARP_Smooth;

typedef struct {
  PetscInt         nsmooths;
  PetscBool        check; /* -pc_gamg_warp_check: the device's results against the host twin's */
  int             *agg;   /* the current level's aggregates: device (agg_dev) or host memory */
  PetscBool        agg_dev;
  PetscInt         nagg;
  PetscInt         nlevels; /* levels set up (for PCView) */
  PetscWarpAMGInfo info[PETSC_MG_MAXLEVELS];
  PetscBool        dev[PETSC_MG_MAXLEVELS];
  PetscInt         bs[PETSC_MG_MAXLEVELS], nv[PETSC_MG_MAXLEVELS];
  PetscLogDouble   nnzp[PETSC_MG_MAXLEVELS];
} PC_GAMG_Warp;

/* A level operator's CSR arrays: device arrays of its aijcusparse storage (or of an ellwarp matrix's device twin), else
   host arrays */
typedef struct {
  Mat                M; /* the matrix whose arrays these are */
  PetscBool          dev;
  const int         *i, *j;
  const PetscScalar *a;
  PetscInt           n;
} LevelCSR;

static PetscErrorCode LevelCSRGet(PC pc, Mat A, LevelCSR *C)
{
  MatType   type;
  PetscBool seqaij, cusp = PETSC_FALSE, ew, bound = PETSC_FALSE;
  PetscInt  m, n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(C, sizeof(*C)));
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCheck(m == n, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "PCGAMG type %s needs a square operator, not %" PetscInt_FMT " x %" PetscInt_FMT, PCGAMGWARP, m, n);
  PetscCall(MatGetType(A, &type));
  PetscCall(PetscStrbeginswith(type, MATSEQAIJ, &seqaij));
  PetscCheck(seqaij, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s needs a %s, %s or %s operator on one MPI rank, not %s; use -pc_gamg_type agg", PCGAMGWARP, MATSEQAIJ, MATSEQAIJCUSPARSE, MATSEQAIJELLWARP, type);
  C->M = A;
  C->n = m;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJELLWARP, &ew));
#if PetscDefined(HAVE_CUDA)
  if (ew) {
    Mat         T;
    const char *why;

    PetscCall(MatEllWarpGetDeviceTwin_Private(A, &T, &why));
    if (T) C->M = T;
    else PetscCall(PetscInfo(pc, "%s: level operator %s on the host: %s\n", PCGAMGWARP, type, why));
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)C->M, MATSEQAIJCUSPARSE, &cusp));
  if (cusp) PetscCall(MatBoundToCPU(C->M, &bound));
#endif
  C->dev = (PetscBool)(cusp && !bound);
#if PetscDefined(HAVE_CUDA)
  if (C->dev) {
    PetscCall(MatSeqAIJCUSPARSEGetIJ(C->M, PETSC_FALSE, &C->i, &C->j));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(C->M, &C->a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  {
    const PetscInt *ii, *jj;
    PetscInt        nr;
    PetscBool       done;

    PetscCall(MatGetRowIJ(C->M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ii, &jj, &done));
    PetscCheck(done, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s: no row structure of a %s matrix", PCGAMGWARP, type);
    C->i = (const int *)ii;
    C->j = (const int *)jj;
    PetscCall(MatSeqAIJGetArrayRead(C->M, &C->a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LevelCSRRestore(LevelCSR *C)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (C->dev) {
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(C->M, &C->a));
    PetscCall(MatSeqAIJCUSPARSERestoreIJ(C->M, PETSC_FALSE, &C->i, &C->j));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  {
    const PetscInt *ii = (const PetscInt *)C->i, *jj = (const PetscInt *)C->j;
    PetscInt        nr;
    PetscBool       done;

    PetscCall(MatSeqAIJRestoreArrayRead(C->M, &C->a));
    PetscCall(MatRestoreRowIJ(C->M, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ii, &jj, &done));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
/* -pc_gamg_warp_check: a host copy of a device level operator's CSR arrays */
static PetscErrorCode DownloadCSR(const LevelCSR *C, int **i, int **j, double **a)
{
  int n = (int)C->n, nnz;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, i));
  PetscCallCUDA(cudaMemcpy(*i, C->i, sizeof(int) * (n + 1), cudaMemcpyDeviceToHost));
  nnz = (*i)[n];
  PetscCall(PetscMalloc2(PetscMax(nnz, 1), j, PetscMax(nnz, 1), a));
  PetscCallCUDA(cudaMemcpy(*j, C->j, sizeof(int) * nnz, cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaMemcpy(*a, C->a, sizeof(double) * nnz, cudaMemcpyDeviceToHost));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* A kernel's error code as a PETSc error */
static PetscErrorCode KernelCheck(PC pc, int err, const PetscWarpAMGInfo *info, const char *what)
{
  MPI_Comm comm = PetscObjectComm((PetscObject)pc);

  PetscFunctionBegin;
  if (!err) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(err != PETSCWARP_AMG_ERR_MEM, comm, PETSC_ERR_MEM, "PCGAMG type %s: out of memory in the %s", PCGAMGWARP, what);
  PetscCheck(err != PETSCWARP_AMG_ERR_DIAG, comm, PETSC_ERR_ARG_WRONG, "PCGAMG type %s: zero or missing diagonal entry in row %d of a level operator (smoothed aggregation divides by it)", PCGAMGWARP, info->bad);
  PetscCheck(err != PETSCWARP_AMG_ERR_INDEX, comm, PETSC_ERR_ARG_OUTOFRANGE, "PCGAMG type %s: a column index out of range in row %d of a level operator", PCGAMGWARP, info->bad);
  PetscCheck(err != PETSCWARP_AMG_ERR_ROUND, comm, PETSC_ERR_PLIB, "PCGAMG type %s: the root selection did not finish", PCGAMGWARP);
  PetscCheck(err != PETSCWARP_AMG_ERR_BS, comm, PETSC_ERR_SUP, "PCGAMG type %s: block size outside 1 to %d or not dividing the rows", PCGAMGWARP, PETSCWARP_AMG_MAXBS);
  SETERRQ(comm, PETSC_ERR_GPU, "PCGAMG type %s: CUDA error %d (%s) in the %s", PCGAMGWARP, err,
#if PetscDefined(HAVE_CUDA)
          cudaGetErrorString((cudaError_t)err),
#else
          "no CUDA",
#endif
          what);
}

static PetscErrorCode FreeAggregates(PC_GAMG_Warp *w)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (w->agg && w->agg_dev) PetscCallCUDA(cudaFree(w->agg));
#endif
  if (w->agg && !w->agg_dev) PetscCall(PetscFree(w->agg));
  w->agg  = NULL;
  w->nagg = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What this type supports, checked on every level of every set-up (a later set-up may skip createdefaultdata: cached
   data) */
static PetscErrorCode CheckSupported(PC pc, Mat A)
{
  PC_MG      *mg      = (PC_MG *)pc->data;
  PC_GAMG    *pc_gamg = (PC_GAMG *)mg->innerctx;
  PetscInt    bs;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s runs on one MPI rank (this communicator has %d); use -pc_gamg_type agg", PCGAMGWARP, size);
  PetscCheck(!PetscDefined(USE_64BIT_INDICES), PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s needs a PETSc with 32-bit indices", PCGAMGWARP);
  PetscCheck(!PetscDefined(USE_COMPLEX) && !PetscDefined(USE_REAL_SINGLE), PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s needs real double-precision scalars", PCGAMGWARP);
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCheck(bs >= 1 && bs <= PETSCWARP_AMG_MAXBS && A->rmap->n % bs == 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s supports block sizes 1 to %d dividing the rows, not %" PetscInt_FMT " for %" PetscInt_FMT " rows; use -pc_gamg_type agg", PCGAMGWARP, PETSCWARP_AMG_MAXBS, bs,
             A->rmap->n);
  PetscCheck(!pc_gamg->use_aggs_in_asm && !pc_gamg->asm_hem_aggs, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s does not give its aggregates to PCASM (-pc_gamg_asm_use_agg, -pc_gamg_asm_hem_aggs)", PCGAMGWARP);
  PetscCheck(!pc_gamg->injection_index_size, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s has no injection prolongation (-pc_gamg_injection_index)", PCGAMGWARP);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The near-null vector: the constant, or the single vector of the operator's near null space */
static PetscErrorCode PCSetData_GAMGWarp(PC pc, Mat A)
{
  PC_MG       *mg      = (PC_MG *)pc->data;
  PC_GAMG     *pc_gamg = (PC_GAMG *)mg->innerctx;
  MatNullSpace mnull;
  PetscInt     n, bs, nv, nvec = 0;
  PetscBool    has_const = PETSC_TRUE;
  const Vec   *vecs      = NULL;

  PetscFunctionBegin;
  PetscCall(CheckSupported(pc, A));
  PetscCall(MatGetBlockSize(A, &bs));
  PetscCall(MatGetLocalSize(A, &n, NULL));
  PetscCall(MatGetNearNullSpace(A, &mnull));
  if (mnull) PetscCall(MatNullSpaceGetVecs(mnull, &has_const, &nvec, &vecs));
  nv = mnull ? (has_const ? 1 : 0) + nvec : bs; /* without a near null space: the constant of each component */
  PetscCheck(nv >= 1 && nv <= PETSCWARP_AMG_MAXBS, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s supports 1 to %d near-null vectors, not %" PetscInt_FMT "; use -pc_gamg_type agg", PCGAMGWARP, PETSCWARP_AMG_MAXBS, nv);
  PetscCheck((PetscInt64)n * nv < PETSC_INT_MAX, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s: %" PetscInt_FMT " rows times %" PetscInt_FMT " near-null vectors exceed 32-bit indices", PCGAMGWARP, n, nv);
  for (PetscInt k = 0; k < nvec; k++) {
    PetscInt vn;
    PetscCall(VecGetLocalSize(vecs[k], &vn));
    PetscCheck(vn == n, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "PCGAMG type %s: near-null vector %" PetscInt_FMT " has %" PetscInt_FMT " entries for %" PetscInt_FMT " rows", PCGAMGWARP, k, vn, n);
  }
  PetscCall(PetscFree(pc_gamg->data));
  PetscCall(PetscMalloc1(PetscMax(n * nv, 1), &pc_gamg->data)); /* column-major, stride n (PCGAMGAGG's layout) */
  if (!mnull)
    for (PetscInt c = 0; c < nv; c++)
      for (PetscInt i = 0; i < n; i++) pc_gamg->data[c * n + i] = (i % bs == c) ? 1.0 : 0.0;
  else {
    PetscInt c = 0;
    if (has_const) {
      for (PetscInt i = 0; i < n; i++) pc_gamg->data[i] = 1.0;
      c = 1;
    }
    for (PetscInt k = 0; k < nvec; k++, c++) {
      const PetscScalar *v;
      PetscCall(VecGetArrayRead(vecs[k], &v));
      for (PetscInt i = 0; i < n; i++) pc_gamg->data[c * n + i] = PetscRealPart(v[i]);
      PetscCall(VecRestoreArrayRead(vecs[k], &v));
    }
  }
  pc_gamg->data_sz        = n * nv;
  pc_gamg->data_cell_rows = bs;
  pc_gamg->data_cell_cols = nv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The graph is the operator itself: the strength test runs inside the aggregation kernels */
static PetscErrorCode PCGAMGCreateGraph_Warp(PC pc, Mat A, Mat *G)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)A));
  *G = A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The aggregates, kept in the type's context; PCGAMG gets an empty PetscCoarsenData (its lists are not used) */
static PetscErrorCode PCGAMGCoarsen_Warp(PC pc, Mat *G, PetscCoarsenData **agg_lists)
{
  PC_MG            *mg      = (PC_MG *)pc->data;
  PC_GAMG          *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp     *w       = (PC_GAMG_Warp *)pc_gamg->subctx;
  PetscInt          level   = pc_gamg->current_level;
  PetscReal         theta   = pc_gamg->threshold[level];
  PetscWarpAMGInfo *info    = &w->info[level];
  LevelCSR          C;
  PetscInt          bs, N;
  int               err;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PCGAMGWARP_Aggregate, pc, *G, 0, 0));
  PetscCall(CheckSupported(pc, *G)); /* every level: a coarse level's block size is the number of near-null vectors */
  if (level == 0) w->nlevels = 0;    /* a new hierarchy (PCView lists its levels) */
  PetscCall(FreeAggregates(w));
  PetscCall(MatGetBlockSize(*G, &bs));
  PetscCall(LevelCSRGet(pc, *G, &C));
  N             = C.n / bs; /* nodes: the aggregation runs on the node graph (block norms) when bs > 1 */
  w->dev[level] = C.dev;
  w->agg_dev    = C.dev;
  w->bs[level]  = bs;
#if PetscDefined(HAVE_CUDA)
  if (C.dev) {
    cudaStream_t st;

    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA(cudaMalloc((void **)&w->agg, sizeof(int) * PetscMax(N, 1)));
    PetscCall(PetscLogGpuTimeBegin());
    err = PetscWarpAMGAggregateBlocksCUDA((int)C.n, (int)bs, C.i, C.j, C.a, (double)theta, w->agg, info, st);
    PetscCall(PetscLogGpuTimeEnd());
    if (!err && w->check) { /* the host twin on a copy of the operator: the same aggregates */
      int             *hi, *hj, *hagg, *dagg, herr;
      double          *ha;
      PetscWarpAMGInfo hinfo;

      PetscCall(DownloadCSR(&C, &hi, &hj, &ha));
      PetscCall(PetscMalloc2(PetscMax(N, 1), &hagg, PetscMax(N, 1), &dagg));
      PetscCallCUDA(cudaMemcpy(dagg, w->agg, sizeof(int) * N, cudaMemcpyDeviceToHost));
      PetscInt badrow = -1, dv = 0, hv = 0;

      herr = PetscWarpAMGAggregateBlocksHost((int)C.n, (int)bs, hi, hj, ha, (double)theta, hagg, &hinfo);
      for (PetscInt r = 0; r < N && !herr && badrow < 0; r++)
        if (hagg[r] != dagg[r]) badrow = r, dv = dagg[r], hv = hagg[r];
      PetscCall(PetscFree2(hagg, dagg)); /* freed before any error below */
      PetscCall(PetscFree2(hj, ha));
      PetscCall(PetscFree(hi));
      PetscCall(KernelCheck(pc, herr, &hinfo, "aggregation (host twin)"));
      PetscCheck(hinfo.nagg == info->nagg && hinfo.rounds == info->rounds && hinfo.nstrong == info->nstrong, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-pc_gamg_warp_check: level %" PetscInt_FMT ": the device found %d aggregates in %d rounds (%lld strong connections), the host twin %d in %d (%lld)", level,
                 info->nagg, info->rounds, info->nstrong, hinfo.nagg, hinfo.rounds, hinfo.nstrong);
      PetscCheck(badrow < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-pc_gamg_warp_check: level %" PetscInt_FMT ": row %" PetscInt_FMT " in aggregate %" PetscInt_FMT " on the device, %" PetscInt_FMT " on the host", level, badrow, dv, hv);
      PetscCall(PetscInfo(pc, "-pc_gamg_warp_check: level %" PetscInt_FMT ": the device's aggregates are the host twin's\n", level));
    }
  } else
#endif
  {
    PetscCall(PetscMalloc1(PetscMax(N, 1), &w->agg));
    err = PetscWarpAMGAggregateBlocksHost((int)C.n, (int)bs, C.i, C.j, C.a, (double)theta, w->agg, info);
  }
  PetscCall(LevelCSRRestore(&C));
  PetscCall(KernelCheck(pc, err, info, "aggregation"));
  w->nagg    = info->nagg;
  w->nlevels = PetscMax(w->nlevels, level + 1);
  PetscCall(PetscInfo(pc, "%s: level %" PetscInt_FMT " on the %s: %" PetscInt_FMT " nodes, %lld strong connections (threshold %g), %d rows without one, %d rounds of root selection, %d aggregates (%d formed by a leftover node)\n",
                      ((PetscObject)pc)->prefix ? ((PetscObject)pc)->prefix : "", level, C.dev ? "device" : "host", N, info->nstrong, (double)theta, info->nisolated, info->rounds, info->nagg, info->nleft));
  PetscCall(PetscCDCreate(0, agg_lists));
  PetscCall(PetscLogEventEnd(PCGAMGWARP_Aggregate, pc, *G, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* emax of D^-1 A: PCGAMGAGG's estimate (10 iterations of CG, or GMRES, with Jacobi; -pc_gamg_esteig_ options), or the
   one given by PCGAMGSetEigenvalues() */
static PetscErrorCode EstimateEmax(PC pc, Mat A, PetscReal *emax, PetscReal *emin)
{
  PC_MG   *mg      = (PC_MG *)pc->data;
  PC_GAMG *pc_gamg = (PC_GAMG *)mg->innerctx;
  KSP      eksp;
  PC       epc;
  Vec      bb, xx;

  PetscFunctionBegin;
  if (pc_gamg->emax > 0) {
    *emin = pc_gamg->emin;
    *emax = pc_gamg->emax;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatCreateVecs(A, &bb, &xx));
  PetscCall(KSPSetNoisy_Private(A, bb));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)pc), &eksp));
  PetscCall(KSPSetNestLevel(eksp, pc->kspnestlevel));
  {
    const char *prefix;
    PetscBool   isset, spd;

    PetscCall(PCGetOptionsPrefix(pc, &prefix));
    PetscCall(KSPSetOptionsPrefix(eksp, prefix));
    PetscCall(KSPAppendOptionsPrefix(eksp, "pc_gamg_esteig_"));
    PetscCall(MatIsSPDKnown(A, &isset, &spd));
    if (isset && spd) PetscCall(KSPSetType(eksp, KSPCG));
  }
  PetscCall(KSPSetErrorIfNotConverged(eksp, pc->erroriffailure));
  PetscCall(KSPSetNormType(eksp, KSP_NORM_NONE));
  PetscCall(KSPSetInitialGuessNonzero(eksp, PETSC_FALSE));
  PetscCall(KSPSetOperators(eksp, A, A));
  PetscCall(KSPGetPC(eksp, &epc));
  PetscCall(PCSetType(epc, PCJACOBI));
  PetscCall(KSPSetTolerances(eksp, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT, 10));
  PetscCall(KSPSetFromOptions(eksp));
  PetscCall(KSPSetComputeSingularValues(eksp, PETSC_TRUE));
  PetscCall(KSPSolve(eksp, bb, xx));
  PetscCall(KSPCheckSolve(eksp, pc, xx));
  PetscCall(KSPComputeExtremeSingularValues(eksp, emax, emin));
  PetscCall(KSPDestroy(&eksp));
  PetscCall(VecDestroy(&xx));
  PetscCall(VecDestroy(&bb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeProlArrays(PetscCtxRt ctx)
{
  PetscWarpAMGProl *P = *(PetscWarpAMGProl **)ctx;

  PetscFunctionBegin;
  PetscWarpAMGProlFree(P);
  PetscCall(PetscFree(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The smoothed prolongator from the aggregates (NULL when the level does not coarsen); the coarse near-null vector
   replaces pc_gamg->data */
static PetscErrorCode PCGAMGProlongator_Warp(PC pc, Mat A, PetscCoarsenData *agg_lists, Mat *Pout)
{
  PC_MG            *mg      = (PC_MG *)pc->data;
  PC_GAMG          *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp     *w       = (PC_GAMG_Warp *)pc_gamg->subctx;
  PetscInt          level   = pc_gamg->current_level;
  PetscWarpAMGInfo *info    = &w->info[level];
  PetscWarpAMGProl *P;
  PetscReal         emax = 0, emin = 0, alpha = 0;
  LevelCSR          C;
  Mat               Prol;
  PetscInt          bs = w->bs[level], nv = pc_gamg->data_cell_cols, N;
  PetscBool         block;
  int               err;

  PetscFunctionBegin;
  (void)agg_lists;
  *Pout = NULL;
  PetscCheck(w->agg, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No aggregates");
  PetscCheck(pc_gamg->data && nv >= 1 && pc_gamg->data_sz == A->rmap->n * nv, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Near-null vectors of %" PetscInt_FMT " entries (%" PetscInt_FMT " columns) for %" PetscInt_FMT " rows", pc_gamg->data_sz, nv, A->rmap->n);
  N            = A->rmap->n / bs;
  block        = (PetscBool)(bs > 1 || nv > 1); /* QR of blocks, then PETSc's products for the smoothing */
  w->nv[level] = nv;
  if (w->nagg == 0 || w->nagg * nv >= A->rmap->n) { /* nothing to coarsen: PCGAMG stops here */
    PetscCall(PetscInfo(pc, "%s: level %" PetscInt_FMT ": %" PetscInt_FMT " aggregates for %" PetscInt_FMT " rows, no coarser level\n", PCGAMGWARP, level, w->nagg, A->rmap->n));
    PetscCall(FreeAggregates(w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(PCGAMGWARP_Prolongator, pc, A, 0, 0));
  if (w->nsmooths > 0) {
    PetscCall(PetscLogEventBegin(PCGAMGWARP_EigEst, pc, A, 0, 0));
    PetscCall(EstimateEmax(pc, A, &emax, &emin));
    PetscCall(PetscLogEventEnd(PCGAMGWARP_EigEst, pc, A, 0, 0));
    PetscCheck(emax > 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_CONV_FAILED, "PCGAMG type %s: estimated largest eigenvalue of D^-1 A is %g on level %" PetscInt_FMT, PCGAMGWARP, (double)emax, level);
    alpha = 1.4 / emax;
  }
  mg->min_eigen_DinvA[level] = pc_gamg->use_sa_esteig && w->nsmooths > 0 ? emin : 0;
  mg->max_eigen_DinvA[level] = pc_gamg->use_sa_esteig && w->nsmooths > 0 ? emax : 0;
  PetscCall(LevelCSRGet(pc, A, &C));
  PetscCheck(C.dev == w->agg_dev, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Aggregates on the %s for an operator on the %s", w->agg_dev ? "device" : "host", C.dev ? "device" : "host");
#if PetscDefined(HAVE_CUDA)
  if (C.dev) {
    cudaStream_t st;
    double      *db;

    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA(cudaMalloc((void **)&db, sizeof(double) * C.n * nv));
    PetscCall(PetscNew(&P)); /* after the allocations that may fail: nothing to free on their errors */
    PetscCallCUDA(cudaMemcpyAsync(db, pc_gamg->data, sizeof(double) * C.n * nv, cudaMemcpyHostToDevice, st));
    PetscCall(PetscLogCpuToGpu(sizeof(double) * (PetscLogDouble)C.n * nv));
    PetscCall(PetscLogGpuTimeBegin());
    if (block) err = PetscWarpAMGTentativeCUDA((int)N, (int)bs, (int)nv, w->agg, (int)w->nagg, db, P, st);
    else err = PetscWarpAMGProlongatorCUDA((int)C.n, C.i, C.j, C.a, w->agg, (int)w->nagg, db, (double)alpha, P, info, st);
    PetscCall(PetscLogGpuTimeEnd());
    PetscCallCUDA(cudaFree(db));
    if (!err && w->check) { /* the host twin on copies of the operator and the aggregates: the same prolongator */
      int             *hi, *hj, *hagg, herr;
      double          *ha, dmax = 0, vmax = 0;
      PetscWarpAMGProl H;
      PetscWarpAMGInfo hinfo;

      if (!block) PetscCall(DownloadCSR(&C, &hi, &hj, &ha));
      else hi = hj = NULL, ha = NULL;
      PetscCall(PetscMalloc1(PetscMax(N, 1), &hagg));
      PetscCallCUDA(cudaMemcpy(hagg, w->agg, sizeof(int) * N, cudaMemcpyDeviceToHost));
      hinfo.bad = -1;
      if (block) herr = PetscWarpAMGTentativeHost((int)N, (int)bs, (int)nv, hagg, (int)w->nagg, pc_gamg->data, &H);
      else herr = PetscWarpAMGProlongatorHost((int)C.n, hi, hj, ha, hagg, (int)w->nagg, pc_gamg->data, (double)alpha, &H, &hinfo);
      PetscCall(PetscFree(hagg));
      if (!block) {
        PetscCall(PetscFree2(hj, ha));
        PetscCall(PetscFree(hi));
      }
      if (!herr) {
        PetscBool same = (PetscBool)(H.nnz == P->nnz);

        for (PetscInt r = 0; same && r <= C.n; r++) same = (PetscBool)(H.i[r] == P->i[r]);
        for (long long q = 0; same && q < H.nnz; q++) {
          same = (PetscBool)(H.j[q] == P->j[q]);
          dmax = PetscMax(dmax, PetscAbsReal(H.v[q] - P->v[q]));
          vmax = PetscMax(vmax, PetscAbsReal(H.v[q]));
        }
        PetscWarpAMGProlFree(&H); /* freed before any error below */
        PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-pc_gamg_warp_check: level %" PetscInt_FMT ": the device's prolongator pattern differs from the host twin's", level);
        PetscCheck(dmax <= 1e-12 * vmax, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-pc_gamg_warp_check: level %" PetscInt_FMT ": prolongator values differ by %g (largest %g)", level, dmax, vmax);
        PetscCall(PetscInfo(pc, "-pc_gamg_warp_check: level %" PetscInt_FMT ": the device's prolongator is the host twin's (values within %g of %g)\n", level, dmax, vmax));
      }
      PetscCall(KernelCheck(pc, herr, &hinfo, "prolongator (host twin)"));
    }
    if (!err) PetscCall(PetscLogGpuToCpu((sizeof(int) + sizeof(double)) * (PetscLogDouble)P->nnz + sizeof(int) * (C.n + 1.0) + sizeof(double) * (PetscLogDouble)w->nagg * nv * nv));
    if (!err && alpha != 0 && !block) { /* s a_ij p0_j for each stored a_ij */
      MatInfo ainfo;
      PetscCall(MatGetInfo(C.M, MAT_LOCAL, &ainfo));
      PetscCall(PetscLogGpuFlops(2.0 * ainfo.nz_used));
    }
  } else
#endif
  {
    PetscCall(PetscNew(&P));
    if (block) err = PetscWarpAMGTentativeHost((int)N, (int)bs, (int)nv, w->agg, (int)w->nagg, pc_gamg->data, P);
    else err = PetscWarpAMGProlongatorHost((int)C.n, C.i, C.j, C.a, w->agg, (int)w->nagg, pc_gamg->data, (double)alpha, P, info);
  }
  PetscCall(LevelCSRRestore(&C));
  if (err) PetscCall(PetscFree(P));
  PetscCall(KernelCheck(pc, err, info, "prolongator"));
  /* the prolongator: AIJ on the host arrays (which it keeps), the operator's device type when the level ran there */
  PetscCall(PetscLogEventBegin(PCGAMGWARP_ProlMat, pc, A, 0, 0));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, P->m, P->n, P->i, P->j, P->v, &Prol));
  PetscCall(PetscObjectContainerCompose((PetscObject)Prol, "PCGAMGWarpProlArrays", P, FreeProlArrays));
  PetscCall(MatSetBlockSizes(Prol, bs, nv));
#if PetscDefined(HAVE_CUDA)
  if (C.dev) { /* uploaded now: a converted matrix has no values on the device (offload mask unallocated) */
    const PetscScalar *dv;

    PetscCall(MatConvert(Prol, MATSEQAIJCUSPARSE, MAT_INPLACE_MATRIX, &Prol));
    PetscCall(MatSeqAIJCUSPARSEGetArrayRead(Prol, &dv));
    PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(Prol, &dv));
    PetscCheck(Prol->offloadmask == PETSC_OFFLOAD_BOTH, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Prolongator values not on the device (offload mask %d)", (int)Prol->offloadmask);
  }
#endif
  PetscCall(PetscLogEventEnd(PCGAMGWARP_ProlMat, pc, A, 0, 0));
  if (block && nv > bs) { /* aggregates of fewer rows than near-null vectors (single nodes): rank-deficient columns */
    PetscInt small = 0, *cnt;
    PetscCall(PetscCalloc1(w->nagg + 1, &cnt));
    for (PetscInt i = 0; i < A->rmap->n; i += bs) cnt[P->j[(PetscInt64)i * nv] / nv]++;
    for (PetscInt a = 0; a < w->nagg; a++) small += cnt[a] * bs < nv;
    PetscCall(PetscFree(cnt));
    if (small)
      PetscCall(PetscInfo(pc, "%s: level %" PetscInt_FMT ": %" PetscInt_FMT " aggregates have fewer than %" PetscInt_FMT " rows (nodes without strong neighbours): their prolongator columns are rank-deficient, as PCGAMGAGG's padded QR gives them\n", PCGAMGWARP, level, small, nv));
  }
  /* the coarse near-null vectors (nv columns of P->n entries, column-major); the coarse level has block size nv */
  PetscCall(PetscFree(pc_gamg->data));
  PetscCall(PetscMalloc1((PetscInt)P->n * nv, &pc_gamg->data));
  for (PetscInt a = 0; a < (PetscInt)P->n * nv; a++) pc_gamg->data[a] = P->bc[a];
  pc_gamg->data_sz        = (PetscInt)P->n * nv;
  pc_gamg->data_cell_rows = nv;
  pc_gamg->data_cell_cols = nv;
  if (block && alpha != 0) { /* P = (I - alpha D^-1 A) P0 with PETSc's products (PCGAMGAGG's smoothing; on the device for device matrices) */
    Mat T;
    Vec diag;

    PetscCall(PetscLogEventBegin(PCGAMGWARP_Smooth, pc, A, 0, 0));
    PetscCall(MatCreateVecs(A, &diag, NULL));
    PetscCall(MatGetDiagonal(A, diag));
    PetscCall(VecReciprocal(diag));
    PetscCall(MatMatMult(A, Prol, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &T));
    PetscCall(MatProductClear(T));
    {
      PetscBool same;
      PetscCall(PetscObjectTypeCompare((PetscObject)T, ((PetscObject)Prol)->type_name, &same));
      if (!same) PetscCall(MatConvert(T, ((PetscObject)Prol)->type_name, MAT_INPLACE_MATRIX, &T)); /* a host product names its result after A (ellwarp) */
    }
    PetscCall(MatDiagonalScale(T, diag, NULL));
    PetscCall(MatAYPX(T, -alpha, Prol, SUBSET_NONZERO_PATTERN));
    PetscCall(MatSetBlockSizes(T, bs, nv));
    PetscCall(VecDestroy(&diag));
    PetscCall(MatDestroy(&Prol)); /* frees P's arrays */
    Prol = T;
    PetscCall(PetscLogEventEnd(PCGAMGWARP_Smooth, pc, A, 0, 0));
  }
  {
    MatInfo pinfo;
    PetscCall(MatGetInfo(Prol, MAT_LOCAL, &pinfo));
    w->nnzp[level] = pinfo.nz_used;
    PetscCall(PetscInfo(pc, "%s: level %" PetscInt_FMT " prolongator %" PetscInt_FMT " x %" PetscInt_FMT " (block sizes %" PetscInt_FMT ", %" PetscInt_FMT "), %.0f nonzeros, damping %g (emax %g)\n", PCGAMGWARP, level, Prol->rmap->n, Prol->cmap->n, bs, nv,
                        pinfo.nz_used, (double)alpha, (double)emax));
  }
  PetscCall(FreeAggregates(w));
  *Pout = Prol;
  PetscCall(PetscLogEventEnd(PCGAMGWARP_Prolongator, pc, A, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coarse operator P^T (A P) as two products, D = A P then P^T D (on one rank PCGAMG's own level creation is a
   MatPtAP(), whose aijcusparse form, MatProductSymbolic_ABC_Basic(), gave a level-2 operator on which the eigenvalue
   estimate returned 0 on an H200 (heat P1, 2026-11-28); the two-product form is the one MATSEQAIJELLWARP's device
   twins use). A host level keeps MatPtAP() */
static PetscErrorCode PCGAMGCreateLevel_Warp(PC pc, Mat A, PetscInt cr_bs, Mat *P, Mat *Ac, PetscMPIInt *nactive, IS *perm, PetscBool is_last)
{
  Mat       D;
  PetscBool dev;

  PetscFunctionBegin;
  (void)is_last;
  PetscCall(PetscLogEventBegin(PCGAMGWARP_Galerkin, pc, A, *P, 0));
  PetscCall(PetscObjectTypeCompare((PetscObject)*P, MATSEQAIJCUSPARSE, &dev));
  if (dev) {
    PetscCall(MatMatMult(A, *P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &D));
    PetscCall(MatTransposeMatMult(*P, D, MAT_INITIAL_MATRIX, PETSC_DETERMINE, Ac));
    PetscCall(MatDestroy(&D));
  } else PetscCall(MatPtAP(A, *P, MAT_INITIAL_MATRIX, 2.0, Ac)); /* the host: PCGAMG's own product */
  PetscCall(MatProductClear(*Ac));                               /* frees D's reference and the SpGEMM buffers: the coarse operator is kept, not redone */
  PetscCall(MatPropagateSymmetryOptions(A, *Ac));                /* as MatPtAP() does: P^T A P is symmetric (SPD) with A */
  PetscCall(MatSetBlockSizes(*Ac, cr_bs, cr_bs));
  *nactive = 1;
  if (perm) *perm = NULL;
  PetscCall(PetscLogEventEnd(PCGAMGWARP_Galerkin, pc, A, *P, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCGAMGSetNSmooths_Warp(PC pc, PetscInt n)
{
  PC_MG        *mg      = (PC_MG *)pc->data;
  PC_GAMG      *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp *w       = (PC_GAMG_Warp *)pc_gamg->subctx;

  PetscFunctionBegin;
  PetscCheck(n == 0 || n == 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "PCGAMG type %s smooths the prolongator 0 or 1 times, not %" PetscInt_FMT, PCGAMGWARP, n);
  w->nsmooths = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_GAMGWarp(PC pc, PetscOptionItems PetscOptionsObject)
{
  PC_MG        *mg      = (PC_MG *)pc->data;
  PC_GAMG      *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp *w       = (PC_GAMG_Warp *)pc_gamg->subctx;
  PetscInt      n       = w->nsmooths;
  PetscBool     flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "GAMG-warp options (smoothed aggregation set up on the device)");
  PetscCall(PetscOptionsInt("-pc_gamg_agg_nsmooths", "Smoothing steps of the prolongator (0 or 1)", "PCGAMGSetNSmooths", n, &n, &flg));
  if (flg) PetscCall(PCGAMGSetNSmooths_Warp(pc, n));
  if (pc_gamg->reuse_prol) PetscCall(PetscInfo(pc, "%s: the interpolation is not reused (-pc_gamg_reuse_interpolation ignored): every set-up rebuilds the hierarchy\n", PCGAMGWARP));
  pc_gamg->reuse_prol = PETSC_FALSE;
  PetscCall(PetscOptionsBool("-pc_gamg_warp_check", "Check the device's aggregates and prolongators against the host twin's (slow: a debugging aid)", "PCGAMGWARP", w->check, &w->check, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_GAMGWarp(PC pc, PetscViewer viewer)
{
  PC_MG        *mg      = (PC_MG *)pc->data;
  PC_GAMG      *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp *w       = (PC_GAMG_Warp *)pc_gamg->subctx;
  PetscBool     ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "      GAMG-warp: smoothed aggregation, aggregates around distance-2 independent roots, %" PetscInt_FMT " smoothing step(s) of the prolongator\n", w->nsmooths));
  for (PetscInt l = 0; l < w->nlevels; l++)
    PetscCall(PetscViewerASCIIPrintf(viewer, "        level %" PetscInt_FMT ": set up on the %s, block size %" PetscInt_FMT ", %" PetscInt_FMT " near-null vectors, %d aggregates, %d rounds, %d nodes without a strong connection, prolongator %.0f nonzeros\n", l, w->dev[l] ? "device" : "host", w->bs[l], w->nv[l],
                                     w->info[l].nagg, w->info[l].rounds, w->info[l].nisolated, (double)w->nnzp[l]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_GAMGWarp(PC pc)
{
  PC_MG   *mg      = (PC_MG *)pc->data;
  PC_GAMG *pc_gamg = (PC_GAMG *)mg->innerctx;

  PetscFunctionBegin;
  PetscCall(FreeAggregates((PC_GAMG_Warp *)pc_gamg->subctx));
  PetscCall(PetscFree(pc_gamg->subctx));
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGAMGSetNSmooths_C", NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  PCGAMGWARP - "warp", a `PCGAMG` type whose set-up runs on the device: smoothed aggregation with the strength graph,
  the aggregates and the prolongator computed by CUDA kernels where the operator's values are

  Options Database Keys:
+ -pc_gamg_type warp           - select this type (after `-pc_type gamg`)
. -pc_gamg_agg_nsmooths <0,1>  - smoothing steps of the prolongator (default 1)
. -pc_gamg_threshold <t>       - strength threshold: a_ij is strong if |a_ij| > t sqrt(|a_ii a_jj|) (negative: all)
. -pc_gamg_warp_check          - compare the device's aggregates and prolongators with the host twin's on copies (an error if they differ)
- -pc_gamg_esteig_ksp_max_it   - iterations of the estimate of emax(D^-1 A) for the damping 1.4 / emax

  Level: intermediate

  Notes:
  `PCGAMGAGG` builds its graph, its coarsening and its tentative prolongator on the host, also for a device matrix.
  This type computes the roots as a maximal distance-2 independent set by the randomised algorithm of Bell, Dalton and
  Olson (2012), aggregates each root with its strongly connected neighbours (leftover nodes join through a neighbour),
  forms the tentative prolongator from the near-null vector (the constant, or the one vector of
  `MatSetNearNullSpace()`) and smooths it once with Jacobi, damped by 1.4 / emax(D^-1 A) as `PCGAMGAGG` does. The
  prolongator is then `MATSEQAIJCUSPARSE`; the coarse operators are computed as D = A P, then P^T D (cuSPARSE), and
  `PCGAMG` sets up the smoothers (Chebyshev/Jacobi, with the eigenvalue estimate cached as in `PCGAMGAGG`) and the coarse
  solver as usual.

  Every set-up rebuilds the hierarchy (`-pc_gamg_reuse_interpolation` is ignored: PCGAMG's reuse path redoes the coarse
  operators with `MatPtAP()`, whose aijcusparse form gave an unusable level-2 operator with these prolongators on an
  H200). `PCGAMGAGG`'s own options (aggressive coarsening, `-pc_gamg_prolongator_filter`, ...) do not apply. The strength
  graph is not symmetrised: on an unsymmetric pattern two roots may be neighbours.

  The operator must be `MATSEQAIJCUSPARSE` (or `MATSHAREDNZ`), or `MATSEQAIJELLWARP` whose products run on the device
  (a DM with device vectors, `-mat_ellwarp_product_device`); `MATSEQAIJ` and the others are set up on the host by the
  same algorithm (the reference of the tests). For block operators (`MatSetBlockSize()`, e.g. elasticity with the
  rigid-body modes of `MatSetNearNullSpace()`) the aggregates are those of the node graph (block Frobenius norms), the
  tentative prolongator the Householder QR of each aggregate's block of near-null vectors, and the smoothing PETSc's
  products (`MatMatMult()`, `MatDiagonalScale()`, `MatAYPX()`), as in `PCGAMGAGG`. One MPI rank, block sizes and
  near-null spaces up to 16, real double precision: other cases stop with an error that names `-pc_gamg_type agg`.

  The aggregates differ from `PCGAMGAGG`'s, so the iteration counts differ from it.

  Log events: `GAMGWarpAgg` (strength graph and aggregates), `GAMGWarpProl` (the prolongator, including `GAMGWarpEig`,
  the estimate of emax, and `GAMGWarpProlMat`, the matrix made from the kernels' arrays and uploaded), `GAMGWarpRAP`
  (the coarse operator as D = A P, then P^T D), `GAMGWarpSmooth` (block operators: the smoothing by PETSc's products).

.seealso: `PCGAMG`, `PCGAMGAGG`, `PCGAMGSetType()`, `PCGAMGSetNSmooths()`, `PCGAMGSetThreshold()`, `MATELLWARP`, `MATSHAREDNZ`
M*/
PETSC_INTERN PetscErrorCode PCCreateGAMG_Warp(PC pc)
{
  PC_MG        *mg      = (PC_MG *)pc->data;
  PC_GAMG      *pc_gamg = (PC_GAMG *)mg->innerctx;
  PC_GAMG_Warp *w;

  PetscFunctionBegin;
  PetscCall(PetscNew(&w));
  w->nsmooths         = 1;
  pc_gamg->subctx     = w;
  pc_gamg->reuse_prol = PETSC_FALSE; /* PCGAMG's reuse path redoes the coarse operators with MatPtAP(): see PCGAMGCreateLevel_Warp() */

  pc_gamg->ops->setfromoptions    = PCSetFromOptions_GAMGWarp;
  pc_gamg->ops->destroy           = PCDestroy_GAMGWarp;
  pc_gamg->ops->creategraph       = PCGAMGCreateGraph_Warp;
  pc_gamg->ops->coarsen           = PCGAMGCoarsen_Warp;
  pc_gamg->ops->prolongator       = PCGAMGProlongator_Warp;
  pc_gamg->ops->optprolongator    = NULL;
  pc_gamg->ops->createdefaultdata = PCSetData_GAMGWarp;
  pc_gamg->ops->view              = PCView_GAMGWarp;
  pc_gamg->ops->createlevel       = PCGAMGCreateLevel_Warp;
  PetscCall(PetscObjectComposeFunction((PetscObject)pc, "PCGAMGSetNSmooths_C", PCGAMGSetNSmooths_Warp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
