/* The rownz strategy on the device (warpasmrownzkernels.h): a thread per cell computes the affine factors (RowNZCoef),
   then a warp per tile of rows (RowNZ) accumulates its slot range in shared memory, lane t adding the entries of its
   row (warpasm_rownz.h, PwaRowNZLane), and writes the range once, coalesced. The reference matrices are staged in
   shared memory once per block. No atomics, no zeroing pass. Compiled with -fmad=false (CMakeLists.txt) so that the
   values are bitwise those of the host twin (warpasm_rownz_host.c). */
#include "warpasm_rownz.h"
#include "warpasm_cuda.cuh"

#define PWA_RNZ_COEF_THREADS 256

/* The NV vertices of cell from cv */
template <int NV>
__device__ __forceinline__ void RowNZCellVerts(const int *cv, int cell, int *v)
{
#pragma unroll
  for (int k = 0; k < NV; k++) v[k] = __ldg(&cv[(size_t)cell * NV + k]);
}

/* The coordinates of a cell's NV vertices v[] into Xc (NV*DIM doubles); in 2D each vertex's coordinates are one
   16-byte load where X is 16-byte aligned (half the gather instructions of scalar loads: a fused lane's gathers touch a
   cache line per lane; the same values, bitwise) */
template <int DIM, int NV>
__device__ __forceinline__ void RowNZCellXc(const double *X, const int *v, double *Xc)
{
  if (DIM == 2 && !(reinterpret_cast<size_t>(X) & 15)) {
#pragma unroll
    for (int k = 0; k < NV; k++) {
      const double2 q = __ldg(reinterpret_cast<const double2 *>(X) + v[k]);
      Xc[2 * k]       = q.x;
      Xc[2 * k + 1]   = q.y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < NV; k++)
#pragma unroll
      for (int d = 0; d < DIM; d++) Xc[k * DIM + d] = __ldg(&X[(size_t)v[k] * DIM + d]);
  }
}

/* PwaRowNZCell with the vertex count NV a compile-time constant and the cell's vertices v[] already read */
template <int DIM, int KIND, int NV>
__device__ __forceinline__ void RowNZCellDev(const PwaRowNZGeo &geo, const int *v, double shift, int cell, double *g)
{
  double Xc[NV * DIM];
  RowNZCellXc<DIM, NV>(geo.X, v, Xc);
  PwaRowNZCellX(KIND, DIM, NV, Xc, geo.Dc, geo.coef, geo.kappa, geo.kcell, shift, cell, PWA_RNZ_STRIDE(DIM, KIND), g);
}

/* PwaRowNZCellX for the Laplacian on P1 simplices (NV = DIM + 1) with a scalar coefficient, the same values bitwise in
   fewer operations (the fused lanes compute a cell's factor once per incidence; -fmad=false leaves about 250 double
   operations per 3D incidence, most of the kernel's arithmetic): M = detJ Jinv Jinv^T K is computed on and above the
   diagonal only (M_de and M_ed are the same products in the same order, so PwaAffineCell's 0.5 (M_de + M_ed) is M_de
   exactly). A tensor coefficient goes to PwaRowNZCellX. (Skipping J's products with the coordinate derivatives that
   are 0, also bitwise the same, held 159 registers instead of 122 and lost on P1 triangles: H100, 2026-11-26, geo26) */
