/* PCGAMG type "warp" on the device: the strength graph, the distance-2 roots, the aggregates and the smoothed
   prolongator of a scalar operator; for block operators the node graph and the tentative prolongator (QR per
   aggregate). Twin: gamgwarp_host.c (same roots and aggregates; the prolongator's sums agree to rounding; built
   without FMA contraction on both sides). The algorithm: include/petscwarp/private/gamgwarpkernels.h. */
#include <petscwarp/private/gamgwarpkernels.h>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <cstdlib>
#include <cstring>
#include <new>

#define AMG_THREADS 256

namespace
{
int Blocks(long long n)
{
  long long g = (n + AMG_THREADS - 1) / AMG_THREADS;
  return (int)(g < 1 ? 1 : g);
}

/* d[i] = a_ii; *bad = the lowest row with a column out of range (atomicMin) */
__global__ void Diagonal(int n, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ aa, double *__restrict__ d, int *__restrict__ bad)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && PetscWarpAMGRowDiagonal(i, n, ai, aj, aa, &d[i])) atomicMin(bad, i);
}

/* The strength mask; counts of strong connections and of rows without one; every node undecided */
__global__ void Strength(int n, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ aa, const double *__restrict__ d, double theta, unsigned char *__restrict__ sg, unsigned char *__restrict__ st, unsigned long long *__restrict__ nstrong, int *__restrict__ nisolated)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int ns = PetscWarpAMGRowStrength(i, ai, aj, aa, d, theta, sg);
  st[i]  = PETSCWARP_AMG_UNDECIDED;
  if (ns) atomicAdd(nstrong, (unsigned long long)ns);
  else atomicAdd(nisolated, 1);
}

/* m1[i]: the largest key of i and its strong neighbours (m = NULL); m2[i]: the largest m1 of them (within distance 2) */
__global__ void Propagate(int n, const int *__restrict__ ai, const int *__restrict__ aj, const unsigned char *__restrict__ sg, const unsigned char *__restrict__ st, const unsigned long long *__restrict__ m, unsigned long long *__restrict__ out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = PetscWarpAMGRowMax(i, ai, aj, sg, st, m);
}

__global__ void Decide(int n, const unsigned long long *__restrict__ m2, unsigned char *__restrict__ st, int *__restrict__ und)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x, left = 0;
  if (i < n && st[i] == PETSCWARP_AMG_UNDECIDED) {
    st[i] = (unsigned char)PetscWarpAMGDecide(i, m2[i]);
    left  = st[i] == PETSCWARP_AMG_UNDECIDED;
  }
  left = __syncthreads_count(left);
  if (threadIdx.x == 0 && left) atomicAdd(und, left);
}

__global__ void Pass1(int n, const int *__restrict__ ai, const int *__restrict__ aj, const unsigned char *__restrict__ sg, const unsigned char *__restrict__ st, int *__restrict__ r1)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r1[i] = PetscWarpAMGRowPass1(i, ai, aj, sg, st);
}

/* Second pass; a node left is an aggregate of its own. flag[i] = 1 for the node that names its aggregate */
__global__ void Pass2(int n, const int *__restrict__ ai, const int *__restrict__ aj, const unsigned char *__restrict__ sg, const int *__restrict__ r1, int *__restrict__ r2, int *__restrict__ flag, int *__restrict__ nleft)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = PetscWarpAMGRowPass2(i, ai, aj, sg, r1);
  if (r < 0) {
    r = i;
    atomicAdd(nleft, 1);
  }
  r2[i]   = r;
  flag[i] = r == i;
}

__global__ void Number(int n, const int *__restrict__ r2, const int *__restrict__ num, int *__restrict__ agg)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) agg[i] = num[r2[i]];
}

__global__ void Norms(int n, const int *__restrict__ agg, const double *__restrict__ b, double *__restrict__ bc, int *__restrict__ size)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double bi = b ? b[i] : 1.0;
  atomicAdd(&bc[agg[i]], bi * bi);
  atomicAdd(&size[agg[i]], 1);
}

__global__ void Sqrt(int m, double *__restrict__ bc)
{
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a < m) bc[a] = sqrt(bc[a]);
}

/* The entries of P before the reduction: row i's at [ai[i] + i, ai[i + 1] + i] (its products, then its P0 entry), or
   at i alone (alpha = 0); *bad = the lowest row with a zero diagonal */
