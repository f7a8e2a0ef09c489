/*
  Debugging aid (gpu_run.sh hang56l): LD_PRELOAD=libzeromalloc.so zero-fills every device allocation made through the
  CUDA runtime's cudaMalloc() and cudaMallocAsync(), so that a kernel reading memory it never wrote sees zeros instead
  of what a freed allocation left there. A hang that goes away with it depends on uninitialized device memory.
    cc -shared -fPIC -O1 -o libzeromalloc.so scripts/tools/zeromalloc.c -ldl
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef int (*MallocFn)(void **, size_t);
typedef int (*MallocAsyncFn)(void **, size_t, void *);
typedef int (*MemsetFn)(void *, int, size_t);
typedef int (*MemsetAsyncFn)(void *, int, size_t, void *);

int cudaMalloc(void **p, size_t n)
{
  static MallocFn real = NULL;
  static MemsetFn set  = NULL;
  int             e;

  if (!real) real = (MallocFn)dlsym(RTLD_NEXT, "cudaMalloc");
  if (!set) set = (MemsetFn)dlsym(RTLD_NEXT, "cudaMemset");
  e = real(p, n);
  if (!e && n && set) (void)set(*p, 0, n);
  return e;
}

int cudaMallocAsync(void **p, size_t n, void *stream)
{
  static MallocAsyncFn real = NULL;
  static MemsetAsyncFn set  = NULL;
  int                  e;

  if (!real) real = (MallocAsyncFn)dlsym(RTLD_NEXT, "cudaMallocAsync");
  if (!set) set = (MemsetAsyncFn)dlsym(RTLD_NEXT, "cudaMemsetAsync");
  e = real(p, n, stream);
  if (!e && n && set) (void)set(*p, 0, n, stream);
  return e;
}
