/*
  PCGAMG type "warp" (src/ksp/pc/impls/gamgwarp/gamgwarp.c): the set-up of smoothed aggregation on the device (a
  scalar operator as below; block operators further down: node graph, QR of each aggregate's block), in the kernels of src/kernels/gamgwarp.cu, with a host twin in C (src/kernels/gamgwarp_host.c: the
  reference, and the backend without a GPU). No PETSc objects here: CSR arrays (32-bit indices), sizes and a stream.

  1. Strength: an off-diagonal a_ij is strong if |a_ij| > theta sqrt(|a_ii a_jj|) (theta < 0: every stored one).
  2. Roots: a maximal distance-2 independent set of the strength graph by the randomised algorithm of Bell, Dalton and
     Olson (SIAM J. Sci. Comput. 34(4), 2012): each node carries the key (state, hash(i), i), states OUT < UNDECIDED <
     IN; two max-propagations over the strong edges give each node the largest key within distance 2; an undecided
     node whose own key is that largest becomes IN (a root), one that sees an IN key becomes OUT. Rounds repeat until
     no node is undecided. The hash is fixed, so the host and the device choose the same roots.
     The strength graph is not symmetrised (each row's own entries decide): on an unsymmetric pattern two roots may
     be neighbours.
  3. Aggregates: a root with the nodes strongly connected to it (the largest-key root among several), then a node
     left over joins the aggregate of its largest-key strong neighbour that joined in the first pass; a node left
     after that (possible only on an unsymmetric pattern) is an aggregate of its own. Aggregates are numbered in the
     order of their roots.
  4. Tentative prolongator: P0(i, agg(i)) = b_i / |b|_agg(i)| with b the near-null vector (the constant by default);
     the coarse near-null vector is bc(a) = |b|_a| (the QR of a one-column block). Where b is zero on a whole
     aggregate, P0 = 1 / sqrt(size) there and bc = 0 (as a QR would give a unit column), so that P0 bc = b still holds
     and the coarse operator keeps a nonzero diagonal.
  5. Smoothed prolongator: P = (I - alpha D^-1 A) P0 (alpha = 1.4 / emax(D^-1 A), PCGAMGAGG's choice); alpha = 0
     gives P0. Row i of P: the entries (agg(j), -alpha a_ij p0_j / a_ii) for the stored a_ij, and (agg(i), p0_i),
     summed by column. The device sorts keys (row, column) and reduces them; the host sorts each row. Summation order
     differs (the sums agree to rounding).
*/
#pragma once

#include <math.h>
#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(__CUDACC__)
  #define PETSCWARP_AMG_HD __host__ __device__
#else
  #define PETSCWARP_AMG_HD
#endif

enum {
  PETSCWARP_AMG_OUT       = 0,
  PETSCWARP_AMG_UNDECIDED = 1,
  PETSCWARP_AMG_IN        = 2
};

/* errors of the kernels (the return value; positive values are CUDA errors) */
enum {
  PETSCWARP_AMG_OK        = 0,
  PETSCWARP_AMG_ERR_MEM   = -1, /* out of (host or device) memory */
  PETSCWARP_AMG_ERR_DIAG  = -2, /* a zero or missing diagonal entry (row in *bad) */
  PETSCWARP_AMG_ERR_INDEX = -3, /* a column index out of range (row in *bad) */
  PETSCWARP_AMG_ERR_ROUND = -4, /* the root selection did not finish in n + 1 rounds */
  PETSCWARP_AMG_ERR_BS    = -5  /* a block size outside 1 .. PETSCWARP_AMG_MAXBS, or not dividing n */
};

/* A node's 30-bit hash: a fixed integer mix of its index */
static inline PETSCWARP_AMG_HD unsigned PetscWarpAMGHash(unsigned x)
{
  x = ((x >> 16) ^ x) * 0x45d9f3bu;
  x = ((x >> 16) ^ x) * 0x45d9f3bu;
  x = (x >> 16) ^ x;
  return x & 0x3fffffffu;
}

/* The key of node i in state s: state in the top two bits, then the hash, then the index (unique, totally ordered) */
static inline PETSCWARP_AMG_HD unsigned long long PetscWarpAMGKey(int s, int i)
{
  return ((unsigned long long)s << 62) | ((unsigned long long)PetscWarpAMGHash((unsigned)i) << 32) | (unsigned long long)(unsigned)i;
}

