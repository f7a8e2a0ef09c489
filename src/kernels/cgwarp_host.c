/* KSPCGWARP: host twin of the CUDA kernels of src/kernels/cgwarp.cu (the reference, and the backend without a GPU) */
#include <petscwarp/private/cgwarpkernels.h>
#include <stdio.h>
#include <stdlib.h>

void PetscWarpCGDirectionHost(int n, int it, const double *z, double *p, double *x, int first, const PetscWarpCGScalars *S)
{
  const int lag = PetscWarpCGLagged(S, it, x), upd = z && !S->status;

  if (!lag && !upd) return;
  for (int i = 0; i < n; i++) PetscWarpCGDirectionEntry(i, lag, upd, first, S->xa, S->b, z, p, x);
}

void PetscWarpCGAlphaHost(int n, const double *p, const double *w, PetscWarpCGScalars *S, PetscWarpCGCtl c)
{
  double dpi = 0.0;

  if (S->status) return;
  for (int i = 0; i < n; i++) dpi += p[i] * w[i];
  PetscWarpCGFinishAlpha(S, dpi, &c);
}

void PetscWarpCGUpdateHost(int n, int flags, double *x, double *r, const double *p, const double *w, double *z, const double *dinv, PetscWarpCGScalars *S, double *norms, PetscWarpCGCtl c)
{
  double       red[3] = {0.0, 0.0, 0.0};
  const double a      = S->a;

  if (!PetscWarpCGUpdateArgsValid(flags, x, r, p, w, z, dinv)) { /* what the CUDA kernel would fault on (a NULL array it reads) */
    fprintf(stderr, "PetscWarpCGUpdateHost: flags %d need an array that is NULL (x %p r %p p %p w %p z %p dinv %p)\n", flags, (void *)x, (void *)r, (const void *)p, (const void *)w, (void *)z, (const void *)dinv);
    abort();
  }
  if (S->status) return;
  for (int i = 0; i < n; i++) PetscWarpCGUpdateEntry(i, flags, a, x, r, p, w, z, dinv, red);
  PetscWarpCGFinishUpdate(S, norms, flags, red, &c);
}

void PetscWarpCGStepHost(int n, int flags, double *x, double *r, double *p, const double *w, double *z, const double *dinv, const double *parts, int nparts, PetscWarpCGScalars *S, double *norms, PetscWarpCGCtl c)
{
  if (!PetscWarpCGStepArgsValid(flags, x, r, p, w, z, dinv)) {
    fprintf(stderr, "PetscWarpCGStepHost: flags %d need AXPY, FIN_BETA and arrays that are NULL (x %p r %p p %p w %p z %p dinv %p)\n", flags, (void *)x, (void *)r, (void *)p, (const void *)w, (void *)z, (const void *)dinv);
    abort();
  }
  if (parts && nparts > 0) {
    double dpi = 0.0;
    for (int k = 0; k < nparts; k++) dpi += parts[k];
    if (!S->status) PetscWarpCGFinishAlpha(S, dpi, &c);
  } else PetscWarpCGAlphaHost(n, p, w, S, c);
  PetscWarpCGUpdateHost(n, flags | PETSCWARP_CG_LAG_X, NULL, r, NULL, w, z, dinv, S, norms, c);
  PetscWarpCGDirectionHost(n, c.it + 1, z, p, x, 0, S);
  if (S->xlag == c.it + 1) S->xlag = 0; /* done by this Direction */
}

void PetscWarpCGInverseDiagonalHost(int n, double *d, int useabs, int fix)
{
  for (int i = 0; i < n; i++) d[i] = PetscWarpCGInverseDiagonalEntry(d[i], useabs, fix);
}
