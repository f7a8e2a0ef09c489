/* Finite-element assembly on the device (Cecka, Lew, Darve, seeds/000): element batches (element matrices to global
   memory, direct atomic or colored accumulation, load vectors), reduction by non-zero through a packed reduction array,
   and the shared-memory assembly by non-zero. Twin: warpasm_host.c; element computation: warpasm_elem.h. */
#include <petscwarp/private/warpasmkernels.h>
#include "warpasm_elem.h"
#include <cuda_runtime.h>

#define PWA_BATCH_THREADS 256         /* threads of an element-batch block */
#define PWA_BATCH_BUDGET  (64 * 1024) /* shared memory of an element-batch block, unless one cell needs more */
#define PWA_DEFAULT_SMEM  (48 * 1024) /* above this a kernel needs the opt-in attribute */

enum {
  PWA_ELEM,   /* element matrices to E, one cell after another */
  PWA_ATOMIC, /* val[slot] += entry with atomicAdd */
  PWA_PLAIN,  /* val[slot] += entry (one color) */
  PWA_LOAD    /* F[rowslot] += load entry with atomicAdd */
};

/* Physics by value (no pointer to a kernel parameter is taken) */
struct PwaPhys {
  int           kind, coef;
  double        kappa, lambda, mu, shift, f[PETSCWARP_MAXDIM];
  const double *kcell;
};

static PwaPhys PwaPhysOf(const PetscWarpPhys *ph)
{
  PwaPhys p;
  p.kind   = ph->kind;
  p.coef   = ph->coef;
  p.kappa  = ph->kappa;
  p.lambda = ph->lambda;
  p.mu     = ph->mu;
  p.shift  = ph->shift;
  for (int c = 0; c < PETSCWARP_MAXDIM; c++) p.f[c] = ph->f[c];
  p.kcell = ph->kcell;
  return p;
}

/* Stage 1 for cells [0, m) of a batch: threads over (cell, q) compute the geometry from the coordinates Xs[lc*ncv*DIM]
   and stage wdj[lc*nq + q] and (G non-NULL) G[(lc*nq + q)*nb*DIM ...] */
template <int DIM>
static __device__ __forceinline__ void StageBatch(const PetscWarpFE &fe, int m, const double *Xs, double *wdj, double *G)
{
  const int ncv = fe.ncv, nb = fe.nb, nq = fe.nq;
  for (int t = threadIdx.x; t < m * nq; t += blockDim.x) {
    int lc = t / nq, q = t - lc * nq;
    PwaStageQ(DIM, ncv, nb, Xs + lc * ncv * DIM, fe.Dc + q * ncv * DIM, __ldg(&fe.w[q]), fe.D + q * nb * DIM, &wdj[t], G ? G + (size_t)t * nb * DIM : NULL);
  }
}

/* Entry ij of the element matrix of cell (its staged data wdj, G) */
template <int DIM>
static __device__ __forceinline__ double CellEntry(const PetscWarpFE &fe, const PwaPhys &ph, int cell, const double *wdj, const double *G, int i, int j)
{
  double K[DIM * DIM];
  int    tensor = ph.kind == PETSCWARP_PHYS_LAPLACE ? PwaCellCoef(ph.coef, ph.kappa, ph.kcell, DIM, cell, K) : 0;
  return PwaEntry(ph.kind, DIM, fe.nb, fe.nc, fe.nq, fe.B, wdj, G, tensor, K, ph.lambda, ph.mu, ph.shift, i, j);
}

/* Element batch: block blockIdx.x takes cells [first, first + ne) of the list. Stage 0: threads over (cell, vertex,
   coordinate) gather the coordinates into shared memory; stage 1: threads over (cell, q) stage the geometry; stage 2:
   threads over (cell, i, j) (load: (cell, i)) compute the entries and write or accumulate them. Shared memory:
   ne * (ncv*DIM + PwaStageDoubles) doubles. */
