/*
  petscwarp/pointwise.cuh - element kernels of user pointwise functions, compiled in the user's own file

  A user writes each pointwise function of the PetscDS once, as a __host__ __device__ function (PETSCWARP_HD), with
  PETSc's exact signature (PetscPointFn for f0, f1; PetscPointJacFn for g0, g1, g2, g3), passes it to
  PetscDSSetResidual() / PetscDSSetJacobian() as usual, and to PETSCWARP_POINTWISE() in the same file:

    #include <petscwarp/pointwise.cuh>

    static PETSCWARP_HD void f1_u(PetscInt dim, ..., PetscScalar f1[]) { ... }
    static PETSCWARP_HD void g3_uu(PetscInt dim, ..., PetscScalar g3[]) { ... }
    PETSCWARP_POINTWISE(mypw, f0_u, f1_u, g0_uu, nullptr, g2_uu, g3_uu);   (absent functions: nullptr, NULL or 0)

    PetscCall(PetscDSSetResidual(ds, 0, f0_u, f1_u));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, g0_uu, NULL, g2_uu, g3_uu));
    PetscCall(DMPlexWarpSetPointwise(dm, &mypw));
    PetscCall(DMPlexWarpSetSNESLocalFEM(dm));

  PETSCWARP_POINTWISE(name, f0, f1, g0, g1, g2, g3) defines `extern "C" const PetscWarpPointwise name`: host launchers
  of the element kernels (the host twins) and, when the file is compiled by nvcc, device launchers, all instantiated
  from the templates below in this translation unit (each function is inlined into the kernels through a functor: no
  relocatable device code, no device function pointers). A file compiled by a host C++ compiler gets the host twins only.
  C++14 or later (nvcc's default, C++17, is fine).

  The kernels (PetscFEIntegrateJacobian_Basic() / PetscFEIntegrateResidual_Basic() of PETSc, per cell):
  - stage 0: a thread block takes ne cells and gathers their vertex coordinates and element states into shared memory;
  - stage 1: threads over (cell, quadrature point) compute the geometry (PetscWarpGeometry(): Jinv, detJ), the point
    x, the state u, its physical gradient u_x and u_t, call the pointwise functions into shared memory (zeroed before, scaled
    by w_q detJ after), and keep Jinv there;
  - stage 2: threads over the entries (cell, i, j) of the element matrices (the entries (cell, i) of the element vectors)
    sum their terms over the points, PETSc's PetscFEUpdateElementMat_Internal() (PetscFEUpdateElementVec_Internal()) for
    one field of nc components, interlaced (element dof i = a*nc + c):
      E[i][j] = sum_q B_qa B_qb g0[c*nc+e] + B_qa g1[(c*nc+e)*dim+d] dB_qb[d] + dB_qa[d] g2[(c*nc+e)*dim+d] B_qb
                      + dB_qa[d] g3[((c*nc+e)*dim+d)*dim+d'] dB_qb[d']          (j = b*nc + e, dB the physical gradients)
      r[i]    = sum_q B_qa f0[c] + dB_qa[d] f1[c*dim+d]
    and write them to PetscWarpPointwiseData.out (coalesced over j); petscwarp reduces them into the matrix
    (PetscWarpAsmAssembleElementMatrices()) and the local residual (an atomic scatter through the element->local map).
  Natural boundaries (PETSCWARP_POINTWISE_BD(), PETSCWARP_POINTWISE_BD_JACOBIAN(), PETSCWARP_POINTWISE_BD_ALL();
  PetscWarpPointwiseBdData): f0_bd and f1_bd by one thread per face, atomics into the local residual; g0_bd ... g3_bd by
  one thread per face point (w g*_bd into a workspace), then
  one thread per entry of the element matrices of the cells with boundary faces, each adding its faces' terms in a fixed
  order into the cell's element matrix before the reduction (no atomics: the host twin's sums).
  Performance note: correctness first. The physical gradients of the basis are recomputed from Jinv (dim^2 flops) for
  every entry and point rather than staged, the reference tabulation is read from global memory (through the cache),
  and every entry reads all the staged point data of its cell; for P2/Q2 elements with several components staging
  the gradients per (cell, q, a) and tiling the entries (several per thread, as src/kernels/warpasm_elem.h PwaTile()
  does for the built-in physics) would cut the work several-fold.
*/
#pragma once

#include <petscwarp.h>
#include <petscwarp/elemgeometry.h>
#include <type_traits>
#include <vector>
#include <utility>
#include <stddef.h>
#if defined(__CUDACC__)
  #include <cuda_runtime.h>
#endif

#if defined(PETSC_USE_COMPLEX)
  #error "petscwarp/pointwise.cuh needs real scalars: PETSc is configured with complex ones"
#endif
#if !defined(PETSC_USE_REAL_DOUBLE)
  #error "petscwarp/pointwise.cuh needs double precision: the element kernels stage points and geometry in double"
#endif

/* Pointwise functions the host (PetscDS) and the device (petscwarp's kernels) both call: write them with
   PETSCWARP_HD (__host__ __device__ under nvcc, defined by petscwarp/elemgeometry.h) */

/* Most components of the field the kernels are compiled for (u, u_x, u_t of a point live in registers) */
#define PETSCWARP_PW_MAXNC 8
/* Most face quadrature points of the boundary kernel (a face's f0_bd and f1_bd values are kept per thread) */
#define PETSCWARP_PW_MAXFQ 32

