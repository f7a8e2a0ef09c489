/* The rownz strategy on the device (warpasmrownzkernels.h): a thread per cell computes the affine factors (RowNZCoef),
   then a warp per tile of rows (RowNZ) accumulates its slot range in shared memory, lane t adding the entries of its
   row (warpasm_rownz.h, PwaRowNZLane), and writes the range once, coalesced. The reference matrices are staged in
   shared memory once per block. No atomics, no zeroing pass. Compiled with -fmad=false (CMakeLists.txt) so that the
   values are bitwise those of the host twin (warpasm_rownz_host.c). */
#include "warpasm_rownz.h"
#include "warpasm_cuda.cuh"

#define PWA_RNZ_COEF_THREADS 256

template <int DIM, int KIND>
__global__ void __launch_bounds__(PWA_RNZ_COEF_THREADS) RowNZCoef(int ncells, int ncv, const int *__restrict__ cv, const double *__restrict__ X, const double *__restrict__ Dc, PwaPhys ph, double *__restrict__ coef)
{
  constexpr int CS = (((KIND == PETSCWARP_PHYS_LAPLACE ? DIM * (DIM + 1) / 2 + 1 : DIM * DIM + 1) + 1) / 2) * 2;
  for (int cell = blockIdx.x * blockDim.x + threadIdx.x; cell < ncells; cell += gridDim.x * blockDim.x) {
    double g[CS];
    PwaRowNZCell(KIND, DIM, ncv, cv, X, Dc, ph.coef, ph.kappa, ph.kcell, ph.shift, cell, CS, g);
#pragma unroll
    for (int r = 0; r < CS; r++) coef[(size_t)cell * CS + r] = g[r];
  }
}

/* Shared memory (doubles): the reference matrices kn, then maxslots per warp */
template <int DIM, int KIND>
__global__ void RowNZ(int nb, int kn, const double *__restrict__ Kaff, double lambda, double mu, double shift, const __grid_constant__ PetscWarpRowNZ rn, const double *__restrict__ coef, double *__restrict__ val)
{
  extern __shared__ double smem[];
  constexpr int            CS   = (((KIND == PETSCWARP_PHYS_LAPLACE ? DIM * (DIM + 1) / 2 + 1 : DIM * DIM + 1) + 1) / 2) * 2;
  const int                warp = threadIdx.x / PETSCWARP_ROWNZ_LANES, lane = threadIdx.x % PETSCWARP_ROWNZ_LANES, wpb = blockDim.x / PETSCWARP_ROWNZ_LANES;
  double                  *acc = smem + kn + (size_t)warp * rn.maxslots;
  for (int t = threadIdx.x; t < kn; t += blockDim.x) smem[t] = __ldg(&Kaff[t]);
  __syncthreads();
  for (int b = blockIdx.x * wpb + warp; b < rn.ntiles; b += gridDim.x * wpb) {
    const int s0 = __ldg(&rn.soff[b]), ns = __ldg(&rn.soff[b + 1]) - s0;
    for (int s = lane; s < ns; s += PETSCWARP_ROWNZ_LANES) acc[s] = 0.0;
    __syncwarp();
    PwaRowNZLane(KIND, DIM, nb, smem, lambda, mu, shift, &rn, b, lane, coef, CS, acc);
    __syncwarp();
    for (int s = lane; s < ns; s += PETSCWARP_ROWNZ_LANES) val[s0 + s] = acc[s];
    __syncwarp(); /* the range is read before the next tile zeroes it */
  }
}

template <int DIM, int KIND>
static int LaunchCoef(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef, cudaStream_t st)
{
  const int n = mesh->ncells, grid = (n + PWA_RNZ_COEF_THREADS - 1) / PWA_RNZ_COEF_THREADS;
  if (n) RowNZCoef<DIM, KIND><<<grid, PWA_RNZ_COEF_THREADS, 0, st>>>(n, fe->ncv, mesh->cv, mesh->X, fe->Dc, PwaPhysOf(ph), coef);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpAsmRowNZCoefCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  if (PwaCheckCall(fe, ph) || ph->cq) return (int)cudaErrorInvalidValue;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) return fe->dim == 2 ? LaunchCoef<2, PETSCWARP_PHYS_LAPLACE>(fe, mesh, ph, coef, st) : LaunchCoef<3, PETSCWARP_PHYS_LAPLACE>(fe, mesh, ph, coef, st);
  return fe->dim == 2 ? LaunchCoef<2, PETSCWARP_PHYS_ELASTICITY>(fe, mesh, ph, coef, st) : LaunchCoef<3, PETSCWARP_PHYS_ELASTICITY>(fe, mesh, ph, coef, st);
}