template <int DIM>
__device__ __forceinline__ void RowNZCellLapP1(const PwaRowNZGeo &geo, const double *Xc, double shift, int cell, double *g)
{
  constexpr int NV = DIM + 1, CS = PWA_RNZ_STRIDE(DIM, PETSCWARP_PHYS_LAPLACE), NSYM = DIM * (DIM + 1) / 2;
  double        K[9], J[9], Jinv[9], wdj;
  if (PwaCellCoef(geo.coef, geo.kappa, geo.kcell, DIM, cell, K)) {
    PwaRowNZCellX(PETSCWARP_PHYS_LAPLACE, DIM, NV, Xc, geo.Dc, geo.coef, geo.kappa, geo.kcell, shift, cell, CS, g);
    return;
  }
#pragma unroll
  for (int d = 0; d < DIM; d++)
#pragma unroll
    for (int e = 0; e < DIM; e++) {
      double s = 0.0;
#pragma unroll
      for (int k = 0; k < NV; k++) s += Xc[k * DIM + d] * __ldg(&geo.Dc[k * DIM + e]);
      J[d * DIM + e] = s;
    }
  wdj = 1.0 * PetscWarpJacobianInverse(DIM, J, Jinv); /* PwaStageQ's weight 1 */
#pragma unroll
  for (int r = 0; r < NSYM; r++) {
    int    d, e;
    double s = 0.0;
    PwaSymPair(DIM, r, &d, &e);
#pragma unroll
    for (int k = 0; k < DIM; k++) s += Jinv[d * DIM + k] * Jinv[e * DIM + k];
    s *= K[0];
    g[r] = wdj * s;
  }
  g[NSYM] = shift * wdj;
#pragma unroll
  for (int r = NSYM + 1; r < CS; r++) g[r] = 0.0;
}

/* A thread per cell (NCV > 0: the cell's vertex count at compile time, so that its coordinates stay in registers
   instead of a local-memory array); the block's factors go through shared memory (rows of CS + 1 doubles: no bank conflicts) so that
   the block writes its contiguous range of coef coalesced (a thread writing its own CS doubles made each store
   instruction touch 32 separate sectors) */
template <int DIM, int KIND, int NCV>
__global__ void __launch_bounds__(PWA_RNZ_COEF_THREADS) RowNZCoef(int ncells, const __grid_constant__ PwaRowNZGeo geo, double shift, double *__restrict__ coef)
{
  constexpr int     CS = PWA_RNZ_STRIDE(DIM, KIND);
  __shared__ double sg[PWA_RNZ_COEF_THREADS * (CS + 1)];
  for (int c0 = blockIdx.x * PWA_RNZ_COEF_THREADS; c0 < ncells; c0 += gridDim.x * PWA_RNZ_COEF_THREADS) {
    const int cell = c0 + threadIdx.x, nv = min(PWA_RNZ_COEF_THREADS, ncells - c0) * CS;
    if (cell < ncells) {
      double g[CS];
      if constexpr (NCV > 0) {
        int v[NCV];
        RowNZCellVerts<NCV>(geo.cv, cell, v);
        RowNZCellDev<DIM, KIND, NCV>(geo, v, shift, cell, g);
      } else PwaRowNZCell(KIND, DIM, geo.ncv, geo.cv, geo.X, geo.Dc, geo.coef, geo.kappa, geo.kcell, shift, cell, CS, g);
#pragma unroll
      for (int r = 0; r < CS; r++) sg[threadIdx.x * (CS + 1) + r] = g[r];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nv; i += PWA_RNZ_COEF_THREADS) coef[(size_t)c0 * CS + i] = sg[(i / CS) * (CS + 1) + i % CS];
    __syncthreads();
  }
}

/* The vertex count of the cells of the Lagrange elements the kernels are specialised for: 2D P1-P3 (3, 6, 10 basis
   functions) on triangles, Q1-Q2 (4, 9) on quadrilaterals; 3D P1-P3 (4, 10, 20) on tetrahedra, Q1-Q2 (8, 27) on hexahedra */
template <int DIM, int NB>
__host__ __device__ constexpr int RowNZVertices()
{
  return DIM == 2 ? (NB == 4 || NB == 9 ? 4 : 3) : (NB == 8 || NB == 27 ? 8 : 4);
}

/* Lane t adds the entries of one incidence (its row's local dof i in the cell, the cell's factor g) into acc: the
   column nodes, then components, in PwaRowNZLane's order. k: the columns' 8-bit positions when PRE (NEL <= 32), else
   read from kp (stride nl) a node's components at a time */
