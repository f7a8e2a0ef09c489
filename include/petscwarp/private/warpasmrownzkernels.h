/*
  Assembly by row with recomputation (the rownz strategy): the C interface of src/kernels/warpasm_rownz*.

  Cecka, Lew and Darve (seeds/000, Table III) call it "assemble by row, computing element data as needed in local
  memory": no element matrix is stored and no value is added atomically. Each row r of the matrix gathers the
  contributions of the cells incident to it: for every incidence (cell c, local dof i of r in c) the row computes row i
  of c's element matrix from the affine path's reference matrices (warpasm_elem.h, PwaAffinePair) and c's affine
  factor, and adds each entry into its position k within row r. Element matrices are never formed; each entry of an
  element matrix is computed exactly once (by the row that owns it), only the per-cell factor is read by the nb*nc rows
  of the cell.

  Two kernels: PetscWarpAsmRowNZCoef* computes the affine factor of every cell once (PwaAffineCell, cs doubles per
  cell); PetscWarpAsmRowNZ* assembles the rows. Or one (fused, coef NULL): each row computes the factors of its
  incident cells itself from the ncv vertex indices and the coordinates (mostly cache hits: a row's cells are mesh
  neighbours), which reads ncv*4 bytes per incidence instead of cs*8 and skips the factor array (its write and its
  reads), at the price of recomputing a factor once per row of the cell (cheap for simplices: a few dozen flops).

  The plan (src/mat/assembly/warpasmrownz.c) groups the rows into tiles of at most 32 lanes, one row per lane, whose
  target slots fill a contiguous range [soff[b], soff[b+1]) of the value array (32 consecutive CSR rows, or the rows of
  one ELL-WARP warp, padding included). A tile (one warp on the device) accumulates its range in shared memory, each
  slot by the one lane that owns its row, in a fixed order (incidences in the plan's order, then columns), then writes
  the whole range once, coalesced: no zeroing pass, every slot written exactly once (padding and pattern positions that
  no element reaches get 0). The result is bitwise reproducible, and the host twin runs the same arithmetic in the same
  order (the .cu file is compiled without FMA contraction, the host twin with -ffp-contract=off).

  Data of tile b (LANES = 32):
  - lane t serves a row when lbase[b*LANES + t] >= 0: local position p of that row is local slot
    lbase + ((p >> lsh) << ssh) + (p & ((1 << lsh) - 1)) of the tile. CSR: ssh = 0, lsh = 0, p = k, the entry's position
    in the row. ELL-WARP: ssh = 5, the row's slots lie in L = 2^lsh consecutive lanes of its warp, p = (rel / 32) L +
    rel % 32 with rel the slot minus the row's first; p = k for a row in one lane (K1 warps, blocked column index or
    not);
  - the incidence lists have nlane[b] = NL lanes (the tile's rows: lanes t >= NL serve none, their lbase is -1); the
    incidences of lane t < NL are the entries m = 0 .. (ioff[b+1]-ioff[b])/NL - 1 at x = ioff[b] + m*NL + t:
    icell[x] (-1: padding), iloc[x] = i (the local dof of the row in the cell), and the local positions p of the cell's
    nel columns in the row: kpos[(ioff[b] + m*NL)*nel + j*NL + t] (uint8, or uint16 when wide; the largest value,
    0xff or 0xffff, marks a dropped column). A tile of fewer rows than LANES stores no padding lanes.
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define PETSCWARP_ROWNZ_LANES  32
#define PETSCWARP_ROWNZ_SKIP8  0xff
#define PETSCWARP_ROWNZ_SKIP16 0xffff

typedef struct {
  int                   ntiles;
  int                   nel;      /* element dofs (columns of an element row) */
  int                   wide;     /* kpos is uint16 (else uint8) */
  int                   ssh;      /* 0 (CSR) or 5 (ELL-WARP): see above */
  int                   maxslots; /* largest soff[b+1] - soff[b] */
  int                   unroll;   /* device (and the host twin's choice of geo 2): kernels specialised for the element's size where one exists (else the generic loop) */
  int                   pipe;     /* device, specialised P1 kernels: incidences a lane loads ahead of its arithmetic, 0-2
                                     (RowNZLanePipe in warpasm_rownz.cu; -mat_warp_rownz_prefetch) */
  int                   geo;      /* fused P1 Laplacians: how a lane computes a cell's entries (-mat_warp_rownz_simplex_geometry),
                                     0: PwaRowNZCellX; 1 (device, prefetching lanes): RowNZCellLapP1, the metric's upper
                                     triangle, the same values as 0; 2 (host twin and device, where p1sigma != 0): the
                                     closed form of PwaRowNZLapP1Row, other values (round-off) in fewer operations */
  double                p1sigma;  /* geo 2: W det(R), the quadrature weights' sum times the determinant of the reference
                                     gradients of basis functions 1..dim (PetscWarpAsmRowNZSimplexConstants()) */
  double                p1detr;   /* geo 2: det(R) */
  const int            *soff;     /* [ntiles+1] */
  const int            *ioff;     /* [ntiles+1], multiples of LANES */
  const unsigned char  *nlane;    /* [ntiles]: lanes of the tile's incidence lists (their stride), 1 .. LANES */
  const int            *lbase;    /* [ntiles*LANES] */
  const unsigned char  *lsh;      /* [ntiles*LANES] */
  const int            *icell;    /* [ioff[ntiles]] */
  const unsigned char  *iloc;     /* [ioff[ntiles]] */
  const unsigned char  *kpos8;    /* [ioff[ntiles]*nel] when !wide */
  const unsigned short *kpos16;   /* [ioff[ntiles]*nel] when wide */
  int                   ninc;     /* ioff[ntiles] */
  const int            *ivert;    /* device, optional (NULL), fused simplices: per incidence x the nv vertices of its cell,
                                     ivert[k*ninc + x] (0 for padding), so that a lane reads them streaming, coalesced
                                     with icell, instead of gathering them from cv after icell: a dependent gather less */
} PetscWarpRowNZ;

