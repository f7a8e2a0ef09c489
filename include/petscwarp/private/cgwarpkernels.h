/*
  KSPCGWARP kernels: the vector work of one CG iteration with the scalars (alpha, beta, norms) kept where the vectors
  are, so that an iteration needs no host synchronisation (src/ksp/ksp/impls/cgwarp/cgwarp.c drives them).

  No PETSc objects here: only pointers, sizes and a stream. Every function exists twice, a host twin in C
  (src/kernels/cgwarp_host.c) and a CUDA version (src/kernels/cgwarp.cu); the bookkeeping after each reduction (the
  KSPCG scalar recurrences and its breakdown checks) is one inline function below, shared by both.

  One CG iteration i (KSPCG's loop index; the iteration number is i + 1), KSPCG's arithmetic:
    PetscWarpCGDirection: p = z (i = 0) or p = z + b p, b = beta / betaold; with x, first the x += a p that the update
                          of iteration i - 1 left to it (LAG_X) with that p, before p is overwritten
    (the caller: w = A p, any MatMult)
    PetscWarpCGAlpha:     dpi = p'w; the checks of KSPCG (NaN, dpi = 0, sign change); betaold = beta; a = beta / dpi
    PetscWarpCGUpdate:    x += a p, r -= a w (AXPY); z = D^-1 r (DIAG, z may alias w); reductions z'r, r'r, z'z;
                          the norm of the iteration (FIN_NORM, stored in norms[slot]) and the new beta (FIN_BETA)
  PetscWarpCGStep:      Alpha, Update and the next iteration's Direction in one pass (the fused Jacobi/none path):
                          dpi = p'w and a; r -= a w, z = D^-1 r, the reductions, the norm and b; then x += a p and
                          p = z + b p (only x += a p where the iteration stopped). On CUDA one cooperative kernel
                          with two grid synchronisations instead of three kernels: no launch, ramp or tail between
                          the phases, and x is up to date after every step (no lag to flush).
  A preconditioner other than Jacobi or none: one Update with AXPY, then the caller's PCApply, then one Update without.
  LAG_X (fused Jacobi or none): the update does r -= a w only and leaves x += a p to the next Direction, which reads p
  anyway (one vector read fewer per iteration, the same arithmetic on x); after the last iteration the caller runs a
  Direction without z (the x part only). x is then one iteration behind between kernels: only for callers that do not
  look at x during the solve (no monitors, a convergence test that does not build the solution) and do not stop
  with an error before the flush.
  Once status is set, every later kernel returns at once: the iterates stay as KSPCG leaves them when it stops.
*/
#pragma once

#include <math.h>
#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(__CUDACC__)
  #define PETSCWARP_CG_HD __host__ __device__
#else
  #define PETSCWARP_CG_HD
#endif

/* status: why the iteration stopped on the device (0: it did not). status_it is KSPCG's loop index of the event. */
enum {
  PETSCWARP_CG_RUNNING   = 0,
  PETSCWARP_CG_ALPHA_NAN = 1, /* p'w is Inf or NaN (KSPCheckDot) */
  PETSCWARP_CG_INDEF_MAT = 2, /* p'w = 0 or changed sign: indefinite matrix or negative curvature */
  PETSCWARP_CG_NORM_NAN  = 3, /* the residual norm is Inf or NaN (KSPCheckNorm; natural norm: KSPCheckDot) */
  PETSCWARP_CG_CONVERGED = 4, /* the device copy of KSPConvergedDefault() says converged or diverged: the host decides */
  PETSCWARP_CG_BETA_NAN  = 5, /* z'r is Inf or NaN after the convergence test (KSPCheckDot) */
  PETSCWARP_CG_BETA_ZERO = 6, /* z'r = 0 at the start of iteration status_it (KSPCG: converged, atol) */
  PETSCWARP_CG_INDEF_PC  = 7  /* z'r changed sign at the start of iteration status_it (indefinite preconditioner) */
};

/* norm types, in KSPNormType's order */
enum {
  PETSCWARP_CG_NORM_NONE             = 0,
  PETSCWARP_CG_NORM_PRECONDITIONED   = 1,
  PETSCWARP_CG_NORM_UNPRECONDITIONED = 2,
  PETSCWARP_CG_NORM_NATURAL          = 3
};

