/* Finite-element assembly on the device (Cecka, Lew, Darve, seeds/000): element batches (element matrices to global
   memory, direct atomic or colored accumulation, load vectors), reduction by non-zero through a packed reduction array,
   and the shared-memory assembly by non-zero. Twin: warpasm_host.c; element computation: warpasm_elem.h.

   Every kernel computes element matrices the same way, for a group of cells at once, in shared memory:
   stage 0: the block copies the reference tabulation (D, B, Dc, w) to shared memory when it fits PWA_REF_BUDGET
            (else it is read from global memory) and the cells' vertex coordinates arrive in shared memory;
   stage 1: threads over (cell, q) compute the geometry and stage the geometric factors (PwaStageQ);
   stage 2: threads over (cell, tile) accumulate their tile of the element matrix in registers (PwaTile) and store it
            into the group's element matrices Es in shared memory.
   The kernels differ in where the coordinates come from (gathered, or through the scatter array) and where Es goes
   (written out coalesced, added through the slots, or reduced by non-zero).
   Affine cells (fe->Kaff set: every cell of the call; no per-point coefficient): the element batches run the kernel of
   warpasm_affine.cu instead, and sharednz replaces stages 1-2 by the affine factors and entries (warpasm_cuda.cuh). */
#include "warpasm_cuda.cuh"

#define PWA_BATCH_THREADS 256         /* threads of an element-batch block */
#define PWA_BATCH_BUDGET  (64 * 1024) /* shared memory of an element-batch block, unless one cell needs more */
#define PWA_DEFAULT_SMEM  (48 * 1024) /* above this a kernel needs the opt-in attribute */
#define PWA_BATCH_MINB    3           /* blocks per SM the element-batch kernels are compiled for (<= 85 registers) */

/* The reference tabulation as the kernels read it: copies in shared memory at ref (refn > 0), or the global arrays */
struct PwaRef {
  const double *D, *B, *Dc, *w;
};

template <int DIM>
static __device__ __forceinline__ PwaRef StageRef(const PetscWarpFE &fe, double *ref, int refn)
{
  PwaRef    r  = {fe.D, fe.B, fe.Dc, fe.w};
  const int nD = fe.nq * fe.nb * DIM, nB = fe.nq * fe.nb, nDc = fe.nq * fe.ncv * DIM;
  if (!refn) return r;
  for (int t = threadIdx.x; t < refn; t += blockDim.x) ref[t] = t < nD ? __ldg(&fe.D[t]) : t < nD + nB ? __ldg(&fe.B[t - nD]) : t < nD + nB + nDc ? __ldg(&fe.Dc[t - nD - nB]) : __ldg(&fe.w[t - nD - nB - nDc]);
  r.D  = ref;
  r.B  = ref + nD;
  r.Dc = ref + nD + nB;
  r.w  = ref + nD + nB + nDc;
  return r;
}

/* Stage 1 for cells [0, m) of a group: threads over (cell, q) stage the geometric factors G[(lc*nq + q)*GS ...] from
   the coordinates Xs[lc*ncv*DIM ...] (KIND ELASTICITY: Jinv and wdj, also for load vectors); with GRADS, then threads
   over (cell, q, a) stage the physical gradients R[((lc*nq + q)*nb + a)*DIM ...] */
template <int DIM, int KIND, bool GRADS, typename CellOf>
static __device__ __forceinline__ void StageGroup(const PetscWarpFE &fe, const PwaRef &r, const PwaPhys &ph, int m, CellOf cell, const double *Xs, double *G, double *R)
{
  const int ncv = fe.ncv, nq = fe.nq, nb = fe.nb;
  for (int t = threadIdx.x; t < m * nq; t += blockDim.x) {
    int    lc = t / nq, q = t - lc * nq, tensor = 0;
    double K[DIM * DIM];
    K[0] = 0.0;
    if (KIND == PETSCWARP_PHYS_LAPLACE) tensor = PwaCellCoef(ph.coef, ph.kappa, ph.kcell, DIM, cell(lc), K);
    PwaStageQ(KIND, DIM, ncv, Xs + lc * ncv * DIM, r.Dc + q * ncv * DIM, r.w[q], tensor, K, G + t * PWA_GS(DIM));
    if (KIND == PETSCWARP_PHYS_LAPLACE) PwaMassCoef(ph.cq, DIM, nq, cell(lc), q, G + t * PWA_GS(DIM));
  }
  if (!GRADS) return;
  __syncthreads();
  for (int t = threadIdx.x; t < m * nq * nb; t += blockDim.x) {
    int lq = t / nb, qa = t - lq / nq * nq * nb; /* (lc*nq + q), q*nb + a */
    PetscWarpGradient(DIM, G + lq * PWA_GS(DIM), r.D + qa * DIM, R + t * DIM);
  }
}

