/*
  The Aliev-Panfilov model of excitable cardiac tissue at one point, written once for the host (PETSc pointwise
  functions of a PetscDS, the host twins of the kernels) and the device (CUDA kernels): plain C, no PETSc objects.

  Monodomain model (Goktepe and Kuhl 2009; Wong, Kuhl and Darve, seeds/004), dimensionless voltage V and recovery r:
    dV/dt = div(D grad V) + f(V, r) + I_stim,     f(V, r) = c V (V - alpha)(1 - V) - r V
    dr/dt = g(V, r),                              g(V, r) = (gamma + mu1 r / (mu2 + V)) (-r - c V (V - b - 1))
  Backward Euler in time. The recovery variable is local (the global-local splitting of seeds/004): at each integration
  point it solves its own backward Euler equation R_r(r) = (r - r_n)/dt - g(V, r) = 0 by Newton's method for the
  current V, so that r = r(V); the voltage's residual then uses f(V, r(V)) and its Jacobian the consistent tangent
    df/dV = df/dV|_r + df/dr|_V dr/dV,   dr/dV = (dg/dV) / (1/dt - dg/dr)
  which makes the global Newton iteration converge quadratically.

  Parameters p[PETSCWARP_AP_NPARAM] (PetscWarpAPDefaults() fills the model's, dt and the stimulus are the caller's).
*/
#pragma once

#if defined(__CUDACC__)
  #define PETSCWARP_AP_HD __host__ __device__
#else
  #define PETSCWARP_AP_HD
#endif

enum {
  PETSCWARP_AP_C,     /* c = 8: excitation rate */
  PETSCWARP_AP_ALPHA, /* alpha = 0.05: excitation threshold */
  PETSCWARP_AP_GAMMA, /* gamma = 0.002: restitution (recovery rate far from the upstroke) */
  PETSCWARP_AP_B,     /* b = 0.15 */
  PETSCWARP_AP_MU1,   /* mu1 = 0.2 */
  PETSCWARP_AP_MU2,   /* mu2 = 0.3 */
  PETSCWARP_AP_DT,    /* the time step */
  PETSCWARP_AP_STIM,  /* the amplitude of the stimulus current at this step (0: none) */
  PETSCWARP_AP_NPARAM
};

/* The model's parameters (Goktepe and Kuhl 2009), dt = 0.1, no stimulus */
static inline void PetscWarpAPDefaults(double p[])
{
  p[PETSCWARP_AP_C]     = 8.0;
  p[PETSCWARP_AP_ALPHA] = 0.05;
  p[PETSCWARP_AP_GAMMA] = 0.002;
  p[PETSCWARP_AP_B]     = 0.15;
  p[PETSCWARP_AP_MU1]   = 0.2;
  p[PETSCWARP_AP_MU2]   = 0.3;
  p[PETSCWARP_AP_DT]    = 0.1;
  p[PETSCWARP_AP_STIM]  = 0.0;
}

/* At one point with voltage V and the previous step's recovery rn: the recovery r = r(V) of this step (local Newton
   iteration from rn, at most 30 steps, until the update is below 1e-15 relative), the reaction f = f(V, r(V)) and its
   consistent derivative dfdV = df/dV + df/dr dr/dV */
static inline PETSCWARP_AP_HD void PetscWarpAPLocal(const double p[], double V, double rn, double *r, double *f, double *dfdV)
{
  const double c = p[PETSCWARP_AP_C], al = p[PETSCWARP_AP_ALPHA], ga = p[PETSCWARP_AP_GAMMA], b = p[PETSCWARP_AP_B], m1 = p[PETSCWARP_AP_MU1], m2 = p[PETSCWARP_AP_MU2], idt = 1.0 / p[PETSCWARP_AP_DT];
  const double w = 1.0 / (m2 + V), h = -c * V * (V - b - 1.0); /* g = eps (h - r), eps = gamma + mu1 r w */
  double       s = rn, eps, Kr, dgdV;
  for (int it = 0; it < 30; it++) {
    double R, ds;
    eps = ga + m1 * s * w;
    R   = (s - rn) * idt - eps * (h - s);
    Kr  = idt - (m1 * w * (h - s) - eps); /* dR/dr = 1/dt - dg/dr */
    ds  = -R / Kr;
    s += ds;
    if ((ds < 0 ? -ds : ds) <= 1e-15 * (1.0 + (s < 0 ? -s : s))) break;
  }
  eps   = ga + m1 * s * w;
  Kr    = idt - (m1 * w * (h - s) - eps);
  dgdV  = -m1 * s * w * w * (h - s) + eps * (-c * (2.0 * V - b - 1.0));
  *r    = s;
  *f    = c * V * (V - al) * (1.0 - V) - s * V;
  *dfdV = c * ((V - al) * (1.0 - V) + V * (1.0 - V) - V * (V - al)) - s - V * dgdV / Kr;
}
