/*
  Finite-element residuals on the device: the C interface of src/kernels/warpasm_res*.

  As warpasmkernels.h (whose element, mesh and physics descriptions it uses): no PETSc objects, a host twin in C
  (src/kernels/warpasm_res_host.c) and a CUDA version (src/kernels/warpasm_res.cu) over the same data; the pointwise
  computation is written once, in src/kernels/warpasm_res.h.

  The residual of the built-in physics at a state u (and its time derivative u_t), for every cell:
    r[(a,c)] += int grad phi_a . flux_c(grad u) + phi_a (mass u_t,c + f[c])
  with flux = K grad u (LAPLACE: K = kappa I, kcell[cell] I or the tensor of the cell) or the stress
  sigma = mu (grad u + grad u^T) + lambda div(u) I (ELASTICITY; flux_c = row c of sigma), f = ph->f (the constant f0 of
  PETSc's pointwise residual), plus ph->fq[cell*nq + q] at each quadrature point when given (LAPLACE: a state-dependent
  source such as the Aliev-Panfilov reaction, computed beforehand at the points: warpasmapkernels.h). It equals K_e u_e + mass M_e ut_e + F_e with the element matrices of warpasmkernels.h
  (ph->shift is not used: the mass term acts on u_t), evaluated at the quadrature points (O(nb nq) per cell, not O(nb^2 nq)).

  Vectors are local: u, ut and r are indexed by l2d[cell*nel + i] (the cell's dofs in the local vector, constrained ones
  included), ut may be NULL (no mass term); r is added to (atomics on the device).
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* host twin: arrays in host memory; returns PETSCWARP_ASM_OK or an error code of warpasmkernels.h */
int PetscWarpAsmResidualHost(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double mass, const int *l2d, const double *u, const double *ut, double *r);
/* CUDA: arrays in device memory, structs in host memory; launched on stream (a cudaStream_t), no synchronization;
   returns a cudaError_t as int */
int PetscWarpAsmResidualCUDA(const PetscWarpFE *fe, const PetscWarpMesh *mesh, const PetscWarpPhys *ph, double mass, const int *l2d, const double *u, const double *ut, double *r, void *stream);

/*
  Element vectors computed elsewhere (the element kernels of user pointwise functions, petscwarp/pointwise.cuh) added
  into a local vector: r[l2d[cell*nel + i]] += Ev[cell*nel + i] for the ncells cells (atomics on the device: cells share
  dofs). The built-in residual kernels above add their entries in the same way, fused into their own kernel.
*/
int PetscWarpAsmScatterAddHost(int ncells, int nel, const int *l2d, const double *Ev, double *r);
int PetscWarpAsmScatterAddCUDA(int ncells, int nel, const int *l2d, const double *Ev, double *r, void *stream);

/*
  The boundary (Neumann) residual of constant fluxes (src/kernels/warpasm_bdres*): for each boundary face f (nfaces)
  of cell fcell[f], flux set fset[f] and weights W[f*nb + a] = int_f phi_a dS,
    r[l2d[fcell[f]*nb*nc + a*nc + c]] += g[fset[f]*nc + c] * W[f*nb + a]
*/
int PetscWarpAsmBdResidualHost(int nfaces, int nb, int nc, const int *fcell, const int *fset, const double *W, const double *g, const int *l2d, double *r);
int PetscWarpAsmBdResidualCUDA(int nfaces, int nb, int nc, const int *fcell, const int *fset, const double *W, const double *g, const int *l2d, double *r, void *stream);

#if defined(__cplusplus)
}
#endif