__global__ void Entries(int n, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ aa, const int *__restrict__ agg, const double *__restrict__ b, const double *__restrict__ bc, const int *__restrict__ size, const double *__restrict__ d, double alpha, unsigned long long *__restrict__ key, double *__restrict__ val, int *__restrict__ bad)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double    p0 = PetscWarpAMGP0(b ? b[i] : 1.0, bc[agg[i]], size[agg[i]]);
  long long o  = i;
  if (alpha != 0) {
    if (d[i] == 0) {
      atomicMin(bad, i);
      return;
    }
    double s = -alpha / d[i];
    o        = (long long)ai[i] + i;
    for (int k = ai[i]; k < ai[i + 1]; k++, o++) {
      int    j  = aj[k];
      double pj = PetscWarpAMGP0(b ? b[j] : 1.0, bc[agg[j]], size[agg[j]]);
      key[o]    = ((unsigned long long)i << 32) | (unsigned)agg[j];
      val[o]    = s * aa[k] * pj;
    }
  }
  key[o] = ((unsigned long long)i << 32) | (unsigned)agg[i];
  val[o] = p0;
}

__global__ void RowCounts(long long nnz, const unsigned long long *__restrict__ key, int *__restrict__ cnt, int *__restrict__ col)
{
  long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (q >= nnz) return;
  atomicAdd(&cnt[key[q] >> 32], 1);
  col[q] = (int)(key[q] & 0xffffffffULL);
}

/* Block operators: each node's count of block columns (cnt[nd + 1]), then its columns and block norms */
__global__ void NodeCount(int N, int bs, int n, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ aa, int *__restrict__ cnt, int *__restrict__ bad)
{
  int nd = blockIdx.x * blockDim.x + threadIdx.x;
  if (nd >= N) return;
  int c = PetscWarpAMGNodeRow(nd, bs, n, ai, aj, aa, NULL, NULL);
  if (c < 0) atomicMin(bad, nd * bs);
  cnt[nd + 1] = c < 0 ? 0 : c;
}

__global__ void NodeFill(int N, int bs, int n, const int *__restrict__ ai, const int *__restrict__ aj, const double *__restrict__ aa, const int *__restrict__ ni, int *__restrict__ nj, double *__restrict__ nw)
{
  int nd = blockIdx.x * blockDim.x + threadIdx.x;
  if (nd < N) (void)PetscWarpAMGNodeRow(nd, bs, n, ai, aj, aa, nj + ni[nd], nw + ni[nd]);
}

/* The members of the aggregates: keys (aggregate, node), sorted; the aggregate sizes */
__global__ void MemberKeys(int N, const int *__restrict__ agg, unsigned long long *__restrict__ key, int *__restrict__ size)
{
  int nd = blockIdx.x * blockDim.x + threadIdx.x;
  if (nd >= N) return;
  key[nd] = ((unsigned long long)(unsigned)agg[nd] << 32) | (unsigned)nd;
  atomicAdd(&size[agg[nd] + 1], 1);
}

/* One thread per aggregate: its block of B, the QR, its rows of P (nv entries each) and its R in bc */
__global__ void Tentative(int nagg, int bs, int nv, int n, const int *__restrict__ off, const unsigned long long *__restrict__ mem, const double *__restrict__ B, double *__restrict__ scratch, int *__restrict__ pj, double *__restrict__ pv, double *__restrict__ bc)
{
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= nagg) return;
  int     sz = off[a + 1] - off[a], M = sz * bs, ld = M + nv;
  double *A = scratch + (long long)(2 * nv + 1) * bs * off[a] + (long long)a * (2 * nv * nv + 2 * nv), *work = A + (long long)ld * nv, *tau = work + ld, *R = tau + nv, *Q = R + nv * nv;
  for (int c = 0; c < nv; c++)
    for (int m = 0; m < ld; m++) A[c * ld + m] = m < M ? B[(long long)c * n + (long long)(mem[off[a] + m / bs] & 0xffffffffULL) * bs + m % bs] : 0.0;
  PetscWarpAMGBlockQR(M, nv, A, tau, work, Q, R);
  for (int m = 0; m < M; m++) {
    long long row = (long long)(mem[off[a] + m / bs] & 0xffffffffULL) * bs + m % bs;
    for (int c = 0; c < nv; c++) pj[row * nv + c] = a * nv + c, pv[row * nv + c] = Q[m * nv + c];
  }
  for (int c = 0; c < nv; c++)
    for (int r = 0; r < nv; r++) bc[(long long)c * nagg * nv + a * nv + r] = R[c * nv + r];
}

