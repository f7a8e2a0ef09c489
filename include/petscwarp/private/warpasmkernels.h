/*
  Finite-element assembly on the device: the C interface of src/kernels/warpasm*.

  No PETSc objects here: only pointers, sizes and a stream. Every function exists twice, a host twin in C
  (src/kernels/warpasm_host.c) and a CUDA version (src/kernels/warpasm.cu) over the same data, so that the host twin is
  the reference in tests and the backend when there is no GPU. The element computation itself is written once, in
  src/kernels/warpasm_elem.h (inline functions for host and device).

  Methods (Cecka, Lew, Darve, seeds/000; atomics: seeds/002):
  - direct (atomic or colored): each element's matrix entries are added into the target's value slots through slot[]
    (atomicAdd, or plain adds when the cells given form one color: no two share a slot);
  - globalnz: element matrices written coalesced to global memory E (one cell after another), then reduced by non-zero
    through a packed reduction array (PetscWarpRed);
  - sharednz: one thread block per part of the rows; the block gathers the vertex coordinates of its element set once
    through a packed scatter array, computes its elements' matrices into shared memory, then reduces each non-zero of
    its rows from shared memory through a packed reduction array and writes it once to global memory.

  Conventions
  - Reference cell: PETSc's ([-1,1]^d, simplices with vertices at -1 and 1). Tabulations come from the PetscFE.
  - Element dofs: nel = nb*nc, interlaced by node: dof a*nc + c is component c of scalar basis function a
    (PETSc's order for a vector Lagrange field). Element matrices are row-major nel x nel.
  - Geometry: x(xi) = sum_k X[cv[cell*ncv+k]] psi_k(xi) with the coordinate basis psi (P1 or Q1: the cell's
    vertices), J = dx/dxi = sum_k X_k (x) grad psi_k at each quadrature point (affine and multilinear cells alike).
  - Integrals: sum_q w[q] detJ_q (...), detJ with its sign (as PETSc).
  - Physics (all element matrices are symmetric, but are computed and stored whole):
      LAPLACE:     A[(a,0),(b,0)] = int K grad phi_b . grad phi_a + shift c phi_a phi_b
                   c = 1, or the value cq[cell*nq + q] at each quadrature point (a state-dependent mass coefficient,
                   e.g. 1/dt - dI_ion/dV of the Aliev-Panfilov model: warpasmapkernels.h)
                   K = kappa I (coef 0), kcell[cell] I (coef 1), or the dim x dim tensor kcell[cell*dim*dim ...]
                   (row-major, coef 2)
      ELASTICITY:  A[(a,c),(b,e)] = int mu (delta_ce grad phi_a . grad phi_b + d_e phi_a d_c phi_b)
                                        + lambda d_c phi_a d_e phi_b + shift delta_ce phi_a phi_b
      load vector: F[(a,c)] = int f[c] phi_a
  - Slots and targets are 32-bit indices into a value array (CSR positions or ELL-WARP slots); -1 drops the entry
    (a constrained dof, as MatSetValues drops negative indices).
  - Packed arrays (reduction and scatter), per thread block b with bs threads: entry r of thread t is
    ent[off[b] + r*bs + t] (column-major: a block reads bs consecutive ints per step). A thread walks its column:
      reduction: e > 0: acc += S[e-1];  e < 0: T[-e-1] = acc, acc = 0;  e == 0: nothing
      scatter:   e > 0: v = the dim coordinates of vertex e-1;  e < 0: coordinate slot -e-1 (in shared memory) = v
    Every target of a reduction array gets exactly one end entry (its value is written, 0 when its list is empty), so a
    reduction needs no zeroing of T beforehand.
*/
#pragma once

#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define PETSCWARP_MAXDIM 3

typedef enum {
  PETSCWARP_PHYS_LAPLACE    = 0,
  PETSCWARP_PHYS_ELASTICITY = 1
} PetscWarpPhysKind;

/* Reference element data, shared by every cell (device memory for the CUDA functions, host memory for the twins) */
typedef struct {
  int           dim;  /* 2 or 3 */
  int           nb;   /* scalar basis functions */
  int           nc;   /* components: 1 (LAPLACE) or dim (ELASTICITY) */
  int           nq;   /* quadrature points */
  int           ncv;  /* coordinate basis functions (3, 4 for triangles, tetrahedra; 4, 8 for quadrilaterals, hexahedra) */
  const double *w;    /* [nq] weights */
  const double *B;    /* [nq*nb] basis values B[q*nb+a] */
  const double *D;    /* [nq*nb*dim] reference derivatives D[(q*nb+a)*dim+d] */
  const double *Dc;   /* [nq*ncv*dim] reference derivatives of the coordinate basis Dc[(q*ncv+k)*dim+d] */
  const double *Kaff; /* NULL, or the affine path's reference matrices of the physics (PetscWarpAsmAffineRefsHost()): every
                         cell of the call is then affine (PetscWarpAsmAffineCellsHost()) and, unless the physics has a
                         per-point mass coefficient (cq), its element matrix is computed as a combination of them */
} PetscWarpFE;

