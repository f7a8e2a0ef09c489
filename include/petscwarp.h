/*
  petscwarp: GPU sparse formats and finite-element assembly for PETSc.

  Public interface. Programs that link libpetscwarp call PetscWarpInitializePackage() (or rely on the lazy call of any
  entry point); unmodified PETSc programs get the types with -dll_append <path>/libpetscwarp.so.
*/
#pragma once

#include <petscmat.h>
#include <petscksp.h>

#define PETSCWARP_VERSION_MAJOR 0
#define PETSCWARP_VERSION_MINOR 1

/*MC
  MATELLWARP - MATELLWARP = "ellwarp" - A matrix type for sparse matrix-vector products in the ELL-WARP format
  (Wong, Kuhl and Darve, 2015): rows sorted by length, slices of 32 rows (one warp) padded only to the slice's longest
  row, stored column-major inside a slice.

  This matrix type is identical to `MATSEQAIJELLWARP` when constructed with a single process communicator, and
  `MATMPIAIJELLWARP` otherwise.

  Options Database Keys:
+ -mat_type ellwarp                              - sets the matrix type to `MATELLWARP` during a call to `MatSetFromOptions()`
. -mat_ellwarp_backend <host,cuda>               - where the products run (default: cuda when PETSc has CUDA and a device is present)
. -mat_ellwarp_kernel <auto,k1,k2>               - the product kernel (default: auto)
. -mat_ellwarp_threshold <t>                     - K2: most entries per lane before a row is split over several lanes
. -mat_ellwarp_block_size <bs>                   - threads per CUDA block (multiple of 32)
. -mat_ellwarp_index <auto,32,16,block,block16>  - how column indices are stored (`MatEllWarpIndex`; default: auto: block16 for blocked patterns, 16 where at least half the slices fit, else 32)
. -mat_ellwarp_kc_variant <v>                    - load schedule of the device products, 0..3 (-1: the default, 1 for 16-bit/block layouts and 0 for 32-bit columns; issue 9: 1..3 load batches of columns and values per lane before using them)
- -mat_ellwarp_reorder <none,rcm,nd,...>         - a locality ordering (`MatOrderingType`) of the rows inside the format

  Level: beginner

  Notes:
  The type derives from `MATSEQAIJ` / `MATMPIAIJ`: every operation of AIJ works, on the host copy of the values, and
  `MatMult()`, `MatMultAdd()`, `MatMultTranspose()`, `MatMultTransposeAdd()` and `MatGetDiagonal()` run in the ELL-WARP
  layout. The layout is rebuilt when the nonzero pattern changes and only refreshed (one device gather) when only the
  values change.

.seealso: [](ch_matrices), `Mat`, `MATSEQAIJELLWARP`, `MATMPIAIJELLWARP`, `MatCreateSeqAIJEllWarp()`, `MATAIJCUSPARSE`, `MATSELLCUDA`
M*/
#define MATELLWARP       "ellwarp"
#define MATSEQAIJELLWARP "seqaijellwarp"
#define MATMPIAIJELLWARP "mpiaijellwarp"

/*E
  MatEllWarpBackend - Where the products of a `MATELLWARP` matrix run

$ MAT_ELLWARP_BACKEND_HOST - the host twin of the kernels, over the same layout
$ MAT_ELLWARP_BACKEND_CUDA - the CUDA kernels

  Level: intermediate

.seealso: [](ch_matrices), `MATELLWARP`, `MatEllWarpSetBackend()`
E*/
typedef enum {
  MAT_ELLWARP_BACKEND_HOST,
  MAT_ELLWARP_BACKEND_CUDA
} MatEllWarpBackend;
PETSC_EXTERN const char *const MatEllWarpBackends[];

/*E
  MatEllWarpKernel - The product kernel of a `MATELLWARP` matrix

$ MAT_ELLWARP_KERNEL_AUTO - chosen from the row-length histogram
$ MAT_ELLWARP_KERNEL_K1   - one thread per row, one warp per slice of 32 rows
$ MAT_ELLWARP_KERNEL_K2   - rows longer than the threshold are split over 2, 4, ..., 32 lanes of a warp

  Level: intermediate

.seealso: [](ch_matrices), `MATELLWARP`, `MatEllWarpSetKernel()`
E*/
typedef enum {
  MAT_ELLWARP_KERNEL_AUTO,
  MAT_ELLWARP_KERNEL_K1,
  MAT_ELLWARP_KERNEL_K2
} MatEllWarpKernel;
PETSC_EXTERN const char *const MatEllWarpKernels[];

