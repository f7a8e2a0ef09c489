/*
  MATSEQAIJELLWARP's MatSetPreallocationCOO() and MatSetValuesCOO(): assembly through PETSc's COO interface straight
  into the ELL-WARP layout.

  Preallocation (on the device with the CUDA backend, else in the host twin; src/kernels/ellwarp_coo*): sort the
  entries by (row, column), drop those with a negative index, and get the CSR pattern and the maps jmap/perm of PETSc's
  MatCOOStruct_SeqAIJ. The pattern becomes the AIJ pattern (downloaded once, written directly into Mat_SeqAIJ, whose
  header scripts/setup.sh extracts, see ellwarpvalues.c) and the layout is built from it (on the device from the
  device copy: no upload). jmap/perm stay where the layout is, in a container shared with duplicates, as AIJ shares its
  MatCOOStruct_SeqAIJ.

  Values: one kernel sums the entries of each nonzero k (v[perm[jmap[k] .. jmap[k+1]-1]], v in host or device memory)
  into the layout slot of CSR position k (slot[], from the layout's slot -> position map, per build). The layout then
  holds the only current values, as after a device assembly (MatEllWarpLayoutWritten_Private()): the first host read
  pulls them back once.
*/
#include <petscwarp/private/ellwarpimpl.h>
#include <petscwarp/private/ellwarpcookernels.h>
#include <petscwarp_petsc_aij.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

#define COO_NAME "__PetscWarp_MatCOOStruct_EllWarp"

/* jmap/perm of the last MatSetPreallocationCOO(): on the host, on the device, or both (a copy made on demand when the
   backend of the matrix or of a duplicate differs) */
typedef struct {
  PetscWarpCOO h, d;
  PetscBool    onhost, ondevice;
} EllWarpCOO;