/* Stage 2 for cells [0, m) of a group: threads over (cell, tile) compute the element matrices Es[lc*es ...] */
template <int DIM, int KIND>
static __device__ __forceinline__ void TileGroup(const PetscWarpFE &fe, const PwaRef &r, const PwaPhys &ph, int m, const double *G, const double *R, double *Es, int es)
{
  constexpr int NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int     nb = fe.nb, nq = fe.nq, ntile = PwaTiles(DIM, nb, NC);
  for (int t = threadIdx.x; t < m * ntile; t += blockDim.x) {
    int lc = t / ntile;
    PwaTile(KIND, DIM, nb, nq, r.D, r.B, G + lc * nq * PWA_GS(DIM), R + (size_t)lc * nq * nb * DIM, ph.lambda, ph.mu, ph.shift, t - lc * ntile, Es + (size_t)lc * es);
  }
}

/* Element batch: block blockIdx.x takes cells [first, first + ne) of the list: stages 0-2, then stage 3: threads over
   (cell, i, j) write E or add into val (coalesced). Load vectors: stage 1 stages wdj only and stage 3 runs over
   (cell, i). Shared memory (doubles): reference tabulation refn, staged data ne*PwaStageDoubles (geometric factors,
   then the gradients for elasticity), element matrices ne*es (es = nel^2 rounded up to odd, spreading the cells over
   the banks; none for loads), coordinates ne*ncv*DIM. */