/*E
  MatEllWarpIndex - How a `MATELLWARP` layout stores its column indices (`-mat_ellwarp_index`)

$ MAT_ELLWARP_INDEX_AUTO    - block16 for a blocked pattern with block size 2..8, else 16 when the columns of at least
$                             half the slices fit 16-bit offsets, else 32
$ MAT_ELLWARP_INDEX_32      - one 32-bit column per entry (the paper's layout)
$ MAT_ELLWARP_INDEX_16      - per slice, 16-bit offsets from a base column where the slice's columns span at most 65536,
$                             else (that slice only) 32-bit columns
$ MAT_ELLWARP_INDEX_BLOCK   - one 32-bit column index per block of bs consecutive columns (bs: the column block size of
$                             the matrix, `MatSetBlockSize()`), when every row's columns are whole aligned blocks
$ MAT_ELLWARP_INDEX_BLOCK16 - both: one index per block, 16-bit offsets where they fit

  Level: intermediate

  Note:
  A forced block layout on a pattern that is not blocked (or bs = 1 or bs > 8) uses one index per entry instead
  (`-info` says so); `MatEllWarpGetInfo()` reports the layout in use.

.seealso: [](ch_matrices), `MATELLWARP`, `MatEllWarpGetInfo()`
E*/
typedef enum {
  MAT_ELLWARP_INDEX_AUTO,
  MAT_ELLWARP_INDEX_32,
  MAT_ELLWARP_INDEX_16,
  MAT_ELLWARP_INDEX_BLOCK,
  MAT_ELLWARP_INDEX_BLOCK16
} MatEllWarpIndex;
PETSC_EXTERN const char *const MatEllWarpIndices[];

/*S
  MatEllWarpInfo - Statistics of the ELL-WARP layout of a matrix, from `MatEllWarpGetInfo()`

  Level: intermediate

.seealso: [](ch_matrices), `MATELLWARP`, `MatEllWarpGetInfo()`
S*/
typedef struct {
  MatEllWarpBackend backend;
  MatEllWarpKernel  kernel;              /* the kernel in use (K1 or K2) */
  PetscInt          threshold;           /* in use; 0 for K1 */
  PetscInt          block_size;          /* threads per CUDA block */
  PetscInt          nwarps;              /* slices */
  PetscInt          nnz;                 /* entries */
  PetscInt          nslots;              /* stored slots, padding included */
  PetscInt          maxwidth;            /* widest slice, in slots per lane */
  PetscReal         padding;             /* nslots / nnz (1 = no padding) */
  PetscLogDouble    bytes;               /* bytes of the layout (values, columns, offsets, permutation, maps) */
  PetscLogDouble    build_time;          /* seconds of the last build of the layout (on the device for the CUDA backend) */
  PetscLogDouble    upload_time;         /* seconds of the upload of the CSR indices before it (CUDA backend) */
  char              reorder[64];         /* locality ordering applied, "none" for none */
  PetscLogDouble    refresh_time;        /* seconds of the last value refresh's gather into the layout (device time for CUDA) */
  PetscLogDouble    refresh_upload_time; /* seconds of the upload of the host values that preceded it (CUDA backend) */
  PetscInt          nbuilds, nrefreshes; /* layout builds and value refreshes so far */
  PetscInt          nproducts;           /* products run in the layout so far */
  PetscBool         sorted_rows;         /* the rows are already in the layout's order (a matrix permuted with
                                            MatEllWarpGetRowPermutation(), the Kr/Krs form): products store y coalesced */
  PetscInt          window;              /* rows sorted by length within windows of this many rows; 0: one global sort */
  PetscReal         bytes_per_nnz;       /* bytes of the layout a product reads per nonzero (values, columns, slice offsets,
                                            permutation; x and y not counted; CSR: 12 plus its row pointer) */
  MatEllWarpIndex   index;               /* column indices in use: MAT_ELLWARP_INDEX_32, _16, _BLOCK or _BLOCK16 */
  PetscInt          index_unit;          /* columns per stored column index (the block size of a block layout, else 1) */
  PetscReal         narrow_fraction;     /* fraction of the slices whose column indices are 16-bit offsets */
  PetscReal         bytes_per_nnz_32;    /* bytes per nonzero the same slots would read with a 32-bit column per entry */
  PetscInt          kc_variant;          /* load schedule of the device products in use (-mat_ellwarp_kc_variant, 0..3) */
} MatEllWarpInfo;

PETSC_EXTERN PetscErrorCode PetscWarpInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscWarpFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscWarpDeviceAvailable(PetscBool *);

PETSC_EXTERN PetscErrorCode MatCreateSeqAIJEllWarp(MPI_Comm, PetscInt, PetscInt, PetscInt, const PetscInt[], Mat *);
PETSC_EXTERN PetscErrorCode MatCreateAIJEllWarp(MPI_Comm, PetscInt, PetscInt, PetscInt, PetscInt, PetscInt, const PetscInt[], PetscInt, const PetscInt[], Mat *);
PETSC_EXTERN PetscErrorCode MatEllWarpSetBackend(Mat, MatEllWarpBackend);
PETSC_EXTERN PetscErrorCode MatEllWarpGetBackend(Mat, MatEllWarpBackend *);
PETSC_EXTERN PetscErrorCode MatEllWarpSetKernel(Mat, MatEllWarpKernel, PetscInt);
PETSC_EXTERN PetscErrorCode MatEllWarpSetBlockSize(Mat, PetscInt);
PETSC_EXTERN PetscErrorCode MatEllWarpSetReorder(Mat, MatOrderingType);
PETSC_EXTERN PetscErrorCode MatEllWarpGetInfo(Mat, MatEllWarpInfo *);
PETSC_EXTERN PetscErrorCode MatEllWarpGetRowPermutation(Mat, IS *);

