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
