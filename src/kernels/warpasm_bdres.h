/*
  The boundary (Neumann) residual of a constant flux, written once for the host twin (warpasm_bdres_host.c) and the
  device (warpasm_bdres.cu): entry (f, a, c) of the boundary face f adds g[fset[f]*nc + c] * W[f*nb + a] to
  r[l2d[fcell[f]*nel + a*nc + c]], W[f*nb + a] = int_f phi_a dS of the face's cell basis function a (the face's
  quadrature and geometry folded in when the faces were set).
*/
#pragma once

#if defined(__CUDACC__)
  #define PWB_HD __host__ __device__
#else
  #define PWB_HD
#endif

/* The local index and the value of entry t = (f*nb + a)*nc + c */
static inline PWB_HD void PwbEntry(int t, int nb, int nc, int nel, const int *fcell, const int *fset, const double *W, const double *g, const int *l2d, int *idx, double *v)
{
  const int fa = t / nc, c = t - fa * nc, f = fa / nb, a = fa - f * nb;
  *idx = l2d[(size_t)fcell[f] * nel + a * nc + c];
  *v   = g[fset[f] * nc + c] * W[fa];
}
