/* Options of MATELLWARP, shared by the sequential and MPI types */
#include <petscwarp/private/ellwarpimpl.h>

/* Defaults: CUDA when a device is present, automatic kernel, threshold and block size */
PetscErrorCode MatEllWarpOptsDefault_Private(MatEllWarpOpts *o)
{
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(PetscWarpDeviceAvailable(&dev));
  o->backend    = dev ? MAT_ELLWARP_BACKEND_CUDA : MAT_ELLWARP_BACKEND_HOST;
  o->kernel     = MAT_ELLWARP_KERNEL_AUTO;
  o->threshold  = PETSC_DETERMINE;
  o->block_size = 0;
  PetscCall(PetscStrncpy(o->reorder, "none", sizeof(o->reorder)));
  o->window     = PETSC_DETERMINE;
  o->window_pad = 0.10;
  o->index      = MAT_ELLWARP_INDEX_AUTO;
  o->kc_variant = -1;
  o->hostvecs   = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read -mat_ellwarp_* into o (which holds the current values); the type checks them when it installs them */
PetscErrorCode MatEllWarpOptionsRead_Private(PetscOptionItems PetscOptionsObject, MatEllWarpOpts *o)
{
  PetscInt  t = o->threshold, bs = o->block_size, w = o->window, kv = o->kc_variant;
  PetscReal wp = o->window_pad;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "MATELLWARP options");
  PetscCall(PetscOptionsEnum("-mat_ellwarp_backend", "Where the products run", "MatEllWarpSetBackend", MatEllWarpBackends, (PetscEnum)o->backend, (PetscEnum *)&o->backend, NULL));
  PetscCall(PetscOptionsEnum("-mat_ellwarp_kernel", "Product kernel", "MatEllWarpSetKernel", MatEllWarpKernels, (PetscEnum)o->kernel, (PetscEnum *)&o->kernel, NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_threshold", "K2: most entries per lane before a row is split (-1: automatic)", "MatEllWarpSetKernel", t, &t, NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_block_size", "Threads per CUDA block, a multiple of 32 up to 1024 (0: automatic)", "MatEllWarpSetBlockSize", bs, &bs, NULL));
  PetscCall(PetscOptionsString("-mat_ellwarp_reorder", "Locality ordering of the rows inside the format (none or a MatOrderingType: rcm, nd, ...)", "MatEllWarpSetReorder", o->reorder, o->reorder, sizeof(o->reorder), NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_window", "Sort rows by length only within windows of this many consecutive rows, rounded up to a multiple of 32, so that slices stay mesh neighbours (0: one global sort; -1: automatic)", "MATELLWARP", w, &w, NULL));
  PetscCall(PetscOptionsReal("-mat_ellwarp_window_padding", "Automatic window: the smallest window whose K1 padding exceeds the global sort's by at most this (only for rows whose lengths vary from row to row)", "MATELLWARP", wp, &wp, NULL));
  PetscCall(PetscOptionsEnum("-mat_ellwarp_index", "Column indices: 32 (one per entry), 16 (16-bit offsets per slice where they fit), block (one per block of the column block size, blocked patterns), block16 (both), auto (block16 for blocked patterns, 16 where at least half the slices fit 16-bit offsets, else 32)", "MatEllWarpIndex", MatEllWarpIndices,
                             (PetscEnum)o->index, (PetscEnum *)&o->index, NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_kc_variant", "Load schedule of the device products: 0 the plain loops; 1..3 batches of column indices (or 16-bit codes) and values loaded per lane before use (1: 8 units, 2: 4 units software pipelined, 3: 4 units); the same products, bitwise but for split rows (added atomically) (-1: the default: 1 for compact layouts, 0 for 32-bit columns)", "MATELLWARP", kv, &kv, NULL));
  PetscOptionsHeadEnd();
  o->threshold  = t;
  o->block_size = bs;
  o->window     = w;
  o->window_pad = wp;
  o->kc_variant = kv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks of a set of options, whatever set them */
PetscErrorCode MatEllWarpOptsCheck_Private(const MatEllWarpOpts *o)
{
  PetscBool dev, none;

  PetscFunctionBegin;
  PetscCheck(o->backend == MAT_ELLWARP_BACKEND_HOST || o->backend == MAT_ELLWARP_BACKEND_CUDA, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown ELL-WARP backend %d", (int)o->backend);
  PetscCheck(o->kernel >= MAT_ELLWARP_KERNEL_AUTO && o->kernel <= MAT_ELLWARP_KERNEL_K2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown ELL-WARP kernel %d", (int)o->kernel);
  PetscCheck(o->index >= MAT_ELLWARP_INDEX_AUTO && o->index <= MAT_ELLWARP_INDEX_BLOCK16, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown ELL-WARP column index layout %d", (int)o->index);
  PetscCheck(o->threshold == PETSC_DETERMINE || o->threshold > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ELL-WARP threshold must be positive (or PETSC_DETERMINE), not %" PetscInt_FMT, o->threshold);
  PetscCheck(o->window >= 0 || o->window == PETSC_DETERMINE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ELL-WARP window must be 0 (global sort), positive, or PETSC_DETERMINE (automatic), not %" PetscInt_FMT, o->window);
  PetscCheck(o->kc_variant >= -1 && o->kc_variant < PETSCWARP_KC_VARIANTS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ELL-WARP kernel variant must be -1 (the default) or 0..%d, not %" PetscInt_FMT, PETSCWARP_KC_VARIANTS - 1, o->kc_variant);
  PetscCheck(o->window_pad >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ELL-WARP window padding must be nonnegative, not %g", (double)o->window_pad);
  PetscCheck(o->block_size == 0 || (o->block_size >= 32 && o->block_size <= 1024 && o->block_size % 32 == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ELL-WARP block size must be a multiple of 32 between 32 and 1024 (or 0: automatic), not %" PetscInt_FMT, o->block_size);
  if (o->backend == MAT_ELLWARP_BACKEND_CUDA) {
    PetscCall(PetscWarpDeviceAvailable(&dev));
    PetscCheck(PetscDefined(HAVE_CUDA), PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "ELL-WARP backend cuda: PETSc was configured without CUDA; use -mat_ellwarp_backend host");
    PetscCheck(dev, PETSC_COMM_SELF, PETSC_ERR_SUP_SYS, "ELL-WARP backend cuda: no CUDA device is present; use -mat_ellwarp_backend host");
  }
  PetscCall(PetscStrcmp(o->reorder, "none", &none));
  if (!none) {
    PetscErrorCode (*fn)(Mat, MatOrderingType, IS *, IS *) = NULL;
    PetscCall(MatOrderingRegisterAll());
    PetscCall(PetscFunctionListFind(MatOrderingList, o->reorder, &fn));
    PetscCheck(fn, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown ELL-WARP reordering %s: use none or a MatOrderingType (rcm, nd, qmd, 1wd, ...)", o->reorder);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The MAT_REUSE_MATRIX / MAT_INITIAL_MATRIX / MAT_INPLACE_MATRIX cases of a conversion done in place by inplace() */
PetscErrorCode MatEllWarpConvertWith_Private(Mat A, MatReuse reuse, Mat *newmat, PetscErrorCode (*inplace)(Mat))
{
  Mat B = A;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  PetscCall((*inplace)(B));
  *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatWarpDestroyQList_Private(Mat A, PetscBool hadq)
{
  PetscFunctionBegin;
  if (!hadq) PetscCall(PetscFunctionListDestroy(&((PetscObject)A)->qlist));
  PetscFunctionReturn(PETSC_SUCCESS);
}
