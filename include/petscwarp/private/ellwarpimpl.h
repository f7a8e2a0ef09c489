/* Private data of MATSEQAIJELLWARP (the spptr of an AIJ matrix). */
#pragma once

#include <petscwarp.h>
#include <petsc/private/matimpl.h>
#include <petscwarp/private/ellwarpkernels.h>

PETSC_INTERN PetscLogEvent MATELLWARP_Build, MATELLWARP_Refresh, MATELLWARP_Mult, MATELLWARP_MultT, MATELLWARP_ToHost;
PETSC_INTERN PetscLogEvent MATELLWARP_COOPre, MATELLWARP_COOVal;
PETSC_INTERN PetscLogEvent MATELLWARP_TwinBuild, MATELLWARP_TwinValues;
PETSC_INTERN PetscLogEvent PCELLWARPPERM_SetUp, PCELLWARPPERM_Scatter;

typedef PetscErrorCode (*MatMultFn_Private)(Mat, Vec, Vec);
typedef PetscErrorCode (*MatMultAddFn_Private)(Mat, Vec, Vec, Vec);

/* The parent's (AIJ) operations the type overrides, saved at conversion */
typedef struct {
  MatMultFn_Private mult, multtranspose;
  PetscErrorCode (*getdiagonal)(Mat, Vec);
  MatMultAddFn_Private multadd, multtransposeadd;
  PetscErrorCode (*destroy)(Mat);
  PetscErrorCode (*duplicate)(Mat, MatDuplicateOption, Mat *);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*setfromoptions)(Mat, PetscOptionItems);
  PetscErrorCode (*bindtocpu)(Mat, PetscBool);
  PetscErrorCode (*productsetfromoptions)(Mat);
  PetscErrorCode (*setpreallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* composed methods of MATSEQAIJ */
  PetscErrorCode (*setvaluescoo)(Mat, const PetscScalar[], InsertMode);
  PetscErrorCode (*createsubmatrices)(Mat, PetscInt, const IS[], const IS[], MatReuse, Mat *[]);
  PetscErrorCode (*creategraph)(Mat, PetscBool, PetscBool, PetscReal, PetscInt, PetscInt[], Mat *);
} MatEllWarpParentOps;

/* What the user asked for (options or setters); shared by the seq and MPI types */
typedef struct {
  MatEllWarpBackend backend;
  MatEllWarpKernel  kernel;
  PetscInt          threshold;   /* PETSC_DETERMINE: automatic */
  PetscInt          block_size;  /* threads per block; 0: automatic */
  char              reorder[64]; /* MatOrderingType of the locality ordering, "none" for none */
  PetscInt          window;      /* sort by length within windows of this many rows; 0: global sort; PETSC_DETERMINE: automatic */
  PetscReal         window_pad;  /* automatic window: most extra padding (slots/nnz) over the global sort that it may cost */
  MatEllWarpIndex   index;       /* column index layout asked for (-mat_ellwarp_index) */
  PetscInt          kc_variant;  /* load schedule of the device products (-mat_ellwarp_kc_variant); -1: PETSCWARP_KC_VARIANT_DEFAULT */
  PetscBool         hostvecs;    /* MatCreateVecs() gives host vectors even with the cuda backend (the DM's vectors are host
                                    ones: plexwarphook.c); inherited by submatrices and duplicates */
} MatEllWarpOpts;

