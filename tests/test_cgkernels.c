/* The KSPCGWARP kernels (kernel layer, no PETSc): one iteration's Direction, Alpha and Update in scenarios that reach
   every status (breakdowns, Inf/NaN, the device convergence test, a stopped iteration) and every update flag, on sizes
   from 1 to past the largest grid (grid-stride loops). With -host: the host twin against direct loops. Otherwise, with a
   device: the CUDA kernels against the host twin (the same status; vectors and scalars to round-off). */
#include <petscwarp/private/cgwarpkernels.h>
#if defined(PETSCWARP_TEST_CUDA)
  #include <cuda_runtime_api.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernelcall.h"

#define CHECK(c, ...) \
  do { \
    if (!(c)) { \
      fprintf(stderr, "%s:%d: scenario %s n %d: check failed: %s: ", __FILE__, __LINE__, sc->name, n, #c); \
      fprintf(stderr, __VA_ARGS__); \
      fprintf(stderr, "\n"); \
      exit(1); \
    } \
  } while (0)

typedef struct {
  const char *name;
  int         flags, normtype, first, it, skipnorm, test;
  double      ttol, dtol;
  int         dinv;    /* 0: none (z is r), 1: positive, 2: zero, 3: negative */
  int         nan;     /* 1: NaN in w, 2: NaN in r */
  int         zerow;   /* w = 0 */
  double      dpi0;    /* S->dpi before (sign change test) */
  int         status0; /* S->status before */
  int         expect;  /* status after */
  int         expect_it;
} Scenario;

typedef struct {
  double            *x, *r, *p, *w, *z, *dinv, norms[4];
  PetscWarpCGScalars S;
} State;

static double Rand(void)
{
  return (double)rand() / RAND_MAX - 0.5;
}

static void Alloc(State *s, int n)
{
  s->x    = malloc(sizeof(double) * n);
  s->r    = malloc(sizeof(double) * n);
  s->p    = malloc(sizeof(double) * n);
  s->w    = malloc(sizeof(double) * n);
  s->z    = malloc(sizeof(double) * n);
  s->dinv = malloc(sizeof(double) * n);
}

static void Free(State *s)
{
  free(s->x);
  free(s->r);
  free(s->p);
  free(s->w);
  free(s->z);
  free(s->dinv);
}

static void Init(const Scenario *sc, int n, State *s)
{
  for (int i = 0; i < n; i++) {
    s->x[i]    = Rand(); /* r, p, z >= 0 and w > 0: p'w > 0, no sign change unless the scenario asks for one */
    s->r[i]    = fabs(Rand());
    s->p[i]    = fabs(Rand());
    s->w[i]    = sc->zerow ? 0.0 : fabs(Rand()) + 0.1;
    s->z[i]    = fabs(Rand());
    s->dinv[i] = sc->dinv == 2 ? 0.0 : (sc->dinv == 3 ? -1.0 : 1.0) * (0.5 + fabs(Rand()));
  }
  if (sc->nan == 1) s->w[n / 2] = NAN;
  if (sc->nan == 2) s->r[n - 1] = NAN;
  memset(&s->S, 0, sizeof(s->S));
  s->S.beta   = 0.75;
  s->S.b      = 0.3;
  s->S.dpi    = sc->dpi0;
  s->S.status = sc->status0;
  if ((sc->flags & PETSCWARP_CG_LAG_X) && sc->it > 0) { /* the x += a p that the previous iteration's update left */
    s->S.xa   = 0.37;
    s->S.xlag = sc->it;
  }
  for (int k = 0; k < 4; k++) s->norms[k] = -1.0;
}

static PetscWarpCGCtl Ctl(const Scenario *sc)
{
  PetscWarpCGCtl c;
  c.it       = sc->it;
  c.slot     = 2;
  c.normtype = sc->normtype;
  c.skipnorm = sc->skipnorm;
  c.test     = sc->test;
  c.ttol     = sc->ttol;
  c.dtol     = sc->dtol;
  return c;
}

/* z as the driver passes it: NULL when the update does not need it (KSPCGWARP's PCApply path, first update) */
static double *ZArg(int flags, double *z)
{
  return flags & (PETSCWARP_CG_DIAG | PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_NRM_Z) ? z : NULL;
}

/* The iteration by the host twin; z is r when the scenario has no Jacobi, else z is w (KSPCG's W = Z) */
static void RunHost(const Scenario *sc, int n, State *s)
{
  PetscWarpCGCtl c = Ctl(sc);
  double        *z = sc->dinv ? s->w : s->r, *zsrc = sc->dinv ? s->z : s->r;
  int            lag = !!(sc->flags & PETSCWARP_CG_LAG_X);
  PetscWarpCGDirectionHost(n, sc->it, zsrc, s->p, lag ? s->x : NULL, sc->first, &s->S);
  PetscWarpCGAlphaHost(n, s->p, s->w, &s->S, c);
  int f = sc->flags | (sc->dinv ? PETSCWARP_CG_DIAG : 0);
  PetscWarpCGUpdateHost(n, f, lag ? NULL : s->x, s->r, lag ? NULL : s->p, s->w, ZArg(f, z), sc->dinv ? s->dinv : NULL, &s->S, s->norms, c);
  if (lag) PetscWarpCGDirectionHost(n, sc->it + 1, NULL, s->p, s->x, 0, &s->S); /* KSPCGWARP's flush after its last iteration */
}

/* Whether the scenario's flags can run as PetscWarpCGStep (KSPCGWARP's fused path) */
static int StepScenario(const Scenario *sc)
{
  return (sc->flags & PETSCWARP_CG_AXPY) && (sc->flags & PETSCWARP_CG_FIN_BETA);
}

#define PART 997 /* entries per partial sum of p'w when the test plays the product's part (PetscWarpEllMultDotCUDA()) */

/* p'w in partial sums of PART entries; returns their count */
static int Parts(int n, const double *p, const double *w, double scale, double *parts)
{
  int np = (n + PART - 1) / PART;
  for (int k = 0; k < np; k++) {
    parts[k] = 0.0;
    for (int i = k * PART; i < n && i < (k + 1) * PART; i++) parts[k] += p[i] * w[i];
    parts[k] *= scale;
  }
  return np;
}

/* The iteration as KSPCGWARP's fused path runs it: this iteration's Direction, then the step (p'w, the update and the
   next iteration's Direction); useparts: p'w given as partial sums, as the ELL-WARP product leaves them (2: partial
   sums of 2 p'w, which a step must use rather than p and w) */
static void RunStepHost(const Scenario *sc, int n, State *s, int useparts)
{
  PetscWarpCGCtl c = Ctl(sc);
  double        *z = sc->dinv ? s->w : s->r, *zsrc = sc->dinv ? s->z : s->r, *parts = NULL;
  int            lag = !!(sc->flags & PETSCWARP_CG_LAG_X), f = (sc->flags & ~PETSCWARP_CG_LAG_X) | (sc->dinv ? PETSCWARP_CG_DIAG : 0), np = 0;
  PetscWarpCGDirectionHost(n, sc->it, zsrc, s->p, lag ? s->x : NULL, sc->first, &s->S);
  if (useparts) {
    parts = malloc(sizeof(double) * (n / PART + 1));
    np    = Parts(n, s->p, s->w, useparts == 2 ? 2.0 : 1.0, parts);
  }
  PetscWarpCGStepHost(n, f, s->x, s->r, s->p, s->w, z, sc->dinv ? s->dinv : NULL, parts, np, &s->S, s->norms, c);
  free(parts);
}

/* The same by direct loops: KSPCG's vector operations one by one */
static void RunDirect(const Scenario *sc, int n, State *s)
{
  double *zsrc = sc->dinv ? s->z : s->r, dpi = 0, zr = 0, rr = 0, zz = 0, dp = 0;
  if ((sc->flags & PETSCWARP_CG_LAG_X) && sc->it > 0)
    for (int i = 0; i < n; i++) s->x[i] += s->S.xa * s->p[i]; /* the previous iteration's x update, with its p */
  if (s->S.status) return;
  for (int i = 0; i < n; i++) s->p[i] = sc->first ? zsrc[i] : zsrc[i] + s->S.b * s->p[i];
  for (int i = 0; i < n; i++) dpi += s->p[i] * s->w[i];
  s->S.dpiold  = s->S.dpi;
  s->S.dpi     = dpi;
  s->S.betaold = s->S.beta;
  if (!isfinite(dpi) || dpi == 0 || (sc->it > 0 && dpi * s->S.dpiold < 0)) return; /* the status is checked separately */
  s->S.a = s->S.beta / dpi;
  for (int i = 0; i < n; i++) s->x[i] += s->S.a * s->p[i];
  for (int i = 0; i < n; i++) s->r[i] -= s->S.a * s->w[i];
  if (sc->dinv)
    for (int i = 0; i < n; i++) s->w[i] = s->dinv[i] * s->r[i]; /* z, in w's storage */
  {
    const double *z = sc->dinv ? s->w : s->r;
    for (int i = 0; i < n; i++) zr += z[i] * s->r[i];
    for (int i = 0; i < n; i++) rr += s->r[i] * s->r[i];
    for (int i = 0; i < n; i++) zz += z[i] * z[i];
  }
  if (sc->normtype == PETSCWARP_CG_NORM_PRECONDITIONED) dp = sc->skipnorm ? 0 : sqrt(zz);
  if (sc->normtype == PETSCWARP_CG_NORM_UNPRECONDITIONED) dp = sc->skipnorm ? 0 : sqrt(rr);
  if (sc->normtype == PETSCWARP_CG_NORM_NATURAL) dp = sqrt(fabs(zr));
  s->norms[2] = dp;
  s->S.dp     = dp;
  s->S.beta   = zr;
  s->S.b      = zr / s->S.betaold;
}

static int Close(double a, double b, double tol)
{
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= tol * (1.0 + fabs(b));
}

/* vectors: 0 none, 1 x, r, p and w, 2 x, r and p (the step keeps z on chip: with Jacobi, w's storage holds no z after it) */
static void Compare(const Scenario *sc, int n, const State *a, const State *b, double tol, int vectors)
{
  CHECK(a->S.status == b->S.status, "status %d, expected %d", a->S.status, b->S.status);
  if (a->S.status) CHECK(a->S.status_it == b->S.status_it, "status_it %d, expected %d", a->S.status_it, b->S.status_it);
  CHECK(Close(a->S.dpi, b->S.dpi, tol), "dpi %g, expected %g", a->S.dpi, b->S.dpi);
  if (a->S.status && a->S.status <= PETSCWARP_CG_ALPHA_NAN + 1) return; /* stopped before the update */
  CHECK(Close(a->S.a, b->S.a, tol), "a %g, expected %g", a->S.a, b->S.a);
  if (sc->flags & PETSCWARP_CG_FIN_NORM) CHECK(Close(a->norms[2], b->norms[2], tol), "norm %g, expected %g", a->norms[2], b->norms[2]);
  if ((sc->flags & PETSCWARP_CG_FIN_BETA) && a->S.status != PETSCWARP_CG_NORM_NAN && a->S.status != PETSCWARP_CG_CONVERGED) CHECK(Close(a->S.beta, b->S.beta, tol), "beta %g, expected %g", a->S.beta, b->S.beta);
  if (!a->S.status && (sc->flags & PETSCWARP_CG_FIN_BETA)) CHECK(Close(a->S.b, b->S.b, tol), "b %g, expected %g", a->S.b, b->S.b);
  if (!vectors) return;
  for (int i = 0; i < n; i++) { CHECK(Close(a->x[i], b->x[i], tol) && Close(a->r[i], b->r[i], tol) && Close(a->p[i], b->p[i], tol) && (vectors == 2 || Close(a->w[i], b->w[i], tol)), "entry %d", i); }
}

#if defined(PETSCWARP_TEST_CUDA)
/* The iteration by the CUDA kernels on copies of s (step: the fused path, RunStepHost()'s calls) */
static void RunCUDA(const Scenario *sc, int n, State *s, int step)
{
  PetscWarpCGCtl c  = Ctl(sc);
  size_t         vb = sizeof(double) * n;
  double        *d[6], *h[6] = {s->x, s->r, s->p, s->w, s->z, s->dinv}, *work;
  char          *sn;
  size_t         sb = sizeof(PetscWarpCGScalars) + 4 * sizeof(double);
  for (int k = 0; k < 6; k++) {
    KERNEL_CALL(cudaMalloc((void **)&d[k], vb));
    KERNEL_CALL(cudaMemcpy(d[k], h[k], vb, cudaMemcpyHostToDevice));
  }
  KERNEL_CALL(cudaMalloc((void **)&sn, sb));
  KERNEL_CALL(cudaMalloc((void **)&work, PetscWarpCGWorkBytesCUDA(n)));
  KERNEL_CALL(cudaMemcpy(sn, &s->S, sizeof(PetscWarpCGScalars), cudaMemcpyHostToDevice));
  KERNEL_CALL(cudaMemcpy(sn + sizeof(PetscWarpCGScalars), s->norms, 4 * sizeof(double), cudaMemcpyHostToDevice));
  {
    PetscWarpCGScalars *S     = (PetscWarpCGScalars *)sn;
    double             *norms = (double *)(sn + sizeof(PetscWarpCGScalars)), *z = sc->dinv ? d[3] : d[1], *zsrc = sc->dinv ? d[4] : d[1];
    int                 lag = !!(sc->flags & PETSCWARP_CG_LAG_X);
    KERNEL_CALL(PetscWarpCGDirectionCUDA(n, sc->it, zsrc, d[2], lag ? d[0] : NULL, sc->first, S, NULL));
    if (step) { /* 2: p'w as partial sums (computed here from the device's p after the Direction); 3: of 2 p'w */
      int     f = (sc->flags & ~PETSCWARP_CG_LAG_X) | (sc->dinv ? PETSCWARP_CG_DIAG : 0), np = 0;
      double *parts = NULL, *dparts = NULL;
      if (step >= 2) {
        KERNEL_CALL(cudaMemcpy(s->p, d[2], vb, cudaMemcpyDeviceToHost));
        parts = malloc(sizeof(double) * (n / PART + 1));
        np    = Parts(n, s->p, s->w, step == 3 ? 2.0 : 1.0, parts);
        KERNEL_CALL(cudaMalloc((void **)&dparts, sizeof(double) * np));
        KERNEL_CALL(cudaMemcpy(dparts, parts, sizeof(double) * np, cudaMemcpyHostToDevice));
      }
      KERNEL_CALL(PetscWarpCGStepCUDA(n, f, d[0], d[1], d[2], d[3], z, sc->dinv ? d[5] : NULL, dparts, np, S, norms, work, c, NULL));
      if (dparts) KERNEL_CALL(cudaFree(dparts));
      free(parts);
    } else {
      int f = sc->flags | (sc->dinv ? PETSCWARP_CG_DIAG : 0);
      KERNEL_CALL(PetscWarpCGAlphaCUDA(n, d[2], d[3], S, work, c, NULL));
      KERNEL_CALL(PetscWarpCGUpdateCUDA(n, f, lag ? NULL : d[0], d[1], lag ? NULL : d[2], d[3], ZArg(f, z), sc->dinv ? d[5] : NULL, S, norms, work, c, NULL));
      if (lag) KERNEL_CALL(PetscWarpCGDirectionCUDA(n, sc->it + 1, NULL, d[2], d[0], 0, S, NULL));
    }
  }
  KERNEL_CALL(cudaDeviceSynchronize());
  for (int k = 0; k < 6; k++) {
    KERNEL_CALL(cudaMemcpy(h[k], d[k], vb, cudaMemcpyDeviceToHost));
    KERNEL_CALL(cudaFree(d[k]));
  }
  KERNEL_CALL(cudaMemcpy(&s->S, sn, sizeof(PetscWarpCGScalars), cudaMemcpyDeviceToHost));
  KERNEL_CALL(cudaMemcpy(s->norms, sn + sizeof(PetscWarpCGScalars), 4 * sizeof(double), cudaMemcpyDeviceToHost));
  KERNEL_CALL(cudaFree(sn));
  KERNEL_CALL(cudaFree(work));
  if (s->S.count != 0) {
    fprintf(stderr, "scenario %s n %d: the block counter was left at %u\n", sc->name, n, s->S.count);
    exit(1);
  }
}
#endif

int main(int argc, char **argv)
{
  int       hostonly = argc > 1 && !strcmp(argv[1], "-host");
  unsigned  seed     = argc > 1 + hostonly ? (unsigned)atoi(argv[1 + hostonly]) : (unsigned)time(NULL);
  const int F        = PETSCWARP_CG_AXPY | PETSCWARP_CG_DOT_ZR | PETSCWARP_CG_FIN_NORM | PETSCWARP_CG_FIN_BETA;
  const int L        = F | PETSCWARP_CG_LAG_X;
  const int A1       = PETSCWARP_CG_AXPY | PETSCWARP_CG_NRM_R | PETSCWARP_CG_FIN_NORM; /* KSPCGWARP's PCApply path, first update: no z */
  const int P = PETSCWARP_CG_NORM_PRECONDITIONED, U = PETSCWARP_CG_NORM_UNPRECONDITIONED, N = PETSCWARP_CG_NORM_NATURAL, O = PETSCWARP_CG_NORM_NONE;
  /* name, flags, normtype, first, it, skipnorm, test, ttol, dtol, dinv, nan, zerow, dpi0, status0, expect, expect_it */
  const Scenario sc_all[] = {
    {"jacobi_prec",    F | PETSCWARP_CG_NRM_Z, P, 0, 3, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"first",          F | PETSCWARP_CG_NRM_Z, P, 1, 0, 0, 0, 0,     1e300, 1, 0, 0, 0.0,  0,                      0,                      0},
    {"none_unprec",    F | PETSCWARP_CG_NRM_R, U, 0, 2, 0, 0, 0,     1e300, 0, 0, 0, 1.0,  0,                      0,                      0},
    {"natural",        F,                      N, 0, 1, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"normnone",       F,                      O, 0, 1, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"skipnorm",       F | PETSCWARP_CG_NRM_Z, P, 0, 1, 1, 0, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"axpy_only",      PETSCWARP_CG_AXPY,      P, 0, 1, 0, 0, 0,     1e300, 0, 0, 0, 1.0,  0,                      0,                      0},
    {"apply_first",    A1,                     U, 0, 1, 0, 0, 0,     1e300, 0, 0, 0, 1.0,  0,                      0,                      0},
    {"dpi_zero",       F | PETSCWARP_CG_NRM_Z, P, 0, 1, 0, 0, 0,     1e300, 1, 0, 1, 1.0,  0,                      PETSCWARP_CG_INDEF_MAT, 1},
    {"dpi_sign",       F | PETSCWARP_CG_NRM_Z, P, 0, 4, 0, 0, 0,     1e300, 1, 0, 0, -1.0, 0,                      -1,                     4},
    {"w_nan",          F | PETSCWARP_CG_NRM_Z, P, 0, 1, 0, 0, 0,     1e300, 1, 1, 0, 1.0,  0,                      PETSCWARP_CG_ALPHA_NAN, 1},
    {"beta_zero",      F | PETSCWARP_CG_NRM_Z, P, 0, 5, 0, 0, 0,     1e300, 2, 0, 0, 1.0,  0,                      PETSCWARP_CG_BETA_ZERO, 6},
    {"indef_pc",       F | PETSCWARP_CG_NRM_Z, P, 0, 5, 0, 0, 0,     1e300, 3, 0, 0, 1.0,  0,                      -1,                     6},
    {"r_nan_unprec",   F | PETSCWARP_CG_NRM_R, U, 0, 2, 0, 0, 0,     1e300, 1, 2, 0, 1.0,  0,                      PETSCWARP_CG_NORM_NAN,  2},
    {"r_nan_natural",  F,                      N, 0, 2, 0, 0, 0,     1e300, 1, 2, 0, 1.0,  0,                      PETSCWARP_CG_NORM_NAN,  2},
    {"r_nan_normnone", F,                      O, 0, 2, 0, 0, 0,     1e300, 1, 2, 0, 1.0,  0,                      PETSCWARP_CG_BETA_NAN,  2},
    {"converged",      F | PETSCWARP_CG_NRM_Z, P, 0, 7, 0, 1, 1e300, 1e300, 1, 0, 0, 1.0,  0,                      PETSCWARP_CG_CONVERGED, 7},
    {"diverged",       F | PETSCWARP_CG_NRM_R, U, 0, 7, 0, 1, 0,     0,     0, 0, 0, 1.0,  0,                      PETSCWARP_CG_CONVERGED, 7},
    {"not_converged",  F | PETSCWARP_CG_NRM_Z, P, 0, 7, 0, 1, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"stopped",        F | PETSCWARP_CG_NRM_Z, P, 0, 8, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  PETSCWARP_CG_INDEF_MAT, PETSCWARP_CG_INDEF_MAT, 0},
 /* LAG_X: x += a p left to the next Direction (a pending one from the previous iteration, then this one's flushed) */
    {"lag",            L | PETSCWARP_CG_NRM_Z, P, 0, 3, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  0,                      0,                      0},
    {"lag_first",      L | PETSCWARP_CG_NRM_Z, P, 1, 0, 0, 0, 0,     1e300, 1, 0, 0, 0.0,  0,                      0,                      0},
    {"lag_none",       L | PETSCWARP_CG_NRM_R, U, 0, 2, 0, 0, 0,     1e300, 0, 0, 0, 1.0,  0,                      0,                      0},
    {"lag_converged",  L | PETSCWARP_CG_NRM_Z, P, 0, 7, 0, 1, 1e300, 1e300, 1, 0, 0, 1.0,  0,                      PETSCWARP_CG_CONVERGED, 7},
    {"lag_dpi_zero",   L | PETSCWARP_CG_NRM_Z, P, 0, 1, 0, 0, 0,     1e300, 1, 0, 1, 1.0,  0,                      PETSCWARP_CG_INDEF_MAT, 1},
    {"lag_stopped",    L | PETSCWARP_CG_NRM_Z, P, 0, 8, 0, 0, 0,     1e300, 1, 0, 0, 1.0,  PETSCWARP_CG_CONVERGED, PETSCWARP_CG_CONVERGED, 0}
  };
  /* the last size only on the device and in a few scenarios: past the z entries the step keeps on chip (16 per thread
     of a grid of at most 512 x 512 threads) */
  const int sizes[] = {1, 31, 256, 1000, 1024 * 256 + 37, 16 * 512 * 512 + 4099};

  if (KernelTestSkip(hostonly)) return 200;
  printf("seed %u (rerun with: test_cgkernels%s %u)\n", seed, hostonly ? " -host" : "", seed);
  srand(seed);
  for (size_t k = 0; k < sizeof(sc_all) / sizeof(sc_all[0]); k++) {
    const Scenario *sc = &sc_all[k];
    for (size_t q = 0; q < sizeof(sizes) / sizeof(sizes[0]); q++) {
      int n = sizes[q], expect = sc->expect;
      if (q == sizeof(sizes) / sizeof(sizes[0]) - 1 && (hostonly || (strcmp(sc->name, "jacobi_prec") && strcmp(sc->name, "none_unprec") && strcmp(sc->name, "lag_converged")))) continue;
      State h, o;
      Alloc(&h, n);
      Alloc(&o, n);
      Init(sc, n, &h);
      if (expect < 0) expect = !strcmp(sc->name, "dpi_sign") ? PETSCWARP_CG_INDEF_MAT : PETSCWARP_CG_INDEF_PC; /* dpiold < 0; z'r < 0 */
      memcpy(&o.S, &h.S, sizeof(h.S));
      memcpy(o.norms, h.norms, sizeof(h.norms));
      memcpy(o.x, h.x, sizeof(double) * n);
      memcpy(o.r, h.r, sizeof(double) * n);
      memcpy(o.p, h.p, sizeof(double) * n);
      memcpy(o.w, h.w, sizeof(double) * n);
      memcpy(o.z, h.z, sizeof(double) * n);
      memcpy(o.dinv, h.dinv, sizeof(double) * n);
      RunHost(sc, n, &h);
      CHECK(h.S.status == expect, "status %d, expected %d", h.S.status, expect);
      if (expect && !sc->status0) CHECK(h.S.status_it == sc->expect_it, "status_it %d, expected %d", h.S.status_it, sc->expect_it);
      if (hostonly) {
        if (!expect || expect >= PETSCWARP_CG_BETA_ZERO) { /* the numbers against direct loops (exact: the same order of sums) */
          RunDirect(sc, n, &o);
          if (!(sc->flags & PETSCWARP_CG_FIN_BETA) || !(sc->flags & PETSCWARP_CG_FIN_NORM)) o.norms[2] = h.norms[2], o.S.beta = h.S.beta, o.S.b = h.S.b;
          o.S.status = h.S.status, o.S.status_it = h.S.status_it;
          if (expect == PETSCWARP_CG_BETA_ZERO || expect == PETSCWARP_CG_INDEF_PC) o.S.b = h.S.b;
          Compare(sc, n, &h, &o, 1e-13, 1); /* the same order of sums: equal up to a contraction into FMA */
        }
        if ((sc->flags & PETSCWARP_CG_LAG_X) && expect && expect < PETSCWARP_CG_BETA_ZERO && !sc->status0) { /* x where the iteration stopped */
          RunDirect(sc, n, &o);
          for (int i = 0; i < n; i++) CHECK(Close(h.x[i], o.x[i], 1e-13), "x[%d] %g, expected %g", i, h.x[i], o.x[i]);
        }
        if (sc->status0) { /* a stopped iteration changes nothing but the x update that the previous one left (LAG_X) */
          if (expect < PETSCWARP_CG_BETA_ZERO) RunDirect(sc, n, &o);
          CHECK(!memcmp(h.x, o.x, sizeof(double) * n) && !memcmp(h.r, o.r, sizeof(double) * n) && !memcmp(h.p, o.p, sizeof(double) * n), "a stopped iteration changed the vectors");
        }
      }
#if defined(PETSCWARP_TEST_CUDA)
      else {
        RunCUDA(sc, n, &o, 0);
        Compare(sc, n, &o, &h, 1e-11, !sc->nan);
      }
#endif
      if (StepScenario(sc)) { /* the step: host against the three host kernels and one more Direction; CUDA against host */
        State hs, os;
        Alloc(&hs, n);
        Alloc(&os, n);
        double dpi1 = 0.0;
        for (int useparts = 0; useparts < 3; useparts++) {
          for (int pass = 0; pass < 2; pass++) {
            State *t = pass ? &os : &hs;
            srand(seed + 7919u * (unsigned)(k * 8 + q)); /* the same data in both */
            Init(sc, n, t);
          }
          RunStepHost(sc, n, &hs, useparts);
          CHECK(hs.S.xlag != sc->it + 1, "the step left its x update pending (xlag %d)", hs.S.xlag);
          if (useparts == 1) dpi1 = hs.S.dpi;
          if (hostonly && useparts == 2) { /* the step took p'w from the partial sums */
            if (!sc->status0 && !sc->nan) CHECK(hs.S.dpi == 2.0 * dpi1, "dpi %g with partial sums of 2 p'w, %g with those of p'w", hs.S.dpi, dpi1);
          } else if (hostonly) {
            State *t = &os;
            RunHost(sc, n, t);
            PetscWarpCGDirectionHost(n, sc->it + 1, sc->dinv ? t->w : t->r, t->p, NULL, 0, &t->S); /* p = z + b p, x done */
            t->S.xlag = hs.S.xlag;
            Compare(sc, n, &hs, t, useparts ? 1e-12 : 1e-13, 1); /* partial sums: another order of the sum of p'w */
          }
#if defined(PETSCWARP_TEST_CUDA)
          else {
            RunCUDA(sc, n, &os, 1 + useparts);
            Compare(sc, n, &os, &hs, 1e-11, sc->nan ? 0 : (sc->dinv ? 2 : 1));
            CHECK(os.S.xlag == hs.S.xlag, "xlag %d, expected %d", os.S.xlag, hs.S.xlag);
            CHECK(os.norms[0] == hs.norms[0] && os.norms[1] == hs.norms[1] && os.norms[3] == hs.norms[3], "the step wrote outside its norm slot");
          }
#endif
          Free(&hs);
          Free(&os);
          Alloc(&hs, n);
          Alloc(&os, n);
        }
        Free(&hs);
        Free(&os);
      }
      Free(&h);
      Free(&o);
    }
    printf("  %-16s ok%s (status %d)\n", sc->name, StepScenario(sc) ? ", step too" : "", sc->expect < 0 ? (int)(!strcmp(sc->name, "dpi_sign") ? PETSCWARP_CG_INDEF_MAT : PETSCWARP_CG_INDEF_PC) : sc->expect);
  }
  { /* PCJACOBI's inverse diagonal (KSPCGWARP takes it itself): zeros, negatives, every flag pair; CUDA bitwise as the host */
    const int n = 1000;
    double    d[1000], h[1000];
    for (int i = 0; i < n; i++) d[i] = i % 7 == 0 ? (i % 14 ? -0.0 : 0.0) : Rand() * 10.0;
    for (int f = 0; f < 4; f++) {
      const int       useabs = f & 1, fix = f >> 1;
      const Scenario *sc = &sc_all[0]; /* for CHECK's message */
      memcpy(h, d, sizeof(d));
      PetscWarpCGInverseDiagonalHost(n, h, useabs, fix);
      for (int i = 0; i < n; i++) {
        double v = d[i] == 0.0 ? 0.0 : 1.0 / d[i]; /* PETSc's host VecReciprocal(): +0 for -0 too */
        if (useabs) v = fabs(v);
        if (fix && v == 0.0) v = 1.0;
        CHECK(!memcmp(&h[i], &v, sizeof(v)), "inverse diagonal %d (abs %d fix %d): %g, expected %g", i, useabs, fix, h[i], v);
      }
#if defined(PETSCWARP_TEST_CUDA)
      if (!hostonly) {
        double *dd, o[1000];
        KERNEL_CALL(cudaMalloc((void **)&dd, sizeof(d)));
        KERNEL_CALL(cudaMemcpy(dd, d, sizeof(d), cudaMemcpyHostToDevice));
        KERNEL_CALL(PetscWarpCGInverseDiagonalCUDA(n, dd, useabs, fix, NULL));
        KERNEL_CALL(cudaMemcpy(o, dd, sizeof(d), cudaMemcpyDeviceToHost));
        KERNEL_CALL(cudaFree(dd));
        CHECK(!memcmp(o, h, sizeof(d)), "inverse diagonal (abs %d fix %d): CUDA differs from the host twin", useabs, fix);
      }
#endif
    }
    printf("  inverse_diagonal ok\n");
  }
  printf("test_cgkernels: all scenarios passed (%s)\n", hostonly ? "host twin against direct loops" : "CUDA against the host twin");
  return 0;
}
