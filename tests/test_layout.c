/* The device build of the ELL-WARP layout equals the host twin's, array by array, on random CSR matrices with empty
   rows, long rows and every lane count, with the global sort and with sort windows (32, 100 -> 128, 1024); and the
   device products equal the host twin's. No PETSc: kernel layer only. */
#include <petscwarp/private/ellwarpkernels.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernelcall.h"

static int Same(const void *a, const void *b, size_t n, const char *what, int threshold)
{
  if (n && memcmp(a, b, n)) {
    fprintf(stderr, "threshold %d: device and host layouts differ in %s\n", threshold, what);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv)
{
  unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : (unsigned)time(NULL);
  int      ndev = 0, fails = 0;

  if (PetscWarpCUDADeviceCount(&ndev) || ndev == 0) {
    printf("SKIPPED: no CUDA device is present; this GPU test did not run\n");
    return 200; /* CTest SKIP_RETURN_CODE */
  }
  printf("seed %u (rerun with: test_layout %u)\n", seed, seed);
  srand(seed);
  for (int trial = 0; trial < 7; trial++) { /* the last trial has its rows already sorted by length: identity (Kr) layouts */
    int     m = trial == 0 ? 0 : trial == 1 ? 1 : 500 + rand() % 3000, n = m ? m + rand() % 50 : 7;
    int    *rp = malloc(sizeof(int) * (m + 1)), nnz, *cj, *d_i, *d_j, *order = malloc(sizeof(int) * (m + 1)), *d_o;
    double *a, *x, *yh, *yd, *x2h, *x2d, *d_a, *d_x, *d_y, *d_x2;
    rp[0] = 0;
    for (int i = 0; i < m; i++) {
      int len = rand() % 10 == 0 ? 0 : rand() % 30;
      if (rand() % 200 == 0) len = 300 + rand() % 700; /* long rows: > 32x the median */
      if (len > n) len = n;
      rp[i + 1] = rp[i] + len;
    }
    if (trial == 6) { /* lengths nonincreasing: the build's permutation is the identity without a reordering */
      for (int i = m; i > 0; i--) rp[i] -= rp[i - 1];
      for (int i = 1; i <= m; i++)
        for (int k = i; k > 1 && rp[k] > rp[k - 1]; k--) {
          int tmp   = rp[k];
          rp[k]     = rp[k - 1];
          rp[k - 1] = tmp;
        }
      for (int i = 1; i <= m; i++) rp[i] += rp[i - 1];
    }
    nnz = rp[m];
    cj  = malloc(sizeof(int) * (nnz + 1));
    a   = malloc(sizeof(double) * (nnz + 1));
    for (int i = 0; i < m; i++) {
      int len = rp[i + 1] - rp[i], c = rand() % (n - len + 1);
      for (int k = 0; k < len; k++) cj[rp[i] + k] = c + k; /* sorted, unique */
      for (int k = 0; k < len; k++) a[rp[i] + k] = rand() / (double)RAND_MAX - 0.5;
    }
    x   = malloc(sizeof(double) * (n + 1));
    yh  = malloc(sizeof(double) * (m + 1));
    yd  = malloc(sizeof(double) * (m + 1));
    x2h = malloc(sizeof(double) * (n + 1));
    x2d = malloc(sizeof(double) * (n + 1));
    for (int j = 0; j < n; j++) x[j] = rand() / (double)RAND_MAX;
    for (int i = 0; i < m; i++) order[i] = m - 1 - i;
    KERNEL_CALL(cudaMalloc((void **)&d_o, sizeof(int) * (m + 1)));
    KERNEL_CALL(cudaMemcpy(d_o, order, sizeof(int) * m, cudaMemcpyHostToDevice));
    KERNEL_CALL(cudaMalloc((void **)&d_i, sizeof(int) * (m + 1)));
    KERNEL_CALL(cudaMalloc((void **)&d_j, sizeof(int) * (nnz + 1)));
    KERNEL_CALL(cudaMalloc((void **)&d_a, sizeof(double) * (nnz + 1)));
    KERNEL_CALL(cudaMalloc((void **)&d_x, sizeof(double) * (n + 1)));
    KERNEL_CALL(cudaMalloc((void **)&d_y, sizeof(double) * (m + 1)));
    KERNEL_CALL(cudaMalloc((void **)&d_x2, sizeof(double) * (n + 1)));
    KERNEL_CALL(cudaMemcpy(d_i, rp, sizeof(int) * (m + 1), cudaMemcpyHostToDevice));
    KERNEL_CALL(cudaMemcpy(d_j, cj, sizeof(int) * nnz, cudaMemcpyHostToDevice));
    KERNEL_CALL(cudaMemcpy(d_a, a, sizeof(double) * nnz, cudaMemcpyHostToDevice));
    KERNEL_CALL(cudaMemcpy(d_x, x, sizeof(double) * n, cudaMemcpyHostToDevice));
    for (int t = 0; t < 32; t++) { /* thresholds 0, 1, 4, 16, each with the natural and a reversed row order, x 4 windows */
      int          threshold = (t % 8 / 2) ? 1 << (2 * (t % 8 / 2 - 1)) : 0, reversed = t % 2, windows[] = {0, 32, 100, 1024}, window = windows[t / 8];
      PetscWarpEll H, D, C;
      double       num = 0, den = 0;
      KERNEL_CALL(PetscWarpEllBuildWindowHost(m, n, rp, cj, reversed ? order : NULL, threshold, window, &H));
      KERNEL_CALL(PetscWarpEllBuildWindowCUDA(m, n, d_i, d_j, reversed ? d_o : NULL, threshold, window, NULL, &D));
      PetscWarpEllRefreshHost(&H, a);
      KERNEL_CALL(PetscWarpEllRefreshCUDA(&D, d_a, NULL));
      if (D.nwarps != H.nwarps || D.nslots != H.nslots || D.maxlanes != H.maxlanes || D.maxwidth != H.maxwidth || D.nnz != H.nnz || D.nsplit != H.nsplit || D.identity != H.identity || D.window != H.window) {
        fprintf(stderr, "threshold %d: sizes differ (or nsplit/identity): warps %d/%d slots %d/%d lanes %d/%d width %d/%d\n", threshold, D.nwarps, H.nwarps, D.nslots, H.nslots, D.maxlanes, H.maxlanes, D.maxwidth, H.maxwidth);
        return 1;
      }
      C       = H; /* same sizes: host buffers of the same shape */
      C.woff  = malloc(sizeof(int) * (H.nwarps + 1));
      C.wrow  = malloc(sizeof(int) * (H.nwarps + 1));
      C.winfo = malloc(sizeof(int) * (H.nwarps + 1));
      C.perm  = malloc(sizeof(int) * (m + 1));
      C.diag  = malloc(sizeof(int) * (m + 1));
      C.col   = malloc(sizeof(int) * (H.nslots + 1));
      C.map   = malloc(sizeof(int) * (H.nslots + 1));
      C.val   = malloc(sizeof(double) * (H.nslots + 1));
      KERNEL_CALL(PetscWarpEllCopyToHostCUDA(&D, &C));
      fails += Same(C.woff, H.woff, sizeof(int) * (H.nwarps + 1), "woff", threshold);
      fails += Same(C.wrow, H.wrow, sizeof(int) * H.nwarps, "wrow", threshold);
      fails += Same(C.winfo, H.winfo, sizeof(int) * H.nwarps, "winfo", threshold);
      fails += Same(C.perm, H.perm, sizeof(int) * m, "perm", threshold);
      fails += Same(C.diag, H.diag, sizeof(int) * m, "diag", threshold);
      fails += Same(C.col, H.col, sizeof(int) * H.nslots, "col", threshold);
      fails += Same(C.map, H.map, sizeof(int) * H.nslots, "map", threshold);
      fails += Same(C.val, H.val, sizeof(double) * H.nslots, "val", threshold);
      PetscWarpEllMultHost(&H, x, NULL, yh);
      KERNEL_CALL(PetscWarpEllMultCUDA(&D, threshold ? 2 : 1, 128, d_x, NULL, d_y, NULL));
      KERNEL_CALL(cudaMemcpy(yd, d_y, sizeof(double) * m, cudaMemcpyDeviceToHost));
      for (int i = 0; i < m; i++) num += (yd[i] - yh[i]) * (yd[i] - yh[i]), den += yh[i] * yh[i];
      if (sqrt(num) > 1e-12 * sqrt(den)) {
        fprintf(stderr, "threshold %d: device product differs from the host twin: %g\n", threshold, sqrt(num / (den > 0 ? den : 1)));
        fails++;
      }
      PetscWarpEllMultTransposeHost(&H, yh, NULL, x2h);
      KERNEL_CALL(cudaMemcpy(d_y, yh, sizeof(double) * m, cudaMemcpyHostToDevice));
      KERNEL_CALL(PetscWarpEllMultTransposeCUDA(&D, d_y, NULL, d_x2, NULL));
      KERNEL_CALL(cudaMemcpy(x2d, d_x2, sizeof(double) * n, cudaMemcpyDeviceToHost));
      num = den = 0;
      for (int j = 0; j < n; j++) num += (x2d[j] - x2h[j]) * (x2d[j] - x2h[j]), den += x2h[j] * x2h[j];
      if (sqrt(num) > 1e-12 * sqrt(den)) {
        fprintf(stderr, "threshold %d: device transpose product differs from the host twin: %g\n", threshold, sqrt(num / (den > 0 ? den : 1)));
        fails++;
      }
      if (trial == 6 && !reversed && !H.identity && !window) {
        fprintf(stderr, "rows sorted by length but the layout is not the identity permutation\n");
        fails++;
      }
      printf("m %5d n %5d nnz %6d threshold %2d window %4d order %-8s: %4d warps, %7d slots, lanes <= %2d, split %3d, identity %d: layouts identical, products agree\n", m, n, nnz, threshold, H.window, reversed ? "reversed" : "natural", H.nwarps, H.nslots, H.maxlanes, H.nsplit, H.identity);
      PetscWarpEllFreeHost(&H);
      PetscWarpEllFreeHost(&C);
      KERNEL_CALL(PetscWarpEllFreeCUDA(&D));
    }
    cudaFree(d_i), cudaFree(d_j), cudaFree(d_a), cudaFree(d_x), cudaFree(d_y), cudaFree(d_o), cudaFree(d_x2);
    free(rp), free(cj), free(a), free(x), free(yh), free(yd), free(order), free(x2h), free(x2d);
  }
  if (fails) return 1;
  printf("device layout == host layout\n");
  return 0;
}
