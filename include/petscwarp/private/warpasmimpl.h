/* Private data of PetscWarpAsm (src/mat/assembly/warpasm.c) and the interface through which it writes a matrix's values */
#pragma once

#include <petscwarp.h>
#include <petsc/private/petscimpl.h>
#include <petsc/private/matimpl.h>
#include <petscwarp/private/warpasmkernels.h>
#include <petscwarp/private/warpasmplan.h>

PETSC_INTERN PetscLogEvent PETSCWARPASM_Plan, PETSCWARPASM_Assemble, PETSCWARPASM_Elem, PETSCWARPASM_Reduce, PETSCWARPASM_Vector, PETSCWARPASM_COOPrealloc, PETSCWARPASM_Residual, PETSCWARPASM_APPoints, PETSCWARPASM_BdResidual, PETSCWARPASM_PWJacobian, PETSCWARPASM_PWResidual;
/* phases of the set-up: DMPlexWarpAsmCreate(), the symbolic pattern, and the plan (slots, coloring, reduction arrays,
   sharednz partition and per-block arrays, device upload) */
PETSC_INTERN PetscLogEvent PETSCWARPASM_Extract, PETSCWARPASM_Pattern, PETSCWARPASM_PlanSlots, PETSCWARPASM_PlanColor, PETSCWARPASM_PlanRed, PETSCWARPASM_PlanPart, PETSCWARPASM_PlanBlocks, PETSCWARPASM_PlanUpload;

/*
  The value array of a matrix that an assembly writes, from MatWarpTargetBegin(): the matrix's CSR pattern (host),
  where its values live and, for layouts other than CSR (ELL-WARP), the slot of each CSR position. Matrices that are
  not AIJ subclasses of petscwarp's provide it through the composed "MatWarpTargetBegin_C"/"MatWarpTargetEnd_C";
  MATSEQAIJ and MATSEQAIJCUSPARSE (MATSHAREDNZ) are handled directly.
*/
typedef struct {
  PetscBool        device; /* val is device memory */
  PetscInt         nrows, ncols, nnz;
  const PetscInt  *rowptr, *colidx; /* host CSR pattern */
  PetscInt         nslots;          /* entries of val */
  const int       *pos2slot;        /* host [nnz]: CSR position -> slot of val; NULL: the identity */
  PetscScalar     *val;
  PetscObjectState nzstate;   /* the pattern's state: a plan is rebuilt when it changes */
  PetscBool        ell;       /* val is an ELL-WARP layout */
  PetscErrorCode (*end)(Mat); /* called by MatWarpTargetEnd */
  PetscScalar *aijval;        /* the AIJ accessor's array to restore (internal) */
} MatWarpTarget;

PETSC_INTERN PetscErrorCode PetscWarpCheckSymmetricTensors_Private(MPI_Comm, PetscInt, PetscInt, const PetscReal[]); /* PetscWarpAsmSetLaplace()'s check of PETSCWARP_COEF_TENSOR */
PETSC_INTERN PetscErrorCode MatWarpTargetBegin(Mat, PetscBool, MatWarpTarget *);
PETSC_INTERN PetscErrorCode MatWarpTargetGetLayout(Mat, PetscBool, MatWarpTarget *); /* MatWarpTargetBegin() without the values */
PETSC_INTERN PetscErrorCode MatWarpTargetEnd(Mat, MatWarpTarget *);
/* one rank: the elements' pattern set into a SeqAIJ-based matrix (values zero, diagonal included, assembled) */
PETSC_INTERN PetscErrorCode PetscWarpAsmSetPattern_Private(PetscWarpAsm, Mat);

struct _PetscWarpAsmOps {
  PetscErrorCode (*unused)(void);
};

