/* PCGAMG type "warp": host twin of the CUDA kernels of src/kernels/gamgwarp.cu (the reference, and the backend without a
   GPU). The algorithm: include/petscwarp/private/gamgwarpkernels.h. */
#include <petscwarp/private/gamgwarpkernels.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The diagonal of A; PETSCWARP_AMG_ERR_INDEX for a column out of range (row in *bad) */
static int Diagonal(int n, const int *ai, const int *aj, const double *aa, double *d, int *bad)
{
  for (int i = 0; i < n; i++)
    if (PetscWarpAMGRowDiagonal(i, n, ai, aj, aa, &d[i])) {
      *bad = i;
      return PETSCWARP_AMG_ERR_INDEX;
    }
  return PETSCWARP_AMG_OK;
}

int PetscWarpAMGAggregateHost(int n, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info)
{
  long long           nnz = n > 0 ? ai[n] : 0;
  double             *d   = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
  unsigned char      *st = (unsigned char *)malloc(n > 0 ? n : 1), *sg = (unsigned char *)malloc(nnz > 0 ? nnz : 1);
  unsigned long long *m1 = (unsigned long long *)malloc(sizeof(unsigned long long) * (n > 0 ? n : 1)), *m2 = (unsigned long long *)malloc(sizeof(unsigned long long) * (n > 0 ? n : 1));
  int                *r1 = (int *)malloc(sizeof(int) * (n > 0 ? n : 1)), *r2 = (int *)malloc(sizeof(int) * (n > 0 ? n : 1));
  int                 err = PETSCWARP_AMG_OK, und = n;

  memset(info, 0, sizeof(*info));
  info->bad = -1;
  if (!d || !st || !sg || !m1 || !m2 || !r1 || !r2) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  if ((err = Diagonal(n, ai, aj, aa, d, &info->bad))) goto done;
  for (int i = 0; i < n; i++) { /* the strength graph */
    int ns = PetscWarpAMGRowStrength(i, ai, aj, aa, d, theta, sg);
    info->nstrong += ns;
    if (!ns) info->nisolated++;
    st[i] = PETSCWARP_AMG_UNDECIDED;
  }
  while (und > 0) { /* the roots: a maximal distance-2 independent set */
    if (info->rounds > n) {
      err = PETSCWARP_AMG_ERR_ROUND;
      goto done;
    }
    for (int i = 0; i < n; i++) m1[i] = PetscWarpAMGRowMax(i, ai, aj, sg, st, NULL);
    for (int i = 0; i < n; i++) m2[i] = PetscWarpAMGRowMax(i, ai, aj, sg, st, m1);
    und = 0;
    for (int i = 0; i < n; i++)
      if (st[i] == PETSCWARP_AMG_UNDECIDED) {
        st[i] = (unsigned char)PetscWarpAMGDecide(i, m2[i]);
        und += st[i] == PETSCWARP_AMG_UNDECIDED;
      }
    info->rounds++;
  }
  for (int i = 0; i < n; i++) r1[i] = PetscWarpAMGRowPass1(i, ai, aj, sg, st); /* first pass */
  for (int i = 0; i < n; i++) {                                                /* second pass; a node left is an aggregate of its own */
    r2[i] = PetscWarpAMGRowPass2(i, ai, aj, sg, r1);
    if (r2[i] < 0) {
      r2[i] = i;
      info->nleft++;
    }
  }
  for (int i = 0; i < n; i++) /* numbering in the order of the roots */
    if (r2[i] == i) r1[i] = info->nagg++;
  for (int i = 0; i < n; i++) agg[i] = r1[r2[i]];
done:
  free(d);
  free(st);
  free(sg);
  free(m1);
  free(m2);
  free(r1);
  free(r2);
  return err;
}

void PetscWarpAMGProlFree(PetscWarpAMGProl *P)
{
  free(P->i);
  free(P->j);
  free(P->v);
  free(P->bc);
  memset(P, 0, sizeof(*P));
}