template <int DIM, int KIND, int NB>
__device__ __forceinline__ void RowNZAdd(const double *Kr, double lambda, double mu, double shift, const double *g, int i, const unsigned char *k0, const unsigned char *kp, int nl, int base, int lsh, int ssh, double *acc)
{
  constexpr int NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM, NEL = NB * NC, PRE = NEL <= 32;
  const int     a = i / NC, c = i - a * NC, lmask = (1 << lsh) - 1;
#pragma unroll
  for (int bn = 0; bn < NB; bn++) {
    double        v[9];
    unsigned char k[PRE ? 1 : NC];
    if (!PRE) {
#pragma unroll
      for (int e = 0; e < NC; e++) k[e] = __ldg(&kp[(size_t)(bn * NC + e) * nl]);
    }
    PwaAffinePair(KIND, DIM, NB, Kr, g, lambda, mu, shift, a, bn, v);
#pragma unroll
    for (int e = 0; e < NC; e++) {
      const int kk = PRE ? k0[bn * NC + e] : k[e];
      double    ve = v[e];
#pragma unroll
      for (int cc = 1; cc < NC; cc++) ve = cc == c ? v[cc * NC + e] : ve; /* v[c*NC + e] without indexing v at run time (v stays in registers) */
      if (kk == PETSCWARP_ROWNZ_SKIP8) continue;                          /* a dropped column */
      acc[base + ((kk >> lsh) << ssh) + (kk & lmask)] += ve;
    }
  }
}

/* The cell's factor (CS doubles, read as double2) from the factor array */
template <int CS>
__device__ __forceinline__ void RowNZFactor(const double *coef, int cell, double *g)
{
#pragma unroll
  for (int r = 0; r < CS / 2; r++) {
    const double2 q = __ldg(reinterpret_cast<const double2 *>(coef + (size_t)cell * CS) + r);
    g[2 * r]        = q.x;
    g[2 * r + 1]    = q.y;
  }
}

/* PwaRowNZLane (warpasm_rownz.h) with the element's size a compile-time constant (NB basis functions, 8-bit
   positions): the loops over the cell's columns unroll, an incidence's column positions are all loaded before its
   entries are added (NEL <= 32; else a node's components at a time), and its factor is read as double2 (FUSED:
   computed from the cell's RowNZVertices() vertices, in registers). The same arithmetic in the same order as
   PwaRowNZLane: bitwise the host twin's values. */
template <int DIM, int KIND, int NB, bool FUSED>
__device__ __forceinline__ void RowNZLaneNB(const double *Kr, double lambda, double mu, double shift, const PetscWarpRowNZ &rn, int b, int t, const double *__restrict__ coef, const PwaRowNZGeo &geo, double *acc)
{
  constexpr int  NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM, NEL = NB * NC, CS = PWA_RNZ_STRIDE(DIM, KIND), PRE = NEL <= 32;
  constexpr bool HOIST = FUSED && DIM == 2 && RowNZVertices<DIM, NB>() == 3;
  const int      base = __ldg(&rn.lbase[b * PETSCWARP_ROWNZ_LANES + t]), nl = __ldg(&rn.nlane[b]);
  if (base < 0 || t >= nl) return;
  const int i0 = __ldg(&rn.ioff[b]), nm = (__ldg(&rn.ioff[b + 1]) - i0) / nl, ssh = rn.ssh;
  const int lsh = __ldg(&rn.lsh[b * PETSCWARP_ROWNZ_LANES + t]);
  for (int m = 0; m < nm; m++) {
    const size_t         x    = (size_t)i0 + (size_t)m * nl + t;
    const int            cell = __ldg(&rn.icell[x]);
    const unsigned char *kp   = rn.kpos8 + ((size_t)i0 + (size_t)m * nl) * NEL + t;
    unsigned char        k[PRE ? NEL : 1];
    double               g[CS];
    int                  i = 0, vtx[FUSED ? RowNZVertices<DIM, NB>() : 1]; /* the cell's vertices (fused) */
    /* HOIST (fused triangles): everything that depends only on x is read before the padding test, so that these loads
       do not wait for icell's (a padding entry's positions and vertices are valid memory: 0xff / 0). Elsewhere the
       registers it costs are not measured to pay (3D P1 fused: 80 -> 96) */
    if (HOIST) {
      i = __ldg(&rn.iloc[x]);
      if (PRE) {
#pragma unroll
        for (int j = 0; j < (PRE ? NEL : 1); j++) k[j] = __ldg(&kp[(size_t)j * nl]);
      }
      if (rn.ivert) { /* streaming with icell: no dependent gather */
#pragma unroll
        for (int q = 0; q < RowNZVertices<DIM, NB>(); q++) vtx[q] = __ldg(&rn.ivert[(size_t)q * rn.ninc + x]);
      }
    }
    if (cell < 0) continue; /* padding */
    if (!HOIST) {
      i = __ldg(&rn.iloc[x]);
      if (PRE) {
#pragma unroll
        for (int j = 0; j < (PRE ? NEL : 1); j++) k[j] = __ldg(&kp[(size_t)j * nl]);
      }
    }
    if constexpr (FUSED) {
      constexpr int NV = RowNZVertices<DIM, NB>();
      if (!HOIST || !rn.ivert) RowNZCellVerts<NV>(geo.cv, cell, vtx);
      RowNZCellDev<DIM, KIND, NV>(geo, vtx, shift, cell, g);
    } else RowNZFactor<CS>(coef, cell, g);
    RowNZAdd<DIM, KIND, NB>(Kr, lambda, mu, shift, g, i, k, kp, nl, base, lsh, ssh, acc);
  }
}