template <int DIM, int MODE>
__global__ void __launch_bounds__(PWA_BATCH_THREADS) PwaBatch(PetscWarpFE fe, PetscWarpMesh mesh, PwaPhys ph, int n, int ne, const int *__restrict__ cells, const int *__restrict__ slot, double *__restrict__ out)
{
  extern __shared__ double smem[];
  const int ncv = fe.ncv, nc = fe.nc, nq = fe.nq, nel = fe.nb * nc, nx = ncv * DIM;
  const int first = blockIdx.x * ne, m = min(ne, n - first);
  double   *Xs = smem, *wdj = Xs + ne * nx, *G = wdj + ne * nq;

  for (int t = threadIdx.x; t < m * nx; t += blockDim.x) {
    int lc = t / nx, r = t - lc * nx, k = r / DIM, d = r - k * DIM, cell = cells ? __ldg(&cells[first + lc]) : first + lc;
    Xs[t] = __ldg(&mesh.X[(size_t)__ldg(&mesh.cv[(size_t)cell * ncv + k]) * DIM + d]);
  }
  __syncthreads();
  StageBatch<DIM>(fe, m, Xs, wdj, MODE == PWA_LOAD ? NULL : G);
  __syncthreads();
  if (MODE == PWA_LOAD) {
    for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
      int lc = t / nel, i = t - lc * nel, c = i % nc, cell = first + lc, s = __ldg(&slot[(size_t)cell * nel + i]);
      if (s >= 0) atomicAdd(&out[s], PwaLoadEntry(fe.nb, nq, fe.B, wdj + lc * nq, c == 0 ? ph.f[0] : c == 1 ? ph.f[1] : ph.f[2], i / nc));
    }
  } else {
    const int per = nel * nel;
    for (int t = threadIdx.x; t < m * per; t += blockDim.x) {
      int    lc = t / per, ij = t - lc * per, i = ij / nel, j = ij - i * nel, cell = cells ? __ldg(&cells[first + lc]) : first + lc;
      double v = CellEntry<DIM>(fe, ph, cell, wdj + lc * nq, G + (size_t)lc * nq * fe.nb * DIM, i, j);
      if (MODE == PWA_ELEM) out[(size_t)first * per + t] = v; /* coalesced */
      else {
        int s = __ldg(&slot[(size_t)cell * per + ij]);
        if (s >= 0) {
          if (MODE == PWA_ATOMIC) atomicAdd(&out[s], v);
          else out[s] += v;
        }
      }
    }
  }
}

/* Thread threadIdx.x walks its column of a packed reduction array (nsteps entries, stride blockDim.x), reading sources
   from S (global memory through the read-only path, or shared memory). Unrolled by 4: the entries and their sources
   are loaded before the (sequential) accumulation, in the host twin's order. */
template <bool GLOBAL>
static __device__ __forceinline__ void ReduceWalk(const int *__restrict__ ent, int nsteps, const double *S, double *T)
{
  const int bs = blockDim.x, t = threadIdx.x;
  double    acc = 0.0;
  int       r   = 0;
  for (; r + 4 <= nsteps; r += 4) {
    int    e[4];
    double s[4];
#pragma unroll
    for (int u = 0; u < 4; u++) e[u] = __ldg(&ent[(r + u) * bs + t]);
#pragma unroll
    for (int u = 0; u < 4; u++) s[u] = e[u] > 0 ? (GLOBAL ? __ldg(&S[e[u] - 1]) : S[e[u] - 1]) : 0.0;
#pragma unroll
    for (int u = 0; u < 4; u++) {
      if (e[u] > 0) acc += s[u];
      else if (e[u] < 0) {
        T[-e[u] - 1] = acc;
        acc          = 0.0;
      }
    }
  }
  for (; r < nsteps; r++) {
    int e = __ldg(&ent[r * bs + t]);
    if (e > 0) acc += GLOBAL ? __ldg(&S[e - 1]) : S[e - 1];
    else if (e < 0) {
      T[-e - 1] = acc;
      acc       = 0.0;
    }
  }
}

