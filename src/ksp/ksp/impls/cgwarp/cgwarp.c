/*
  KSPCGWARP: KSPCG's conjugate gradient (same arithmetic, same iteration counts) with the vector work of an iteration
  fused into one step kernel (Jacobi or no preconditioner; three kernels with PCApply() between two of them otherwise)
  and alpha, beta and the norms computed where the vectors are (src/kernels/cgwarp*.{cu,c}), so that an iteration has no
  host synchronisation: the host reads back the norms and the breakdown status once every `-ksp_cgwarp_check_every`
  iterations and replays KSPCG's monitors and convergence tests on them.
*/
#include <petscwarp/private/cgwarpimpl.h>
#include <petscwarp/private/cgwarpkernels.h>
#include <petsc/private/kspimpl.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

PetscLogEvent KSPCGWARP_SetUp, KSPCGWARP_Direction, KSPCGWARP_Alpha, KSPCGWARP_Update, KSPCGWARP_Step, KSPCGWARP_Check;

/* How the preconditioner is applied */
typedef enum {
  CGWARP_PC_JACOBI, /* fused: z = D^-1 r inside the update kernel, D^-1 taken from the PC once per solve */
  CGWARP_PC_NONE,   /* fused: z is r */
  CGWARP_PC_APPLY   /* any other PC (or a null space to remove, or -ksp_cgwarp_fuse 0): PCApply between two kernels */
} CGWarpPCMode;
static const char *const CGWarpPCModes[] = {"fused Jacobi", "fused, no preconditioner", "PCApply between kernels"};

typedef struct {
  PetscInt            check_every; /* iterations between host checks; PETSC_DETERMINE: automatic */
  PetscBool           device_test; /* copy KSPConvergedDefault() to the device (exact results with check_every > 1) */
  PetscBool           fuse;        /* fuse Jacobi / no PC into the update kernel */
  PetscBool           lag;         /* leave x += a p to the next Direction (fused PC, no monitor, a mirrored test) */
  PetscBool           lagged;      /* the last solve did */
  PetscBool           step;        /* fused path: p'w, the update and the next direction in one pass (PetscWarpCGStep) */
  PetscBool           stepped;     /* the last solve did */
  PetscBool           multdot;     /* step: w = A p and p'w in one product where the operator has one ("MatWarpMultDot_C") */
  PetscInt            nmultdot;    /* products of the last solve that gave p'w */
  PetscScalar        *parts;       /* their partial sums of p'w, in the vectors' memory */
  PetscInt            nparts_cap;
  PetscBool           cuda;       /* backend of the last solve */
  CGWarpPCMode        mode;       /* of the last solve */
  PetscInt            last_every; /* check interval of the last solve */
  PetscWarpCGScalars *S, *hS;     /* scalars + norms[nmax]: in the vectors' memory; hS its host copy (pinned), == S on the host */
  double             *work;       /* device reduction work space */
  size_t              work_bytes;
  PetscInt            nmax;
  Vec                 dinv;   /* Jacobi: the inverse diagonal as PCJACOBI applies it */
  PetscBool           direct; /* this solve: dinv from the matrix's diagonal here (PCJACOBI's "diagonal" type), z = dinv r
                                 before the loop without PCApply() (PCJACOBI's set-up copies its diagonal to the host and back) */
  PetscBool           dvalid; /* dinv holds the direct inverse of the matrix in the state dstate with the flags dflags */
  PetscObjectState    dstate;
  int                 dflags;
  PetscInt            nchecks, nits;
} KSP_CGWarp;