namespace petscwarp
{
namespace pw
{
/* Whether a PETSCWARP_POINTWISE() argument is a function (present) or nullptr / NULL / 0 (absent) */
template <class F>
constexpr bool present_v = !std::is_null_pointer<typename std::decay<F>::type>::value && !std::is_integral<typename std::decay<F>::type>::value;

template <class F, class... A, typename std::enable_if<present_v<F>, int>::type = 0>
PETSCWARP_HD inline void call(F &&f, A... a)
{
  f(a...);
}
template <class F, class... A, typename std::enable_if<!present_v<F>, int>::type = 0>
PETSCWARP_HD inline void call(F &&, A...)
{
}

/* The host address of a pointwise function (NULL when absent), to check the PetscDS against */
template <class F, typename std::enable_if<present_v<F> && std::is_pointer<typename std::decay<F>::type>::value, int>::type = 0>
inline void (*hostptr(F &&f))(void)
{
  return reinterpret_cast<void (*)(void)>(f); /* &f1_u or a PetscPointFn * variable: its value is the function's address */
}
template <class F, typename std::enable_if<present_v<F> && !std::is_pointer<typename std::decay<F>::type>::value, int>::type = 0>
inline void (*hostptr(F &&f))(void)
{
  return reinterpret_cast<void (*)(void)>(&f); /* a function name: f is a reference to the function */
}
template <class F, typename std::enable_if<!present_v<F>, int>::type = 0>
inline void (*hostptr(F &&))(void)
{
  return nullptr;
}

/* Compile-time loop: op.template step<0>(), ..., op.template step<N-1>() */
template <int N>
struct Unroll {
  template <class Op>
  PETSCWARP_HD static void run(Op &op)
  {
    Unroll<N - 1>::run(op);
    op.template step<N - 1>();
  }
};
template <>
struct Unroll<0> {
  template <class Op>
  PETSCWARP_HD static void run(Op &)
  {
  }
};

/*
  A set of fields FS (the kernels' template argument): FS::NF fields, FS::Res<f> holding the functors F0, F1 of field f's
  residual and FS::Jac<f, g> the functors G0, G1, G2, G3 of the Jacobian block (f, g) (each with `present`); FS::BdRes<f>
  (F0 = f0_bd, F1 = f1_bd) and FS::BdJac<f, g> (G0 ... G3 = g0_bd ... g3_bd) the same for the natural boundaries. One field
  (PETSCWARP_POINTWISE()): Single<Fns>; several (PETSCWARP_POINTWISE_FIELDS_BEGIN()): the macros' own.
*/
template <class Fns>
struct Single {
  static constexpr int NF = 1;
  template <int F>
  struct Res {
    using F0 = typename Fns::F0;
    using F1 = typename Fns::F1;
  };
  template <int F, int G>
  struct Jac {
    using G0 = typename Fns::G0;
    using G1 = typename Fns::G1;
    using G2 = typename Fns::G2;
    using G3 = typename Fns::G3;
  };
  template <int F>
  struct BdRes {
    using F0 = typename Fns::FBD;
    using F1 = typename Fns::FBD1;
  };
  template <int F, int G>
  struct BdJac {
    using G0 = typename Fns::GBD;
    using G1 = typename Fns::GBD1;
    using G2 = typename Fns::GBD2;
    using G3 = typename Fns::GBD3;
  };
};

/* The present terms as bits: f0 1, f1 2 (a residual); g0 1, g1 2, g2 4, g3 8 (a Jacobian block) */
template <class R>
PETSCWARP_HD constexpr unsigned ResBits()
{
  return (R::F0::present ? 1u : 0u) | (R::F1::present ? 2u : 0u);
}
template <class J>
PETSCWARP_HD constexpr unsigned JacBits()
{
  return (J::G0::present ? 1u : 0u) | (J::G1::present ? 2u : 0u) | (J::G2::present ? 4u : 0u) | (J::G3::present ? 8u : 0u);
}
/* Field F's residual functors and the block (F, G)'s Jacobian functors: of the cells (BD false: FS::Res, FS::Jac) or of
   the natural boundaries (BD true: FS::BdRes, FS::BdJac) */
template <class FS, bool BD, int F>
using ResOf = typename std::conditional<BD, typename FS::template BdRes<F>, typename FS::template Res<F>>::type;
template <class FS, bool BD, int F, int G>
using JacOf = typename std::conditional<BD, typename FS::template BdJac<F, G>, typename FS::template Jac<F, G>>::type;
template <class FS, bool BD, int... P>
PETSCWARP_HD inline unsigned ResMaskOf(int f, std::integer_sequence<int, P...>)
{
  const unsigned m[] = {ResBits<ResOf<FS, BD, P>>()...};
  return m[f];
}
template <class FS, bool BD, int... P>
PETSCWARP_HD inline unsigned JacMaskOf(int p, std::integer_sequence<int, P...>)
{
  const unsigned m[] = {JacBits<JacOf<FS, BD, P / FS::NF, P % FS::NF>>()...};
  return m[p];
}
/* The present terms of field f's residual; of the Jacobian block p = f*NF + g (BD: their boundary terms) */
template <class FS, bool BD = false>
PETSCWARP_HD inline unsigned ResMask(int f)
{
  return ResMaskOf<FS, BD>(f, std::make_integer_sequence<int, FS::NF>{});
}
template <class FS, bool BD = false>
PETSCWARP_HD inline unsigned JacMask(int p)
{
  return JacMaskOf<FS, BD>(p, std::make_integer_sequence<int, FS::NF * FS::NF>{});
}
/* Doubles of the present terms m of a block of nn component pairs (or of a residual of nn components) */
PETSCWARP_HD inline int TermDoubles(unsigned m, int nn, int dim)
{
  return (m & 1u ? nn : 0) + (m & 2u ? nn * dim : 0) + (m & 4u ? nn * dim : 0) + (m & 8u ? nn * dim * dim : 0);
}

/* The element's fields (PETSc's order: field after field, field f's dof a*nc_f + c at eo[f] + a*nc_f + c) and their
   components in the point state (u[uo[f] + c], u_x[uo[f]*dim + c*dim + d]: PetscDS's uOff, uOff_x) */
struct Layout {
  int nf, nel, nc;
  int eo[PETSCWARP_PW_MAXNF + 1], uo[PETSCWARP_PW_MAXNF + 1];
};
template <class DATA>
PETSCWARP_HD inline Layout FieldLayout(const DATA &d)
{
  Layout L;
  L.nf    = d.nf;
  L.eo[0] = L.uo[0] = 0;
  for (int f = 0; f < d.nf; f++) {
    L.eo[f + 1] = L.eo[f] + d.fnb[f] * d.fnc[f];
    L.uo[f + 1] = L.uo[f] + d.fnc[f];
  }
  L.nel = L.eo[d.nf];
  L.nc  = L.uo[d.nf];
  return L;
}
/* uOff, uOff_x of the PetscDS (PetscDSGetComponentOffsets(), PetscDSGetComponentDerivativeOffsets()) */
PETSCWARP_HD inline void Offsets(const Layout &L, int dim, PetscInt *uOff, PetscInt *uOff_x)
{
  for (int f = 0; f <= L.nf; f++) {
    uOff[f]   = L.uo[f];
    uOff_x[f] = L.uo[f] * dim;
  }
}
/* The field of element dof i */
PETSCWARP_HD inline int FieldOf(const Layout &L, int i)
{
  int f = 0;
  while (f + 1 < L.nf && i >= L.eo[f + 1]) f++;
  return f;
}

/* Doubles staged per (cell, point): Jinv, then per Jacobian block (f, g) in order its present g0, g1, g2, g3 (Jacobian),
   or per field its present f0, f1 (residual) */
template <class FS, bool JAC>
PETSCWARP_HD inline int PointDoubles(const PetscWarpPointwiseData &d)
{
  int n = d.dim * d.dim;
  if (JAC)
    for (int p = 0; p < FS::NF * FS::NF; p++) n += TermDoubles(JacMask<FS>(p), d.fnc[p / FS::NF] * d.fnc[p % FS::NF], d.dim);
  else
    for (int f = 0; f < FS::NF; f++) n += TermDoubles(ResMask<FS>(f), d.fnc[f], d.dim);
  return n;
}

/* Element dof i's value (and time derivative): from the cell's gathered values, or through the cell's local indices */
struct Gathered {
  const PetscScalar       *v;
  PETSCWARP_HD PetscScalar operator()(int i) const { return v[i]; }
};
struct Indexed {
  const PetscScalar       *v;
  const int               *l;
  PETSCWARP_HD PetscScalar operator()(int i) const { return v[l[i]]; }
};

/* The state at a point (PetscFEEvaluateFieldJets_Internal()): u, u_t (zero unless hast) and the gradient u_x from the
   basis values Bq and the reference derivatives Dq pushed forward by Jinv; val(i), tval(i) the element dof i's value and
   time derivative */
template <class V>
PETSCWARP_HD inline void PointState(int dim, int nb, int nc, const double *Bq, const double *Dq, const double *Jinv, V val, V tval, bool hast, PetscScalar *u, PetscScalar *ut, PetscScalar *ux)
{
  for (int c = 0; c < nc; c++) {
    u[c]  = 0.0;
    ut[c] = 0.0;
    for (int e = 0; e < dim; e++) ux[c * dim + e] = 0.0;
  }
  for (int b = 0; b < nb; b++) {
    double g[3];
    PetscWarpGradient(dim, Jinv, Dq + b * dim, g);
    for (int c = 0; c < nc; c++) {
      const PetscScalar v = val(b * nc + c);
      u[c] += Bq[b] * v;
      if (hast) ut[c] += Bq[b] * tval(b * nc + c);
      for (int e = 0; e < dim; e++) ux[c * dim + e] += g[e] * v;
    }
  }
}

/* The calls of stage 1 at a point: every present function of the Jacobian blocks (JacCalls, of the cells and of the
   boundary faces) or of the fields' residuals (ResCalls) in order, each into G + off (zeroed before), as
   PetscFEIntegrateJacobian_Basic() and PetscFEIntegrateResidual_Basic() call them (Nf fields, no auxiliary fields); off
   ends at the doubles written */
/* What the calls of a point share: the data, the PetscDS's offsets, the point's state and x, the output and its offset */
template <class DATA>
struct PointCallArgs {
  const DATA        *d;
  const PetscInt    *uOff, *uOff_x;
  const PetscScalar *u, *ut, *ux;
  const PetscReal   *x;
  PetscScalar       *G;
  int                off;
  /* set one by one (C++14: no aggregate initialisation of a derived struct) */
  PETSCWARP_HD void set(const DATA *d_, const PetscInt *uOff_, const PetscInt *uOff_x_, const PetscScalar *u_, const PetscScalar *ut_, const PetscScalar *ux_, const PetscReal *x_, PetscScalar *G_)
  {
    d      = d_;
    uOff   = uOff_;
    uOff_x = uOff_x_;
    u      = u_;
    ut     = ut_;
    ux     = ux_;
    x      = x_;
    G      = G_;
    off    = 0;
  }
};
/* The Jacobian blocks at a point: of a cell (BD false) every block, or of a face (BD true, with its outward normal nrm)
   the blocks (row, g) of its natural boundary's field row, as PetscFEIntegrateBdJacobian_Basic() calls them */
template <class FS, bool BD>
struct JacCalls : PointCallArgs<typename std::conditional<BD, PetscWarpPointwiseBdData, PetscWarpPointwiseData>::type> {
  const PetscReal *nrm = NULL;
  int              row = 0;
  template <class Fn>
  PETSCWARP_HD void call(Fn &fn, PetscScalar *g, std::false_type) const
  {
    fn((PetscInt)this->d->dim, FS::NF, 0, this->uOff, this->uOff_x, this->u, this->ut, this->ux, NULL, NULL, NULL, NULL, NULL, this->d->t, this->d->u_tShift, this->x, this->d->numConstants, this->d->constants, g);
  }
  template <class Fn>
  PETSCWARP_HD void call(Fn &fn, PetscScalar *g, std::true_type) const
  {
    fn((PetscInt)this->d->dim, FS::NF, 0, this->uOff, this->uOff_x, this->u, this->ut, this->ux, NULL, NULL, NULL, NULL, NULL, this->d->t, this->d->u_tShift, this->x, nrm, this->d->numConstants, this->d->constants, g);
  }
  template <int P>
  PETSCWARP_HD void step()
  {
    using J = JacOf<FS, BD, P / FS::NF, P % FS::NF>;
    const std::integral_constant<bool, BD> bd{};
    if (BD && P / FS::NF != row) return;
    const int    D = this->d->dim, nn = this->d->fnc[P / FS::NF] * this->d->fnc[P % FS::NF], n = TermDoubles(JacBits<J>(), nn, D);
    PetscScalar *g = this->G + this->off;
    for (int m = 0; m < n; m++) g[m] = 0.0;
    if (J::G0::present) {
      typename J::G0 fn;
      call(fn, g, bd);
      g += nn;
    }
    if (J::G1::present) {
      typename J::G1 fn;
      call(fn, g, bd);
      g += nn * D;
    }
    if (J::G2::present) {
      typename J::G2 fn;
      call(fn, g, bd);
      g += nn * D;
    }
    if (J::G3::present) {
      typename J::G3 fn;
      call(fn, g, bd);
    }
    this->off += n;
  }
};
template <class FS>
struct ResCalls : PointCallArgs<PetscWarpPointwiseData> {
  template <int F>
  PETSCWARP_HD void step()
  {
    using R           = typename FS::template Res<F>;
    const PetscInt D  = d->dim;
    const int      nc = d->fnc[F], n = TermDoubles(ResBits<R>(), nc, (int)D);
    PetscScalar   *g = G + off;
    for (int m = 0; m < n; m++) g[m] = 0.0;
    if (R::F0::present) {
      typename R::F0 fn;
      fn(D, FS::NF, 0, uOff, uOff_x, u, ut, ux, NULL, NULL, NULL, NULL, NULL, d->t, x, d->numConstants, d->constants, g);
      g += nc;
    }
    if (R::F1::present) {
      typename R::F1 fn;
      fn(D, FS::NF, 0, uOff, uOff_x, u, ut, ux, NULL, NULL, NULL, NULL, NULL, d->t, x, d->numConstants, d->constants, g);
    }
    off += n;
  }
};

/* Stage 1 at one (cell, point q): Xc the cell's vertex coordinates, ue (ute) its element state (time derivative, or
   NULL); writes the point's staged data S[PointDoubles()]: Jinv, then the functions' values times w_q detJ */
template <class FS, bool JAC>
PETSCWARP_HD inline void StagePoint(const PetscWarpPointwiseData &d, const double *Xc, const PetscScalar *ue, const PetscScalar *ute, int q, double *S)
{
  const int     dim = d.dim, ncv = d.ncv;
  const Layout  L   = FieldLayout(d);
  const double *Bcq = d.Bc + q * ncv;
  PetscInt      uOff[PETSCWARP_PW_MAXNF + 1], uOff_x[PETSCWARP_PW_MAXNF + 1];
  double        Jinv[9], wdj, x[3] = {0.0, 0.0, 0.0};
  PetscScalar   u[PETSCWARP_PW_MAXNC], ut[PETSCWARP_PW_MAXNC], ux[PETSCWARP_PW_MAXNC * 3];
  int           n;

  wdj = d.w[q] * PetscWarpGeometry(dim, ncv, Xc, d.Dc + q * ncv * dim, Jinv);
  for (int m = 0; m < dim * dim; m++) S[m] = Jinv[m];
  for (int k = 0; k < ncv; k++)
    for (int e = 0; e < dim; e++) x[e] += Xc[k * dim + e] * Bcq[k];
  Offsets(L, dim, uOff, uOff_x);
  for (int f = 0; f < L.nf; f++) {
    const int nb = d.fnb[f], o = L.uo[f];
    PointState(dim, nb, d.fnc[f], d.fB[f] + q * nb, d.fD[f] + q * nb * dim, Jinv, Gathered{ue + L.eo[f]}, Gathered{ute ? ute + L.eo[f] : ute}, ute != NULL, u + o, ut + o, ux + o * dim);
  }
  if (JAC) {
    JacCalls<FS, false> op;
    op.set(&d, uOff, uOff_x, u, ute ? ut : NULL, ux, x, S + dim * dim);
    Unroll<FS::NF * FS::NF>::run(op);
    n = op.off;
  } else {
    ResCalls<FS> op;
    op.set(&d, uOff, uOff_x, u, ute ? ut : NULL, ux, x, S + dim * dim);
    Unroll<FS::NF>::run(op);
    n = op.off;
  }
  for (int m = 0; m < n; m++) S[dim * dim + m] *= wdj;
}

/* One point's term of an element matrix entry from the present g0, g1, g2, g3 (stored in that order in G, times the
   weight, each of nn component pairs; entry of the pair ce), the basis values Ba, Bb and the physical gradients ga, gb
   of the row and column basis functions (PetscFEUpdateElementMat_Internal()); shared by the cell and the boundary
   kernels */
template <bool P0, bool P1, bool P2, bool P3>
PETSCWARP_HD inline double PointTerm(int dim, int nn, int ce, const PetscScalar *G, double Ba, double Bb, const double *ga, const double *gb)
{
  const int o1 = P0 ? nn : 0, o2 = o1 + (P1 ? nn * dim : 0), o3 = o2 + (P2 ? nn * dim : 0);
  double    s = 0.0;
  if (P0) s += Ba * G[ce] * Bb;
  if (P1)
    for (int df = 0; df < dim; df++) s += Ba * G[o1 + ce * dim + df] * gb[df];
  if (P2)
    for (int df = 0; df < dim; df++) s += ga[df] * G[o2 + ce * dim + df] * Bb;
  if (P3)
    for (int df = 0; df < dim; df++)
      for (int dg = 0; dg < dim; dg++) s += ga[df] * G[o3 + (ce * dim + df) * dim + dg] * gb[dg];
  return s;
}

/* PointTerm() for the present terms m (JacBits()) known at run time */
PETSCWARP_HD inline double PointTermMask(unsigned m, int dim, int nn, int ce, const PetscScalar *G, double Ba, double Bb, const double *ga, const double *gb)
{
  switch (m) {
#define PETSCWARP_PW_TERM(k) \
  case k: \
    return PointTerm<((k)&1) != 0, ((k)&2) != 0, ((k)&4) != 0, ((k)&8) != 0>(dim, nn, ce, G, Ba, Bb, ga, gb);
    PETSCWARP_PW_TERM(1)
    PETSCWARP_PW_TERM(2)
    PETSCWARP_PW_TERM(3)
    PETSCWARP_PW_TERM(4)
    PETSCWARP_PW_TERM(5)
    PETSCWARP_PW_TERM(6)
    PETSCWARP_PW_TERM(7)
    PETSCWARP_PW_TERM(8)
    PETSCWARP_PW_TERM(9)
    PETSCWARP_PW_TERM(10)
    PETSCWARP_PW_TERM(11)
    PETSCWARP_PW_TERM(12)
    PETSCWARP_PW_TERM(13)
    PETSCWARP_PW_TERM(14)
    PETSCWARP_PW_TERM(15)
#undef PETSCWARP_PW_TERM
  default:
    return 0.0;
  }
}

/* Stage 2: entry (i, j) of a cell's element matrix from its staged points S[q*ps ...]: row i = dof a*nc_f + c of field
   f, column j = dof b*nc_g + e of field g, the terms of the block (f, g) */
template <class FS>
PETSCWARP_HD inline double JacobianEntry(const PetscWarpPointwiseData &d, const double *S, int ps, int i, int j)
{
  const Layout   L   = FieldLayout(d);
  const int      dim = d.dim, f = FieldOf(L, i), g = FieldOf(L, j), ncf = d.fnc[f], ncg = d.fnc[g], nbf = d.fnb[f], nbg = d.fnb[g];
  const int      a = (i - L.eo[f]) / ncf, c = i - L.eo[f] - a * ncf, b = (j - L.eo[g]) / ncg, e = j - L.eo[g] - b * ncg;
  const unsigned m   = JacMask<FS>(f * FS::NF + g);
  int            off = dim * dim;
  double         s   = 0.0;

  if (!m) return s;
  for (int p = 0; p < f * FS::NF + g; p++) off += TermDoubles(JacMask<FS>(p), d.fnc[p / FS::NF] * d.fnc[p % FS::NF], dim);
  for (int q = 0; q < d.nq; q++) {
    const double *Sq = S + q * ps, Ba = d.fB[f][q * nbf + a], Bb = d.fB[g][q * nbg + b];
    double        ga[3] = {0.0, 0.0, 0.0}, gb[3] = {0.0, 0.0, 0.0};
    if (m & 12u) PetscWarpGradient(dim, Sq, d.fD[f] + (q * nbf + a) * dim, ga);
    if (m & 10u) PetscWarpGradient(dim, Sq, d.fD[g] + (q * nbg + b) * dim, gb);
    s += PointTermMask(m, dim, ncf * ncg, c * ncg + e, Sq + off, Ba, Bb, ga, gb);
  }
  return s;
}

/* Stage 2: entry i of a cell's element vector from its staged points: dof a*nc_f + c of field f */
template <class FS>
PETSCWARP_HD inline double ResidualEntry(const PetscWarpPointwiseData &d, const double *S, int ps, int i)
{
  const Layout   L   = FieldLayout(d);
  const int      dim = d.dim, f = FieldOf(L, i), nc = d.fnc[f], nb = d.fnb[f], a = (i - L.eo[f]) / nc, c = i - L.eo[f] - a * nc;
  const unsigned m   = ResMask<FS>(f);
  const int      o1  = m & 1u ? nc : 0;
  int            off = dim * dim;
  double         s   = 0.0;

  for (int h = 0; h < f; h++) off += TermDoubles(ResMask<FS>(h), d.fnc[h], dim);
  for (int q = 0; q < d.nq; q++) {
    const double *Sq = S + q * ps, *G = Sq + off;
    if (m & 1u) s += d.fB[f][q * nb + a] * G[c];
    if (m & 2u) {
      double ga[3];
      PetscWarpGradient(dim, Sq, d.fD[f] + (q * nb + a) * dim, ga);
      for (int df = 0; df < dim; df++) s += ga[df] * G[o1 + c * dim + df];
    }
  }
  return s;
}

/* Sizes the kernels support: 0, else 2 (PETSCWARP_ASM_ERR_ARG) */
template <class FS>
inline int CheckData(const PetscWarpPointwiseData *d)
{
  int nc = 0;
  if (!d || (d->dim != 2 && d->dim != 3) || d->nf != FS::NF || d->nq < 1 || d->ncv < 1 || d->ncv > 8 || d->ncells < 0) return 2;
  for (int f = 0; f < d->nf; f++) {
    if (d->fnb[f] < 1 || d->fnc[f] < 1 || (d->ncells && (!d->fB[f] || !d->fD[f]))) return 2;
    nc += d->fnc[f];
  }
  if (nc > PETSCWARP_PW_MAXNC) return 2;
  if (d->ncells && (!d->w || !d->Bc || !d->Dc || !d->X || !d->cv || !d->l2d || !d->u || !d->out)) return 2;
  return 0;
}

/* The host twin: the same stages, cell after cell */
template <class FS, bool JAC>
inline int HostLoop(const PetscWarpPointwiseData *d)
{
  int err = CheckData<FS>(d);
  if (err) return err;
  const int           nel = FieldLayout(*d).nel, nx = d->ncv * d->dim, ps = PointDoubles<FS, JAC>(*d);
  std::vector<double> Xc(nx), ue(nel), ute(nel), S((size_t)d->nq * ps);
  for (int cell = 0; cell < d->ncells; cell++) {
    const int *l = d->l2d + (size_t)cell * nel;
    for (int k = 0; k < d->ncv; k++)
      for (int e = 0; e < d->dim; e++) Xc[k * d->dim + e] = d->X[(size_t)d->cv[(size_t)cell * d->ncv + k] * d->dim + e];
    for (int i = 0; i < nel; i++) {
      ue[i] = d->u[l[i]];
      if (d->u_t) ute[i] = d->u_t[l[i]];
    }
    for (int q = 0; q < d->nq; q++) StagePoint<FS, JAC>(*d, Xc.data(), ue.data(), d->u_t ? ute.data() : NULL, q, S.data() + (size_t)q * ps);
    if (JAC)
      for (int i = 0; i < nel; i++)
        for (int j = 0; j < nel; j++) d->out[((size_t)cell * nel + i) * nel + j] = JacobianEntry<FS>(*d, S.data(), ps, i, j);
    else
      for (int i = 0; i < nel; i++) d->out[(size_t)cell * nel + i] = ResidualEntry<FS>(*d, S.data(), ps, i);
  }
  return 0;
}

template <class FS>
int JacobianHost(const PetscWarpPointwiseData *d)
{
  return HostLoop<FS, true>(d);
}
template <class FS>
int ResidualHost(const PetscWarpPointwiseData *d)
{
  return HostLoop<FS, false>(d);
}

/* The field of face f: that of its natural boundary (one field: 0) */
PETSCWARP_HD inline int BdField(const PetscWarpPointwiseBdData &d, int f)
{
  return d.ffield ? d.ffield[f] : 0;
}

/* The state at the face point k = f*nq + q of a face of the cell whose element dofs are l: every field's u, u_t (when
   d.u_t) and gradient u_x from the cell's basis at the tabulated point tab[k], pushed forward by the cell's inverse
   Jacobian there (PetscFEEvaluateFieldJets_Internal()) */
PETSCWARP_HD inline void BdState(const PetscWarpPointwiseBdData &d, const int *l, size_t k, PetscScalar *u, PetscScalar *ut, PetscScalar *ux)
{
  const Layout  L   = FieldLayout(d);
  const int     dim = d.dim, tp = d.tab[k];
  const double *Ji = d.invJ + k * dim * dim;

  for (int f = 0; f < L.nf; f++) {
    const int nb = d.fnb[f], o = L.uo[f];
    PointState(dim, nb, d.fnc[f], d.fB[f] + (size_t)tp * nb, d.fD[f] + (size_t)tp * nb * dim, Ji, Indexed{d.u, l + L.eo[f]}, Indexed{d.u_t, l + L.eo[f]}, d.u_t != NULL, u + o, ut + o, ux + o * dim);
  }
}

/* Doubles per face point in the boundary Jacobian's workspace G (PetscWarpPointwiseBdData.gstride): for a face of field h
   the present g0_bd ... g3_bd of the blocks (h, 0), (h, 1), ... in that order, times the weight; the most over h */
template <class FS>
PETSCWARP_HD inline int BdPointDoubles(const PetscWarpPointwiseBdData &d)
{
  int most = 0;
  for (int h = 0; h < FS::NF; h++) {
    int n = 0;
    for (int g = 0; g < FS::NF; g++) n += TermDoubles(JacMask<FS, true>(h * FS::NF + g), d.fnc[h] * d.fnc[g], d.dim);
    if (n > most) most = n;
  }
  return most;
}

/* The boundary terms of one face f of field H (PetscFEIntegrateBdResidual_Basic() and PetscFEUpdateElementVec_Internal()):
   at each physical point q the state of every field (BdState()), f0_bd (f1_bd) of field H there times the weight, kept at
   the tabulated point qp (f1_bd pulled back through the point's inverse Jacobian, so that the reference derivatives of
   the tabulation apply); then field H's block of the face's element vector sum_qp B_a(qp) F0[qp][c] + D_a(qp) . F1[qp][c],
   in PETSc's order, added to f through add(index, v) */
template <class FS, int H, class ADD>
PETSCWARP_HD inline void BdFaceField(const PetscWarpPointwiseBdData &d, int f, ADD add)
{
  using R            = typename FS::template BdRes<H>;
  const Layout   L   = FieldLayout(d);
  const int      dim = d.dim, nq = d.nq, nb = d.fnb[H], nc = d.fnc[H], base = (d.tab[(size_t)f * nq] / nq) * nq;
  const int     *l  = d.l2d + (size_t)d.fcell[f] * L.nel;
  const double  *BH = d.fB[H], *DH = d.fD[H];
  PetscInt       uOff[PETSCWARP_PW_MAXNF + 1], uOff_x[PETSCWARP_PW_MAXNF + 1];
  PetscScalar    F[R::F0::present ? PETSCWARP_PW_MAXFQ * PETSCWARP_PW_MAXNC : 1], F1[R::F1::present ? PETSCWARP_PW_MAXFQ * PETSCWARP_PW_MAXNC * 3 : 1];
  typename R::F0 fbd;
  typename R::F1 fbd1;

  Offsets(L, dim, uOff, uOff_x);
  for (int q = 0; q < nq; q++) {
    const size_t       k  = (size_t)f * nq + q;
    const int          qp = d.tab[k] - base;
    PetscScalar        u[PETSCWARP_PW_MAXNC], ut[PETSCWARP_PW_MAXNC], ux[PETSCWARP_PW_MAXNC * 3];
    const PetscScalar *put = d.u_t ? ut : NULL;

    BdState(d, l, k, u, ut, ux);
    if (R::F0::present) {
      PetscScalar *f0 = F + qp * nc;
      for (int c = 0; c < nc; c++) f0[c] = 0.0;
      fbd((PetscInt)dim, FS::NF, 0, uOff, uOff_x, u, put, ux, NULL, NULL, NULL, NULL, NULL, d.t, d.x + k * dim, d.n + k * dim, d.numConstants, d.constants, f0);
      for (int c = 0; c < nc; c++) f0[c] *= d.w[k];
    }
    if (R::F1::present) {
      const double *Ji = d.invJ + k * dim * dim;
      PetscScalar   f1[PETSCWARP_PW_MAXNC * 3], *r = F1 + qp * nc * dim;
      for (int m = 0; m < nc * dim; m++) f1[m] = 0.0;
      fbd1((PetscInt)dim, FS::NF, 0, uOff, uOff_x, u, put, ux, NULL, NULL, NULL, NULL, NULL, d.t, d.x + k * dim, d.n + k * dim, d.numConstants, d.constants, f1);
      for (int c = 0; c < nc; c++) /* sum_d dphi/dx_d f1[c][d] = sum_e D_e sum_d Ji[e][d] f1[c][d] */
        for (int e = 0; e < dim; e++) {
          PetscScalar v = 0.0;
          for (int dd = 0; dd < dim; dd++) v += Ji[e * dim + dd] * f1[c * dim + dd];
          r[c * dim + e] = d.w[k] * v;
        }
    }
  }
  for (int a = 0; a < nb; a++)
    for (int c = 0; c < nc; c++) {
      PetscScalar s = 0.0;
      for (int qp = 0; qp < nq; qp++) {
        if (R::F0::present) s += BH[(size_t)(base + qp) * nb + a] * F[qp * nc + c];
        if (R::F1::present)
          for (int e = 0; e < dim; e++) s += DH[((size_t)(base + qp) * nb + a) * dim + e] * F1[(qp * nc + c) * dim + e];
      }
      add(l[L.eo[H] + a * nc + c], s);
    }
}

/* BdFaceField() for the field of face f */
template <class FS, class ADD>
struct BdFaceOp {
  const PetscWarpPointwiseBdData *d;
  int                             f, h;
  ADD                             add;
  template <int H>
  PETSCWARP_HD void step()
  {
    if (H == h) BdFaceField<FS, H>(*d, f, add);
  }
};
template <class FS, class ADD>
PETSCWARP_HD inline void BdFace(const PetscWarpPointwiseBdData &d, int f, ADD add)
{
  BdFaceOp<FS, ADD> op = {&d, f, BdField(d, f), add};
  Unroll<FS::NF>::run(op);
}

/* Stage 1 of the boundary Jacobian at the face point k = f*nq + q (PetscFEIntegrateBdJacobian_Basic()): the state
   (BdState()), the present g0_bd ... g3_bd of the blocks (h, 0), (h, 1), ... of the face's field h there, times the
   weight, into G[k*gstride ...] */
template <class FS>
PETSCWARP_HD inline void BdJacPoint(const PetscWarpPointwiseBdData &d, size_t k)
{
  const int          f = (int)(k / (size_t)d.nq);
  const Layout       L = FieldLayout(d);
  const int         *l = d.l2d + (size_t)d.fcell[f] * L.nel;
  PetscInt           uOff[PETSCWARP_PW_MAXNF + 1], uOff_x[PETSCWARP_PW_MAXNF + 1];
  PetscScalar        u[PETSCWARP_PW_MAXNC], ut[PETSCWARP_PW_MAXNC], ux[PETSCWARP_PW_MAXNC * 3], *G = d.G + k * (size_t)d.gstride;
  JacCalls<FS, true> op;

  Offsets(L, d.dim, uOff, uOff_x);
  BdState(d, l, k, u, ut, ux);
  op.set(&d, uOff, uOff_x, u, d.u_t ? ut : NULL, ux, d.x + k * d.dim, G);
  op.nrm = d.n + k * d.dim;
  op.row = BdField(d, f);
  Unroll<FS::NF * FS::NF>::run(op);
  for (int m = 0; m < op.off; m++) G[m] *= d.w[k];
}

/* Stage 2 of the boundary Jacobian: entry (i, j) of the element matrix of the m-th cell with boundary faces gets, face
   after face of the cell (those of row i's field f), that face's entry sum_q B_a G0[c*ncg+e] B_b + B_a G1[(c*ncg+e)*dim+d]
   dB_b[d] + dB_a[d] G2[(c*ncg+e)*dim+d] B_b + dB_a[d] G3[((c*ncg+e)*dim+d)*dim+d'] dB_b[d'] of the block (f, g) at the
   point's tabulation tab[k], with the physical gradients dB of the cells' bases there (PetscFEUpdateElementMat_Internal(),
   physical points q in order, as PETSc sums them into the face's element matrix) */
template <class FS>
PETSCWARP_HD inline void BdJacEntry(const PetscWarpPointwiseBdData &d, int m, int i, int j)
{
  const Layout   L   = FieldLayout(d);
  const int      dim = d.dim, nq = d.nq, fi = FieldOf(L, i), gj = FieldOf(L, j), nbf = d.fnb[fi], ncf = d.fnc[fi], nbg = d.fnb[gj], ncg = d.fnc[gj];
  const int      a = (i - L.eo[fi]) / ncf, c = i - L.eo[fi] - a * ncf, b = (j - L.eo[gj]) / ncg, e = j - L.eo[gj] - b * ncg;
  const unsigned mk  = JacMask<FS, true>(fi * FS::NF + gj);
  PetscScalar   *Eij = d.E + ((size_t)d.fcell[d.bface[d.boff[m]]] * L.nel + i) * L.nel + j;
  int            off = 0;

  if (!mk) return;
  for (int g = 0; g < gj; g++) off += TermDoubles(JacMask<FS, true>(fi * FS::NF + g), ncf * d.fnc[g], dim);
  for (int s = d.boff[m]; s < d.boff[m + 1]; s++) {
    const size_t k0 = (size_t)d.bface[s] * nq;
    PetscScalar  v  = 0.0;
    if (BdField(d, d.bface[s]) != fi) continue;
    for (int q = 0; q < nq; q++) {
      const size_t       k = k0 + q, tp = (size_t)d.tab[k];
      const PetscScalar *G  = d.G + k * (size_t)d.gstride + off;
      const double       Ba = d.fB[fi][tp * nbf + a], Bb = d.fB[gj][tp * nbg + b];
      double             ga[3] = {0.0, 0.0, 0.0}, gb[3] = {0.0, 0.0, 0.0};
      if (mk & 12u) PetscWarpGradient(dim, d.invJ + k * dim * dim, d.fD[fi] + (tp * nbf + a) * dim, ga);
      if (mk & 10u) PetscWarpGradient(dim, d.invJ + k * dim * dim, d.fD[gj] + (tp * nbg + b) * dim, gb);
      v += PointTermMask(mk, dim, ncf * ncg, c * ncg + e, G, Ba, Bb, ga, gb);
    }
    *Eij += v;
  }
}

/* Sizes the boundary kernels support (jac: the boundary Jacobian's arrays, else the residual's): 0, else 2 */
template <class FS>
inline int CheckBdData(const PetscWarpPointwiseBdData *d, bool jac)
{
  int nc = 0;
  if (!d || (d->dim != 2 && d->dim != 3) || d->nf != FS::NF || d->nq < 1 || d->nq > PETSCWARP_PW_MAXFQ || d->nfaces < 0) return 2;
  for (int f = 0; f < d->nf; f++) {
    if (d->fnb[f] < 1 || d->fnc[f] < 1 || (d->nfaces && (!d->fB[f] || !d->fD[f]))) return 2;
    nc += d->fnc[f];
  }
  if (nc > PETSCWARP_PW_MAXNC || (FS::NF > 1 && d->nfaces && !d->ffield)) return 2;
  if (d->nfaces && (!d->fcell || !d->tab || !d->w || !d->x || !d->n || !d->invJ || !d->l2d || !d->u)) return 2;
  if (!jac) return d->nfaces && !d->f ? 2 : 0;
  if (d->nbcells < 0 || d->nbcells > d->nfaces || (d->nfaces && (!d->boff || !d->bface || !d->G || !d->E))) return 2;
  if (d->gstride != BdPointDoubles<FS>(*d)) return 2; /* the workspace was sized for other terms */
  return 0;
}

struct HostAdd {
  PetscScalar      *f;
  PETSCWARP_HD void operator()(int i, PetscScalar v) const { f[i] += v; }
};

/* The host twin of the boundary kernel: the face points in order */
template <class FS>
int BdResidualHost(const PetscWarpPointwiseBdData *d)
{
  int err = CheckBdData<FS>(d, false);
  if (err) return err;
  for (int f = 0; f < d->nfaces; f++) BdFace<FS>(*d, f, HostAdd{d->f});
  return 0;
}

/* The host twin of the boundary Jacobian kernels: stage 1 at every face point, then stage 2 at every entry of the cells
   with boundary faces, in the device kernels' order of operations per entry */
template <class FS>
int BdJacobianHost(const PetscWarpPointwiseBdData *d)
{
  int err = CheckBdData<FS>(d, true);
  if (err) return err;
  const int nel = FieldLayout(*d).nel;
  for (size_t k = 0; k < (size_t)d->nfaces * d->nq; k++) BdJacPoint<FS>(*d, k);
  for (int m = 0; m < d->nbcells; m++)
    for (int i = 0; i < nel; i++)
      for (int j = 0; j < nel; j++) BdJacEntry<FS>(*d, m, i, j);
  return 0;
}

#if defined(__CUDACC__)
struct DeviceAdd {
  PetscScalar             *f;
  __host__ __device__ void operator()(int i, PetscScalar v) const
  {
  #if defined(__CUDA_ARCH__)
    atomicAdd(&f[i], v);
  #else
    f[i] += v;
  #endif
  }
};

/* One thread per face; atomics into the local residual (the faces of a cell, and the cells, share dofs) */
template <class FS>
__global__ void __launch_bounds__(128) BdKernel(PetscWarpPointwiseBdData d)
{
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f < d.nfaces) BdFace<FS>(d, f, DeviceAdd{d.f});
}

template <class FS>
int BdResidualDevice(const PetscWarpPointwiseBdData *d)
{
  if (CheckBdData<FS>(d, false)) return (int)cudaErrorInvalidValue;
  if (!d->nfaces) return 0;
  BdKernel<FS><<<(d->nfaces + 127) / 128, 128, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}

/* The boundary Jacobian: one thread per face point (stage 1), then one per entry of the element matrices of the cells with
   boundary faces (stage 2: each entry has one thread, which adds its faces in order: no atomics, the host twin's sums) */
template <class FS>
__global__ void __launch_bounds__(128) BdJacPointKernel(PetscWarpPointwiseBdData d)
{
  const size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < (size_t)d.nfaces * d.nq) BdJacPoint<FS>(d, k);
}