/* A plan: what one (mesh, dof layout, target, strategy) needs, in host memory and, for the device, uploaded */
typedef struct {
  PetscObjectId        matid;
  PetscObjectState     nzstate;
  PetscWarpAsmStrategy strategy;            /* the one that runs */
  PetscWarpAsmStrategy requested;           /* the one asked for (sharednz falls back to globalnz when elements do not fit) */
  PetscReal            fallback_redundancy; /* sharednz that fell back for its redundancy: that redundancy (else 0) */
  PetscBool            device, ell;
  PetscInt             nslots;
  int                 *slot;   /* [ncells*nel*nel] element entry -> slot (host) */
  int                 *d_slot; /* device copy (atomic, color) */
  PetscInt             ncolors;
  int                 *coff, *ccells, *d_ccells;
  PetscWarpRedHost     red; /* globalnz */
  PetscWarpRed         d_red;
  PetscWarpSharedHost  sh; /* sharednz */
  PetscWarpShared      d_sh;
  PetscLogDouble       bytes, setup_time;
  /* the affine path on a mesh with affine and non-affine cells (warpasmaffine.c): atomic runs the affine cells acells
     and the others qcells in two launches; color puts each color's affine cells first (caff[k] of them) */
  PetscInt naffine; /* affine cells when the plan split them (0 < naffine < ncells), else 0 */
  int     *acells, *qcells, *d_acells, *d_qcells, *caff;
  /* rownz (warpasmrownz.c): the row lists, their device copy, the cells' affine factors (host and device work space) */
  PetscWarpRowNZHost rn;
  PetscWarpRowNZ     d_rn;
  double            *coef, *d_coef;
  const char        *fallback; /* why rownz fell back to atomic (NULL otherwise) */
} PetscWarpAsmPlan;

struct _p_PetscWarpAsm {
  PETSCHEADER(struct _PetscWarpAsmOps);
  /* inputs (host copies) */
  PetscInt             ncells, nel, nrows, ncols;
  PetscInt            *e2d;
  PetscMPIInt          size;    /* ranks of the communicator: on more than one, e2d holds global indices */
  PetscInt             Nrows;   /* global rows */
  PetscInt             nvcoo;   /* more than one rank: the distinct rows of the local cells (load vectors by VecSetValuesCOO) */
  PetscInt            *vcoo;    /* [nvcoo] their global indices, sorted; rowslot then indexes them */
  PetscObjectId        vcoo_id; /* the vector whose COO preallocation holds vcoo */
  PetscBool            mpiinfo; /* -info said once that several ranks reduce with coo */
  PetscInt             dim, nverts, ncv;
  PetscReal           *X;
  int                 *cv;
  PetscInt             nb, nc, nq;
  PetscInt             nfields; /* fields of the element: above 1, nb, nc, B, D are field 0's (PetscWarpAsmSetReferenceFields_Private()) */
  PetscReal           *w, *B, *D, *Dc;
  PetscWarpPhysics     physics;
  PetscWarpCoefficient coef;
  PetscReal            kappa, lambda, mu, shift, f[PETSCWARP_MAXDIM];
  PetscReal           *kcell;
  PetscInt             nkcell;
  /* choices */
  PetscWarpAsmStrategy         strategy;
  PetscBool                    usedevice;   /* asked for (default: when a device is present) */
  PetscInt                     bs, tpb;     /* threads per block; targets per reduction block (globalnz) */
  PetscBool                    redplandev;  /* slots (globalnz, color, atomic) and globalnz reduction plans on the device (when assembling there) */
  PetscWarpSharedNZPartitioner partitioner; /* sharednz: how rows are split into blocks */
  PetscReal                    maxred;      /* sharednz: above this redundancy (element computations per element), globalnz */
  PetscInt                     smem;        /* sharednz: shared memory per block, bytes (0: automatic) */
  PetscInt                     sbs;         /* sharednz: threads per block */
  PetscInt                     rntileslots; /* rownz: tile slot cap (0: the occupancy model's choice) */
  PetscBool                    rnunroll;    /* rownz: device kernels specialised for the element's size (-mat_warp_rownz_unroll) */
  PetscBool3                   rnfused;     /* rownz: rows compute their cells' factors (-mat_warp_rownz_fused; unknown: automatic) */
  PetscInt                     rngeo;       /* rownz: the fused P1 Laplacian lanes' factor arithmetic (-mat_warp_rownz_simplex_geometry; -1: automatic) */
  PetscInt                     rnpipe;      /* rownz: incidences the P1 lanes load ahead (-mat_warp_rownz_prefetch; -1: automatic) */
  PetscReal                    rnminlanes;  /* rownz: atomic below this many predicted resident rows per SM (0: never) */
  /* device copies of the inputs */
  PetscBool        uploaded;
  double          *d_ref, *d_X, *d_kcell; /* d_ref holds w, B, D, Dc */
  int             *d_cv, *d_rowslot;
  double          *d_E;     /* element matrices (globalnz, coo) */
  double          *d_vwork; /* [nvcoo] load vector by distinct row (more than one rank) */
  PetscScalar     *h_E;     /* host element matrices (host globalnz, coo) */
  int             *rowslot; /* host [ncells*nel]: e2d as int for load vectors */
  PetscWarpAsmPlan plan;
  /* the affine fast path (warpasmaffine.c) */
  PetscBool      affine;     /* use it (-mat_warp_assembly_affine, default true) */
  PetscBool      affine_set; /* asked for explicitly (PetscWarpAsmSetAffine(), the option): elasticity too */
  PetscBool      affinfo;    /* -info said why the path is not used */
  unsigned char *affcell;    /* [ncells] the cell's geometry map is affine (NULL: not yet computed) */
  PetscInt       naffine;    /* affine cells (-1: not yet computed) */
  int            affkind;    /* physics kind of affref (-1: none yet) */
  double        *affref;     /* the reference matrices of that physics (PetscWarpAsmAffineRefsHost) */
  double        *d_affref;   /* device copy */
  PetscInt       lastaffine; /* cells of the last assembly computed by the affine path */
  /* statistics */
  PetscLogDouble assembly_time;
  PetscInt       nassemblies;
  PetscBool      lastdevice;
  void          *ev[2];
  /* residuals (warpasmres.c) */
  PetscInt nloc, nl2d; /* local vector size; entries of l2d (ncells*nel when set) */
  int     *l2d;        /* [ncells*nel] element dof -> local vector index (constrained dofs included) */
  int     *d_l2d;      /* device copy */
  PetscInt nresiduals;
  /* the Aliev-Panfilov model (warpasmap.c) */
  struct _n_PetscWarpAsmAP *ap;
  /* user pointwise functions (warpasmpw.c) */
  struct _n_PetscWarpAsmPW *pw;
  /* boundary (Neumann) residual of constant fluxes (warpasmbdres.c) */
  PetscInt nbf, nbset;     /* boundary faces; flux sets */
  int     *bfcell, *bfset; /* [nbf] the face's cell and flux set */
  double  *bW, *bg;        /* [nbf*nb] int_f phi_a dS; [nbset*nc] the fluxes */
  int     *d_bfcell, *d_bfset;
  double  *d_bW, *d_bg; /* device copies */
};