/* An incidence's plan entries, those that depend only on its position x (streaming, coalesced over the lanes): its
   cell, the row's local dof, the columns' positions and (fused, rn.ivert) the cell's vertices */
template <int NEL, int NV>
struct RowNZInc {
  int           cell, i, v[NV];
  unsigned char k[NEL];
};

template <int NEL, int NV>
__device__ __forceinline__ void RowNZIncLoad(const PetscWarpRowNZ &rn, size_t x, const unsigned char *kp, int nl, bool verts, RowNZInc<NEL, NV> &s)
{
  s.cell = __ldg(&rn.icell[x]);
  s.i    = __ldg(&rn.iloc[x]);
#pragma unroll
  for (int j = 0; j < NEL; j++) s.k[j] = __ldg(&kp[(size_t)j * nl]);
  if (verts) {
#pragma unroll
    for (int q = 0; q < NV; q++) s.v[q] = __ldg(&rn.ivert[(size_t)q * rn.ninc + x]);
  }
}

/* What an incidence's arithmetic reads from its cell (its payload, NP doubles): the vertex coordinates (FUSED; the
   vertices gathered from cv first where the plan has no vertex lists) or the cell's factor. Padding reads nothing */
template <int DIM, int KIND, int NV, bool FUSED, int NEL>
__device__ __forceinline__ void RowNZPayload(const PwaRowNZGeo &geo, const double *coef, bool verts, RowNZInc<NEL, NV> &s, double *P)
{
  constexpr int CS = PWA_RNZ_STRIDE(DIM, KIND);
  if (s.cell < 0) return;
  if constexpr (FUSED) {
    if (!verts) RowNZCellVerts<NV>(geo.cv, s.cell, s.v);
    RowNZCellXc<DIM, NV>(geo.X, s.v, P);
  } else RowNZFactor<CS>(coef, s.cell, P);
}

/* RowNZLaneNB with the lane's loads issued ahead of its arithmetic (-mat_warp_rownz_prefetch; P1 elements, whose lanes
   wait on their loads: ncu on P1 triangles, 2026-11-26, 12.45 cycles of long-scoreboard stall per issued instruction).
   PIPE 1: incidence m+1's plan entries are loaded before incidence m's payload is gathered and its entries added; PIPE
   2: also incidence m+1's payload (coordinates or factor), and m+2's plan entries. GEO 1 (fused Laplacians): the
   factors from RowNZCellLapP1, the same values bitwise as RowNZLaneNB's; GEO 2: the row's entries in closed form
   (PwaRowNZLapP1Row, the host twin's values with rn.geo 2, round-off from GEO 0-1's). */