template <class FS>
__global__ void __launch_bounds__(128) BdJacEntryKernel(PetscWarpPointwiseBdData d)
{
  const int    nel = FieldLayout(d).nel;
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x, nn = (size_t)nel * nel;
  if (t < (size_t)d.nbcells * nn) {
    const int m = (int)(t / nn), ij = (int)(t - m * nn), i = ij / nel;
    BdJacEntry<FS>(d, m, i, ij - i * nel);
  }
}

template <class FS>
int BdJacobianDevice(const PetscWarpPointwiseBdData *d)
{
  if (CheckBdData<FS>(d, true)) return (int)cudaErrorInvalidValue;
  if (!d->nfaces) return 0;
  const size_t nel = (size_t)FieldLayout(*d).nel, np = (size_t)d->nfaces * d->nq, ne = (size_t)d->nbcells * nel * nel;
  BdJacPointKernel<FS><<<(unsigned)((np + 127) / 128), 128, 0, (cudaStream_t)d->stream>>>(*d);
  if (ne) BdJacEntryKernel<FS><<<(unsigned)((ne + 127) / 128), 128, 0, (cudaStream_t)d->stream>>>(*d);
  return (int)cudaGetLastError();
}
#endif

#if defined(__CUDACC__)
  #define PETSCWARP_PW_THREADS 256
  #define PETSCWARP_PW_BUDGET  (48 * 1024) /* dynamic shared memory without an opt-in */

