/* Shared by the kernel-layer tests (no PETSc): a call returning an int error code (0: success) that exits on failure */
#pragma once
#include <stdio.h>
#include <stdlib.h>

#define KERNEL_CALL(c) \
  do { \
    int e_ = (c); \
    if (e_) { \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #c, e_); \
      exit(1); \
    } \
  } while (0)

#if defined(PETSCWARP_TEST_CUDA)
int PetscWarpCUDADeviceCount(int *);
#endif

/* The start of a kernel-layer test: 0 to go on, or 200 (CTest's SKIP_RETURN_CODE) after printing why a GPU run (not
   -host) cannot happen here */
static inline int KernelTestSkip(int hostonly)
{
  if (hostonly) return 0;
#if defined(PETSCWARP_TEST_CUDA)
  {
    int ndev = 0;
    if (!PetscWarpCUDADeviceCount(&ndev) && ndev > 0) return 0;
  }
  printf("SKIPPED: no CUDA device is present; this GPU test did not run\n");
#else
  printf("SKIPPED: built without CUDA; this GPU test did not run\n");
#endif
  return 200;
}
