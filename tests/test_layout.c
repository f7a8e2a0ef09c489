/* The device build of the ELL-WARP layout equals the host twin's, array by array, on random CSR matrices with empty
   rows, long rows and every lane count, with the global sort and with sort windows (32, 100 -> 128, 1024), with 32-bit
   columns and with the compact indices (issue 9: 16-bit codes; one index per unit of 2 or 3 columns of a blocked copy
   of the pattern, with 32-bit and with 16-bit codes); and the device products equal the host twin's. No PETSc: kernel
   layer only. */
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

typedef struct {
  int     m, n, nnz, *rp, *cj, *order;                  /* host CSR and the reversed order */
  double *a, *x;                                        /* values, a vector of n entries */
  int    *d_i, *d_j, *d_o;                              /* device copies */
  double *d_a, *d_x, *d_y, *d_x2, *yh, *yd, *x2h, *x2d; /* device vectors, results */
} Csr;

/* The load schedules of the device products (issue 9, -mat_ellwarp_kc_variant): every variant gives the products of variant 0
   (bitwise but for the chunks of split rows, added atomically in any order), with and without z (y = z + A x), with K1 (where the layout has one lane per row) and K2, with 32 and 1024
   threads per block; returns the failures */
static int Variants(const PetscWarpEll *D, const Csr *P, int threshold, int unit, int narrow)
{
  int     m = P->m, fails = 0, bsizes[] = {32, 1024};
  size_t  bytes = sizeof(double) * (size_t)m;
  double *ref = malloc(bytes + 8), *got = malloc(bytes + 8);

  for (int kernel = D->maxlanes == 1 ? 1 : 2; kernel <= 2; kernel++)
    for (int withz = 0; withz < 2; withz++) {
      const double *z = withz && P->n >= m ? P->d_x : NULL; /* any m device values */
      if (withz && !z) continue;
      KERNEL_CALL(PetscWarpEllMultVariantCUDA(D, kernel, 0, 128, P->d_x, z, P->d_y, NULL));
      KERNEL_CALL(cudaMemcpy(ref, P->d_y, bytes, cudaMemcpyDeviceToHost));
      for (int v = 1; v < PETSCWARP_KC_VARIANTS; v++)
        for (int b = 0; b < 2; b++) {
          KERNEL_CALL(cudaMemset(P->d_y, 0xff, bytes)); /* NaN: a row left unwritten shows */
          KERNEL_CALL(PetscWarpEllMultVariantCUDA(D, kernel, v, bsizes[b], P->d_x, z, P->d_y, NULL));
          KERNEL_CALL(cudaMemcpy(got, P->d_y, bytes, cudaMemcpyDeviceToHost));
          /* the same sums in the same order, except the chunks of split rows (K2, atomicAdd in any order: on the H100
             variants 1-3 differed from variant 0 there in the last bits, 2026-11-23): within 1e-14 of the largest |y| */
          double ymax = 0;
          int    i    = 0;
          for (int r = 0; r < m; r++) ymax = fmax(ymax, fabs(ref[r]));
          while (i < m && (got[i] == ref[i] || fabs(got[i] - ref[i]) <= 1e-14 * ymax)) i++;
          if (i < m) {
            fprintf(stderr, "threshold %d unit %d narrow %d kernel K%d%s: variant %d (block size %d) differs from variant 0 in row %d: %.17g != %.17g\n", threshold, unit, narrow, kernel, z ? " with z" : "", v, bsizes[b], i, got[i], ref[i]);
            fails++;
          }
        }
    }
  if (PetscWarpEllMultVariantCUDA(D, 1, PETSCWARP_KC_VARIANTS, 128, P->d_x, NULL, P->d_y, NULL) == 0 || PetscWarpEllMultVariantCUDA(D, 1, -2, 128, P->d_x, NULL, P->d_y, NULL) == 0) {
    fprintf(stderr, "variant %d or -2 accepted\n", PETSCWARP_KC_VARIANTS);
    fails++;
  }
  free(ref);
  free(got);
  return fails;
}

