static char help[] = "User pointwise functions on the device (issue 8): petscwarp/pointwise.cuh kernels compiled here from the same\n"
                     "__host__ __device__ functions the PetscDS holds, registered with DMPlexWarpSetPointwise(), against PETSc's\n"
                     "own path with -dm_mat_type aij, through the SNES, TS or KSP hook (-solver):\n"
                     "  snes  DMPlexWarpSetSNESLocalFEM() against DMPlexSetSNESLocalFEM(): the Jacobian and residual at a random state\n"
                     "        with non-zero Dirichlet values (max entry difference / relative difference < 1e-12), then Newton solves\n"
                     "        with the same iteration counts and solutions\n"
                     "  ts    DMPlexWarpSetTSLocalFEM() against DMTSSetIFunctionLocal(DMPlexTSComputeIFunctionFEM) and\n"
                     "        DMTSSetIJacobianLocal(DMPlexTSComputeIJacobianFEM): one implicit function and Jacobian at a random\n"
                     "        (u, u_t), t = 0.3, shift 7 (< 1e-12), then backward Euler (TSBEULER, -steps n of 0.05) with the same\n"
                     "        Newton and linear iteration counts at every step and the same solution\n"
                     "  ksp   DMPlexWarpSetKSPLocalFEM() against DMKSPSetComputeOperators()/DMKSPSetComputeRHS() with PETSc's\n"
                     "        DMPlexSNESComputeJacobianFEM()/ResidualFEM() at the zero state: operator (< 1e-12 entry-wise), right-hand\n"
                     "        side, iteration counts and solution\n"
                     "  -problems p,...  snes: nonlinear,linear,vector (default all three): -div((1+u^2) grad u) + u^3 = f (g0, g2,\n"
                     "            g3); c u - div(K grad u) = f with a non-symmetric K from the PetscDS's constants (g0, g3); a\n"
                     "            2-component nonlinear problem with advection (g0, g1, g2, g3). ts: heat,vheat (default both):\n"
                     "            u_t + u^3 - div((1+u^2) grad u) = f (f0 with u_t, g0 = u_tShift + 3u^2, g2, g3) and the 2-component\n"
                     "            problem with u_t (g0 = (u_tShift + 1) I, g1, g2, g3). ksp: linear\n"
                     "  -degrees 1,2  -types aij,ellwarp,...  -refusals (the checks of the registration, snes); -bc_time v: Dirichlet\n"
                     "  values growing with slope v in time (ts: projected at every call, u_t's too); mesh: -dm_plex_* options,\n"
                     "  -perturb amp (vertices displaced: non-affine cells)\n"
                     "  -bd none|nonconst|robin|robingrad|full: natural boundaries on the sides x = 1 and y = 0 (label values 1, 2) with a\n"
                     "  boundary f0: nonconst g(x) = sin(x) + y weighted by the normal (PETSCWARP_POINTWISE_BD(), no boundary\n"
                     "  Jacobian); robin alpha(x, n) u + 0.1 u |u|^2 - g with its exact boundary Jacobian g0_bd\n"
                     "  (PETSCWARP_POINTWISE_BD_JACOBIAN(): the Jacobians compared include the boundary terms, Newton is exact);\n"
                     "  robingrad 0.2 u + 0.02 u grad u . n - g with g0_bd = 0.2 + 0.02 grad u . n (u_x at the faces; no g1_bd:\n"
                     "  Newton is inexact on both paths alike); full: robingrad's f0_bd and f1_bd = 0.05 u n + 0.01 grad u with their\n"
                     "  exact g0_bd, g1_bd, g2_bd, g3_bd (PETSCWARP_POINTWISE_BD_ALL()); -refusals also checks the boundary refusals\n"
                     "  -linear_its_slack n: linear iterations per step may differ from PETSc's path by n (default 0; Newton never)\n"
                     "Compiled by nvcc with CUDA (device kernels and host twins), else as C++ (host twins only).\n";

#include <petscwarp/pointwise.cuh>
#include <petscsnes.h>
#include <petscts.h>
#include <petscds.h>
#include <petscdmplex.h>
extern "C" {
#include "testutil.h" /* C helpers (libpetscwarp_testutil) */
}

/* ---- the pointwise functions, written once for PETSc (host) and petscwarp (device) ---- */
#define PW_ARGS \
  PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t
#define PW_F_ARGS PW_ARGS, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[]
#define PW_G_ARGS PW_ARGS, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[]

/* nonlinear: -div((1 + u^2) grad u) + u^3 = 1 + x - 2y */
static PETSCWARP_HD void f0_nl(PW_F_ARGS, PetscScalar f0[])
{
  f0[0] = u[0] * u[0] * u[0] - (1.0 + x[0] - 2.0 * x[1]);
}
static PETSCWARP_HD void f1_nl(PW_F_ARGS, PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = (1.0 + u[0] * u[0]) * u_x[d];
}
static PETSCWARP_HD void g0_nl(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = 3.0 * u[0] * u[0];
}
static PETSCWARP_HD void g2_nl(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt d = 0; d < dim; ++d) g2[d] = 2.0 * u[0] * u_x[d];
}
static PETSCWARP_HD void g3_nl(PW_G_ARGS, PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0 + u[0] * u[0];
}
PETSCWARP_POINTWISE(pw_nonlinear, f0_nl, f1_nl, g0_nl, nullptr, g2_nl, g3_nl);

/* linear: c u - div(K grad u) = x, with c = constants[0] and the (non-symmetric) K = constants[1 .. 9], 3 x 3 row-major */
static PETSCWARP_HD void f0_lin(PW_F_ARGS, PetscScalar f0[])
{
  f0[0] = constants[0] * u[0] - x[0];
}
static PETSCWARP_HD void f1_lin(PW_F_ARGS, PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) {
    f1[d] = 0.0;
    for (PetscInt e = 0; e < dim; ++e) f1[d] += constants[1 + d * 3 + e] * u_x[e];
  }
}
static PETSCWARP_HD void g0_lin(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = constants[0];
}
static PETSCWARP_HD void g3_lin(PW_G_ARGS, PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d)
    for (PetscInt e = 0; e < dim; ++e) g3[d * dim + e] = constants[1 + d * 3 + e];
}
PETSCWARP_POINTWISE(pw_linear, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin);

/* vector (2 components): beta . grad u_c + u_c - div((1 + |u|^2) grad u_c) = (c + 1) x */
#define BETA(d) ((d) == 0 ? 0.7 : (d) == 1 ? -0.4 : 0.3)
static PETSCWARP_HD void f0_vec(PW_F_ARGS, PetscScalar f0[])
{
  for (PetscInt c = 0; c < 2; ++c) {
    f0[c] = u[c] - (c + 1.0) * x[0];
    for (PetscInt d = 0; d < dim; ++d) f0[c] += BETA(d) * u_x[c * dim + d];
  }
}
static PETSCWARP_HD void f1_vec(PW_F_ARGS, PetscScalar f1[])
{
  const PetscScalar k = 1.0 + u[0] * u[0] + u[1] * u[1];
  for (PetscInt m = 0; m < 2 * dim; ++m) f1[m] = k * u_x[m];
}
static PETSCWARP_HD void g0_vec(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = g0[3] = 1.0;
}
static PETSCWARP_HD void g1_vec(PW_G_ARGS, PetscScalar g1[])
{
  for (PetscInt c = 0; c < 2; ++c)
    for (PetscInt d = 0; d < dim; ++d) g1[(c * 2 + c) * dim + d] = BETA(d);
}
static PETSCWARP_HD void g2_vec(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt c = 0; c < 2; ++c)
    for (PetscInt e = 0; e < 2; ++e)
      for (PetscInt d = 0; d < dim; ++d) g2[(c * 2 + e) * dim + d] = 2.0 * u[e] * u_x[c * dim + d];
}
static PETSCWARP_HD void g3_vec(PW_G_ARGS, PetscScalar g3[])
{
  const PetscScalar k = 1.0 + u[0] * u[0] + u[1] * u[1];
  for (PetscInt c = 0; c < 2; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * 2 + c) * dim + d) * dim + d] = k;
}
PETSCWARP_POINTWISE(pw_vector, f0_vec, f1_vec, g0_vec, g1_vec, g2_vec, g3_vec);

