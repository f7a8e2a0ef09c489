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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read -mat_ellwarp_* into o (which holds the current values), with checks */
PetscErrorCode MatEllWarpOptionsRead_Private(PetscOptionItems PetscOptionsObject, MatEllWarpOpts *o)
{
  PetscInt t = o->threshold, bs = o->block_size;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "MATELLWARP options");
  PetscCall(PetscOptionsEnum("-mat_ellwarp_backend", "Where the products run", "MatEllWarpSetBackend", MatEllWarpBackends, (PetscEnum)o->backend, (PetscEnum *)&o->backend, NULL));
  PetscCall(PetscOptionsEnum("-mat_ellwarp_kernel", "Product kernel", "MatEllWarpSetKernel", MatEllWarpKernels, (PetscEnum)o->kernel, (PetscEnum *)&o->kernel, NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_threshold", "K2: most entries per lane before a row is split (-1: automatic)", "MatEllWarpSetKernel", t, &t, NULL));
  PetscCall(PetscOptionsInt("-mat_ellwarp_block_size", "Threads per CUDA block, a multiple of 32 up to 1024 (0: automatic)", "MATELLWARP", bs, &bs, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(t == PETSC_DETERMINE || t > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_ellwarp_threshold must be positive (or -1 for automatic), not %" PetscInt_FMT, t);
  PetscCheck(bs == 0 || (bs >= 32 && bs <= 1024 && bs % 32 == 0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_ellwarp_block_size must be a multiple of 32 between 32 and 1024, not %" PetscInt_FMT, bs);
  o->threshold  = t;
  o->block_size = bs;
  PetscFunctionReturn(PETSC_SUCCESS);
}