/* PetscWarpCGUpdate flags */
#define PETSCWARP_CG_AXPY     1   /* x += a p, r -= a w */
#define PETSCWARP_CG_DIAG     2   /* z = dinv .* r */
#define PETSCWARP_CG_DOT_ZR   4   /* reduce z'r */
#define PETSCWARP_CG_NRM_R    8   /* reduce r'r */
#define PETSCWARP_CG_NRM_Z    16  /* reduce z'z */
#define PETSCWARP_CG_FIN_NORM 32  /* the norm of this iteration from the reductions, checks, device convergence test */
#define PETSCWARP_CG_FIN_BETA 64  /* beta = z'r, its checks, b = beta / betaold */
#define PETSCWARP_CG_LAG_X    128 /* with AXPY and FIN_BETA: x += a p left to the next Direction (xa, xlag) */

/* The scalars, in the memory of the vectors (device for CUDA). norms[] follows this struct in the same allocation so that
   one copy brings back the status and the norms of a batch of iterations. */
typedef struct {
  double       beta, betaold, dpi, dpiold, a, b, dp;
  double       xa; /* LAG_X: the a of the x += a p still to do */
  int          status, status_it;
  unsigned int count; /* blocks done (the last-block reduction pattern); 0 between kernels */
  int          xlag;  /* LAG_X: i + 1 when the update of iteration i left x += xa p to the Direction of iteration i + 1; 0: none */
} PetscWarpCGScalars;

/* What the host tells each iteration's kernels (passed by value) */
typedef struct {
  int    it;       /* KSPCG's loop index i */
  int    slot;     /* where this iteration's norm goes in norms[] */
  int    normtype; /* PETSCWARP_CG_NORM_* */
  int    skipnorm; /* KSPSetCheckNormIteration(): this iteration's preconditioned/unpreconditioned norm is 0, not computed */
  int    test;     /* apply the device copy of KSPConvergedDefault() to this iteration's norm */
  double ttol;     /* converged when dp <= ttol (KSP's ttol = max(rtol rnorm0, abstol)) */
  double dtol;     /* diverged when dp >= dtol (divtol rnorm0) */
} PetscWarpCGCtl;

#define PetscWarpCGFinite(v) ((v) - (v) == 0.0) /* false for Inf and NaN */

static inline PETSCWARP_CG_HD int PetscWarpCGSign(double v)
{
  return v > 0 ? 1 : (v < 0 ? -1 : 0);
}

/* After the reduction of p'w (KSPCG between w = A p and x += a p) */
static inline PETSCWARP_CG_HD void PetscWarpCGFinishAlpha(PetscWarpCGScalars *S, double dpi, const PetscWarpCGCtl *c)
{
  if (S->status) return;
  S->dpiold  = S->dpi;
  S->dpi     = dpi;
  S->betaold = S->beta;
  if (!PetscWarpCGFinite(dpi)) {
    S->status = PETSCWARP_CG_ALPHA_NAN;
  } else if (dpi == 0.0 || (c->it > 0 && PetscWarpCGSign(dpi) * PetscWarpCGSign(S->dpiold) < 0)) {
    S->status = PETSCWARP_CG_INDEF_MAT;
  } else {
    S->a = S->beta / dpi;
    return;
  }
  S->status_it = c->it;
}

/* After the reductions of an update: red = {z'r, r'r, z'z} as the flags asked */
static inline PETSCWARP_CG_HD void PetscWarpCGFinishUpdate(PetscWarpCGScalars *S, double *norms, int flags, const double red[3], const PetscWarpCGCtl *c)
{
  if (S->status) return;
  if ((flags & PETSCWARP_CG_LAG_X) && (flags & PETSCWARP_CG_AXPY)) { /* the x += a p of this iteration is the next Direction's */
    S->xa   = S->a;
    S->xlag = c->it + 1;
  }
  if (flags & PETSCWARP_CG_FIN_NORM) {
    double dp = 0.0;
    int    bad;
    switch (c->normtype) {
    case PETSCWARP_CG_NORM_PRECONDITIONED:
      dp = c->skipnorm ? 0.0 : sqrt(red[2]);
      break;
    case PETSCWARP_CG_NORM_UNPRECONDITIONED:
      dp = c->skipnorm ? 0.0 : sqrt(red[1]);
      break;
    case PETSCWARP_CG_NORM_NATURAL:
      dp = sqrt(fabs(red[0]));
      break;
    default:
      break;
    }
    bad            = c->normtype == PETSCWARP_CG_NORM_NATURAL ? !PetscWarpCGFinite(red[0]) : !PetscWarpCGFinite(dp);
    S->dp          = dp;
    norms[c->slot] = dp;
    if (bad) {
      S->status    = PETSCWARP_CG_NORM_NAN;
      S->status_it = c->it;
      return;
    }
    if (c->test && (dp <= c->ttol || dp >= c->dtol)) {
      S->status    = PETSCWARP_CG_CONVERGED;
      S->status_it = c->it;
      return;
    }
  }
  if (flags & PETSCWARP_CG_FIN_BETA) {
    double beta = red[0];
    S->beta     = beta; /* also when it is Inf or NaN: the host reports it */
    if (!PetscWarpCGFinite(beta)) {
      S->status    = PETSCWARP_CG_BETA_NAN;
      S->status_it = c->it;
      return;
    }
    if (beta == 0.0) S->status = PETSCWARP_CG_BETA_ZERO;
    else if (beta * S->betaold < 0.0) S->status = PETSCWARP_CG_INDEF_PC;
    else {
      S->b = beta / S->betaold;
      return;
    }
    S->status_it = c->it + 1;
  }
}