template <int DIM, int KIND, int NB, bool FUSED, int PIPE, int GEO>
__device__ __forceinline__ void RowNZLanePipe(const double *Kr, double lambda, double mu, double shift, const PetscWarpRowNZ &rn, int b, int t, const double *__restrict__ coef, const PwaRowNZGeo &geo, double *acc)
{
  constexpr int NC = KIND == PETSCWARP_PHYS_LAPLACE ? 1 : DIM, NEL = NB * NC, CS = PWA_RNZ_STRIDE(DIM, KIND), NV = RowNZVertices<DIM, NB>(), NP = FUSED ? NV * DIM : CS;
  static_assert(NEL <= 32 && PIPE >= 1 && PIPE <= 2, "prefetching lanes hold an incidence's positions in registers");
  const int base = __ldg(&rn.lbase[b * PETSCWARP_ROWNZ_LANES + t]), nl = __ldg(&rn.nlane[b]);
  if (base < 0 || t >= nl) return;
  const int            i0 = __ldg(&rn.ioff[b]), nm = (__ldg(&rn.ioff[b + 1]) - i0) / nl, ssh = rn.ssh;
  const int            lsh   = __ldg(&rn.lsh[b * PETSCWARP_ROWNZ_LANES + t]);
  const bool           verts = FUSED && rn.ivert;
  const unsigned char *kp0   = rn.kpos8 + (size_t)i0 * NEL + t;
  RowNZInc<NEL, NV>    s0, s1;
  double               P0[NP];
  if (nm < 1) return;
  RowNZIncLoad<NEL, NV>(rn, (size_t)i0 + t, kp0, nl, verts, s0);
  if (PIPE >= 2) {
    if (nm > 1) RowNZIncLoad<NEL, NV>(rn, (size_t)i0 + nl + t, kp0 + (size_t)nl * NEL, nl, verts, s1);
    RowNZPayload<DIM, KIND, NV, FUSED, NEL>(geo, coef, verts, s0, P0);
  }
  for (int m = 0; m < nm; m++) {
    RowNZInc<NEL, NV> s = s0;
    double            P[NP], g[CS];
    if (PIPE >= 2) {
#pragma unroll
      for (int r = 0; r < NP; r++) P[r] = P0[r];
      s0 = s1;
      if (m + 2 < nm) RowNZIncLoad<NEL, NV>(rn, (size_t)i0 + (size_t)(m + 2) * nl + t, kp0 + (size_t)(m + 2) * nl * NEL, nl, verts, s1);
      if (m + 1 < nm) RowNZPayload<DIM, KIND, NV, FUSED, NEL>(geo, coef, verts, s0, P0);
    } else if (m + 1 < nm) RowNZIncLoad<NEL, NV>(rn, (size_t)i0 + (size_t)(m + 1) * nl + t, kp0 + (size_t)(m + 1) * nl * NEL, nl, verts, s0);
    if (s.cell < 0) continue; /* padding */
    if (PIPE == 1) RowNZPayload<DIM, KIND, NV, FUSED, NEL>(geo, coef, verts, s, P);
    if constexpr (FUSED && GEO == 2) { /* the row's entries in closed form (PwaRowNZLapP1Row), a tensor coefficient through the generic factor */
      double K[9], v[NB];
      if (!PwaCellCoef(geo.coef, geo.kappa, geo.kcell, DIM, s.cell, K)) {
        const int lmask = (1 << lsh) - 1;
        PwaRowNZLapP1Row(DIM, P, s.i, K[0], rn.p1sigma, rn.p1detr, shift, Kr + (DIM * (DIM + 1) / 2) * (NB * (NB + 1) / 2), v);
#pragma unroll
        for (int j = 0; j < NB; j++)
          if (s.k[j] != PETSCWARP_ROWNZ_SKIP8) acc[base + ((s.k[j] >> lsh) << ssh) + (s.k[j] & lmask)] += v[j];
        continue;
      }
    }
    if constexpr (FUSED && GEO == 1) RowNZCellLapP1<DIM>(geo, P, shift, s.cell, g);
    else if constexpr (FUSED) PwaRowNZCellX(KIND, DIM, NV, P, geo.Dc, geo.coef, geo.kappa, geo.kcell, shift, s.cell, CS, g);
    else {
#pragma unroll
      for (int r = 0; r < CS; r++) g[r] = P[r];
    }
    RowNZAdd<DIM, KIND, NB>(Kr, lambda, mu, shift, g, s.i, s.k, NULL, nl, base, lsh, ssh, acc);
  }
}