int PetscWarpAMGProlongatorHost(int n, const int *ai, const int *aj, const double *aa, const int *agg, int nagg, const double *b, double alpha, PetscWarpAMGProl *P, PetscWarpAMGInfo *info)
{
  long long nnz = n > 0 ? ai[n] : 0, cap = alpha != 0 ? nnz + n : n, p = 0;
  int       maxlen = 0, err = PETSCWARP_AMG_OK;
  double   *d = (double *)malloc(sizeof(double) * (n > 0 ? n : 1)), *p0 = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
  int      *size = (int *)calloc(nagg > 0 ? nagg : 1, sizeof(int)); /* aggregate sizes */
  int      *bc_j;
  double   *bc_v;

  memset(P, 0, sizeof(*P));
  info->bad = -1;
  for (int i = 0; i < n; i++)
    if (ai[i + 1] - ai[i] > maxlen) maxlen = ai[i + 1] - ai[i];
  P->m  = n;
  P->n  = nagg;
  P->i  = (int *)malloc(sizeof(int) * (n + 1));
  P->j  = (int *)malloc(sizeof(int) * (cap > 0 ? cap : 1));
  P->v  = (double *)malloc(sizeof(double) * (cap > 0 ? cap : 1));
  P->bc = (double *)calloc(nagg > 0 ? nagg : 1, sizeof(double));
  bc_j  = (int *)malloc(sizeof(int) * (maxlen + 1));
  bc_v  = (double *)malloc(sizeof(double) * (maxlen + 1));
  if (!d || !p0 || !size || !P->i || !P->j || !P->v || !P->bc || !bc_j || !bc_v) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  if ((err = Diagonal(n, ai, aj, aa, d, &info->bad))) goto done;
  for (int i = 0; i < n; i++) {
    double bi = b ? b[i] : 1.0;
    P->bc[agg[i]] += bi * bi;
    size[agg[i]]++;
  }
  for (int a = 0; a < nagg; a++) P->bc[a] = sqrt(P->bc[a]);
  for (int i = 0; i < n; i++) p0[i] = PetscWarpAMGP0(b ? b[i] : 1.0, P->bc[agg[i]], size[agg[i]]);
  P->i[0] = 0;
  for (int i = 0; i < n; i++) {
    int    len = 0;
    double s   = 0;
    if (alpha != 0) {
      if (d[i] == 0) {
        info->bad = i;
        err       = PETSCWARP_AMG_ERR_DIAG;
        goto done;
      }
      s = -alpha / d[i];
      for (int k = ai[i]; k < ai[i + 1]; k++) bc_j[len] = agg[aj[k]], bc_v[len++] = s * aa[k] * p0[aj[k]];
    }
    bc_j[len] = agg[i], bc_v[len++] = p0[i];
    for (int q = 1; q < len; q++) { /* stable insertion sort by column */
      int    c = bc_j[q], r = q;
      double v = bc_v[q];
      while (r > 0 && bc_j[r - 1] > c) bc_j[r] = bc_j[r - 1], bc_v[r] = bc_v[r - 1], r--;
      bc_j[r] = c, bc_v[r] = v;
    }
    for (int q = 0; q < len; q++) {
      if (q > 0 && bc_j[q] == bc_j[q - 1]) P->v[p - 1] += bc_v[q];
      else P->j[p] = bc_j[q], P->v[p++] = bc_v[q];
    }
    P->i[i + 1] = (int)p;
  }
  P->nnz = p;
done:
  free(d);
  free(p0);
  free(size);
  free(bc_j);
  free(bc_v);
  if (err) PetscWarpAMGProlFree(P);
  return err;
}

int PetscWarpAMGNodeGraphHost(int n, int bs, const int *ai, const int *aj, const double *aa, int **ni, int **nj, double **nw, PetscWarpAMGInfo *info)
{
  int       N  = bs > 0 ? n / bs : 0;
  long long nz = 0;

  memset(info, 0, sizeof(*info));
  info->bad = -1;
  *nj       = NULL;
  *nw       = NULL;
  *ni       = NULL;
  if (bs < 1 || bs > PETSCWARP_AMG_MAXBS || n % bs) return PETSCWARP_AMG_ERR_BS;
  *ni = (int *)malloc(sizeof(int) * (N + 1));
  if (!*ni) return PETSCWARP_AMG_ERR_MEM;
  (*ni)[0] = 0;
  for (int nd = 0; nd < N; nd++) {
    int c = PetscWarpAMGNodeRow(nd, bs, n, ai, aj, aa, NULL, NULL);
    if (c < 0) {
      info->bad = nd * bs;
      free(*ni);
      *ni = NULL;
      return PETSCWARP_AMG_ERR_INDEX;
    }
    nz += c;
    (*ni)[nd + 1] = (int)nz;
  }
  *nj = (int *)malloc(sizeof(int) * (nz > 0 ? nz : 1));
  *nw = (double *)malloc(sizeof(double) * (nz > 0 ? nz : 1));
  if (!*nj || !*nw) {
    free(*ni), free(*nj), free(*nw);
    *ni = *nj = NULL, *nw = NULL;
    return PETSCWARP_AMG_ERR_MEM;
  }
  for (int nd = 0; nd < N; nd++) (void)PetscWarpAMGNodeRow(nd, bs, n, ai, aj, aa, *nj + (*ni)[nd], *nw + (*ni)[nd]);
  return PETSCWARP_AMG_OK;
}