typedef struct {
  MatEllWarpOpts opt;
  /* the layout in use, in host (backend host) or device (backend cuda) memory */
  PetscWarpEll      E;
  PetscBool         built;
  MatEllWarpBackend built_backend;
  MatEllWarpKernel  kernel;                 /* K1 or K2 */
  MatEllWarpIndex   index;                  /* column index layout in use (never AUTO once built) */
  PetscReal         pad_global, pad_window; /* K1 padding of the global sort and of the window in use (automatic choice; 0: not computed) */
  PetscObjectState  nzstate, state;         /* of the host values the layout holds */
  PetscInt          m, n;                   /* sizes it was built for */
  /* device work space */
  PetscScalar *d_csrval;  /* staging of the host values for a refresh */
  PetscScalar *d_work[3]; /* copies of host vectors */
  PetscInt     nwork;
  /* statistics */
  PetscLogDouble      build_time, upload_time, refresh_time;
  void               *ev[3]; /* CUDA events around the last refresh: before the upload, before and after the gather */
  PetscInt            nbuilds, nrefreshes, nproducts;
  MatEllWarpParentOps parent;
  /* values assembled into the layout (PetscWarpAsm, COO): current there only until the first host read */
  PetscBool layout_only;
  int      *pos2slot; /* host [nnz]: CSR position -> slot of the layout built nbuilds = pos2slot_build */
  PetscInt  pos2slot_build;
  /* MatSetValuesCOO (ellwarpcoo.c): CSR position -> slot, in the layout's memory, for the layout built nbuilds = coo_slot_build */
  int      *coo_slot;
  PetscInt  coo_slot_build;
  PetscBool coo_slot_device;
  /* matrix products (ellwarpproduct.c): they run on a CSR twin of the matrix (MATSEQAIJCUSPARSE with the CUDA backend),
     built once per nonzero pattern (its row pointer and columns are the host AIJ arrays), its values refreshed from the
     layout (device gather) or the host values when the matrix's state changed */
  PetscBool3       product_device;    /* -mat_ellwarp_product_device: products on the device twin (CUDA backend); unknown: when
                                         the matrix's vectors are device vectors (ellwarpproduct.c, VectorsOnDevice()) */
  PetscBool        product_vecguard;  /* the automatic rule put products on the device twin: MatMult() and friends refuse host
                                         vectors (the aijcusparse results, e.g. GAMG's coarse levels, would read them as device
                                         arrays) */
  PetscBool        product_host_twin; /* -mat_ellwarp_product_host_twin: products on a MATSEQAIJ twin (host backend; tests) */
  PetscBool        product_check;     /* -mat_ellwarp_product_check: every twin product and value refresh checked against SeqAIJ on the host */
  PetscBool        mpi_block;         /* a block of a MATMPIAIJELLWARP: MPIAIJ's products read its host arrays, no twin */
  Mat              twin;
  PetscObjectState twin_state, twin_nzstate;
  PetscInt         ntwinbuilds, ntwingathers, ntwinuploads;
} Mat_SeqAIJEllWarp;

typedef struct {
  MatEllWarpOpts opt;
  PetscErrorCode (*prealloc)(Mat, PetscInt, const PetscInt[], PetscInt, const PetscInt[]);
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscErrorCode (*destroy)(Mat);
  PetscErrorCode (*setfromoptions)(Mat, PetscOptionItems);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*setpreallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* MPIAIJ's (host) COO */
  PetscErrorCode (*setvaluescoo)(Mat, const PetscScalar[], InsertMode);
  PetscErrorCode (*createsubmatrix)(Mat, IS, IS, MatReuse, Mat *);
} Mat_MPIAIJEllWarp;

PETSC_INTERN PetscErrorCode MatEllWarpOptionsRead_Private(PetscOptionItems, MatEllWarpOpts *);
/* The end of a destroy that restores its parent's composed functions: MatHeaderMerge() takes the object's function list
   away (qlist = NULL) before calling ops->destroy and copies the other header over it after, so restoring a function
   there makes a new list that nobody frees (measured: 16 bytes per in-place MatTranspose() of GAMG's MatCoarsen
   on an ellwarp matrix, 2026-11-28). hadq: whether the object had a list when the destroy began; without one, the list
   made during the destroy is freed here (MatDestroy() would free it too, in PetscHeaderDestroy()) */
PETSC_INTERN PetscErrorCode MatWarpDestroyQList_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatEllWarpOptsDefault_Private(MatEllWarpOpts *);
PETSC_INTERN PetscErrorCode MatEllWarpOptsCheck_Private(const MatEllWarpOpts *);
PETSC_INTERN PetscErrorCode MatEllWarpConvertWith_Private(Mat, MatReuse, Mat *, PetscErrorCode (*)(Mat));
PETSC_INTERN PetscErrorCode MatConvert_SeqAIJ_SeqAIJEllWarp(Mat, MatType, MatReuse, Mat *);
PETSC_INTERN PetscErrorCode MatCreate_SeqAIJEllWarp(Mat);
PETSC_INTERN PetscErrorCode MatCreate_MPIAIJEllWarp(Mat);