static inline PETSCWARP_AMG_HD int PetscWarpAMGKeyState(unsigned long long k)
{
  return (int)(k >> 62);
}

static inline PETSCWARP_AMG_HD double PetscWarpAMGAbs(double a)
{
  return a < 0 ? -a : a;
}

/* Whether the stored entry a_ij (j != i) is a strong connection */
static inline PETSCWARP_AMG_HD int PetscWarpAMGStrong(double aij, double dii, double djj, double theta)
{
  if (theta < 0) return 1;
  double s = PetscWarpAMGAbs(dii * djj);
  return PetscWarpAMGAbs(aij) * PetscWarpAMGAbs(aij) > theta * theta * s && aij != 0;
}

/* ---- one row's work, shared by the host twin and the CUDA kernels (same results by construction) ---- */

/* Row i's diagonal (the sum of its diagonal entries); -1 if a column is out of range, else 0 */
static inline PETSCWARP_AMG_HD int PetscWarpAMGRowDiagonal(int i, int n, const int *ai, const int *aj, const double *aa, double *d)
{
  double s = 0;
  for (int k = ai[i]; k < ai[i + 1]; k++) {
    if (aj[k] < 0 || aj[k] >= n) return -1;
    if (aj[k] == i) s += aa[k];
  }
  *d = s;
  return 0;
}

/* Row i's strength mask; returns its strong connections */
static inline PETSCWARP_AMG_HD int PetscWarpAMGRowStrength(int i, const int *ai, const int *aj, const double *aa, const double *d, double theta, unsigned char *sg)
{
  int ns = 0;
  for (int k = ai[i]; k < ai[i + 1]; k++) {
    sg[k] = (unsigned char)(aj[k] != i && PetscWarpAMGStrong(aa[k], d[i], d[aj[k]], theta));
    ns += sg[k];
  }
  return ns;
}

/* The largest key of i and its strong neighbours: from their states (m = NULL), or the largest of their m[] */
static inline PETSCWARP_AMG_HD unsigned long long PetscWarpAMGRowMax(int i, const int *ai, const int *aj, const unsigned char *sg, const unsigned char *st, const unsigned long long *m)
{
  unsigned long long best = m ? m[i] : PetscWarpAMGKey(st[i], i);
  for (int k = ai[i]; k < ai[i + 1]; k++)
    if (sg[k]) {
      unsigned long long q = m ? m[aj[k]] : PetscWarpAMGKey(st[aj[k]], aj[k]);
      if (q > best) best = q;
    }
  return best;
}

/* An undecided node's new state from the largest key within distance 2 */
static inline PETSCWARP_AMG_HD int PetscWarpAMGDecide(int i, unsigned long long m2)
{
  if (m2 == PetscWarpAMGKey(PETSCWARP_AMG_UNDECIDED, i)) return PETSCWARP_AMG_IN;
  if (PetscWarpAMGKeyState(m2) == PETSCWARP_AMG_IN) return PETSCWARP_AMG_OUT;
  return PETSCWARP_AMG_UNDECIDED;
}

/* First pass: a root is its own; another node takes its strongly connected root of largest key (-1: none) */
static inline PETSCWARP_AMG_HD int PetscWarpAMGRowPass1(int i, const int *ai, const int *aj, const unsigned char *sg, const unsigned char *st)
{
  unsigned long long best = 0;
  int                r    = st[i] == PETSCWARP_AMG_IN ? i : -1;
  if (r >= 0) return r;
  for (int k = ai[i]; k < ai[i + 1]; k++)
    if (sg[k] && st[aj[k]] == PETSCWARP_AMG_IN) {
      unsigned long long q = PetscWarpAMGKey(0, aj[k]);
      if (r < 0 || q > best) best = q, r = aj[k];
    }
  return r;
}

/* Second pass: the root of the strong neighbour of largest key that joined in the first pass (-1: none) */
static inline PETSCWARP_AMG_HD int PetscWarpAMGRowPass2(int i, const int *ai, const int *aj, const unsigned char *sg, const int *r1)
{
  unsigned long long best = 0;
  int                r    = r1[i];
  if (r >= 0) return r;
  for (int k = ai[i]; k < ai[i + 1]; k++)
    if (sg[k] && r1[aj[k]] >= 0) {
      unsigned long long q = PetscWarpAMGKey(0, aj[k]);
      if (r < 0 || q > best) best = q, r = r1[aj[k]];
    }
  return r;
}

