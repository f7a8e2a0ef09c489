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