/* A block takes ne consecutive cells (see the top of the file); shared memory (doubles): ne*(ncv*dim + nel (+ nel for
   u_t) + nq*ps) */
template <class FS, bool JAC>
__global__ void __launch_bounds__(PETSCWARP_PW_THREADS) Kernel(PetscWarpPointwiseData d, int ne, int ps)
{
  extern __shared__ double pw_smem[];
  const int                nel = FieldLayout(d).nel, nx = d.ncv * d.dim, first = blockIdx.x * ne, m = min(ne, d.ncells - first);
  double                  *Xs = pw_smem, *Us = Xs + ne * nx, *Uts = Us + ne * nel, *S = Uts + (d.u_t ? ne * nel : 0);

  for (int t = threadIdx.x; t < m * nx; t += blockDim.x) {
    const int lc = t / nx, k = (t - lc * nx) / d.dim;
    Xs[t] = d.X[(size_t)d.cv[(size_t)(first + lc) * d.ncv + k] * d.dim + t - lc * nx - k * d.dim];
  }
  for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
    const int l = d.l2d[(size_t)first * nel + t];
    Us[t]       = d.u[l];
    if (d.u_t) Uts[t] = d.u_t[l];
  }
  __syncthreads();
  for (int t = threadIdx.x; t < m * d.nq; t += blockDim.x) {
    const int lc = t / d.nq, q = t - lc * d.nq;
    StagePoint<FS, JAC>(d, Xs + lc * nx, Us + lc * nel, d.u_t ? Uts + lc * nel : NULL, q, S + (size_t)t * ps);
  }
  __syncthreads();
  if (JAC) {
    const int nn = nel * nel;
    for (int t = threadIdx.x; t < m * nn; t += blockDim.x) {
      const int lc = t / nn, ij = t - lc * nn, i = ij / nel;
      d.out[(size_t)first * nn + t] = JacobianEntry<FS>(d, S + (size_t)lc * d.nq * ps, ps, i, ij - i * nel);
    }
  } else
    for (int t = threadIdx.x; t < m * nel; t += blockDim.x) {
      const int lc                   = t / nel;
      d.out[(size_t)first * nel + t] = ResidualEntry<FS>(d, S + (size_t)lc * d.nq * ps, ps, t - lc * nel);
    }
}