/* The tentative prolongator's entry of a node with near-null value bi in an aggregate of norm bc and size nodes */
static inline PETSCWARP_AMG_HD double PetscWarpAMGP0(double bi, double bc, int size)
{
  return bc > 0 ? bi / bc : 1.0 / sqrt((double)size);
}

/* ---- block operators: bs rows per node, nv near-null vectors (elasticity: bs 3, nv 6) ---- */
#define PETSCWARP_AMG_MAXBS 16 /* the largest block size of a level (the coarse levels have bs = nv) */

/* Node nd's block row: the distinct nodes J among the columns of its rows nd bs .. nd bs + bs - 1 (each row sorted by
   column), in order, with w = the Frobenius norm of the block (nd, J); cols = w = NULL: the count only. Returns the
   count, or -1 for a column out of range */
static inline PETSCWARP_AMG_HD int PetscWarpAMGNodeRow(int nd, int bs, int n, const int *ai, const int *aj, const double *aa, int *cols, double *w)
{
  int p[PETSCWARP_AMG_MAXBS], e[PETSCWARP_AMG_MAXBS], cnt = 0;
  for (int r = 0; r < bs; r++) p[r] = ai[nd * bs + r], e[r] = ai[nd * bs + r + 1];
  for (;;) {
    int    J = -1;
    double s = 0;
    for (int r = 0; r < bs; r++)
      if (p[r] < e[r]) {
        int c = aj[p[r]];
        if (c < 0 || c >= n) return -1;
        if (J < 0 || c / bs < J) J = c / bs;
      }
    if (J < 0) break;
    for (int r = 0; r < bs; r++)
      for (; p[r] < e[r] && aj[p[r]] / bs == J; p[r]++) s += aa[p[r]] * aa[p[r]];
    if (cols) cols[cnt] = J, w[cnt] = sqrt(s);
    cnt++;
  }
  return cnt;
}

/* Householder QR (LAPACK's dgeqr2/dorg2r arithmetic) of one aggregate's M x nv block, column-major in A with leading
   dimension ld = M + nv (rows M .. ld - 1 zero: an aggregate smaller than nv rows is padded as PCGAMGAGG pads it).
   Writes R (upper triangular, column-major: R[c nv + r]) and the first M rows of Q (row-major: Q[m nv + c]); tau
   (nv) and work (ld) are scratch. A is overwritten. */
static inline PETSCWARP_AMG_HD void PetscWarpAMGBlockQR(int M, int nv, double *A, double *tau, double *work, double *Q, double *R)
{
  int ld = M + nv;
  for (int j = 0; j < nv; j++) {
    double alpha = A[j * ld + j], xn = 0;
    for (int i = j + 1; i < ld; i++) xn += A[j * ld + i] * A[j * ld + i];
    tau[j] = 0;
    if (xn == 0) continue;
    double beta = sqrt(alpha * alpha + xn);
    if (alpha >= 0) beta = -beta; /* LAPACK's dlarfg: beta = -sign(alpha) |(alpha, x)|, SIGN(., +0) positive */
    tau[j]    = (beta - alpha) / beta;
    double sc = 1.0 / (alpha - beta);
    for (int i = j + 1; i < ld; i++) A[j * ld + i] *= sc;
    A[j * ld + j] = beta;
    for (int k = j + 1; k < nv; k++) { /* H_j = I - tau v v^T on column k, v = (1, A[j + 1 :, j]) */
      double t = A[k * ld + j];
      for (int i = j + 1; i < ld; i++) t += A[j * ld + i] * A[k * ld + i];
      t *= tau[j];
      A[k * ld + j] -= t;
      for (int i = j + 1; i < ld; i++) A[k * ld + i] -= t * A[j * ld + i];
    }
  }
  for (int c = 0; c < nv; c++)
    for (int r = 0; r < nv; r++) R[c * nv + r] = r <= c ? A[c * ld + r] : 0.0;
  for (int c = 0; c < nv; c++) { /* Q e_c = H_0 H_1 ... H_{nv-1} e_c */
    for (int i = 0; i < ld; i++) work[i] = i == c ? 1.0 : 0.0;
    for (int j = nv - 1; j >= 0; j--) {
      if (tau[j] == 0) continue;
      double t = work[j];
      for (int i = j + 1; i < ld; i++) t += A[j * ld + i] * work[i];
      t *= tau[j];
      work[j] -= t;
      for (int i = j + 1; i < ld; i++) work[i] -= t * A[j * ld + i];
    }
    for (int m = 0; m < M; m++) Q[m * nv + c] = work[m];
  }
}