/* two fields (PETSCWARP_POINTWISE_FIELDS_BEGIN()): u (scalar, degree k) and w (2 components, degree max(k - 1, 1)), coupled
   both ways and nonlinear, every block but none of its terms alike:
     u^3 + u w_0 - div((1 + u^2) grad u + (0.3 w_0, 0.2 w_1)) = 1 + x - 2y
     w_c + 0.5 (1 + u) d_c u - div((1 + 0.1 u^2) grad w_c) = (c + 1) x
   (fields: + u_t and + w_t, the TS problem tfields) */
#define KW(d) ((d) == 0 ? 0.3 : (d) == 1 ? 0.2 : 0.0)
static PETSCWARP_HD void f0_fu(PW_F_ARGS, PetscScalar f0[])
{
  const PetscScalar uu = u[uOff[0]], w0 = u[uOff[1]];
  f0[0] = uu * uu * uu + uu * w0 - (1.0 + x[0] - 2.0 * x[1]);
}
static PETSCWARP_HD void f0_tfu(PW_F_ARGS, PetscScalar f0[])
{
  f0_fu(dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, numConstants, constants, f0);
  f0[0] += u_t[uOff[0]];
}
static PETSCWARP_HD void f1_fu(PW_F_ARGS, PetscScalar f1[])
{
  const PetscScalar uu = u[uOff[0]];
  for (PetscInt d = 0; d < dim; ++d) f1[d] = (1.0 + uu * uu) * u_x[uOff_x[0] + d] + (d < 2 ? KW(d) * u[uOff[1] + d] : 0.0);
}
static PETSCWARP_HD void f0_fw(PW_F_ARGS, PetscScalar f0[])
{
  const PetscScalar uu = u[uOff[0]];
  for (PetscInt c = 0; c < 2; ++c) f0[c] = u[uOff[1] + c] + 0.5 * (1.0 + uu) * u_x[uOff_x[0] + c] - (c + 1.0) * x[0];
}
static PETSCWARP_HD void f0_tfw(PW_F_ARGS, PetscScalar f0[])
{
  f0_fw(dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, numConstants, constants, f0);
  for (PetscInt c = 0; c < 2; ++c) f0[c] += u_t[uOff[1] + c];
}
static PETSCWARP_HD void f1_fw(PW_F_ARGS, PetscScalar f1[])
{
  const PetscScalar uu = u[uOff[0]];
  for (PetscInt m = 0; m < 2 * dim; ++m) f1[m] = (1.0 + 0.1 * uu * uu) * u_x[uOff_x[1] + m];
}
static PETSCWARP_HD void g0_fuu(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = 3.0 * u[uOff[0]] * u[uOff[0]] + u[uOff[1]];
}
static PETSCWARP_HD void g0_tfuu(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = 3.0 * u[uOff[0]] * u[uOff[0]] + u[uOff[1]] + u_tShift;
}
static PETSCWARP_HD void g2_fuu(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt d = 0; d < dim; ++d) g2[d] = 2.0 * u[uOff[0]] * u_x[uOff_x[0] + d];
}
static PETSCWARP_HD void g3_fuu(PW_G_ARGS, PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0 + u[uOff[0]] * u[uOff[0]];
}
static PETSCWARP_HD void g0_fuw(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = u[uOff[0]];
}
static PETSCWARP_HD void g2_fuw(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt e = 0; e < 2; ++e) g2[e * dim + e] = KW(e);
}
static PETSCWARP_HD void g0_fwu(PW_G_ARGS, PetscScalar g0[])
{
  for (PetscInt c = 0; c < 2; ++c) g0[c] = 0.5 * u_x[uOff_x[0] + c];
}
static PETSCWARP_HD void g1_fwu(PW_G_ARGS, PetscScalar g1[])
{
  for (PetscInt c = 0; c < 2; ++c) g1[c * dim + c] = 0.5 * (1.0 + u[uOff[0]]);
}
static PETSCWARP_HD void g2_fwu(PW_G_ARGS, PetscScalar g2[])
{
  for (PetscInt m = 0; m < 2 * dim; ++m) g2[m] = 0.2 * u[uOff[0]] * u_x[uOff_x[1] + m];
}
static PETSCWARP_HD void g0_fww(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = g0[3] = 1.0;
}
static PETSCWARP_HD void g0_tfww(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = g0[3] = 1.0 + u_tShift;
}
static PETSCWARP_HD void g3_fww(PW_G_ARGS, PetscScalar g3[])
{
  for (PetscInt c = 0; c < 2; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * 2 + c) * dim + d) * dim + d] = 1.0 + 0.1 * u[uOff[0]] * u[uOff[0]];
}
/* the cell terms of the two-field problem, with and without natural boundaries */
#define PW_FIELDS_CELL_TERMS \
  PETSCWARP_POINTWISE_RESIDUAL(0, f0_fu, f1_fu) \
  PETSCWARP_POINTWISE_RESIDUAL(1, f0_fw, f1_fw) \
  PETSCWARP_POINTWISE_JACOBIAN(0, 0, g0_fuu, nullptr, g2_fuu, g3_fuu) \
  PETSCWARP_POINTWISE_JACOBIAN(0, 1, g0_fuw, nullptr, g2_fuw, nullptr) \
  PETSCWARP_POINTWISE_JACOBIAN(1, 0, g0_fwu, g1_fwu, g2_fwu, nullptr) \
  PETSCWARP_POINTWISE_JACOBIAN(1, 1, g0_fww, nullptr, nullptr, g3_fww)
PETSCWARP_POINTWISE_FIELDS_BEGIN(pw_fields, 2)
PW_FIELDS_CELL_TERMS
PETSCWARP_POINTWISE_FIELDS_END(pw_fields)
PETSCWARP_POINTWISE_FIELDS_BEGIN(pw_tfields, 2)
PETSCWARP_POINTWISE_RESIDUAL(0, f0_tfu, f1_fu)
PETSCWARP_POINTWISE_RESIDUAL(1, f0_tfw, f1_fw)
PETSCWARP_POINTWISE_JACOBIAN(0, 0, g0_tfuu, nullptr, g2_fuu, g3_fuu)
PETSCWARP_POINTWISE_JACOBIAN(0, 1, g0_fuw, nullptr, g2_fuw, nullptr)
PETSCWARP_POINTWISE_JACOBIAN(1, 0, g0_fwu, g1_fwu, g2_fwu, nullptr)
PETSCWARP_POINTWISE_JACOBIAN(1, 1, g0_tfww, nullptr, nullptr, g3_fww)
PETSCWARP_POINTWISE_FIELDS_END(pw_tfields)

/* heat (TS): u_t + u^3 - div((1 + u^2) grad u) = 1 + x - 2y, f1, g2, g3 those of the nonlinear problem */
static PETSCWARP_HD void f0_heat(PW_F_ARGS, PetscScalar f0[])
{
  f0[0] = u_t[0] + u[0] * u[0] * u[0] - (1.0 + x[0] - 2.0 * x[1]);
}
static PETSCWARP_HD void g0_heat(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = u_tShift + 3.0 * u[0] * u[0];
}
PETSCWARP_POINTWISE(pw_heat, f0_heat, f1_nl, g0_heat, nullptr, g2_nl, g3_nl);

/* vector heat (TS): u_t + the vector problem, both components */
static PETSCWARP_HD void f0_vheat(PW_F_ARGS, PetscScalar f0[])
{
  f0_vec(dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, numConstants, constants, f0);
  for (PetscInt c = 0; c < 2; ++c) f0[c] += u_t[c];
}
static PETSCWARP_HD void g0_vheat(PW_G_ARGS, PetscScalar g0[])
{
  g0[0] = g0[3] = u_tShift + 1.0;
}
PETSCWARP_POINTWISE(pw_vheat, f0_vheat, f1_vec, g0_vheat, g1_vec, g2_vec, g3_vec);

/* natural boundaries (-bd): f0_bd of PetscBdPointFn, for any number of components (uOff[1] = nc) */
#define PW_BD_ARGS PW_ARGS, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[]
/* nonconst: the flux g(x) = sin(x) + y, weighted by the outward normal */
static PETSCWARP_HD void f0_bd_nonconst(PW_BD_ARGS, PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c) f0[c] = -(sin(x[0]) + x[1]) * (1.0 + 0.5 * n[0]) + 0.1 * c;
}
#define PW_BDJ_ARGS PW_ARGS, PetscReal u_tShift, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[]
/* robin: alpha(x, n) u + 0.1 u |u|^2 - g(x), nonlinear in u (the components coupled) and not in u_x: g0_bd below is its
   exact Jacobian */