/* Doubles of a cell's affine factor as the rownz kernels store it (PwaAffineCell's values, rounded up to even) */
int PetscWarpAsmRowNZCoefStride(int dim, int physkind);
/* Shared memory (bytes) a device block needs for one tile: the reference matrices (staged) and maxslots doubles;
   0 when the reference matrices do not fit PWA_REF_BUDGET (the plan then does not use rownz) */
size_t PetscWarpAsmRowNZTileBytes(const PetscWarpFE *fe, int physkind, int maxslots);
/* The occupancy model of RowNZ (the launch uses it, the plan predicts with it): a block stages fixed bytes (the
   reference matrices) and per bytes (maxslots doubles) per warp; 1 KB of shared memory is reserved per block, at most
   PETSCWARP_ROWNZ_MAXWARPS warps per block, PETSCWARP_ROWNZ_MAXBLOCKS blocks and 64 warps per SM, and registers (regs per thread, allocated in multiples
   of 8) from 4 sub-partitions of 16384 per SM (a block of w warps puts ceil(w/4) in one: 65536 / (regs * 32) overstated
   it, and the unrolled 3D elasticity kernel (150 registers) then failed to launch with 13 warps per block). Returns the resident
   warps per SM of the best warps per block (*wpb, the fewest among equals), 0 when one warp does not fit smblk. */
#define PETSCWARP_ROWNZ_MAXWARPS  16
#define PETSCWARP_ROWNZ_MAXBLOCKS 32 /* resident blocks per SM (sm_80, sm_90): one-warp blocks of P1 tiles reached only 32 of the 36 warps the registers allow */
int PetscWarpAsmRowNZResidentWarps(size_t fixed, size_t per, size_t smsm, size_t smblk, int regs, int *wpb);

/* geo 2's constants (PetscWarpRowNZ.p1sigma, p1detr) from the tabulation fe (host memory): 0 when fe is P1 on simplices
   (nb == ncv == dim + 1) whose basis functions are the coordinate map's (the same reference derivatives, vertex by
   vertex, at every quadrature point, to 1e-12), else 1 (the closed form does not apply) */
int PetscWarpAsmRowNZSimplexConstants(const PetscWarpFE *fe, double *sigma, double *detr);

/* ---------------- host twin (src/kernels/warpasm_rownz_host.c), host memory ---------------- */
/* coef[cell*cs ...] for every cell (every cell affine, no per-point coefficient) */
int PetscWarpAsmRowNZCoefHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef);
/* val[soff[0] .. soff[ntiles]) from the factors coef and the reference matrices fe->Kaff; coef NULL (fused): each row
   computes the factors of its cells from mesh (the same values, bitwise; rn->geo 2: the closed form, other round-off) */
int PetscWarpAsmRowNZHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val);

/* ---------------- CUDA (src/kernels/warpasm_rownz.cu), device memory; structs in host memory ---------------- */
int PetscWarpAsmRowNZCoefCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double *coef, void *stream);
/* ivert[k*rn->ninc + x] = cv[icell[x]*nv + k] (0 where icell[x] < 0) for the incidences of the device plan rn
   (PetscWarpRowNZ.ivert; ivert: nv * rn->ninc ints) */
int PetscWarpAsmRowNZIncVertsCUDA(const PetscWarpRowNZ *rn, int nv, const int *cv, int *ivert, void *stream);
int PetscWarpAsmRowNZCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpRowNZ *rn, const double *coef, double *val, void *stream);

#if defined(__cplusplus)
}
#endif
