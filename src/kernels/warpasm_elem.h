/*
  The element computation of the assembly kernels (warpasmkernels.h), written once as inline functions for the host
  twin (C99, warpasm_host.c) and the device (CUDA, warpasm.cu).

  The work is split at the granularity the GPU kernels parallelize over:
  - PwaStageQ: one (cell, quadrature point): geometry from the cell's vertex coordinates; stages wdj = w_q detJ_q and
    one record per basis function a: its physical gradient and its value, R[a*PWA_REC + d] = d phi_a/d x_d (d < dim),
    R[a*PWA_REC + 3] = phi_a(x_q) (records of 4 doubles: two 16-byte loads on the device);
  - PwaTile: one tile of a cell's element matrix from that cell's staged data: the rows of RA consecutive basis
    functions against the columns of RB consecutive ones (all components), accumulated in registers over the
    quadrature points (Laplace 2 x 4 nodes, elasticity 1 x 2 in 2D and 1 x 1 in 3D: at most PWA_TILE_MAX entries), so
    that each record read from shared memory serves several entries;
  - PwaLoadEntry: one entry of a cell's load vector.
  Staged data of one cell: wdj[q] and the records R[q*nb*PWA_REC ...], PwaRecStride(nb, nq) doubles apart from cell to
  cell (padded by 16 bytes to spread consecutive cells over the shared memory banks).
  Reference tabulations (w, B, D, Dc) and kcell are read through PWA_LDG: the read-only path on the device, where they
  always live in global memory; staged data and vertex coordinates are read plainly (shared memory on the device).
*/
#pragma once

#include <petscwarp/private/warpasmkernels.h>

#if defined(__CUDACC__)
  #define PWA_HD __host__ __device__
#else
  #define PWA_HD
#endif
#if defined(__CUDA_ARCH__)
  #define PWA_LDG(p) __ldg(p)
#else
  #define PWA_LDG(p) (*(p))
#endif

#define PWA_REC          4           /* doubles of a staged record: gradient (dim), phi at index 3 */
#define PWA_TILE_MAX     9           /* entries of a tile */
#define PWA_TILE_RB      4           /* most column nodes of a tile */
#define PWA_TARGET_TILES 256         /* tiles computed per batch of cells (element batches, sharednz sub-batches) */
#define PWA_STAGE_BUDGET (32 * 1024) /* sharednz: bytes of the staged data of one sub-batch of cells */

#if !defined(PWA_LAP_RA)
  #define PWA_LAP_RA 2
  #define PWA_LAP_RB 4
#endif

/* Tile shape: ra row nodes x rb column nodes, all components */
static inline PWA_HD void PwaTileShape(int dim, int nc, int *ra, int *rb)
{
  *ra = nc == 1 ? PWA_LAP_RA : 1;
  *rb = nc == 1 ? PWA_LAP_RB : dim == 2 ? 2 : 1;
}

/* Tiles covering one element matrix */
static inline PWA_HD int PwaTiles(int dim, int nb, int nc)
{
  int ra, rb;
  PwaTileShape(dim, nc, &ra, &rb);
  return ((nb + ra - 1) / ra) * ((nb + rb - 1) / rb);
}

/* Doubles between the records of consecutive cells (even: records stay 16-byte aligned) */
static inline PWA_HD int PwaRecStride(int nb, int nq)
{
  return nq * nb * PWA_REC + 2;
}

/* Doubles of the staged data of one cell on the device: records, wdj, and Jinv at each quadrature point */
static inline PWA_HD int PwaStageDoubles(int dim, int nb, int nq)
{
  return PwaRecStride(nb, nq) + nq + nq * dim * dim;
}

/* sharednz: cells per sub-batch whose data is staged at once (the fixed part of a block's shared memory) */
static inline PWA_HD int PwaSharedSubBatch(int dim, int nb, int nc, int nq)
{
  int bytes = (int)sizeof(double) * PwaStageDoubles(dim, nb, nq), ntile = PwaTiles(dim, nb, nc);
  int ns = (PWA_TARGET_TILES + ntile - 1) / ntile, fit = PWA_STAGE_BUDGET / bytes;
  if (ns > fit) ns = fit;
  return ns > 0 ? ns : 1;
}