#define ROBIN_ALPHA (0.2 + 0.1 * x[0] * x[0] + 0.05 * n[1])
static PETSCWARP_HD void f0_bd_robin(PW_BD_ARGS, PetscScalar f0[])
{
  PetscScalar uu = 0.0;
  for (PetscInt c = 0; c < uOff[1]; ++c) uu += u[c] * u[c];
  for (PetscInt c = 0; c < uOff[1]; ++c) f0[c] = ROBIN_ALPHA * u[c] + 0.1 * u[c] * uu - (sin(x[0]) + x[1]);
}
static PETSCWARP_HD void g0_bd_robin(PW_BDJ_ARGS, PetscScalar g0[])
{
  const PetscInt nc = uOff[1];
  PetscScalar    uu = 0.0;
  for (PetscInt c = 0; c < nc; ++c) uu += u[c] * u[c];
  for (PetscInt c = 0; c < nc; ++c)
    for (PetscInt e = 0; e < nc; ++e) g0[c * nc + e] = (c == e ? ROBIN_ALPHA + 0.1 * uu : 0.0) + 0.2 * u[c] * u[e];
}
/* robingrad: 0.2 u + 0.02 u grad u . n - g(x) (u and u_x at the faces) with g0_bd = 0.2 + 0.02 grad u . n, u_x in the
   boundary Jacobian too; its g1_bd (0.02 u n, refused by the kernels) left out: Newton is inexact on both paths alike */
static PETSCWARP_HD void f0_bd_robingrad(PW_BD_ARGS, PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c) {
    PetscScalar un = 0.0;
    for (PetscInt d = 0; d < dim; ++d) un += u_x[c * dim + d] * n[d];
    f0[c] = 0.2 * u[c] + 0.02 * u[c] * un - (sin(x[0]) + x[1]);
  }
}
static PETSCWARP_HD void g0_bd_robingrad(PW_BDJ_ARGS, PetscScalar g0[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c) {
    PetscScalar un = 0.0;
    for (PetscInt d = 0; d < dim; ++d) un += u_x[c * dim + d] * n[d];
    g0[c * uOff[1] + c] = 0.2 + 0.02 * un;
  }
}
/* robingrad's g1_bd (the full problem's, and the refusal of a boundary g1 the kernels lack) */
static PETSCWARP_HD void g1_bd_robingrad(PW_BDJ_ARGS, PetscScalar g1[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c)
    for (PetscInt d = 0; d < dim; ++d) g1[(c * uOff[1] + c) * dim + d] = 0.02 * u[c] * n[d];
}
/* full: every boundary term (PETSCWARP_POINTWISE_BD_ALL()): robingrad's f0_bd and f1_bd = 0.05 u n + 0.01 grad u, with
   their exact boundary Jacobian g0_bd (robingrad's), g1_bd = 0.02 u n (robingrad's), g2_bd = 0.05 n, g3_bd = 0.01 I */
static PETSCWARP_HD void f1_bd_full(PW_BD_ARGS, PetscScalar f1[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c)
    for (PetscInt d = 0; d < dim; ++d) f1[c * dim + d] = 0.05 * u[c] * n[d] + 0.01 * u_x[c * dim + d];
}
static PETSCWARP_HD void g2_bd_full(PW_BDJ_ARGS, PetscScalar g2[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c)
    for (PetscInt d = 0; d < dim; ++d) g2[(c * uOff[1] + c) * dim + d] = 0.05 * n[d];
}
static PETSCWARP_HD void g3_bd_full(PW_BDJ_ARGS, PetscScalar g3[])
{
  for (PetscInt c = 0; c < uOff[1]; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * uOff[1] + c) * dim + d) * dim + d] = 0.01;
}
static void f1_bd_any(PW_BD_ARGS, PetscScalar f1[])
{
  for (PetscInt m = 0; m < uOff[1] * dim; ++m) f1[m] = 0.0;
}
PETSCWARP_POINTWISE_BD(pw_nonlinear_nonconst, f0_nl, f1_nl, g0_nl, nullptr, g2_nl, g3_nl, f0_bd_nonconst);
PETSCWARP_POINTWISE_BD(pw_linear_nonconst, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin, f0_bd_nonconst);
PETSCWARP_POINTWISE_BD(pw_vector_nonconst, f0_vec, f1_vec, g0_vec, g1_vec, g2_vec, g3_vec, f0_bd_nonconst);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_nonlinear_robin, f0_nl, f1_nl, g0_nl, nullptr, g2_nl, g3_nl, f0_bd_robin, g0_bd_robin);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_linear_robin, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin, f0_bd_robin, g0_bd_robin);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_vector_robin, f0_vec, f1_vec, g0_vec, g1_vec, g2_vec, g3_vec, f0_bd_robin, g0_bd_robin);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_heat_robin, f0_heat, f1_nl, g0_heat, nullptr, g2_nl, g3_nl, f0_bd_robin, g0_bd_robin);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_nonlinear_robingrad, f0_nl, f1_nl, g0_nl, nullptr, g2_nl, g3_nl, f0_bd_robingrad, g0_bd_robingrad);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_linear_robingrad, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin, f0_bd_robingrad, g0_bd_robingrad);
PETSCWARP_POINTWISE_BD_JACOBIAN(pw_vector_robingrad, f0_vec, f1_vec, g0_vec, g1_vec, g2_vec, g3_vec, f0_bd_robingrad, g0_bd_robingrad);
PETSCWARP_POINTWISE_BD_ALL(pw_nonlinear_full, f0_nl, f1_nl, g0_nl, nullptr, g2_nl, g3_nl, f0_bd_robingrad, f1_bd_full, g0_bd_robingrad, g1_bd_robingrad, g2_bd_full, g3_bd_full);
PETSCWARP_POINTWISE_BD_ALL(pw_linear_full, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin, f0_bd_robingrad, f1_bd_full, g0_bd_robingrad, g1_bd_robingrad, g2_bd_full, g3_bd_full);
PETSCWARP_POINTWISE_BD_ALL(pw_vector_full, f0_vec, f1_vec, g0_vec, g1_vec, g2_vec, g3_vec, f0_bd_robingrad, f1_bd_full, g0_bd_robingrad, g1_bd_robingrad, g2_bd_full, g3_bd_full);
/* the Robin residual without its boundary Jacobian (the refusal of a PetscDS that has one) */
PETSCWARP_POINTWISE_BD(pw_linear_robin_nojac, f0_lin, f1_lin, g0_lin, NULL, nullptr, g3_lin, f0_bd_robin);

/* the fields problem with natural boundaries (-bd robin -problems fields): on the side x = 1 (value 1) a boundary of u,
   f0_bd = 0.2 u + 0.05 w_0 n_0 - sin(x) - y (blocks (0, 0) and (0, 1)); on the side y = 0 (value 2) a boundary of w,
   f0_bd[c] = 0.1 w_c + 0.03 u^2 - c, f1_bd[c][d] = 0.01 d_d w_c (blocks (1, 1) with g0 and g3, (1, 0) with g0) */
