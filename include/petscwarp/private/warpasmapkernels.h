/*
  The Aliev-Panfilov monodomain model at the quadrature points: the C interface of src/kernels/warpasm_ap*.

  As warpasmkernels.h: no PETSc objects, a host twin in C (src/kernels/warpasm_ap_host.c) and a CUDA version
  (src/kernels/warpasm_ap.cu) over the same data; the pointwise model is include/petscwarp/alievpanfilov.h.

  One call evaluates, at every (cell, q), the voltage V_q = sum_b B_qb u[l2d[cell*nb + b]] (and V_n,q from un), solves
  the local recovery equation (r = r(V_q) from rn[cell*nq + q]) and writes, for k = cell*nq + q (each array may be NULL):
    rq[k] = r                                          the recovery variable of this step at the current state
    fq[k] = -V_n,q/dt - f(V_q, r) - stim * s[cell]     the pointwise source of the residual (PetscWarpPhys.fq, with
                                                      u_t = u and mass 1/dt: r_a = int (u - u_n)/dt phi_a - (f + I) phi_a
                                                      + D grad u . grad phi_a)
    cq[k] = 1/dt - df/dV (consistent)                  the mass coefficient of the Jacobian (PetscWarpPhys.cq, shift 1)
  with stim = p[PETSCWARP_AP_STIM] and s the stimulus mask per cell (NULL: none). Vectors are local (l2d as in
  warpasmreskernels.h); un is needed for fq only.
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>
#include <petscwarp/alievpanfilov.h>

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct {
  double        p[PETSCWARP_AP_NPARAM]; /* model parameters, dt, stimulus amplitude */
  const double *rn;                     /* [ncells*nq] recovery at the previous time step */
  const double *stim;                   /* [ncells] stimulus mask, or NULL */
} PetscWarpAP;

/* host twin: arrays in host memory; returns PETSCWARP_ASM_OK or PETSCWARP_ASM_ERR_ARG */
int PetscWarpAPPointsHost(const PetscWarpFE *fe, int ncells, const PetscWarpAP *ap, const int *l2d, const double *u, const double *un, double *rq, double *fq, double *cq);
/* CUDA: arrays in device memory, structs in host memory; launched on stream, no synchronization; a cudaError_t as int */
int PetscWarpAPPointsCUDA(const PetscWarpFE *fe, int ncells, const PetscWarpAP *ap, const int *l2d, const double *u, const double *un, double *rq, double *fq, double *cq, void *stream);

#if defined(__cplusplus)
}
#endif