/* J[d*dim+e] = dx_d/dxi_e at a quadrature point, from the vertex coordinates Xc[k*dim+d] and the coordinate basis
   derivatives Dcq[k*dim+e] at that point; returns detJ (with its sign) and Jinv[e*dim+d] = dxi_e/dx_d */
static inline PWA_HD double PwaGeometry(int dim, int ncv, const double *Xc, const double *Dcq, double *Jinv)
{
  double J[9], det, r;
  for (int m = 0; m < dim * dim; m++) J[m] = 0.0;
  for (int k = 0; k < ncv; k++) {
    double dc[3];
    for (int e = 0; e < dim; e++) dc[e] = PWA_LDG(&Dcq[k * dim + e]);
    for (int d = 0; d < dim; d++)
      for (int e = 0; e < dim; e++) J[d * dim + e] += Xc[k * dim + d] * dc[e];
  }
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

/* The record of basis function a at a quadrature point: physical gradient Jinv^T Dqa (Dqa = D + (q*nb + a)*dim) and
   value Bqa */
static inline PWA_HD void PwaRecord(int dim, const double *Jinv, const double *Dqa, double Bqa, double *rec)
{
  double r[3];
  for (int e = 0; e < dim; e++) r[e] = PWA_LDG(&Dqa[e]);
  for (int d = 0; d < dim; d++) {
    double s = 0.0;
    for (int e = 0; e < dim; e++) s += r[e] * Jinv[e * dim + d];
    rec[d] = s;
  }
  if (dim == 2) rec[2] = 0.0;
  rec[3] = Bqa;
}

/* Stage one (cell, q): *wdj = w_q detJ_q and, unless R is NULL, the records R[a*PWA_REC ...] of the nb basis
   functions. Dcq = Dc + q*ncv*dim, Dq = D + q*nb*dim, Bq = B + q*nb. (The device splits this over (cell, q) for the
   geometry and (cell, q, a) for the records.) */
static inline PWA_HD void PwaStageQ(int dim, int ncv, int nb, const double *Xc, const double *Dcq, double wq, const double *Dq, const double *Bq, double *wdj, double *R)
{
  double Jinv[9], det = PwaGeometry(dim, ncv, Xc, Dcq, Jinv);
  *wdj = wq * det;
  if (R)
    for (int a = 0; a < nb; a++) PwaRecord(dim, Jinv, Dq + a * dim, PWA_LDG(&Bq[a]), R + a * PWA_REC);
}

/* One record: gradient g[0..dim) and value *phi (two 16-byte shared memory loads on the device) */
static inline PWA_HD void PwaLoadRec(int dim, const double *rec, double *g, double *phi)
{
#if defined(__CUDA_ARCH__)
  double2 u = *(const double2 *)rec, v = *(const double2 *)(rec + 2);
  g[0] = u.x;
  g[1] = u.y;
  if (dim == 3) g[2] = v.x;
  *phi = v.y;
#else
  for (int d = 0; d < dim; d++) g[d] = rec[d];
  *phi = rec[3];
#endif
}

/* The conductivity of a cell: returns 1 with the tensor K[d*dim+e] (coef 2), 0 with the scalar K[0] (coef 0, 1) */
static inline PWA_HD int PwaCellCoef(int coef, double kappa, const double *kcell, int dim, int cell, double *K)
{
  if (coef == 2) {
    for (int m = 0; m < dim * dim; m++) K[m] = PWA_LDG(&kcell[(size_t)cell * dim * dim + m]);
    return 1;
  }
  K[0] = coef == 1 ? PWA_LDG(&kcell[cell]) : kappa;
  return 0;
}

/* Tile number tile (row-major over the tile grid) of a cell's element matrix A (row-major nel x nel, element dof
   a*nc + c) from its staged data wdj, R:
     LAPLACE:    A[a,b] = sum_q wdj_q [grad phi_a . (K grad phi_b) + shift phi_a phi_b]   (K from PwaCellCoef)
     ELASTICITY: A[(a,c),(b,e)] = sum_q wdj_q [mu (delta_ce grad phi_a . grad phi_b + d_e phi_a d_c phi_b)
                                               + lambda d_c phi_a d_e phi_b + shift delta_ce phi_a phi_b]
   Rows or columns past nb (the last tiles) are computed on clamped data and not written. */
static inline PWA_HD void PwaTile(int kind, int dim, int nb, int nq, const double *wdj, const double *R, int tensor, const double *K, double lambda, double mu, double shift, int tile, double *A)
{
  const int nc = kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim, nel = nb * nc;
  int       ra, rb, a0, b0;
  double    acc[PWA_TILE_MAX];
  PwaTileShape(dim, nc, &ra, &rb);
  a0 = tile / ((nb + rb - 1) / rb) * ra;
  b0 = tile % ((nb + rb - 1) / rb) * rb;
  for (int m = 0; m < PWA_TILE_MAX; m++) acc[m] = 0.0;
  for (int q = 0; q < nq; q++) {
    const double *Rq = R + q * nb * PWA_REC, w = wdj[q];
    double        gb[PWA_TILE_RB][3], pb[PWA_TILE_RB];
    for (int y = 0; y < rb; y++) PwaLoadRec(dim, Rq + (b0 + y < nb ? b0 + y : nb - 1) * PWA_REC, gb[y], &pb[y]);
    for (int x = 0; x < ra; x++) {
      double ga[3], pa, wg[3], wp;
      PwaLoadRec(dim, Rq + (a0 + x < nb ? a0 + x : nb - 1) * PWA_REC, ga, &pa);
      wp = w * shift * pa;
      if (kind == PETSCWARP_PHYS_LAPLACE) { /* wg = w K^T grad phi_a: A[a,b] += wg . grad phi_b */
        for (int e = 0; e < dim; e++) {
          double s = 0.0;
          if (tensor)
            for (int d = 0; d < dim; d++) s += ga[d] * K[d * dim + e];
          else s = K[0] * ga[e];
          wg[e] = w * s;
        }
        for (int y = 0; y < rb; y++) {
          double s = wp * pb[y];
          for (int e = 0; e < dim; e++) s += wg[e] * gb[y][e];
          acc[x * rb + y] += s;
        }
      } else {
        for (int d = 0; d < dim; d++) wg[d] = w * ga[d];
        for (int y = 0; y < rb; y++) {
          double dot = 0.0;
          for (int d = 0; d < dim; d++) dot += wg[d] * gb[y][d];
          for (int c = 0; c < nc; c++)
            for (int e = 0; e < nc; e++) acc[(x * nc + c) * rb * nc + y * nc + e] += mu * wg[e] * gb[y][c] + lambda * wg[c] * gb[y][e] + (c == e ? mu * dot + wp * pb[y] : 0.0);
        }
      }
    }
  }
  for (int x = 0; x < ra; x++)
    for (int y = 0; y < rb; y++)
      if (a0 + x < nb && b0 + y < nb)
        for (int c = 0; c < nc; c++)
          for (int e = 0; e < nc; e++) A[((a0 + x) * nc + c) * nel + (b0 + y) * nc + e] = acc[(x * nc + c) * rb * nc + y * nc + e];
}

/* Entry (a, c) of a cell's load vector: fc sum_q wdj_q B_qa */
static inline PWA_HD double PwaLoadEntry(int nb, int nq, const double *B, const double *wdj, double fc, int a)
{
  double s = 0.0;
  for (int q = 0; q < nq; q++) s += wdj[q] * PWA_LDG(&B[q * nb + a]);
  return fc * s;
}

/* Checks of a call (host only): sizes (PetscWarpAsmCheck) and the physics' coefficient; 0 or PETSCWARP_ASM_ERR_ARG */
static inline int PwaCheckCall(const PetscWarpFE *fe, const PetscWarpPhys *ph)
{
  if (!fe || !ph || PetscWarpAsmCheck(fe, ph->kind)) return PETSCWARP_ASM_ERR_ARG;
  if (ph->kind == PETSCWARP_PHYS_LAPLACE && (ph->coef < 0 || ph->coef > 2 || (ph->coef && !ph->kcell))) return PETSCWARP_ASM_ERR_ARG;
  return PETSCWARP_ASM_OK;
}