/* Shared memory (doubles): the reference matrices kn, then maxslots per warp. NB > 0: RowNZLaneNB (8-bit positions,
   nb == NB), else the generic PwaRowNZLane. FUSED: coef is NULL, the factors are computed from geo */
template <int DIM, int KIND, int NB, bool FUSED, int PIPE, int GEO>
__global__ void RowNZ(int nb, int kn, const double *__restrict__ Kaff, double lambda, double mu, double shift, const __grid_constant__ PetscWarpRowNZ rn, const double *__restrict__ coef, const __grid_constant__ PwaRowNZGeo geo, double *__restrict__ val)
{
  extern __shared__ double smem[];
  constexpr int            CS   = PWA_RNZ_STRIDE(DIM, KIND);
  const int                warp = threadIdx.x / PETSCWARP_ROWNZ_LANES, lane = threadIdx.x % PETSCWARP_ROWNZ_LANES, wpb = blockDim.x / PETSCWARP_ROWNZ_LANES;
  double                  *acc = smem + kn + (size_t)warp * rn.maxslots;
  for (int t = threadIdx.x; t < kn; t += blockDim.x) smem[t] = __ldg(&Kaff[t]);
  __syncthreads();
  for (int b = blockIdx.x * wpb + warp; b < rn.ntiles; b += gridDim.x * wpb) {
    const int s0 = __ldg(&rn.soff[b]), ns = __ldg(&rn.soff[b + 1]) - s0;
    for (int s = lane; s < ns; s += PETSCWARP_ROWNZ_LANES) acc[s] = 0.0;
    __syncwarp();
    if constexpr (NB > 0 && PIPE > 0) RowNZLanePipe<DIM, KIND, NB, FUSED, PIPE, GEO>(smem, lambda, mu, shift, rn, b, lane, coef, geo, acc);
    else if constexpr (NB > 0) RowNZLaneNB<DIM, KIND, NB, FUSED>(smem, lambda, mu, shift, rn, b, lane, coef, geo, acc);
    else PwaRowNZLane(KIND, DIM, nb, smem, lambda, mu, shift, &rn, b, lane, FUSED ? NULL : coef, &geo, CS, acc);
    __syncwarp();
    for (int s = lane; s < ns; s += PETSCWARP_ROWNZ_LANES) val[s0 + s] = acc[s];
    __syncwarp(); /* the range is read before the next tile zeroes it */
  }
}

template <int DIM, int KIND>
static int LaunchCoef(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef, cudaStream_t st)
{
  const int n = mesh->ncells, grid = (n + PWA_RNZ_COEF_THREADS - 1) / PWA_RNZ_COEF_THREADS;
  if (!n) return (int)cudaSuccess;
  const PwaRowNZGeo geo = PwaRowNZGeoOf(fe, mesh, ph);
  if (fe->ncv == DIM + 1) RowNZCoef<DIM, KIND, DIM + 1><<<grid, PWA_RNZ_COEF_THREADS, 0, st>>>(n, geo, ph->shift, coef);            /* simplices */
  else if (fe->ncv == (1 << DIM)) RowNZCoef<DIM, KIND, (1 << DIM)><<<grid, PWA_RNZ_COEF_THREADS, 0, st>>>(n, geo, ph->shift, coef); /* tensor cells */
  else RowNZCoef<DIM, KIND, 0><<<grid, PWA_RNZ_COEF_THREADS, 0, st>>>(n, geo, ph->shift, coef);
  return (int)cudaGetLastError();
}

__global__ void RowNZIncVerts(int ninc, int nv, const int *__restrict__ icell, const int *__restrict__ cv, int *__restrict__ ivert)
{
  for (size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x; x < (size_t)ninc; x += (size_t)gridDim.x * blockDim.x) { /* size_t: no wrap near INT_MAX incidences */
    const int cell = __ldg(&icell[x]);
    for (int k = 0; k < nv; k++) ivert[(size_t)k * ninc + x] = cell >= 0 ? __ldg(&cv[(size_t)cell * nv + k]) : 0;
  }
}

