/*
  The geometry of a cell at a quadrature point, written once for the host (C99, C++) and the device (CUDA): the
  Jacobian of the map from the reference cell, its inverse and determinant, and physical gradients of basis functions.
  Used by petscwarp's assembly kernels (src/kernels/warpasm_elem.h) and by the element kernels of user pointwise
  functions (petscwarp/pointwise.cuh), so that both compute the same geometry. Plain C: no PETSc types.
*/
#pragma once

/* Host and device qualifiers (also those of user pointwise functions, petscwarp/pointwise.cuh) */
#if !defined(PETSCWARP_HD)
  #if defined(__CUDACC__)
    #define PETSCWARP_HD __host__ __device__
  #else
    #define PETSCWARP_HD
  #endif
#endif

/* The inverse Jinv[e*dim+d] = dxi_e/dx_d of the Jacobian J[d*dim+e] = dx_d/dxi_e (cofactors over the determinant);
   returns detJ with its sign */
static inline PETSCWARP_HD double PetscWarpJacobianInverse(int dim, const double *J, double *Jinv)
{
  double det, r;
  if (dim == 2) {
    det     = J[0] * J[3] - J[1] * J[2];
    r       = 1.0 / det;
    Jinv[0] = J[3] * r;
    Jinv[1] = -J[1] * r;
    Jinv[2] = -J[2] * r;
    Jinv[3] = J[0] * r;
  } else {
    double c00 = J[4] * J[8] - J[5] * J[7], c01 = J[5] * J[6] - J[3] * J[8], c02 = J[3] * J[7] - J[4] * J[6];
    det     = J[0] * c00 + J[1] * c01 + J[2] * c02;
    r       = 1.0 / det;
    Jinv[0] = c00 * r;
    Jinv[1] = (J[2] * J[7] - J[1] * J[8]) * r;
    Jinv[2] = (J[1] * J[5] - J[2] * J[4]) * r;
    Jinv[3] = c01 * r;
    Jinv[4] = (J[0] * J[8] - J[2] * J[6]) * r;
    Jinv[5] = (J[2] * J[3] - J[0] * J[5]) * r;
    Jinv[6] = c02 * r;
    Jinv[7] = (J[1] * J[6] - J[0] * J[7]) * r;
    Jinv[8] = (J[0] * J[4] - J[1] * J[3]) * r;
  }
  return det;
}

/* J[d*dim+e] = dx_d/dxi_e at a quadrature point, from the vertex coordinates Xc[k*dim+d] and the coordinate basis
   derivatives Dcq[k*dim+e] at that point; returns detJ (with its sign) and Jinv[e*dim+d] = dxi_e/dx_d */
static inline PETSCWARP_HD double PetscWarpGeometry(int dim, int ncv, const double *Xc, const double *Dcq, double *Jinv)
{
  double J[9];
  for (int m = 0; m < 9; m++) J[m] = 0.0; /* all nine: a host compiler cannot see that dim bounds the reads */
  for (int k = 0; k < ncv; k++)
    for (int d = 0; d < dim; d++)
      for (int e = 0; e < dim; e++) J[d * dim + e] += Xc[k * dim + d] * Dcq[k * dim + e];
  return PetscWarpJacobianInverse(dim, J, Jinv);
}

/* Physical gradient g = Jinv^T Dqa of one basis function from its reference derivatives Dqa = D + (q*nb + a)*dim */
static inline PETSCWARP_HD void PetscWarpGradient(int dim, const double *Jinv, const double *Dqa, double *g)
{
  double r[3];
  for (int e = 0; e < dim; e++) r[e] = Dqa[e];
  for (int d = 0; d < dim; d++) {
    double s = 0.0;
    for (int e = 0; e < dim; e++) s += r[e] * Jinv[e * dim + d];
    g[d] = s;
  }
}