template <class FS, bool JAC>
inline int DeviceLaunch(const PetscWarpPointwiseData *d)
{
  if (CheckData<FS>(d)) return (int)cudaErrorInvalidValue;
  if (!d->ncells) return 0;
  const int    nel = FieldLayout(*d).nel, ps = PointDoubles<FS, JAC>(*d), work = JAC ? nel * nel : (nel > d->nq ? nel : d->nq);
  const size_t cell   = sizeof(double) * ((size_t)d->ncv * d->dim + (d->u_t ? 2 : 1) * (size_t)nel + (size_t)d->nq * ps);
  size_t       budget = PETSCWARP_PW_BUDGET;
  int          ne     = (PETSCWARP_PW_THREADS + work - 1) / work, fit;
  cudaError_t  err;
  if (cell > budget) { /* one cell needs more than the default: opt in to the device's maximum */
    int dev, optin;
    if ((err = cudaGetDevice(&dev)) != cudaSuccess) return (int)err;
    if ((err = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess) return (int)err;
    budget = (size_t)optin;
  }
  fit = (int)(budget / cell);
  if (ne > fit) ne = fit;
  if (ne > d->ncells) ne = d->ncells;
  if (ne < 1) return (int)cudaErrorInvalidConfiguration; /* one cell does not fit the shared memory */
  if ((size_t)ne * cell > PETSCWARP_PW_BUDGET && (err = cudaFuncSetAttribute(Kernel<FS, JAC>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(ne * cell))) != cudaSuccess) return (int)err;
  Kernel<FS, JAC><<<(d->ncells + ne - 1) / ne, PETSCWARP_PW_THREADS, ne * cell, (cudaStream_t)d->stream>>>(*d, ne, ps);
  return (int)cudaGetLastError();
}

template <class FS>
int JacobianDevice(const PetscWarpPointwiseData *d)
{
  return DeviceLaunch<FS, true>(d);
}
template <class FS>
int ResidualDevice(const PetscWarpPointwiseData *d)
{
  return DeviceLaunch<FS, false>(d);
}
  #define PETSCWARP_PW_DEVICE(f) f
#else
  #define PETSCWARP_PW_DEVICE(f) nullptr
#endif
} // namespace pw
} // namespace petscwarp