extern "C" int PetscWarpAsmRowNZIncVertsCUDA(const PetscWarpRowNZ *rn, int nv, const int *cv, int *ivert, void *stream)
{
  if (rn->ninc < 0 || nv < 1 || (rn->ninc && (!rn->icell || !cv || !ivert))) return (int)cudaErrorInvalidValue;
  if (!rn->ninc) return (int)cudaSuccess;
  RowNZIncVerts<<<(int)(((size_t)rn->ninc + 255) / 256 < 65535 ? ((size_t)rn->ninc + 255) / 256 : 65535), 256, 0, (cudaStream_t)stream>>>(rn->ninc, nv, rn->icell, cv, ivert);
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
template <int DIM, int KIND, int NB, bool FUSED, int PIPE = 0, int GEO = 0>
static int Launch(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
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
    if ((e = cudaFuncGetAttributes(&fa, RowNZ<DIM, KIND, NB, FUSED, PIPE, GEO>)) != cudaSuccess) return (int)e;
    if (fixed + per > (size_t)smblk) return (int)cudaErrorInvalidConfiguration; /* the plan checks this (PetscWarpAsmRowNZTileBytes) */
    if (!PetscWarpAsmRowNZResidentWarps(fixed, per, (size_t)smsm, (size_t)smblk, fa.numRegs, &wpb)) wpb = 1;
    bytes = fixed + (size_t)wpb * per;
    if (bytes > 48 * 1024 && (e = cudaFuncSetAttribute(RowNZ<DIM, KIND, NB, FUSED, PIPE, GEO>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)) != cudaSuccess) return (int)e;
    for (;;) { /* the model's block, or fewer warps where the device says the block cannot be resident */
      if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, RowNZ<DIM, KIND, NB, FUSED, PIPE, GEO>, wpb * PETSCWARP_ROWNZ_LANES, bytes)) != cudaSuccess) return (int)e;
      if (per_sm > 0 || wpb == 1) break;
      wpb--;
      bytes = fixed + (size_t)wpb * per;
    }
    if (per_sm < 1) return (int)cudaErrorLaunchOutOfResources;
    cdev = dev, cfixed = fixed, cper = per, cwpb = wpb, cbytes = bytes, cmaxgrid = nsm * per_sm;
  }
  grid = (rn->ntiles + cwpb - 1) / cwpb;
  if (grid > cmaxgrid) grid = cmaxgrid;
  RowNZ<DIM, KIND, NB, FUSED, PIPE, GEO><<<grid, cwpb * PETSCWARP_ROWNZ_LANES, cbytes, st>>>(fe->nb, kn, fe->Kaff, ph->lambda, ph->mu, ph->shift, *rn, coef, geo, val);
  return (int)cudaGetLastError();
}

/* Launch<DIM, KIND, NB, FUSED, PIPE> with the fused Laplacian's arithmetic rn->geo (1: RowNZCellLapP1; 2: the closed
   form PwaRowNZLapP1Row, where the plan found its constants) */