template <int DIM, int KIND, int MODE>
__global__ void __launch_bounds__(PWA_BATCH_THREADS, PWA_BATCH_MINB) PwaBatch(PetscWarpFE fe, PetscWarpMesh mesh, PwaPhys ph, int n, int ne, int refn, const int *__restrict__ cells, const int *__restrict__ slot, double *__restrict__ out)
{
  extern __shared__ double smem[];
  constexpr int            NC  = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int                ncv = fe.ncv, nq = fe.nq, nel = fe.nb * NC, per = nel * nel, nx = ncv * DIM, es = MODE == PWA_LOAD ? 0 : per | 1;
  const int                first = blockIdx.x * ne, m = min(ne, n - first);
  constexpr bool           GRADS = KIND == PETSCWARP_PHYS_ELASTICITY && MODE != PWA_LOAD;
  double                  *G = smem + refn, *R = G + ne * nq * PWA_GS(DIM), *Es = R + (GRADS ? (size_t)ne * nq * fe.nb * DIM : 0), *Xs = Es + (size_t)ne * es;
  auto                     cell = [&](int lc) { return cells ? __ldg(&cells[first + lc]) : first + lc; };
  const PwaRef             r    = StageRef<DIM>(fe, smem, refn);

  for (int t = threadIdx.x; t < m * nx; t += blockDim.x) {
    int lc = t / nx, k = (t - lc * nx) / DIM;
    Xs[t] = __ldg(&mesh.X[(size_t)__ldg(&mesh.cv[(size_t)cell(lc) * ncv + k]) * DIM + t - lc * nx - k * DIM]);
  }
  __syncthreads();
  StageGroup<DIM, MODE == PWA_LOAD ? (int)PETSCWARP_PHYS_ELASTICITY : KIND, GRADS>(fe, r, ph, m, cell, Xs, G, R);
  __syncthreads();
  if (MODE == PWA_LOAD) {
    for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
      int lc = t / nel, i = t - lc * nel, c = i % NC, s = __ldg(&slot[(size_t)first * nel + t]);
      if (s >= 0) atomicAdd(&out[s], PwaLoadEntry(DIM, fe.nb, nq, r.B, G + lc * nq * PWA_GS(DIM), c == 0 ? ph.f[0] : c == 1 ? ph.f[1] : ph.f[2], i / NC));
    }
    return;
  }
  TileGroup<DIM, KIND>(fe, r, ph, m, G, R, Es, es);
  __syncthreads();
  for (int t = threadIdx.x; t < m * per; t += blockDim.x) {
    int    lc = t / per, ij = t - lc * per;
    double v = Es[(size_t)lc * es + ij];
    if (MODE == PWA_ELEM) out[(size_t)first * per + t] = v;
    else {
      int s = __ldg(&slot[(size_t)cell(lc) * per + ij]);
      if (s >= 0) {
        if (MODE == PWA_ATOMIC) atomicAdd(&out[s], v);
        else out[s] += v;
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

/* Shared-memory assembly by non-zero: one block per part b. Shared memory (doubles): the reference tabulation refn
   and the staged data of one sub-batch of ns cells (ns*PwaStageDoubles: PetscWarpSharedNZFixedBytes), then per cell of the
   block its element matrix (nel^2: the reduction's sources) and its coordinate slots (ncv*DIM:
   PetscWarpSharedNZCellBytes). 1) scatter the vertex coordinates into the slots; 2) per sub-batch of ns cells, stages
   1 and 2 into the element matrices; 3) walk the reduction array, writing each non-zero of the part once. */
template <int DIM, int KIND, int MAXT>
__global__ void __launch_bounds__(MAXT) PwaSharedNZ(PetscWarpFE fe, PetscWarpMesh mesh, PwaPhys ph, int maxcells, int ns, int refn, const int *__restrict__ coff, const int *__restrict__ cells, const int *__restrict__ soff, const int *__restrict__ sent, const int *__restrict__ roff, const int *__restrict__ rent, double *__restrict__ T)
{
  extern __shared__ double smem[];
  constexpr int            NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int                b = blockIdx.x, bs = blockDim.x, nq = fe.nq, nel = fe.nb * NC, per = nel * nel, nx = fe.ncv * DIM;
  const int                c0 = __ldg(&coff[b]), m = __ldg(&coff[b + 1]) - c0;
  double                  *G = smem + refn, *R = G + ns * nq * PWA_GS(DIM), *Es = G + ns * PwaStageDoubles(DIM, fe.nb, NC, nq), *Xs = Es + (size_t)maxcells * per;
  const bool               aff = MAXT <= 512 && fe.Kaff && !ph.cq;                                                         /* the 1024-thread kernel spills already: quadrature (the host passes no Kaff) */
  const int                kn  = aff && PwaAffineStaged(KIND, DIM, fe.nb) <= refn ? PwaAffineStaged(KIND, DIM, fe.nb) : 0; /* in the tabulation's place */
  const PwaRef             r   = StageRef<DIM>(fe, smem, aff ? 0 : refn);
  for (int t = threadIdx.x; t < kn; t += blockDim.x) smem[t] = __ldg(&fe.Kaff[t]);

  {
    const int *ent    = sent + __ldg(&soff[b]);
    int        nsteps = (__ldg(&soff[b + 1]) - __ldg(&soff[b])) / bs;
    double     v[DIM];
#pragma unroll
    for (int d = 0; d < DIM; d++) v[d] = 0.0;
    for (int k = 0; k < nsteps; k++) {
      int e = __ldg(&ent[k * bs + threadIdx.x]);
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
    int  ms   = min(ns, m - s0);
    auto cell = [&](int lc) { return __ldg(&cells[c0 + s0 + lc]); };
    if (aff) { /* the affine factors in G (PWA_AC <= nq*PWA_GS per cell), the entries straight into Es */
      double *E0 = Es + (size_t)s0 * per;
      AffineFactors<DIM, KIND>(fe, ph, ms, cell, Xs + s0 * nx, G);
      __syncthreads();
      AffineEntries<DIM, KIND>(fe, kn ? smem : fe.Kaff, ph, ms, G, [&](int lc, int ij, double v) { E0[(size_t)lc * per + ij] = v; });
    } else {
      StageGroup<DIM, KIND, KIND == PETSCWARP_PHYS_ELASTICITY>(fe, r, ph, ms, cell, Xs + s0 * nx, G, R);
      __syncthreads();
      TileGroup<DIM, KIND>(fe, r, ph, ms, G, R, Es + (size_t)s0 * per, per);
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

/* Cells per batch: enough tiles (entries for loads) for the block, within the shared memory budget, at least one */
template <int DIM, int KIND, int MODE>
static int LaunchBatch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st)
{
  const int    nc = fe->nc, nel = fe->nb * nc, work = MODE == PWA_LOAD ? nel : PwaTiles(DIM, fe->nb, nc), refn = PwaRefDoubles(DIM, fe->nb, fe->nq, fe->ncv);
  const size_t cellb = sizeof(double) * ((MODE == PWA_LOAD ? (size_t)fe->nq * PWA_GS(DIM) : (size_t)PwaStageDoubles(DIM, fe->nb, nc, fe->nq) + (nel * nel | 1)) + fe->ncv * DIM), refb = sizeof(double) * refn;
  int          ne = (PWA_TARGET_TILES + work - 1) / work, fit = (int)((PWA_BATCH_BUDGET - refb) / cellb);
  cudaError_t  e;
  if (ne > fit) ne = fit;
  if (ne > n) ne = n;
  if (ne < 1) ne = 1;
  if ((e = AllowShared((const void *)PwaBatch<DIM, KIND, MODE>, refb + ne * cellb)) != cudaSuccess) return (int)e;
  PwaBatch<DIM, KIND, MODE><<<(n + ne - 1) / ne, PWA_BATCH_THREADS, refb + ne * cellb, st>>>(*fe, *mesh, PwaPhysOf(ph), n, ne, refn, cells, slot, out);
  return (int)cudaGetLastError();
}

template <int MODE>
static int Batch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  if (PwaCheckCall(fe, ph) || n < 0) return (int)cudaErrorInvalidValue;
  if (n == 0) return 0;
  if (MODE != PWA_LOAD && fe->Kaff && !ph->cq) return PwaAffineBatch(MODE, fe, mesh, ph, n, cells, slot, out, st);
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) {
    if (fe->dim == 2) return LaunchBatch<2, PETSCWARP_PHYS_LAPLACE, MODE>(fe, mesh, ph, n, cells, slot, out, st);
    return LaunchBatch<3, PETSCWARP_PHYS_LAPLACE, MODE>(fe, mesh, ph, n, cells, slot, out, st);
  }
  if (fe->dim == 2) return LaunchBatch<2, PETSCWARP_PHYS_ELASTICITY, MODE>(fe, mesh, ph, n, cells, slot, out, st);
  return LaunchBatch<3, PETSCWARP_PHYS_ELASTICITY, MODE>(fe, mesh, ph, n, cells, slot, out, st);
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

/* Blocks of up to 512 threads get a kernel compiled for 512 (registers enough for the 3D tiles), larger ones one
   compiled for 1024 */
template <int DIM, int KIND, int MAXT>
static int LaunchSharedNZ(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T, cudaStream_t st)
{
  const size_t bytes = (size_t)sh->maxcells * PetscWarpSharedNZCellBytes(fe) + PetscWarpSharedNZFixedBytes(fe, sh->bs);
  const int    ns    = PwaSharedSubBatch(DIM, fe->nb, fe->nc, fe->nq, sh->bs);
  cudaError_t  e;
  if (MAXT == 512 && sh->bs > 512) return LaunchSharedNZ<DIM, KIND, 1024>(fe, mesh, ph, sh, T, st);
  if ((e = AllowShared((const void *)PwaSharedNZ<DIM, KIND, MAXT>, bytes)) != cudaSuccess) return (int)e;
  PwaSharedNZ<DIM, KIND, MAXT><<<sh->nblocks, sh->bs, bytes, st>>>(*fe, *mesh, PwaPhysOf(ph), sh->maxcells, ns, PwaRefDoubles(DIM, fe->nb, fe->nq, fe->ncv), sh->coff, sh->cells, sh->scatter.off, sh->scatter.ent, sh->red.off, sh->red.ent, T);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpAsmSharedNZCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  if (PwaCheckCall(fe, ph)) return (int)cudaErrorInvalidValue;
  if (sh->maxcells < 1 || sh->bs < 1 || sh->bs > 1024 || sh->scatter.bs != sh->bs || sh->red.bs != sh->bs || sh->scatter.nblocks != sh->nblocks || sh->red.nblocks != sh->nblocks || sh->nblocks < 0) return (int)cudaErrorInvalidValue;
  if (!sh->nblocks) return 0;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) {
    if (fe->dim == 2) return LaunchSharedNZ<2, PETSCWARP_PHYS_LAPLACE, 512>(fe, mesh, ph, sh, T, st);
    return LaunchSharedNZ<3, PETSCWARP_PHYS_LAPLACE, 512>(fe, mesh, ph, sh, T, st);
  }
  if (fe->dim == 2) return LaunchSharedNZ<2, PETSCWARP_PHYS_ELASTICITY, 512>(fe, mesh, ph, sh, T, st);
  return LaunchSharedNZ<3, PETSCWARP_PHYS_ELASTICITY, 512>(fe, mesh, ph, sh, T, st);
}

extern "C" int PetscWarpAsmMaxSharedCUDA(size_t *bytes)
{
  int         dev, v = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  *bytes = e == cudaSuccess ? (size_t)v : 0;
  return (int)e;
}