/* A functor calling one pointwise function (or nothing when it is absent) */
#define PETSCWARP_PW_RESIDUAL_FUNCTOR(S, fn) \
  struct S { \
    static constexpr bool present = ::petscwarp::pw::present_v<decltype((fn))>; \
    PETSCWARP_HD void     operator()(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f[]) const \
    { \
      ::petscwarp::pw::call(fn, dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, numConstants, constants, f); \
    } \
  }
#define PETSCWARP_PW_JACOBIAN_FUNCTOR(S, fn) \
  struct S { \
    static constexpr bool present = ::petscwarp::pw::present_v<decltype((fn))>; \
    PETSCWARP_HD void     operator()(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g[]) const \
    { \
      ::petscwarp::pw::call(fn, dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, u_tShift, x, numConstants, constants, g); \
    } \
  }

#define PETSCWARP_PW_BD_FUNCTOR(S, fn) \
  struct S { \
    static constexpr bool present = ::petscwarp::pw::present_v<decltype((fn))>; \
    PETSCWARP_HD void     operator()(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f[]) const \
    { \
      ::petscwarp::pw::call(fn, dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, x, n, numConstants, constants, f); \
    } \
  }

#define PETSCWARP_PW_BDJAC_FUNCTOR(S, fn) \
  struct S { \
    static constexpr bool present = ::petscwarp::pw::present_v<decltype((fn))>; \
    PETSCWARP_HD void     operator()(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g[]) const \
    { \
      ::petscwarp::pw::call(fn, dim, Nf, NfAux, uOff, uOff_x, u, u_t, u_x, aOff, aOff_x, a, a_t, a_x, t, u_tShift, x, n, numConstants, constants, g); \
    } \
  }

/*MC
  PETSCWARP_POINTWISE - Compiles the element kernels of a PetscDS's pointwise functions (one field) in the user's file
  and defines the `PetscWarpPointwise` to register with `DMPlexWarpSetPointwise()`

  Synopsis:
  #include <petscwarp/pointwise.cuh>
  PETSCWARP_POINTWISE(name, f0, f1, g0, g1, g2, g3);

  Input Parameters:
+ name           - the name of the `extern "C" const PetscWarpPointwise` it defines (declare it
                   `extern const PetscWarpPointwise name;` to use it from C)
. f0, f1         - the residual's pointwise functions (`PetscPointFn`, as given to `PetscDSSetResidual()`), `nullptr` if absent
- g0, g1, g2, g3 - the Jacobian's (`PetscPointJacFn`, as given to `PetscDSSetJacobian()`), `nullptr` if absent

  Level: intermediate

  Notes:
  Each function must be declared `PETSCWARP_HD` (`__host__ __device__` under nvcc) and take PETSc's exact arguments; it
  is called with Nf = 1, NfAux = 0, uOff = {0, nc}, uOff_x = {0, nc*dim}, NULL auxiliary arrays, u_t = NULL without a
  time derivative (SNES), the PetscDS's constants, the time and shift of the call and the physical point x. Under nvcc
  the macro instantiates the device kernels and their host twins; under a host C++ compiler only the host twins (the
  device launchers are `NULL`, and petscwarp runs the host twins). Fields of at most `PETSCWARP_PW_MAXNC` components.

.seealso: `PETSCWARP_POINTWISE_BD()`, `PetscWarpPointwise`, `DMPlexWarpSetPointwise()`, `PetscDSSetResidual()`, `PetscDSSetJacobian()`
M*/
#define PETSCWARP_POINTWISE(name, f0, f1, g0, g1, g2, g3) PETSCWARP_POINTWISE_BD(name, f0, f1, g0, g1, g2, g3, nullptr)

/*MC
  PETSCWARP_POINTWISE_BD - `PETSCWARP_POINTWISE()` with a boundary residual f0_bd, the term of the natural boundaries

  Synopsis:
  #include <petscwarp/pointwise.cuh>
  PETSCWARP_POINTWISE_BD(name, f0, f1, g0, g1, g2, g3, f0_bd);

  Input Parameters:
+ name, f0, ..., g3 - as for `PETSCWARP_POINTWISE()`
- f0_bd             - the boundary residual (`PetscBdPointFn`, `PETSCWARP_HD`), as given to `PetscWeakFormSetIndexBdResidual()`
                      (`PetscWeakFormAddBdResidual()`) for the keys (label, value, field 0, part 0) of the `DM_BC_NATURAL`
                      boundaries of `DMAddBoundary()`, `nullptr` if absent

  Level: intermediate

  Notes:
  f0_bd is called at the face quadrature points of the natural boundaries' faces (owned by the rank) with the state u,
  its gradient u_x (the cell's basis at the face point, pushed forward with the cell's inverse Jacobian, as PETSc does),
  u_t (TS), the point x, the outward normal n, t and the `PetscDS`'s constants; the terms are added into the local
  residual as `DMPlexComputeBdResidualSingleByKey()` adds them. Every natural boundary key with a boundary f0 must hold
  this function (one per key). Without a boundary Jacobian: where f0_bd depends on u (a Robin term alpha u - g), compile
  its g0_bd with `PETSCWARP_POINTWISE_BD_JACOBIAN()`; a `PetscDS` with a boundary Jacobian is refused by
  `DMPlexWarpSetSNESLocalFEM()` for kernels made by this macro (`PETSC_ERR_SUP`), as is a boundary f1 (see
  `PETSCWARP_POINTWISE_BD_ALL()` for every boundary term).

  This is `PETSCWARP_POINTWISE_BD_JACOBIAN(name, f0, f1, g0, g1, g2, g3, f0_bd, nullptr)`.

.seealso: `PETSCWARP_POINTWISE()`, `PETSCWARP_POINTWISE_BD_JACOBIAN()`, `PetscWarpPointwiseBdData`, `DMPlexWarpSetPointwise()`, `DMAddBoundary()`
M*/
#define PETSCWARP_POINTWISE_BD(name, f0, f1, g0, g1, g2, g3, f0_bd) PETSCWARP_POINTWISE_BD_JACOBIAN(name, f0, f1, g0, g1, g2, g3, f0_bd, nullptr)

/*MC
  PETSCWARP_POINTWISE_BD_JACOBIAN - `PETSCWARP_POINTWISE_BD()` with the boundary Jacobian g0_bd of the natural boundaries

  Synopsis:
  #include <petscwarp/pointwise.cuh>
  PETSCWARP_POINTWISE_BD_JACOBIAN(name, f0, f1, g0, g1, g2, g3, f0_bd, g0_bd);

  Input Parameters:
+ name, f0, ..., f0_bd - as for `PETSCWARP_POINTWISE_BD()`
- g0_bd                - the boundary Jacobian (`PetscBdPointJacFn`, `PETSCWARP_HD`), the derivative of f0_bd with respect
                         to u, as given to `PetscWeakFormSetIndexBdJacobian()` (`PetscWeakFormAddBdJacobian()`, g0 of the
                         fields (0, 0)) for the same keys as f0_bd, `nullptr` if absent

  Level: intermediate

  Notes:
  g0_bd is called at the same face points as f0_bd, with the same arguments and u_tShift; at every Jacobian its terms
  int_f phi_i g0_bd phi_j (the full element matrix of the face's cell, as `PetscFEIntegrateBdJacobian_Basic()` computes it)
  are added into the element matrix of the face's cell before the reduction into the matrix (device kernels, or their
  host twins). Every natural boundary key with f0_bd must hold this g0_bd (one per key); a boundary f1 or g1, g2, g3 needs
  `PETSCWARP_POINTWISE_BD_ALL()`, a boundary Jacobian preconditioner is refused with `PETSC_ERR_SUP`. Example, the Robin
  term f0_bd = alpha u - g:
.vb
  static PETSCWARP_HD void f0_bd(..., const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[]) { f0[0] = constants[0] * u[0] - g(x); }
  static PETSCWARP_HD void g0_bd(..., PetscReal t, PetscReal u_tShift, const PetscReal x[], const PetscReal n[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g0[]) { g0[0] = constants[0]; }
  PETSCWARP_POINTWISE_BD_JACOBIAN(mypw, f0_u, f1_u, g0_uu, nullptr, nullptr, g3_uu, f0_bd, g0_bd);
  PetscCall(PetscWeakFormSetIndexBdResidual(wf, label, value, 0, 0, 0, f0_bd, 0, NULL));
  PetscCall(PetscWeakFormSetIndexBdJacobian(wf, label, value, 0, 0, 0, 0, g0_bd, 0, NULL, 0, NULL, 0, NULL));
.ve

  This is `PETSCWARP_POINTWISE_BD_ALL(name, f0, f1, g0, g1, g2, g3, f0_bd, nullptr, g0_bd, nullptr, nullptr, nullptr)`.

.seealso: `PETSCWARP_POINTWISE_BD_ALL()`, `PETSCWARP_POINTWISE_BD()`, `PETSCWARP_POINTWISE()`, `PetscWarpPointwiseBdData`, `DMPlexWarpSetPointwise()`, `DMAddBoundary()`
M*/
#define PETSCWARP_POINTWISE_BD_JACOBIAN(name, f0, f1, g0, g1, g2, g3, f0_bd, g0_bd) PETSCWARP_POINTWISE_BD_ALL(name, f0, f1, g0, g1, g2, g3, f0_bd, nullptr, g0_bd, nullptr, nullptr, nullptr)