/* Whether the arrays that an update with these flags reads or writes are all given (1) or one is NULL (0). The PCApply
   path's first update (AXPY, the unpreconditioned norm) has no z: z is read only for DIAG, DOT_ZR or NRM_Z. */
static inline PETSCWARP_CG_HD int PetscWarpCGUpdateArgsValid(int flags, const double *x, const double *r, const double *p, const double *w, const double *z, const double *dinv)
{
  if (!r) return 0;
  if ((flags & PETSCWARP_CG_LAG_X) && (!(flags & PETSCWARP_CG_AXPY) || !(flags & PETSCWARP_CG_FIN_BETA))) return 0; /* nobody would record the lag */
  if ((flags & PETSCWARP_CG_AXPY) && !w) return 0;
  if ((flags & PETSCWARP_CG_AXPY) && !(flags & PETSCWARP_CG_LAG_X) && (!x || !p)) return 0;
  if ((flags & PETSCWARP_CG_DIAG) && !dinv) return 0;
  if ((flags & (PETSCWARP_CG_DIAG | PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_NRM_Z)) && !z) return 0;
  return 1;
}

/* Whether a step with these flags and arrays can run (the driver's fused path always passes them) */
static inline PETSCWARP_CG_HD int PetscWarpCGStepArgsValid(int flags, const double *x, const double *r, const double *p, const double *w, const double *z, const double *dinv)
{
  if (!(flags & PETSCWARP_CG_AXPY) || !(flags & PETSCWARP_CG_FIN_BETA) || !x || !p || !z) return 0;
  return PetscWarpCGUpdateArgsValid(flags | PETSCWARP_CG_LAG_X, x, r, p, w, z, dinv);
}

/* The terms of entry i's reductions z'r, r'r, z'z (as the flags ask) added to red: the update's and the step's */
static inline PETSCWARP_CG_HD void PetscWarpCGReduceEntry(int flags, double zi, double ri, double red[3])
{
  if (flags & PETSCWARP_CG_DOT_ZR) red[0] += zi * ri;
  if (flags & PETSCWARP_CG_NRM_R) red[1] += ri * ri;
  if (flags & PETSCWARP_CG_NRM_Z) red[2] += zi * zi;
}

/* Entry i of an update (both builds): x += a p (unless LAG_X), r -= a w (AXPY); z = dinv r (DIAG); the terms of the
   reductions added to red. z may alias w (read before written) or r (DIAG not set: z is read after r was written). z is
   touched only when the flags need it (it is NULL in the PCApply path's first update). */
static inline PETSCWARP_CG_HD void PetscWarpCGUpdateEntry(int i, int flags, double a, double *x, double *r, const double *p, const double *w, double *z, const double *dinv, double red[3])
{
  double ri = r[i], zi = 0.0;
  if (flags & PETSCWARP_CG_AXPY) {
    if (!(flags & PETSCWARP_CG_LAG_X)) x[i] += a * p[i];
    ri   = ri - a * w[i];
    r[i] = ri;
  }
  if (flags & PETSCWARP_CG_DIAG) {
    zi   = dinv[i] * ri;
    z[i] = zi;
  } else if (flags & (PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_NRM_Z)) zi = z[i];
  PetscWarpCGReduceEntry(flags, zi, ri, red);
}

/* Whether the Direction of iteration it does the x += xa p that the update of iteration it - 1 left to it */
static inline PETSCWARP_CG_HD int PetscWarpCGLagged(const PetscWarpCGScalars *S, int it, const double *x)
{
  return x && it > 0 && S->xlag == it;
}

/* Entry i of a Direction (both builds): the lagged x += xa p with the old p (lag), then p = z or z + b p (upd); p is
   read only when needed (p holds nothing yet at the first iteration) */
