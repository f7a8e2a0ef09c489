/* The COO kernels of ELL-WARP (kernel layer, no PETSc): the host twin's symbolic step against a brute-force check of
   every nonzero, jmap run and perm entry, with 32- and 64-bit indices, and its numeric step against direct sums; with a
   device (without -host), the CUDA versions against the host twin, array by array (both sorts are stable, so the
   arrays and the sums are identical), and the slot map of a layout built from the pattern. */
#include <petscwarp/private/ellwarpcookernels.h>
#if defined(PETSCWARP_TEST_CUDA)
  #include <cuda_runtime_api.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(c) \
  do { \
    if (!(c)) { \
      fprintf(stderr, "%s:%d: trial %d: check failed: %s\n", __FILE__, __LINE__, trial, #c); \
      exit(1); \
    } \
  } while (0)
#include "kernelcall.h"

static int Find(const PetscWarpCOO *C, long long r, long long c) /* CSR position of (r, c), -1 if absent */
{
  for (int p = C->rowptr[r]; p < C->rowptr[r + 1]; p++)
    if (C->colidx[p] == c) return p;
  return -1;
}

/* The host twin's output is right: a sorted CSR of the distinct kept pairs, and runs of perm listing, in increasing
   order, exactly the kept entries of each pair */
static void CheckHostBuild(int trial, int m, int n, int ncoo, const int *ci, const int *cj, const PetscWarpCOO *C)
{
  int *seen = calloc((size_t)ncoo + 1, sizeof(int)), nvalid = 0;
  CHECK(seen && C->rowptr[0] == 0 && C->rowptr[m] == C->nnz && C->jmap[0] == 0 && C->jmap[C->nnz] == C->nvalid);
  for (int r = 0; r < m; r++)
    for (int p = C->rowptr[r]; p < C->rowptr[r + 1]; p++) {
      CHECK(C->colidx[p] >= 0 && C->colidx[p] < n && (p == C->rowptr[r] || C->colidx[p] > C->colidx[p - 1]));
      CHECK(C->jmap[p + 1] > C->jmap[p]); /* every nonzero has an entry */
      for (int q = C->jmap[p]; q < C->jmap[p + 1]; q++) {
        int k = C->perm[q];
        CHECK(k >= 0 && k < ncoo && !seen[k] && ci[k] == r && cj[k] == C->colidx[p]);
        CHECK(q == C->jmap[p] || k > C->perm[q - 1]); /* stable: increasing COO order */
        seen[k] = 1;
      }
    }
  for (int k = 0; k < ncoo; k++) {
    int kept = ci[k] >= 0 && cj[k] >= 0;
    nvalid += kept;
    CHECK(seen[k] == kept);
    if (kept) CHECK(Find(C, ci[k], cj[k]) >= 0);
  }
  CHECK(nvalid == C->nvalid);
  free(seen);
}

static int Same(const void *a, const void *b, size_t bytes)
{
  return !bytes || !memcmp(a, b, bytes);
}

int main(int argc, char **argv)
{
  int      hostonly = argc > 1 && !strcmp(argv[1], "-host");
  unsigned seed     = argc > 1 + hostonly ? (unsigned)atoi(argv[1 + hostonly]) : (unsigned)time(NULL);

  if (KernelTestSkip(hostonly)) return 200;
  printf("seed %u (rerun with: test_cookernels%s %u)\n", seed, hostonly ? " -host" : "", seed);
  srand(seed);
  for (int trial = 0; trial < 12; trial++) {
    /* trial 0: no entries; 1: 1 x 1; 2: a row out of range; 3: a column out of range; 4: every index negative */
    int          m = trial == 1 ? 1 : 1 + rand() % 400, n = trial == 1 ? 1 : 1 + rand() % 300;
    int          ncoo = trial == 0 ? 0 : trial == 1 ? 5 : 2 + rand() % 6000, *ci = malloc(sizeof(int) * (ncoo + 1)), *cj = malloc(sizeof(int) * (ncoo + 1));
    long long   *li = malloc(sizeof(long long) * (ncoo + 1)), *lj = malloc(sizeof(long long) * (ncoo + 1));
    double      *v = malloc(sizeof(double) * (ncoo + 1)), *val, *ref;
    int         *slot;
    PetscWarpCOO C, C64;
    for (int k = 0; k < ncoo; k++) {
      int row = rand() % m, pool = 1 + rand() % 6; /* few columns per row: duplicates */
      ci[k] = row;
      cj[k] = (row * 7 + 13 * (rand() % pool)) % n;
      if (rand() % 25 == 0) ci[k] = -1 - rand() % 3;
      if (rand() % 25 == 0) cj[k] = -1 - rand() % 3;
      if (trial == 4) ci[k] = -1;
      v[k] = (double)rand() / RAND_MAX - 0.5;
    }
    if (trial == 2 || trial == 3) ci[0] = m + 100, cj[0] = -1; /* a row out of range with a negative column: ignored */
    if (trial == 2) {
      int k = 1 + rand() % (ncoo - 1);
      ci[k] = m + 5, cj[k] = 0;
    }
    if (trial == 3) ci[ncoo - 1] = 0, cj[ncoo - 1] = n + 2;
    for (int k = 0; k < ncoo; k++) li[k] = ci[k], lj[k] = cj[k];
    KERNEL_CALL(PetscWarpCOOBuildHost(m, n, ncoo, ci, cj, 4, &C));
    KERNEL_CALL(PetscWarpCOOBuildHost(m, n, ncoo, li, lj, 8, &C64));
    CHECK(C.badrow == C64.badrow && C.badcol == C64.badcol);
    if (trial == 2) CHECK(C.badrow == m + 5 && !C.rowptr);
    if (trial == 3) CHECK(C.badrow < 0 && C.badcol == n + 2 && !C.rowptr);
    if (trial != 2 && trial != 3) {
      CHECK(C.badrow < 0 && C.badcol < 0);
      if (trial == 4) CHECK(C.nnz == 0 && C.nvalid == 0);
      CheckHostBuild(trial, m, n, ncoo, ci, cj, &C);
      CHECK(C.nnz == C64.nnz && C.nvalid == C64.nvalid);
      CHECK(Same(C.rowptr, C64.rowptr, sizeof(int) * (m + 1)) && Same(C.colidx, C64.colidx, sizeof(int) * C.nnz));
      CHECK(Same(C.jmap, C64.jmap, sizeof(int) * (C.nnz + 1)) && Same(C.perm, C64.perm, sizeof(int) * C.nvalid));
      /* the numeric step into slots 3k+1 of an array of 3 nnz + 2, INSERT then ADD */
      slot = malloc(sizeof(int) * (C.nnz + 1));
      val  = calloc(3 * (size_t)C.nnz + 2, sizeof(double));
      ref  = calloc((size_t)C.nnz + 1, sizeof(double));
      for (int p = 0; p < C.nnz; p++) slot[p] = 3 * p + 1;
      for (int k = 0; k < ncoo; k++)
        if (ci[k] >= 0 && cj[k] >= 0) ref[Find(&C, ci[k], cj[k])] += v[k];
      PetscWarpCOOSetValuesHost(C.nnz, C.jmap, C.perm, slot, v, 0, val);
      for (int p = 0; p < C.nnz; p++) CHECK(fabs(val[slot[p]] - ref[p]) <= 1e-14 * (1 + fabs(ref[p])) && val[3 * p] == 0.0);
      PetscWarpCOOSetValuesHost(C.nnz, C.jmap, C.perm, slot, v, 1, val);
      for (int p = 0; p < C.nnz; p++) CHECK(fabs(val[slot[p]] - 2 * ref[p]) <= 1e-14 * (1 + fabs(ref[p])));
#if defined(PETSCWARP_TEST_CUDA)
      if (!hostonly) {
        PetscWarpCOO D, H2, D2;
        int         *d_i, *d_j, *h      = malloc(sizeof(int) * ((size_t)(m + 1) + ncoo + 1)), *d_slot;
        double      *d_v, *d_val, *hval = malloc(sizeof(double) * (3 * (size_t)C.nnz + 2));
        long long   *d_li;
        KERNEL_CALL(cudaMalloc((void **)&d_i, sizeof(int) * (ncoo + 1)));
        KERNEL_CALL(cudaMalloc((void **)&d_j, sizeof(int) * (ncoo + 1)));
        KERNEL_CALL(cudaMalloc((void **)&d_li, sizeof(long long) * (2 * (size_t)ncoo + 1)));
        KERNEL_CALL(cudaMemcpy(d_i, ci, sizeof(int) * ncoo, cudaMemcpyHostToDevice));
        KERNEL_CALL(cudaMemcpy(d_j, cj, sizeof(int) * ncoo, cudaMemcpyHostToDevice));
        KERNEL_CALL(cudaMemcpy(d_li, li, sizeof(long long) * ncoo, cudaMemcpyHostToDevice));
        KERNEL_CALL(cudaMemcpy(d_li + ncoo, lj, sizeof(long long) * ncoo, cudaMemcpyHostToDevice));
        for (int w = 0; w < 2; w++) { /* 32- and 64-bit indices; D: the 32-bit one */
          PetscWarpCOO Dw;
          KERNEL_CALL(PetscWarpCOOBuildCUDA(m, n, ncoo, w ? (void *)d_li : (void *)d_i, w ? (void *)(d_li + ncoo) : (void *)d_j, w ? 8 : 4, NULL, &Dw));
          CHECK(Dw.nnz == C.nnz && Dw.nvalid == C.nvalid && Dw.badrow < 0 && Dw.badcol < 0);
          KERNEL_CALL(cudaMemcpy(h, Dw.rowptr, sizeof(int) * (m + 1), cudaMemcpyDeviceToHost));
          CHECK(Same(h, C.rowptr, sizeof(int) * (m + 1)));
          KERNEL_CALL(cudaMemcpy(h, Dw.colidx, sizeof(int) * C.nnz, cudaMemcpyDeviceToHost));
          CHECK(Same(h, C.colidx, sizeof(int) * C.nnz));
          KERNEL_CALL(cudaMemcpy(h, Dw.jmap, sizeof(int) * (C.nnz + 1), cudaMemcpyDeviceToHost));
          CHECK(Same(h, C.jmap, sizeof(int) * (C.nnz + 1)));
          KERNEL_CALL(cudaMemcpy(h, Dw.perm, sizeof(int) * C.nvalid, cudaMemcpyDeviceToHost));
          CHECK(Same(h, C.perm, sizeof(int) * C.nvalid));
          if (w) KERNEL_CALL(PetscWarpCOOFreeCUDA(&Dw, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS));
          else D = Dw;
        }
        /* maps to the host and back */
        KERNEL_CALL(PetscWarpCOOMapsToHostCUDA(&D, &H2));
        CHECK(H2.nnz == C.nnz && Same(H2.jmap, C.jmap, sizeof(int) * (C.nnz + 1)) && Same(H2.perm, C.perm, sizeof(int) * C.nvalid));
        KERNEL_CALL(PetscWarpCOOMapsToDeviceCUDA(&H2, &D2));
        KERNEL_CALL(cudaMemcpy(h, D2.perm, sizeof(int) * C.nvalid, cudaMemcpyDeviceToHost));
        CHECK(Same(h, C.perm, sizeof(int) * C.nvalid));
        /* the numeric step: INSERT then ADD, identical to the host twin */
        KERNEL_CALL(cudaMalloc((void **)&d_slot, sizeof(int) * (C.nnz + 1)));
        KERNEL_CALL(cudaMalloc((void **)&d_v, sizeof(double) * (ncoo + 1)));
        KERNEL_CALL(cudaMalloc((void **)&d_val, sizeof(double) * (3 * (size_t)C.nnz + 2)));
        KERNEL_CALL(cudaMemcpy(d_slot, slot, sizeof(int) * C.nnz, cudaMemcpyHostToDevice));
        KERNEL_CALL(cudaMemcpy(d_v, v, sizeof(double) * ncoo, cudaMemcpyHostToDevice));
        KERNEL_CALL(cudaMemset(d_val, 0, sizeof(double) * (3 * (size_t)C.nnz + 2)));
        KERNEL_CALL(PetscWarpCOOSetValuesCUDA(C.nnz, D2.jmap, D2.perm, d_slot, d_v, 0, d_val, NULL));
        KERNEL_CALL(PetscWarpCOOSetValuesCUDA(C.nnz, D.jmap, D.perm, d_slot, d_v, 1, d_val, NULL));
        KERNEL_CALL(cudaMemcpy(hval, d_val, sizeof(double) * (3 * (size_t)C.nnz + 2), cudaMemcpyDeviceToHost));
        CHECK(Same(hval, val, sizeof(double) * (3 * (size_t)C.nnz + 2)));
        /* the slot map of an ELL-WARP layout of the pattern (K2 with threshold 2: several lane counts) */
        {
          PetscWarpEll Eh, Ed;
          int         *p2h = malloc(sizeof(int) * (C.nnz + 1)), *p2d, *hp = malloc(sizeof(int) * (C.nnz + 1));
          KERNEL_CALL(PetscWarpEllBuildHost(m, n, C.rowptr, C.colidx, NULL, 2, &Eh));
          KERNEL_CALL(PetscWarpEllBuildCUDA(m, n, D.rowptr, D.colidx, NULL, 2, NULL, &Ed));
          KERNEL_CALL(cudaMalloc((void **)&p2d, sizeof(int) * (C.nnz + 1)));
          PetscWarpEllPos2SlotHost(&Eh, p2h);
          KERNEL_CALL(PetscWarpEllPos2SlotCUDA(&Ed, p2d, NULL));
          KERNEL_CALL(cudaMemcpy(hp, p2d, sizeof(int) * C.nnz, cudaMemcpyDeviceToHost));
          CHECK(Same(hp, p2h, sizeof(int) * C.nnz));
          for (int p = 0; p < C.nnz; p++) CHECK(Eh.map[p2h[p]] == p);
          PetscWarpEllFreeHost(&Eh);
          KERNEL_CALL(PetscWarpEllFreeCUDA(&Ed));
          KERNEL_CALL(cudaFree(p2d));
          free(p2h);
          free(hp);
        }
        KERNEL_CALL(PetscWarpCOOFreeCUDA(&D, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS));
        KERNEL_CALL(PetscWarpCOOFreeCUDA(&D2, PETSCWARP_COO_MAPS));
        PetscWarpCOOFreeHost(&H2, PETSCWARP_COO_MAPS);
        KERNEL_CALL(cudaFree(d_i));
        KERNEL_CALL(cudaFree(d_j));
        KERNEL_CALL(cudaFree(d_li));
        KERNEL_CALL(cudaFree(d_slot));
        KERNEL_CALL(cudaFree(d_v));
        KERNEL_CALL(cudaFree(d_val));
        free(h);
        free(hval);
      }
#endif
      free(slot);
      free(val);
      free(ref);
    }
#if defined(PETSCWARP_TEST_CUDA)
    else if (!hostonly) { /* out-of-range indices: the same report, nothing allocated */
      PetscWarpCOO D;
      int         *d_i, *d_j;
      KERNEL_CALL(cudaMalloc((void **)&d_i, sizeof(int) * ncoo));
      KERNEL_CALL(cudaMalloc((void **)&d_j, sizeof(int) * ncoo));
      KERNEL_CALL(cudaMemcpy(d_i, ci, sizeof(int) * ncoo, cudaMemcpyHostToDevice));
      KERNEL_CALL(cudaMemcpy(d_j, cj, sizeof(int) * ncoo, cudaMemcpyHostToDevice));
      KERNEL_CALL(PetscWarpCOOBuildCUDA(m, n, ncoo, d_i, d_j, 4, NULL, &D));
      CHECK(D.badrow == C.badrow && D.badcol == C.badcol && !D.rowptr && !D.perm && !D.jmap);
      KERNEL_CALL(cudaFree(d_i));
      KERNEL_CALL(cudaFree(d_j));
    }
#endif
    printf("trial %2d: %3d x %3d, %4d entries -> %4d kept, %4d nonzeros%s\n", trial, m, n, ncoo, C.nvalid, C.nnz, C.badrow >= 0 || C.badcol >= 0 ? " (index out of range: reported)" : "");
    PetscWarpCOOFreeHost(&C, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS);
    PetscWarpCOOFreeHost(&C64, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS);
    free(ci);
    free(cj);
    free(li);
    free(lj);
    free(v);
  }
  printf("%s COO kernels agree\n", hostonly ? "host twin:" : "host twin and CUDA:");
  return 0;
}