/*MC
  PETSCWARP_POINTWISE_BD_ALL - The element kernels of a `PetscDS` with every boundary term of its natural boundaries:
  the boundary residual f0_bd, f1_bd and the boundary Jacobian g0_bd, g1_bd, g2_bd, g3_bd

  Synopsis:
  #include <petscwarp/pointwise.cuh>
  PETSCWARP_POINTWISE_BD_ALL(name, f0, f1, g0, g1, g2, g3, f0_bd, f1_bd, g0_bd, g1_bd, g2_bd, g3_bd);

  Input Parameters:
+ name, f0, ..., g3            - as for `PETSCWARP_POINTWISE()`
. f0_bd, f1_bd                 - the boundary residual (`PetscBdPointFn`, `PETSCWARP_HD`), as given to
                                 `PetscWeakFormSetIndexBdResidual()` for the keys (label, value, field 0, part 0) of the
                                 `DM_BC_NATURAL` boundaries, `nullptr` where absent
- g0_bd, g1_bd, g2_bd, g3_bd   - the boundary Jacobian (`PetscBdPointJacFn`, `PETSCWARP_HD`), as given to
                                 `PetscWeakFormSetIndexBdJacobian()` (fields (0, 0)) for the same keys, `nullptr` where absent

  Level: intermediate

  Notes:
  The terms are those of `PetscFEIntegrateBdResidual_Basic()` and `PetscFEIntegrateBdJacobian_Basic()` with
  `PetscFEUpdateElementVec_Internal()` / `PetscFEUpdateElementMat_Internal()`: int_f phi_i f0_bd + grad phi_i . f1_bd and
  int_f phi_i g0_bd phi_j + phi_i g1_bd . grad phi_j + grad phi_i . g2_bd phi_j + grad phi_i . g3_bd grad phi_j, with the
  physical gradients of the face's cell basis at the face points (the cell's inverse Jacobian there, as PETSc's). Every
  natural boundary key with a boundary residual must hold exactly the compiled functions (one of each kind at the most).
  Example, a boundary term with the normal derivative, f0_bd = alpha u + beta grad u . n - g: g0_bd = alpha, g1_bd = beta n.

.seealso: `PETSCWARP_POINTWISE_BD_JACOBIAN()`, `PETSCWARP_POINTWISE_BD()`, `PETSCWARP_POINTWISE()`, `PetscWarpPointwiseBdData`, `DMPlexWarpSetPointwise()`, `DMAddBoundary()`
M*/
// clang-format off
#define PETSCWARP_POINTWISE_BD_ALL(name, f0, f1, g0, g1, g2, g3, f0_bd, f1_bd, g0_bd, g1_bd, g2_bd, g3_bd) \
  namespace petscwarp_pw_##name \
  { \
    struct Fns { \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F0, f0); \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F1, f1); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G0, g0); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G1, g1); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G2, g2); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G3, g3); \
      PETSCWARP_PW_BD_FUNCTOR(FBD, f0_bd); \
      PETSCWARP_PW_BD_FUNCTOR(FBD1, f1_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(GBD, g0_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(GBD1, g1_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(GBD2, g2_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(GBD3, g3_bd); \
    }; \
  } \
  extern "C" const PetscWarpPointwise name = { \
    PETSCWARP_POINTWISE_VERSION, \
    #name, \
    ::petscwarp::pw::JacobianHost<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>, \
    PETSCWARP_PW_DEVICE(::petscwarp::pw::JacobianDevice<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>), \
    ::petscwarp::pw::ResidualHost<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>, \
    PETSCWARP_PW_DEVICE(::petscwarp::pw::ResidualDevice<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>), \
    {::petscwarp::pw::hostptr(f0), ::petscwarp::pw::hostptr(f1)}, \
    {::petscwarp::pw::hostptr(g0), ::petscwarp::pw::hostptr(g1), ::petscwarp::pw::hostptr(g2), ::petscwarp::pw::hostptr(g3)}, \
    PETSCWARP_PW_MAXNC, \
    ::petscwarp::pw::BdResidualHost<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>, \
    PETSCWARP_PW_DEVICE(::petscwarp::pw::BdResidualDevice<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>), \
    {::petscwarp::pw::hostptr(f0_bd), ::petscwarp::pw::hostptr(f1_bd)}, \
    ::petscwarp::pw::BdJacobianHost<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>, \
    PETSCWARP_PW_DEVICE(::petscwarp::pw::BdJacobianDevice<::petscwarp::pw::Single<petscwarp_pw_##name::Fns>>), \
    {::petscwarp::pw::hostptr(g0_bd), ::petscwarp::pw::hostptr(g1_bd), ::petscwarp::pw::hostptr(g2_bd), ::petscwarp::pw::hostptr(g3_bd)}, \
    1, \
    {{::petscwarp::pw::hostptr(f0), ::petscwarp::pw::hostptr(f1)}}, \
    {{{::petscwarp::pw::hostptr(g0), ::petscwarp::pw::hostptr(g1), ::petscwarp::pw::hostptr(g2), ::petscwarp::pw::hostptr(g3)}}}, \
    {{::petscwarp::pw::hostptr(f0_bd), ::petscwarp::pw::hostptr(f1_bd)}}, \
    {{{::petscwarp::pw::hostptr(g0_bd), ::petscwarp::pw::hostptr(g1_bd), ::petscwarp::pw::hostptr(g2_bd), ::petscwarp::pw::hostptr(g3_bd)}}}}
// clang-format on

namespace petscwarp
{
namespace pw
{
/* The PetscWarpPointwise of a set of fields FS (PETSCWARP_POINTWISE_FIELDS_END()): its launchers, the host addresses of
   every field's residual and every block's Jacobian (FS::Res<f>::host(k), FS::Jac<f, g>::host(k)), no boundary kernels */
template <class FS, int... F>
inline void FieldsFillRes(PetscWarpPointwise &p, std::integer_sequence<int, F...>)
{
  using expand = int[];
  (void)expand{0, (p.fm[F][0] = FS::template Res<F>::host(0), p.fm[F][1] = FS::template Res<F>::host(1), p.fbdm[F][0] = FS::template BdRes<F>::host(0), p.fbdm[F][1] = FS::template BdRes<F>::host(1), 0)...};
}
template <class FS, int P>
inline void FieldsFillBlock(PetscWarpPointwise &p)
{
  for (int k = 0; k < 4; k++) p.gm[P / FS::NF][P % FS::NF][k] = FS::template Jac<P / FS::NF, P % FS::NF>::host(k);
  for (int k = 0; k < 4; k++) p.gbdm[P / FS::NF][P % FS::NF][k] = FS::template BdJac<P / FS::NF, P % FS::NF>::host(k);
}
template <class FS, int... P>
inline void FieldsFillJac(PetscWarpPointwise &p, std::integer_sequence<int, P...>)
{
  using expand = int[];
  (void)expand{0, (FieldsFillBlock<FS, P>(p), 0)...};
}
template <class FS>
inline PetscWarpPointwise MakeFields(const char *name)
{
  static_assert(FS::NF >= 1 && FS::NF <= PETSCWARP_PW_MAXNF, "PETSCWARP_POINTWISE_FIELDS_BEGIN(): 1 to PETSCWARP_PW_MAXNF fields");
  PetscWarpPointwise p = {};
  p.version            = PETSCWARP_POINTWISE_VERSION;
  p.name               = name;
  p.jacobian_host      = JacobianHost<FS>;
  p.jacobian_device    = PETSCWARP_PW_DEVICE(JacobianDevice<FS>);
  p.residual_host      = ResidualHost<FS>;
  p.residual_device    = PETSCWARP_PW_DEVICE(ResidualDevice<FS>);
  p.maxnc              = PETSCWARP_PW_MAXNC;
  p.nf                 = FS::NF;
  FieldsFillRes<FS>(p, std::make_integer_sequence<int, FS::NF>{});
  FieldsFillJac<FS>(p, std::make_integer_sequence<int, FS::NF * FS::NF>{});
  for (int k = 0; k < 2; k++) p.f[k] = p.fm[0][k];
  for (int k = 0; k < 4; k++) p.g[k] = p.gm[0][0][k];
  for (int k = 0; k < 2; k++) p.fbd[k] = p.fbdm[0][k];
  for (int k = 0; k < 4; k++) p.gbd[k] = p.gbdm[0][0][k];
  p.bdresidual_host   = BdResidualHost<FS>;
  p.bdresidual_device = PETSCWARP_PW_DEVICE(BdResidualDevice<FS>);
  p.bdjacobian_host   = BdJacobianHost<FS>;
  p.bdjacobian_device = PETSCWARP_PW_DEVICE(BdJacobianDevice<FS>);
  return p;
}
} // namespace pw
} // namespace petscwarp

/*MC
  PETSCWARP_POINTWISE_FIELDS_BEGIN - Starts the element kernels of a `PetscDS` with several fields (each a Lagrange
  `PetscFE`, of its own degree and number of components): `PETSCWARP_POINTWISE_RESIDUAL()` and
  `PETSCWARP_POINTWISE_JACOBIAN()` lines follow, `PETSCWARP_POINTWISE_FIELDS_END()` ends them

  Synopsis:
  #include <petscwarp/pointwise.cuh>
  PETSCWARP_POINTWISE_FIELDS_BEGIN(name, nf)
    PETSCWARP_POINTWISE_RESIDUAL(f, f0, f1)
    PETSCWARP_POINTWISE_JACOBIAN(f, g, g0, g1, g2, g3)
  PETSCWARP_POINTWISE_FIELDS_END(name)

  Input Parameters:
+ name           - the name of the `extern "C" const PetscWarpPointwise` defined (as for `PETSCWARP_POINTWISE()`)
. nf             - the number of fields, 1 to `PETSCWARP_PW_MAXNF`
. f              - a field (an integer literal in [0, nf)): `PETSCWARP_POINTWISE_RESIDUAL()` gives its f0, f1 (as given to
                   `PetscDSSetResidual(ds, f, f0, f1)`)
- f, g           - a block: `PETSCWARP_POINTWISE_JACOBIAN()` gives its g0, g1, g2, g3 (as given to
                   `PetscDSSetJacobian(ds, f, g, g0, g1, g2, g3)`); `nullptr` where absent

  Level: intermediate

  Notes:
  A field or block without a line has no functions (the `PetscDS` must have none there either). Each function is called
  as `PetscFEIntegrateResidual_Basic()` and `PetscFEIntegrateJacobian_Basic()` call it: Nf = nf, uOff and uOff_x the
  `PetscDS`'s component offsets (u of field f at u[uOff[f]], its gradient at u_x[uOff_x[f]]), the state of every field
  at the point. The element's dofs are PETSc's: field after field, within a field node after node (interlaced
  components). All fields share the quadrature (PETSc's default, `PetscDSSetForceQuad()`, or `PetscFECopyQuadrature()`).
  At most `PETSCWARP_PW_MAXNC` components in all. The functions get the `PetscDS`'s constants only (not the block's fields
  PETSc appends after them, `constants[numConstants]`, during its own integration): give each block its own functions.
  Natural boundary terms: `PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL()` and `PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN()` lines
  (each natural boundary belongs to one field, that of `DMAddBoundary()`). Example, Stokes flow
  with Taylor-Hood elements (fields u, p):
.vb
  PETSCWARP_POINTWISE_FIELDS_BEGIN(stokes, 2)
    PETSCWARP_POINTWISE_RESIDUAL(0, f0_u, f1_u)
    PETSCWARP_POINTWISE_RESIDUAL(1, f0_p, nullptr)
    PETSCWARP_POINTWISE_JACOBIAN(0, 0, nullptr, nullptr, nullptr, g3_uu)
    PETSCWARP_POINTWISE_JACOBIAN(0, 1, nullptr, nullptr, g2_up, nullptr)
    PETSCWARP_POINTWISE_JACOBIAN(1, 0, nullptr, g1_pu, nullptr, nullptr)
  PETSCWARP_POINTWISE_FIELDS_END(stokes)
.ve

.seealso: `PETSCWARP_POINTWISE()`, `PetscWarpPointwise`, `DMPlexWarpSetPointwise()`, `PetscDSSetResidual()`, `PetscDSSetJacobian()`
M*/
// clang-format off
#define PETSCWARP_POINTWISE_FIELDS_BEGIN(name, nf) \
  namespace petscwarp_pw_##name \
  { \
    constexpr int NFields = (nf); \
    template <int F> \
    struct Res { \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F0, nullptr); \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F1, nullptr); \
      static void (*host(int))(void) { return nullptr; } \
    }; \
    template <int F, int G> \
    struct Jac { \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G0, nullptr); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G1, nullptr); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G2, nullptr); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G3, nullptr); \
      static void (*host(int))(void) { return nullptr; } \
    }; \
    template <int F> \
    struct BdRes { \
      PETSCWARP_PW_BD_FUNCTOR(F0, nullptr); \
      PETSCWARP_PW_BD_FUNCTOR(F1, nullptr); \
      static void (*host(int))(void) { return nullptr; } \
    }; \
    template <int F, int G> \
    struct BdJac { \
      PETSCWARP_PW_BDJAC_FUNCTOR(G0, nullptr); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G1, nullptr); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G2, nullptr); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G3, nullptr); \
      static void (*host(int))(void) { return nullptr; } \
    };

