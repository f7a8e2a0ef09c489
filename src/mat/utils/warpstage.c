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
  - A call that differs (other indices, sizes, more or fewer calls, INSERT_VALUES, another orientation): the values
    staged so far are replayed through AIJ's MatSetValues() and the cycle goes on as plain AIJ assembly (-info says
    why); the recording is dropped, and the next ADD cycle records again (at most MAX_RECORDINGS times).
*/
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp_petsc_aij.h>

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
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
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
  PetscObjectState nzstate; /* the nonzero state the recording (and its COO) is valid for */
  PetscCount       ntail;   /* nonzeros of the pattern appended to the COO */
  PetscScalar     *buf;     /* nval + ntail values */
  /* the cycle */
  StageMode mode;
  PetscBool incycle, zeroed, busy, fellback;
  PetscInt  k;
  /* statistics */
  PetscInt nrecordings, nrecorded, nstaged, nfallback, nplain;
  char     reason[128];
} MatWarpStage;

static PetscErrorCode ResetRecording(MatWarpStage *s)
{
  PetscFunctionBegin;
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
static PetscErrorCode Fallback(Mat A, MatWarpStage *s, const char why[])
{
  Mat_SeqAIJ *a  = (Mat_SeqAIJ *)A->data;
  PetscBool   ro = a->roworiented;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageFallback, A, 0, 0, 0));
  PetscCall(PetscStrncpy(s->reason, why, sizeof(s->reason)));
  PetscCall(PetscInfo(A, "Staged assembly: %s at call %" PetscInt_FMT " of %" PetscInt_FMT "; the %" PetscInt_FMT " calls staged so far are replayed, plain AIJ assembly from here on, recording again at the next ADD_VALUES assembly\n", why, s->k, s->ncalls, s->k));
  a->roworiented = s->roworiented;
  for (PetscInt j = 0; j < s->k; j++) PetscCall((*s->setvalues)(A, s->cm[j], s->idx + s->ioff[j], s->cn[j], s->idx + s->ioff[j] + s->cm[j], s->buf + s->voff[j], ADD_VALUES));
  a->roworiented = ro;
  s->mode        = STAGE_PLAIN;
  s->fellback    = PETSC_TRUE;
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