static PETSCWARP_HD void f0_bd_fu(PW_BD_ARGS, PetscScalar f0[])
{
  f0[0] = 0.2 * u[uOff[0]] + 0.05 * u[uOff[1]] * n[0] - (PetscSinReal(x[0]) + x[1]);
}
static PETSCWARP_HD void g0_bd_fuu(PW_BDJ_ARGS, PetscScalar g0[])
{
  g0[0] = 0.2;
}
static PETSCWARP_HD void g0_bd_fuw(PW_BDJ_ARGS, PetscScalar g0[])
{
  g0[0] = 0.05 * n[0];
}
static PETSCWARP_HD void f0_bd_fw(PW_BD_ARGS, PetscScalar f0[])
{
  for (PetscInt c = 0; c < 2; ++c) f0[c] = 0.1 * u[uOff[1] + c] + 0.03 * u[uOff[0]] * u[uOff[0]] - c;
}
static PETSCWARP_HD void f1_bd_fw(PW_BD_ARGS, PetscScalar f1[])
{
  for (PetscInt m = 0; m < 2 * dim; ++m) f1[m] = 0.01 * u_x[uOff_x[1] + m];
}
static PETSCWARP_HD void g0_bd_fwu(PW_BDJ_ARGS, PetscScalar g0[])
{
  for (PetscInt c = 0; c < 2; ++c) g0[c] = 0.06 * u[uOff[0]];
}
static PETSCWARP_HD void g0_bd_fww(PW_BDJ_ARGS, PetscScalar g0[])
{
  g0[0] = g0[3] = 0.1;
}
static PETSCWARP_HD void g3_bd_fww(PW_BDJ_ARGS, PetscScalar g3[])
{
  for (PetscInt c = 0; c < 2; ++c)
    for (PetscInt d = 0; d < dim; ++d) g3[((c * 2 + c) * dim + d) * dim + d] = 0.01;
}
PETSCWARP_POINTWISE_FIELDS_BEGIN(pw_fields_bd, 2)
PW_FIELDS_CELL_TERMS
PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL(0, f0_bd_fu, nullptr)
PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL(1, f0_bd_fw, f1_bd_fw)
PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(0, 0, g0_bd_fuu, nullptr, nullptr, nullptr)
PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(0, 1, g0_bd_fuw, nullptr, nullptr, nullptr)
PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(1, 0, g0_bd_fwu, nullptr, nullptr, nullptr)
PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(1, 1, g0_bd_fww, nullptr, nullptr, g3_bd_fww)
PETSCWARP_POINTWISE_FIELDS_END(pw_fields_bd)

typedef enum {
  BD_NONE,
  BD_NONCONST,
  BD_ROBIN,
  BD_ROBINGRAD,
  BD_FULL
} BdKind;
static const char *const BdKinds[] = {"none", "nonconst", "robin", "robingrad", "full", "BdKind", "BD_", NULL};
static BdKind            bdkind    = BD_NONE; /* -bd */
/* refusals: 1 register the kernels without f0_bd, 2 the PetscDS with g0_bd, the kernels without, 3 the kernels with
   g0_bd, the PetscDS without, 4 a boundary g1 in the PetscDS, 5 a boundary f1 in the PetscDS */
static PetscInt                  bdwrong   = 0;
static PetscBool                 bdflip    = PETSC_FALSE; /* -bd_flip: the natural boundaries on the sides x = 0 and y = 1 (faces reversed in their cells) */
static const PetscWarpPointwise *pwother   = NULL;        /* Refusals(): kernels registered for another problem */
static PetscBool                 explicitw = PETSC_FALSE; /* Refusals(): field 1 of the fields problem explicit (IMEX) */
static PetscInt                  litslack  = 0;           /* -linear_its_slack: linear iterations per step may differ from PETSc's path by this much (Newton counts never) */

/* ---- the problems ---- */
typedef enum {
  PROB_NONLINEAR,
  PROB_LINEAR,
  PROB_VECTOR,
  PROB_HEAT,
  PROB_VHEAT,
  PROB_FIELDS,
  PROB_TFIELDS
} Problem;
static const char *const Problems[] = {"nonlinear", "linear", "vector", "heat", "vheat", "fields", "tfields"};
#define NPROBLEMS 7

typedef enum {
  SOLVER_SNES,
  SOLVER_TS,
  SOLVER_KSP
} Solver;
static const char *const Solvers[] = {"snes", "ts", "ksp", "Solver", "SOLVER_", NULL};

static PetscReal bct    = 0.0;         /* -bc_time: the slope in time of the Dirichlet values */
static PetscBool devrun = PETSC_FALSE; /* a device is here, the kernels have device launchers and -mat_warp_assembly_device is not 0 */

/* With devrun, a Jacobian into a device matrix and a residual into device vectors must have run on the device (the host
   twins give the same numbers: without this check a silent fallback would pass) */
static PetscErrorCode CheckDevice(DM dmw, Mat J, Vec F, const char *what)
{
  PetscBool jd, rd, jdev, rdev;

  PetscFunctionBegin;
  if (!devrun) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompareAny((PetscObject)J, &jdev, MATSEQAIJCUSPARSE, MATMPIAIJCUSPARSE, ""));
  if (!jdev) {
    PetscBool ew;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)J, &ew, MATSEQAIJELLWARP, ""));
    if (ew) {
      MatEllWarpBackend be;
      PetscCall(MatEllWarpGetBackend(J, &be));
      jdev = (PetscBool)(be == MAT_ELLWARP_BACKEND_CUDA);
    }
  }
  PetscCall(PetscObjectTypeCompareAny((PetscObject)F, &rdev, VECSEQCUDA, VECMPICUDA, ""));
  PetscCall(DMPlexWarpGetPointwiseDevice(dmw, &jd, &rd));
  PetscCheck(!jdev || jd, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the Jacobian into a device matrix (%s) ran in the host twin", what, ((PetscObject)J)->type_name);
  PetscCheck(!rdev || rd, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the residual into device vectors ran in the host twin", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode bc(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = 0.3 + 0.2 * x[0] - 0.1 * x[1] + 0.05 * c + bct * t;
  return PETSC_SUCCESS;
}

static PetscErrorCode bc_t(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = bct;
  return PETSC_SUCCESS;
}

/* PETSc's DMKSP path for the reference: the operator is the Jacobian, the right-hand side -F(0), both at the zero state
   with the Dirichlet values (what DMPlexWarpSetKSPLocalFEM() computes) */
static PetscErrorCode ZeroStateRef(DM dm, Vec *Xloc)
{
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, Xloc));
  PetscCall(VecZeroEntries(*Xloc));
  PetscCall(DMPlexInsertBoundaryValues(dm, PETSC_TRUE, *Xloc, PETSC_MIN_REAL, NULL, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OperatorsRef(KSP ksp, Mat A, Mat P, void *ctx)
{
  DM  dm;
  Vec Xloc;

  PetscFunctionBegin;
  PetscCall(KSPGetDM(ksp, &dm));
  PetscCall(ZeroStateRef(dm, &Xloc));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, Xloc, A, P, NULL));
  PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RHSRef(KSP ksp, Vec b, void *ctx)
{
  DM  dm;
  Vec Xloc, Floc;

  PetscFunctionBegin;
  PetscCall(KSPGetDM(ksp, &dm));
  PetscCall(ZeroStateRef(dm, &Xloc));
  PetscCall(DMGetLocalVector(dm, &Floc));
  PetscCall(VecZeroEntries(Floc));
  PetscCall(DMPlexSNESComputeResidualFEM(dm, Xloc, Floc, NULL));
  PetscCall(VecZeroEntries(b));
  PetscCall(DMLocalToGlobalBegin(dm, Floc, ADD_VALUES, b));
  PetscCall(DMLocalToGlobalEnd(dm, Floc, ADD_VALUES, b));
  PetscCall(VecScale(b, -1.0));
  PetscCall(DMRestoreLocalVector(dm, &Xloc));
  PetscCall(DMRestoreLocalVector(dm, &Floc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  DERIVE_NONE,
  DERIVE_CLONE,
  DERIVE_REFINE,
  DERIVE_INPLACE
} Derive;
static const char *const Derives[] = {"none", "clone", "refine", "inplace", "Derive", "DERIVE_", NULL};

/* -derive: the problem solved on a DM derived from the one the kernels were registered on, the hooks installed on the
   derived one; PETSc's path derives its DM alike (the same mesh):
   clone   - DMClone() and DMCopyDisc() of the DM set up
   refine  - DMRefine() of the DM set up
   inplace - the kernels registered on the bare mesh, DMSetFromOptions() with the prefix derived_ (-derived_dm_refine 1:
             the same DM refined in place, its methods reset), then DMClone(); the fields and the PetscDS set on the clone */
static Derive derive = DERIVE_NONE;

static PetscErrorCode DeriveDM(DM *dm)
{
  DM d = NULL;

  PetscFunctionBegin;
  switch (derive) {
  case DERIVE_NONE:
    break;
  case DERIVE_CLONE:
    PetscCall(DMClone(*dm, &d));
    PetscCall(DMCopyDisc(*dm, d));
    break;
  case DERIVE_REFINE:
    PetscCall(DMRefine(*dm, PetscObjectComm((PetscObject)*dm), &d));
    break;
  case DERIVE_INPLACE:
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*dm, "derived_"));
    PetscCall(DMSetFromOptions(*dm));
    PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*dm, NULL));
    PetscCall(DMClone(*dm, &d));
    break;
  }
  if (d) {
    PetscCall(DMDestroy(dm));
    *dm = d;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The DM of a problem: PETSc's path (hook false, aij: DMPlexSetSNESLocalFEM(); DMTSSetIFunctionLocal() ... with
   DMPlexTSComputeIFunctionFEM() ...; DMKSPSetComputeOperators() ... above) or petscwarp's (the pointwise kernels
   registered, DMPlexWarpSetSNESLocalFEM() / TSLocalFEM() / KSPLocalFEM(), matrix type mt); wrongds: the PetscDS's g3
   differs from the compiled one */