static inline PETSCWARP_CG_HD void PetscWarpCGDirectionEntry(int i, int lag, int upd, int first, double xa, double b, const double *z, double *p, double *x)
{
  const double pi = lag || (upd && !first) ? p[i] : 0.0;
  if (lag) x[i] = x[i] + xa * pi;
  if (upd) p[i] = first ? z[i] : z[i] + b * pi;
}

/* PCJACOBI's inverse diagonal from the diagonal d, in place (both builds): 1/d (a zero, -0 included, gives +0 as PETSc's
   host VecReciprocal(); its CUDA functor keeps -0, which changes only the sign of zero entries of z), |.| (useabs),
   0 -> 1 (fix) */
static inline PETSCWARP_CG_HD double PetscWarpCGInverseDiagonalEntry(double d, int useabs, int fix)
{
  double v = d == 0.0 ? 0.0 : 1.0 / d;
  if (useabs) v = fabs(v);
  return fix && v == 0.0 ? 1.0 : v;
}

/* ---------------- host twin (src/kernels/cgwarp_host.c), arrays in host memory ---------------- */
/* Iteration it's Direction: x += xa p when the update of iteration it - 1 lagged (x given), then, unless the iteration
   stopped or z is NULL (the caller's flush after the last iteration), p = z (first) or p = z + S->b p */
void PetscWarpCGDirectionHost(int n, int it, const double *z, double *p, double *x, int first, const PetscWarpCGScalars *S);
void PetscWarpCGAlphaHost(int n, const double *p, const double *w, PetscWarpCGScalars *S, PetscWarpCGCtl c);
/* z may alias w (DIAG: z[i] = dinv[i] r[i] after w[i] was read) or r (no preconditioner, DIAG not set); an array the
   flags need (PetscWarpCGUpdateArgsValid()) must not be NULL: the host twin aborts, the CUDA version returns
   cudaErrorInvalidValue without a launch */
void PetscWarpCGInverseDiagonalHost(int n, double *d, int useabs, int fix);
void PetscWarpCGUpdateHost(int n, int flags, double *x, double *r, const double *p, const double *w, double *z, const double *dinv, PetscWarpCGScalars *S, double *norms, PetscWarpCGCtl c);
/* Iteration c.it's Alpha, its Update (flags: AXPY and FIN_BETA required, LAG_X implied: x is not touched there) and the
   Direction of iteration c.it + 1 with z (x += a p with this iteration's p and a, then p = z + b p unless the iteration
   stopped); the x update it recorded is done (S->xlag is not c.it + 1 afterwards). x, r, p, w and z must not be NULL (z
   may alias w or r, as in the update). parts (nparts > 0): p'w as partial sums that the product left (w = A p and p'w
   in one kernel: PetscWarpEllMultDotCUDA()), added in a fixed order (index order on the host, grid-stride then a block
   tree on the device); NULL: p'w from p and w. With DIAG, z's storage is scratch: the CUDA step keeps z on chip and
   need not store it. */
void PetscWarpCGStepHost(int n, int flags, double *x, double *r, double *p, const double *w, double *z, const double *dinv, const double *parts, int nparts, PetscWarpCGScalars *S, double *norms, PetscWarpCGCtl c);

/* ---------------- CUDA (src/kernels/cgwarp.cu), arrays and S in device memory; 0 = success ---------------- */
/* Reduction work space: bytes of device memory the reductions need (block partial sums), for n entries */
size_t PetscWarpCGWorkBytesCUDA(int n);
int    PetscWarpCGInverseDiagonalCUDA(int n, double *d, int useabs, int fix, void *stream);
int    PetscWarpCGDirectionCUDA(int n, int it, const double *z, double *p, double *x, int first, const PetscWarpCGScalars *S, void *stream);
int    PetscWarpCGAlphaCUDA(int n, const double *p, const double *w, PetscWarpCGScalars *S, double *work, PetscWarpCGCtl c, void *stream);
int    PetscWarpCGUpdateCUDA(int n, int flags, double *x, double *r, const double *p, const double *w, double *z, const double *dinv, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c, void *stream);
/* Whether this device runs PetscWarpCGStepCUDA() (cooperative launch); 0 = success, *ok set */
int PetscWarpCGStepAvailableCUDA(int *ok);
/* The step as one cooperative kernel (cudaErrorInvalidValue without a launch for a NULL array or missing flags; the
   launch's error where cooperative launch is not available) */
int PetscWarpCGStepCUDA(int n, int flags, double *x, double *r, double *p, const double *w, double *z, const double *dinv, const double *parts, int nparts, PetscWarpCGScalars *S, double *norms, double *work, PetscWarpCGCtl c, void *stream);

#if defined(__cplusplus)
}
#endif
