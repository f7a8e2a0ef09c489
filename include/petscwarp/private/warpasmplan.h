/*
  Assembly plans (src/mat/assembly/warpasmplan.c): the host-side symbolic work done once per (mesh, dof layout, target
  matrix), producing the arrays the kernels of warpasmkernels.h consume. Host memory, PetscMalloc'd, freed with
  PetscWarpPlan*Destroy(). Element entries are numbered src = cell*nel*nel + i*nel + j; e2d[cell*nel + i] is the row
  (= column) index of element dof i in the block being assembled, negative when dropped.
*/
#pragma once

#include <petscwarp.h>
#include <petscwarp/private/warpasmkernels.h>
#include <petscwarp/private/warpasmrownzkernels.h>

/* A packed reduction or scatter array in host memory (see warpasmkernels.h for the format) */
typedef struct {
  PetscInt nblocks, bs;
  int     *off; /* [nblocks+1] */
  int     *ent; /* [off[nblocks]] */
} PetscWarpRedHost;

typedef struct {
  PetscInt         nblocks, bs, maxcells;
  int             *coff, *cells; /* [nblocks+1], [coff[nblocks]] */
  PetscWarpRedHost scatter, red;
  PetscInt         nparts_tried; /* partitions attempted before every element set fitted */
  PetscReal        redundancy;   /* sum over blocks of cells / number of cells (element computations per element) */
  PetscInt         nrows;        /* rows of the partition */
  int             *rblk;         /* [nrows]: the block of each row (-1: in no cell), until the reduction array is built */
} PetscWarpSharedHost;

/* Symbolic assembly: the CSR pattern (rows 0..nrows-1, sorted unique columns 0..ncols-1) of the matrix the elements
   assemble into; a row with no entry keeps none (the caller may add the diagonal: adddiag) */
PETSC_EXTERN PetscErrorCode PetscWarpPlanPattern(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool adddiag, PetscInt **rowptr, PetscInt **colidx);

/* slot[src] = CSR position of element entry src in the pattern (rowptr, colidx), -1 when row or column is dropped.
   Errors: PETSC_ERR_ARG_OUTOFRANGE for an index >= nrows/ncols, PETSC_ERR_ARG_INCOMP for an entry missing from the
   pattern. */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSlots(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **slot);

/* The same with the CSR positions mapped through pos2slot (CSR position -> target slot, e.g. ELL-WARP's inverse map;
   NULL: the identity): PetscWarpPlanSlots() then PetscWarpPlanRemap() in one pass */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSlotsMapped(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **slot);

/* Map slot[] (CSR positions) through pos2slot (CSR position -> target slot, e.g. ELL-WARP's inverse map), in place */
PETSC_EXTERN PetscErrorCode PetscWarpPlanRemap(PetscCount n, int slot[], const int pos2slot[]);

/* True when two entries of one element share a slot (a dof repeated in a closure, e.g. a periodic mesh): plain adds of
   one color would race */
PETSC_EXTERN PetscErrorCode PetscWarpPlanHasRepeatedSlots(PetscInt ncells, PetscInt nel, const int slot[], PetscBool *repeated);

/* The same from the element map: a cell that repeats a dof (row index >= 0) repeats slots, and only such a cell does */
PETSC_EXTERN PetscErrorCode PetscWarpPlanHasRepeatedDofs(PetscInt nrows, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool *repeated);

/* Balanced greedy element coloring: no two cells of one color share a dof (row index >= 0); each cell takes, among
   the colors its neighbours do not use, the one used least so far. cells[coff[k] .. coff[k+1]) have color k. */
PETSC_EXTERN PetscErrorCode PetscWarpPlanColor(PetscInt nrows, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt *ncolors, int **coff, int **cells);

/* Packed reduction array over sources 0..nsrc-1 into targets 0..ntargets-1: target t sums the sources s with
   slot[s] == t. Blocks cover consecutive ranges of tpb targets; within a block the lists are packed into bs columns by
   LPT (longest list first, onto the least-loaded thread). Every target gets an end entry. */