/* The affine fast path (warpasmaffine.c): frees its data (device: only the device copy); computes which cells are
   affine (once per mesh); the reference matrices of the physics in the backend's memory; the plan's split of a mesh
   with affine and non-affine cells (atomic, color); the reference matrices to give the kernels (fe->Kaff) when every
   cell is affine and the physics allows it, and the number of cells the call computes by the affine path */
PETSC_INTERN PetscErrorCode PetscWarpAsmAffineReset_Private(PetscWarpAsm, PetscBool);
PETSC_INTERN PetscErrorCode PetscWarpAsmAffineCells_Private(PetscWarpAsm);
PETSC_INTERN PetscBool      PetscWarpAsmAffineRefsFit_Private(PetscWarpAsm, int);
PETSC_INTERN PetscErrorCode PetscWarpAsmAffineRefs_Private(PetscWarpAsm, PetscBool, int, const double **);
PETSC_INTERN PetscErrorCode PetscWarpAsmAffinePlan_Private(PetscWarpAsm, const PetscWarpPhys *, PetscWarpAsmPlan *);
PETSC_INTERN PetscErrorCode PetscWarpAsmAffinePlanReset_Private(PetscWarpAsmPlan *);
PETSC_INTERN PetscErrorCode PetscWarpAsmAffineAll_Private(PetscWarpAsm, PetscBool, const PetscWarpPhys *, PetscWarpFE *, PetscBool *);
/* The rownz strategy (warpasmrownz.c): the plan for target t, or (rownz cannot serve: -info says why) p->strategy set
   to atomic and p->fallback to the reason; the upload of the plan; freeing it; one assembly into t */
