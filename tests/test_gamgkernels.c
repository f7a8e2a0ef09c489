/* The kernels of PCGAMG type warp (kernel layer, no PETSc) on random matrices, fresh each run: 2D Laplacians with random
   coefficients, anisotropic ones (a threshold drops the weak direction), random symmetric graphs with rows without a
   neighbour and one dense row, an unsymmetric pattern, 1 x 1 and 0 x 0. With -host: the host twin against the
   definitions (every aggregate lies within distance 2 of one of its nodes through its own nodes; P is sorted and unique
   by row; P bc = b - alpha D^-1 A b, which holds for the smoothed aggregation prolongator whatever the aggregates;
   errors for a zero diagonal and a column out of range). Otherwise, with a device: the CUDA kernels against the host
   twin (the same aggregates, statistics and pattern of P; its values and bc to round-off). A near-null vector that
   vanishes on whole aggregates gives unit columns there (no empty column). Block operators (bs 1-3 dofs per node, 2-6
   near-null vectors): the node graph against its definition, the tentative prolongator's P R = B and orthonormal
   columns, the device's against the host's. */
#include <petscwarp/private/gamgwarpkernels.h>
#if defined(PETSCWARP_TEST_CUDA)
  #include <cuda_runtime_api.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernelcall.h"

#define CHECK(c, ...) \
  do { \
    if (!(c)) { \
      fprintf(stderr, "%s:%d: case %s: check failed: %s: ", __FILE__, __LINE__, name, #c); \
      fprintf(stderr, __VA_ARGS__); \
      fprintf(stderr, "\n"); \
      exit(1); \
    } \
  } while (0)

typedef struct {
  int     n;
  int    *i, *j;
  double *a;
} CSR;

static double Rand(void)
{
  return (double)rand() / RAND_MAX;
}

/* Build from a dense-free list of (row, col, val) with rows in order: helpers append entries row by row */
typedef struct {
  CSR  A;
  long cap, nnz;
} Builder;

static void BInit(Builder *b, int n)
{
  b->A.n    = n;
  b->A.i    = calloc(n + 1, sizeof(int));
  b->cap    = 16;
  b->nnz    = 0;
  b->A.j    = malloc(sizeof(int) * b->cap);
  b->A.a    = malloc(sizeof(double) * b->cap);
  b->A.i[0] = 0;
}

static void BAdd(Builder *b, int j, double v)
{
  if (b->nnz == b->cap) {
    b->cap *= 2;
    b->A.j = realloc(b->A.j, sizeof(int) * b->cap);
    b->A.a = realloc(b->A.a, sizeof(double) * b->cap);
  }
  b->A.j[b->nnz]   = j;
  b->A.a[b->nnz++] = v;
}

static void BEndRow(Builder *b, int i)
{
  b->A.i[i + 1] = (int)b->nnz;
}

static void Free(CSR *A)
{
  free(A->i);
  free(A->j);
  free(A->a);
}

/* 5-point Laplacian on nx x ny with random positive coefficients per edge; cx scales the x edges (anisotropy) */
static CSR Laplace2D(int nx, int ny, double cx)
{
  Builder b;
  int     n  = nx * ny;
  double *wx = malloc(sizeof(double) * n), *wy = malloc(sizeof(double) * n); /* edge (i, i+1) and (i, i+nx) */
  for (int k = 0; k < n; k++) wx[k] = cx * (0.5 + Rand()), wy[k] = 0.5 + Rand();
  BInit(&b, n);
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      int    i = y * nx + x;
      double d = 0.01;
      if (y > 0) BAdd(&b, i - nx, -wy[i - nx]), d += wy[i - nx];
      if (x > 0) BAdd(&b, i - 1, -wx[i - 1]), d += wx[i - 1];
      long dpos = b.nnz;
      BAdd(&b, i, 0);
      if (x < nx - 1) BAdd(&b, i + 1, -wx[i]), d += wx[i];
      if (y < ny - 1) BAdd(&b, i + nx, -wy[i]), d += wy[i];
      b.A.a[dpos] = d;
      BEndRow(&b, i);
    }
  free(wx);
  free(wy);
  return b.A;
}