/*MC
  PETSCWARP_POINTWISE_RESIDUAL - The residual f0, f1 of field f, between `PETSCWARP_POINTWISE_FIELDS_BEGIN()` and `PETSCWARP_POINTWISE_FIELDS_END()`

  Synopsis:
  PETSCWARP_POINTWISE_RESIDUAL(f, f0, f1)

  Level: intermediate

.seealso: `PETSCWARP_POINTWISE_FIELDS_BEGIN()`
M*/
#define PETSCWARP_POINTWISE_RESIDUAL(field, f0, f1) \
    template <> \
    struct Res<(field)> { \
      static_assert((field) >= 0 && (field) < NFields, "PETSCWARP_POINTWISE_RESIDUAL(): field out of range"); \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F0, f0); \
      PETSCWARP_PW_RESIDUAL_FUNCTOR(F1, f1); \
      static void (*host(int k))(void) { return k == 0 ? ::petscwarp::pw::hostptr(f0) : ::petscwarp::pw::hostptr(f1); } \
    };

/*MC
  PETSCWARP_POINTWISE_JACOBIAN - The Jacobian g0, g1, g2, g3 of the block (f, g), between `PETSCWARP_POINTWISE_FIELDS_BEGIN()` and `PETSCWARP_POINTWISE_FIELDS_END()`

  Synopsis:
  PETSCWARP_POINTWISE_JACOBIAN(f, g, g0, g1, g2, g3)

  Level: intermediate

.seealso: `PETSCWARP_POINTWISE_FIELDS_BEGIN()`
M*/
#define PETSCWARP_POINTWISE_JACOBIAN(field, gfield, g0, g1, g2, g3) \
    template <> \
    struct Jac<(field), (gfield)> { \
      static_assert((field) >= 0 && (field) < NFields && (gfield) >= 0 && (gfield) < NFields, "PETSCWARP_POINTWISE_JACOBIAN(): field out of range"); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G0, g0); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G1, g1); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G2, g2); \
      PETSCWARP_PW_JACOBIAN_FUNCTOR(G3, g3); \
      static void (*host(int k))(void) { return k == 0 ? ::petscwarp::pw::hostptr(g0) : k == 1 ? ::petscwarp::pw::hostptr(g1) : k == 2 ? ::petscwarp::pw::hostptr(g2) : ::petscwarp::pw::hostptr(g3); } \
    };

/*MC
  PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL - The boundary residual f0_bd, f1_bd of field f (its natural boundaries), between
  `PETSCWARP_POINTWISE_FIELDS_BEGIN()` and `PETSCWARP_POINTWISE_FIELDS_END()`

  Synopsis:
  PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL(f, f0_bd, f1_bd)

  Level: intermediate

  Note:
  The functions set with `PetscWeakFormSetIndexBdResidual()` for the keys (label, value, f, part 0) of the `DM_BC_NATURAL`
  boundaries of field f (`DMAddBoundary()` with field f), called with every field's state at the face points.

.seealso: `PETSCWARP_POINTWISE_FIELDS_BEGIN()`, `PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN()`, `PETSCWARP_POINTWISE_BD_ALL()`
M*/
#define PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL(field, f0_bd, f1_bd) \
    template <> \
    struct BdRes<(field)> { \
      static_assert((field) >= 0 && (field) < NFields, "PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL(): field out of range"); \
      PETSCWARP_PW_BD_FUNCTOR(F0, f0_bd); \
      PETSCWARP_PW_BD_FUNCTOR(F1, f1_bd); \
      static void (*host(int k))(void) { return k == 0 ? ::petscwarp::pw::hostptr(f0_bd) : ::petscwarp::pw::hostptr(f1_bd); } \
    };

/*MC
  PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN - The boundary Jacobian g0_bd ... g3_bd of the block (f, g) on the natural
  boundaries of field f, between `PETSCWARP_POINTWISE_FIELDS_BEGIN()` and `PETSCWARP_POINTWISE_FIELDS_END()`

  Synopsis:
  PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(f, g, g0_bd, g1_bd, g2_bd, g3_bd)

  Level: intermediate

  Note:
  The functions set with `PetscWeakFormSetIndexBdJacobian()` for the keys (label, value, f, g, part 0) of the natural
  boundaries of field f; their terms are added into the element matrices of the faces' cells (rows of field f, columns
  of field g) before the reduction, as `DMPlexComputeBdJacobianSingleByLabel()` adds them.

.seealso: `PETSCWARP_POINTWISE_FIELDS_BEGIN()`, `PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL()`
M*/
#define PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(field, gfield, g0_bd, g1_bd, g2_bd, g3_bd) \
    template <> \
    struct BdJac<(field), (gfield)> { \
      static_assert((field) >= 0 && (field) < NFields && (gfield) >= 0 && (gfield) < NFields, "PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN(): field out of range"); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G0, g0_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G1, g1_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G2, g2_bd); \
      PETSCWARP_PW_BDJAC_FUNCTOR(G3, g3_bd); \
      static void (*host(int k))(void) { return k == 0 ? ::petscwarp::pw::hostptr(g0_bd) : k == 1 ? ::petscwarp::pw::hostptr(g1_bd) : k == 2 ? ::petscwarp::pw::hostptr(g2_bd) : ::petscwarp::pw::hostptr(g3_bd); } \
    };

/*MC
  PETSCWARP_POINTWISE_FIELDS_END - Ends `PETSCWARP_POINTWISE_FIELDS_BEGIN()` and defines the `PetscWarpPointwise` name

  Synopsis:
  PETSCWARP_POINTWISE_FIELDS_END(name)

  Level: intermediate

.seealso: `PETSCWARP_POINTWISE_FIELDS_BEGIN()`
M*/
#define PETSCWARP_POINTWISE_FIELDS_END(name) \
    struct FS { \
      static constexpr int NF = NFields; \
      template <int F> \
      using Res = petscwarp_pw_##name::Res<F>; \
      template <int F, int G> \
      using Jac = petscwarp_pw_##name::Jac<F, G>; \
      template <int F> \
      using BdRes = petscwarp_pw_##name::BdRes<F>; \
      template <int F, int G> \
      using BdJac = petscwarp_pw_##name::BdJac<F, G>; \
    }; \
  } \
  extern "C" const PetscWarpPointwise name = ::petscwarp::pw::MakeFields<petscwarp_pw_##name::FS>(#name);
// clang-format on