/* backend layer (src/mat/impls/ellwarp/seq/ellwarpbackend.c) */
PETSC_INTERN PetscInt       MatEllWarpBlockSize_Private(Mat); /* threads per block of the products: -mat_ellwarp_block_size, else the layout's automatic one */
PETSC_INTERN PetscErrorCode MatEllWarpSetUp_Private(Mat);
PETSC_INTERN PetscErrorCode MatEllWarpReset_Private(Mat);
PETSC_INTERN PetscErrorCode MatEllWarpChoose_Private(PetscInt, const int[], PetscInt, MatEllWarpKernel, PetscInt, MatEllWarpKernel *, PetscInt *);
PETSC_INTERN PetscErrorCode MatEllWarpGetDeviceTwin_Private(Mat, Mat *, const char **);
PETSC_INTERN PetscErrorCode MatEllWarpApply_Private(Mat, PetscBool, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode MatEllWarpGetDiagonal_Private(Mat, Vec);
PETSC_INTERN PetscErrorCode MatEllWarpMultDot_Private(Mat, Vec, Vec, PetscInt, PetscScalar[], PetscInt *);
PETSC_INTERN PetscErrorCode MatEllWarpRefreshTimes_Private(Mat, PetscLogDouble *, PetscLogDouble *);
PETSC_INTERN PetscErrorCode MatEllWarpRowPermutation_Private(Mat, Mat, IS *);
PETSC_INTERN PetscErrorCode MatEllWarpChooseWindow_Private(PetscInt, const int[], const int[], PetscInt, PetscReal, PetscInt *, PetscReal *, PetscReal *);
PETSC_INTERN PetscErrorCode MatEllWarpViewLayout_Private(Mat, PetscViewer);
PETSC_INTERN PetscErrorCode MatEllWarpInfoLayout_Private(Mat, MatEllWarpInfo *);
/* build the layout from a CSR pattern already on the device (host row pointer, device row pointer and columns) */
PETSC_INTERN PetscErrorCode MatEllWarpBuildFromDevice_Private(Mat, const int[], const int[], const int[]);
/* MatSeqAIJSetPreallocationCSR(B, Ii, J, NULL) without its MatSetValues() row by row (src/mat/utils/aijpattern.c) */
PETSC_INTERN PetscErrorCode MatWarpSeqAIJSetPatternCSR_Private(Mat, const PetscInt[], const PetscInt[]);

/* device-authoritative values (src/mat/impls/ellwarp/seq/ellwarpvalues.c) */
PETSC_INTERN PetscErrorCode MatEllWarpSetValueHooks_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatEllWarpSyncHost_Private(Mat);
PETSC_INTERN PetscErrorCode MatEllWarpComposeTarget_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatEllWarpLayoutWritten_Private(Mat);

/* matrix products on a CSR twin (src/mat/impls/ellwarp/seq/ellwarpproduct.c) */
PETSC_INTERN PetscErrorCode MatEllWarpLayoutCurrent_Private(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatEllWarpComposeProduct_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatEllWarpProductOptions_Private(Mat, PetscOptionItems);
PETSC_INTERN PetscErrorCode MatEllWarpProductReset_Private(Mat);
PETSC_INTERN PetscErrorCode MatEllWarpProductView_Private(Mat, PetscViewer);
PETSC_INTERN PetscErrorCode MatEllWarpProductCheckVecs_Private(Mat, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode MatCreateGraph_SeqAIJEllWarp(Mat, PetscBool, PetscBool, PetscReal, PetscInt, PetscInt[], Mat *);
PETSC_INTERN PetscErrorCode MatEllWarpGetTwin_Private(Mat, Mat *);

/* COO assembly (src/mat/impls/ellwarp/seq/ellwarpcoo.c) */
PETSC_INTERN PetscErrorCode MatEllWarpComposeCOO_Private(Mat, PetscBool);
PETSC_INTERN PetscErrorCode MatEllWarpDuplicateCOO_Private(Mat, Mat);
PETSC_INTERN PetscErrorCode MatEllWarpCOOToAIJ_Private(Mat);
PETSC_INTERN PetscErrorCode MatEllWarpCOOReset_Private(Mat);