/* A random symmetric graph Laplacian: deg random neighbours per node (symmetrised), niso rows with the diagonal only,
   node 0 connected to every other non-isolated node (a dense row) when dense */
static CSR RandomGraph(int n, int deg, int niso, int dense, int unsym)
{
  char   *adj = calloc((size_t)n * n, 1);
  double *w   = malloc(sizeof(double) * (size_t)n * n);
  Builder b;
  for (int i = niso; i < n; i++)
    for (int k = 0; k < deg; k++) {
      int j = niso + rand() % (n - niso);
      if (j == i) continue;
      double v               = 0.5 + Rand();
      adj[(size_t)i * n + j] = 1, w[(size_t)i * n + j] = v;
      if (!unsym) adj[(size_t)j * n + i] = 1, w[(size_t)j * n + i] = v;
    }
  if (dense && n > niso + 1)
    for (int j = niso + 1; j < n; j++) adj[(size_t)niso * n + j] = adj[(size_t)j * n + niso] = 1, w[(size_t)niso * n + j] = w[(size_t)j * n + niso] = 0.5 + Rand();
  BInit(&b, n);
  for (int i = 0; i < n; i++) {
    double d = 1.0 + Rand();
    long   dpos;
    for (int j = 0; j < n; j++)
      if (adj[(size_t)i * n + j]) d += w[(size_t)i * n + j];
    for (int j = 0; j < n; j++) {
      if (j == i) {
        dpos = b.nnz;
        BAdd(&b, i, d);
      } else if (adj[(size_t)i * n + j]) BAdd(&b, j, -w[(size_t)i * n + j]);
    }
    (void)dpos;
    BEndRow(&b, i);
  }
  free(adj);
  free(w);
  return b.A;
}

static int Strong(const CSR *A, const double *d, int i, int k, double theta)
{
  return A->j[k] != i && PetscWarpAMGStrong(A->a[k], d[i], d[A->j[k]], theta);
}

/* Every aggregate non-empty and within distance 2 of one of its nodes through its own nodes (strong edges) */
static void CheckAggregates(const char *name, const CSR *A, double theta, const int *agg, const PetscWarpAMGInfo *info)
{
  int     n = A->n, *cnt = calloc(info->nagg + 1, sizeof(int)), *mark = malloc(sizeof(int) * (n + 1));
  double *d = calloc(n + 1, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int k = A->i[i]; k < A->i[i + 1]; k++)
      if (A->j[k] == i) d[i] += A->a[k];
  CHECK(info->nagg >= (n > 0) && info->nagg <= n, "%d aggregates for %d rows", info->nagg, n);
  for (int i = 0; i < n; i++) {
    CHECK(agg[i] >= 0 && agg[i] < info->nagg, "agg[%d] = %d of %d", i, agg[i], info->nagg);
    cnt[agg[i]]++;
  }
  for (int a = 0; a < info->nagg; a++) CHECK(cnt[a] > 0, "aggregate %d is empty", a);
  /* each aggregate: some member reaches all members within 2 strong steps through members */
  int *members = malloc(sizeof(int) * (n + 1)), *start = calloc(info->nagg + 1, sizeof(int));
  for (int a = 0; a < info->nagg; a++) start[a + 1] = start[a] + cnt[a];
  for (int a = 0; a < info->nagg; a++) cnt[a] = 0;
  for (int i = 0; i < n; i++) members[start[agg[i]] + cnt[agg[i]]++] = i;
  (void)mark;
  for (int a = 0; a < info->nagg; a++) {
    int ok = 0, sz = start[a + 1] - start[a];
    for (int c = start[a]; c < start[a + 1] && !ok && c < start[a] + 64; c++) { /* candidates: the first 64 members */
      int r = members[c];
      ok    = 1;
      for (int m = start[a]; m < start[a + 1] && ok; m++) { /* member i reaches r in at most 2 strong steps (its row's edges, the algorithm's direction) through members */
        int i = members[m], hit = i == r;
        for (int k = A->i[i]; k < A->i[i + 1] && !hit; k++) {
          int j = A->j[k];
          if (!Strong(A, d, i, k, theta) || agg[j] != a) continue;
          if (j == r) hit = 1;
          for (int q = A->i[j]; q < A->i[j + 1] && !hit; q++) hit = A->j[q] == r && Strong(A, d, j, q, theta);
        }
        ok = hit;
      }
    }
    CHECK(ok, "aggregate %d (%d nodes) is not within distance 2 of one of its first 64 nodes", a, sz);
  }
  free(cnt);
  free(mark);
  free(d);
  free(members);
  free(start);
}

