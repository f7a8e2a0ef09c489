/*
  Debugging aid for hangs on the GPU machine (no gdb there): LD_PRELOAD=libbtpreload.so makes SIGRTMIN+3 (`kill -s RTMIN+3 PID`; a signal PETSc's handlers leave
  alone, unlike SIGUSR1) print a backtrace
  of every thread of the process to stderr (raw addresses with their library and offset: resolve them with
  scripts/tools/btresolve.sh against the unstripped libraries on the build machine).
    cc -shared -fPIC -O1 -o libbtpreload.so scripts/tools/btpreload.c
*/
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void Dump(void)
{
  void *bt[64];
  char  line[512];
  int   n = backtrace(bt, 64);

  snprintf(line, sizeof(line), "=== thread %ld: %d frames\n", (long)syscall(SYS_gettid), n);
  if (write(2, line, strlen(line)) < 0) return;
  for (int k = 0; k < n; k++) {
    Dl_info di;

    if (dladdr(bt[k], &di) && di.dli_fname) snprintf(line, sizeof(line), "  #%d %s+0x%lx (%s)\n", k, di.dli_fname, (unsigned long)((char *)bt[k] - (char *)di.dli_fbase), di.dli_sname ? di.dli_sname : "?");
    else snprintf(line, sizeof(line), "  #%d %p\n", k, bt[k]);
    if (write(2, line, strlen(line)) < 0) return;
  }
}

static void OnOther(int sig)
{
  (void)sig;
  Dump();
}

static void OnFirst(int sig)
{
  DIR           *d;
  struct dirent *e;
  const long     self = (long)syscall(SYS_gettid);

  (void)sig;
  Dump();
  if (!(d = opendir("/proc/self/task"))) return;
  while ((e = readdir(d))) {
    long t = atol(e->d_name);

    if (t > 0 && t != self) {
      syscall(SYS_tgkill, (long)getpid(), t, SIGRTMIN + 4);
      usleep(20000);
    }
  }
  closedir(d);
}

__attribute__((constructor)) static void Install(void)
{
  signal(SIGRTMIN + 3, OnFirst);
  signal(SIGRTMIN + 4, OnOther);
}