PETSC_EXTERN PetscErrorCode PetscWarpPlanReduction(PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscWarpRedHost *red);
PETSC_EXTERN PetscErrorCode PetscWarpRedHostDestroy(PetscWarpRedHost *red);
/* The same arrays built on the device from the same slots (warpasm.c; src/kernels/warpasm_plan.cu): device arrays
   into d and/or a host copy into h; *built PETSC_FALSE when the lists are too long for the device's shared memory */
/* The CSR of PetscWarpPlanPattern() computed on the device (warpasm.c), downloaded; *built PETSC_FALSE when the device
   cannot (64-bit PetscInt, not enough device memory) */
PETSC_EXTERN PetscErrorCode PetscWarpPlanPatternDevice(PetscInt nrows, PetscInt ncols, PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscBool adddiag, PetscInt **rowptr, PetscInt **colidx, PetscBool *built);
/* The slots of PetscWarpPlanSlotsMapped() computed on the device (warpasm.c): device array into d_slot and/or a host
   copy into h_slot; *built PETSC_FALSE when the device cannot (64-bit PetscInt, unsorted pattern rows) */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSlotsDevice(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], int **d_slot, int **h_slot, PetscBool *built);
PETSC_EXTERN PetscErrorCode PetscWarpPlanReductionDevice(PetscCount nsrc, const int slot[], PetscInt ntargets, PetscInt bs, PetscInt tpb, PetscWarpRed *d, PetscWarpRedHost *h, PetscBool *built);

/* Shared-memory assembly by non-zero: partition the rows (breadth-first balls over the pattern's graph, METIS on it,
   or consecutive ranges: see PetscWarpSharedNZPartitioner) into parts whose element sets have at most maxcells cells, increasing the number of parts
   until all fit; then per part the element set, the scatter array of vertex coordinates (cv: cell -> vertex, ncv per
   cell) and the reduction array from the element matrices in shared memory into the target slots of the part's rows
   (slot: element entry -> target, as from PetscWarpPlanSlots/Remap). Rows are 0..nrows-1 with CSR pattern rowptr
   (only its row lengths and adjacency are used). Errors (PETSC_ERR_SUP) when a single cell cannot fit (maxcells < 1)
   or no partition fits. Only the targets that element entries reach are written: positions of the pattern that no
   element entry reaches keep their values (zero them once, if the pattern has such positions). */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSharedNZ(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt ncv, const int cv[], const int slot[], PetscInt maxcells, PetscInt bs, PetscWarpSharedNZPartitioner partitioner, PetscWarpSharedHost *sh);
/* The same, but when the partition computes the elements more than maxred times over (redundancy), only the
   redundancy, nblocks, maxcells and nparts_tried are set, no arrays: the caller assembles otherwise. With slot NULL, the
   slots are not needed before the redundancy is known: everything but the reduction array, and sh->rblk (row -> block)
   from which PetscWarpPlanSharedNZReduction() or PetscWarpPlanSharedNZReductionDevice() builds it. */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSharedNZLimit(PetscInt nrows, const PetscInt rowptr[], const PetscInt colidx[], PetscInt ncells, PetscInt nel, const PetscInt e2d[], PetscInt ncv, const int cv[], const int slot[], PetscInt maxcells, PetscInt bs, PetscWarpSharedNZPartitioner partitioner, PetscReal maxred, PetscWarpSharedHost *sh);
/* The reduction array of blocks planned with slot NULL (sh->rblk set), from the slots; sh->rblk freed. Errors:
   PETSC_ERR_ARG_INCOMP when a target is reached from the rows of two blocks. */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSharedNZReduction(PetscInt ncells, PetscInt nel, const PetscInt e2d[], const int slot[], PetscWarpSharedHost *sh);
/* The same array built on the device (warpasm.c; src/kernels/warpasm_plan.cu) from device slots d_slot (NULL: the host
   slots slot uploaded; targets below ntargets): device arrays into d and/or a host copy into h, their entries in nent
   (sh->red itself is left empty, sh->rblk freed once built); *built PETSC_FALSE when the blocks' packing scratch would
   exceed 1 GB of device memory (sh unchanged: build on the host) */