typedef struct {
  int           ncells, nverts;
  const int    *cv; /* [ncells*ncv] cell -> vertex */
  const double *X;  /* [nverts*dim] vertex coordinates */
} PetscWarpMesh;

typedef struct {
  int           kind;  /* PetscWarpPhysKind */
  int           coef;  /* LAPLACE: 0 constant kappa, 1 scalar per cell kcell[cell], 2 tensor per cell */
  double        kappa; /* LAPLACE, coef 0 */
  double        lambda, mu;
  double        shift;               /* mass term */
  double        f[PETSCWARP_MAXDIM]; /* load: f[c] per component */
  const double *kcell;               /* coef 1: [ncells], coef 2: [ncells*dim*dim]; same memory space as the mesh */
  const double *cq;                  /* NULL, or LAPLACE matrices: the mass term at (cell, q) is shift*cq[cell*nq + q] */
  const double *fq;                  /* NULL, or LAPLACE residuals: f + fq[cell*nq + q] at (cell, q) (warpasmreskernels.h) */
} PetscWarpPhys;

/* Packed reduction array (see above): nblocks blocks of bs threads */
typedef struct {
  int        nblocks, bs;
  const int *off; /* [nblocks+1], multiples of bs */
  const int *ent;
} PetscWarpRed;

/* Shared-memory assembly by non-zero: block b owns a part of the rows; its element set (the cells touching those
   rows) is cells[coff[b] .. coff[b+1]), at most maxcells of them. Scatter entries address coordinate slot
   (local cell)*ncv + k; reduction sources are 1 + (local cell)*nel*nel + i*nel + j (shared memory), reduction
   targets are global value slots. */
typedef struct {
  int          nblocks, bs, maxcells;
  const int   *coff, *cells;
  PetscWarpRed scatter, red;
} PetscWarpShared;

/* Return codes of the host twins */
#define PETSCWARP_ASM_OK      0
#define PETSCWARP_ASM_ERR_MEM 1 /* allocation failed */
#define PETSCWARP_ASM_ERR_ARG 2 /* unsupported sizes (dim, nc, nb, nq beyond the compiled limits) */

/* Compiled limits: nb <= PETSCWARP_MAXNB, nq <= PETSCWARP_MAXNQ, ncv <= 8 */
#define PETSCWARP_MAXNB 64
#define PETSCWARP_MAXNQ 128

/* Shared memory (bytes) that sharednz needs per cell of a block, and for the whole block beside the cells */
size_t PetscWarpSharedNZCellBytes(const PetscWarpFE *fe);
size_t PetscWarpSharedNZFixedBytes(const PetscWarpFE *fe, int bs);
/* 0 when (dim, nb, nc, nq, ncv) is supported, else PETSCWARP_ASM_ERR_ARG */
int PetscWarpAsmCheck(const PetscWarpFE *fe, int physkind);

/* ---------------- the affine fast path (src/kernels/warpasm_affine_host.c, host memory) ----------------
   Element matrices of cells whose geometry map is affine and whose coefficients are constant over the cell are linear
   combinations of reference matrices computed once from the tabulation (warpasm_elem.h, PwaAffinePair). */
/* Doubles of the reference matrices of a physics kind: PwaAffineRefs(kind, dim) * nb(nb+1)/2 */
int PetscWarpAsmAffineRefsSize(const PetscWarpFE *fe, int physkind);
/* The reference matrices K[r*npair + p] (PetscWarpAsmAffineRefsSize() doubles) from fe->w, B, D */
int PetscWarpAsmAffineRefsHost(const PetscWarpFE *fe, int physkind, double *K);
/* affine[cell] = 1 where the Jacobian at every quadrature point equals the one at the first within rtol (relative to
   its largest entry; simplices with their ncv = dim + 1 vertices are affine without a check), else 0; *naffine = their
   number */
int PetscWarpAsmAffineCellsHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, double rtol, unsigned char *affine, int *naffine);

/* ---------------- host twin (src/kernels/warpasm_host.c), arrays in host memory ---------------- */
/* Element matrices of the cells cells[0..n) (cells NULL: 0..n-1) into E[k*nel*nel ...] for the k-th cell of the list */
int PetscWarpAsmElemHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, double *E);
/* val[slot[cell*nel*nel + i*nel + j]] += A_cell[i][j] for the listed cells (cells NULL: 0..n-1); slot -1 dropped */
int PetscWarpAsmDirectHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, double *val);
/* T[targets] from the packed reduction array over the source S */
void PetscWarpReduceHost(const PetscWarpRed *red, const double *S, double *T);
/* sharednz, emulating each block (scatter into a block-local buffer, element matrices, reduction) */
int PetscWarpAsmSharedNZHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T);
/* F[rowslot[cell*nel + i]] += F_cell[i] for all cells; rowslot -1 dropped */
int PetscWarpAsmLoadHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const int *rowslot, double *F);