/* thrust reports failures by exceptions, which must not leave these C functions */
#define AMG_THRUST(stmt) \
  do { \
    try { \
      stmt; \
    } catch (const std::bad_alloc &) { \
      err = PETSCWARP_AMG_ERR_MEM; \
      goto done; \
    } catch (...) { \
      err = (int)cudaErrorUnknown; \
      goto done; \
    } \
  } while (0)

template <typename T>
int Alloc(T **p, long long n)
{
  return (int)cudaMalloc((void **)p, sizeof(T) * (size_t)(n > 0 ? n : 1));
}

/* The first error among the CUDA calls so far (the call's own, else the launches') */
int Check(cudaError_t e)
{
  if (e != cudaSuccess) return (int)e;
  return (int)cudaGetLastError();
}
} // namespace

extern "C" int PetscWarpAMGAggregateCUDA(int n, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info, void *stream)
{
  cudaStream_t        st  = (cudaStream_t)stream;
  long long           nnz = 0;
  double             *d   = NULL;
  unsigned char      *sg = NULL, *state = NULL;
  unsigned long long *m1 = NULL, *m2 = NULL, *cnt = NULL; /* cnt: nstrong, then (int) nisolated, und, nleft, bad */
  int                *r1 = NULL, *r2 = NULL, *flag = NULL, *num = NULL;
  int                 err = 0, und = n, host[4];
  unsigned long long  hstrong;

  memset(info, 0, sizeof(*info));
  info->bad = -1;
  if (n <= 0) return 0;
  {
    int t;
    if ((err = (int)cudaMemcpyAsync(&t, ai + n, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaStreamSynchronize(st))) return err;
    nnz = t;
  }
  if ((err = Alloc(&d, n)) || (err = Alloc(&sg, nnz)) || (err = Alloc(&state, n)) || (err = Alloc(&m1, n)) || (err = Alloc(&m2, n)) || (err = Alloc(&cnt, 3)) || (err = Alloc(&r1, n)) || (err = Alloc(&r2, n)) || (err = Alloc(&flag, n)) || (err = Alloc(&num, n))) {
    err = err == (int)cudaErrorMemoryAllocation ? PETSCWARP_AMG_ERR_MEM : err;
    goto done;
  }
  {
    int *ic      = (int *)(cnt + 1); /* nisolated, und, nleft, bad */
    int  init[4] = {0, 0, 0, n};
    if ((err = (int)cudaMemsetAsync(cnt, 0, sizeof(unsigned long long), st)) || (err = (int)cudaMemcpyAsync(ic, init, sizeof(init), cudaMemcpyHostToDevice, st))) goto done;
    Diagonal<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, aa, d, ic + 3);
    if ((err = (int)cudaMemcpyAsync(host, ic, sizeof(host), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
    if (host[3] < n) {
      info->bad = host[3];
      err       = PETSCWARP_AMG_ERR_INDEX;
      goto done;
    }
    Strength<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, aa, d, theta, sg, state, cnt, ic);
    while (und > 0) {
      if (info->rounds > n) {
        err = PETSCWARP_AMG_ERR_ROUND;
        goto done;
      }
      if ((err = (int)cudaMemsetAsync(ic + 1, 0, sizeof(int), st))) goto done;
      Propagate<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, sg, state, NULL, m1);
      Propagate<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, sg, state, m1, m2);
      Decide<<<Blocks(n), AMG_THREADS, 0, st>>>(n, m2, state, ic + 1);
      if ((err = (int)cudaMemcpyAsync(&und, ic + 1, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
      info->rounds++;
    }
    Pass1<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, sg, state, r1);
    Pass2<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, sg, r1, r2, flag, ic + 2);
    AMG_THRUST(thrust::exclusive_scan(thrust::cuda::par.on(st), thrust::device_pointer_cast(flag), thrust::device_pointer_cast(flag + n), thrust::device_pointer_cast(num)));
    Number<<<Blocks(n), AMG_THREADS, 0, st>>>(n, r2, num, agg);
    {
      int last[2];
      if ((err = (int)cudaMemcpyAsync(&last[0], num + n - 1, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(&last[1], flag + n - 1, sizeof(int), cudaMemcpyDeviceToHost, st))) goto done;
      if ((err = (int)cudaMemcpyAsync(host, ic, sizeof(host), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(&hstrong, cnt, sizeof(hstrong), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
      info->nagg      = last[0] + last[1];
      info->nisolated = host[0];
      info->nleft     = host[2];
      info->nstrong   = (long long)hstrong;
    }
  }
done:
  cudaFree(d);
  cudaFree(sg);
  cudaFree(state);
  cudaFree(m1);
  cudaFree(m2);
  cudaFree(cnt);
  cudaFree(r1);
  cudaFree(r2);
  cudaFree(flag);
  cudaFree(num);
  return err;
}

extern "C" int PetscWarpAMGProlongatorCUDA(int n, const int *ai, const int *aj, const double *aa, const int *agg, int nagg, const double *b, double alpha, PetscWarpAMGProl *P, PetscWarpAMGInfo *info, void *stream)
{
  cudaStream_t        st  = (cudaStream_t)stream;
  long long           nnz = 0, ne, np = 0;
  double             *d = NULL, *bc = NULL, *val = NULL, *uval = NULL;
  unsigned long long *key = NULL, *ukey = NULL;
  int                *cnt = NULL, *col = NULL, *bad = NULL, *size = NULL, err = 0, hbad[2] = {n, n};

  memset(P, 0, sizeof(*P));
  info->bad = -1;
  P->m      = n;
  P->n      = nagg;
  if (n > 0) {
    int t;
    if ((err = (int)cudaMemcpyAsync(&t, ai + n, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaStreamSynchronize(st))) return err;
    nnz = t;
  }
  ne = alpha != 0 ? nnz + n : n;
  if ((err = Alloc(&d, n)) || (err = Alloc(&bc, nagg)) || (err = Alloc(&val, ne)) || (err = Alloc(&uval, ne)) || (err = Alloc(&key, ne)) || (err = Alloc(&ukey, ne)) || (err = Alloc(&cnt, n + 1)) || (err = Alloc(&col, ne)) || (err = Alloc(&bad, 2)) || (err = Alloc(&size, nagg))) {
    err = err == (int)cudaErrorMemoryAllocation ? PETSCWARP_AMG_ERR_MEM : err;
    goto done;
  }
  P->i  = (int *)malloc(sizeof(int) * (n + 1));
  P->bc = (double *)malloc(sizeof(double) * (nagg > 0 ? nagg : 1));
  if (!P->i || !P->bc) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  if ((err = (int)cudaMemcpyAsync(bad, hbad, sizeof(hbad), cudaMemcpyHostToDevice, st)) || (err = (int)cudaMemsetAsync(bc, 0, sizeof(double) * (nagg > 0 ? nagg : 1), st)) || (err = (int)cudaMemsetAsync(size, 0, sizeof(int) * (nagg > 0 ? nagg : 1), st)) || (err = (int)cudaMemsetAsync(cnt, 0, sizeof(int) * (n + 1), st)))
    goto done;
  if (n > 0) {
    Diagonal<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, aa, d, bad); /* columns checked before any kernel indexes by them */
    if ((err = (int)cudaMemcpyAsync(hbad, bad, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
    if (hbad[0] < n) {
      info->bad = hbad[0];
      err       = PETSCWARP_AMG_ERR_INDEX;
      goto done;
    }
    Norms<<<Blocks(n), AMG_THREADS, 0, st>>>(n, agg, b, bc, size);
    Sqrt<<<Blocks(nagg), AMG_THREADS, 0, st>>>(nagg, bc);
    Entries<<<Blocks(n), AMG_THREADS, 0, st>>>(n, ai, aj, aa, agg, b, bc, size, d, alpha, key, val, bad + 1);
    if ((err = (int)cudaMemcpyAsync(hbad + 1, bad + 1, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
    if (hbad[1] < n) {
      info->bad = hbad[1];
      err       = PETSCWARP_AMG_ERR_DIAG;
      goto done;
    }
    if (alpha != 0) { /* sort by (row, column), stable, then sum equal keys */
      AMG_THRUST(thrust::sort_by_key(thrust::cuda::par.on(st), thrust::device_pointer_cast(key), thrust::device_pointer_cast(key + ne), thrust::device_pointer_cast(val)));
      AMG_THRUST(np = thrust::reduce_by_key(thrust::cuda::par.on(st), thrust::device_pointer_cast(key), thrust::device_pointer_cast(key + ne), thrust::device_pointer_cast(val), thrust::device_pointer_cast(ukey), thrust::device_pointer_cast(uval)).first - thrust::device_pointer_cast(ukey));
    } else { /* P0: one entry per row, already in order */
      np = n;
      if ((err = (int)cudaMemcpyAsync(ukey, key, sizeof(unsigned long long) * n, cudaMemcpyDeviceToDevice, st)) || (err = (int)cudaMemcpyAsync(uval, val, sizeof(double) * n, cudaMemcpyDeviceToDevice, st))) goto done;
    }
    RowCounts<<<Blocks(np), AMG_THREADS, 0, st>>>(np, ukey, cnt + 1, col);
    AMG_THRUST(thrust::inclusive_scan(thrust::cuda::par.on(st), thrust::device_pointer_cast(cnt + 1), thrust::device_pointer_cast(cnt + n + 1), thrust::device_pointer_cast(cnt + 1)));
    if ((err = Check(cudaStreamSynchronize(st)))) goto done;
  }
  P->nnz = np;
  P->j   = (int *)malloc(sizeof(int) * (np > 0 ? np : 1));
  P->v   = (double *)malloc(sizeof(double) * (np > 0 ? np : 1));
  if (!P->j || !P->v) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  if ((err = (int)cudaMemcpyAsync(P->i, cnt, sizeof(int) * (n + 1), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(P->j, col, sizeof(int) * np, cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(P->v, uval, sizeof(double) * np, cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(P->bc, bc, sizeof(double) * nagg, cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st))))
    goto done;
done:
  cudaFree(d);
  cudaFree(bc);
  cudaFree(val);
  cudaFree(uval);
  cudaFree(key);
  cudaFree(ukey);
  cudaFree(cnt);
  cudaFree(col);
  cudaFree(bad);
  cudaFree(size);
  if (err) PetscWarpAMGProlFree(P);
  return err;
}

extern "C" int PetscWarpAMGNodeGraphCUDA(int n, int bs, const int *ai, const int *aj, const double *aa, int **ni, int **nj, double **nw, PetscWarpAMGInfo *info, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  int          N = bs > 0 ? n / bs : 0, err = 0, *bad = NULL, hbad = n, nz = 0;

  memset(info, 0, sizeof(*info));
  info->bad = -1;
  *ni = *nj = NULL;
  *nw       = NULL;
  if (bs < 1 || bs > PETSCWARP_AMG_MAXBS || n % bs) return PETSCWARP_AMG_ERR_BS;
  if ((err = Alloc(ni, N + 1)) || (err = Alloc(&bad, 1))) {
    err = err == (int)cudaErrorMemoryAllocation ? PETSCWARP_AMG_ERR_MEM : err;
    goto done;
  }
  if ((err = (int)cudaMemsetAsync(*ni, 0, sizeof(int) * (N + 1), st)) || (err = (int)cudaMemcpyAsync(bad, &hbad, sizeof(int), cudaMemcpyHostToDevice, st))) goto done;
  if (N > 0) {
    NodeCount<<<Blocks(N), AMG_THREADS, 0, st>>>(N, bs, n, ai, aj, aa, *ni, bad);
    AMG_THRUST(thrust::inclusive_scan(thrust::cuda::par.on(st), thrust::device_pointer_cast(*ni + 1), thrust::device_pointer_cast(*ni + N + 1), thrust::device_pointer_cast(*ni + 1)));
    if ((err = (int)cudaMemcpyAsync(&hbad, bad, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(&nz, *ni + N, sizeof(int), cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st)))) goto done;
    if (hbad < n) {
      info->bad = hbad;
      err       = PETSCWARP_AMG_ERR_INDEX;
      goto done;
    }
  }
  if ((err = Alloc(nj, nz)) || (err = Alloc(nw, nz))) {
    err = err == (int)cudaErrorMemoryAllocation ? PETSCWARP_AMG_ERR_MEM : err;
    goto done;
  }
  if (N > 0) {
    NodeFill<<<Blocks(N), AMG_THREADS, 0, st>>>(N, bs, n, ai, aj, aa, *ni, *nj, *nw);
    err = Check(cudaStreamSynchronize(st));
  }
done:
  cudaFree(bad);
  if (err) {
    cudaFree(*ni);
    cudaFree(*nj);
    cudaFree(*nw);
    *ni = *nj = NULL;
    *nw       = NULL;
  }
  return err;
}

extern "C" int PetscWarpAMGTentativeCUDA(int N, int bs, int nv, const int *agg, int nagg, const double *B, PetscWarpAMGProl *P, void *stream)
{
  cudaStream_t        st = (cudaStream_t)stream;
  int                 n = N * bs, err = 0, *off = NULL, *pj = NULL;
  long long           nnz = (long long)n * nv, nscr = (long long)(2 * nv + 1) * n + (long long)nagg * (2 * nv * nv + 2 * nv);
  unsigned long long *key = NULL;
  double             *scr = NULL, *pv = NULL, *bc = NULL;

  memset(P, 0, sizeof(*P));
  P->m   = n;
  P->n   = nagg * nv;
  P->nnz = nnz;
  if ((err = Alloc(&off, nagg + 1)) || (err = Alloc(&key, N)) || (err = Alloc(&scr, nscr)) || (err = Alloc(&pj, nnz)) || (err = Alloc(&pv, nnz)) || (err = Alloc(&bc, (long long)nagg * nv * nv))) {
    err = err == (int)cudaErrorMemoryAllocation ? PETSCWARP_AMG_ERR_MEM : err;
    goto done;
  }
  P->i  = (int *)malloc(sizeof(int) * (n + 1));
  P->j  = (int *)malloc(sizeof(int) * (nnz > 0 ? nnz : 1));
  P->v  = (double *)malloc(sizeof(double) * (nnz > 0 ? nnz : 1));
  P->bc = (double *)malloc(sizeof(double) * ((long long)nagg * nv * nv + 1));
  if (!P->i || !P->j || !P->v || !P->bc) {
    err = PETSCWARP_AMG_ERR_MEM;
    goto done;
  }
  for (int i = 0; i <= n; i++) P->i[i] = i * nv;
  if ((err = (int)cudaMemsetAsync(off, 0, sizeof(int) * (nagg + 1), st))) goto done;
  if (N > 0) {
    MemberKeys<<<Blocks(N), AMG_THREADS, 0, st>>>(N, agg, key, off);
    AMG_THRUST(thrust::sort(thrust::cuda::par.on(st), thrust::device_pointer_cast(key), thrust::device_pointer_cast(key + N)));
    AMG_THRUST(thrust::inclusive_scan(thrust::cuda::par.on(st), thrust::device_pointer_cast(off + 1), thrust::device_pointer_cast(off + nagg + 1), thrust::device_pointer_cast(off + 1)));
    Tentative<<<(nagg + 63) / 64, 64, 0, st>>>(nagg, bs, nv, n, off, key, B, scr, pj, pv, bc);
    if ((err = (int)cudaMemcpyAsync(P->j, pj, sizeof(int) * nnz, cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(P->v, pv, sizeof(double) * nnz, cudaMemcpyDeviceToHost, st)) || (err = (int)cudaMemcpyAsync(P->bc, bc, sizeof(double) * nagg * nv * nv, cudaMemcpyDeviceToHost, st)) || (err = Check(cudaStreamSynchronize(st))))
      goto done;
  }
done:
  cudaFree(off);
  cudaFree(key);
  cudaFree(scr);
  cudaFree(pj);
  cudaFree(pv);
  cudaFree(bc);
  if (err) PetscWarpAMGProlFree(P);
  return err;
}

extern "C" int PetscWarpAMGAggregateBlocksCUDA(int n, int bs, const int *ai, const int *aj, const double *aa, double theta, int *agg, PetscWarpAMGInfo *info, void *stream)
{
  int    *ni, *nj, err;
  double *nw;

  if (bs == 1) return PetscWarpAMGAggregateCUDA(n, ai, aj, aa, theta, agg, info, stream);
  if ((err = PetscWarpAMGNodeGraphCUDA(n, bs, ai, aj, aa, &ni, &nj, &nw, info, stream))) return err;
  err = PetscWarpAMGAggregateCUDA(n / bs, ni, nj, nw, theta, agg, info, stream);
  cudaFree(ni);
  cudaFree(nj);
  cudaFree(nw);
  return err;
}