/* P sorted and unique per row, columns in range; P bc = b - alpha D^-1 A b */
static void CheckProlongator(const char *name, const CSR *A, const int *agg, int nagg, const double *b, double alpha, const PetscWarpAMGProl *P)
{
  int n = A->n;
  CHECK(P->m == n && P->n == nagg && P->i[0] == 0 && P->i[n] == P->nnz, "sizes %d x %d, %lld nonzeros", P->m, P->n, P->nnz);
  for (int i = 0; i < n; i++) {
    double d = 0, ab = 0, y = 0, bi = b ? b[i] : 1.0, scale = fabs(bi);
    for (int q = P->i[i]; q < P->i[i + 1]; q++) {
      CHECK(P->j[q] >= 0 && P->j[q] < nagg, "row %d column %d of %d", i, P->j[q], nagg);
      if (q > P->i[i]) CHECK(P->j[q] > P->j[q - 1], "row %d not sorted and unique", i);
      y += P->v[q] * P->bc[P->j[q]];
    }
    int found = 0;
    for (int q = P->i[i]; q < P->i[i + 1]; q++) found |= P->j[q] == agg[i];
    CHECK(found, "row %d lacks its aggregate's column %d", i, agg[i]);
    for (int k = A->i[i]; k < A->i[i + 1]; k++) {
      double bj = b ? b[A->j[k]] : 1.0;
      if (A->j[k] == i) d += A->a[k];
      ab += A->a[k] * bj;
      scale += fabs(alpha * A->a[k] * bj);
    }
    double expect = alpha != 0 ? bi - alpha / d * ab : bi;
    scale         = alpha != 0 ? scale / fabs(d) + fabs(bi) : fabs(bi);
    CHECK(fabs(y - expect) <= 1e-12 * (scale > 0 ? scale : 1), "row %d: (P bc)_i = %.17g, b_i - alpha (D^-1 A b)_i = %.17g", i, y, expect);
  }
  { /* no empty column (an aggregate where b vanishes gets a unit column, bc = 0) */
    double *colmax = calloc(nagg + 1, sizeof(double));
    for (long long q = 0; q < P->nnz; q++)
      if (fabs(P->v[q]) > colmax[P->j[q]]) colmax[P->j[q]] = fabs(P->v[q]);
    for (int a = 0; a < nagg; a++) CHECK(colmax[a] > 0, "column %d of P is empty (bc %g)", a, P->bc[a]);
    free(colmax);
  }
}