/* Warps per block: the most resident warps per SM for the block's shared memory (reference matrices once per block,
   a tile's range per warp); blocks: as many as are resident at once, each walking tiles (grid-stride) */
template <int DIM, int KIND>
static int Launch(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val, cudaStream_t st)
{
  const int    kn    = PwaAffineRefs(KIND, DIM) * (fe->nb * (fe->nb + 1) / 2);
  const size_t fixed = sizeof(double) * (size_t)kn, per = sizeof(double) * (size_t)(rn->maxslots > 0 ? rn->maxslots : 1);
  /* the launch configuration of this instance, computed once per (device, reference bytes, tile bytes): the device
     queries below cost a sizeable part of a small assembly (as in warpasm_affine.cu) */
  static int    cdev = -1, cwpb = 1, cmaxgrid = 1;
  static size_t cfixed = 0, cper = 0, cbytes = 0;
  int           dev, grid;
  cudaError_t   e;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess) return (int)e;
  if (dev != cdev || fixed != cfixed || per != cper) {
    int                nsm, smsm, smblk, wpb = 1, per_sm = 0;
    size_t             bytes;
    cudaFuncAttributes fa;
    if ((e = cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return (int)e;
    if ((e = cudaDeviceGetAttribute(&smsm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev)) != cudaSuccess) return (int)e;
    if ((e = cudaDeviceGetAttribute(&smblk, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess) return (int)e;
    if ((e = cudaFuncGetAttributes(&fa, RowNZ<DIM, KIND>)) != cudaSuccess) return (int)e;
    if (fixed + per > (size_t)smblk) return (int)cudaErrorInvalidConfiguration; /* the plan checks this (PetscWarpAsmRowNZTileBytes) */
    if (!PetscWarpAsmRowNZResidentWarps(fixed, per, (size_t)smsm, (size_t)smblk, fa.numRegs, &wpb)) wpb = 1;
    bytes = fixed + (size_t)wpb * per;
    if (bytes > 48 * 1024 && (e = cudaFuncSetAttribute(RowNZ<DIM, KIND>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)) != cudaSuccess) return (int)e;
    if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, RowNZ<DIM, KIND>, wpb * PETSCWARP_ROWNZ_LANES, bytes)) != cudaSuccess) return (int)e;
    cdev = dev, cfixed = fixed, cper = per, cwpb = wpb, cbytes = bytes, cmaxgrid = nsm * (per_sm < 1 ? 1 : per_sm);
  }
  grid = (rn->ntiles + cwpb - 1) / cwpb;
  if (grid > cmaxgrid) grid = cmaxgrid;
  RowNZ<DIM, KIND><<<grid, cwpb * PETSCWARP_ROWNZ_LANES, cbytes, st>>>(fe->nb, kn, fe->Kaff, ph->lambda, ph->mu, ph->shift, *rn, coef, val);
  return (int)cudaGetLastError();
}

extern "C" int PetscWarpAsmRowNZCUDA(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val, void *stream)
{
  cudaStream_t st = (cudaStream_t)stream;
  if (PwaCheckCall(fe, ph) || !fe->Kaff || rn->nel != fe->nb * fe->nc || (rn->ssh != 0 && rn->ssh != 5) || !PetscWarpAsmRowNZTileBytes(fe, ph->kind, rn->maxslots)) return (int)cudaErrorInvalidValue;
  if (!rn->ntiles) return (int)cudaSuccess;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) return fe->dim == 2 ? Launch<2, PETSCWARP_PHYS_LAPLACE>(fe, ph, rn, coef, val, st) : Launch<3, PETSCWARP_PHYS_LAPLACE>(fe, ph, rn, coef, val, st);
  return fe->dim == 2 ? Launch<2, PETSCWARP_PHYS_ELASTICITY>(fe, ph, rn, coef, val, st) : Launch<3, PETSCWARP_PHYS_ELASTICITY>(fe, ph, rn, coef, val, st);
}
