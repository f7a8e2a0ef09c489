/* The affine fast path of the element batches on the device (warpasm_elem.h, PwaAffinePair): every cell of the call is
   affine and the physics has no per-point coefficient, so each element matrix is a combination of reference matrices.
   A block stages the reference matrices in shared memory once (when they fit PWA_REF_BUDGET, else they are read from
   global memory) and walks groups of ne cells (grid-stride): the cells' vertex coordinates arrive in shared memory,
   a thread per cell computes its affine factor (PwaAffineCell), then threads over (cell, a, b) compute the entries of
   node pair (a, b) and write them (E, one cell after another) or add them into val through the slots. No element
   matrix is staged. Host twin: CellMatrix in warpasm_host.c. */
#include "warpasm_cuda.cuh"

#define PWA_AFF_THREADS 256         /* threads of a block */
#define PWA_AFF_PAIRS   2048        /* node pairs per group of cells, at least */
#define PWA_AFF_BUDGET  (16 * 1024) /* shared memory of a group's coordinates and factors, at most */
#define PWA_AFF_MINB(kind, dim) \
  ((dim) == 2 ? ((kind) == PETSCWARP_PHYS_LAPLACE ? 6 : 4) : (kind) == PETSCWARP_PHYS_LAPLACE ? 4 : 3) /* blocks per SM compiled for, the most without spills (ptxas -v; 3D Laplace spilled at 5 in the factor stage): at most 40, 64, 64, 85 registers */

template <int DIM, int KIND, int MODE>
static __device__ __forceinline__ void AffineGroups(const PetscWarpFE &fe, const PetscWarpMesh &mesh, const PwaPhys &ph, int n, int ne, const double *Kr, double *C, double *Xs, const int *__restrict__ cells, const int *__restrict__ slot, double *__restrict__ out)
{
  constexpr int NC  = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM;
  const int     ncv = fe.ncv, nx = ncv * DIM, nel = fe.nb * NC, per = nel * nel;
  for (int first = blockIdx.x * ne; first < n; first += gridDim.x * ne) {
    const int m    = min(ne, n - first);
    auto      cell = [&](int lc) { return cells ? __ldg(&cells[first + lc]) : first + lc; };
    __syncthreads(); /* the previous group's factors are consumed */
    for (int t = threadIdx.x; t < m * nx; t += blockDim.x) {
      int lc = t / nx, k = (t - lc * nx) / DIM;
      Xs[t] = __ldg(&mesh.X[(size_t)__ldg(&mesh.cv[(size_t)cell(lc) * ncv + k]) * DIM + t - lc * nx - k * DIM]);
    }
    __syncthreads();
    AffineFactors<DIM, KIND>(fe, ph, m, cell, Xs, C);
    __syncthreads();
    AffineEntries<DIM, KIND>(fe, Kr, ph, m, C, [&](int lc, int ij, double v) {
      if (MODE == PWA_ELEM) out[(size_t)(first + lc) * per + ij] = v;
      else {
        int s = __ldg(&slot[(size_t)cell(lc) * per + ij]);
        if (s >= 0) {
          if (MODE == PWA_ATOMIC) atomicAdd(&out[s], v);
          else out[s] += v;
        }
      }
    });
  }
}

/* Shared memory (doubles): the reference matrices kn (0: read from global memory), then per cell of a group its affine
   factor (PWA_AC) and its coordinates (ncv*DIM) */
template <int DIM, int KIND, int MODE>
__global__ void __launch_bounds__(PWA_AFF_THREADS, PWA_AFF_MINB(KIND, DIM)) PwaAffine(PetscWarpFE fe, PetscWarpMesh mesh, PwaPhys ph, int n, int ne, int kn, const int *__restrict__ cells, const int *__restrict__ slot, double *__restrict__ out)
{
  extern __shared__ double smem[];
  double                  *C = smem + kn, *Xs = C + ne * PWA_AC(DIM);
  for (int t = threadIdx.x; t < kn; t += blockDim.x) smem[t] = __ldg(&fe.Kaff[t]);
  if (kn) AffineGroups<DIM, KIND, MODE>(fe, mesh, ph, n, ne, smem, C, Xs, cells, slot, out); /* shared-memory loads */
  else AffineGroups<DIM, KIND, MODE>(fe, mesh, ph, n, ne, fe.Kaff, C, Xs, cells, slot, out);
}

/* Cells per group: PWA_AFF_PAIRS node pairs at least, within PWA_AFF_BUDGET; blocks: as many as are resident at once */
template <int DIM, int KIND, int MODE>
static int Launch(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st)
{
  const int   nbb = fe->nb * fe->nb, kn = PwaAffineStaged(KIND, DIM, fe->nb), cellc = PWA_AC(DIM) + fe->ncv * DIM;
  int         ne = (PWA_AFF_PAIRS + nbb - 1) / nbb, fit = PWA_AFF_BUDGET / ((int)sizeof(double) * cellc), dev, nsm = 0, per = 0, ngroups, grid;
  size_t      bytes;
  cudaError_t e;
  if (ne > fit) ne = fit;
  if (ne > n) ne = n;
  if (ne < 1) ne = 1;
  bytes   = sizeof(double) * ((size_t)kn + (size_t)ne * cellc);
  ngroups = (n + ne - 1) / ne;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess) return (int)e;
  { /* the occupancy query once per (device, shared memory bytes) of this instance, not at every launch (a color
       assembly launches once per color) */
    static int    cdev = -1, cnsm = 0, cper = 0;
    static size_t cbytes = 0;
    if (dev != cdev || bytes != cbytes) {
      if ((e = cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return (int)e;
      if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, PwaAffine<DIM, KIND, MODE>, PWA_AFF_THREADS, bytes)) != cudaSuccess) return (int)e;
      cdev = dev, cbytes = bytes, cnsm = nsm, cper = per;
    }
    nsm = cnsm, per = cper;
  }
  if (per < 1) per = 1;
  grid = ngroups < nsm * per ? ngroups : nsm * per;
  PwaAffine<DIM, KIND, MODE><<<grid, PWA_AFF_THREADS, bytes, st>>>(*fe, *mesh, PwaPhysOf(ph), n, ne, kn, cells, slot, out);
  return (int)cudaGetLastError();
}

template <int MODE>
static int LaunchKind(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st)
{
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) {
    if (fe->dim == 2) return Launch<2, PETSCWARP_PHYS_LAPLACE, MODE>(fe, mesh, ph, n, cells, slot, out, st);
    return Launch<3, PETSCWARP_PHYS_LAPLACE, MODE>(fe, mesh, ph, n, cells, slot, out, st);
  }
  if (fe->dim == 2) return Launch<2, PETSCWARP_PHYS_ELASTICITY, MODE>(fe, mesh, ph, n, cells, slot, out, st);
  return Launch<3, PETSCWARP_PHYS_ELASTICITY, MODE>(fe, mesh, ph, n, cells, slot, out, st);
}

int PwaAffineBatch(int mode, const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *out, cudaStream_t st)
{
  if (mode == PWA_ELEM) return LaunchKind<PWA_ELEM>(fe, mesh, ph, n, cells, slot, out, st);
  if (mode == PWA_ATOMIC) return LaunchKind<PWA_ATOMIC>(fe, mesh, ph, n, cells, slot, out, st);
  if (mode == PWA_PLAIN) return LaunchKind<PWA_PLAIN>(fe, mesh, ph, n, cells, slot, out, st);
  return (int)cudaErrorInvalidValue;
}