/* Build the layout with the given settings on both sides, compare every array and the products; returns the failures */
static int Compare(const Csr *P, int threshold, int reversed, int window, int unit, int narrow, int trial)
{
  PetscWarpEll H, D, C;
  double       num = 0, den = 0;
  int          fails = 0, m = P->m, n = P->n;

  KERNEL_CALL(PetscWarpEllBuildIndexHost(m, n, P->rp, P->cj, reversed ? P->order : NULL, threshold, window, unit, narrow, &H));
  KERNEL_CALL(PetscWarpEllBuildIndexCUDA(m, n, P->d_i, P->d_j, reversed ? P->d_o : NULL, threshold, window, unit, narrow, NULL, &D));
  PetscWarpEllRefreshHost(&H, P->a);
  KERNEL_CALL(PetscWarpEllRefreshCUDA(&D, P->d_a, NULL));
  if (D.nwarps != H.nwarps || D.nslots != H.nslots || D.maxlanes != H.maxlanes || D.maxwidth != H.maxwidth || D.nnz != H.nnz || D.nsplit != H.nsplit || D.identity != H.identity || D.window != H.window || D.unit != H.unit || D.ncidx != H.ncidx || D.nnarrow != H.nnarrow || !D.cidx != !H.cidx) {
    fprintf(stderr, "threshold %d unit %d narrow %d: sizes differ (or nsplit/identity): warps %d/%d slots %d/%d lanes %d/%d width %d/%d index %d/%d narrow warps %d/%d\n", threshold, unit, narrow, D.nwarps, H.nwarps, D.nslots, H.nslots, D.maxlanes, H.maxlanes, D.maxwidth, H.maxwidth, D.ncidx, H.ncidx, D.nnarrow, H.nnarrow);
    exit(1);
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
  C.wmode = H.cidx ? malloc(sizeof(int) * (H.nwarps + 1)) : NULL;
  C.ioff  = H.cidx ? malloc(sizeof(int) * (H.nwarps + 1)) : NULL;
  C.cidx  = H.cidx ? malloc(sizeof(unsigned short) * (H.ncidx + 1)) : NULL;
  KERNEL_CALL(PetscWarpEllCopyToHostCUDA(&D, &C));
  fails += Same(C.woff, H.woff, sizeof(int) * (H.nwarps + 1), "woff", threshold);
  fails += Same(C.wrow, H.wrow, sizeof(int) * H.nwarps, "wrow", threshold);
  fails += Same(C.winfo, H.winfo, sizeof(int) * H.nwarps, "winfo", threshold);
  fails += Same(C.perm, H.perm, sizeof(int) * m, "perm", threshold);
  fails += Same(C.diag, H.diag, sizeof(int) * m, "diag", threshold);
  fails += Same(C.col, H.col, sizeof(int) * H.nslots, "col", threshold);
  fails += Same(C.map, H.map, sizeof(int) * H.nslots, "map", threshold);
  fails += Same(C.val, H.val, sizeof(double) * H.nslots, "val", threshold);
  if (H.cidx) {
    fails += Same(C.wmode, H.wmode, sizeof(int) * H.nwarps, "wmode", threshold);
    fails += Same(C.ioff, H.ioff, sizeof(int) * H.nwarps, "ioff", threshold);
    fails += Same(C.cidx, H.cidx, sizeof(unsigned short) * H.ncidx, "cidx", threshold);
  }
  PetscWarpEllMultHost(&H, P->x, NULL, P->yh);
  KERNEL_CALL(PetscWarpEllMultCUDA(&D, threshold ? 2 : 1, 128, P->d_x, NULL, P->d_y, NULL));
  KERNEL_CALL(cudaMemcpy(P->yd, P->d_y, sizeof(double) * m, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; i++) num += (P->yd[i] - P->yh[i]) * (P->yd[i] - P->yh[i]), den += P->yh[i] * P->yh[i];
  if (sqrt(num) > 1e-12 * sqrt(den)) {
    fprintf(stderr, "threshold %d unit %d narrow %d: device product differs from the host twin: %g\n", threshold, unit, narrow, sqrt(num / (den > 0 ? den : 1)));
    fails++;
  }
  fails += Variants(&D, P, threshold, unit, narrow);
  /* the host twin against a plain CSR product (the reference of the compact index) */
  num = den = 0;
  for (int i = 0; i < m; i++) {
    double yi = 0;
    for (int k = P->rp[i]; k < P->rp[i + 1]; k++) yi += P->a[k] * P->x[P->cj[k]];
    num += (yi - P->yh[i]) * (yi - P->yh[i]), den += yi * yi;
  }
  if (sqrt(num) > 1e-12 * sqrt(den)) {
    fprintf(stderr, "threshold %d unit %d narrow %d: host twin differs from CSR: %g\n", threshold, unit, narrow, sqrt(num / (den > 0 ? den : 1)));
    fails++;
  }
  PetscWarpEllMultTransposeHost(&H, P->yh, NULL, P->x2h);
  KERNEL_CALL(cudaMemcpy(P->d_y, P->yh, sizeof(double) * m, cudaMemcpyHostToDevice));
  KERNEL_CALL(PetscWarpEllMultTransposeCUDA(&D, P->d_y, NULL, P->d_x2, NULL));
  KERNEL_CALL(cudaMemcpy(P->x2d, P->d_x2, sizeof(double) * n, cudaMemcpyDeviceToHost));
  num = den = 0;
  for (int j = 0; j < n; j++) num += (P->x2d[j] - P->x2h[j]) * (P->x2d[j] - P->x2h[j]), den += P->x2h[j] * P->x2h[j];
  if (sqrt(num) > 1e-12 * sqrt(den)) {
    fprintf(stderr, "threshold %d: device transpose product differs from the host twin: %g\n", threshold, sqrt(num / (den > 0 ? den : 1)));
    fails++;
  }
  if (trial == 6 && !reversed && !H.identity && !window) {
    fprintf(stderr, "rows sorted by length but the layout is not the identity permutation\n");
    fails++;
  }
  printf("m %5d n %6d nnz %6d threshold %2d window %4d order %-8s unit %d narrow %d: %4d warps (%4d 16-bit), %7d slots, lanes <= %2d, split %3d, identity %d: layouts identical, products agree\n", m, n, P->nnz, threshold, H.window, reversed ? "reversed" : "natural", unit, narrow, H.nwarps, H.nnarrow, H.nslots, H.maxlanes, H.nsplit, H.identity);
  PetscWarpEllFreeHost(&H);
  PetscWarpEllFreeHost(&C);
  KERNEL_CALL(PetscWarpEllFreeCUDA(&D));
  return fails;
}

/* Device copies and work vectors of P (host arrays set) */
static void Upload(Csr *P)
{
  int m = P->m, n = P->n;
  P->yh  = malloc(sizeof(double) * (m + 1));
  P->yd  = malloc(sizeof(double) * (m + 1));
  P->x2h = malloc(sizeof(double) * (n + 1));
  P->x2d = malloc(sizeof(double) * (n + 1));
  KERNEL_CALL(cudaMalloc((void **)&P->d_o, sizeof(int) * (m + 1)));
  KERNEL_CALL(cudaMemcpy(P->d_o, P->order, sizeof(int) * m, cudaMemcpyHostToDevice));
  KERNEL_CALL(cudaMalloc((void **)&P->d_i, sizeof(int) * (m + 1)));
  KERNEL_CALL(cudaMalloc((void **)&P->d_j, sizeof(int) * (P->nnz + 1)));
  KERNEL_CALL(cudaMalloc((void **)&P->d_a, sizeof(double) * (P->nnz + 1)));
  KERNEL_CALL(cudaMalloc((void **)&P->d_x, sizeof(double) * (n + 1)));
  KERNEL_CALL(cudaMalloc((void **)&P->d_y, sizeof(double) * (m + 1)));
  KERNEL_CALL(cudaMalloc((void **)&P->d_x2, sizeof(double) * (n + 1)));
  KERNEL_CALL(cudaMemcpy(P->d_i, P->rp, sizeof(int) * (m + 1), cudaMemcpyHostToDevice));
  KERNEL_CALL(cudaMemcpy(P->d_j, P->cj, sizeof(int) * P->nnz, cudaMemcpyHostToDevice));
  KERNEL_CALL(cudaMemcpy(P->d_a, P->a, sizeof(double) * P->nnz, cudaMemcpyHostToDevice));
  KERNEL_CALL(cudaMemcpy(P->d_x, P->x, sizeof(double) * n, cudaMemcpyHostToDevice));
}

static void FreeCsr(Csr *P)
{
  cudaFree(P->d_i), cudaFree(P->d_j), cudaFree(P->d_a), cudaFree(P->d_x), cudaFree(P->d_y), cudaFree(P->d_o), cudaFree(P->d_x2);
  free(P->rp), free(P->cj), free(P->a), free(P->x), free(P->yh), free(P->yd), free(P->order), free(P->x2h), free(P->x2d);
}

/* The blocked copy of P: entry (i, c) becomes (i, u c + j), j < u (columns n u) */
static void BlockCopy(const Csr *P, int u, Csr *B)
{
  memset(B, 0, sizeof(*B));
  B->m     = P->m;
  B->n     = P->n * u;
  B->nnz   = P->nnz * u;
  B->rp    = malloc(sizeof(int) * (P->m + 1));
  B->cj    = malloc(sizeof(int) * (B->nnz + 1));
  B->a     = malloc(sizeof(double) * (B->nnz + 1));
  B->x     = malloc(sizeof(double) * (B->n + 1));
  B->order = malloc(sizeof(int) * (P->m + 1));
  for (int i = 0; i <= P->m; i++) B->rp[i] = u * P->rp[i];
  for (int k = 0; k < P->nnz; k++)
    for (int j = 0; j < u; j++) {
      B->cj[u * k + j] = u * P->cj[k] + j;
      B->a[u * k + j]  = rand() / (double)RAND_MAX - 0.5;
    }
  for (int j = 0; j < B->n; j++) B->x[j] = rand() / (double)RAND_MAX;
  for (int i = 0; i < P->m; i++) B->order[i] = P->order[i];
  Upload(B);
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
  for (int trial = 0; trial < 8; trial++) { /* trial 6 has its rows already sorted by length: identity (Kr) layouts; trial 7
                                               has 70000 columns: warps whose columns need 32-bit indices */
    int m = trial == 0 ? 0 : trial == 1 ? 1 : 500 + rand() % 3000, n = m ? (trial == 7 ? 70000 : m + rand() % 50) : 7, *rp = malloc(sizeof(int) * (m + 1));
    Csr P, B;
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
    memset(&P, 0, sizeof(P));
    P.m     = m;
    P.n     = n;
    P.rp    = rp;
    P.nnz   = rp[m];
    P.cj    = malloc(sizeof(int) * (P.nnz + 1));
    P.a     = malloc(sizeof(double) * (P.nnz + 1));
    P.x     = malloc(sizeof(double) * (n + 1));
    P.order = malloc(sizeof(int) * (m + 1));
    for (int i = 0; i < m; i++) {
      int len = rp[i + 1] - rp[i], c = rand() % (n - len + 1);
      if (trial == 7 && len > 1 && len < 30) { /* spread over all columns: sorted, unique */
        for (int k = 0; k < len; k++) P.cj[rp[i] + k] = k * ((n - 1) / len) + rand() % ((n - 1) / len);
      } else
        for (int k = 0; k < len; k++) P.cj[rp[i] + k] = c + k; /* sorted, unique */
      for (int k = 0; k < len; k++) P.a[rp[i] + k] = rand() / (double)RAND_MAX - 0.5;
    }
    for (int j = 0; j < n; j++) P.x[j] = rand() / (double)RAND_MAX;
    for (int i = 0; i < m; i++) P.order[i] = m - 1 - i;
    Upload(&P);
    BlockCopy(&P, 2 + trial % 2, &B);
    for (int t = 0; t < 32; t++) { /* thresholds 0, 1, 4, 16, each with the natural and a reversed row order, x 4 windows */
      int threshold = (t % 8 / 2) ? 1 << (2 * (t % 8 / 2 - 1)) : 0, reversed = t % 2, windows[] = {0, 32, 100, 1024}, window = windows[t / 8];
      fails += Compare(&P, threshold, reversed, window, 1, 0, trial);
      fails += Compare(&P, threshold, reversed, window, 1, 1, trial);
      fails += Compare(&B, threshold, reversed, window, 2 + trial % 2, t % 4 < 2, trial); /* the blocked copy: 16-bit or not */
    }
    FreeCsr(&P);
    FreeCsr(&B);
  }
  if (fails) return 1;
  printf("device layout == host layout\n");
  return 0;
}