#if defined(PETSCWARP_TEST_CUDA)
static void *Up(const void *h, size_t bytes)
{
  void *d = NULL;
  KERNEL_CALL((int)cudaMalloc(&d, bytes > 0 ? bytes : 1));
  if (bytes) KERNEL_CALL((int)cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  return d;
}

/* The CUDA kernels against the host twin's results */
static void CompareCUDA(const char *name, const CSR *A, double theta, const double *b, double alpha, const int *hagg, const PetscWarpAMGInfo *hinfo, const PetscWarpAMGProl *hP)
{
  int              n = A->n, *dai = Up(A->i, sizeof(int) * (n + 1)), *daj = Up(A->j, sizeof(int) * A->i[n]), *dagg, *agg = malloc(sizeof(int) * (n + 1));
  double          *daa = Up(A->a, sizeof(double) * A->i[n]), *db = b ? Up(b, sizeof(double) * n) : NULL;
  PetscWarpAMGInfo info;
  PetscWarpAMGProl P;

  KERNEL_CALL((int)cudaMalloc((void **)&dagg, sizeof(int) * (n + 1)));
  KERNEL_CALL(PetscWarpAMGAggregateCUDA(n, dai, daj, daa, theta, dagg, &info, NULL));
  if (n) KERNEL_CALL((int)cudaMemcpy(agg, dagg, sizeof(int) * n, cudaMemcpyDeviceToHost));
  CHECK(info.nagg == hinfo->nagg && info.rounds == hinfo->rounds && info.nleft == hinfo->nleft && info.nisolated == hinfo->nisolated && info.nstrong == hinfo->nstrong, "device: %d aggregates, %d rounds, %d left, %d isolated, %lld strong; host: %d, %d, %d, %d, %lld",
        info.nagg, info.rounds, info.nleft, info.nisolated, info.nstrong, hinfo->nagg, hinfo->rounds, hinfo->nleft, hinfo->nisolated, hinfo->nstrong);
  CHECK(!memcmp(agg, hagg, sizeof(int) * n), "the device's aggregates differ from the host's");
  KERNEL_CALL(PetscWarpAMGProlongatorCUDA(n, dai, daj, daa, dagg, info.nagg, db, alpha, &P, &info, NULL));
  CHECK(P.nnz == hP->nnz && !memcmp(P.i, hP->i, sizeof(int) * (n + 1)) && !memcmp(P.j, hP->j, sizeof(int) * P.nnz), "the device's prolongator pattern differs (%lld against %lld nonzeros)", P.nnz, hP->nnz);
  for (long long q = 0; q < P.nnz; q++) CHECK(fabs(P.v[q] - hP->v[q]) <= 1e-13 * (fabs(hP->v[q]) + 1e-300) + 1e-15, "P value %lld: device %.17g, host %.17g", q, P.v[q], hP->v[q]);
  for (int a = 0; a < P.n; a++) CHECK(fabs(P.bc[a] - hP->bc[a]) <= 1e-13 * fabs(hP->bc[a]), "bc[%d]: device %.17g, host %.17g", a, P.bc[a], hP->bc[a]);
  PetscWarpAMGProlFree(&P);
  cudaFree(dai);
  cudaFree(daj);
  cudaFree(daa);
  cudaFree(dagg);
  if (db) cudaFree(db);
  free(agg);
}
#endif

static void RunCase(const char *name, CSR *A, double theta, int withb, int hostonly)
{
  int              n = A->n, *agg = malloc(sizeof(int) * (n + 1));
  double          *b = NULL;
  PetscWarpAMGInfo info;
  if (withb) { /* 1: positive; 2: zero on the first third (whole aggregates), mixed signs elsewhere */
    b = malloc(sizeof(double) * (n + 1));
    for (int i = 0; i < n; i++) b[i] = withb == 1 ? 0.5 + Rand() : (i < n / 3 ? 0.0 : Rand() - 0.5);
  }
  KERNEL_CALL(PetscWarpAMGAggregateHost(n, A->i, A->j, A->a, theta, agg, &info));
  CheckAggregates(name, A, theta, agg, &info);
  for (int s = 0; s < 2; s++) {
    double           alpha = s ? 1.4 / (1.5 + Rand()) : 0.0;
    PetscWarpAMGProl P;
    PetscWarpAMGInfo pinfo = info;
    KERNEL_CALL(PetscWarpAMGProlongatorHost(n, A->i, A->j, A->a, agg, info.nagg, b, alpha, &P, &pinfo));
    CheckProlongator(name, A, agg, info.nagg, b, alpha, &P);
#if defined(PETSCWARP_TEST_CUDA)
    if (!hostonly) CompareCUDA(name, A, theta, b, alpha, agg, &info, &P);
#endif
    (void)hostonly;
    PetscWarpAMGProlFree(&P);
  }
  printf("%-28s n %7d: %6d aggregates, %2d rounds, %d isolated, %d left over\n", name, n, info.nagg, info.rounds, info.nisolated, info.nleft);
  free(agg);
  free(b);
}

/* A block operator: the scalar graph A expanded by bs with random bs x bs blocks (the diagonal blocks dominant) */
static CSR Expand(const CSR *A, int bs)
{
  Builder b;
  int     n = A->n * bs;
  BInit(&b, n);
  for (int i = 0; i < A->n; i++)
    for (int r = 0; r < bs; r++) {
      for (int k = A->i[i]; k < A->i[i + 1]; k++)
        for (int c = 0; c < bs; c++) BAdd(&b, A->j[k] * bs + c, A->j[k] == i ? (r == c ? 10.0 + Rand() : 0.1 * Rand()) : A->a[k] * (0.5 + Rand()));
      BEndRow(&b, i * bs + r);
    }
  return b.A;
}

/* The node graph against its definition; the tentative prolongator: nv entries per row in the aggregate's columns,
   P R = B on every aggregate, orthonormal columns where the aggregate has at least nv rows; the device against both */
static void RunBlocks(const char *name, const CSR *A, int bs, int nv, int hostonly)
{
  int              n = A->n, N = n / bs, *ni, *nj, *agg = malloc(sizeof(int) * (N + 1)), *cnt;
  double          *nw, *B = malloc(sizeof(double) * ((size_t)n * nv + 1));
  PetscWarpAMGInfo info;
  PetscWarpAMGProl P;

  for (long long q = 0; q < (long long)n * nv; q++) B[q] = Rand() - 0.5;
  KERNEL_CALL(PetscWarpAMGNodeGraphHost(n, bs, A->i, A->j, A->a, &ni, &nj, &nw, &info));
  for (int nd = 0; nd < N; nd++) { /* brute force: the block norms of node row nd */
    double *acc  = calloc(N, sizeof(double));
    char   *hit  = calloc(N, 1);
    int     cntj = 0;
    for (int r = 0; r < bs; r++)
      for (int k = A->i[nd * bs + r]; k < A->i[nd * bs + r + 1]; k++) acc[A->j[k] / bs] += A->a[k] * A->a[k], hit[A->j[k] / bs] = 1;
    for (int J = 0; J < N; J++)
      if (hit[J]) {
        CHECK(ni[nd] + cntj < ni[nd + 1] && nj[ni[nd] + cntj] == J, "node %d: block column %d missing or out of order", nd, J);
        CHECK(fabs(nw[ni[nd] + cntj] - sqrt(acc[J])) <= 1e-14 * sqrt(acc[J]), "node %d block %d: norm %g, expected %g", nd, J, nw[ni[nd] + cntj], sqrt(acc[J]));
        cntj++;
      }
    CHECK(ni[nd] + cntj == ni[nd + 1], "node %d: %d block columns, expected %d", nd, ni[nd + 1] - ni[nd], cntj);
    free(acc);
    free(hit);
  }
  KERNEL_CALL(PetscWarpAMGAggregateBlocksHost(n, bs, A->i, A->j, A->a, 0.0, agg, &info));
  KERNEL_CALL(PetscWarpAMGTentativeHost(N, bs, nv, agg, info.nagg, B, &P));
  cnt = calloc(info.nagg + 1, sizeof(int));
  for (int nd = 0; nd < N; nd++) cnt[agg[nd]]++;
  CHECK(P.m == n && P.n == info.nagg * nv && P.nnz == (long long)n * nv, "P %d x %d, %lld nonzeros", P.m, P.n, P.nnz);
  for (int i = 0; i < n; i++) {
    int a = agg[i / bs];
    CHECK(P.i[i] == i * nv, "row %d pointer %d", i, P.i[i]);
    for (int c = 0; c < nv; c++) {
      double y = 0, scale = 0;
      CHECK(P.j[(long long)i * nv + c] == a * nv + c, "row %d column %d: %d, expected %d", i, c, P.j[(long long)i * nv + c], a * nv + c);
      for (int r = 0; r < nv; r++) { /* (P R)_ic with R the aggregate's block of bc (column c, rows a nv + r) */
        double pr = P.v[(long long)i * nv + r] * P.bc[(long long)c * info.nagg * nv + a * nv + r];
        y += pr, scale += fabs(pr);
      }
      CHECK(fabs(y - B[(long long)c * n + i]) <= 1e-12 * (scale + fabs(B[(long long)c * n + i])), "row %d: (P R) %.17g, B %.17g", i, y, B[(long long)c * n + i]);
    }
  }
  for (int a = 0; a < info.nagg; a++) { /* Q^T Q = I on aggregates of at least nv rows */
    if (cnt[a] * bs < nv) continue;
    for (int c = 0; c < nv; c++)
      for (int e = 0; e < nv; e++) {
        double dot = 0;
        for (int i = 0; i < n; i++)
          if (agg[i / bs] == a) dot += P.v[(long long)i * nv + c] * P.v[(long long)i * nv + e];
        CHECK(fabs(dot - (c == e)) <= 1e-12, "aggregate %d: column %d . column %d = %g", a, c, e, dot);
      }
  }
#if defined(PETSCWARP_TEST_CUDA)
  if (!hostonly) {
    int             *dai = Up(A->i, sizeof(int) * (n + 1)), *daj = Up(A->j, sizeof(int) * A->i[n]), *dni, *dnj, *dagg, *hni = malloc(sizeof(int) * (N + 1)), *hnj, *hagg = malloc(sizeof(int) * (N + 1));
    double          *daa = Up(A->a, sizeof(double) * A->i[n]), *dnw, *hnw, *dB = Up(B, sizeof(double) * n * nv);
    PetscWarpAMGInfo dinfo;
    PetscWarpAMGProl D;
    KERNEL_CALL(PetscWarpAMGNodeGraphCUDA(n, bs, dai, daj, daa, &dni, &dnj, &dnw, &dinfo, NULL));
    KERNEL_CALL((int)cudaMemcpy(hni, dni, sizeof(int) * (N + 1), cudaMemcpyDeviceToHost));
    CHECK(!memcmp(hni, ni, sizeof(int) * (N + 1)), "device node graph row pointer differs");
    hnj = malloc(sizeof(int) * (ni[N] + 1));
    hnw = malloc(sizeof(double) * (ni[N] + 1));
    KERNEL_CALL((int)cudaMemcpy(hnj, dnj, sizeof(int) * ni[N], cudaMemcpyDeviceToHost));
    KERNEL_CALL((int)cudaMemcpy(hnw, dnw, sizeof(double) * ni[N], cudaMemcpyDeviceToHost));
    CHECK(!memcmp(hnj, nj, sizeof(int) * ni[N]), "device node graph columns differ");
    for (int q = 0; q < ni[N]; q++) CHECK(fabs(hnw[q] - nw[q]) <= 1e-14 * nw[q], "device block norm %d: %g, host %g", q, hnw[q], nw[q]);
    KERNEL_CALL((int)cudaMalloc((void **)&dagg, sizeof(int) * (N + 1)));
    KERNEL_CALL(PetscWarpAMGAggregateBlocksCUDA(n, bs, dai, daj, daa, 0.0, dagg, &dinfo, NULL));
    KERNEL_CALL((int)cudaMemcpy(hagg, dagg, sizeof(int) * N, cudaMemcpyDeviceToHost));
    CHECK(dinfo.nagg == info.nagg && !memcmp(hagg, agg, sizeof(int) * N), "device block aggregates differ");
    KERNEL_CALL(PetscWarpAMGTentativeCUDA(N, bs, nv, dagg, info.nagg, dB, &D, NULL));
    CHECK(D.nnz == P.nnz && !memcmp(D.j, P.j, sizeof(int) * P.nnz), "device tentative pattern differs");
    for (long long q = 0; q < P.nnz; q++) CHECK(fabs(D.v[q] - P.v[q]) <= 1e-12, "device tentative value %lld: %.17g, host %.17g", q, D.v[q], P.v[q]);
    for (long long q = 0; q < (long long)info.nagg * nv * nv; q++) CHECK(fabs(D.bc[q] - P.bc[q]) <= 1e-12 * (fabs(P.bc[q]) + 1), "device R %lld: %.17g, host %.17g", q, D.bc[q], P.bc[q]);
    PetscWarpAMGProlFree(&D);
    cudaFree(dai), cudaFree(daj), cudaFree(daa), cudaFree(dni), cudaFree(dnj), cudaFree(dnw), cudaFree(dagg), cudaFree(dB);
    free(hni), free(hnj), free(hnw), free(hagg);
  }
#endif
  (void)hostonly;
  printf("%-28s n %7d, bs %d, nv %d: %6d aggregates (node graph %d nodes, %d block entries)\n", name, n, bs, nv, info.nagg, N, ni[N]);
  PetscWarpAMGProlFree(&P);
  free(ni), free(nj), free(nw), free(agg), free(B), free(cnt);
}

/* A zero diagonal (smoothing) and a column out of range: errors with the row */
static void Errors(int hostonly)
{
  const char      *name  = "errors";
  int              ai[4] = {0, 2, 4, 5}, aj[5] = {0, 1, 0, 1, 1}, bj[5] = {0, 1, 0, 7, 2}, agg[3];
  double           aa[5] = {2, -1, -1, 2, 0};
  PetscWarpAMGInfo info;
  PetscWarpAMGProl P;
  int              e;

  /* row 2 has only a zero off-diagonal... make it a zero diagonal: column 2 with value 0 */
  aj[4] = 2;
  KERNEL_CALL(PetscWarpAMGAggregateHost(3, ai, aj, aa, 0.0, agg, &info));
  e = PetscWarpAMGProlongatorHost(3, ai, aj, aa, agg, info.nagg, NULL, 0.5, &P, &info);
  CHECK(e == PETSCWARP_AMG_ERR_DIAG && info.bad == 2, "zero diagonal: error %d, row %d", e, info.bad);
  e = PetscWarpAMGAggregateHost(3, ai, bj, aa, 0.0, agg, &info);
  CHECK(e == PETSCWARP_AMG_ERR_INDEX && info.bad == 1, "column out of range: error %d, row %d", e, info.bad);
  agg[0] = agg[1] = agg[2] = 0;
  e                        = PetscWarpAMGProlongatorHost(3, ai, bj, aa, agg, 1, NULL, 0.5, &P, &info);
  CHECK(e == PETSCWARP_AMG_ERR_INDEX && info.bad == 1, "prolongator, column out of range: error %d, row %d", e, info.bad);
#if defined(PETSCWARP_TEST_CUDA)
  if (!hostonly) {
    int    *dai = Up(ai, sizeof(ai)), *daj = Up(aj, sizeof(aj)), *dbj = Up(bj, sizeof(bj)), *dagg;
    double *daa = Up(aa, sizeof(aa));
    KERNEL_CALL((int)cudaMalloc((void **)&dagg, sizeof(int) * 3));
    KERNEL_CALL(PetscWarpAMGAggregateCUDA(3, dai, daj, daa, 0.0, dagg, &info, NULL));
    e = PetscWarpAMGProlongatorCUDA(3, dai, daj, daa, dagg, info.nagg, NULL, 0.5, &P, &info, NULL);
    CHECK(e == PETSCWARP_AMG_ERR_DIAG && info.bad == 2, "device, zero diagonal: error %d, row %d", e, info.bad);
    e = PetscWarpAMGAggregateCUDA(3, dai, dbj, daa, 0.0, dagg, &info, NULL);
    CHECK(e == PETSCWARP_AMG_ERR_INDEX && info.bad == 1, "device, column out of range: error %d, row %d", e, info.bad);
    KERNEL_CALL((int)cudaMemset(dagg, 0, sizeof(int) * 3));
    e = PetscWarpAMGProlongatorCUDA(3, dai, dbj, daa, dagg, 1, NULL, 0.5, &P, &info, NULL);
    CHECK(e == PETSCWARP_AMG_ERR_INDEX && info.bad == 1, "device prolongator, column out of range: error %d, row %d", e, info.bad);
    cudaFree(dai);
    cudaFree(daj);
    cudaFree(dbj);
    cudaFree(daa);
    cudaFree(dagg);
  }
#endif
  (void)hostonly;
  printf("%-28s zero diagonal and column out of range (aggregation, prolongator) reported with their rows\n", name);
}

int main(int argc, char **argv)
{
  int      hostonly = argc > 1 && !strcmp(argv[1], "-host");
  unsigned seed     = argc > 1 + hostonly ? (unsigned)atoi(argv[1 + hostonly]) : (unsigned)time(NULL);
  CSR      A;

  if (KernelTestSkip(hostonly)) return 200;
  printf("seed %u (rerun with: test_gamgkernels%s %u)\n", seed, hostonly ? " -host" : "", seed);
  srand(seed);
  A = Laplace2D(20 + rand() % 30, 20 + rand() % 30, 1.0);
  RunCase("laplace2d", &A, 0.0, 0, hostonly);
  RunCase("laplace2d_nullvec", &A, 0.0, 1, hostonly);
  RunCase("laplace2d_nullvec_zero", &A, 0.0, 2, hostonly);
  Free(&A);
  A = Laplace2D(30 + rand() % 10, 30 + rand() % 10, 0.01);
  RunCase("anisotropic_theta0.25", &A, 0.25, 0, hostonly);
  RunCase("anisotropic_all", &A, -1.0, 0, hostonly);
  Free(&A);
  if (!hostonly) { /* a large one: the grids of many blocks */
    A = Laplace2D(700 + rand() % 100, 700 + rand() % 100, 1.0);
    RunCase("laplace2d_large", &A, 0.0, 0, hostonly);
    Free(&A);
  }
  A = RandomGraph(300 + rand() % 200, 3, 7, 1, 0);
  RunCase("graph_isolated_dense", &A, 0.0, 1, hostonly);
  Free(&A);
  A = RandomGraph(200 + rand() % 100, 4, 0, 0, 1);
  RunCase("graph_unsymmetric", &A, 0.0, 0, hostonly);
  Free(&A);
  A = RandomGraph(1, 0, 0, 0, 0);
  RunCase("one_by_one", &A, 0.0, 0, hostonly);
  Free(&A);
  A = RandomGraph(0, 0, 0, 0, 0);
  RunCase("empty", &A, 0.0, 0, hostonly);
  Free(&A);
  A = Laplace2D(12 + rand() % 8, 12 + rand() % 8, 1.0);
  {
    CSR Ab = Expand(&A, 3);
    RunBlocks("blocks_bs3_nv6", &Ab, 3, 6, hostonly); /* elasticity's shape: 3D rigid-body modes on 3 dofs per node */
    RunBlocks("blocks_bs3_nv3", &Ab, 3, 3, hostonly);
    Free(&Ab);
    Ab = Expand(&A, 2);
    RunBlocks("blocks_bs2_nv3", &Ab, 2, 3, hostonly);
    Free(&Ab);
    RunBlocks("blocks_bs1_nv2", &A, 1, 2, hostonly);
  }
  Free(&A);
  { /* nodes without neighbours: single-node aggregates of 3 rows for 6 near-null vectors (rank-deficient QR, padded) */
    CSR G = RandomGraph(60 + rand() % 40, 3, 5, 0, 0), Gb = Expand(&G, 3);
    RunBlocks("blocks_isolated_bs3_nv6", &Gb, 3, 6, hostonly);
    Free(&Gb);
    Free(&G);
  }
  Errors(hostonly);
  return 0;
}