/* ---------------- CUDA (src/kernels/warpasm.cu), arrays in device memory; structs in host memory ---------------- */
/* Return a cudaError_t as int (0 = success) so that this header stays free of CUDA headers. All launches go to stream
   (a cudaStream_t) and none synchronizes. */
int PetscWarpAsmElemCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, double *E, void *stream);
/* atomic != 0: atomicAdd (any cells); atomic == 0: plain adds (the cells must form one color) */
int PetscWarpAsmDirectCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, int n, const int *cells, const int *slot, int atomic, double *val, void *stream);
int PetscWarpReduceCUDA(const PetscWarpRed *red, const double *S, double *T, void *stream);
int PetscWarpAsmSharedNZCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const PetscWarpShared *sh, double *T, void *stream);
int PetscWarpAsmLoadCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, const int *rowslot, double *F, void *stream);
/* Shared memory per block the device allows (opt-in maximum), for sizing sharednz blocks */
int PetscWarpAsmMaxSharedCUDA(size_t *bytes);

/* The globalnz reduction array built on the device (src/kernels/warpasm_plan.cu) from the slots d_slot[nsrc] (device
   memory; -1 dropped) of the sources into ntargets targets, blocks of tpb targets, bs threads: bitwise the arrays of
   the host's PetscWarpPlanReduction(). On return 0 and *status PETSCWARP_REDPLAN_OK, red->off [nblocks+1] and red->ent
   [*nent] are new device allocations (cudaFree); otherwise none is left allocated. Synchronizes stream. */
#define PETSCWARP_REDPLAN_OK       0
#define PETSCWARP_REDPLAN_BAD_SLOT 1 /* *bad: the first source whose slot is >= ntargets */
#define PETSCWARP_REDPLAN_TOO_MANY 2 /* the array would need 2^31 entries or more */
#define PETSCWARP_REDPLAN_TOO_LONG 3 /* a block's lists need more shared memory than the device has: build on the host */
#define PETSCWARP_REDPLAN_CLASH    4 /* (sharednz) *bad: a target reached from the rows of two blocks */
/* Slots on the device (warpasm_plan.cu): d_slot[src] for the element entries src = (cell*nel + i)*nel + j of the map
   d_e2d [ncells*nel] (negative: dropped) in the CSR pattern d_rowptr, d_colidx (rows sorted), through d_pos2slot (or
   NULL: the identity): bitwise the host's PetscWarpPlanSlotsMapped(). All arrays in device memory. Synchronizes. */
#define PETSCWARP_PLANSLOTS_OK        0
#define PETSCWARP_PLANSLOTS_BAD_INDEX 1 /* *bad: the first position of e2d with an index not below nrows or ncols */
#define PETSCWARP_PLANSLOTS_UNSORTED  2 /* a pattern row not sorted or a column out of range: use the host */
#define PETSCWARP_PLANSLOTS_MISSING   3 /* *bad: an element entry whose column is not in its row (the smallest) */
#define PETSCWARP_PLANSLOTS_TOO_MANY  4 /* (pattern) 2^31 entries or more */
int PetscWarpPlanSlotsCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_pos2slot, int ncells, int nel, const int *d_e2d, int *d_slot, int *status, long long *bad, void *stream);
/* The pattern of the element map on the device (warpasm_plan.cu): *d_rowptr [nrows+1] and *d_colidx [*nnz], new device
   allocations, bitwise the host's PetscWarpPlanPattern() (adddiag: the diagonal of the leading min(nrows, ncols) rows);
   *status PETSCWARP_PLANSLOTS_BAD_INDEX (an index not below min(nrows, ncols): *bad its position) or _TOO_MANY, with
   nothing allocated */
int PetscWarpPlanPatternCUDA(int nrows, int ncols, int ncells, int nel, const int *d_e2d, int adddiag, int **d_rowptr, int **d_colidx, long long *nnz, int *status, long long *bad, void *stream);
int PetscWarpPlanReductionCUDA(long long nsrc, const int *d_slot, int ntargets, int bs, int tpb, PetscWarpRed *red, long long *nent, int *status, long long *bad, void *stream);
/* The sharednz reduction array on the device (warpasm_plan.cu), bitwise the host's PetscWarpPlanSharedNZReduction():
   element map d_e2d [ncells*nel], slots d_slot (targets below ntargets), the block of each row d_rblk, the blocks'
   sorted element sets d_coff [nblocks+1], d_cells; statuses and allocations as PetscWarpPlanReductionCUDA() (*bad: the
   source of a slot >= ntargets, or the target of PETSCWARP_REDPLAN_CLASH). Synchronizes stream. */
int PetscWarpPlanSharedNZReductionCUDA(int ncells, int nel, const int *d_e2d, const int *d_slot, int ntargets, const int *d_rblk, const int *d_coff, const int *d_cells, int nblocks, int bs, PetscWarpRed *red, long long *nent, int *status, long long *bad, void *stream);

#if defined(__cplusplus)
}
#endif