/* PCELLWARPPERM: see its man page in src/ksp/pc/impls/ellwarpperm/ellwarpperm.c */
#define PCELLWARPPERM "ellwarpperm"
PETSC_EXTERN PetscErrorCode PCEllWarpPermGetKSP(PC, KSP *);

/* PCGAMGWARP: a PCGAMGType, smoothed aggregation set up on the device (PCGAMGSetType(), -pc_gamg_type warp); see its
   man page in src/ksp/pc/impls/gamgwarp/gamgwarp.c */
#define PCGAMGWARP "warp"

/* KSPCGWARP: see its man page in src/ksp/ksp/impls/cgwarp/cgwarp.c */
#define KSPCGWARP "cgwarp"
PETSC_EXTERN PetscErrorCode KSPCGWarpSetCheckEvery(KSP, PetscInt);
PETSC_EXTERN PetscErrorCode KSPCGWarpGetCheckEvery(KSP, PetscInt *);

/* ------------------------------------------------------------------------------------------------------------------
   GPU finite-element assembly
   ------------------------------------------------------------------------------------------------------------------ */

/*MC
  MATSHAREDNZ - MATSHAREDNZ = "sharednz" - An AIJ matrix in cuSPARSE CSR (`MATAIJCUSPARSE`) whose values are assembled
  on the device by a `PetscWarpAsm` (by default with the shared-memory assembly by non-zero of Cecka, Lew and Darve).

  Creating one gives a `MATSEQAIJCUSPARSE` matrix (`MatGetType()` says so: PETSc's cuSPARSE accessors require that
  exact type) marked as `MATSHAREDNZ`; without a CUDA device, a `MATSEQAIJ` matrix filled by the host twins of the
  assembly kernels. On several MPI ranks, a `MATMPIAIJCUSPARSE` (`MATMPIAIJ` without a device) matrix marked the same
  way, which `PetscWarpAsm` fills through its `MatSetValuesCOO()` (each rank its own cells; no staged reassembly).

  Options Database Keys:
+ -mat_type sharednz              - sets the matrix type during `MatSetFromOptions()`
- -mat_warp_assembly <strategy>   - the strategy of a `PetscWarpAsm` assembling it (default: sharednz)

  Level: beginner

  Notes:
  Everything that works with `MATAIJCUSPARSE` works with it; after a device assembly the device copy of the values is
  the only current one and PETSc's offload mask pulls them to the host on the first host read.

.seealso: [](ch_matrices), `Mat`, `PetscWarpAsm`, `PetscWarpAsmAssembleMatrix()`, `MATELLWARP`, `MATAIJCUSPARSE`
M*/
#define MATSHAREDNZ "sharednz"

/*S
  PetscWarpAsm - Assembles finite-element matrices and load vectors on the device (or with the host twins of its
  kernels) from an element-to-dof map, the mesh's vertex coordinates, the reference tabulation of a Lagrange element
  and a built-in physics, into the values of a `MATELLWARP`, `MATSHAREDNZ` or `MATAIJCUSPARSE` matrix.

  Level: intermediate

.seealso: `PetscWarpAsmCreate()`, `DMPlexWarpAsmCreate()`, `PetscWarpAsmAssembleMatrix()`, `PetscWarpAsmStrategy`
S*/
typedef struct _p_PetscWarpAsm *PetscWarpAsm;
PETSC_EXTERN PetscClassId       PETSCWARPASM_CLASSID;

/*E
  PetscWarpAsmStrategy - How element matrices are reduced into the matrix

$ PETSCWARP_ASM_SHAREDNZ - rows partitioned into blocks whose elements fit in shared memory; per block the
$                          element matrices are computed into shared memory and each non-zero is reduced by one thread
$ PETSCWARP_ASM_GLOBALNZ - element matrices written to global memory, then reduced by non-zero
$ PETSCWARP_ASM_COLOR    - balanced greedy element coloring, one launch per color, direct accumulation
$ PETSCWARP_ASM_ATOMIC   - direct atomicAdd into the value slots
$ PETSCWARP_ASM_COO      - element matrices handed to `MatSetValuesCOO()` (PETSc's own device path)
$ PETSCWARP_ASM_ROWNZ    - assembly by row with recomputation (Cecka, Lew and Darve: "assemble by row, computing
$                          element data as needed"): each row gathers the rows of the element matrices of its
$                          incident cells, computed from the affine path's reference matrices, and writes each value
$                          once; no element matrices, no atomics, bitwise reproducible

  Level: intermediate

  Note:
  `PETSCWARP_ASM_ROWNZ` needs the affine path for every cell (`PetscWarpAsmSetAffine()`: simplices, parallelogram and
  parallelepiped cells; no per-point mass coefficient; reference matrices within 32 KB, i.e. P1-P3 simplices, Q1-Q2
  cells) and a target whose slots of a row are base + 32 (k / L) + k % L (CSR; ELL-WARP unless blocked with several
  lanes per row). Otherwise its plan runs `PETSCWARP_ASM_ATOMIC`, `-info` says why and `PetscWarpAsmGetInfo()`
  (`used`) and `PetscWarpAsmView()` report it. On several ranks every strategy runs `PETSCWARP_ASM_COO`.

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetStrategy()`
E*/
typedef enum {
  PETSCWARP_ASM_SHAREDNZ,
  PETSCWARP_ASM_GLOBALNZ,
  PETSCWARP_ASM_COLOR,
  PETSCWARP_ASM_ATOMIC,
  PETSCWARP_ASM_COO,
  PETSCWARP_ASM_ROWNZ /* appended: the values of the others stay */
} PetscWarpAsmStrategy;
PETSC_EXTERN const char *const PetscWarpAsmStrategies[];