PETSC_EXTERN PetscErrorCode PetscWarpPlanSharedNZReductionDevice(PetscInt ncells, PetscInt nel, const PetscInt e2d[], const int slot[], const int *d_slot, PetscInt ntargets, PetscWarpSharedHost *sh, PetscWarpRed *d, PetscWarpRedHost *h, PetscCount *nent, PetscBool *built);
PETSC_EXTERN PetscErrorCode PetscWarpSharedHostDestroy(PetscWarpSharedHost *sh);

/* The rownz plan (assembly by row with recomputation; warpasmrownzkernels.h for the format), host memory */
typedef struct {
  PetscInt        ntiles, nel, maxslots, maxrow, nrows; /* maxrow: longest row; nrows: rows served by a lane */
  PetscCount      ninc;                                 /* incidence entries, padding included (ioff[ntiles]) */
  PetscBool       wide;
  int             ssh;
  int            *soff, *ioff, *lbase, *icell;
  unsigned char  *lsh, *iloc, *kpos8, *nlane;
  unsigned short *kpos16;
  PetscInt        tileslots; /* the tiles' slot cap used */
  int             warps;     /* predicted resident warps per SM (PetscWarpAsmRowNZResidentWarps()) */
  PetscReal       lanes;     /* predicted resident rows per SM: warps times the mean rows served per tile */
} PetscWarpRowNZHost;

/* How PetscWarpPlanRowNZ() cuts tiles, and the occupancy model it predicts with */
typedef struct {
  PetscInt tileslots;   /* > 0: a tile closes before its slots exceed this (unless it holds one group); 0: the model's
                           choice among 4096, 2048, 1024, 512, 256 */
  size_t   fixed;       /* shared bytes per block besides the tiles (the reference matrices) */
  size_t   smsm, smblk; /* shared memory per SM and per block (0: the H100's) */
  int      regs;        /* registers per thread of the kernel (0: no register limit below 64 warps per SM) */
} PetscWarpRowNZTiling;

#define PETSCWARP_ROWNZ_H100_SMSM  233472 /* H100 (sm_90): cudaDevAttrMaxSharedMemoryPerMultiprocessor */
#define PETSCWARP_ROWNZ_H100_SMBLK 232448 /* H100 (sm_90): cudaDevAttrMaxSharedMemoryPerBlockOptin */

/* The rownz plan of the elements e2d (ncells x nel, negative: dropped) into the pattern (rowptr, colidx) of nrows rows
   and ncols columns whose values are nslots slots, CSR position p -> slot pos2slot[p] (NULL: the CSR positions
   themselves). Groups: a CSR row, or the rows of one 32-aligned slot range of a mapped target (an ELL-WARP warp, or
   the ranges of a row split over several); tiles: consecutive groups, at most 32 rows, closing before their slots
   exceed tiling->tileslots unless they hold one group (the cap chosen by the occupancy model when 0: rn->tileslots,
   rn->warps, rn->lanes). Tiles partition [0, nslots): every slot is written once. When the target's layout cannot be
   served (more than 32 rows in one range, rows whose local positions exceed 16 bits), *why says so and rn is empty:
   the caller assembles otherwise. Errors as PetscWarpPlanSlots() (PETSC_ERR_ARG_OUTOFRANGE, PETSC_ERR_ARG_INCOMP). */
PETSC_EXTERN PetscErrorCode PetscWarpPlanRowNZ(PetscInt nrows, PetscInt ncols, const PetscInt rowptr[], const PetscInt colidx[], const int pos2slot[], PetscInt nslots, PetscInt ncells, PetscInt nel, const PetscInt e2d[], const PetscWarpRowNZTiling *tiling, PetscWarpRowNZHost *rn, const char **why);
PETSC_EXTERN PetscErrorCode PetscWarpRowNZHostDestroy(PetscWarpRowNZHost *rn);
PETSC_EXTERN PetscLogDouble PetscWarpRowNZHostBytes(const PetscWarpRowNZHost *rn);
/* The kernel layer's view of a host plan */
PETSC_EXTERN PetscWarpRowNZ PetscWarpRowNZHostView(const PetscWarpRowNZHost *rn);

/* Bytes of a plan's arrays (for MatView / -info) */
PETSC_EXTERN PetscLogDouble PetscWarpRedHostBytes(const PetscWarpRedHost *red);
PETSC_EXTERN PetscLogDouble PetscWarpSharedHostBytes(const PetscWarpSharedHost *sh);