/* What the set-up of one level reports */
typedef struct {
  int       nagg;      /* aggregates (coarse unknowns) */
  int       rounds;    /* rounds of the root selection */
  int       nleft;     /* nodes that formed an aggregate of their own in the last pass */
  int       nisolated; /* nodes without a strong connection (aggregates of one) */
  long long nstrong;   /* strong connections */
  int       bad;       /* the row of an error */
} PetscWarpAMGInfo;

/* The prolongator, CSR with 32-bit indices, in host memory owned by the kernels layer (PetscWarpAMGFree*()) */
typedef struct {
  int       m, n; /* rows (fine), columns (aggregates) */
  long long nnz;
  int      *i, *j;
  double   *v;
  double   *bc; /* the coarse near-null vector (n entries) */
} PetscWarpAMGProl;

/* Aggregates of the strength graph of A (n rows, CSR ai/aj/aa, 32-bit indices): agg[i] in [0, info->nagg). The
   arrays are host arrays (Host) or device arrays (CUDA: agg is a device array of n ints that the caller allocates) */
int PetscWarpAMGAggregateHost(int n, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info);
/* P = (I - alpha D^-1 A) P0 from the aggregates and the near-null vector b (n entries; NULL: the constant), returned in
   host memory (P->i, P->j, P->v, P->bc) */
int  PetscWarpAMGProlongatorHost(int n, const int *ai, const int *aj, const double *aa, const int *agg, int nagg, const double *b, double alpha, PetscWarpAMGProl *P, PetscWarpAMGInfo *info);
void PetscWarpAMGProlFree(PetscWarpAMGProl *P);

/* Block operators. The node graph of A (n rows, bs per node): ni (N + 1), nj, nw (block Frobenius norms), allocated
   here (free(); the CUDA version: device memory, cudaFree()); the aggregation then runs on it as on a scalar operator */
int PetscWarpAMGNodeGraphHost(int n, int bs, const int *ai, const int *aj, const double *aa, int **ni, int **nj, double **nw, PetscWarpAMGInfo *info);
/* The tentative prolongator of block aggregates: B (n x nv, column-major, stride n = N bs) the near-null vectors, agg
   the nodes' aggregates; P (host memory): n x nagg nv with nv entries per row, its Q rows; P->bc the coarse near-null
   vectors (nagg nv x nv, column-major, stride nagg nv: each aggregate's R) */
int PetscWarpAMGTentativeHost(int N, int bs, int nv, const int *agg, int nagg, const double *B, PetscWarpAMGProl *P);
/* The aggregates of a level of block size bs: of A itself (bs 1), else of its node graph (agg: n / bs entries) */
int PetscWarpAMGAggregateBlocksHost(int n, int bs, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info);

/* ---------------- CUDA (src/kernels/gamgwarp.cu); 0 = success ---------------- */
/* The same on the device: ai, aj, aa, agg and b device arrays; the prolongator comes back to host memory (P, freed by
   PetscWarpAMGProlFree()); stream: a cudaStream_t */
int PetscWarpAMGAggregateCUDA(int n, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info, void *stream);
int PetscWarpAMGProlongatorCUDA(int n, const int *ai, const int *aj, const double *aa, const int *agg, int nagg, const double *b, double alpha, PetscWarpAMGProl *P, PetscWarpAMGInfo *info, void *stream);

int PetscWarpAMGNodeGraphCUDA(int n, int bs, const int *ai, const int *aj, const double *aa, int **ni, int **nj, double **nw, PetscWarpAMGInfo *info, void *stream);
int PetscWarpAMGTentativeCUDA(int N, int bs, int nv, const int *agg, int nagg, const double *B, PetscWarpAMGProl *P, void *stream);
int PetscWarpAMGAggregateBlocksCUDA(int n, int bs, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info, void *stream);

#if defined(__cplusplus)
}
#endif