static PetscErrorCode COODestroy(PetscCtxRt ctx)
{
  EllWarpCOO *coo = *(EllWarpCOO **)ctx;

  PetscFunctionBegin;
  PetscWarpCOOFreeHost(&coo->h, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS); /* the pattern too, after an error */
#if PetscDefined(HAVE_CUDA)
  PetscCallCUDA((cudaError_t)PetscWarpCOOFreeCUDA(&coo->d, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS));
#endif
  PetscCall(PetscFree(coo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The maps on the side asked for */
static PetscErrorCode GetMaps(EllWarpCOO *coo, PetscBool device, PetscWarpCOO **C)
{
  PetscFunctionBegin;
  *C = NULL; /* gcc -O3 without CUDA: maybe-uninitialized in the callers otherwise */
#if PetscDefined(HAVE_CUDA)
  if (device && !coo->ondevice) {
    PetscCallCUDA((cudaError_t)PetscWarpCOOMapsToDeviceCUDA(&coo->h, &coo->d));
    PetscCall(PetscLogCpuToGpu(sizeof(int) * ((PetscLogDouble)coo->h.nnz + 1 + coo->h.nvalid)));
    coo->ondevice = PETSC_TRUE;
  }
  if (!device && !coo->onhost) {
    PetscCallCUDA((cudaError_t)PetscWarpCOOMapsToHostCUDA(&coo->d, &coo->h));
    PetscCall(PetscLogGpuToCpu(sizeof(int) * ((PetscLogDouble)coo->d.nnz + 1 + coo->d.nvalid)));
    coo->onhost = PETSC_TRUE;
  }
#endif
  PetscCheck(device ? coo->ondevice : coo->onhost, PETSC_COMM_SELF, PETSC_ERR_PLIB, "COO maps missing");
  *C = device ? &coo->d : &coo->h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Out-of-range indices: the errors of MatSetPreallocationCOO_SeqAIJ() */
static PetscErrorCode CheckIndices(Mat A, const PetscWarpCOO *C)
{
  PetscFunctionBegin;
  PetscCheck(C->badrow < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "COO row index %lld is >= the matrix row size %" PetscInt_FMT, C->badrow, A->rmap->n);
  PetscCheck(C->badcol < 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "COO column index %lld is >= the matrix column size %" PetscInt_FMT, C->badcol, A->cmap->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Make the CSR pattern (rowptr, colidx) the AIJ pattern of A, with zero values: preallocate exactly, fill the columns,
   assemble. New nonzero locations are then an error, as after MatSetPreallocationCOO_SeqAIJ(). */
/* The AIJ pattern from the COO pattern's CSR (MatWarpSeqAIJSetPatternCSR_Private(): exact preallocation, zero values) */
static PetscErrorCode SetPattern(Mat A, const int rowptr[], const int colidx[])
{
  PetscInt m = A->rmap->n;

  PetscFunctionBegin;
  if (sizeof(PetscInt) == sizeof(int)) PetscCall(MatWarpSeqAIJSetPatternCSR_Private(A, (const PetscInt *)rowptr, (const PetscInt *)colidx));
  else {
    PetscInt *ri, *cj;

    PetscCall(PetscMalloc2(m + 1, &ri, rowptr[m], &cj));
    for (PetscInt r = 0; r <= m; r++) ri[r] = rowptr[r];
    for (PetscInt k = 0; k < rowptr[m]; k++) cj[k] = colidx[k];
    PetscCall(MatWarpSeqAIJSetPatternCSR_Private(A, ri, cj));
    PetscCall(PetscFree2(ri, cj));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
/* The symbolic step on the device; the pattern, the AIJ pattern and the layout (built from the device pattern) */
static PetscErrorCode PreallocateCUDA(Mat A, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[], EllWarpCOO *coo)
{
  PetscWarpCOO *C = &coo->d;
  PetscInt      m = A->rmap->n, n = A->cmap->n;
  PetscMemType  mt = PETSC_MEMTYPE_HOST;
  cudaStream_t  st;
  PetscInt     *d_ij = NULL;
  const void   *di = coo_i, *dj = coo_j;
  int           err, *hrow, *hcol;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&st));
  if (ncoo) PetscCall(PetscGetMemType(coo_i, &mt));
  if (ncoo && PetscMemTypeHost(mt)) {
    PetscCallCUDA(cudaMalloc((void **)&d_ij, sizeof(PetscInt) * (size_t)(2 * ncoo)));
    PetscCallCUDA(cudaMemcpyAsync(d_ij, coo_i, sizeof(PetscInt) * (size_t)ncoo, cudaMemcpyHostToDevice, st));
    PetscCallCUDA(cudaMemcpyAsync(d_ij + ncoo, coo_j, sizeof(PetscInt) * (size_t)ncoo, cudaMemcpyHostToDevice, st));
    PetscCall(PetscLogCpuToGpu(2.0 * sizeof(PetscInt) * (PetscLogDouble)ncoo));
    di = d_ij;
    dj = d_ij + ncoo;
  }
  PetscCall(PetscLogGpuTimeBegin());
  err = PetscWarpCOOBuildCUDA((int)m, (int)n, (long long)ncoo, di, dj, (int)sizeof(PetscInt), st, C); /* synchronizes */
  PetscCall(PetscLogGpuTimeEnd());
  if (d_ij) PetscCallCUDA(cudaFree(d_ij));
  PetscCheck(err != cudaErrorMemoryAllocation, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of device memory sorting %" PetscCount_FMT " COO entries", ncoo);
  PetscCallCUDA((cudaError_t)err);
  coo->ondevice = PETSC_TRUE;
  PetscCall(CheckIndices(A, C));
  PetscCall(PetscMalloc2(m + 1, &hrow, C->nnz, &hcol));
  PetscCallCUDA(cudaMemcpy(hrow, C->rowptr, sizeof(int) * (size_t)(m + 1), cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaMemcpy(hcol, C->colidx, sizeof(int) * (size_t)C->nnz, cudaMemcpyDeviceToHost));
  PetscCall(PetscLogGpuToCpu(sizeof(int) * ((PetscLogDouble)m + 1 + C->nnz)));
  PetscCall(SetPattern(A, hrow, hcol));
  if (!A->structure_only) PetscCall(MatEllWarpBuildFromDevice_Private(A, hrow, C->rowptr, C->colidx));
  PetscCall(PetscFree2(hrow, hcol));
  PetscCallCUDA((cudaError_t)PetscWarpCOOFreeCUDA(C, PETSCWARP_COO_PATTERN));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* The host twin */
static PetscErrorCode PreallocateHost(Mat A, PetscCount ncoo, const PetscInt coo_i[], const PetscInt coo_j[], EllWarpCOO *coo)
{
  PetscWarpCOO   *C = &coo->h;
  PetscInt        m = A->rmap->n, n = A->cmap->n, *tmp = NULL;
  const PetscInt *hi = coo_i, *hj = coo_j;
  int             err;

  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  {
    PetscMemType mt = PETSC_MEMTYPE_HOST;
    if (ncoo) PetscCall(PetscGetMemType(coo_i, &mt));
    if (ncoo && PetscMemTypeDevice(mt)) {
      PetscCall(PetscMalloc1(2 * ncoo, &tmp));
      PetscCallCUDA(cudaMemcpy(tmp, coo_i, sizeof(PetscInt) * (size_t)ncoo, cudaMemcpyDeviceToHost));
      PetscCallCUDA(cudaMemcpy(tmp + ncoo, coo_j, sizeof(PetscInt) * (size_t)ncoo, cudaMemcpyDeviceToHost));
      PetscCall(PetscLogGpuToCpu(2.0 * sizeof(PetscInt) * (PetscLogDouble)ncoo));
      hi = tmp;
      hj = tmp + ncoo;
    }
  }
#endif
  err = PetscWarpCOOBuildHost((int)m, (int)n, (long long)ncoo, hi, hj, (int)sizeof(PetscInt), C);
  PetscCall(PetscFree(tmp));
  PetscCheck(err != PETSCWARP_ERR_MEM, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of host memory sorting %" PetscCount_FMT " COO entries", ncoo);
  PetscCheck(err == PETSCWARP_OK, PETSC_COMM_SELF, PETSC_ERR_SUP, "ELL-WARP's COO assembly uses 32-bit positions: too many COO entries (%" PetscCount_FMT ")", ncoo);
  coo->onhost = PETSC_TRUE;
  PetscCall(CheckIndices(A, C));
  PetscCall(SetPattern(A, C->rowptr, C->colidx));
  if (!A->structure_only) PetscCall(MatEllWarpSetUp_Private(A)); /* the layout, from the host pattern */
  PetscWarpCOOFreeHost(C, PETSCWARP_COO_PATTERN);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetPreallocationCOO_SeqAIJEllWarp(Mat A, PetscCount ncoo, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  EllWarpCOO        *coo;

  PetscFunctionBegin;
  PetscCheck(ncoo <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ELL-WARP's COO assembly uses 32-bit positions: %" PetscCount_FMT " COO entries are too many for one matrix (block); use more MPI ranks", ncoo);
  PetscCheck(A->rmap->n < PETSC_INT32_MAX && A->cmap->n < PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ELL-WARP uses 32-bit indices: a %" PetscInt_FMT " x %" PetscInt_FMT " block is too large", A->rmap->n, A->cmap->n);
  PetscCall(PetscLogEventBegin(MATELLWARP_COOPre, A, 0, 0, 0));
  ew->layout_only = PETSC_FALSE; /* the values of the old pattern are dropped with it */
  PetscCall(MatEllWarpReset_Private(A));
  PetscCall(PetscObjectCompose((PetscObject)A, COO_NAME, NULL));
  PetscCall(PetscObjectCompose((PetscObject)A, "__PETSc_MatCOOStruct_Host", NULL)); /* AIJ's, from before a conversion */
  PetscCall(PetscNew(&coo));
  PetscCall(PetscObjectContainerCompose((PetscObject)A, COO_NAME, coo, COODestroy)); /* frees what an error leaves */
  if (ew->opt.backend == MAT_ELLWARP_BACKEND_CUDA) {
#if PetscDefined(HAVE_CUDA)
    PetscCall(PreallocateCUDA(A, ncoo, coo_i, coo_j, coo));
#endif
  } else PetscCall(PreallocateHost(A, ncoo, coo_i, coo_j, coo));
  /* MatSetPreallocationCOO() increases the nonzero state once more after this function: the layout is the one of that
     state (were it called another way, the states differ and the layout is only rebuilt: no harm) */
  if (ew->built) ew->nzstate = A->nonzerostate + 1;
  PetscCall(PetscLogEventEnd(MATELLWARP_COOPre, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CSR position -> slot of the layout in use, in the layout's memory */
static PetscErrorCode GetSlots(Mat A, const int **slot)
{
  Mat_SeqAIJEllWarp *ew     = (Mat_SeqAIJEllWarp *)A->spptr;
  PetscBool          device = (PetscBool)(ew->built_backend == MAT_ELLWARP_BACKEND_CUDA);

  PetscFunctionBegin;
  if (!ew->coo_slot || ew->coo_slot_build != ew->nbuilds || ew->coo_slot_device != device) {
    PetscCall(MatEllWarpCOOReset_Private(A));
    if (device) {
#if PetscDefined(HAVE_CUDA)
      cudaStream_t st;
      PetscCall(PetscGetCurrentCUDAStream(&st));
      PetscCallCUDA(cudaMalloc((void **)&ew->coo_slot, sizeof(int) * (size_t)PetscMax(ew->E.nnz, 1)));
      PetscCallCUDA((cudaError_t)PetscWarpEllPos2SlotCUDA(&ew->E, ew->coo_slot, st));
#endif
    } else {
      PetscCall(PetscMalloc1(PetscMax(ew->E.nnz, 1), &ew->coo_slot));
      PetscWarpEllPos2SlotHost(&ew->E, ew->coo_slot);
    }
    ew->coo_slot_build  = ew->nbuilds;
    ew->coo_slot_device = device;
  }
  *slot = ew->coo_slot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetValuesCOO_SeqAIJEllWarp(Mat A, const PetscScalar v[], InsertMode imode)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;
  EllWarpCOO        *coo;
  PetscWarpCOO      *C    = NULL;
  const int         *slot = NULL;
  PetscMemType       mt   = PETSC_MEMTYPE_HOST;
  int                add  = imode != INSERT_VALUES; /* as MatSetValuesCOO_SeqAIJ() */
  PetscBool          device;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)A, COO_NAME, &coo));
  if (!coo || !(coo->onhost || coo->ondevice)) { /* e.g. an AIJ matrix preallocated with COO, then converted: AIJ's host path through the value hooks */
    PetscCheck(ew->parent.setvaluescoo, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call MatSetPreallocationCOO() before MatSetValuesCOO()");
    PetscCall((*ew->parent.setvaluescoo)(A, v, imode));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MATELLWARP_COOVal, A, 0, 0, 0));
  PetscCall(MatEllWarpSetUp_Private(A)); /* build or refresh the layout if needed: ADD_VALUES adds to its values */
  device = (PetscBool)(ew->built_backend == MAT_ELLWARP_BACKEND_CUDA);
  PetscCall(GetMaps(coo, device, &C));
  PetscCheck(C->nnz == ew->E.nnz, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The nonzero pattern changed after MatSetPreallocationCOO() (%d nonzeros, now %d): call MatSetPreallocationCOO() again", C->nnz, ew->E.nnz);
  PetscCall(GetSlots(A, &slot));
  if (v) PetscCall(PetscGetMemType(v, &mt));
  if (device) {
#if PetscDefined(HAVE_CUDA)
    cudaStream_t       st;
    const PetscScalar *dv  = v;
    PetscScalar       *tmp = NULL;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (v && PetscMemTypeHost(mt) && C->ncoo) {
      PetscCallCUDA(cudaMallocAsync((void **)&tmp, sizeof(PetscScalar) * (size_t)C->ncoo, st));
      PetscCallCUDA(cudaMemcpyAsync(tmp, v, sizeof(PetscScalar) * (size_t)C->ncoo, cudaMemcpyHostToDevice, st));
      PetscCall(PetscLogCpuToGpu(sizeof(PetscScalar) * (PetscLogDouble)C->ncoo));
      dv = tmp;
    }
    PetscCall(PetscLogGpuTimeBegin());
    PetscCallCUDA((cudaError_t)PetscWarpCOOSetValuesCUDA(C->nnz, C->jmap, C->perm, slot, dv, add, ew->E.val, st));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops((PetscLogDouble)C->nvalid + (add ? C->nnz : 0)));
    if (tmp) PetscCallCUDA(cudaFreeAsync(tmp, st));
#endif
  } else {
    const PetscScalar *hv  = v;
    PetscScalar       *tmp = NULL;
#if PetscDefined(HAVE_CUDA)
    if (v && PetscMemTypeDevice(mt) && C->ncoo) {
      PetscCall(PetscMalloc1(C->ncoo, &tmp));
      PetscCallCUDA(cudaMemcpy(tmp, v, sizeof(PetscScalar) * (size_t)C->ncoo, cudaMemcpyDeviceToHost));
      PetscCall(PetscLogGpuToCpu(sizeof(PetscScalar) * (PetscLogDouble)C->ncoo));
      hv = tmp;
    }
#endif
    PetscWarpCOOSetValuesHost(C->nnz, C->jmap, C->perm, slot, hv, add, ew->E.val);
    PetscCall(PetscLogFlops((PetscLogDouble)C->nvalid + (add ? C->nnz : 0)));
    PetscCall(PetscFree(tmp));
  }
  PetscCall(MatEllWarpLayoutWritten_Private(A));
  PetscCall(PetscLogEventEnd(MATELLWARP_COOVal, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Install (on) our COO methods, saving MATSEQAIJ's, or put MATSEQAIJ's back and drop the maps */
PetscErrorCode MatEllWarpComposeCOO_Private(Mat B, PetscBool on)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)B->spptr;
  PetscObject        o  = (PetscObject)B;

  PetscFunctionBegin;
  if (on) {
    PetscCall(PetscObjectQueryFunction(o, "MatSetPreallocationCOO_C", &ew->parent.setpreallocationcoo));
    PetscCall(PetscObjectQueryFunction(o, "MatSetValuesCOO_C", &ew->parent.setvaluescoo));
  } else PetscCall(PetscObjectCompose(o, COO_NAME, NULL));
  PetscCall(PetscObjectComposeFunction(o, "MatSetPreallocationCOO_C", on ? MatSetPreallocationCOO_SeqAIJEllWarp : ew->parent.setpreallocationcoo));
  PetscCall(PetscObjectComposeFunction(o, "MatSetValuesCOO_C", on ? MatSetValuesCOO_SeqAIJEllWarp : ew->parent.setvaluescoo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A duplicate shares the maps (as MatDuplicate() shares AIJ's) and builds its own slot map */
PetscErrorCode MatEllWarpDuplicateCOO_Private(Mat A, Mat B)
{
  PetscObject c;

  PetscFunctionBegin;
  PetscCall(PetscObjectQuery((PetscObject)A, COO_NAME, &c));
  if (c) PetscCall(PetscObjectCompose((PetscObject)B, COO_NAME, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AIJCOODestroy(PetscCtxRt ctx)
{
  MatCOOStruct_SeqAIJ *a = *(MatCOOStruct_SeqAIJ **)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree(a->jmap));
  PetscCall(PetscFree(a->perm));
  PetscCall(PetscFree(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before B turns into a MATSEQAIJ: hand the maps to AIJ (its MatCOOStruct_SeqAIJ), so that MatSetValuesCOO() keeps working */
PetscErrorCode MatEllWarpCOOToAIJ_Private(Mat B)
{
  EllWarpCOO          *coo;
  PetscWarpCOO        *C = NULL;
  MatCOOStruct_SeqAIJ *a;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)B, COO_NAME, &coo));
  if (!coo || !(coo->onhost || coo->ondevice)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GetMaps(coo, PETSC_FALSE, &C));
  if (C->nnz != ((Mat_SeqAIJ *)B->data)->nz) PetscFunctionReturn(PETSC_SUCCESS); /* the pattern changed since */
  PetscCall(PetscNew(&a));
  a->nz   = C->nnz;
  a->n    = C->ncoo;
  a->Atot = C->nvalid;
  PetscCall(PetscMalloc1(C->nnz + 1, &a->jmap));
  PetscCall(PetscMalloc1(C->nvalid, &a->perm));
  for (PetscInt k = 0; k <= C->nnz; k++) a->jmap[k] = C->jmap[k];
  for (PetscInt p = 0; p < C->nvalid; p++) a->perm[p] = C->perm[p];
  PetscCall(PetscObjectContainerCompose((PetscObject)B, "__PETSc_MatCOOStruct_Host", a, AIJCOODestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free the slot map (layout dropped, backend changed, destroy) */
PetscErrorCode MatEllWarpCOOReset_Private(Mat A)
{
  Mat_SeqAIJEllWarp *ew = (Mat_SeqAIJEllWarp *)A->spptr;

  PetscFunctionBegin;
  if (ew->coo_slot && ew->coo_slot_device) {
#if PetscDefined(HAVE_CUDA)
    PetscCallCUDA(cudaFree(ew->coo_slot));
#endif
  } else PetscCall(PetscFree(ew->coo_slot));
  ew->coo_slot = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