/*E
  PetscWarpSharedNZPartitioner - How the `PETSCWARP_ASM_SHAREDNZ` strategy partitions the rows into blocks whose element
  sets fit in shared memory

$ PETSCWARP_SHAREDNZ_BALLS  - breadth-first balls grown over the pattern's graph until the next row's cells would not
$                             fit (linear time; the default)
$ PETSCWARP_SHAREDNZ_METIS  - METIS k-way partitions of the pattern's graph, more parts until they fit (the method of
$                             Cecka, Lew and Darve; seconds to minutes at 0.5 M rows)
$ PETSCWARP_SHAREDNZ_RANGES - consecutive ranges of rows in the matrix's numbering

  Level: advanced

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetSharedNZ()`, `PETSCWARP_ASM_SHAREDNZ`
E*/
typedef enum {
  PETSCWARP_SHAREDNZ_BALLS,
  PETSCWARP_SHAREDNZ_METIS,
  PETSCWARP_SHAREDNZ_RANGES
} PetscWarpSharedNZPartitioner;
PETSC_EXTERN const char *const PetscWarpSharedNZPartitioners[];

/*E
  PetscWarpPhysics - The built-in physics of a `PetscWarpAsm`

$ PETSCWARP_PHYSICS_LAPLACE    - int K grad u . grad v (+ shift u v); K constant, per cell, or a tensor per cell
$ PETSCWARP_PHYSICS_ELASTICITY - isotropic linear elasticity with Lame parameters lambda, mu (+ shift u . v)

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmSetLaplace()`, `PetscWarpAsmSetElasticity()`
E*/
typedef enum {
  PETSCWARP_PHYSICS_LAPLACE,
  PETSCWARP_PHYSICS_ELASTICITY
} PetscWarpPhysics;

/*E
  PetscWarpCoefficient - The kind of coefficient of `PETSCWARP_PHYSICS_LAPLACE`

$ PETSCWARP_COEF_CONSTANT - one value kappa
$ PETSCWARP_COEF_CELL     - one value per cell
$ PETSCWARP_COEF_TENSOR   - a dim x dim tensor per cell (row-major, symmetric)

  Level: intermediate

.seealso: `PetscWarpAsmSetLaplace()`
E*/
typedef enum {
  PETSCWARP_COEF_CONSTANT,
  PETSCWARP_COEF_CELL,
  PETSCWARP_COEF_TENSOR
} PetscWarpCoefficient;

/*S
  PetscWarpAsmInfo - Costs and sizes of a `PetscWarpAsm`, from `PetscWarpAsmGetInfo()`

  Level: intermediate

.seealso: `PetscWarpAsm`, `PetscWarpAsmGetInfo()`
S*/
typedef struct {
  PetscWarpAsmStrategy strategy;      /* the strategy asked for */
  PetscWarpAsmStrategy used;          /* the strategy the plan runs (sharednz falls back to globalnz, rownz to atomic) */
  PetscBool            device;        /* the last assembly ran on the device */
  PetscInt             ncells, nel;   /* cells, element dofs */
  PetscInt             nrows, nnz;    /* of the target */
  PetscInt             ncolors;       /* color */
  PetscInt             nblocks;       /* sharednz: parts (thread blocks); globalnz: reduction blocks */
  PetscInt             maxcells;      /* sharednz: most cells of a block */
  PetscReal            redundancy;    /* sharednz: element computations per element */
  PetscLogDouble       plan_bytes;    /* memory of the plan (device or host) */
  PetscLogDouble       setup_time;    /* seconds of the last plan set-up */
  PetscLogDouble       assembly_time; /* seconds of the last assembly (device time for the CUDA backend) */
  PetscInt             nassemblies;
  PetscBool            affine;      /* the affine fast path is on (`PetscWarpAsmSetAffine()`) */
  PetscInt             naffine;     /* cells whose geometry map is affine (-1: not computed yet, or the path is off) */
  PetscInt             affine_last; /* cells of the last assembly computed by the affine path */
} PetscWarpAsmInfo;