template <int DIM, int KIND, int NB, bool FUSED, int PIPE>
static int LaunchGeo(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
{
  if constexpr (FUSED && KIND == PETSCWARP_PHYS_LAPLACE) {
    if (rn->geo == 2 && rn->p1sigma != 0.0) return Launch<DIM, KIND, NB, FUSED, PIPE, 2>(fe, ph, rn, coef, geo, val, st);
    if (rn->geo) return Launch<DIM, KIND, NB, FUSED, PIPE, 1>(fe, ph, rn, coef, geo, val, st);
  }
  return Launch<DIM, KIND, NB, FUSED, PIPE>(fe, ph, rn, coef, geo, val, st);
}

/* Launch<DIM, KIND, NB, FUSED> for NB: on P1 elements (NB == DIM + 1) with the lanes prefetching rn->pipe incidences
   ahead (RowNZLanePipe) */
template <int DIM, int KIND, int NB, bool FUSED>
static int LaunchPipe(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
{
  if constexpr (NB == DIM + 1) {
    if constexpr (FUSED && KIND == PETSCWARP_PHYS_LAPLACE)
      if (rn->geo == 2 && rn->p1sigma != 0.0) { /* the closed form is in RowNZLanePipe only: a depth other than 2 runs at 1 (prefetching changes no value) */
        if (rn->pipe == 2) return Launch<DIM, KIND, NB, FUSED, 2, 2>(fe, ph, rn, coef, geo, val, st);
        return Launch<DIM, KIND, NB, FUSED, 1, 2>(fe, ph, rn, coef, geo, val, st);
      }
    if (rn->pipe == 1) return LaunchGeo<DIM, KIND, NB, FUSED, 1>(fe, ph, rn, coef, geo, val, st);
    if (rn->pipe == 2) return LaunchGeo<DIM, KIND, NB, FUSED, 2>(fe, ph, rn, coef, geo, val, st);
  }
  return Launch<DIM, KIND, NB, FUSED>(fe, ph, rn, coef, geo, val, st);
}

/* LaunchPipe<DIM, KIND, NB, FUSED> for the first NB of NBS equal to fe->nb (fused: only where the cells have the vertex
   count the kernel is compiled for); the generic kernel (NB = 0) when none is */
template <int DIM, int KIND, bool FUSED, int... NBS>
static int LaunchNB(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
{
  int err = 0;
  if (!((fe->nb == NBS && (!FUSED || fe->ncv == RowNZVertices<DIM, NBS>()) && ((err = LaunchPipe<DIM, KIND, NBS, FUSED>(fe, ph, rn, coef, geo, val, st)), true)) || ...)) err = Launch<DIM, KIND, 0, FUSED>(fe, ph, rn, coef, geo, val, st);
  return err;
}

/* The specialised kernel for the Lagrange elements of the built-in physics (2D: P1 3, Q1 4, P2 6, Q2 9, P3 10 basis
   functions; 3D: P1 4, Q1 8, P2 10, P3 20, Q2 27) with 8-bit positions, unless rn->unroll is 0; else the generic one */
template <int DIM, int KIND, bool FUSED>
static int Dispatch(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
{
  if (!rn->unroll || rn->wide) return Launch<DIM, KIND, 0, FUSED>(fe, ph, rn, coef, geo, val, st);
  if constexpr (DIM == 2) return LaunchNB<DIM, KIND, FUSED, 3, 4, 6, 9, 10>(fe, ph, rn, coef, geo, val, st);
  else return LaunchNB<DIM, KIND, FUSED, 4, 8, 10, 20, 27>(fe, ph, rn, coef, geo, val, st);
}

template <int DIM, int KIND>
static int DispatchFused(const PetscWarpFE *fe, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, const PwaRowNZGeo &geo, double *val, cudaStream_t st)
{
  return coef ? Dispatch<DIM, KIND, false>(fe, ph, rn, coef, geo, val, st) : Dispatch<DIM, KIND, true>(fe, ph, rn, coef, geo, val, st);
}

extern "C" int PetscWarpAsmRowNZCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val, void *stream)
{
  cudaStream_t      st  = (cudaStream_t)stream;
  const PwaRowNZGeo geo = PwaRowNZGeoOf(fe, mesh, ph);
  if (PwaCheckCall(fe, ph) || !fe->Kaff || rn->nel != fe->nb * fe->nc || (rn->ssh != 0 && rn->ssh != 5) || !PetscWarpAsmRowNZTileBytes(fe, ph->kind, rn->maxslots) || (!coef && (!mesh || ph->cq))) return (int)cudaErrorInvalidValue;
  if (!rn->ntiles) return (int)cudaSuccess;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE) return fe->dim == 2 ? DispatchFused<2, PETSCWARP_PHYS_LAPLACE>(fe, ph, rn, coef, geo, val, st) : DispatchFused<3, PETSCWARP_PHYS_LAPLACE>(fe, ph, rn, coef, geo, val, st);
  return fe->dim == 2 ? DispatchFused<2, PETSCWARP_PHYS_ELASTICITY>(fe, ph, rn, coef, geo, val, st) : DispatchFused<3, PETSCWARP_PHYS_ELASTICITY>(fe, ph, rn, coef, geo, val, st);
}