/* Global reduction: one block of red.bs threads per packed block */
__global__ void __launch_bounds__(1024) PwaReduce(const int *__restrict__ off, const int *__restrict__ ent, const double *__restrict__ S, double *__restrict__ T)
{
  int b = blockIdx.x, o = __ldg(&off[b]);
  ReduceWalk<true>(ent + o, (__ldg(&off[b + 1]) - o) / blockDim.x, S, T);
}

/* Shared-memory assembly by non-zero: one block per part b. Shared memory: the element matrices of the block's cells
   (maxcells*nel*nel doubles; reduction sources), their coordinate slots (maxcells*ncv*DIM), and the staged geometry
   of one sub-batch of ns cells (ns * nq * (1 + nb*DIM)). 1) scatter the vertex coordinates into the slots; 2) per
   sub-batch of ns cells stage the geometry, then compute the entries into shared memory; 3) walk the reduction array,
   writing each non-zero of the part once. */
template <int DIM>
__global__ void __launch_bounds__(1024) PwaSharedNZ(PetscWarpFE fe, PetscWarpMesh mesh, PwaPhys ph, int maxcells, int ns, const int *__restrict__ coff, const int *__restrict__ cells, const int *__restrict__ soff, const int *__restrict__ sent, const int *__restrict__ roff, const int *__restrict__ rent, double *__restrict__ T)
{
  extern __shared__ double smem[];
  const int b = blockIdx.x, bs = blockDim.x, nq = fe.nq, nb = fe.nb, nel = nb * fe.nc, per = nel * nel, nx = fe.ncv * DIM;
  const int c0 = __ldg(&coff[b]), m = __ldg(&coff[b + 1]) - c0;
  double   *Es = smem, *Xs = Es + (size_t)maxcells * per, *wdj = Xs + maxcells * nx, *G = wdj + ns * nq;

  {
    const int *ent = sent + __ldg(&soff[b]);
    int        nsteps = (__ldg(&soff[b + 1]) - __ldg(&soff[b])) / bs;
    double     v[DIM];
#pragma unroll
    for (int d = 0; d < DIM; d++) v[d] = 0.0;
    for (int r = 0; r < nsteps; r++) {
      int e = __ldg(&ent[r * bs + threadIdx.x]);
      if (e > 0) {
#pragma unroll
        for (int d = 0; d < DIM; d++) v[d] = __ldg(&mesh.X[(size_t)(e - 1) * DIM + d]);
      } else if (e < 0) {
#pragma unroll
        for (int d = 0; d < DIM; d++) Xs[(-e - 1) * DIM + d] = v[d];
      }
    }
  }
  __syncthreads();
  for (int s0 = 0; s0 < m; s0 += ns) {
    int ms = min(ns, m - s0);
    StageBatch<DIM>(fe, ms, Xs + s0 * nx, wdj, G);
    __syncthreads();
    for (int t = threadIdx.x; t < ms * per; t += bs) {
      int lc = t / per, ij = t - lc * per, i = ij / nel;
      Es[(size_t)s0 * per + t] = CellEntry<DIM>(fe, ph, __ldg(&cells[c0 + s0 + lc]), wdj + lc * nq, G + (size_t)lc * nq * nb * DIM, i, ij - i * nel);
    }
    __syncthreads();
  }
  {
    int o = __ldg(&roff[b]);
    ReduceWalk<false>(rent + o, (__ldg(&roff[b + 1]) - o) / bs, Es, T);
  }
}

/* Raise a kernel's dynamic shared memory limit when it needs more than the default */
static cudaError_t AllowShared(const void *kernel, size_t bytes)
{
  if (bytes <= PWA_DEFAULT_SMEM) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

template <int DIM, int MODE>
static int LaunchBatch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st)
{
  const int    nel   = fe->nb * fe->nc, work = MODE == PWA_LOAD ? nel : nel * nel;
  const size_t cellb = sizeof(double) * ((size_t)fe->ncv * DIM + PwaStageDoubles(DIM, fe->nb, fe->nq, MODE != PWA_LOAD));
  int          ne    = (PWA_TARGET_ENTRIES + work - 1) / work, fit = (int)(PWA_BATCH_BUDGET / cellb);
  cudaError_t  e;
  if (ne > fit) ne = fit;
  if (ne > n) ne = n;
  if (ne < 1) ne = 1;
  if ((e = AllowShared((const void *)PwaBatch<DIM, MODE>, ne * cellb)) != cudaSuccess) return (int)e;
  PwaBatch<DIM, MODE><<<(n + ne - 1) / ne, PWA_BATCH_THREADS, ne * cellb, st>>>(*fe, *mesh, PwaPhysOf(ph), n, ne, cells, slot, out);
  return (int)cudaGetLastError();
}