PETSC_EXTERN PetscErrorCode PetscWarpAsmCreate(MPI_Comm, PetscWarpAsm *);
PETSC_EXTERN PetscErrorCode PetscWarpAsmDestroy(PetscWarpAsm *);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetFromOptions(PetscWarpAsm);
PETSC_EXTERN PetscErrorCode PetscWarpAsmView(PetscWarpAsm, PetscViewer);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetElements(PetscWarpAsm, PetscInt, PetscInt, PetscInt, PetscInt, const PetscInt[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetMesh(PetscWarpAsm, PetscInt, PetscInt, const PetscReal[], PetscInt, const PetscInt[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetReference(PetscWarpAsm, PetscInt, PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetLaplace(PetscWarpAsm, PetscWarpCoefficient, PetscReal, const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetElasticity(PetscWarpAsm, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetShift(PetscWarpAsm, PetscReal);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetSource(PetscWarpAsm, const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetStrategy(PetscWarpAsm, PetscWarpAsmStrategy);
PETSC_EXTERN PetscErrorCode PetscWarpAsmGetStrategy(PetscWarpAsm, PetscWarpAsmStrategy *);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetSharedNZ(PetscWarpAsm, PetscWarpSharedNZPartitioner, PetscInt, PetscInt, PetscReal);
PETSC_EXTERN PetscErrorCode PetscWarpAsmCreateMatrix(PetscWarpAsm, MatType, Mat *);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAssembleMatrix(PetscWarpAsm, Mat);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetUpMatrix(PetscWarpAsm, Mat);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAssembleElementMatrices(PetscWarpAsm, const PetscScalar[], Mat);
PETSC_EXTERN PetscErrorCode PetscWarpAsmComputeElementMatrices(PetscWarpAsm, PetscScalar[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAssembleVector(PetscWarpAsm, Vec);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetLocalElements(PetscWarpAsm, PetscInt, const PetscInt[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmComputeResidualLocal(PetscWarpAsm, Vec, Vec, PetscReal, Vec);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetBoundaryFluxes(PetscWarpAsm, PetscInt, const PetscInt[], const PetscInt[], const PetscReal[], PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmGetInfo(PetscWarpAsm, PetscWarpAsmInfo *);
/* the Aliev-Panfilov monodomain model (parameters: include/petscwarp/alievpanfilov.h) */
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetAlievPanfilov(PetscWarpAsm, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPSetStep(PetscWarpAsm, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPComputeResidualLocal(PetscWarpAsm, Vec, Vec, Vec);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPAssembleJacobian(PetscWarpAsm, Vec, Mat);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPAdvance(PetscWarpAsm, Vec);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPGetRecovery(PetscWarpAsm, PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmAPSetRecovery(PetscWarpAsm, const PetscReal[]);
PETSC_EXTERN PetscErrorCode PetscWarpAsmUseDevice(PetscWarpAsm, PetscBool);
PETSC_EXTERN PetscErrorCode PetscWarpAsmSetAffine(PetscWarpAsm, PetscBool);
PETSC_EXTERN PetscErrorCode MatIsSharedNZ(Mat, PetscBool *);

/*S
  MatWarpStageInfo - What staged reassembly (`MatWarpSetStage()`) did with a matrix

  Level: intermediate

.seealso: `MatWarpGetStageInfo()`, `MatWarpSetStage()`
S*/
typedef struct {
  PetscBool  available;   /* the type stages (MATELLWARP, MATSHAREDNZ, on any number of ranks) */
  PetscBool  enabled;     /* -mat_ellwarp_stage / -mat_sharednz_stage / MatWarpSetStage() */
  PetscBool  recorded;    /* a recording of a MatSetValues() sequence exists */
  PetscBool  built;       /* its COO is set up */
  PetscInt   ncalls;      /* MatSetValues() calls in the recording */
  PetscCount nvalues;     /* values per staged assembly: recorded entries and the pattern's nonzeros */
  PetscInt   nrecorded;   /* assemblies recorded (PETSc's AIJ assembly) */
  PetscInt   nstaged;     /* assemblies staged and summed by MatSetValuesCOO() */
  PetscInt   nfallback;   /* staged assemblies that fell back to AIJ at a mismatch */
  PetscInt   nplain;      /* assemblies that ran plain AIJ from the start */
  char       reason[128]; /* why the last assembly that was not staged was not */
} MatWarpStageInfo;
PETSC_EXTERN PetscErrorCode MatWarpSetStage(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode MatWarpGetStageInfo(Mat, MatWarpStageInfo *);

/* ------------------------------------------------------------------------------------------------------------------
   User pointwise functions on the device (petscwarp/pointwise.cuh)
   ------------------------------------------------------------------------------------------------------------------ */

/* Most fields of the element kernels of user pointwise functions (PETSCWARP_POINTWISE_FIELDS_BEGIN()) */
#define PETSCWARP_PW_MAXNF 4

/*S
  PetscWarpPointwiseData - What petscwarp gives the element kernels of user pointwise functions: plain arrays, all in
  the memory of the launcher called (device memory for the device launchers, host memory for the host ones)

  Level: advanced

  Notes:
  One field of nc components, discretised by a Lagrange `PetscFE` whose basis is interlaced by node (element dof
  i = a*nc + c is the scalar basis function a in component c, PETSc's order for one field); several fields (nf, fnb,
  fnc, fB, fD) follow each other in the element (PETSc's order), each field's block laid out the same way. Per cell the kernels
  evaluate at each quadrature point q the geometry (PetscWarpGeometry() of petscwarp/elemgeometry.h), the point
  x = sum_k X[cv[cell*ncv + k]] Bc[q*ncv + k], the state u[c] = sum_a u_e(a,c) B[q*nb + a], its physical gradient
  u_x[c*dim + d] and u_t, call the user functions exactly as `PetscFEIntegrateJacobian_Basic()` and
  `PetscFEIntegrateResidual_Basic()` do (results zeroed before the call, multiplied by w_q detJ after), and add
  the terms as `PetscFEUpdateElementMat_Internal()` and `PetscFEUpdateElementVec_Internal()` do.

  You never fill one yourself: `DMPlexWarpSetSNESLocalFEM()` and the other hooks do, from the `DMPLEX` and its `PetscFE`.

.seealso: `PetscWarpPointwise`, `DMPlexWarpSetPointwise()`, `PETSCWARP_POINTWISE()`
S*/
typedef struct {
  int                ncells, dim, nb, nc, nq, ncv; /* cells; dimension; scalar basis functions; components; quadrature points; vertices per cell */
  const PetscReal   *w;                            /* [nq] quadrature weights on the reference cell */
  const PetscReal   *B, *D;                        /* [nq*nb] basis values B[q*nb + a], [nq*nb*dim] reference derivatives D[(q*nb + a)*dim + e] */
  const PetscReal   *Bc, *Dc;                      /* [nq*ncv], [nq*ncv*dim]: the same for the P1/Q1 coordinate basis */
  const PetscReal   *X;                            /* [nverts*dim] vertex coordinates */
  const int         *cv;                           /* [ncells*ncv] the cell's vertices, in the order of the coordinate basis */
  const int         *l2d;                          /* [ncells*nb*nc] element dof -> index in the local vectors (constrained dofs included) */
  const PetscScalar *u, *u_t;                      /* local state and its time derivative (u_t NULL: the pointwise functions get u_t = NULL, as in SNES) */
  PetscReal          t, u_tShift;                  /* time and shift passed to the pointwise functions */
  PetscInt           numConstants;                 /* the PetscDS's constants (PetscDSSetConstants()) */
  const PetscScalar *constants;
  PetscScalar       *out;    /* element matrices out[(cell*nel + i)*nel + j] (Jacobian) or element vectors out[cell*nel + i] (residual), nel = sum_f fnb[f]*fnc[f]; overwritten */
  void              *stream; /* the cudaStream_t of the device launchers; NULL for the host ones */
  /* the fields, in PETSc's order (one field: nb, nc, B, D again) */
  int              nf;                      /* fields */
  int              fnb[PETSCWARP_PW_MAXNF]; /* scalar basis functions of field f */
  int              fnc[PETSCWARP_PW_MAXNF]; /* components of field f */
  const PetscReal *fB[PETSCWARP_PW_MAXNF];  /* [nq*fnb[f]] its basis values at the points */
  const PetscReal *fD[PETSCWARP_PW_MAXNF];  /* [nq*fnb[f]*dim] its reference derivatives */
} PetscWarpPointwiseData;

/*S
  PetscWarpPointwiseKernel - A launcher of an element kernel of user pointwise functions: returns 0 on success, else a
  `cudaError_t` (device launchers) or a nonzero code (host launchers: 2 unsupported sizes). Device launchers do not
  synchronize.

  Level: advanced

.seealso: `PetscWarpPointwise`, `PetscWarpPointwiseData`
S*/
typedef int (*PetscWarpPointwiseKernel)(const PetscWarpPointwiseData *);

/*S
  PetscWarpPointwiseBdData - What petscwarp gives the boundary kernel of a user boundary residual f0_bd (a `DM_BC_NATURAL`
  boundary's `PetscBdPointFn`): plain arrays in the memory of the launcher called

  Level: advanced

  Notes:
  For each face f (of the cell fcell[f]) and physical face quadrature point q (k = f*nq + q), the kernel evaluates the
  state u[c] = sum_a u_e(a,c) B[tab[k]*nb + a], its gradient u_x[c*dim + d] = sum_a u_e(a,c) sum_e D[(tab[k]*nb + a)*dim + e]
  invJ[k*dim*dim + e*dim + d] (the cell's basis at the face point, pushed forward by the cell's inverse Jacobian there,
  as `PetscFEEvaluateFieldJets_Internal()`), and u_t, calls f0_bd with x, the outward normal n, t and the constants,
  and adds B[tab[k]*nb + a] f0_bd[c] w[k] into f[l2d[fcell[f]*nb*nc + a*nc + c]], as `PetscFEIntegrateBdResidual_Basic()`
  does. The geometry (w = face weight times face detJ, x, n, invJ, tab: the tabulation point of the face and orientation)
  is PETSc's own (`DMSNESGetFEGeom()` with `PETSC_FEGEOM_BOUNDARY`), computed once on the host.

  A boundary f1_bd (`PETSCWARP_POINTWISE_BD_ALL()`) adds w[k] (grad phi_a . f1_bd[c]) the same way, with the physical
  gradient of the cell's basis at the face point.

  The boundary Jacobian kernel (g0_bd ... g3_bd of `PETSCWARP_POINTWISE_BD_JACOBIAN()` / `PETSCWARP_POINTWISE_BD_ALL()`)
  evaluates the same point data, calls the present g*_bd with u_tShift too and stores their values times w[k] into
  G[k*gstride ...] (stage 1, per point), then (stage 2, per cell with boundary faces and entry (i, j)) adds to the cell's
  element matrix E[(cell*nel + i)*nel + j], for each of the cell's faces f = bface[boff[m]], ..., bface[boff[m+1]-1] in
  that order, the face's entry sum_q B_a g0 B_b + B_a g1 . dB_b + dB_a . g2 B_b + dB_a . g3 dB_b at the point
  (k = f*nq + q, q in order; i = a*nc + c, j = b*nc + e; dB the physical gradients at tab[k] through invJ[k]), the terms
  of `PetscFEIntegrateBdJacobian_Basic()` and `PetscFEUpdateElementMat_Internal()` for one field: a face's element matrix
  is the full element matrix of its cell, as PETSc's, folded into the cell's before the reduction. With several fields
  (nf, fnb, fnc, fB, fD) a face belongs to the field ffield[f] of its natural boundary: its residual terms go into that
  field's block, its Jacobian terms into the rows of that field (blocks (ffield[f], g), G holding them in order of g).

.seealso: `PetscWarpPointwise`, `PETSCWARP_POINTWISE_BD()`, `PETSCWARP_POINTWISE_BD_JACOBIAN()`
S*/
typedef struct {
  int                nfaces, dim, nb, nc, nq; /* faces; dimension; scalar basis functions; components; face quadrature points */
  const PetscReal   *B, *D;                   /* the cell basis at the tabulated face points: [ntab*nb], [ntab*nb*dim] (reference derivatives) */
  const int         *fcell;                   /* [nfaces] the face's cell */
  const int         *tab;                     /* [nfaces*nq] the tabulated point of physical point q */
  const PetscReal   *w, *x, *n, *invJ;        /* [nfaces*nq] weights; [nfaces*nq*dim] points, outward normals; [nfaces*nq*dim*dim] the cell's inverse Jacobians */
  const int         *l2d;                     /* [ncells*nb*nc] element dof -> local index */
  const PetscScalar *u, *u_t;                 /* local state and its time derivative (or NULL) */
  PetscReal          t;
  PetscInt           numConstants;
  const PetscScalar *constants;
  PetscScalar       *f;      /* the local residual: the terms are added to it (residual kernel) */
  void              *stream; /* cudaStream_t of the device launcher */
  /* the boundary Jacobian kernel only (the residual kernel ignores them) */
  PetscReal    u_tShift; /* the shift passed to g0_bd */
  int          nbcells;  /* cells with boundary faces */
  const int   *boff;     /* [nbcells+1] offsets into bface */
  const int   *bface;    /* [nfaces] the faces grouped by cell (of one cell: in increasing face order) */
  PetscScalar *G;        /* [nfaces*nq*gstride] workspace: w g0_bd, w g1_bd, w g2_bd, w g3_bd (the present ones) at the points */
  int          gstride;  /* doubles per point in G: nc*nc (g0_bd) + nc*nc*dim (g1_bd) + nc*nc*dim (g2_bd) + nc*nc*dim*dim (g3_bd), present ones */
  PetscScalar *E;        /* the element matrices of all cells, E[(cell*nel + i)*nel + j], nel = nb*nc: the terms are added to them */
  /* the fields (one field: nb, nc, B, D again); nel = sum_f fnb[f]*fnc[f] */
  int              nf;
  int              fnb[PETSCWARP_PW_MAXNF], fnc[PETSCWARP_PW_MAXNF];
  const PetscReal *fB[PETSCWARP_PW_MAXNF], *fD[PETSCWARP_PW_MAXNF]; /* each field's cell basis at the tabulated face points: [ntab*fnb[f]], [ntab*fnb[f]*dim] */
  const int       *ffield;                                          /* [nfaces] the field of the face's natural boundary (NULL: 0) */
} PetscWarpPointwiseBdData;

/*S
  PetscWarpPointwiseBdKernel - A launcher of the boundary kernel of a user boundary residual (or boundary Jacobian): 0 on
  success, else a `cudaError_t` (device) or a nonzero code (host)

  Level: advanced

.seealso: `PetscWarpPointwiseBdData`, `PetscWarpPointwise`
S*/
typedef int (*PetscWarpPointwiseBdKernel)(const PetscWarpPointwiseBdData *);

/*S
  PetscWarpPointwise - The device pointwise functions of a `PetscDS` compiled into element kernels by the user's CUDA
  file: made by `PETSCWARP_POINTWISE()` of petscwarp/pointwise.cuh, registered with `DMPlexWarpSetPointwise()`

  Level: intermediate

  Notes:
  The host function pointers are those the kernels were compiled from; `DMPlexWarpSetSNESLocalFEM()` checks that the
  `PetscDS` holds exactly these functions (`PetscDSSetResidual()`, `PetscDSSetJacobian()`), so that PETSc's host
  paths and petscwarp's device paths compute the same thing. A device launcher is `NULL` when the file was compiled
  without CUDA (a host compiler): then only the host launchers (the host twins, compiled from the same templates) run.

.seealso: `PETSCWARP_POINTWISE()`, `DMPlexWarpSetPointwise()`, `PetscWarpPointwiseData`
S*/
typedef struct {
  int                      version;                              /* PETSCWARP_POINTWISE_VERSION */
  const char              *name;                                 /* the name given to PETSCWARP_POINTWISE() */
  PetscWarpPointwiseKernel jacobian_host, jacobian_device;       /* element matrices from g0, g1, g2, g3 */
  PetscWarpPointwiseKernel residual_host, residual_device;       /* element vectors from f0, f1 */
  void (*f[2])(void);                                            /* the host addresses of f0, f1 (NULL where absent) */
  void (*g[4])(void);                                            /* the host addresses of g0, g1, g2, g3 (NULL where absent) */
  int                        maxnc;                              /* most components the kernels were compiled for */
  PetscWarpPointwiseBdKernel bdresidual_host, bdresidual_device; /* boundary residual terms from f0_bd, f1_bd (PETSCWARP_POINTWISE_BD(), _BD_ALL()) */
  void (*fbd[2])(void);                                          /* the host addresses of f0_bd, f1_bd (NULL where absent) */
  PetscWarpPointwiseBdKernel bdjacobian_host, bdjacobian_device; /* boundary Jacobian terms from g0_bd ... g3_bd (PETSCWARP_POINTWISE_BD_JACOBIAN(), _BD_ALL()) */
  void (*gbd[4])(void);                                          /* the host addresses of g0_bd, g1_bd, g2_bd, g3_bd (NULL where absent) */
  int nf;                                                        /* fields the kernels were compiled for (PETSCWARP_POINTWISE_FIELDS_BEGIN(); 1 for PETSCWARP_POINTWISE()) */
  void (*fm[PETSCWARP_PW_MAXNF][2])(void);                       /* the host addresses of f0, f1 of field f */
  void (*gm[PETSCWARP_PW_MAXNF][PETSCWARP_PW_MAXNF][4])(void);   /* the host addresses of g0 ... g3 of the block (f, g) */
  void (*fbdm[PETSCWARP_PW_MAXNF][2])(void);                     /* the host addresses of f0_bd, f1_bd of field f */
  void (*gbdm[PETSCWARP_PW_MAXNF][PETSCWARP_PW_MAXNF][4])(void); /* the host addresses of g0_bd ... g3_bd of the block (f, g) */
} PetscWarpPointwise;
#define PETSCWARP_POINTWISE_VERSION 6

#include <petscdm.h>
PETSC_EXTERN PetscErrorCode DMPlexWarpAsmCreate(DM, PetscWarpPhysics, PetscWarpAsm *);
PETSC_EXTERN PetscErrorCode DMPlexWarpCreateRigidBody(DM, PetscInt, MatNullSpace *);
PETSC_EXTERN PetscErrorCode DMPlexWarpRecognizePhysics(DM, PetscBool *, PetscWarpPhysics *, PetscReal[], char[], size_t);
PETSC_EXTERN PetscErrorCode DMPlexWarpRecognizeResidual(DM, PetscWarpPhysics, const PetscReal[], PetscReal, PetscBool *, PetscReal[], char[], size_t);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetSNESLocalFEM(DM);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetTSLocalFEM(DM);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetKSPLocalFEM(DM);
PETSC_EXTERN PetscErrorCode DMPlexWarpGetResidualCount(DM, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode DMPlexWarpGetAsm(DM, PetscWarpAsm *);
PETSC_EXTERN PetscErrorCode DMPlexWarpAutoGetStatus(DM, PetscBool *, char[], size_t);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetPointwise(DM, const PetscWarpPointwise *);
PETSC_EXTERN PetscErrorCode DMPlexWarpGetPointwiseCount(DM, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode DMPlexWarpGetPointwiseDevice(DM, PetscBool *, PetscBool *);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetSNESLocalAlievPanfilov(DM, const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode DMPlexWarpAPSetStep(DM, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode DMPlexWarpAPAdvance(DM, Vec);
PETSC_EXTERN PetscErrorCode DMPlexWarpAPSetPrevious(DM, Vec, const PetscReal[]);
PETSC_EXTERN PetscErrorCode DMPlexWarpSetTSLocalAlievPanfilov(DM, const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode DMPlexWarpAPSetStimulusFunction(DM, PetscErrorCode (*)(PetscReal, PetscReal *, void *), void *);