int PetscWarpAMGTentativeHost(int N, int bs, int nv, const int *agg, int nagg, const double *B, PetscWarpAMGProl *P)
{
  int     n = N * bs, *off = (int *)calloc(nagg + 1, sizeof(int)), *mem = (int *)malloc(sizeof(int) * (N > 0 ? N : 1)), *fill = (int *)calloc(nagg + 1, sizeof(int)), maxsz = 0;
  double *A = NULL, *tau = (double *)malloc(sizeof(double) * nv), *R = (double *)malloc(sizeof(double) * nv * nv), *work = NULL, *Q = NULL;
  int     err = PETSCWARP_AMG_OK;

  memset(P, 0, sizeof(*P));
  P->m   = n;
  P->n   = nagg * nv;
  P->nnz = (long long)n * nv;
  P->i   = (int *)malloc(sizeof(int) * (n + 1));
  P->j   = (int *)malloc(sizeof(int) * (P->nnz > 0 ? P->nnz : 1));
  P->v   = (double *)malloc(sizeof(double) * (P->nnz > 0 ? P->nnz : 1));
  P->bc  = (double *)calloc((size_t)nagg * nv * nv + 1, sizeof(double));
  if (!off || !mem || !fill || !tau || !R || !P->i || !P->j || !P->v || !P->bc) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  for (int nd = 0; nd < N; nd++) off[agg[nd] + 1]++; /* members of each aggregate, in node order */
  for (int a = 0; a < nagg; a++) {
    if (off[a + 1] > maxsz) maxsz = off[a + 1];
    off[a + 1] += off[a];
  }
  for (int nd = 0; nd < N; nd++) mem[off[agg[nd]] + fill[agg[nd]]++] = nd;
  A    = (double *)malloc(sizeof(double) * (maxsz * bs + nv) * nv);
  work = (double *)malloc(sizeof(double) * (maxsz * bs + nv));
  Q    = (double *)malloc(sizeof(double) * (maxsz * bs > 0 ? maxsz * bs : 1) * nv);
  if (!A || !work || !Q) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  for (int i = 0; i <= n; i++) P->i[i] = i * nv;
  for (int a = 0; a < nagg; a++) {
    int sz = off[a + 1] - off[a], M = sz * bs, ld = M + nv;
    for (int c = 0; c < nv; c++)
      for (int m = 0; m < ld; m++) A[c * ld + m] = m < M ? B[(long long)c * n + (long long)mem[off[a] + m / bs] * bs + m % bs] : 0.0;
    PetscWarpAMGBlockQR(M, nv, A, tau, work, Q, R);
    for (int m = 0; m < M; m++) {
      int row = mem[off[a] + m / bs] * bs + m % bs;
      for (int c = 0; c < nv; c++) P->j[(long long)row * nv + c] = a * nv + c, P->v[(long long)row * nv + c] = Q[m * nv + c];
    }
    for (int c = 0; c < nv; c++)
      for (int r = 0; r < nv; r++) P->bc[(long long)c * nagg * nv + a * nv + r] = R[c * nv + r]; /* rows a nv .. of column c */
  }
done:
  free(off);
  free(mem);
  free(fill);
  free(A);
  free(tau);
  free(R);
  free(work);
  free(Q);
  if (err) PetscWarpAMGProlFree(P);
  return err;
}

int PetscWarpAMGAggregateBlocksHost(int n, int bs, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info)
{
  int    *ni, *nj, err;
  double *nw;

  if (bs == 1) return PetscWarpAMGAggregateHost(n, ai, aj, aa, theta, agg, info);
  if ((err = PetscWarpAMGNodeGraphHost(n, bs, ai, aj, aa, &ni, &nj, &nw, info))) return err;
  err = PetscWarpAMGAggregateHost(n / bs, ni, nj, nw, theta, agg, info);
  free(ni);
  free(nj);
  free(nw);
  return err;
}