PETSC_INTERN PetscErrorCode PetscWarpAsmRowNZPlan_Private(PetscWarpAsm, const MatWarpTarget *, const PetscWarpPhys *, PetscBool, PetscWarpAsmPlan *);
PETSC_INTERN PetscErrorCode PetscWarpAsmRowNZUpload_Private(PetscWarpAsm, PetscWarpAsmPlan *);
PETSC_INTERN PetscErrorCode PetscWarpAsmRowNZReset_Private(PetscWarpAsmPlan *);
PETSC_INTERN PetscErrorCode PetscWarpAsmRowNZRun_Private(PetscWarpAsm, Mat, MatWarpTarget *, PetscWarpFE *, const PetscWarpMesh *, const PetscWarpPhys *);
PETSC_INTERN PetscBool      PetscWarpAsmRowNZFused_Private(PetscWarpAsm);
PETSC_INTERN const char    *PetscWarpAsmRowNZArithmetic_Private(PetscWarpAsm);
PETSC_INTERN PetscLogEvent  PETSCWARPASM_PlanRowNZ;
#if PetscDefined(HAVE_CUDA)
/* Device copy of n elements of size sz (NULL for n == 0), logged as a host-to-device copy (warpasm.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmUpload_Private(const void *, size_t, size_t, void **);
#endif
/* The errors of the plans (warpasmplan.c), shared by the host and device builds: entry k of the element map out of range;
   element entry src missing from the pattern */
PETSC_INTERN PetscErrorCode PetscWarpPlanMapIndexError_Private(PetscInt, PetscInt, PetscInt, const PetscInt[], PetscCount);
PETSC_INTERN PetscErrorCode PetscWarpPlanMissingEntryError_Private(PetscInt, const PetscInt[], PetscCount);
/* Transparent huge pages for a large array not yet written (a hint; warpasmplan.c) */
PETSC_INTERN void PetscWarpHugePages_Private(void *, size_t);
/* Kernel-layer descriptions of the reference element and mesh (and the per-cell coefficient), in host or device memory
   (uploading them once), without the physics' checks (warpasm.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmDescribeData_Private(PetscWarpAsm, PetscBool, PetscWarpFE *, PetscWarpMesh *, const double **);
/* Whether element matrices for this matrix are to be given in device memory (warpasm.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmElementMatricesOnDevice_Private(PetscWarpAsm, Mat, PetscBool *);
/* Frees the data of user pointwise functions (warpasmpw.c) */
/* Arrays of local vectors for a kernel (warpasmres.c): device memory when asked for and every vector is there */
typedef struct {
  const PetscScalar *u, *ut;
  PetscScalar       *f;
  PetscBool          device; /* the arrays are in device memory */
  PetscBool          plain;  /* host arrays taken with VecGetArray() (vectors in device memory not used there) */
} PetscWarpAsmLocalArrays;
PETSC_INTERN PetscErrorCode PetscWarpAsmGetLocalArrays_Private(PetscWarpAsm, PetscBool, Vec, Vec, Vec, PetscWarpAsmLocalArrays *);
PETSC_INTERN PetscErrorCode PetscWarpAsmRestoreLocalArrays_Private(Vec, Vec, Vec, PetscWarpAsmLocalArrays *);
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseReset_Private(PetscWarpAsm);
/* PetscWarpAsmSetReference() for an element of several fields, nb, nc, B, D field 0's (warpasm.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmSetReferenceFields_Private(PetscWarpAsm, PetscInt, PetscInt, PetscInt, PetscInt, const PetscReal[], const PetscReal[], const PetscReal[], const PetscReal[]);
PETSC_INTERN PetscErrorCode PetscWarpAsmPointwiseFreeBuffers_Private(PetscWarpAsm);
/* Kernel-layer descriptions of the inputs, in host or device memory (uploading them once) (warpasm.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmDescribe_Private(PetscWarpAsm, PetscBool, PetscWarpFE *, PetscWarpMesh *, PetscWarpPhys *);
/* The per-point arrays of the Aliev-Panfilov model that the next kernel call uses (PetscWarpPhys.cq, fq), in the memory
   of the backend (device or host), moved there if needed; NULL when none is in use (warpasmap.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmAPDescribe_Private(PetscWarpAsm, PetscBool, PetscWarpPhys *);
/* Frees the Aliev-Panfilov data (warpasmap.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmAPReset_Private(PetscWarpAsm);
/* The device copy of the element-to-local-dof map, uploaded once (warpasmres.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmLocalMapDevice_Private(PetscWarpAsm);
/* Frees the residual data (warpasmres.c), and that of the boundary residual (warpasmbdres.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmResidualReset_Private(PetscWarpAsm);
PETSC_INTERN PetscErrorCode PetscWarpAsmBdResidualReset_Private(PetscWarpAsm);
/* Adds the boundary residual into the local residual f (device memory when device) (warpasmbdres.c) */
PETSC_INTERN PetscErrorCode PetscWarpAsmBdResidual_Private(PetscWarpAsm, PetscBool, PetscScalar *);
