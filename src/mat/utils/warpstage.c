/*
  Staged reassembly: a matrix assembled again and again with the same MatSetValues() sequence (PETSc's
  DMPlexSNESComputeJacobianFEM() closure by closure, or any code's loop over elements) gets its later values through
  MatSetValuesCOO(), on the device for MATELLWARP (its device COO) and MATSHAREDNZ (cuSPARSE's), instead of host
  insertion followed by an upload of the whole matrix.

  - First ADD_VALUES assembly (a cycle: MatSetValues() calls up to the final MatAssemblyEnd()): the index lists of
    every call are recorded, as given (negative indices included), and the values go into AIJ as usual: the result is
    PETSc's own. Cycles with INSERT_VALUES are never staged (the recording is kept for the next ADD cycle).
  - Next cycle with the same sequence (each call compared with the recording, index by index): the values are only
    copied into a host buffer, in the order of the calls. At MatAssemblyEnd() they are summed by MatSetValuesCOO():
    INSERT_VALUES after MatZeroEntries() (the same sums, in the same order, as AIJ's: the same matrix), ADD_VALUES
    onto the current values otherwise (equal up to rounding). The COO (MatSetPreallocationCOO(), which drops negative
    indices as MatSetValues() does) is made at the first such cycle, from the recorded entries followed by every
    nonzero of the AIJ pattern with a zero value, so that its pattern is AIJ's own; the nonzero state is kept.
    Setting a COO up on the live matrix with PETSc's MatSetPreallocationCOO() would rebuild its storage (MPIAIJ
    replaces its blocks, cuSPARSE its device CSR) under products set up on the old one (H100, 2026-11-26: GAMG's
    cuSPARSE Galerkin product spun forever in PETSc's ex56 with a staged MATSHAREDNZ; a reused MPIAIJ product read
    freed blocks), so it never is, except by MATSEQAIJELLWARP's own (the matrix object and its layout stay):
    - MATSEQAIJELLWARP: its own COO on itself;
    - other sequential types (MATSEQAIJ, MATSEQAIJCUSPARSE): the COO sorted once by ELL-WARP's stable COO sort (on the
      device for cuSPARSE storage), its pattern checked to be A's CSR, its maps (jmap, perm) then summing the staged
      values straight into A's value array (the device CSR values for cuSPARSE) in the order of the calls: AIJ's matrix
      bit for bit after MatZeroEntries();
    - MPIAIJ types: a shadow matrix holding the COO (MATMPIAIJCUSPARSE for cuSPARSE storage, sums on the device;
      MATMPIAIJ otherwise: MPIAIJ's COO sums on the host, a MATMPIAIJELLWARP's blocks upload their values: on purpose,
      a MATMPIAIJCUSPARSE shadow would sum on the device, but cuSPARSE's COO set-up (sharednz's staging of PETSc's ex12,
      263 k unknowns: 1.0 s on one rank, 0.30 s on 4) outweighs the 7 ms per Jacobian that the staged values' uploads
      cost on 4 ranks (H100 2026-11-26, bench/RESULTS.md, stagebench), whose
      blocks have the live blocks' sorted CSR (the off-diagonal ones compared in global columns), checked once, so
      values are copied block by block (device to device for cuSPARSE) without touching the live matrix's structure
      or nonzero state; without MatZeroEntries() the live values are copied into the shadow first; the live matrix's
      MAT_IGNORE_OFF_PROC_ENTRIES is passed on to the shadow.
  - A call that differs (other indices, sizes, more or fewer calls, INSERT_VALUES, another orientation): the values
    staged so far are replayed through AIJ's MatSetValues() and the cycle goes on as plain AIJ assembly (-info says
    why); the recording is dropped, and the next ADD cycle records again (at most MAX_RECORDINGS times).
  - MPIAIJ types (MATMPIAIJELLWARP, MATSHAREDNZ as MPIAIJCUSPARSE): the calls are those of the MPI matrix (global
    indices, rows of other ranks included: the shadow's MatSetPreallocationCOO() sends them to their owners). Since its COO functions are collective, the ranks agree at MatAssemblyBegin() (one
    reduction, Agree()): the cycle is staged only when it matches the recording on every rank, recorded only when every
    rank records (a rank without calls records an empty list), else plain everywhere (a rank that staged replays its
    values before the stash is sent). The COO's pattern part is the blocks' (the off-diagonal one's columns through
    garray).
*/
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/ellwarpcookernels.h>
#include <petscwarp_petsc_aij.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

#define STAGE_NAME     "__PetscWarp_MatStage"
#define MAX_RECORDINGS 3

PetscLogEvent MATWARP_StageBuild, MATWARP_StageUpload, MATWARP_StageFallback;

static MatWarpStageHook StageHook = NULL;

typedef enum {
  STAGE_PLAIN,
  STAGE_RECORD,
  STAGE_STAGE
} StageMode;

typedef PetscErrorCode (*SetValuesFn)(Mat, PetscInt, const PetscInt[], PetscInt, const PetscInt[], const PetscScalar[], InsertMode);

typedef struct {
  /* the operations wrapped */
  SetValuesFn setvalues, setvaluesblocked;
  PetscErrorCode (*zeroentries)(Mat);
  PetscErrorCode (*assemblybegin)(Mat, MatAssemblyType);
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscBool mpi; /* an MPIAIJ matrix (any number of ranks): its blocks hold the pattern and the options */
  char      option[64];
  PetscBool optread, on;
  /* the recording: call k has cm[k] rows and cn[k] columns, idx[ioff[k] ..] (rows then columns), values at voff[k] */
  PetscInt         ncalls, maxcalls;
  PetscInt        *cm, *cn;
  PetscCount      *ioff, *voff;
  PetscInt        *idx;
  PetscCount       nidx, maxidx, nval;
  PetscBool        roworiented;
  PetscBool        recorded, built;
  PetscObjectState nzstate[3]; /* the nonzero states the recording (and its COO) is valid for: A's, and for MPIAIJ types its
                                  blocks' (a block can gain a nonzero, e.g. MatDiagonalSet(), before A's state follows at
                                  A's next assembly end) */
  Mat              nzblk[2];   /* MPIAIJ types: the blocks then */
  PetscCount       ntail;      /* nonzeros of the pattern appended to the COO */
  PetscScalar     *buf;        /* nval + ntail values */
  Mat              shadow;     /* all types but MATSEQAIJELLWARP: the matrix holding the COO (NULL until the first staged
                               cycle; destroyed at the end of the first final assembly after the recording was dropped,
                               at MatWarpSetStage(A, PETSC_FALSE) or with A: points every rank passes together) */
  /* sequential matrices other than MATSEQAIJELLWARP: the COO's maps straight into the CSR values (jmap, perm of
     ellwarp_coo's sort), in device memory for cuSPARSE storage (coo_device; d_buf the device copy of buf), else host */
  PetscWarpCOO coo;
  PetscBool    coo_device;
  PetscScalar *d_buf;
  /* the cycle */
  StageMode        mode;
  PetscBool        incycle, zeroed, busy, fellback;
  PetscObjectState zstate;      /* A's object state right after the last MatZeroEntries(): a change since (MatShift(),
                                  MatDiagonalSet(), MatAXPY(), a device assembly) means the values are not all zero */
  PetscObjectState zbstate[2];  /* MPIAIJ types: the blocks' states then (MatAXPY() of MPIAIJ changes only the blocks') */
  char             gaveup[128]; /* why staging was given up for good (GiveUp()), or empty */
  PetscInt         maxentries;  /* one rank: most COO entries (recorded values + nonzeros) staging sets up (32-bit maps) */
  PetscInt         k;
  /* statistics */
  PetscInt nrecordings, nrecorded, nstaged, nfallback, nplain;
  char     reason[128];
} MatWarpStage;