template <int MODE>
static int Batch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, void *stream)
{
  if (PwaCheckCall(fe, ph) || n < 0) return (int)cudaErrorInvalidValue;
  if (n == 0) return 0;
  if (fe->dim == 2) return LaunchBatch<2, MODE>(fe, mesh, ph, n, cells, slot, out, (cudaStream_t)stream);
  return LaunchBatch<3, MODE>(fe, mesh, ph, n, cells, slot, out, (cudaStream_t)stream);
}

extern "C" int PetscWarpAsmElemCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, double *E, void *stream)
{
  return Batch<PWA_ELEM>(fe, mesh, ph, n, cells, NULL, E, stream);
}

extern "C" int PetscWarpAsmDirectCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, int atomic, double *val, void *stream)
{
  if (atomic) return Batch<PWA_ATOMIC>(fe, mesh, ph, n, cells, slot, val, stream);
  return Batch<PWA_PLAIN>(fe, mesh, ph, n, cells, slot, val, stream);
}

extern "C" int PetscWarpAsmLoadCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const int *rowslot, double *F, void *stream)
{
  return Batch<PWA_LOAD>(fe, mesh, ph, mesh ? mesh->ncells : 0, NULL, rowslot, F, stream);
}

extern "C" int PetscWarpReduceCUDA(const PetscWarpRed *red, const double *S, double *T, void *stream)
{
  if (red->bs < 1 || red->bs > 1024 || red->nblocks < 0) return (int)cudaErrorInvalidValue;
  if (!red->nblocks) return 0;
  PwaReduce<<<red->nblocks, red->bs, 0, (cudaStream_t)stream>>>(red->off, red->ent, S, T);
  return (int)cudaGetLastError();
}

template <int DIM>
static int LaunchSharedNZ(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T, cudaStream_t st)
{
  const size_t bytes = (size_t)sh->maxcells * PetscWarpSharedNZCellBytes(fe) + PetscWarpSharedNZFixedBytes(fe);
  const int    ns    = PwaSharedSubBatch(DIM, fe->nb, fe->nc, fe->nq);
  cudaError_t  e;
  if ((e = AllowShared((const void *)PwaSharedNZ<DIM>, bytes)) != cudaSuccess) return (int)e;
  PwaSharedNZ<DIM><<<sh->nblocks, sh->bs, bytes, st>>>(*fe, *mesh, PwaPhysOf(ph), sh->maxcells, ns, sh->coff, sh->cells, sh->scatter.off, sh->scatter.ent, sh->red.off, sh->red.ent, T);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpAsmSharedNZCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T, void *stream)
{
  if (PwaCheckCall(fe, ph)) return (int)cudaErrorInvalidValue;
  if (sh->maxcells < 1 || sh->bs < 1 || sh->bs > 1024 || sh->scatter.bs != sh->bs || sh->red.bs != sh->bs || sh->scatter.nblocks != sh->nblocks || sh->red.nblocks != sh->nblocks || sh->nblocks < 0) return (int)cudaErrorInvalidValue;
  if (!sh->nblocks) return 0;
  if (fe->dim == 2) return LaunchSharedNZ<2>(fe, mesh, ph, sh, T, (cudaStream_t)stream);
  return LaunchSharedNZ<3>(fe, mesh, ph, sh, T, (cudaStream_t)stream);
}

extern "C" int PetscWarpAsmMaxSharedCUDA(size_t *bytes)
{
  int         dev, v = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  *bytes = e == cudaSuccess ? (size_t)v : 0;
  return (int)e;
}