/* PETSc's CUDA stream (NULL for the host backend): the kernels run in order with PETSc's own vector and matrix kernels */
static PetscErrorCode GetStream(PetscBool cuda, void **st)
{
  PetscFunctionBegin;
  *st = NULL;
#if PetscDefined(HAVE_CUDA)
  if (cuda) {
    cudaStream_t s;
    PetscCall(PetscGetCurrentCUDAStream(&s));
    *st = (void *)s;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeBuffers(KSP_CGWarp *cg)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (cg->cuda) {
    if (cg->S) PetscCallCUDA(cudaFree(cg->S));
    if (cg->hS) PetscCallCUDA(cudaFreeHost(cg->hS));
    if (cg->work) PetscCallCUDA(cudaFree(cg->work));
    if (cg->parts) PetscCallCUDA(cudaFree(cg->parts));
  } else
#endif
  {
    PetscCall(PetscFree(cg->S));
    PetscCall(PetscFree(cg->parts));
  }
  cg->parts      = NULL;
  cg->nparts_cap = 0;
  cg->S = cg->hS = NULL;
  cg->work       = NULL;
  cg->work_bytes = 0;
  cg->nmax       = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scalars and norms[nmax] for the backend, reduction work space for n entries */
static PetscErrorCode EnsureBuffers(KSP_CGWarp *cg, PetscBool cuda, PetscInt n, PetscInt nmax)
{
  size_t bytes = sizeof(PetscWarpCGScalars) + sizeof(double) * (size_t)nmax;

  PetscFunctionBegin;
  if (cg->S && (cg->cuda != cuda || cg->nmax < nmax)) PetscCall(FreeBuffers(cg));
  cg->cuda = cuda;
#if PetscDefined(HAVE_CUDA)
  if (cuda) {
    size_t wb = PetscWarpCGWorkBytesCUDA((int)n);
    void  *st;
    PetscCall(GetStream(PETSC_TRUE, &st));
    if (!cg->S) {
      PetscCallCUDA(cudaMalloc((void **)&cg->S, bytes));
      PetscCallCUDA(cudaMallocHost((void **)&cg->hS, bytes));
      PetscCallCUDA(cudaMemsetAsync(cg->S, 0, bytes, (cudaStream_t)st)); /* on PETSc's stream: before PutScalars() */
      cg->nmax = nmax;
    }
    if (cg->work_bytes < wb) {
      if (cg->work) PetscCallCUDA(cudaFree(cg->work));
      PetscCallCUDA(cudaMalloc((void **)&cg->work, wb));
      cg->work_bytes = wb;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  (void)n;
  if (!cg->S) {
    PetscCall(PetscCalloc(bytes, &cg->S));
    cg->hS   = cg->S;
    cg->nmax = nmax;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPReset_CGWarp(KSP ksp)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  PetscCall(FreeBuffers(cg));
  PetscCall(VecDestroy(&cg->dinv));
  cg->dvalid = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPDestroy_CGWarp(KSP ksp)
{
  PetscFunctionBegin;
  PetscCall(KSPReset_CGWarp(ksp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCGWarpSetCheckEvery_C", NULL));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCGWarpGetCheckEvery_C", NULL));
  PetscCall(KSPDestroyDefault(ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetUp_CGWarp(KSP ksp)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)ksp), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCGWARP runs on one MPI rank (its reductions stay in device memory): use KSPCG on %d ranks", size);
  PetscCheck(!ksp->calc_sings, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCGWARP does not estimate singular values or eigenvalues (KSPSetComputeSingularValues(), -ksp_monitor_singular_value): use KSPCG");
  PetscCheck(!PetscDefined(USE_COMPLEX), PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCGWARP supports real scalars only");
  /* Work vectors like the solution. Before the solution is known (KSPSetUp() called before KSPSolve()) KSPCreateVecs()
     would take them from the DM, and a DMPlex makes a new global vector by looping over every mesh point of its section
     (DMCreateGlobalVector_Section_Private(): 0.11 s at 1.9 M unknowns on a 2D mesh), so they are made by the solve */
  if (ksp->vec_sol) PetscCall(KSPSetWorkVecs(ksp, 3));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Arrays of the vectors a kernel touches, in the backend's memory */
typedef struct {
  Vec          v[5];
  PetscScalar *a[5];
  PetscBool    write[5];
  PetscInt     n;
  PetscBool    cuda;
} CGArrays;

static PetscErrorCode ArraysGet(CGArrays *A, Vec v, PetscBool write, PetscScalar **a)
{
  PetscMemType mt;

  PetscFunctionBegin;
  *a = NULL;
  if (!v) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < A->n; k++)
    if (A->v[k] == v) { /* the same vector twice (z is w or r): one access, read-write */
      PetscCheck(A->write[k] || !write, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Vector got read-only, then for writing");
      *a = A->a[k];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  if (write) PetscCall(VecGetArrayAndMemType(v, &A->a[A->n], &mt));
  else PetscCall(VecGetArrayReadAndMemType(v, (const PetscScalar **)&A->a[A->n], &mt));
  PetscCheck(A->cuda == (PetscBool)!PetscMemTypeHost(mt), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "KSPCGWARP: vectors in host and device memory in one solve; give the solution, the right-hand side and the operator's vectors one VecType");
  A->v[A->n]     = v;
  A->write[A->n] = write;
  *a             = A->a[A->n++];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ArraysRestore(CGArrays *A)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < A->n; k++) {
    if (A->write[k]) PetscCall(VecRestoreArrayAndMemType(A->v[k], &A->a[k]));
    else PetscCall(VecRestoreArrayReadAndMemType(A->v[k], (const PetscScalar **)&A->a[k]));
  }
  A->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LogFlops(KSP_CGWarp *cg, PetscLogDouble f)
{
  PetscFunctionBegin;
  if (cg->cuda) PetscCall(PetscLogGpuFlops(f));
  else PetscCall(PetscLogFlops(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GpuTime(KSP_CGWarp *cg, PetscBool begin)
{
  PetscFunctionBegin;
  if (cg->cuda && begin) PetscCall(PetscLogGpuTimeBegin());
  else if (cg->cuda) PetscCall(PetscLogGpuTimeEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
  #define CGCALL(cg, host, dev) \
    do { \
      if ((cg)->cuda) PetscCallCUDA((cudaError_t)(dev)); \
      else host; \
    } while (0)
#else
  #define CGCALL(cg, host, dev) host
#endif

/* Iteration it: x += a p left by the update of iteration it - 1 (X given: the lag), then p = z (first) or z + b p (Z
   NULL: the x part only, after the last iteration) */
static PetscErrorCode Direction(KSP ksp, PetscInt it, Vec Z, Vec P, Vec X, PetscBool first)
{
  KSP_CGWarp  *cg = (KSP_CGWarp *)ksp->data;
  CGArrays     A  = {.n = 0, .cuda = cg->cuda};
  PetscScalar *z, *p, *x;
  PetscInt     n;
  void        *st;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_Direction, ksp, 0, 0, 0));
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(ArraysGet(&A, P, (PetscBool)(Z != NULL), &p));
  PetscCall(ArraysGet(&A, Z, PETSC_FALSE, &z));
  PetscCall(ArraysGet(&A, X, PETSC_TRUE, &x));
  PetscCall(GetStream(cg->cuda, &st));
  PetscCall(GpuTime(cg, PETSC_TRUE));
  CGCALL(cg, PetscWarpCGDirectionHost((int)n, (int)it, z, p, x, (int)first, cg->S), PetscWarpCGDirectionCUDA((int)n, (int)it, z, p, x, (int)first, cg->S, st));
  PetscCall(GpuTime(cg, PETSC_FALSE));
  PetscCall(LogFlops(cg, first || !Z ? 0.0 : 2.0 * n)); /* a lagged x += a p is counted with its update */
  PetscCall(ArraysRestore(&A));
  PetscCall(PetscLogEventEnd(KSPCGWARP_Direction, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dpi = p'w, a = beta / dpi */
static PetscErrorCode Alpha(KSP ksp, Vec P, Vec W, PetscWarpCGCtl c)
{
  KSP_CGWarp  *cg = (KSP_CGWarp *)ksp->data;
  CGArrays     A  = {.n = 0, .cuda = cg->cuda};
  PetscScalar *p, *w;
  PetscInt     n;
  void        *st;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_Alpha, ksp, 0, 0, 0));
  PetscCall(VecGetLocalSize(P, &n));
  PetscCall(ArraysGet(&A, P, PETSC_FALSE, &p));
  PetscCall(ArraysGet(&A, W, PETSC_FALSE, &w));
  PetscCall(GetStream(cg->cuda, &st));
  PetscCall(GpuTime(cg, PETSC_TRUE));
  CGCALL(cg, PetscWarpCGAlphaHost((int)n, p, w, cg->S, c), PetscWarpCGAlphaCUDA((int)n, p, w, cg->S, cg->work, c, st));
  PetscCall(GpuTime(cg, PETSC_FALSE));
  PetscCall(LogFlops(cg, 2.0 * n));
  PetscCall(ArraysRestore(&A));
  PetscCall(PetscLogEventEnd(KSPCGWARP_Alpha, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Flops of z = D^-1 r and the reductions of an update or a step with these flags */
static PetscLogDouble UpdateFlops(int flags, PetscInt n)
{
  PetscLogDouble f = 0;
  if (flags & PETSCWARP_CG_DIAG) f += 1.0 * n;
  if (flags & PETSCWARP_CG_DOT_ZR) f += 2.0 * n;
  if (flags & PETSCWARP_CG_NRM_R) f += 2.0 * n;
  if (flags & PETSCWARP_CG_NRM_Z) f += 2.0 * n;
  return f;
}

/* x += a p, r -= a w, z = D^-1 r, reductions and the scalars after them, as the flags ask */
static PetscErrorCode Update(KSP ksp, int flags, Vec X, Vec R, Vec P, Vec W, Vec Z, PetscWarpCGCtl c)
{
  KSP_CGWarp    *cg   = (KSP_CGWarp *)ksp->data;
  CGArrays       A    = {.n = 0, .cuda = cg->cuda};
  PetscBool      axpy = (PetscBool) !!(flags & PETSCWARP_CG_AXPY), diag = (PetscBool) !!(flags & PETSCWARP_CG_DIAG), lag = (PetscBool) !!(flags & PETSCWARP_CG_LAG_X);
  PetscScalar   *x, *r, *p, *w, *z, *d;
  double        *norms = (double *)(cg->S + 1);
  PetscInt       n;
  PetscLogDouble f = 0;
  void          *st;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_Update, ksp, 0, 0, 0));
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(ArraysGet(&A, R, axpy, &r));
  PetscCall(ArraysGet(&A, Z, diag, &z)); /* Z may be W (Jacobi) or R (no PC) */
  PetscCall(ArraysGet(&A, axpy && !lag ? X : NULL, PETSC_TRUE, &x));
  PetscCall(ArraysGet(&A, axpy && !lag ? P : NULL, PETSC_FALSE, &p));
  PetscCall(ArraysGet(&A, axpy ? W : NULL, PETSC_FALSE, &w));
  PetscCall(ArraysGet(&A, diag ? cg->dinv : NULL, PETSC_FALSE, &d));
  PetscCheck(PetscWarpCGUpdateArgsValid(flags, x, r, p, w, z, d), PETSC_COMM_SELF, PETSC_ERR_PLIB, "KSPCGWARP update (flags %d, %s mode): an array it needs is NULL", flags, CGWarpPCModes[cg->mode]);
  PetscCall(GetStream(cg->cuda, &st));
  PetscCall(GpuTime(cg, PETSC_TRUE));
  CGCALL(cg, PetscWarpCGUpdateHost((int)n, flags, x, r, p, w, z, d, cg->S, norms, c), PetscWarpCGUpdateCUDA((int)n, flags, x, r, p, w, z, d, cg->S, norms, cg->work, c, st));
  PetscCall(GpuTime(cg, PETSC_FALSE));
  if (axpy) f += 4.0 * n; /* x += a p too where it lags into the next Direction */
  PetscCall(LogFlops(cg, f + UpdateFlops(flags, n)));
  PetscCall(ArraysRestore(&A));
  PetscCall(PetscLogEventEnd(KSPCGWARP_Update, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Iteration it's p'w and a, its update (r -= a w, z = D^-1 r, the reductions, the norm, b), then the next iteration's
   direction (x += a p, p = z + b p): one cooperative kernel on the device */
typedef PetscErrorCode (*MultDotFn)(Mat, Vec, Vec, PetscInt, PetscScalar[], PetscInt *);

/* w = A p; with f (the operator's "MatWarpMultDot_C", looked up once per solve), and p'w as partial sums in
   cg->parts[0 .. *np) where that product gives them */
static PetscErrorCode MultDot(KSP ksp, MultDotFn f, Mat A, Vec P, Vec W, PetscInt *np)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  *np = 0;
  if (f) {
    PetscCall((*f)(A, P, W, cg->nparts_cap, cg->parts, np));
    if (*np < 0) { /* room for the product's partial sums */
      PetscInt need = -*np;
#if PetscDefined(HAVE_CUDA)
      if (cg->cuda) {
        if (cg->parts) PetscCallCUDA(cudaFree(cg->parts));
        PetscCallCUDA(cudaMalloc((void **)&cg->parts, sizeof(PetscScalar) * (size_t)need));
      } else
#endif
      {
        PetscCall(PetscFree(cg->parts));
        PetscCall(PetscMalloc1(need, &cg->parts));
      }
      cg->nparts_cap = need;
      PetscCall((*f)(A, P, W, cg->nparts_cap, cg->parts, np));
      PetscCheck(*np >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The operator's product asked for %" PetscInt_FMT " partial sums after getting %" PetscInt_FMT, -*np, need);
    }
  }
  if (*np > 0) cg->nmultdot++;
  else PetscCall(KSP_MatMult(ksp, A, P, W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Step(KSP ksp, int flags, Vec X, Vec R, Vec P, Vec W, Vec Z, PetscInt np, PetscWarpCGCtl c)
{
  KSP_CGWarp    *cg   = (KSP_CGWarp *)ksp->data;
  CGArrays       A    = {.n = 0, .cuda = cg->cuda};
  PetscBool      diag = (PetscBool) !!(flags & PETSCWARP_CG_DIAG);
  PetscScalar   *x, *r, *p, *w, *z, *d;
  double        *norms = (double *)(cg->S + 1);
  PetscInt       n;
  PetscLogDouble f;
  void          *st;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_Step, ksp, 0, 0, 0));
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(ArraysGet(&A, R, PETSC_TRUE, &r));
  PetscCall(ArraysGet(&A, Z, PETSC_TRUE, &z)); /* Z may be W (Jacobi) or R (no PC) */
  PetscCall(ArraysGet(&A, X, PETSC_TRUE, &x));
  PetscCall(ArraysGet(&A, P, PETSC_TRUE, &p));
  PetscCall(ArraysGet(&A, W, PETSC_FALSE, &w));
  PetscCall(ArraysGet(&A, diag ? cg->dinv : NULL, PETSC_FALSE, &d));
  PetscCheck(PetscWarpCGStepArgsValid(flags, x, r, p, w, z, d), PETSC_COMM_SELF, PETSC_ERR_PLIB, "KSPCGWARP step (flags %d, %s mode): an array it needs is NULL", flags, CGWarpPCModes[cg->mode]);
  PetscCall(GetStream(cg->cuda, &st));
  PetscCall(GpuTime(cg, PETSC_TRUE));
  CGCALL(cg, PetscWarpCGStepHost((int)n, flags, x, r, p, w, z, d, np > 0 ? cg->parts : NULL, (int)np, cg->S, norms, c), PetscWarpCGStepCUDA((int)n, flags, x, r, p, w, z, d, np > 0 ? cg->parts : NULL, (int)np, cg->S, norms, cg->work, c, st));
  PetscCall(GpuTime(cg, PETSC_FALSE));
  f = (np > 0 ? 0.0 : 2.0 * n) + 4.0 * n + 2.0 * n; /* p'w (counted with the product when it gave it); x += a p, r -= a w; p = z + b p */
  PetscCall(LogFlops(cg, f + UpdateFlops(flags, n)));
  PetscCall(ArraysRestore(&A));
  PetscCall(PetscLogEventEnd(KSPCGWARP_Step, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z <- B r as KSPCG applies it; with no preconditioner z is r itself; with the inverse diagonal taken here, z = dinv r
   (PCApply_Jacobi()'s VecPointwiseMult()) */
static PetscErrorCode ApplyPC(KSP ksp, Vec R, Vec Z)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  if (R == Z) PetscFunctionReturn(PETSC_SUCCESS);
  if (cg->direct) PetscCall(VecPointwiseMult(Z, R, cg->dinv));
  else PetscCall(KSP_PCApply(ksp, R, Z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* D^-1 for the fused Jacobi, exactly as PCJACOBI applies it. PCJACOBI's "diagonal" type (the default): from the
   matrix's diagonal where the vectors are (PCSetUp_Jacobi()'s arithmetic: 1/d, 0 -> +0, |.| with -pc_jacobi_abs, then
   0 -> 1 unless disabled or the matrix is known SPD), so that PCJACOBI's own set-up, which copies the diagonal to the
   host and back at its first PCApply(), never runs; computed again only when the matrix changed (its object state) and
   the PC is not to be reused (KSPSetReusePreconditioner(), SNES's lag), as PCSetUp() would. Other types, and with
   KSPSetErrorIfNotConverged() (PCApply()'s Inf/NaN checks): PCApply() to a vector of ones (P: work vector) */
static PetscErrorCode JacobiInverse(KSP ksp, Mat Pmat, Vec X, Vec P)
{
  KSP_CGWarp  *cg = (KSP_CGWarp *)ksp->data;
  PCJacobiType type;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_SetUp, ksp, 0, 0, 0));
  if (!cg->dinv) {
    PetscCall(VecDuplicate(X, &cg->dinv));
    cg->dvalid = PETSC_FALSE;
  }
  PetscCall(PCJacobiGetType(ksp->pc, &type));
  cg->direct = (PetscBool)(type == PC_JACOBI_DIAGONAL && !ksp->errorifnotconverged);
  if (cg->direct) {
    PetscBool        useabs, fixdiag, isset, isspd, reuse;
    PetscScalar     *d;
    PetscMemType     mt;
    PetscInt         n;
    PetscObjectState state;
    int              fix, dflags;
    PetscCall(PCJacobiGetUseAbs(ksp->pc, &useabs));
    PetscCall(PCJacobiGetFixDiagonal(ksp->pc, &fixdiag));
    PetscCall(MatIsSPDKnown(Pmat, &isset, &isspd));
    PetscCall(PCGetReusePreconditioner(ksp->pc, &reuse));
    PetscCall(PetscObjectStateGet((PetscObject)Pmat, &state));
    fix    = fixdiag && (!isset || !isspd);
    dflags = (int)useabs | fix << 1;
    if (cg->dvalid && dflags == cg->dflags && (reuse || state == cg->dstate)) { /* what PCSetUp() would keep */
      PetscCall(PetscLogEventEnd(KSPCGWARP_SetUp, ksp, 0, 0, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(MatGetDiagonal(Pmat, cg->dinv));
    PetscCall(VecGetLocalSize(cg->dinv, &n));
    PetscCall(VecGetArrayAndMemType(cg->dinv, &d, &mt));
#if PetscDefined(HAVE_CUDA)
    if (!PetscMemTypeHost(mt)) {
      void *st;
      PetscCall(GetStream(PETSC_TRUE, &st));
      PetscCall(PetscLogGpuTimeBegin());
      PetscCallCUDA((cudaError_t)PetscWarpCGInverseDiagonalCUDA((int)n, d, (int)useabs, fix, st));
      PetscCall(PetscLogGpuTimeEnd());
    } else
#endif
      PetscWarpCGInverseDiagonalHost((int)n, d, (int)useabs, fix);
    PetscCall(VecRestoreArrayAndMemType(cg->dinv, &d));
    cg->dvalid = PETSC_TRUE;
    cg->dstate = state;
    cg->dflags = dflags;
  } else {
    cg->dvalid = PETSC_FALSE;
    PetscCall(VecSet(P, 1.0));
    PetscCall(PCApply(ksp->pc, P, cg->dinv));
  }
  PetscCall(PetscLogEventEnd(KSPCGWARP_SetUp, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Scalars from the host to the kernels' memory, and back with the norms of nb iterations */
static PetscErrorCode PutScalars(KSP_CGWarp *cg)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (cg->cuda) {
    void *st;
    PetscCall(GetStream(cg->cuda, &st));
    PetscCallCUDA(cudaMemcpyAsync(cg->S, cg->hS, sizeof(PetscWarpCGScalars), cudaMemcpyHostToDevice, (cudaStream_t)st));
    PetscCall(PetscLogCpuToGpu(sizeof(PetscWarpCGScalars)));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetScalars(KSP ksp, PetscInt nb)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(KSPCGWARP_Check, ksp, 0, 0, 0));
#if PetscDefined(HAVE_CUDA)
  if (cg->cuda) {
    size_t bytes = sizeof(PetscWarpCGScalars) + sizeof(double) * (size_t)nb;
    void  *st;
    PetscCall(GetStream(cg->cuda, &st));
    PetscCallCUDA(cudaMemcpyAsync(cg->hS, cg->S, bytes, cudaMemcpyDeviceToHost, (cudaStream_t)st));
    PetscCallCUDA(cudaStreamSynchronize((cudaStream_t)st));
    PetscCall(PetscLogGpuToCpu((PetscLogDouble)bytes));
  }
#endif
  (void)nb;
  cg->nchecks++;
  PetscCall(PetscLogEventEnd(KSPCGWARP_Check, ksp, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  KSPCG's bookkeeping for iterations i0 .. i0+nb-1 from the scalars and norms the kernels left: breakdowns, monitors,
  the residual history, the convergence test, in KSPCG's order. Iterations the device ran past the one at which the
  test stopped (check interval > 1 with a test the device does not copy) are monitored and counted: they happened.
*/
static PetscErrorCode Replay(KSP ksp, PetscInt i0, PetscInt nb)
{
  KSP_CGWarp         *cg    = (KSP_CGWarp *)ksp->data;
  PetscWarpCGScalars *S     = cg->hS;
  const double       *norms = (const double *)(S + 1);
  int                 st = S->status, sit = S->status_it;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < nb; j++) {
    PetscInt  i  = i0 + j;
    PetscReal dp = (PetscReal)norms[j];

    ksp->its = i + 1;
    if (st && sit == i && st == PETSCWARP_CG_ALPHA_NAN) KSPCheckDot(ksp, (PetscScalar)S->dpi);
    if (st && sit == i && st == PETSCWARP_CG_INDEF_MAT) {
      if (ksp->converged_neg_curve) {
        PetscCall(PetscInfo(ksp, "converged due to negative curvature: %g\n", (double)S->dpi));
        ksp->reason = KSP_CONVERGED_NEG_CURVE;
      } else {
        PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "Diverged due to indefinite matrix, dpi %g, dpiold %g", (double)S->dpi, (double)S->dpiold);
        ksp->reason = KSP_DIVERGED_INDEFINITE_MAT;
        PetscCall(PetscInfo(ksp, "diverging due to indefinite matrix\n"));
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (st && sit == i && st == PETSCWARP_CG_NORM_NAN) {
      if (ksp->normtype == KSP_NORM_NATURAL) KSPCheckDot(ksp, (PetscScalar)dp);
      KSPCheckNorm(ksp, dp);
    }
    ksp->rnorm = dp;
    PetscCall(KSPLogResidualHistory(ksp, dp));
    PetscCall(KSPMonitor(ksp, i + 1, dp));
    PetscCall((*ksp->converged)(ksp, i + 1, dp, &ksp->reason, ksp->cnvP));
    if (ksp->reason) {
      for (PetscInt t = j + 1; t < nb && !(st && sit <= i0 + t); t++) { /* iterations run past the test's stop */
        ksp->its   = i0 + t + 1;
        ksp->rnorm = (PetscReal)norms[t];
        PetscCall(KSPLogResidualHistory(ksp, ksp->rnorm));
        PetscCall(KSPMonitor(ksp, ksp->its, ksp->rnorm));
      }
      if (ksp->its > i + 1) PetscCall(PetscInfo(ksp, "%" PetscInt_FMT " iterations past the convergence test's stop (check interval %" PetscInt_FMT ")\n", ksp->its - i - 1, cg->last_every));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCheck(!(st && sit == i && st == PETSCWARP_CG_CONVERGED), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device copy of KSPConvergedDefault() stopped at iteration %" PetscInt_FMT " (norm %g), the host's did not", i + 1, (double)dp);
    if (st && sit == i && st == PETSCWARP_CG_BETA_NAN) KSPCheckDot(ksp, (PetscScalar)S->beta);
    if (st && sit == i + 1 && (st == PETSCWARP_CG_BETA_ZERO || st == PETSCWARP_CG_INDEF_PC)) {
      if (i + 1 >= ksp->max_it) break; /* KSPCG leaves its loop before looking at beta */
      ksp->its = i + 2;
      if (st == PETSCWARP_CG_BETA_ZERO) {
        ksp->reason = KSP_CONVERGED_ATOL;
        PetscCall(PetscInfo(ksp, "converged due to beta = 0\n"));
      } else {
        PetscCheck(!ksp->errorifnotconverged, PetscObjectComm((PetscObject)ksp), PETSC_ERR_NOT_CONVERGED, "Diverged due to indefinite preconditioner, beta %g, betaold %g", (double)S->beta, (double)S->betaold);
        ksp->reason = KSP_DIVERGED_INDEFINITE_PC;
        PetscCall(PetscInfo(ksp, "diverging due to indefinite preconditioner\n"));
      }
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Jacobi, no PC, or PCApply; fusing needs no null space to remove after the preconditioner */
static PetscErrorCode ChooseMode(KSP ksp, Mat Amat, CGWarpPCMode *mode)
{
  KSP_CGWarp  *cg = (KSP_CGWarp *)ksp->data;
  PetscBool    jac, none;
  MatNullSpace nsp = NULL;

  PetscFunctionBegin;
  *mode = CGWARP_PC_APPLY;
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCJACOBI, &jac));
  PetscCall(PetscObjectTypeCompare((PetscObject)ksp->pc, PCNONE, &none));
  if (ksp->pc_side == PC_LEFT) {
    if (ksp->transpose_solve) PetscCall(MatGetTransposeNullSpace(Amat, &nsp));
    else PetscCall(MatGetNullSpace(Amat, &nsp));
  }
  if (!cg->fuse || nsp) PetscFunctionReturn(PETSC_SUCCESS);
  if (jac) *mode = CGWARP_PC_JACOBI;
  if (none) *mode = CGWARP_PC_NONE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the host's convergence test can be copied to the device exactly (then checks can be rarer at no cost) */
static PetscBool TestMirrored(KSP ksp)
{
  if (ksp->normtype == KSP_NORM_NONE) return (PetscBool)(ksp->converged == KSPConvergedDefault || ksp->converged == KSPConvergedSkip);
  return (PetscBool)(ksp->converged == KSPConvergedDefault);
}

static PetscErrorCode KSPSolve_CGWarp(KSP ksp)
{
  KSP_CGWarp  *cg   = (KSP_CGWarp *)ksp->data;
  PetscScalar  beta = 0.0;
  PetscReal    dp   = 0.0;
  Vec          X, B, R, Z, P, W;
  Mat          Amat, Pmat;
  PetscMemType mt;
  PetscScalar *xa;
  PetscInt     every, n, ilast = -1;
  MultDotFn    multdot = NULL;
  PetscBool    mirrored;
  int          flags;

  PetscFunctionBegin;
  X = ksp->vec_sol;
  B = ksp->vec_rhs;
  { /* work vectors like X: made here when KSPSetUp() did not know X, made again if X changed type */
    VecType   xt, wt;
    PetscBool same = PETSC_FALSE;
    PetscCall(VecGetType(X, &xt));
    if (ksp->nwork >= 3) {
      PetscCall(VecGetType(ksp->work[0], &wt));
      PetscCall(PetscStrcmp(xt, wt, &same));
    }
    if (!same) PetscCall(KSPSetWorkVecs(ksp, 3));
    if (!same && cg->dinv) PetscCall(VecDestroy(&cg->dinv)); /* JacobiInverse() makes it again (and its values) */
  }
  R = ksp->work[0];
  Z = ksp->work[1];
  P = ksp->work[2];
  W = Z;
  PetscCheck(!ksp->calc_sings, PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "KSPCGWARP does not estimate singular values or eigenvalues (KSPSetComputeSingularValues(), -ksp_monitor_singular_value): use KSPCG");
  PetscCall(PCGetOperators(ksp->pc, &Amat, &Pmat));
  PetscCall(ChooseMode(ksp, Amat, &cg->mode));
  if (cg->mode == CGWARP_PC_NONE) Z = R; /* w keeps its own vector */
  cg->direct = PETSC_FALSE;
  if (cg->mode == CGWARP_PC_JACOBI) PetscCall(JacobiInverse(ksp, Pmat, X, P)); /* before KSPCG's first z = B r */

  /* KSPCG before its loop: r, the initial norm and test, z and beta (PETSc's vector operations, once per solve) */
  ksp->its = 0;
  if (!ksp->guess_zero) {
    PetscCall(KSP_MatMult(ksp, Amat, X, R));
    PetscCall(VecAYPX(R, -1.0, B));
  } else PetscCall(VecCopy(B, R));
  PetscCall(VecFlag(R, ksp->reason == KSP_DIVERGED_PC_FAILED));
  switch (ksp->normtype) {
  case KSP_NORM_PRECONDITIONED:
    PetscCall(ApplyPC(ksp, R, Z));
    PetscCall(VecNorm(Z, NORM_2, &dp));
    KSPCheckNorm(ksp, dp);
    break;
  case KSP_NORM_UNPRECONDITIONED:
    PetscCall(VecNorm(R, NORM_2, &dp));
    KSPCheckNorm(ksp, dp);
    break;
  case KSP_NORM_NATURAL:
    PetscCall(ApplyPC(ksp, R, Z));
    PetscCall(VecDot(Z, R, &beta));
    KSPCheckDot(ksp, beta);
    dp = PetscSqrtReal(PetscAbsScalar(beta));
    break;
  case KSP_NORM_NONE:
    dp = 0.0;
    break;
  default:
    SETERRQ(PetscObjectComm((PetscObject)ksp), PETSC_ERR_SUP, "%s", KSPNormTypes[ksp->normtype]);
  }
  PetscCall(KSPLogResidualHistory(ksp, dp));
  PetscCall(KSPMonitor(ksp, 0, dp));
  ksp->rnorm = dp;
  PetscCall((*ksp->converged)(ksp, 0, dp, &ksp->reason, ksp->cnvP));
  if (ksp->reason) PetscFunctionReturn(PETSC_SUCCESS);
  if (ksp->normtype != KSP_NORM_PRECONDITIONED && ksp->normtype != KSP_NORM_NATURAL) PetscCall(ApplyPC(ksp, R, Z));
  if (ksp->normtype != KSP_NORM_NATURAL) {
    PetscCall(VecDot(Z, R, &beta));
    KSPCheckDot(ksp, beta);
  }
  if (ksp->max_it <= 0) {
    ksp->reason = KSP_DIVERGED_ITS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (beta == 0.0) {
    ksp->its    = 1;
    ksp->reason = KSP_CONVERGED_ATOL;
    PetscCall(PetscInfo(ksp, "converged due to beta = 0\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }

  /* the loop: kernels on the vectors' memory, a host check every `every` iterations */
  PetscCall(VecGetArrayReadAndMemType(X, (const PetscScalar **)&xa, &mt));
  PetscCall(VecRestoreArrayReadAndMemType(X, (const PetscScalar **)&xa));
  PetscCall(VecGetLocalSize(X, &n));
  mirrored       = TestMirrored(ksp);
  every          = cg->check_every > 0 ? cg->check_every : (mirrored && !ksp->numbermonitors ? 8 : 1);
  every          = PetscMin(every, ksp->max_it);
  cg->last_every = every;
  PetscCall(EnsureBuffers(cg, (PetscBool)!PetscMemTypeHost(mt), n, every));
  PetscCall(PetscMemzero(cg->hS, sizeof(PetscWarpCGScalars)));
  cg->hS->beta    = (double)PetscRealPart(beta);
  cg->hS->betaold = 1.0;
  PetscCall(PutScalars(cg));

  flags = PETSCWARP_CG_AXPY | PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_FIN_NORM | PETSCWARP_CG_FIN_BETA;
  if (cg->mode == CGWARP_PC_JACOBI) flags |= PETSCWARP_CG_DIAG;
  cg->stepped  = (PetscBool)(cg->step && cg->mode != CGWARP_PC_APPLY);
  cg->nmultdot = 0;
#if PetscDefined(HAVE_CUDA)
  if (cg->stepped && cg->cuda) {
    int ok;
    PetscCallCUDA((cudaError_t)PetscWarpCGStepAvailableCUDA(&ok));
    if (!ok) PetscCall(PetscInfo(ksp, "no cooperative launch on this device: three kernels per iteration instead of the fused step\n"));
    cg->stepped = (PetscBool)ok;
  }
#endif
  /* without the step, x one iteration behind between kernels: only where nothing looks at it during the solve, and not
     where Replay() may raise an error (KSPSetErrorIfNotConverged()) before the last x += a p is flushed: KSPCG's x has
     it then */
  cg->lagged = (PetscBool)(!cg->stepped && cg->lag && cg->mode != CGWARP_PC_APPLY && mirrored && !ksp->numbermonitors && !ksp->errorifnotconverged);
  if (cg->lagged) flags |= PETSCWARP_CG_LAG_X;
  if (cg->stepped && cg->multdot && !ksp->transpose_solve) PetscCall(PetscObjectQueryFunction((PetscObject)Amat, "MatWarpMultDot_C", &multdot));
  if (ksp->normtype == KSP_NORM_UNPRECONDITIONED) flags |= PETSCWARP_CG_NRM_R;
  if (ksp->normtype == KSP_NORM_PRECONDITIONED) flags |= PETSCWARP_CG_NRM_Z;
  for (PetscInt i0 = 0; i0 < ksp->max_it && !ksp->reason; i0 += every) {
    PetscInt nb = PetscMin(every, ksp->max_it - i0);
    for (PetscInt j = 0; j < nb; j++) {
      PetscInt       i = i0 + j, it = i + 1;
      PetscWarpCGCtl c;

      c.it       = (int)i;
      c.slot     = (int)j;
      c.normtype = (int)ksp->normtype;
      c.skipnorm = ksp->chknorm >= i + 2;
      c.test     = cg->device_test && mirrored && ksp->normtype != KSP_NORM_NONE && it > ksp->chknorm && it >= ksp->min_it;
      c.ttol     = (double)ksp->ttol;
      c.dtol     = (double)(ksp->divtol * ksp->rnorm0);
      if (cg->stepped) { /* the direction of iteration i > 0 came with the step of iteration i - 1 */
        PetscInt np;
        if (i == 0) PetscCall(Direction(ksp, 0, Z, P, NULL, PETSC_TRUE));
        PetscCall(MultDot(ksp, multdot, Amat, P, W, &np));
        PetscCall(Step(ksp, flags, X, R, P, W, Z, np, c));
        continue;
      }
      PetscCall(Direction(ksp, i, Z, P, cg->lagged ? X : NULL, (PetscBool)(i == 0)));
      PetscCall(KSP_MatMult(ksp, Amat, P, W));
      PetscCall(Alpha(ksp, P, W, c));
      if (cg->mode != CGWARP_PC_APPLY) PetscCall(Update(ksp, flags, X, R, P, W, Z, c));
      else {
        int f1 = PETSCWARP_CG_AXPY, f2 = PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_FIN_BETA;
        if (ksp->normtype == KSP_NORM_UNPRECONDITIONED) f1 |= PETSCWARP_CG_NRM_R | PETSCWARP_CG_FIN_NORM;
        else f2 |= PETSCWARP_CG_FIN_NORM;
        if (ksp->normtype == KSP_NORM_PRECONDITIONED) f2 |= PETSCWARP_CG_NRM_Z;
        PetscCall(Update(ksp, f1, X, R, P, W, NULL, c));
        PetscCall(KSP_PCApply(ksp, R, Z));
        PetscCall(Update(ksp, f2, NULL, R, NULL, NULL, Z, c));
      }
    }
    cg->nits += nb;
    ilast = i0 + nb - 1;
    PetscCall(GetScalars(ksp, nb));
    PetscCall(Replay(ksp, i0, nb));
  }
  if (cg->lagged) PetscCall(Direction(ksp, ilast + 1, NULL, P, X, PETSC_FALSE)); /* the last update's x += a p, if it lagged */
  if (!ksp->reason) {
    ksp->its    = ksp->max_it;
    ksp->reason = KSP_DIVERGED_ITS;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPSetFromOptions_CGWarp(KSP ksp, PetscOptionItems PetscOptionsObject)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;
  PetscInt    k  = cg->check_every > 0 ? cg->check_every : 0;
  PetscBool   flg;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "KSP CGWARP options");
  PetscCall(PetscOptionsInt("-ksp_cgwarp_check_every", "Iterations between host checks of the norm (0: automatic)", "KSPCGWarpSetCheckEvery", k, &k, &flg));
  if (flg) PetscCall(KSPCGWarpSetCheckEvery(ksp, k));
  PetscCall(PetscOptionsBool("-ksp_cgwarp_device_test", "Copy KSPConvergedDefault() to the device (stop at the same iteration with rarer checks)", "KSPCGWARP", cg->device_test, &cg->device_test, NULL));
  PetscCall(PetscOptionsBool("-ksp_cgwarp_fuse", "Fuse PCJACOBI or PCNONE into the update kernel (0: PCApply between kernels)", "KSPCGWARP", cg->fuse, &cg->fuse, NULL));
  PetscCall(PetscOptionsBool("-ksp_cgwarp_step", "Fused Jacobi/none: p'w, the update and the next direction in one pass (one cooperative kernel on the device) instead of three kernels", "KSPCGWARP", cg->step, &cg->step, NULL));
  PetscCall(PetscOptionsBool("-ksp_cgwarp_mult_dot", "With the step: w = A p and p'w in one product where the operator has one (MATELLWARP)", "KSPCGWARP", cg->multdot, &cg->multdot, NULL));
  PetscCall(PetscOptionsBool("-ksp_cgwarp_lag_x", "Leave x += a p to the next iteration's first kernel, which reads p anyway (fused PC, no monitor, KSPConvergedDefault/Skip, no error if not converged)", "KSPCGWARP", cg->lag, &cg->lag, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPView_CGWarp(KSP ksp, PetscViewer viewer)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;
  PetscBool   ascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (cg->check_every > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  host check every %" PetscInt_FMT " iterations\n", cg->check_every));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  host check every 8 iterations with KSPConvergedDefault()/KSPConvergedSkip() and no monitor, else every iteration\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  device copy of the default convergence test: %s; fuse Jacobi/none: %s; one step kernel: %s; product with p'w: %s; x one iteration behind: %s\n", PetscBools[cg->device_test], PetscBools[cg->fuse], PetscBools[cg->step], PetscBools[cg->multdot], PetscBools[cg->lag]));
  if (cg->nits && cg->stepped) PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %" PetscInt_FMT " products gave p'w\n", cg->nmultdot));
  if (cg->nits)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  last solve: %s, %s kernels, check every %" PetscInt_FMT ", x %s; all solves: %" PetscInt_FMT " iterations launched (no-ops after a stop on the device included), %" PetscInt_FMT " host checks\n", CGWarpPCModes[cg->mode], cg->cuda ? "CUDA" : "host", cg->last_every, cg->stepped ? "updated in the step (p'w, update and next direction in one pass)" : (cg->lagged ? "one iteration behind between kernels" : "updated in each iteration"), cg->nits, cg->nchecks));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCGWarpSetCheckEvery_CGWarp(KSP ksp, PetscInt k)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  PetscCheck(k >= 0 || k == PETSC_DETERMINE, PetscObjectComm((PetscObject)ksp), PETSC_ERR_ARG_OUTOFRANGE, "Check interval %" PetscInt_FMT " must be positive, or 0 / PETSC_DETERMINE for automatic", k);
  cg->check_every = k > 0 ? k : PETSC_DETERMINE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode KSPCGWarpGetCheckEvery_CGWarp(KSP ksp, PetscInt *k)
{
  KSP_CGWarp *cg = (KSP_CGWarp *)ksp->data;

  PetscFunctionBegin;
  *k = cg->check_every > 0 ? cg->check_every : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCGWarpSetCheckEvery - Sets how many `KSPCGWARP` iterations run between two host checks of the residual norm

  Logically Collective

  Input Parameters:
+ ksp - the `KSPCGWARP` solver
- k   - iterations between checks, or 0 (`PETSC_DETERMINE`) for the automatic choice

  Options Database Key:
. -ksp_cgwarp_check_every <k> - the interval

  Level: intermediate

  Notes:
  A check copies the norms of the last k iterations and the breakdown status to the host (one synchronisation), then runs
  the monitors and the convergence test on each of them in order, as `KSPCG` would have. With `KSPConvergedDefault()`
  (and `-ksp_cgwarp_device_test`, the default) the kernels apply the same test to the same norms and stop changing the
  iterates at the iteration where it is satisfied, so any k gives `KSPCG`'s iterates and iteration count; with
  `KSPConvergedSkip()` and `KSP_NORM_NONE` there is nothing to stop on. With any other convergence test, up to k-1
  iterations run past the one at which the test is satisfied: the solution includes them and `KSPGetIterationNumber()`
  counts them. The automatic choice is 8 when the test is copied and no monitor is set, else 1. Other `KSPType`s
  ignore it.

.seealso: `KSPCGWARP`, `KSPCGWarpGetCheckEvery()`, `KSPSetConvergenceTest()`
@*/
PetscErrorCode KSPCGWarpSetCheckEvery(KSP ksp, PetscInt k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscValidLogicalCollectiveInt(ksp, k, 2);
  PetscTryMethod(ksp, "KSPCGWarpSetCheckEvery_C", (KSP, PetscInt), (ksp, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  KSPCGWarpGetCheckEvery - Gets the number of `KSPCGWARP` iterations between two host checks of the residual norm

  Not Collective

  Input Parameter:
. ksp - the `KSPCGWARP` solver

  Output Parameter:
. k - the interval, 0 for the automatic choice

  Level: intermediate

.seealso: `KSPCGWARP`, `KSPCGWarpSetCheckEvery()`
@*/
PetscErrorCode KSPCGWarpGetCheckEvery(KSP ksp, PetscInt *k)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(ksp, KSP_CLASSID, 1);
  PetscAssertPointer(k, 2);
  PetscUseMethod(ksp, "KSPCGWarpGetCheckEvery_C", (KSP, PetscInt *), (ksp, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  KSPCGWARP - KSPCGWARP = "cgwarp" - `KSPCG`'s conjugate gradient method (the same arithmetic: the same iterates up to
  round-off, the same iteration counts for the same tolerances and norm type) with the vector work of an iteration fused
  into three kernels and alpha, beta and the norms computed where the vectors are, so that an iteration needs no host
  synchronisation

  Options Database Keys:
+ -ksp_cgwarp_check_every <k>       - iterations between host checks of the norm (default: automatic, see `KSPCGWarpSetCheckEvery()`)
. -ksp_cgwarp_device_test <bool>    - apply `KSPConvergedDefault()` on the device too, so that rarer checks change nothing (default true)
. -ksp_cgwarp_fuse <bool>           - fuse `PCJACOBI` and `PCNONE` into the kernels (default true; false: `PCApply()` between kernels)
. -ksp_cgwarp_step <bool>           - with a fused preconditioner, p'w, the update and the next direction in one pass: one cooperative
                                      kernel with two grid synchronisations on the device (default true; false: three kernels)
. -ksp_cgwarp_mult_dot <bool>       - with the step, w = A p and p'w in one product where the operator has one (`MATELLWARP`:
                                      partial sums of p'w from the product's blocks; default true)
- -ksp_cgwarp_lag_x <bool>          - without the step, leave x += a p to the next iteration's first kernel, which reads p anyway
                                      (default true; used only with a fused preconditioner, no monitor, `KSPConvergedDefault()` or
                                      `KSPConvergedSkip()`, and no `KSPSetErrorIfNotConverged()`)

  Level: intermediate

  Notes:
  One iteration with `PCJACOBI` or `PCNONE`: w = A p (`MatMult()` of any matrix type: `MATELLWARP`, `MATAIJCUSPARSE`,
  `MATSHAREDNZ`, `MATSEQAIJ`, ...; a `MATELLWARP` product also leaves p'w as partial sums), then one step kernel: p'w and
  alpha (a grid synchronisation), r -= a w, z = D^-1 r, z'r, the norm and beta (another), then x += a p and the next
  p = z + b p, with z kept in shared memory between the two (cooperative launch; where the device has none, or with
  `-ksp_cgwarp_step 0`, three kernels: the direction, p'w with alpha, the update). `KSPCG` with `PCJACOBI` runs about
  nine vector kernels and three host synchronisations (`VecDot()`, `VecDot()`, `VecNorm()` return their scalars to the
  host) per iteration. The work vectors are made by the first solve (like its solution vector): `KSPSetUp()` before
  `KSPSolve()` would otherwise take them from the `DM`, which for a `DMPLEX` loops over every mesh point.

  The vectors decide where the kernels run: CUDA for `VECCUDA` vectors, the host twins of the kernels (the same code
  paths, used in tests) for host vectors; they must all live in one memory space.

  Preconditioners: `PCJACOBI` and `PCNONE` are fused. `PCJACOBI`'s inverse diagonal is computed once per solve with
  `PCJACOBI`'s arithmetic: for its default type (`PC_JACOBI_DIAGONAL`, with `-pc_jacobi_abs` and
  `-pc_jacobi_fixdiagonal`) from `MatGetDiagonal()` where the vectors are, kept while the matrix is unchanged or the `PC` is
  reused (`KSPSetReusePreconditioner()`), so that `PCJACOBI`'s own set-up, which copies the diagonal to the host and back,
  never runs (then `PCJacobiGetDiagonal()` has no diagonal to give); for its other types, and with
  `KSPSetErrorIfNotConverged()`, by applying the `PC` to a vector of ones; any other `PC`, or a matrix with a null space, is
  applied with `PCApply()` between two kernels (correct, slower). Norm types: preconditioned (default), unpreconditioned,
  natural, none, as `KSPCG`, left preconditioning only. `KSPSetCheckNormIteration()` is honoured.

  The host checks the norm every k iterations (`KSPCGWarpSetCheckEvery()`): one device-to-host copy and one
  synchronisation for k iterations, then monitors, residual history and the convergence test run on each iteration's
  norm in order, and `KSPConvergedReason` is set as `KSPCG` sets it (breakdowns included: indefinite matrix or
  preconditioner, beta = 0, Inf/NaN). With `KSPConvergedDefault()` the device applies the same test and stops changing
  the iterates where it is met, so the result does not depend on k; with another test up to k-1 extra iterations run.

  Not supported (a clear error): several MPI ranks, complex scalars, singular value estimates
  (`KSPSetComputeSingularValues()`), `KSPCG`'s trust-region and objective options (`KSPCGSetRadius()`: they are `KSPCG`'s
  only). `-log_view` events: `CGWarpSetUp` (D^-1), `CGWarpStep`, `CGWarpDirection`, `CGWarpAlpha`, `CGWarpUpdate`,
  `CGWarpCheck` (the copy back and synchronisation), with their flops; a product that gave p'w is logged as `MatMult`.

.seealso: `KSPCG`, `KSPCGWarpSetCheckEvery()`, `PCJACOBI`, `MATELLWARP`
M*/
PetscErrorCode KSPCreate_CGWarp(KSP ksp)
{
  KSP_CGWarp *cg;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cg));
  cg->check_every = PETSC_DETERMINE;
  cg->device_test = PETSC_TRUE;
  cg->fuse        = PETSC_TRUE;
  cg->lag         = PETSC_TRUE;
  cg->step        = PETSC_TRUE;
  cg->multdot     = PETSC_TRUE;
  ksp->data       = (void *)cg;
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_PRECONDITIONED, PC_LEFT, 3));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_UNPRECONDITIONED, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NATURAL, PC_LEFT, 2));
  PetscCall(KSPSetSupportedNorm(ksp, KSP_NORM_NONE, PC_LEFT, 1));
  ksp->ops->setup          = KSPSetUp_CGWarp;
  ksp->ops->solve          = KSPSolve_CGWarp;
  ksp->ops->destroy        = KSPDestroy_CGWarp;
  ksp->ops->reset          = KSPReset_CGWarp;
  ksp->ops->view           = KSPView_CGWarp;
  ksp->ops->setfromoptions = KSPSetFromOptions_CGWarp;
  ksp->ops->buildsolution  = KSPBuildSolutionDefault;
  ksp->ops->buildresidual  = KSPBuildResidualDefault;
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCGWarpSetCheckEvery_C", KSPCGWarpSetCheckEvery_CGWarp));
  PetscCall(PetscObjectComposeFunction((PetscObject)ksp, "KSPCGWarpGetCheckEvery_C", KSPCGWarpGetCheckEvery_CGWarp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