/* The direct COO maps and device buffer (sequential matrices) */
static PetscErrorCode FreeDirect(MatWarpStage *s)
{
  PetscFunctionBegin;
  if (s->coo_device) {
#if PetscDefined(HAVE_CUDA)
    PetscCallCUDA((cudaError_t)PetscWarpCOOFreeCUDA(&s->coo, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS));
    PetscCallCUDA(cudaFree(s->d_buf));
#endif
  } else PetscWarpCOOFreeHost(&s->coo, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS);
  PetscCall(PetscMemzero(&s->coo, sizeof(s->coo)));
  s->d_buf      = NULL;
  s->coo_device = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ResetRecording(MatWarpStage *s)
{
  PetscFunctionBegin;
  PetscCall(FreeDirect(s));
  PetscCall(PetscFree4(s->cm, s->cn, s->ioff, s->voff));
  PetscCall(PetscFree(s->idx));
  PetscCall(PetscFree(s->buf));
  s->ncalls = s->maxcalls = 0;
  s->nidx = s->maxidx = s->nval = s->ntail = 0;
  s->recorded = s->built = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageDestroy(PetscCtxRt ctx)
{
  MatWarpStage *s = *(MatWarpStage **)ctx;

  PetscFunctionBegin;
  PetscCall(ResetRecording(s));
  PetscCall(MatDestroy(&s->shadow));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetStage(Mat A, MatWarpStage **s)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, s));
  PetscCheck(*s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staging operations without their data");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Mat_SeqAIJ whose options (row orientation, nonew, ignorezeroentries) are A's: A's own, or for an MPIAIJ matrix
   its diagonal block's (MatSetOption() of MPIAIJ sets them on both blocks) */
static Mat_SeqAIJ *OptionsAIJ(Mat A, MatWarpStage *s)
{
  Mat Ad = A;

  if (s->mpi && MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL)) return NULL;
  return (Mat_SeqAIJ *)Ad->data;
}

static PetscErrorCode SetRowOriented(Mat A, MatWarpStage *s, PetscBool ro)
{
  PetscFunctionBegin;
  if (s->mpi) PetscCall(MatSetOption(A, MAT_ROW_ORIENTED, ro));
  else ((Mat_SeqAIJ *)A->data)->roworiented = ro;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Append one call to the recording (arrays grow by doubling) */
static PetscErrorCode Append(MatWarpStage *s, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[])
{
  PetscFunctionBegin;
  if (s->ncalls == s->maxcalls) {
    PetscInt    nmax = PetscMax(2 * s->maxcalls, 1024), *cm, *cn;
    PetscCount *ioff, *voff;
    PetscCall(PetscMalloc4(nmax, &cm, nmax, &cn, nmax, &ioff, nmax, &voff));
    PetscCall(PetscArraycpy(cm, s->cm, s->ncalls));
    PetscCall(PetscArraycpy(cn, s->cn, s->ncalls));
    PetscCall(PetscArraycpy(ioff, s->ioff, s->ncalls));
    PetscCall(PetscArraycpy(voff, s->voff, s->ncalls));
    PetscCall(PetscFree4(s->cm, s->cn, s->ioff, s->voff));
    s->cm = cm, s->cn = cn, s->ioff = ioff, s->voff = voff, s->maxcalls = nmax;
  }
  if (s->nidx + m + n > s->maxidx) {
    PetscCount nmax = PetscMax(2 * s->maxidx, s->nidx + m + n + 4096);
    PetscInt  *idx;
    PetscCall(PetscMalloc1(nmax, &idx));
    PetscCall(PetscArraycpy(idx, s->idx, s->nidx));
    PetscCall(PetscFree(s->idx));
    s->idx = idx, s->maxidx = nmax;
  }
  s->cm[s->ncalls]   = m;
  s->cn[s->ncalls]   = n;
  s->ioff[s->ncalls] = s->nidx;
  s->voff[s->ncalls] = s->nval;
  PetscCall(PetscArraycpy(s->idx + s->nidx, im, m));
  PetscCall(PetscArraycpy(s->idx + s->nidx + m, in, n));
  s->nidx += m + n;
  s->nval += (PetscCount)m * n;
  s->ncalls++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Replay the calls staged so far through AIJ, and go on with plain AIJ assembly */
/* The first ncalls staged calls through AIJ's MatSetValues(), in the recording's orientation */
static PetscErrorCode Replay(Mat A, MatWarpStage *s, PetscInt ncalls)
{
  Mat_SeqAIJ *a = OptionsAIJ(A, s);
  PetscBool   ro;

  PetscFunctionBegin;
  PetscCheck(a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MPIAIJ matrix without blocks");
  ro = a->roworiented;
  PetscCall(SetRowOriented(A, s, s->roworiented));
  for (PetscInt j = 0; j < ncalls; j++) PetscCall((*s->setvalues)(A, s->cm[j], s->idx + s->ioff[j], s->cn[j], s->idx + s->ioff[j] + s->cm[j], s->buf + s->voff[j], ADD_VALUES));
  PetscCall(SetRowOriented(A, s, ro));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Fallback(Mat A, MatWarpStage *s, const char why[])
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageFallback, A, 0, 0, 0));
  PetscCall(PetscStrncpy(s->reason, why, sizeof(s->reason)));
  PetscCall(PetscInfo(A, "Staged assembly: %s at call %" PetscInt_FMT " of %" PetscInt_FMT "; the %" PetscInt_FMT " calls staged so far are replayed, plain AIJ assembly from here on, recording again at the next ADD_VALUES assembly\n", why, s->k, s->ncalls, s->k));
  PetscCall(Replay(A, s, s->k));
  s->mode     = STAGE_PLAIN;
  s->fellback = PETSC_TRUE;
  s->nfallback++;
  PetscCall(ResetRecording(s));
  PetscCall(PetscLogEventEnd(MATWARP_StageFallback, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Plain(Mat A, MatWarpStage *s, const char why[])
{
  PetscFunctionBegin;
  s->mode = STAGE_PLAIN;
  PetscCall(PetscStrncpy(s->reason, why, sizeof(s->reason)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageZeroEntries(Mat);

/* The nonzero states the recording is valid for (PatternStamp()), and whether they still hold (PatternChanged()) */
static PetscErrorCode PatternStamp(Mat A, MatWarpStage *s)
{
  PetscFunctionBegin;
  s->nzstate[0] = A->nonzerostate;
  s->nzblk[0] = s->nzblk[1] = NULL;
  s->nzstate[1] = s->nzstate[2] = 0;
  if (s->mpi) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &s->nzblk[0], &s->nzblk[1], NULL));
    for (int b = 0; b < 2; b++) s->nzstate[1 + b] = s->nzblk[b]->nonzerostate;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PatternChanged(Mat A, MatWarpStage *s, PetscBool *changed)
{
  PetscFunctionBegin;
  *changed = (PetscBool)(A->nonzerostate != s->nzstate[0]);
  if (s->mpi && !*changed) {
    Mat blk[2];
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
    for (int b = 0; b < 2; b++)
      if (blk[b] != s->nzblk[b] || blk[b]->nonzerostate != s->nzstate[1 + b]) *changed = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first MatSetValues() of a cycle decides how the cycle runs */
static PetscErrorCode CycleBegin(Mat A, MatWarpStage *s, InsertMode addv)
{
  Mat_SeqAIJ *a = OptionsAIJ(A, s);

  PetscFunctionBegin;
  PetscCheck(a, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MPIAIJ matrix without blocks");
  s->incycle  = PETSC_TRUE;
  s->fellback = PETSC_FALSE;
  s->k        = 0;
  if (!s->optread) {
    /* not PetscObjectOptionsBegin(): A printed its options block at MatSetFromOptions(), so -help would skip these */
    PetscOptionsBegin(PetscObjectComm((PetscObject)A), ((PetscObject)A)->prefix, "Staged reassembly (MatWarpSetStage())", "Mat");
    PetscCall(PetscOptionsBool(s->option, "Stage the values of a repeated MatSetValues() sequence and sum them on the device (MatSetValuesCOO())", "MatWarpSetStage", s->on, &s->on, NULL));
    PetscCall(PetscOptionsInt("-mat_warp_stage_max_entries", "One rank: most staged entries (recorded values + nonzeros) whose sums are set up; beyond, or without the memory for it, the staged values are replayed and staging given up", "MatWarpSetStage", s->maxentries, &s->maxentries, NULL));
    PetscOptionsEnd();
    s->optread = PETSC_TRUE;
  }
  if (A->ops->zeroentries && A->ops->zeroentries != StageZeroEntries) { /* put back by MatBindToCPU() of cuSPARSE storage */
    s->zeroentries      = A->ops->zeroentries;
    A->ops->zeroentries = StageZeroEntries;
  }
  if (s->zeroed && s->mpi) { /* MatAXPY() of MPIAIJ changes the blocks' states only */
    Mat blk[2];
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
    for (int b = 0; b < 2; b++)
      if (((PetscObject)blk[b])->state != s->zbstate[b]) s->zstate = 0;
  }
  if (s->zeroed && ((PetscObject)A)->state != s->zstate) { /* values changed since MatZeroEntries(): add onto them */
    s->zeroed = PETSC_FALSE;
    PetscCall(PetscInfo(A, "Staged assembly: the values changed after MatZeroEntries() (MatShift(), MatDiagonalSet(), ...): staged values are added onto them\n"));
  }
  if (!s->on) PetscCall(Plain(A, s, "staging is off"));
  else if (addv != ADD_VALUES) PetscCall(Plain(A, s, "INSERT_VALUES (only ADD_VALUES assemblies are staged)"));
  else if (a->nonew == 1 || a->ignorezeroentries) PetscCall(Plain(A, s, "MAT_NEW_NONZERO_LOCATIONS false or MAT_IGNORE_ZERO_ENTRIES (AIJ drops entries the COO would keep)"));
  else {
    PetscBool changed;
    PetscCall(PatternChanged(A, s, &changed));
    if (s->recorded && changed) {
      PetscCall(PetscInfo(A, "Staged assembly: the nonzero pattern changed since the recording: recording again\n"));
      PetscCall(ResetRecording(s));
    }
    if (s->recorded) {
      s->mode = STAGE_STAGE;
      if (!s->buf) PetscCall(PetscMalloc1(s->nval, &s->buf)); /* at the first repeat: one-shot assemblies keep only the indices */
    } else if (s->gaveup[0]) PetscCall(Plain(A, s, s->gaveup));
    else if (s->nrecordings < MAX_RECORDINGS) {
      s->mode        = STAGE_RECORD;
      s->roworiented = a->roworiented;
      s->nrecordings++;
    } else PetscCall(Plain(A, s, "the sequence changed " PetscStringize(MAX_RECORDINGS) " times: staging given up"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageSetValues(Mat A, PetscInt m, const PetscInt im[], PetscInt n, const PetscInt in[], const PetscScalar v[], InsertMode addv)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(GetStage(A, &s));
  if (!s->busy) {
    if (!s->incycle) PetscCall(CycleBegin(A, s, addv));
    if (s->mode == STAGE_RECORD) {
      if (addv == ADD_VALUES) PetscCall(Append(s, m, im, n, in));
      else {
        PetscCall(ResetRecording(s));
        PetscCall(Plain(A, s, "INSERT_VALUES in the cycle being recorded"));
      }
    } else if (s->mode == STAGE_STAGE) {
      const PetscInt k  = s->k;
      const char    *ko = NULL;
      if (addv != ADD_VALUES) ko = "INSERT_VALUES";
      else if (k >= s->ncalls) ko = "more calls than recorded";
      else if (OptionsAIJ(A, s)->roworiented != s->roworiented) ko = "another MAT_ROW_ORIENTED";
      else if (s->cm[k] != m || s->cn[k] != n) ko = "another number of rows or columns";
      else {
        const PetscInt *r = s->idx + s->ioff[k];
        PetscBool       same;
        PetscCall(PetscArraycmp(r, im, m, &same));
        if (same) PetscCall(PetscArraycmp(r + m, in, n, &same));
        if (!same) ko = "other indices";
      }
      if (!ko) {
        if (v) PetscCall(PetscArraycpy(s->buf + s->voff[k], v, (PetscCount)m * n));
        else PetscCall(PetscArrayzero(s->buf + s->voff[k], (PetscCount)m * n));
        s->k++;
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      PetscCall(Fallback(A, s, ko));
    }
  }
  PetscCall((*s->setvalues)(A, m, im, n, in, v, addv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageAssemblyEnd(Mat, MatAssemblyType);

/* A MATSEQAIJELLWARP matrix whose pattern is unchanged but that its COO preallocation gave the
   nonzero state st1: back to st0, with ELL-WARP's record of the state its layout was built for */
static PetscErrorCode KeepState(Mat A, PetscObjectState st0)
{
  PetscBool isew;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJELLWARP, &isew));
  if (isew) {
    Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
    if (ew->built && ew->nzstate == A->nonzerostate) ew->nzstate = st0;
  }
  A->nonzerostate = st0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nonzeros of A's (local) rows: count, or (ci, cj, and the current values into v unless v is NULL) fill from p */
static PetscErrorCode PatternCOO(Mat A, MatWarpStage *s, PetscCount *n, PetscInt ci[], PetscInt cj[], PetscScalar v[])
{
  PetscFunctionBegin;
  if (!s->mpi) {
    Mat_SeqAIJ        *a = (Mat_SeqAIJ *)A->data;
    PetscInt           m = A->rmap->n;
    const PetscScalar *aa;

    *n = a->i[m];
    if (!ci) PetscFunctionReturn(PETSC_SUCCESS);
    for (PetscInt r = 0; r < m; r++)
      for (PetscInt p = a->i[r]; p < a->i[r + 1]; p++) ci[p] = r, cj[p] = a->j[p];
    if (v) {
      PetscCall(MatSeqAIJGetArrayRead(A, &aa)); /* the values before this assembly (pulled from the device if only there) */
      PetscCall(PetscArraycpy(v, aa, *n));
      PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    }
  } else { /* the blocks (MatGetRow() is for assembled matrices; this runs inside the assembly end): the diagonal one's
              local columns shifted by the first owned column, the off-diagonal one's through garray */
    Mat             blk[2];
    const PetscInt *garray;
    PetscInt        rstart, cstart, m = A->rmap->n;
    PetscCount      p = 0;

    PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], &garray));
    PetscCall(MatGetOwnershipRange(A, &rstart, NULL));
    PetscCall(MatGetOwnershipRangeColumn(A, &cstart, NULL));
    for (int b = 0; b < 2; b++) {
      Mat_SeqAIJ        *a = (Mat_SeqAIJ *)blk[b]->data;
      const PetscScalar *aa;

      if (ci) {
        for (PetscInt r = 0; r < m; r++)
          for (PetscInt q = a->i[r]; q < a->i[r + 1]; q++) ci[p + q] = rstart + r, cj[p + q] = b ? garray[a->j[q]] : cstart + a->j[q];
        if (v) {
          PetscCall(MatSeqAIJGetArrayRead(blk[b], &aa));
          PetscCall(PetscArraycpy(v + p, aa, a->i[m]));
          PetscCall(MatSeqAIJRestoreArrayRead(blk[b], &aa));
        }
      }
      p += a->i[m];
    }
    *n = p;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The COO indices of the recording: its entries (as recorded, in value order), then every nonzero of the AIJ pattern,
   so that the COO's pattern is AIJ's own; s->buf grows to hold their values, the pattern's part zero or, with current,
   A's current values */
static PetscErrorCode RecordingCOO(Mat A, MatWarpStage *s, PetscBool current, PetscCount *ntot, PetscInt **ci, PetscInt **cj)
{
  PetscCount   ntail, nz;
  PetscScalar *buf;

  PetscFunctionBegin;
  PetscCall(PatternCOO(A, s, &ntail, NULL, NULL, NULL));
  *ntot = s->nval + ntail;
  PetscCall(PetscMalloc2(*ntot, ci, *ntot, cj));
  for (PetscInt k = 0; k < s->ncalls; k++) {
    const PetscInt   cm = s->cm[k], cn = s->cn[k], *r = s->idx + s->ioff[k], *c = r + cm;
    const PetscCount o = s->voff[k];
    for (PetscInt i = 0; i < cm; i++)
      for (PetscInt j = 0; j < cn; j++) {
        PetscCount p = o + (s->roworiented ? (PetscCount)i * cn + j : (PetscCount)j * cm + i);
        (*ci)[p]     = r[i];
        (*cj)[p]     = c[j];
      }
  }
  PetscCall(PetscMalloc1(*ntot, &buf));
  PetscCall(PetscArraycpy(buf, s->buf, s->nval));
  PetscCall(PetscFree(s->buf));
  s->buf   = buf;
  s->ntail = ntail;
  PetscCall(PatternCOO(A, s, &nz, *ci + s->nval, *cj + s->nval, current ? buf + s->nval : NULL));
  if (!current) PetscCall(PetscArrayzero(buf + s->nval, ntail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MATSEQAIJELLWARP: the COO on A itself (its own MatSetPreallocationCOO() keeps the matrix object, sums into the
   layout's slots); the first values uploaded with it */
static PetscErrorCode Build(Mat A, MatWarpStage *s, PetscErrorCode (*setvaluescoo)(Mat, const PetscScalar[], InsertMode))
{
  PetscInt        *ci, *cj, nonew = OptionsAIJ(A, s)->nonew;
  PetscCount       ntot, nz;
  PetscObjectState before = A->nonzerostate;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(RecordingCOO(A, s, (PetscBool)!s->zeroed, &ntot, &ci, &cj));
  s->busy = PETSC_TRUE; /* its own assemblies pass through */
  PetscCall(MatSetPreallocationCOO(A, ntot, ci, cj));
  s->busy = PETSC_FALSE;
  PetscCall(PetscFree2(ci, cj));
  nz = ((Mat_SeqAIJ *)A->data)->nz;
  PetscCheck(nz == s->ntail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The COO of the recording has %" PetscCount_FMT " nonzeros, the AIJ pattern %" PetscCount_FMT, nz, s->ntail);
  PetscCheck(A->ops->setvalues == StageSetValues && A->ops->assemblyend == StageAssemblyEnd, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The COO preallocation of %s replaced the staged operations", ((PetscObject)A)->type_name);
  /* the COO preallocation makes new nonzeros an error; AIJ's setting stays. The pattern is the one it was: keep the
     nonzero state, so that preconditioners keep their symbolic set-up */
  ((Mat_SeqAIJ *)A->data)->nonew = nonew;
  PetscCall(KeepState(A, before));
  s->built = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Staged assembly: COO set up from %" PetscInt_FMT " recorded calls (%" PetscCount_FMT " values) and the %" PetscCount_FMT " nonzeros of the pattern\n", s->ncalls, s->nval, s->ntail));
  PetscCall(PetscLogEventEnd(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
  PetscCall((*setvaluescoo)(A, s->buf, INSERT_VALUES));
  PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
  PetscCall(PetscArrayzero(s->buf + s->nval, s->ntail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the shadow S stores A's nonzeros in A's order: the same sorted CSR block by block, the off-diagonal blocks
   compared in global columns (garray maps both; the live one may keep columns no longer used, e.g.
   after MatEliminateZeros(), and both are sorted, so equal global columns mean the same order of values) */
static PetscErrorCode SameStorage(Mat A, Mat S, PetscBool *same)
{
  Mat             pa[2], ps[2];
  const PetscInt *ga, *gs;

  PetscFunctionBegin;
  *same = PETSC_TRUE;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &pa[0], &pa[1], &ga));
  PetscCall(MatMPIAIJGetSeqAIJ(S, &ps[0], &ps[1], &gs));
  for (int k = 0; k < 2 && *same; k++) {
    Mat_SeqAIJ *a = (Mat_SeqAIJ *)pa[k]->data, *b = (Mat_SeqAIJ *)ps[k]->data;
    PetscInt    m = pa[k]->rmap->n;

    if (m != ps[k]->rmap->n || (k == 0 && pa[k]->cmap->n != ps[k]->cmap->n)) *same = PETSC_FALSE;
    else {
      PetscCall(PetscArraycmp(a->i, b->i, m + 1, same));
      if (*same && k == 0) PetscCall(PetscArraycmp(a->j, b->j, a->i[m], same));
      else if (*same)
        for (PetscInt q = 0; q < a->i[m]; q++)
          if (ga[a->j[q]] != gs[b->j[q]]) {
            *same = PETSC_FALSE;
            break;
          }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The values of src into dst, MPIAIJ matrices of the same storage (SameStorage()), block by block: device to device
   between cuSPARSE blocks, else through the host arrays (an ELL-WARP block's accessors keep its layout coherent) */
static PetscErrorCode CopyValues(Mat src, Mat dst)
{
  Mat ps[2], pd[2];

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(src, &ps[0], &ps[1], NULL));
  PetscCall(MatMPIAIJGetSeqAIJ(dst, &pd[0], &pd[1], NULL));
  for (int k = 0; k < 2; k++) {
    const PetscCount nz = ((Mat_SeqAIJ *)ps[k]->data)->i[ps[k]->rmap->n];
    PetscCheck(nz == ((Mat_SeqAIJ *)pd[k]->data)->i[pd[k]->rmap->n], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged assembly: the shadow's storage (%" PetscCount_FMT " nonzeros) no longer matches the matrix's (%" PetscInt_FMT ")", nz,
               ((Mat_SeqAIJ *)pd[k]->data)->i[pd[k]->rmap->n]);
    const PetscScalar *x;
    PetscScalar       *y;
    PetscBool          cs = PETSC_FALSE, cd = PETSC_FALSE;

    if (!nz) continue;
#if PetscDefined(HAVE_CUDA)
    PetscCall(PetscObjectTypeCompare((PetscObject)ps[k], MATSEQAIJCUSPARSE, &cs));
    PetscCall(PetscObjectTypeCompare((PetscObject)pd[k], MATSEQAIJCUSPARSE, &cd));
    if (cs && cd && !ps[k]->boundtocpu && !pd[k]->boundtocpu) { /* bound to the CPU: host values are the ones read */
      cudaStream_t st;
      PetscCall(PetscGetCurrentCUDAStream(&st));
      PetscCall(MatSeqAIJCUSPARSEGetArrayRead(ps[k], &x));
      PetscCall(MatSeqAIJCUSPARSEGetArray(pd[k], &y)); /* not ...GetArrayWrite(), which needs the device CSR to exist already (a matrix never used on the device, PETSc's ex56: "Missing MultStruct"); this creates it, uploading only if the host holds the current values */
      PetscCallCUDA(cudaMemcpyAsync(y, x, sizeof(PetscScalar) * (size_t)nz, cudaMemcpyDeviceToDevice, st));
      PetscCall(MatSeqAIJCUSPARSERestoreArray(pd[k], &y));
      PetscCall(MatSeqAIJCUSPARSERestoreArrayRead(ps[k], &x));
      continue;
    }
#endif
    (void)cs, (void)cd;
    PetscCall(MatSeqAIJGetArrayRead(ps[k], &x));
    PetscCall(MatSeqAIJGetArrayWrite(pd[k], &y));
    PetscCall(PetscArraycpy(y, x, nz));
    PetscCall(MatSeqAIJRestoreArrayWrite(pd[k], &y));
    PetscCall(MatSeqAIJRestoreArrayRead(ps[k], &x));
  }
  PetscCall(PetscObjectStateIncrease((PetscObject)dst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the MPIAIJ matrix A drops the rows of other ranks (MAT_IGNORE_OFF_PROC_ENTRIES). PETSc keeps the flag in
   Mat_MPIAIJ, whose header it does not install and which MatGetOption() does not report: read through the first members
   of that struct as PETSc 3.26.1 declares them (MPIAIJHEADER in src/mat/impls/aij/mpi/mpiaij.h: the two blocks, the
   communicator's size and rank, then donotstash), checked against what the public API says of the first four */
static PetscErrorCode IgnoresOffProcEntries(Mat A, PetscBool *ignore)
{
  typedef struct {
    Mat         A, B;
    PetscMPIInt size, rank;
    PetscBool   donotstash;
  } MPIAIJHead;
  const MPIAIJHead *h = (const MPIAIJHead *)A->data;
  Mat               Ad, Ao;
  PetscMPIInt       size, rank;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, NULL));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCheck(h->A == Ad && h->B == Ao && h->size == size && h->rank == rank, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The layout of PETSc's Mat_MPIAIJ is not the one petscwarp was written for (PETSc 3.26.1)");
  *ignore = h->donotstash;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ types: the COO in a shadow matrix of the same storage (MATMPIAIJCUSPARSE for cuSPARSE storage, MATMPIAIJ
   otherwise), A untouched (collective on A's communicator) */
static PetscErrorCode BuildShadow(Mat A, MatWarpStage *s)
{
  PetscInt  *ci, *cj;
  PetscCount ntot;
  PetscBool  cusp, same, ignore = PETSC_FALSE;
  Mat        S;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(MatDestroy(&s->shadow));
  PetscCall(RecordingCOO(A, s, PETSC_FALSE, &ntot, &ci, &cj));
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJCUSPARSE, &cusp));
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &S));
  PetscCall(MatSetSizes(S, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(MatSetBlockSizesFromMats(S, A, A));
  PetscCall(MatSetType(S, cusp ? MATMPIAIJCUSPARSE : MATMPIAIJ));
  PetscCall(IgnoresOffProcEntries(A, &ignore));
  if (ignore) PetscCall(MatSetOption(S, MAT_IGNORE_OFF_PROC_ENTRIES, PETSC_TRUE)); /* the COO then drops them too, as A did */
  PetscCall(MatSetPreallocationCOO(S, ntot, ci, cj));
  PetscCall(PetscFree2(ci, cj));
  PetscCall(SameStorage(A, S, &same));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, MPI_C_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  if (!same) PetscCall(MatDestroy(&S));
  PetscCheck(same, PetscObjectComm((PetscObject)A), PETSC_ERR_PLIB, "Staged assembly: the COO of the recording does not store the nonzeros of the %s matrix in its order", ((PetscObject)A)->type_name);
  s->shadow = S;
  s->built  = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Staged assembly: COO set up in a %s shadow matrix from %" PetscInt_FMT " recorded calls (%" PetscCount_FMT " values) and the %" PetscCount_FMT " nonzeros of the pattern\n", ((PetscObject)S)->type_name, s->ncalls, s->nval, s->ntail));
  PetscCall(PetscLogEventEnd(MATWARP_StageBuild, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rank: whether the sums of the staged entries (recorded values and the pattern's nonzeros) exceed the limit
   (-mat_warp_stage_max_entries; the maps are 32-bit); why says so */
static PetscErrorCode OverMaxEntries(Mat A, MatWarpStage *s, char why[], size_t len, PetscBool *over)
{
  const PetscCount nent = (PetscCount)s->nval + ((Mat_SeqAIJ *)A->data)->nz;

  PetscFunctionBegin;
  *over = (PetscBool)(nent > (PetscCount)s->maxentries);
  if (*over) PetscCall(PetscSNPrintf(why, len, "%" PetscCount_FMT " staged entries exceed %" PetscInt_FMT " (-mat_warp_stage_max_entries; the maps are 32-bit)", nent, s->maxentries));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a sequential matrix's values live on the device (cuSPARSE storage not bound to the CPU) */
static PetscErrorCode DirectOnDevice(Mat A, PetscBool *dev)
{
  PetscFunctionBegin;
  *dev = PETSC_FALSE;
#if PetscDefined(HAVE_CUDA)
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJCUSPARSE, dev));
  if (*dev) *dev = (PetscBool)!A->boundtocpu;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sequential matrices other than MATSEQAIJELLWARP (MATSEQAIJ, MATSEQAIJCUSPARSE): the COO of the recording sorted once
   by ELL-WARP's COO sort (stable: each nonzero sums its values in the order of the calls, as AIJ's MatSetValues() does,
   so that after MatZeroEntries() the matrix is AIJ's bit for bit), on the device for cuSPARSE storage; its pattern must
   be A's CSR, and its maps then sum the staged values straight into A's value array. No second matrix, no change of A's
   structure (PETSc's MatSetPreallocationCOO() would rebuild cuSPARSE's device CSR under products set up on it). */
static PetscErrorCode BuildDirect(Mat A, MatWarpStage *s, char why[], size_t len)
{
  Mat_SeqAIJ *a = (Mat_SeqAIJ *)A->data;
  PetscInt    m = A->rmap->n, n = A->cmap->n, *ci = NULL, *cj = NULL;
  PetscCount  ntot;
  PetscBool   dev, same, over;
  int         err = PETSCWARP_OK, *hrow = NULL, *hcol = NULL;

  PetscFunctionBegin;
  why[0] = 0;
  PetscCall(FreeDirect(s));
  PetscCall(OverMaxEntries(A, s, why, len, &over));
  if (over) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(DirectOnDevice(A, &dev));
  PetscCall(RecordingCOO(A, s, PETSC_FALSE, &ntot, &ci, &cj));
  if (!dev) {
    err  = PetscWarpCOOBuildHost((int)m, (int)n, (long long)ntot, ci, cj, (int)sizeof(PetscInt), &s->coo);
    hrow = s->coo.rowptr;
    hcol = s->coo.colidx;
  }
#if PetscDefined(HAVE_CUDA)
  else {
    cudaStream_t st;
    PetscInt    *d_ij = NULL;
    cudaError_t  cerr;

    PetscCall(PetscGetCurrentCUDAStream(&st));
    s->coo_device = PETSC_TRUE; /* from here on FreeDirect() frees device arrays (the build leaves none on failure) */
    cerr          = cudaMalloc((void **)&d_ij, sizeof(PetscInt) * (size_t)PetscMax(2 * ntot, 1));
    if (cerr == cudaSuccess) {
      PetscCallCUDA(cudaMemcpyAsync(d_ij, ci, sizeof(PetscInt) * (size_t)ntot, cudaMemcpyHostToDevice, st));
      PetscCallCUDA(cudaMemcpyAsync(d_ij + ntot, cj, sizeof(PetscInt) * (size_t)ntot, cudaMemcpyHostToDevice, st));
      PetscCall(PetscLogCpuToGpu(2.0 * sizeof(PetscInt) * (PetscLogDouble)ntot));
      PetscCall(PetscLogGpuTimeBegin());
      err = PetscWarpCOOBuildCUDA((int)m, (int)n, (long long)ntot, d_ij, d_ij + ntot, (int)sizeof(PetscInt), st, &s->coo); /* synchronizes */
      PetscCall(PetscLogGpuTimeEnd());
      PetscCallCUDA(cudaFree(d_ij));
      if (err == cudaSuccess && s->coo.badrow < 0 && s->coo.badcol < 0) {
        cerr = cudaMalloc((void **)&s->d_buf, sizeof(PetscScalar) * (size_t)PetscMax(ntot, 1));
        if (cerr == cudaSuccess) {
          PetscCall(PetscMalloc2(m + 1, &hrow, s->coo.nnz, &hcol));
          PetscCallCUDA(cudaMemcpy(hrow, s->coo.rowptr, sizeof(int) * (size_t)(m + 1), cudaMemcpyDeviceToHost));
          PetscCallCUDA(cudaMemcpy(hcol, s->coo.colidx, sizeof(int) * (size_t)s->coo.nnz, cudaMemcpyDeviceToHost));
          PetscCall(PetscLogGpuToCpu(sizeof(int) * ((PetscLogDouble)m + 1 + s->coo.nnz)));
        } else err = (int)cerr;
      }
    } else err = (int)cerr;
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError(); /* not sticky: clear it */
      err = PETSCWARP_ERR_MEM;
    } else PetscCallCUDA((cudaError_t)err);
  }
#endif
  PetscCall(PetscFree2(ci, cj));
  PetscCall(PetscLogEventEnd(MATWARP_StageBuild, A, 0, 0, 0));
  if (err == PETSCWARP_ERR_MEM || err == PETSCWARP_ERR_RANGE) {
    PetscCall(FreeDirect(s));
    PetscCall(PetscSNPrintf(why, len, "%s setting up the sums of %" PetscCount_FMT " staged entries", err == PETSCWARP_ERR_MEM ? (dev ? "out of device memory" : "out of host memory") : "32-bit positions exceeded", ntot));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(err == PETSCWARP_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged assembly: the COO sort failed (%d)", err);
  same = (PetscBool)(s->coo.badrow < 0 && s->coo.badcol < 0 && s->coo.nnz == a->i[m]);
  for (PetscInt r = 0; r <= m && same; r++) same = (PetscBool)(hrow[r] == a->i[r]);
  for (PetscInt q = 0; q < a->i[m] && same; q++) same = (PetscBool)(hcol[q] == a->j[q]);
  if (dev) PetscCall(PetscFree2(hrow, hcol));
  if (!same) PetscCall(FreeDirect(s));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged assembly: the COO of the recording does not have the pattern of the %s matrix", ((PetscObject)A)->type_name);
  if (dev) {
#if PetscDefined(HAVE_CUDA)
    PetscCallCUDA((cudaError_t)PetscWarpCOOFreeCUDA(&s->coo, PETSCWARP_COO_PATTERN));
#endif
  } else PetscWarpCOOFreeHost(&s->coo, PETSCWARP_COO_PATTERN);
  s->built = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Staged assembly: COO sorted on the %s from %" PetscInt_FMT " recorded calls (%" PetscCount_FMT " values) and the %" PetscCount_FMT " nonzeros of the pattern, summed straight into the CSR values\n", dev ? "device" : "host", s->ncalls, s->nval, s->ntail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sums cannot be set up (too many entries, no memory): the staged values go through AIJ's MatSetValues() and a
   second assembly (inside this one's end), and the matrix is assembled plainly from now on */
static PetscErrorCode GiveUp(Mat A, MatWarpStage *s, const char why[])
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageFallback, A, 0, 0, 0));
  PetscCall(PetscInfo(A, "Staged assembly: %s: the %" PetscInt_FMT " staged calls are replayed through MatSetValues(), plain AIJ assembly from now on\n", why, s->ncalls));
  PetscCall(PetscStrncpy(s->reason, why, sizeof(s->reason)));
  s->busy = PETSC_TRUE; /* the calls and the assembly pass through */
  PetscCall(Replay(A, s, s->ncalls));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  s->busy = PETSC_FALSE;
  PetscCall(ResetRecording(s));
  PetscCall(PetscStrncpy(s->gaveup, why, sizeof(s->gaveup))); /* no more recordings */
  s->nfallback++;
  PetscCall(PetscLogEventEnd(MATWARP_StageFallback, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UploadDirect(Mat A, MatWarpStage *s)
{
  const int    add = !s->zeroed;
  PetscScalar *v;
  PetscBool    dev;

  PetscFunctionBegin;
  PetscCall(DirectOnDevice(A, &dev));
  if (s->built && dev != s->coo_device) { /* bound to the CPU or back since the set-up: the maps where the values are */
    PetscCall(FreeDirect(s));
    s->built = PETSC_FALSE;
  }
  if (!s->built) {
    char why[160];
    PetscCall(BuildDirect(A, s, why, sizeof(why)));
    if (!s->built) {
      PetscCall(GiveUp(A, s, why));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCheck(s->coo.nnz == ((Mat_SeqAIJ *)A->data)->nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged assembly: the sums' pattern (%d nonzeros) no longer matches the matrix's (%" PetscInt_FMT ")", s->coo.nnz, ((Mat_SeqAIJ *)A->data)->nz);
  PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
  if (!dev) {
    if (add) PetscCall(MatSeqAIJGetArray(A, &v));
    else PetscCall(MatSeqAIJGetArrayWrite(A, &v));
    PetscWarpCOOSetValuesHost(s->coo.nnz, s->coo.jmap, s->coo.perm, NULL, s->buf, add, v);
    if (add) PetscCall(MatSeqAIJRestoreArray(A, &v));
    else PetscCall(MatSeqAIJRestoreArrayWrite(A, &v));
    PetscCall(PetscLogFlops((PetscLogDouble)s->coo.nvalid));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    const PetscCount ntot = s->nval + s->ntail; /* after BuildDirect(), which sets ntail: the pattern's zeros are read too */
    cudaStream_t     st;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA(cudaMemcpyAsync(s->d_buf, s->buf, sizeof(PetscScalar) * (size_t)ntot, cudaMemcpyHostToDevice, st));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * (PetscLogDouble)ntot));
    PetscCall(MatSeqAIJCUSPARSEGetArray(A, &v)); /* creates the device CSR if needed (uploads only if the host holds the current values) */
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpCOOSetValuesCUDA(s->coo.nnz, s->coo.jmap, s->coo.perm, NULL, s->d_buf, add, v, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(MatSeqAIJCUSPARSERestoreArray(A, &v));
    PetscCall(PetscLogGpuFlops((PetscLogDouble)s->coo.nvalid));
  }
#endif
  PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Upload(Mat A, MatWarpStage *s)
{
  PetscBool ew;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJELLWARP, &ew));
  if (ew) { /* its own COO, on A */
    PetscErrorCode (*f)(Mat, const PetscScalar[], InsertMode) = NULL;

    PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetValuesCOO_C", &f));
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MATSEQAIJELLWARP without MatSetValuesCOO()");
    if (!s->built) {
      char      why[160];
      PetscBool over;
      PetscCall(OverMaxEntries(A, s, why, sizeof(why), &over));
      if (over) {
        PetscCall(GiveUp(A, s, why));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
    if (!s->built) PetscCall(Build(A, s, f));
    else {
      PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
      s->busy = PETSC_TRUE;
      PetscCall((*f)(A, s->buf, s->zeroed ? INSERT_VALUES : ADD_VALUES));
      s->busy = PETSC_FALSE;
      PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
    }
  } else if (!s->mpi) PetscCall(UploadDirect(A, s)); /* maps straight into the CSR values */
  else {                                             /* the shadow's COO, its values copied into A's storage */
    if (!s->built) PetscCall(BuildShadow(A, s));
    PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
    if (!s->zeroed) PetscCall(CopyValues(A, s->shadow));
    PetscCall(MatSetValuesCOO(s->shadow, s->buf, s->zeroed ? INSERT_VALUES : ADD_VALUES));
    PetscCall(CopyValues(s->shadow, A));
    PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
  }
  if (!s->recorded) PetscFunctionReturn(PETSC_SUCCESS); /* given up (GiveUp()): replayed through MatSetValues() */
  PetscCall(PetscInfo(A, "Staged assembly: %" PetscInt_FMT " calls, %" PetscCount_FMT " values summed by MatSetValuesCOO() (%s)\n", s->ncalls, s->nval, s->zeroed ? "after MatZeroEntries(): INSERT_VALUES" : "no MatZeroEntries(): ADD_VALUES onto the current values"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define ASKED_NAME "__PetscWarp_StageHookAsked"

/* The hook, once per matrix, at the end of the first final assembly in which some rank added values (collective) */
static PetscErrorCode AskHookOnce(Mat A, MatAssemblyType type, PetscBool *taken)
{
  PetscObject asked;
  PetscBool   add, anyadd;

  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  if (!StageHook || type != MAT_FINAL_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectQuery((PetscObject)A, ASKED_NAME, &asked));
  if (asked) PetscFunctionReturn(PETSC_SUCCESS);
  /* MatAssemblyEnd() resets insertmode after the type's assemblyend: still this assembly's here; a rank that set no
     values has NOT_SET_VALUES, so the ranks agree through a reduction (DMPlex's preallocation fills with INSERT_VALUES) */
  add = (PetscBool)(A->insertmode == ADD_VALUES);
  PetscCallMPI(MPIU_Allreduce(&add, &anyadd, 1, MPI_C_BOOL, MPI_LOR, PetscObjectComm((PetscObject)A)));
  if (!anyadd) PetscFunctionReturn(PETSC_SUCCESS);
  {
    PetscContainer c;
    PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
    PetscCall(PetscObjectCompose((PetscObject)A, ASKED_NAME, (PetscObject)c));
    PetscCall(PetscContainerDestroy(&c));
  }
  PetscCall((*StageHook)(A, taken));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Several ranks, at MatAssemblyBegin(MAT_FINAL_ASSEMBLY) before the stash is sent: the ranks agree on the cycle's path
   (one reduction). Each rank's code: 3 staged and matched its whole recording, 2 records, 1 plain with its recording
   kept (INSERT_VALUES, staging off), 0 its recording dropped (a mismatch, fewer calls). Staged where every rank has 3,
   recorded where every rank has 2, else plain everywhere: ranks that staged values replay them into AIJ; where some
   rank dropped its recording every rank drops it (so that the next ADD cycle records everywhere), else the recordings
   stay; an aborted recording does not count. A rank without calls in this cycle takes part with an empty list; a
   cycle in which no rank called MatSetValues() is not a cycle. */
static PetscErrorCode Agree(Mat A, MatWarpStage *s)
{
  PetscBool had = s->incycle;
  PetscInt  loc[4], glob[4];

  PetscFunctionBegin;
  if (!had) PetscCall(CycleBegin(A, s, ADD_VALUES)); /* an empty list, recorded or matched */
  if (s->mode == STAGE_STAGE) loc[0] = s->k == s->ncalls ? 3 : 0;
  else if (s->mode == STAGE_RECORD) loc[0] = 2;
  else loc[0] = s->fellback ? 0 : 1;
  loc[1] = -loc[0];
  loc[2] = had;
  loc[3] = had && A->insertmode == INSERT_VALUES;
  PetscCallMPI(MPIU_Allreduce(loc, glob, 4, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)A)));
  if (!glob[2]) { /* no calls anywhere: undo */
    if (s->mode == STAGE_RECORD) s->nrecordings--;
    s->incycle = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (glob[3]) { /* INSERT_VALUES on some rank: plain everywhere, the recordings kept (as on one rank) */
    if (s->mode == STAGE_STAGE && s->k) PetscCall(Fallback(A, s, "INSERT_VALUES on another rank"));
    else if (s->mode == STAGE_STAGE) PetscCall(Plain(A, s, "INSERT_VALUES on another rank"));
    else if (s->mode == STAGE_RECORD) {
      s->nrecordings--;
      if (had) PetscCall(ResetRecording(s));
      PetscCall(Plain(A, s, "INSERT_VALUES on another rank"));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (-glob[1] == 3) PetscFunctionReturn(PETSC_SUCCESS);                 /* every rank staged */
  if (-glob[1] == 2 && glob[0] == 2) PetscFunctionReturn(PETSC_SUCCESS); /* every rank records */
  if (s->mode == STAGE_STAGE) {
    if (had || -glob[1] == 0) PetscCall(Fallback(A, s, s->k != s->ncalls ? "fewer calls than recorded" : "another rank's calls differ from its recording"));
    else PetscCall(Plain(A, s, "another rank's assembly is not staged (INSERT_VALUES, staging off)"));
  } else if (s->mode == STAGE_RECORD) {
    s->nrecordings--;
    PetscCall(ResetRecording(s));
    PetscCall(Plain(A, s, "another rank does not record this assembly"));
  } else if (-glob[1] == 0 && s->recorded && !s->fellback) PetscCall(ResetRecording(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageAssemblyBegin(Mat A, MatAssemblyType type)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(GetStage(A, &s));
  if (s->mpi && !s->busy && type == MAT_FINAL_ASSEMBLY) PetscCall(Agree(A, s));
  if (s->assemblybegin) PetscCall((*s->assemblybegin)(A, type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageAssemblyEnd(Mat A, MatAssemblyType type)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(GetStage(A, &s));
  if (s->busy || type == MAT_FLUSH_ASSEMBLY || !s->incycle) {
    if (s->assemblyend) PetscCall((*s->assemblyend)(A, type));
    if (!s->busy && type == MAT_FINAL_ASSEMBLY) s->zeroed = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (s->mode == STAGE_STAGE && s->k != s->ncalls) { /* several ranks: Agree() fell back already, before the stash was sent */
    PetscCheck(!s->mpi, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged assembly of an MPI matrix without agreement at MatAssemblyBegin()");
    PetscCall(Fallback(A, s, "fewer calls than recorded"));
  }
  if (s->assemblyend) PetscCall((*s->assemblyend)(A, type));
  if (s->mode == STAGE_STAGE) {
    PetscCall(Upload(A, s));
    if (s->recorded) s->nstaged++; /* else given up (GiveUp()) */
  } else if (s->mode == STAGE_RECORD) {
    PetscBool taken = PETSC_FALSE;
    s->recorded     = PETSC_TRUE;
    PetscCall(PatternStamp(A, s));
    s->nrecorded++;
    PetscCall(PetscInfo(A, "Staged assembly: recorded %" PetscInt_FMT " MatSetValues() calls (%" PetscCount_FMT " values) of an AIJ assembly; the next assemblies with the same sequence are staged and summed by MatSetValuesCOO()\n", s->ncalls, s->nval));
    if (s->mpi) PetscCall(AskHookOnce(A, type, &taken)); /* every rank records: collective */
    else if (StageHook) PetscCall((*StageHook)(A, &taken));
    if (taken) {
      PetscCall(PetscInfo(A, "Staged assembly: recording dropped, the matrix is assembled by another path from now on\n"));
      PetscCall(ResetRecording(s));
    }
  } else {
    if (!s->fellback) {
      s->nplain++;
      PetscCall(PetscInfo(A, "Staged assembly: plain AIJ assembly (%s)\n", s->reason));
    }
    { /* the hook may still want the first ADD_VALUES assembly (staging off); several ranks: every rank is plain */
      PetscBool taken;
      PetscCall(AskHookOnce(A, type, &taken));
    }
  }
  s->incycle = PETSC_FALSE;
  s->zeroed  = PETSC_FALSE;
  if (s->shadow && !s->built) PetscCall(MatDestroy(&s->shadow)); /* the recording was dropped (every rank agreed) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageZeroEntries(Mat A)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(GetStage(A, &s));
  PetscCall((*s->zeroentries)(A));
  if (!s->busy) {
    s->zeroed = PETSC_TRUE;
    s->zstate = ((PetscObject)A)->state + 1; /* MatZeroEntries() increases the state once after this */
    if (s->mpi) {
      Mat blk[2];
      PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
      for (int b = 0; b < 2; b++) s->zbstate[b] = ((PetscObject)blk[b])->state;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpStageInstall_Private(Mat A, const char option[], PetscBool on)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  if (s && A->ops->setvalues == StageSetValues) PetscFunctionReturn(PETSC_SUCCESS);
  if (s) PetscCall(PetscObjectCompose((PetscObject)A, STAGE_NAME, NULL)); /* left by an earlier type of A, whose operations are gone */
  PetscCall(PetscNew(&s));
  { /* an MPIAIJ matrix (on any number of ranks, one included): its blocks hold the pattern and the options */
    PetscErrorCode (*f)(void) = NULL;
    PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", &f));
    s->mpi = (PetscBool)(f != NULL);
  }
  s->setvalues        = A->ops->setvalues;
  s->setvaluesblocked = A->ops->setvaluesblocked;
  s->zeroentries      = A->ops->zeroentries;
  s->assemblybegin    = A->ops->assemblybegin;
  s->assemblyend      = A->ops->assemblyend;
  s->on               = on;
  s->maxentries       = PETSC_INT_MAX;
  PetscCall(PetscStrncpy(s->option, option, sizeof(s->option)));
  PetscCall(PetscStrncpy(s->reason, "no assembly yet", sizeof(s->reason)));
  PetscCall(PetscObjectContainerCompose((PetscObject)A, STAGE_NAME, s, StageDestroy));
  A->ops->setvalues        = StageSetValues;
  A->ops->setvaluesblocked = NULL; /* MatSetValuesBlocked() then expands the blocks and calls setvalues */
  A->ops->zeroentries      = StageZeroEntries;
  A->ops->assemblyend      = StageAssemblyEnd;
  if (s->mpi) A->ops->assemblybegin = StageAssemblyBegin; /* the ranks' agreement before the stash is sent */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpStageUninstall_Private(Mat A)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  if (A->ops->setvalues == StageSetValues) A->ops->setvalues = s->setvalues;
  if (!A->ops->setvaluesblocked) A->ops->setvaluesblocked = s->setvaluesblocked;
  if (A->ops->zeroentries == StageZeroEntries) A->ops->zeroentries = s->zeroentries;
  if (A->ops->assemblyend == StageAssemblyEnd) A->ops->assemblyend = s->assemblyend;
  if (A->ops->assemblybegin == StageAssemblyBegin) A->ops->assemblybegin = s->assemblybegin;
  PetscCall(PetscObjectCompose((PetscObject)A, STAGE_NAME, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpStageCopySettings_Private(Mat A, Mat B)
{
  MatWarpStage *a, *b;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &a));
  PetscCall(PetscObjectContainerQuery((PetscObject)B, STAGE_NAME, &b));
  if (!a || !b || !a->optread) PetscFunctionReturn(PETSC_SUCCESS); /* A's settings not decided yet: B reads the options */
  b->on         = a->on;
  b->maxentries = a->maxentries;
  b->optread    = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpStageSetHook_Private(MatWarpStageHook hook)
{
  PetscFunctionBegin;
  StageHook = hook;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatWarpSetStage - Turns staged reassembly on or off for a `MATELLWARP` or `MATSHAREDNZ` matrix

  Logically Collective

  Input Parameters:
+ A   - the matrix (`MATELLWARP` or `MATSHAREDNZ`, on one or several ranks)
- flg - `PETSC_TRUE` to stage

  Options Database Keys:
+ -mat_ellwarp_stage <bool>  - for `MATELLWARP` (default true)
. -mat_sharednz_stage <bool> - for `MATSHAREDNZ` (default true)
- -mat_warp_stage_max_entries <n> - one rank: most staged entries (recorded values plus nonzeros) whose sums are set up (default and upper limit: the largest `PetscInt`; the maps are 32-bit)

  Level: intermediate

  Notes:
  The first `ADD_VALUES` assembly records the index lists of its `MatSetValues()` calls (and is PETSc's AIJ assembly).
  A later assembly that repeats the sequence call by call only copies the values to a host buffer; `MatAssemblyEnd()`
  sums them with `MatSetValuesCOO()` (on the device for `MATELLWARP` with the CUDA backend and for `MATSHAREDNZ`), so
  that the values are current on the device without a host insertion and an upload of the matrix. After
  `MatZeroEntries()` the result is the matrix AIJ would assemble (the same sums in the same order); without it, or when
  the values changed after it (`MatShift()`, `MatDiagonalSet()`, ...), the staged values are added to the current ones
  (equal up to rounding). Where the sums cannot be set up on one rank (more entries than
  `-mat_warp_stage_max_entries` or than the 32-bit maps hold, no memory for them) the staged values are replayed
  through `MatSetValues()` and the matrix is assembled plainly from then on. Any difference from the recording (indices,
  sizes, number of calls, `INSERT_VALUES`) makes that assembly plain AIJ assembly (the values staged so far are
  replayed) and the next `ADD_VALUES` assembly records anew; `-info` says which path ran and why, `-log_view` shows the
  events `WarpStageBuild`, `WarpStageUpload` and `WarpStageFallback`.

  A `MATELLWARP` duplicate (`MatDuplicate()`) gets the matrix's setting (not its recording).

  On by default: an assembly that is never repeated costs only the copy of its index lists, every mismatch falls back
  to exact AIJ assembly, and the COO is set up only when a sequence is repeated.

  `MATSEQAIJELLWARP` sets the COO up on itself; other sequential matrices sort it once and sum the staged values
  straight into their CSR values (on the device for cuSPARSE storage), in the order of the calls; parallel matrices
  set it up in a shadow matrix of the same storage, whose summed values are copied into the matrix's blocks (device to
  device for cuSPARSE; the shadow costs a second copy of the values and their indices). The matrix's objects,
  structure and nonzero state stay, so products and preconditioners set up on it stay valid.

  On several ranks the parallel matrix stages its own calls (global indices, rows owned by other ranks included: the
  shadow's `MatSetValuesCOO()` sends them). Since the COO functions are collective, the ranks agree at
  `MatAssemblyBegin()`: an assembly is staged only when every rank's calls match its recording (a rank without calls
  has an empty one), where one rank differs every rank falls back to plain assembly, and an assembly with
  `INSERT_VALUES` on some rank is plain everywhere. The sums are AIJ's up to rounding (the order in which other ranks'
  contributions arrive). `MATMPIAIJELLWARP`'s shadow is `MATMPIAIJ` (MPIAIJ's COO sums on the host, then the blocks
  upload their values); `MATSHAREDNZ`'s is `MATMPIAIJCUSPARSE` (sums on the device).

.seealso: `MatWarpGetStageInfo()`, `MATELLWARP`, `MATSHAREDNZ`, `MatSetValuesCOO()`, `DMPlexSNESComputeJacobianFEM()`
@*/
PetscErrorCode MatWarpSetStage(Mat A, PetscBool flg)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  PetscCheck(s, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Staged assembly is for MATELLWARP and MATSHAREDNZ matrices, not %s", ((PetscObject)A)->type_name);
  PetscCheck(!s->incycle, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not during an assembly");
  s->on      = flg;
  s->optread = PETSC_TRUE;
  if (flg) s->gaveup[0] = 0; /* asked again: try again */
  if (!flg) {
    PetscCall(ResetRecording(s));
    PetscCall(MatDestroy(&s->shadow));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatWarpGetStageInfo - What staged reassembly did with a matrix

  Not Collective

  Input Parameter:
. A - the matrix

  Output Parameter:
. info - whether staging is available and on, the recording, and how many assemblies ran each path (all zero, and
         `enabled` false, for a matrix type without staging)

  Level: intermediate

.seealso: `MatWarpSetStage()`, `MatWarpStageInfo`
@*/
PetscErrorCode MatWarpGetStageInfo(Mat A, MatWarpStageInfo *info)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(info, 2);
  PetscCall(PetscMemzero(info, sizeof(*info)));
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  if (!s) {
    PetscCall(PetscStrncpy(info->reason, "not a matrix type with staged assembly", sizeof(info->reason)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  info->available = PETSC_TRUE;
  info->enabled   = s->on;
  info->recorded  = s->recorded;
  info->built     = s->built;
  info->ncalls    = s->ncalls;
  info->nvalues   = s->nval + s->ntail;
  info->nrecorded = s->nrecorded;
  info->nstaged   = s->nstaged;
  info->nfallback = s->nfallback;
  info->nplain    = s->nplain;
  PetscCall(PetscStrncpy(info->reason, s->reason, sizeof(info->reason)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