/* The first MatSetValues() of a cycle decides how the cycle runs */
static PetscErrorCode CycleBegin(Mat A, MatWarpStage *s, InsertMode addv)
{
  Mat_SeqAIJ *a = (Mat_SeqAIJ *)A->data;

  PetscFunctionBegin;
  s->incycle  = PETSC_TRUE;
  s->fellback = PETSC_FALSE;
  s->k        = 0;
  if (!s->optread) {
    PetscObjectOptionsBegin((PetscObject)A);
    PetscCall(PetscOptionsBool(s->option, "Stage the values of a repeated MatSetValues() sequence and sum them on the device (MatSetValuesCOO())", "MatWarpSetStage", s->on, &s->on, NULL));
    PetscOptionsEnd();
    s->optread = PETSC_TRUE;
  }
  if (!s->on) PetscCall(Plain(A, s, "staging is off"));
  else if (addv != ADD_VALUES) PetscCall(Plain(A, s, "INSERT_VALUES (only ADD_VALUES assemblies are staged)"));
  else if (a->nonew == 1 || a->ignorezeroentries) PetscCall(Plain(A, s, "MAT_NEW_NONZERO_LOCATIONS false or MAT_IGNORE_ZERO_ENTRIES (AIJ drops entries the COO would keep)"));
  else {
    if (s->recorded && A->nonzerostate != s->nzstate) {
      PetscCall(PetscInfo(A, "Staged assembly: the nonzero pattern changed since the recording: recording again\n"));
      PetscCall(ResetRecording(s));
    }
    if (s->recorded) {
      s->mode = STAGE_STAGE;
      if (!s->buf) PetscCall(PetscMalloc1(s->nval, &s->buf)); /* at the first repeat: one-shot assemblies keep only the indices */
    } else if (s->nrecordings < MAX_RECORDINGS) {
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
      else if (((Mat_SeqAIJ *)A->data)->roworiented != s->roworiented) ko = "another MAT_ROW_ORIENTED";
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

/* The COO of the recording: its entries (as recorded, in value order), then every nonzero of the AIJ pattern with a
   zero value (or, without MatZeroEntries(), the current value), so that the pattern stays AIJ's own */
static PetscErrorCode Build(Mat A, MatWarpStage *s, PetscErrorCode (*setvaluescoo)(Mat, const PetscScalar[], InsertMode))
{
  Mat_SeqAIJ        *a = (Mat_SeqAIJ *)A->data;
  PetscInt           m = A->rmap->n, *ci, *cj, nonew = a->nonew;
  PetscCount         ntail = a->i[m], ntot = s->nval + ntail;
  PetscScalar       *buf;
  PetscObjectState   before = A->nonzerostate;
  PetscBool          isew;
  const PetscScalar *aa;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(PetscMalloc2(ntot, &ci, ntot, &cj));
  for (PetscInt k = 0; k < s->ncalls; k++) {
    const PetscInt   cm = s->cm[k], cn = s->cn[k], *r = s->idx + s->ioff[k], *c = r + cm;
    const PetscCount o = s->voff[k];
    for (PetscInt i = 0; i < cm; i++)
      for (PetscInt j = 0; j < cn; j++) {
        PetscCount p = o + (s->roworiented ? (PetscCount)i * cn + j : (PetscCount)j * cm + i);
        ci[p]        = r[i];
        cj[p]        = c[j];
      }
  }
  for (PetscInt r = 0; r < m; r++)
    for (PetscInt p = a->i[r]; p < a->i[r + 1]; p++) ci[s->nval + p] = r, cj[s->nval + p] = a->j[p];
  PetscCall(PetscMalloc1(ntot, &buf));
  PetscCall(PetscArraycpy(buf, s->buf, s->nval));
  PetscCall(PetscFree(s->buf));
  s->buf   = buf;
  s->ntail = ntail;
  if (s->zeroed) PetscCall(PetscArrayzero(buf + s->nval, ntail));
  else {
    PetscCall(MatSeqAIJGetArrayRead(A, &aa)); /* the values before this assembly (pulled from the device if only there) */
    PetscCall(PetscArraycpy(buf + s->nval, aa, ntail));
    PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  }
  s->busy = PETSC_TRUE; /* its own assemblies pass through */
  PetscCall(MatSetPreallocationCOO(A, ntot, ci, cj));
  s->busy = PETSC_FALSE;
  PetscCall(PetscFree2(ci, cj));
  a = (Mat_SeqAIJ *)A->data;
  PetscCheck(a->nz == ntail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The COO of the recording has %" PetscInt_FMT " nonzeros, the AIJ pattern %" PetscCount_FMT, a->nz, ntail);
  a->nonew = nonew; /* the COO preallocation makes new nonzeros an error; AIJ's setting stays */
  /* the pattern is the one it was: keep the nonzero state, so that preconditioners keep their symbolic set-up */
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJELLWARP, &isew));
  if (isew) {
    Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
    if (ew->built && ew->nzstate == A->nonzerostate) ew->nzstate = before;
  }
  A->nonzerostate = before;
  s->built        = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Staged assembly: COO set up from %" PetscInt_FMT " recorded calls (%" PetscCount_FMT " values) and the %" PetscCount_FMT " nonzeros of the pattern\n", s->ncalls, s->nval, ntail));
  PetscCall(PetscLogEventEnd(MATWARP_StageBuild, A, 0, 0, 0));
  PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
  PetscCall((*setvaluescoo)(A, s->buf, INSERT_VALUES));
  PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
  PetscCall(PetscArrayzero(s->buf + s->nval, ntail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Upload(Mat A, MatWarpStage *s)
{
  PetscErrorCode (*f)(Mat, const PetscScalar[], InsertMode) = NULL;

  PetscFunctionBegin;
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatSetValuesCOO_C", &f));
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_SUP, "Staged assembly needs a matrix type with MatSetValuesCOO(), not %s", ((PetscObject)A)->type_name);
  if (!s->built) PetscCall(Build(A, s, f));
  else {
    PetscCall(PetscLogEventBegin(MATWARP_StageUpload, A, 0, 0, 0));
    PetscCall((*f)(A, s->buf, s->zeroed ? INSERT_VALUES : ADD_VALUES));
    PetscCall(PetscLogEventEnd(MATWARP_StageUpload, A, 0, 0, 0));
  }
  PetscCall(PetscInfo(A, "Staged assembly: %" PetscInt_FMT " calls, %" PetscCount_FMT " values summed by MatSetValuesCOO() (%s)\n", s->ncalls, s->nval, s->zeroed ? "after MatZeroEntries(): INSERT_VALUES" : "no MatZeroEntries(): ADD_VALUES onto the current values"));
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
  if (s->mode == STAGE_STAGE && s->k != s->ncalls) PetscCall(Fallback(A, s, "fewer calls than recorded"));
  if (s->assemblyend) PetscCall((*s->assemblyend)(A, type));
  if (s->mode == STAGE_STAGE) {
    PetscCall(Upload(A, s));
    s->nstaged++;
  } else if (s->mode == STAGE_RECORD) {
    PetscBool taken = PETSC_FALSE;
    s->recorded     = PETSC_TRUE;
    s->nzstate      = A->nonzerostate;
    s->nrecorded++;
    PetscCall(PetscInfo(A, "Staged assembly: recorded %" PetscInt_FMT " MatSetValues() calls (%" PetscCount_FMT " values) of an AIJ assembly; the next assemblies with the same sequence are staged and summed by MatSetValuesCOO()\n", s->ncalls, s->nval));
    if (StageHook) PetscCall((*StageHook)(A, &taken));
    if (taken) {
      PetscCall(PetscInfo(A, "Staged assembly: recording dropped, the matrix is assembled by another path from now on\n"));
      PetscCall(ResetRecording(s));
    }
  } else if (!s->fellback) {
    s->nplain++;
    PetscCall(PetscInfo(A, "Staged assembly: plain AIJ assembly (%s)\n", s->reason));
  }
  s->incycle = PETSC_FALSE;
  s->zeroed  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StageZeroEntries(Mat A)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(GetStage(A, &s));
  PetscCall((*s->zeroentries)(A));
  if (!s->busy) s->zeroed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpStageInstall_Private(Mat A, const char option[], PetscBool on)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  if (s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&s));
  s->setvalues        = A->ops->setvalues;
  s->setvaluesblocked = A->ops->setvaluesblocked;
  s->zeroentries      = A->ops->zeroentries;
  s->assemblyend      = A->ops->assemblyend;
  s->on               = on;
  PetscCall(PetscStrncpy(s->option, option, sizeof(s->option)));
  PetscCall(PetscStrncpy(s->reason, "no assembly yet", sizeof(s->reason)));
  PetscCall(PetscObjectContainerCompose((PetscObject)A, STAGE_NAME, s, StageDestroy));
  A->ops->setvalues        = StageSetValues;
  A->ops->setvaluesblocked = NULL; /* MatSetValuesBlocked() then expands the blocks and calls setvalues */
  A->ops->zeroentries      = StageZeroEntries;
  A->ops->assemblyend      = StageAssemblyEnd;
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
  PetscCall(PetscObjectCompose((PetscObject)A, STAGE_NAME, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define ASKED_NAME "__PetscWarp_StageHookAsked"

PetscErrorCode MatWarpStageAskHook_Private(Mat A, MatAssemblyType type)
{
  PetscObject asked;
  PetscBool   add, anyadd, taken = PETSC_FALSE;

  PetscFunctionBegin;
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
  PetscCall((*StageHook)(A, &taken));
  if (taken) PetscCall(PetscInfo(A, "First ADD_VALUES assembly of a matrix without staging: assembled by another path from now on\n"));
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
+ A   - the matrix (sequential `MATSEQAIJELLWARP`, or `MATSHAREDNZ`)
- flg - `PETSC_TRUE` to stage

  Options Database Keys:
+ -mat_ellwarp_stage <bool>  - for `MATELLWARP` (default true)
- -mat_sharednz_stage <bool> - for `MATSHAREDNZ` (default false: with it, a cuSPARSE SpGEMM kernel of GAMG's Galerkin product spins forever in PETSc's ex56 on the H100; `-matptap_backend_cpu` avoids it; bench/RESULTS.md, 2026-11-26)

  Level: intermediate

  Notes:
  The first `ADD_VALUES` assembly records the index lists of its `MatSetValues()` calls (and is PETSc's AIJ assembly).
  A later assembly that repeats the sequence call by call only copies the values to a host buffer; `MatAssemblyEnd()`
  sums them with `MatSetValuesCOO()` (on the device for `MATELLWARP` with the CUDA backend and for `MATSHAREDNZ`), so
  that the values are current on the device without a host insertion and an upload of the matrix. After
  `MatZeroEntries()` the result is the matrix AIJ would assemble (the same sums in the same order); without it the
  staged values are added to the current ones (equal up to rounding). Any difference from the recording (indices,
  sizes, number of calls, `INSERT_VALUES`) makes that assembly plain AIJ assembly (the values staged so far are
  replayed) and the next `ADD_VALUES` assembly records anew; `-info` says which path ran and why, `-log_view` shows the
  events `WarpStageBuild`, `WarpStageUpload` and `WarpStageFallback`.

  On by default: an assembly that is never repeated costs only the copy of its index lists, every mismatch falls back
  to exact AIJ assembly, and the COO is set up only when a sequence is repeated. The blocks of a parallel
  `MATMPIAIJELLWARP` are not staged (`MatSetValues()` of MPIAIJ does not go through their operations).

.seealso: `MatWarpGetStageInfo()`, `MATELLWARP`, `MATSHAREDNZ`, `MatSetValuesCOO()`, `DMPlexSNESComputeJacobianFEM()`
@*/
PetscErrorCode MatWarpSetStage(Mat A, PetscBool flg)
{
  MatWarpStage *s;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveBool(A, flg, 2);
  PetscCall(PetscObjectContainerQuery((PetscObject)A, STAGE_NAME, &s));
  PetscCheck(s, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "Staged assembly is for sequential MATELLWARP and MATSHAREDNZ matrices, not %s", ((PetscObject)A)->type_name);
  PetscCheck(!s->incycle, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Not during an assembly");
  s->on      = flg;
  s->optread = PETSC_TRUE;
  if (!flg) PetscCall(ResetRecording(s));
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