static PetscErrorCode CreateDM(Problem p, Solver sv, PetscInt degree, PetscBool hook, MatType mt, PetscBool wrongds, DM *dm)
{
  PetscInt                  dim, cStart, cEnd, id = 1;
  DMPolytopeType            ct = DM_POLYTOPE_UNKNOWN;
  PetscFE                   fe;
  PetscDS                   ds;
  DMLabel                   label;
  const PetscWarpPointwise *pws[]   = {&pw_nonlinear, &pw_linear, &pw_vector, &pw_heat, &pw_vheat, &pw_fields, &pw_tfields};
  const PetscBool           fields  = (PetscBool)(p == PROB_FIELDS || p == PROB_TFIELDS);
  const PetscScalar         cst[10] = {0.8, 2.0, 0.5, 0.1, -0.3, 1.5, 0.2, 0.05, -0.1, 1.2};
  const PetscBool           vector  = (PetscBool)(p == PROB_VECTOR || p == PROB_VHEAT);

  const PetscWarpPointwise *pwbd[4][5] = {
    {&pw_nonlinear_nonconst,  &pw_linear_nonconst,  &pw_vector_nonconst,  NULL,           NULL},
    {&pw_nonlinear_robin,     &pw_linear_robin,     &pw_vector_robin,     &pw_heat_robin, NULL},
    {&pw_nonlinear_robingrad, &pw_linear_robingrad, &pw_vector_robingrad, NULL,           NULL},
    {&pw_nonlinear_full,      &pw_linear_full,      &pw_vector_full,      NULL,           NULL}
  };
  const PetscWarpPointwise *pw = pwother ? pwother : fields && bdkind != BD_NONE ? (bdwrong == 1 ? &pw_fields : &pw_fields_bd) : bdkind == BD_NONE || bdwrong == 1 || fields ? pws[p] : bdwrong == 2 ? &pw_linear_robin_nojac : pwbd[bdkind - 1][p];

  PetscFunctionBegin;
  PetscCheck(!hook || pw, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-bd %s: no kernels compiled for the problem %s", BdKinds[bdkind], Problems[p]);
  PetscCall(TestPlexCreate(PETSC_COMM_WORLD, dm));
  { /* -perturb amp: non-affine quadrilaterals and hexahedra (the points x and the geometry per quadrature point) */
    PetscReal amp = 0.0;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-perturb", &amp, NULL));
    PetscCall(TestPerturbCoordinates(*dm, amp, PETSC_MAX_REAL));
  }
  if (derive == DERIVE_INPLACE) { /* registered on the bare mesh, inherited through the in-place refinement and the clone */
    if (hook) PetscCall(DMPlexWarpSetPointwise(*dm, pw));
    PetscCall(DeriveDM(dm));
  }
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, &cEnd));
  {
    PetscInt ict = DM_POLYTOPE_UNKNOWN;
    if (cEnd > cStart) {
      PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
      ict = ct;
    }
    PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &ict, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
    ct = (DMPolytopeType)ict;
  }
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, vector ? 2 : 1, DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE, degree, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  if (fields) { /* w: 2 components of degree max(k - 1, 1), at u's quadrature */
    PetscFE few;
    PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, 2, DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE, PetscMax(degree - 1, 1), PETSC_DETERMINE, &few));
    PetscCall(PetscFECopyQuadrature(fe, few));
    PetscCall(DMSetField(*dm, 1, NULL, (PetscObject)few));
    PetscCall(PetscFEDestroy(&few));
  }
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  switch (p) {
  case PROB_NONLINEAR:
    PetscCall(PetscDSSetResidual(ds, 0, f0_nl, f1_nl));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_nl, NULL, g2_nl, wrongds ? g3_lin : g3_nl));
    break;
  case PROB_LINEAR:
    PetscCall(PetscDSSetResidual(ds, 0, f0_lin, f1_lin));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_lin, NULL, NULL, g3_lin));
    PetscCall(PetscDSSetConstants(ds, 10, (PetscScalar *)cst));
    break;
  case PROB_VECTOR:
    PetscCall(PetscDSSetResidual(ds, 0, f0_vec, f1_vec));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_vec, g1_vec, g2_vec, g3_vec));
    break;
  case PROB_HEAT:
    PetscCall(PetscDSSetResidual(ds, 0, f0_heat, f1_nl));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_heat, NULL, g2_nl, g3_nl));
    break;
  case PROB_VHEAT:
    PetscCall(PetscDSSetResidual(ds, 0, f0_vheat, f1_vec));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_vheat, g1_vec, g2_vec, g3_vec));
    break;
  case PROB_FIELDS:
  case PROB_TFIELDS: {
    const PetscBool tr = (PetscBool)(p == PROB_TFIELDS);
    PetscCall(PetscDSSetResidual(ds, 0, tr ? f0_tfu : f0_fu, f1_fu));
    PetscCall(PetscDSSetResidual(ds, 1, tr ? f0_tfw : f0_fw, f1_fw));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, tr ? g0_tfuu : g0_fuu, NULL, g2_fuu, wrongds ? g3_fww : g3_fuu));
    PetscCall(PetscDSSetJacobian(ds, 0, 1, g0_fuw, NULL, g2_fuw, NULL));
    PetscCall(PetscDSSetJacobian(ds, 1, 0, g0_fwu, g1_fwu, g2_fwu, NULL));
    PetscCall(PetscDSSetJacobian(ds, 1, 1, tr ? g0_tfww : g0_fww, NULL, NULL, g3_fww));
    if (explicitw) PetscCall(PetscDSSetImplicit(ds, 1, PETSC_FALSE));
  } break;
  }
  PetscCall(DMCreateLabel(*dm, "marker"));
  PetscCall(DMGetLabel(*dm, "marker", &label));
  PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
  if (bdkind != BD_NONE) { /* natural boundaries: the faces of the side x = 1 (value 1) and of the side y = 0 (value 2), the others Dirichlet */
    DMLabel         nlabel;
    IS              fis;
    const PetscInt *faces, vals[2] = {1, 2};
    PetscInt        nf = 0, bdn;
    PetscWeakForm   wf;

    PetscCall(DMCreateLabel(*dm, "neumann"));
    PetscCall(DMGetLabel(*dm, "neumann", &nlabel));
    PetscCall(DMLabelGetStratumIS(label, 1, &fis));
    if (fis) {
      PetscCall(ISGetLocalSize(fis, &nf));
      PetscCall(ISGetIndices(fis, &faces));
    }
    for (PetscInt i = 0; i < nf; i++) {
      PetscReal area, cen[3], nrm[3], l = 0.0;
      PetscCall(DMPlexComputeCellGeometryFVM(*dm, faces[i], &area, cen, nrm));
      for (PetscInt d = 0; d < dim; d++) l += nrm[d] * nrm[d];
      l = PetscSqrtReal(l);
      if (PetscAbsReal(nrm[0]) > 0.7 * l && (bdflip ? cen[0] < 0.5 : cen[0] > 0.5)) PetscCall(DMLabelSetValue(nlabel, faces[i], 1));
      else if (PetscAbsReal(nrm[1]) > 0.7 * l && (bdflip ? cen[1] > 0.5 : cen[1] < 0.5)) PetscCall(DMLabelSetValue(nlabel, faces[i], 2));
    }
    for (PetscInt i = 0; i < nf; i++) {
      PetscInt v;
      PetscCall(DMLabelGetValue(nlabel, faces[i], &v));
      if (v > 0) PetscCall(DMLabelClearValue(label, faces[i], 1));
    }
    if (fis) PetscCall(ISRestoreIndices(fis, &faces));
    PetscCall(ISDestroy(&fis));
    if (fields) { /* a boundary of u on value 1, one of w on value 2 (PETSc's keys: the boundary's field) */
      PetscInt bdw;
      PetscCall(DMAddBoundary(*dm, DM_BC_NATURAL, "flux_u", nlabel, 1, &vals[0], 0, 0, NULL, NULL, NULL, NULL, &bdn));
      PetscCall(PetscDSGetBoundary(ds, bdn, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
      PetscCall(PetscWeakFormSetIndexBdResidual(wf, nlabel, vals[0], 0, 0, 0, f0_bd_fu, 0, NULL));
      PetscCall(PetscWeakFormSetIndexBdJacobian(wf, nlabel, vals[0], 0, 0, 0, 0, g0_bd_fuu, 0, NULL, 0, NULL, 0, NULL));
      if (bdwrong != 3) PetscCall(PetscWeakFormSetIndexBdJacobian(wf, nlabel, vals[0], 0, 1, 0, 0, g0_bd_fuw, 0, NULL, 0, NULL, 0, NULL));
      PetscCall(DMAddBoundary(*dm, DM_BC_NATURAL, "flux_w", nlabel, 1, &vals[1], 1, 0, NULL, NULL, NULL, NULL, &bdw));
      PetscCall(PetscDSGetBoundary(ds, bdw, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
      PetscCall(PetscWeakFormSetIndexBdResidual(wf, nlabel, vals[1], 1, 0, 0, f0_bd_fw, 0, f1_bd_fw));
      PetscCall(PetscWeakFormSetIndexBdJacobian(wf, nlabel, vals[1], 1, 1, 0, 0, g0_bd_fww, 0, NULL, 0, NULL, 0, g3_bd_fww));
      PetscCall(PetscWeakFormSetIndexBdJacobian(wf, nlabel, vals[1], 1, 0, 0, 0, g0_bd_fwu, 0, NULL, 0, NULL, 0, NULL));
    } else PetscCall(DMAddBoundary(*dm, DM_BC_NATURAL, "flux", nlabel, 2, vals, 0, 0, NULL, NULL, NULL, NULL, &bdn));
    if (!fields) PetscCall(PetscDSGetBoundary(ds, bdn, &wf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    for (PetscInt v = 0; v < 2 && !fields; v++) {
      const PetscBool    full = (PetscBool)(bdkind == BD_FULL);
      PetscBdPointFn    *f0   = bdkind == BD_ROBIN ? f0_bd_robin : bdkind == BD_ROBINGRAD || full ? f0_bd_robingrad : f0_bd_nonconst;
      PetscBdPointFn    *f1   = full ? f1_bd_full : bdwrong == 5 ? f1_bd_any : NULL;
      PetscBdPointJacFn *g0   = bdkind == BD_ROBIN ? g0_bd_robin : bdkind == BD_ROBINGRAD || full ? g0_bd_robingrad : NULL;
      PetscBdPointJacFn *g1   = full || bdwrong == 4 ? g1_bd_robingrad : NULL;
      PetscCall(PetscWeakFormSetIndexBdResidual(wf, nlabel, vals[v], 0, 0, 0, f0, 0, f1));
      if (bdwrong != 3) PetscCall(PetscWeakFormSetIndexBdJacobian(wf, nlabel, vals[v], 0, 0, 0, 0, g0, 0, g1, 0, full ? g2_bd_full : NULL, 0, full ? g3_bd_full : NULL));
    }
  }
  PetscCall(DMPlexLabelComplete(*dm, label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)bc, (PetscVoidFn *)bc_t, NULL, NULL));
  if (fields) PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall_w", label, 1, &id, 1, 0, NULL, (PetscVoidFn *)bc, (PetscVoidFn *)bc_t, NULL, NULL));
  PetscCall(DMSetMatType(*dm, hook ? mt : MATAIJ));
  if (hook && derive != DERIVE_INPLACE) PetscCall(DMPlexWarpSetPointwise(*dm, pw));
  if (derive != DERIVE_INPLACE) PetscCall(DeriveDM(dm));
  switch (sv) {
  case SOLVER_SNES:
    if (hook) PetscCall(DMPlexWarpSetSNESLocalFEM(*dm));
    else PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
    break;
  case SOLVER_TS:
    if (hook) PetscCall(DMPlexWarpSetTSLocalFEM(*dm));
    else {
      PetscCall(DMTSSetBoundaryLocal(*dm, DMPlexTSComputeBoundary, NULL));
      PetscCall(DMTSSetIFunctionLocal(*dm, DMPlexTSComputeIFunctionFEM, NULL));
      PetscCall(DMTSSetIJacobianLocal(*dm, DMPlexTSComputeIJacobianFEM, NULL));
    }
    break;
  case SOLVER_KSP:
    if (hook) PetscCall(DMPlexWarpSetKSPLocalFEM(*dm));
    else {
      PetscCall(DMKSPSetComputeOperators(*dm, OperatorsRef, NULL));
      PetscCall(DMKSPSetComputeRHS(*dm, RHSRef, NULL));
    }
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||w - p|| / ||p|| of a vector of the hook's DM and one of PETSc's (their types may differ) */
static PetscErrorCode RelDiff(Vec w, Vec p, PetscReal *e)
{
  Vec c;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(p, &c));
  PetscCall(TestCopyValues(w, c));
  PetscCall(VecRelativeDifference(c, p, e));
  PetscCall(VecDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A random global vector of PETSc's DM in [-0.5, 0.5) and its copy for the hook's */
static PetscErrorCode RandomState(DM dmw, DM dmp, PetscRandom rnd, Vec *Xw, Vec *Xp)
{
  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dmp, Xp));
  PetscCall(DMCreateGlobalVector(dmw, Xw));
  PetscCall(VecSetRandom(*Xp, rnd));
  PetscCall(VecShift(*Xp, -0.5));
  PetscCall(TestCopyValues(*Xp, *Xw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Jacobian and residual (TS: implicit ones) of the hook's DM against PETSc's at a random state */
static PetscErrorCode Compare(DM dmw, DM dmp, Solver sv, PetscRandom rnd, const char *what)
{
  Vec       Xw, Xp, Xtw = NULL, Xtp = NULL, Fw, Fp;
  Mat       Jw, Jp;
  PetscReal ej, er;
  PetscInt  nj, nr;

  PetscFunctionBegin;
  PetscCall(RandomState(dmw, dmp, rnd, &Xw, &Xp));
  if (sv == SOLVER_TS) PetscCall(RandomState(dmw, dmp, rnd, &Xtw, &Xtp));
  PetscCall(VecDuplicate(Xp, &Fp));
  PetscCall(VecDuplicate(Xw, &Fw));
  PetscCall(DMCreateMatrix(dmp, &Jp));
  PetscCall(DMCreateMatrix(dmw, &Jw));
  PetscCall(TestEvaluate(dmp, (PetscBool)(sv == SOLVER_TS), Xp, Xtp, Fp, Jp));
  PetscCall(TestEvaluate(dmw, (PetscBool)(sv == SOLVER_TS), Xw, Xtw, Fw, Jw));
  PetscCall(TestEntryDifference(Jw, Jp, &ej));
  PetscCall(RelDiff(Fw, Fp, &er));
  PetscCall(DMPlexWarpGetPointwiseCount(dmw, &nj, &nr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %s (%s) max entry diff. %.1e, %s rel. diff. %.1e (pointwise kernels: %" PetscInt_FMT " Jacobian, %" PetscInt_FMT " residual)\n", what, sv == SOLVER_TS ? "IJacobian" : "Jacobian", ((PetscObject)Jw)->type_name, (double)ej, sv == SOLVER_TS ? "IFunction" : "residual", (double)er, nj, nr));
  PetscCheck(ej < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the Jacobian differs from PETSc's: max entry difference %g", what, (double)ej);
  PetscCheck(er < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the residual differs from PETSc's: relative difference %g", what, (double)er);
  PetscCheck(nj == 1 && nr == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " Jacobians and %" PetscInt_FMT " residuals by the pointwise kernels, expected 1 and 1", what, nj, nr);
  PetscCall(CheckDevice(dmw, Jw, Fw, what));
  PetscCall(VecDestroy(&Xw));
  PetscCall(VecDestroy(&Xp));
  PetscCall(VecDestroy(&Xtw));
  PetscCall(VecDestroy(&Xtp));
  PetscCall(VecDestroy(&Fw));
  PetscCall(VecDestroy(&Fp));
  PetscCall(MatDestroy(&Jw));
  PetscCall(MatDestroy(&Jp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define MAXSTEPS 16

/* What a solve gives: Newton and linear iterations (TS: per step), the solution; KSP: the operator and right-hand side */
typedef struct {
  PetscInt nsteps, its[MAXSTEPS], lits[MAXSTEPS];
  Vec      u, b;
  Mat      A;
} Run;

static PetscErrorCode RunDestroy(Run *r)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&r->u));
  PetscCall(VecDestroy(&r->b));
  PetscCall(MatDestroy(&r->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TSMonitorSet(): the Newton and linear iterations of the step just taken */
static PetscErrorCode StepMonitor(TS ts, PetscInt step, PetscReal t, Vec u, void *ctx)
{
  Run *r = (Run *)ctx;
  SNES snes;

  PetscFunctionBegin;
  if (step == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(step <= MAXSTEPS, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "At most %d steps", MAXSTEPS);
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetIterationNumber(snes, &r->its[step - 1]));
  PetscCall(SNESGetLinearSolveIterations(snes, &r->lits[step - 1]));
  r->nsteps = step;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetKSP(KSP ksp, PetscReal rtol)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, rtol, 1e-50, PETSC_CURRENT, 2000));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SNES: a Newton solve from u = 0; TS: -steps backward Euler steps of 0.05 from u = 0; KSP: KSPSolve(ksp, NULL, NULL) */
static PetscErrorCode Solve(DM dm, Solver sv, Run *r)
{
  SNES snes = NULL;
  KSP  ksp;
  TS   ts = NULL;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  if (sv == SOLVER_KSP) {
    KSPConvergedReason reason;
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetDM(ksp, dm));
    PetscCall(SetKSP(ksp, 1e-10));
    PetscCall(KSPSetFromOptions(ksp));
    PetscCall(KSPSolve(ksp, NULL, NULL));
    PetscCall(KSPGetConvergedReason(ksp, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "KSP did not converge (%s)", KSPConvergedReasons[reason]);
    PetscCall(KSPGetIterationNumber(ksp, &r->lits[0]));
    r->nsteps = 1;
    PetscCall(KSPGetSolution(ksp, &r->u));
    PetscCall(KSPGetRhs(ksp, &r->b));
    PetscCall(KSPGetOperators(ksp, &r->A, NULL));
    PetscCall(PetscObjectReference((PetscObject)r->u));
    PetscCall(PetscObjectReference((PetscObject)r->b));
    PetscCall(PetscObjectReference((PetscObject)r->A));
    PetscCall(KSPDestroy(&ksp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DMCreateGlobalVector(dm, &r->u));
  PetscCall(VecSet(r->u, 0.0));
  if (sv == SOLVER_TS) {
    PetscInt steps = 4;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
    PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
    PetscCall(TSSetDM(ts, dm));
    PetscCall(TSSetType(ts, TSBEULER));
    PetscCall(TSSetTimeStep(ts, 0.05));
    PetscCall(TSSetMaxSteps(ts, steps));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
    PetscCall(TSMonitorSet(ts, StepMonitor, r, NULL));
    PetscCall(TSGetSNES(ts, &snes));
  } else {
    PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
    PetscCall(SNESSetDM(snes, dm));
  }
  PetscCall(SNESSetTolerances(snes, PETSC_CURRENT, 1e-10, PETSC_CURRENT, 30, PETSC_CURRENT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(SetKSP(ksp, 1e-13));
  if (ts) {
    TSConvergedReason reason;
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSSolve(ts, r->u));
    PetscCall(TSGetConvergedReason(ts, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "TS did not converge (%s)", TSConvergedReasons[reason]);
    PetscCall(TSDestroy(&ts));
  } else {
    SNESConvergedReason reason;
    PetscCall(SNESSetFromOptions(snes));
    PetscCall(SNESSolve(snes, NULL, r->u));
    PetscCall(SNESGetIterationNumber(snes, &r->its[0]));
    PetscCall(SNESGetLinearSolveIterations(snes, &r->lits[0]));
    r->nsteps = 1;
    PetscCall(SNESGetConvergedReason(snes, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "Newton did not converge (%s)", SNESConvergedReasons[reason]);
    PetscCall(SNESDestroy(&snes));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The hook's solve against PETSc's: iteration counts (TS: at every step), solution; KSP: the operator entry-wise and the
   right-hand side too */
static PetscErrorCode CompareRuns(DM dmw, Solver sv, const Run *rw, const Run *rp, const char *what)
{
  PetscReal e;
  char      its[256] = "", *s = its;
  size_t    len;

  PetscFunctionBegin;
  PetscCheck(rw->nsteps == rp->nsteps, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " steps, PETSc's path %" PetscInt_FMT, what, rw->nsteps, rp->nsteps);
  for (PetscInt k = 0; k < rw->nsteps; k++) {
    PetscCall(PetscStrlen(its, &len));
    s = its + len;
    if (sv == SOLVER_KSP) PetscCall(PetscSNPrintf(s, sizeof(its) - len, "%" PetscInt_FMT " GMRES (PETSc DMKSP: %" PetscInt_FMT ")", rw->lits[k], rp->lits[k]));
    else PetscCall(PetscSNPrintf(s, sizeof(its) - len, "%s%" PetscInt_FMT "/%" PetscInt_FMT, k ? ", " : "", rw->its[k], rw->lits[k]));
    if (rw->lits[k] != rp->lits[k] && rw->its[k] == rp->its[k] && PetscAbsInt(rw->lits[k] - rp->lits[k]) <= litslack)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: step %" PetscInt_FMT ": %" PetscInt_FMT " linear iterations against PETSc's %" PetscInt_FMT " (within -linear_its_slack %" PetscInt_FMT ")\n", what, k, rw->lits[k], rp->lits[k], litslack));
    else
      PetscCheck(rw->its[k] == rp->its[k] && rw->lits[k] == rp->lits[k], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: step %" PetscInt_FMT ": %" PetscInt_FMT " Newton / %" PetscInt_FMT " linear iterations, PETSc's path %" PetscInt_FMT " / %" PetscInt_FMT, what, k, rw->its[k], rw->lits[k], rp->its[k], rp->lits[k]);
  }
  PetscCall(RelDiff(rw->u, rp->u, &e));
  if (sv == SOLVER_KSP) {
    PetscReal ea, eb;
    PetscInt  nj, nr;
    PetscCall(TestEntryDifference(rw->A, rp->A, &ea));
    PetscCall(RelDiff(rw->b, rp->b, &eb));
    PetscCall(DMPlexWarpGetPointwiseCount(dmw, &nj, &nr));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: operator (%s) max entry diff. %.1e, rhs rel. diff. %.1e, %s, solutions differ by %.1e (pointwise kernels: %" PetscInt_FMT " operator, %" PetscInt_FMT " rhs)\n", what, ((PetscObject)rw->A)->type_name, (double)ea, (double)eb, its, (double)e, nj, nr));
    PetscCheck(ea < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the operator differs from PETSc's: max entry difference %g", what, (double)ea);
    PetscCheck(eb < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the right-hand side differs from PETSc's: relative difference %g", what, (double)eb);
    PetscCheck(nj == 1 && nr == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " operators and %" PetscInt_FMT " right-hand sides by the pointwise kernels, expected 1 and 1", what, nj, nr);
    PetscCall(CheckDevice(dmw, rw->A, rw->b, what));
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: Newton/GMRES iterations %s%s (the same as PETSc's aij path), solutions differ by %.1e\n", what, sv == SOLVER_TS ? "per step " : "", its, (double)e));
  }
  PetscCheck(e < 1e-8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the solutions differ by %g", what, (double)e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the registration refuses: a PetscDS whose function differs from the compiled one; a registration after the hook */
static PetscErrorCode Refusals(void)
{
  DM dm;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Refusals:\n"));
  EXPECT_ERROR(CreateDM(PROB_NONLINEAR, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_TRUE, &dm), "a PetscDS g3 other than the compiled one");
  PetscCall(DMDestroy(&dm));
  PetscCall(CreateDM(PROB_LINEAR, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm));
  EXPECT_ERROR(DMPlexWarpSetPointwise(dm, &pw_linear), "DMPlexWarpSetPointwise() after the hook");
  PetscCall(DMDestroy(&dm));
  /* several fields: a block's g3 other than the compiled one; one-field kernels on two fields; two-field kernels on one */
  EXPECT_ERROR(CreateDM(PROB_FIELDS, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_TRUE, &dm), "a g3 of the block (0, 0) other than the compiled one");
  PetscCall(DMDestroy(&dm));
  pwother = &pw_nonlinear;
  EXPECT_ERROR(CreateDM(PROB_FIELDS, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), "one-field kernels on a DM of two fields");
  PetscCall(DMDestroy(&dm));
  pwother = &pw_fields;
  EXPECT_ERROR(CreateDM(PROB_NONLINEAR, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), "two-field kernels on a DM of one field");
  PetscCall(DMDestroy(&dm));
  pwother = NULL;
  { /* several fields with natural boundaries: kernels without boundary terms; a compiled boundary g0 of the block (0, 1)
       the PetscDS lacks */
    const BdKind save = bdkind;
    bdkind            = BD_ROBIN;
    bdwrong           = 1;
    EXPECT_ERROR(CreateDM(PROB_FIELDS, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), "boundary terms of two fields without compiled ones");
    PetscCall(DMDestroy(&dm));
    bdwrong = 3;
    EXPECT_ERROR(CreateDM(PROB_FIELDS, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), "g0_bd of the block (0, 1) compiled, none in the PetscDS");
    PetscCall(DMDestroy(&dm));
    bdkind  = save;
    bdwrong = 0;
  }
  explicitw = PETSC_TRUE; /* PETSc's residual skips an explicit field, the kernels would not */
  EXPECT_ERROR(CreateDM(PROB_FIELDS, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), "an explicit (IMEX) field");
  PetscCall(DMDestroy(&dm));
  explicitw = PETSC_FALSE;
  { /* natural boundaries: a boundary f0 without a compiled f0_bd; a boundary g0 without a compiled g0_bd; a compiled g0_bd
       the PetscDS lacks; a boundary g1; a boundary f1 */
    const BdKind      save    = bdkind;
    const char *const what[5] = {"a natural boundary's f0 without f0_bd compiled", "a boundary g0 without g0_bd compiled", "g0_bd compiled, none in the PetscDS", "a boundary g1", "a boundary f1"};
    for (PetscInt w = 1; w <= 5; w++) {
      bdkind  = w == 1 ? BD_NONCONST : BD_ROBIN;
      bdwrong = w;
      EXPECT_ERROR(CreateDM(PROB_LINEAR, SOLVER_SNES, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm), what[w - 1]);
      PetscCall(DMDestroy(&dm));
    }
    bdkind  = save;
    bdwrong = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscBool   skip, device, flg, refusals = PETSC_FALSE;
  char       *types[8], *plist[5];
  PetscInt    nt = 8, np = 5, degrees[4] = {1, 2}, nd = 4, isv = SOLVER_SNES;
  Solver      sv;
  PetscRandom rnd;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscWarpDeviceAvailable(&device));
  {
    PetscBool asmdev = PETSC_TRUE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_warp_assembly_device", &asmdev, NULL));
    devrun = (PetscBool)(device && asmdev && pw_nonlinear.jacobian_device);
  }
  PetscCall(PetscOptionsGetEList(NULL, NULL, "-solver", Solvers, 3, &isv, NULL));
  sv = (Solver)isv;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-bc_time", &bct, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-linear_its_slack", &litslack, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bd_flip", &bdflip, NULL));
  {
    PetscInt ider = DERIVE_NONE;
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-derive", Derives, 4, &ider, NULL));
    derive = (Derive)ider;
  }
  {
    PetscInt ibd = BD_NONE;
    PetscCall(PetscOptionsGetEList(NULL, NULL, "-bd", BdKinds, 5, &ibd, NULL));
    bdkind = (BdKind)ibd;
  }
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-degrees", degrees, &nd, &flg));
  if (!flg) nd = 2;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", plist, &np, &flg));
  if (!flg) { /* the problems of the solver */
    const Problem def[3][3] = {
      {PROB_NONLINEAR, PROB_LINEAR, PROB_VECTOR},
      {PROB_HEAT,      PROB_VHEAT,  PROB_HEAT  },
      {PROB_LINEAR,    PROB_LINEAR, PROB_LINEAR}
    };
    np = sv == SOLVER_SNES ? 3 : sv == SOLVER_TS ? 2 : 1;
    for (PetscInt i = 0; i < np; i++) PetscCall(PetscStrallocpy(Problems[def[sv][i]], &plist[i]));
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-refusals", &refusals, NULL));
  PetscCall(TestGetTypes(device, types, &nt));
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Pointwise kernels %s device launchers, the %s hook\n", pw_nonlinear.jacobian_device ? "with" : "without (host compiler)", Solvers[sv]));
  for (PetscInt ip = 0; ip < np; ip++) {
    Problem p = PROB_NONLINEAR;
    for (int k = 0; k < NPROBLEMS; k++) {
      PetscBool same;
      PetscCall(PetscStrcmp(plist[ip], Problems[k], &same));
      if (same) p = (Problem)k;
    }
    PetscCheck(sv != SOLVER_TS || p == PROB_HEAT || p == PROB_VHEAT || p == PROB_TFIELDS, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-solver ts takes the problems heat, vheat and tfields (f0 with u_t)");
    PetscCheck(sv == SOLVER_TS || (p != PROB_HEAT && p != PROB_VHEAT && p != PROB_TFIELDS), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "The problems heat, vheat and tfields need -solver ts");
    PetscCheck(bdkind == BD_NONE || p != PROB_TFIELDS, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-bd takes the fields problem (SNES) of the problems of two fields");
    PetscCheck(bdkind == BD_NONE || bdkind == BD_ROBIN || p != PROB_FIELDS, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-problems fields takes -bd robin (its own boundary terms on both fields)");
    PetscCheck(sv != SOLVER_KSP || p == PROB_LINEAR, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-solver ksp takes the linear problem");
    for (PetscInt id = 0; id < nd; id++) {
      DM  dmp;
      Run rp;

      PetscCall(CreateDM(p, sv, degrees[id], PETSC_FALSE, MATAIJ, PETSC_FALSE, &dmp));
      PetscCall(Solve(dmp, sv, &rp));
      for (PetscInt it = 0; it < nt; it++) {
        DM   dmw;
        Run  rw;
        char what[128];

        PetscCall(PetscSNPrintf(what, sizeof(what), "%s P%" PetscInt_FMT " %s", Problems[p], degrees[id], types[it]));
        PetscCall(CreateDM(p, sv, degrees[id], PETSC_TRUE, types[it], PETSC_FALSE, &dmw));
        if (sv != SOLVER_KSP) { /* a fresh DM for the solve: a TS leaves its address in the DM's DMSNES (TSSetUp() sets
                                   SNESTSFormFunction() with it only when none is set), a later TS would use the freed one */
          PetscCall(Compare(dmw, dmp, sv, rnd, what));
          PetscCall(DMDestroy(&dmw));
          PetscCall(CreateDM(p, sv, degrees[id], PETSC_TRUE, types[it], PETSC_FALSE, &dmw));
        }
        PetscCall(Solve(dmw, sv, &rw));
        PetscCall(CompareRuns(dmw, sv, &rw, &rp, what));
        PetscCall(RunDestroy(&rw));
        PetscCall(DMDestroy(&dmw));
      }
      PetscCall(RunDestroy(&rp));
      PetscCall(DMDestroy(&dmp));
    }
  }
  if (refusals) PetscCall(Refusals());
  for (PetscInt i = 0; i < nt; i++) PetscCall(PetscFree(types[i]));
  for (PetscInt i = 0; i < np; i++) PetscCall(PetscFree(plist[i]));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(PetscFinalize());
  return 0;
}
