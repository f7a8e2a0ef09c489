/*
  Recognition of the built-in physics of PetscWarpAsm in a DMPlex's PetscDS: the pointwise Jacobian (g3, and for time
  stepping g0 = c u_tShift) and the pointwise residual (f1 the flux of the physics, f0 = c u_t + a constant), probed at
  pseudo-random states, gradients, points and times.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscds.h>

#define NPROBES 8

/* Deterministic pseudo-random numbers in [-1, 1] for the probes */
static PetscReal Probe(unsigned *s)
{
  *s = *s * 1664525u + 1013904223u;
  return 2.0 * (PetscReal)(*s >> 8) / (PetscReal)(1u << 24) - 1.0;
}

/* A probe: state, time derivative, gradient, point, time, and u_tShift */
typedef struct {
  PetscScalar u[3], u_t[3], u_x[9];
  PetscReal   x[3], t, s;
} ProbeState;

static void ProbeNext(unsigned *seed, PetscInt dim, PetscInt nc, ProbeState *p)
{
  for (PetscInt k = 0; k < nc; k++) p->u[k] = 10 * Probe(seed), p->u_t[k] = 10 * Probe(seed);
  for (PetscInt k = 0; k < nc * dim; k++) p->u_x[k] = 10 * Probe(seed);
  for (PetscInt d = 0; d < dim; d++) p->x[d] = 5 * Probe(seed);
  p->t = Probe(seed);
  p->s = 1.0 + 10 * PetscAbsReal(Probe(seed));
}

/* Number of keys of kind k in a weak form */
static PetscErrorCode NumKeys(PetscWeakForm wf, PetscWeakFormKind k, PetscInt *n)
{
  PetscFormKey *keys;

  PetscFunctionBegin;
  PetscCall(PetscWeakFormGetKeys(wf, k, n, &keys));
  PetscCall(PetscFree(keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The field: one PetscFE of 1 or dim components; reason set otherwise */
static PetscErrorCode CheckField(DM dm, PetscDS *ds, PetscInt *dim, PetscInt *nc, char reason[], size_t len)
{
  PetscInt     nf;
  PetscObject  disc;
  PetscClassId id;

  PetscFunctionBegin;
  *nc = 0;
  PetscCall(DMGetDimension(dm, dim));
  PetscCall(DMGetDS(dm, ds));
  PetscCall(PetscDSGetNumFields(*ds, &nf));
  if (nf != 1) {
    PetscCall(PetscSNPrintf(reason, len, "%" PetscInt_FMT " fields (one is supported)", nf));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscDSGetDiscretization(*ds, 0, &disc));
  PetscCall(PetscObjectGetClassId(disc, &id));
  if (id != PETSCFE_CLASSID) {
    PetscCall(PetscStrncpy(reason, "the field is not a PetscFE", len));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFEGetNumComponents((PetscFE)disc, nc));
  if (*nc != 1 && *nc != *dim) {
    PetscCall(PetscSNPrintf(reason, len, "%" PetscInt_FMT " components (1 or %" PetscInt_FMT ")", *nc, *dim));
    *nc = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Boundary (face) integrals of kinds k0..k1 in the PetscDS's weak form or (natural) in the weak forms of its natural
   boundaries */
static PetscErrorCode HasBoundaryForms(PetscDS ds, PetscWeakFormKind k0, PetscWeakFormKind k1, PetscBool natural, PetscBool *has)
{
  PetscWeakForm wf;
  PetscInt      nbd, n;

  PetscFunctionBegin;
  *has = PETSC_FALSE;
  PetscCall(PetscDSGetWeakForm(ds, &wf));
  for (PetscInt k = (PetscInt)k0; k <= (PetscInt)k1 && !*has; k++) {
    PetscCall(NumKeys(wf, (PetscWeakFormKind)k, &n));
    if (n) *has = PETSC_TRUE;
  }
  PetscCall(PetscDSGetNumBoundary(ds, &nbd));
  for (PetscInt b = 0; b < nbd && !*has && natural; b++) {
    DMBoundaryConditionType type;

    PetscCall(PetscDSGetBoundary(ds, b, &wf, &type, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    if (!(type & DM_BC_NATURAL) || !wf) continue;
    for (PetscInt k = (PetscInt)k0; k <= (PetscInt)k1 && !*has; k++) {
      PetscCall(NumKeys(wf, (PetscWeakFormKind)k, &n));
      if (n) *has = PETSC_TRUE;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DMPlexWarpRecognizeJacobian_Private(DM dm, PetscBool transient, PetscBool *found, PetscWarpPhysics *physics, PetscReal coef[], PetscReal *mass, char why[], size_t len)
{
  PetscDS            ds;
  PetscInt           dim, nc, nconst;
  PetscPointJacFn   *g0, *g1, *g2, *g3;
  const PetscScalar *constants;
  char               reason[256] = "";
  PetscReal          c0 = 0, c1 = 0, m = 0;
  PetscBool          ok, bd;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(found, 3);
  PetscAssertPointer(physics, 4);
  *found   = PETSC_FALSE;
  *physics = PETSCWARP_PHYSICS_LAPLACE;
  PetscCall(CheckField(dm, &ds, &dim, &nc, reason, sizeof(reason)));
  ok = (PetscBool)(nc > 0);
  if (ok) {
    PetscCall(PetscDSGetJacobian(ds, 0, 0, &g0, &g1, &g2, &g3));
    if ((g0 && !transient) || g1 || g2 || !g3) {
      PetscCall(PetscSNPrintf(reason, sizeof(reason), "the Jacobian has %s%s%s%s (only g3%s is recognised)", g0 && !transient ? "g0 " : "", g1 ? "g1 " : "", g2 ? "g2 " : "", !g3 ? "no g3" : "", transient ? " and g0 = c u_tShift" : ""));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    PetscCall(HasBoundaryForms(ds, PETSC_WF_BDG0, PETSC_WF_BDGP3, PETSC_TRUE, &bd));
    if (bd) {
      PetscCall(PetscStrncpy(reason, "the Jacobian has boundary (face) integrals (PetscDSSetBdJacobian() or a natural boundary's weak form), which PetscWarpAsm does not assemble", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    const PetscInt n = nc * nc * dim * dim, uOff[2] = {0, nc}, uOff_x[2] = {0, nc * dim};
    PetscScalar    g[81], a[1] = {0};
    ProbeState     p;
    unsigned       seed = 12345u;

    PetscCall(PetscDSGetConstants(ds, &nconst, &constants));
    for (PetscInt k = 0; k < NPROBES && ok; k++) {
      ProbeNext(&seed, dim, nc, &p);
      for (PetscInt i = 0; i < n; i++) g[i] = 0.0;
      g3(dim, 1, 0, uOff, uOff_x, p.u, p.u_t, p.u_x, NULL, NULL, a, a, a, p.t, p.s, p.x, nconst, constants, g);
      if (nc == 1) { /* kappa I */
        if (k == 0) c0 = PetscRealPart(g[0]);
        for (PetscInt d = 0; d < dim && ok; d++)
          for (PetscInt e = 0; e < dim && ok; e++)
            if (PetscAbsScalar(g[d * dim + e] - (d == e ? c0 : 0.0)) > 1e-12 * PetscMax(1.0, PetscAbsReal(c0))) ok = PETSC_FALSE;
        if (!ok) PetscCall(PetscStrncpy(reason, "g3 of the scalar field is not a constant multiple of the identity", sizeof(reason)));
      } else { /* g3[fc][gc][df][dg] = mu (d_cg d_de + d_ce d_dg) + lambda d_cd d_ge */
        if (k == 0) {
          c1 = PetscRealPart(g[((0 * dim + 0) * dim + 1) * dim + 1]); /* mu */
          c0 = PetscRealPart(g[((0 * dim + 1) * dim + 0) * dim + 1]); /* lambda */
        }
        for (PetscInt c = 0; c < dim && ok; c++)
          for (PetscInt gc = 0; gc < dim && ok; gc++)
            for (PetscInt d = 0; d < dim && ok; d++)
              for (PetscInt e = 0; e < dim && ok; e++) {
                PetscReal v = c1 * ((c == gc && d == e) + (c == e && d == gc)) + c0 * (c == d && gc == e);
                if (PetscAbsScalar(g[((c * dim + gc) * dim + d) * dim + e] - v) > 1e-12 * PetscMax(1.0, PetscAbsReal(c0) + PetscAbsReal(c1))) ok = PETSC_FALSE;
              }
        if (!ok) PetscCall(PetscStrncpy(reason, "g3 of the vector field is not isotropic linear elasticity with constant Lame parameters", sizeof(reason)));
      }
      if (ok && g0) { /* g0 = m u_tShift I */
        for (PetscInt i = 0; i < nc * nc; i++) g[i] = 0.0;
        g0(dim, 1, 0, uOff, uOff_x, p.u, p.u_t, p.u_x, NULL, NULL, a, a, a, p.t, p.s, p.x, nconst, constants, g);
        if (k == 0) m = PetscRealPart(g[0]) / p.s;
        for (PetscInt c = 0; c < nc && ok; c++)
          for (PetscInt e = 0; e < nc && ok; e++)
            if (PetscAbsScalar(g[c * nc + e] - (c == e ? m * p.s : 0.0)) > 1e-12 * PetscMax(1.0, PetscAbsReal(m * p.s))) ok = PETSC_FALSE;
        if (!ok) PetscCall(PetscStrncpy(reason, "g0 is not c u_tShift I with a constant c (a mass term)", sizeof(reason)));
      }
    }
  }
  if (ok) {
    *found   = PETSC_TRUE;
    *physics = nc == 1 ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY;
    if (coef) {
      coef[0] = c0;
      if (nc != 1) coef[1] = c1;
    }
  }
  if (mass) *mass = ok ? m : 0.0;
  if (why && len) PetscCall(PetscStrncpy(why, ok ? "" : reason, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpRecognizePhysics - Recognizes a built-in physics of `PetscWarpAsm` in the pointwise Jacobian of a DMPlex's
  `PetscDS`

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`, with one field and its `PetscDS` Jacobian set

  Output Parameters:
+ found   - whether the Jacobian is one of the built-in physics
. physics - which (`PETSCWARP_PHYSICS_LAPLACE`: g3 = kappa I for a scalar field; `PETSCWARP_PHYSICS_ELASTICITY`:
            g3 of isotropic linear elasticity with constant lambda, mu for a field of dim components)
. coef    - kappa (LAPLACE), or lambda and mu (ELASTICITY); may be `NULL`
- why     - when not found, the reason (a buffer of `len` characters; may be `NULL`)

  Level: intermediate

  Note:
  The pointwise function g3 is evaluated at 8 pseudo-random states, gradients, points and times; the physics is
  recognised only when g0, g1 and g2 are absent, there are no boundary (face) Jacobians, and g3 has the built-in form
  with the same constants at every probe. A Jacobian that depends on the state (a nonlinear problem) or on the point is
  not recognised.

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpRecognizeResidual()`, `DMPlexWarpAsmCreate()`, `PetscDSSetJacobian()`
@*/
PetscErrorCode DMPlexWarpRecognizePhysics(DM dm, PetscBool *found, PetscWarpPhysics *physics, PetscReal coef[], char why[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(DMPlexWarpRecognizeJacobian_Private(dm, PETSC_FALSE, found, physics, coef, NULL, why, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the pointwise function of kind k has a single function on the whole domain (key NULL, 0, 0, 0) or none */
static PetscErrorCode SingleKey(PetscWeakForm wf, PetscWeakFormKind k, PetscBool *ok)
{
  PetscFormKey *keys;
  PetscInt      n;

  PetscFunctionBegin;
  PetscCall(PetscWeakFormGetKeys(wf, k, &n, &keys));
  *ok = (PetscBool)(n == 0 || (n == 1 && !keys[0].label && keys[0].value == 0 && keys[0].field == 0 && keys[0].part == 0));
  PetscCall(PetscFree(keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The Neumann fluxes of the natural boundaries (DMAddBoundary() with DM_BC_NATURAL): for each of their label values, the
  boundary f0 of the boundary's weak form (PetscWeakFormSetIndexBdResidual()) probed at pseudo-random states, gradients,
  points, normals and times; recognised when each is a constant and there is no boundary f1. *ok is false otherwise,
  with the reason. With flux, the list of the (label, value, constant) of every boundary f0 (to free).
*/
PetscErrorCode DMPlexWarpRecognizeBoundary_Private(DM dm, PetscBool *ok, PetscInt *nflux, DMPlexWarpBdFlux **flux, char reason[], size_t len)
{
  PetscDS            ds;
  PetscInt           dim, nc, nbd, n = 0, nmax = 0, nconst;
  const PetscScalar *constants;
  DMPlexWarpBdFlux  *list = NULL;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(CheckField(dm, &ds, &dim, &nc, reason, len));
  if (!nc) {
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscDSGetConstants(ds, &nconst, &constants));
  PetscCall(PetscDSGetNumBoundary(ds, &nbd));
  for (PetscInt b = 0; b < nbd; b++) {
    DMBoundaryConditionType type;
    PetscWeakForm           wf;
    PetscInt                nv;

    PetscCall(PetscDSGetBoundary(ds, b, &wf, &type, NULL, NULL, &nv, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    if (type & DM_BC_NATURAL) nmax += nv;
  }
  if (flux) PetscCall(PetscCalloc1(nmax, &list));
  for (PetscInt b = 0; b < nbd && *ok; b++) {
    DMBoundaryConditionType type;
    PetscWeakForm           wf;
    DMLabel                 label;
    const char             *name;
    const PetscInt         *values;
    PetscInt                nv, field, nk;

    PetscCall(PetscDSGetBoundary(ds, b, &wf, &type, &name, &label, &nv, &values, &field, NULL, NULL, NULL, NULL, NULL));
    if (!(type & DM_BC_NATURAL) || !wf) continue;
    PetscCall(NumKeys(wf, PETSC_WF_BDF1, &nk));
    if (nk || field != 0) {
      PetscCall(PetscSNPrintf(reason, len, "the natural boundary %s has %s", name, nk ? "a boundary f1 (only a constant boundary f0 is recognised)" : "a field other than 0"));
      *ok = PETSC_FALSE;
      break;
    }
    for (PetscInt v = 0; v < nv && *ok; v++) {
      const PetscInt   uOff[2] = {0, nc}, uOff_x[2] = {0, nc * dim};
      PetscInt         n0, n1;
      PetscBdPointFn **f0, **f1;
      PetscReal        g[3] = {0, 0, 0};
      unsigned         seed = 24680u;

      PetscCall(PetscWeakFormGetBdResidual(wf, label, values[v], field, 0, &n0, &f0, &n1, &f1));
      if (!n0) continue; /* no flux: nothing to integrate */
      if (n0 > 1 || n1) {
        PetscCall(PetscSNPrintf(reason, len, "the natural boundary %s, value %" PetscInt_FMT ", has %" PetscInt_FMT " boundary f0 and %" PetscInt_FMT " f1 (one constant f0 is recognised)", name, values[v], n0, n1));
        *ok = PETSC_FALSE;
        break;
      }
      for (PetscInt k = 0; k < NPROBES && *ok; k++) {
        ProbeState  p;
        PetscReal   nrm[3] = {0, 0, 0}, s = 0;
        PetscScalar r[3] = {0, 0, 0}, a[1] = {0};

        ProbeNext(&seed, dim, nc, &p);
        for (PetscInt d = 0; d < dim; d++) nrm[d] = Probe(&seed) + (d == 0 ? 2.0 : 0.0), s += nrm[d] * nrm[d];
        for (PetscInt d = 0; d < dim; d++) nrm[d] /= PetscSqrtReal(s);
        f0[0](dim, 1, 0, uOff, uOff_x, p.u, p.u_t, p.u_x, NULL, NULL, a, a, a, p.t, p.x, nrm, nconst, constants, r);
        for (PetscInt c = 0; c < nc && *ok; c++) {
          if (k == 0) g[c] = PetscRealPart(r[c]);
          if (PetscAbsScalar(r[c] - g[c]) > 1e-12 * PetscMax(1.0, PetscAbsReal(g[c]))) *ok = PETSC_FALSE;
        }
      }
      if (!*ok) PetscCall(PetscSNPrintf(reason, len, "the boundary f0 of the natural boundary %s, value %" PetscInt_FMT ", is not a constant (it depends on the state, its gradient, the point, the normal or the time)", name, values[v]));
      else if (list) {
        list[n].label = label;
        list[n].value = values[v];
        for (PetscInt c = 0; c < 3; c++) list[n].g[c] = g[c];
        n++;
      }
    }
  }
  if (!*ok) PetscCall(PetscFree(list));
  if (nflux) *nflux = *ok ? n : 0;
  if (flux) *flux = list;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpRecognizeResidual - Recognizes the pointwise residual of a DMPlex's `PetscDS` as the residual of a built-in
  physics of `PetscWarpAsm` (the one its Jacobian was recognised as), with a constant source and a mass term

  Not Collective

  Input Parameters:
+ dm      - the `DMPLEX`, with one field and its `PetscDS` residual set
. physics - the physics of the Jacobian (`DMPlexWarpRecognizePhysics()`)
. coef    - its coefficients: kappa (LAPLACE), or lambda and mu (ELASTICITY)
- mass    - the coefficient c of the mass term f0 = c u_t + ... (time stepping: g0 = c u_tShift), 0 for a steady problem

  Output Parameters:
+ found  - whether the residual is the physics' one: f1 = kappa u_x (LAPLACE) or the stress
           mu (u_x + u_x^T) + lambda div(u) I (ELASTICITY), and f0 = mass u_t + f with f constant
. f0     - f, one value per component (3 values at most; may be `NULL`)
- why    - when not found, the reason (a buffer of `len` characters; may be `NULL`)

  Level: intermediate

  Notes:
  f0 and f1 are evaluated at 8 pseudo-random states, time derivatives, gradients, points and times. Natural (Neumann)
  boundary conditions (`DMAddBoundary()` with `DM_BC_NATURAL`) are recognised when the boundary f0 of each of their
  label values (`PetscWeakFormSetIndexBdResidual()` on the boundary's weak form) is a constant flux (probed the same way,
  with random normals) and there is no boundary f1; a natural condition without a boundary f0 (the homogeneous flux)
  needs nothing. Refused as well: residual functions on labelled regions or several functions per term
  (`PetscWeakForm`), boundary integrals on the `PetscDS`'s own weak form (`PetscDSSetBdResidual()`), and auxiliary
  fields.

.seealso: `DMPlexWarpRecognizePhysics()`, `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`,
          `PetscWarpAsmComputeResidualLocal()`, `PetscDSSetResidual()`
@*/
PetscErrorCode DMPlexWarpRecognizeResidual(DM dm, PetscWarpPhysics physics, const PetscReal coef[], PetscReal mass, PetscBool *found, PetscReal f0[], char why[], size_t len)
{
  PetscDS            ds;
  PetscWeakForm      wf;
  PetscInt           dim, nc, naux, nconst;
  PetscPointFn      *ff0, *ff1;
  const PetscScalar *constants;
  char               reason[256] = "";
  PetscReal          fc[3]       = {0, 0, 0};
  PetscBool          ok, k0, k1, bd;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(coef, 3);
  PetscAssertPointer(found, 5);
  *found = PETSC_FALSE;
  PetscCall(CheckField(dm, &ds, &dim, &nc, reason, sizeof(reason)));
  ok = (PetscBool)(nc > 0);
  if (ok && nc != (physics == PETSCWARP_PHYSICS_LAPLACE ? 1 : dim)) {
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "%" PetscInt_FMT " components for %s", nc, physics == PETSCWARP_PHYSICS_LAPLACE ? "the Laplacian" : "elasticity"));
    ok = PETSC_FALSE;
  }
  if (ok) {
    PetscCall(PetscDSGetWeakForm(ds, &wf));
    PetscCall(SingleKey(wf, PETSC_WF_F0, &k0));
    PetscCall(SingleKey(wf, PETSC_WF_F1, &k1));
    if (!k0 || !k1) {
      PetscCall(PetscStrncpy(reason, "residual functions on labelled regions or for other parts (PetscWeakForm keys)", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    PetscInt       n0, n1;
    PetscPointFn **a0, **a1;

    PetscCall(PetscWeakFormGetResidual(wf, NULL, 0, 0, 0, &n0, &a0, &n1, &a1));
    if (n0 > 1 || n1 > 1) {
      PetscCall(PetscSNPrintf(reason, sizeof(reason), "%" PetscInt_FMT " f0 and %" PetscInt_FMT " f1 functions (one of each at most)", n0, n1));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    PetscCall(HasBoundaryForms(ds, PETSC_WF_BDF0, PETSC_WF_BDF1, PETSC_FALSE, &bd));
    if (bd) {
      PetscCall(PetscStrncpy(reason, "boundary (face) residual integrals on the PetscDS's own weak form (PetscDSSetBdResidual()); Neumann fluxes are recognised on the weak form of a DM_BC_NATURAL boundary", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) PetscCall(DMPlexWarpRecognizeBoundary_Private(dm, &ok, NULL, NULL, reason, sizeof(reason)));
  if (ok) {
    PetscCall(DMGetNumAuxiliaryVec(dm, &naux));
    if (naux) {
      PetscCall(PetscStrncpy(reason, "auxiliary fields", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    PetscCall(PetscDSGetResidual(ds, 0, &ff0, &ff1));
    if (!ff1) {
      PetscCall(PetscStrncpy(reason, "no f1 (the flux of the Jacobian's physics is missing from the residual)", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    const PetscInt  uOff[2] = {0, nc}, uOff_x[2] = {0, nc * dim};
    const PetscReal kappa = coef[0], lambda = coef[0], mu = physics == PETSCWARP_PHYSICS_ELASTICITY ? coef[1] : 0.0;
    PetscScalar     r0[3], r1[9], a[1]                    = {0};
    ProbeState      p;
    unsigned        seed = 54321u;

    PetscCall(PetscDSGetConstants(ds, &nconst, &constants));
    for (PetscInt k = 0; k < NPROBES && ok; k++) {
      PetscReal scale = 0.0;

      ProbeNext(&seed, dim, nc, &p);
      for (PetscInt i = 0; i < nc * dim; i++) r1[i] = 0.0;
      ff1(dim, 1, 0, uOff, uOff_x, p.u, p.u_t, p.u_x, NULL, NULL, a, a, a, p.t, p.x, nconst, constants, r1);
      for (PetscInt c = 0; c < nc && ok; c++)
        for (PetscInt d = 0; d < dim && ok; d++) {
          PetscScalar v;

          if (physics == PETSCWARP_PHYSICS_LAPLACE) v = kappa * p.u_x[d];
          else {
            PetscScalar div = 0.0;
            for (PetscInt e = 0; e < dim; e++) div += p.u_x[e * dim + e];
            v = mu * (p.u_x[c * dim + d] + p.u_x[d * dim + c]) + (c == d ? lambda * div : 0.0);
          }
          scale = PetscMax(scale, PetscAbsScalar(v));
          if (PetscAbsScalar(r1[c * dim + d] - v) > 1e-12 * PetscMax(1.0, 10 * scale)) ok = PETSC_FALSE;
        }
      if (!ok) {
        PetscCall(PetscSNPrintf(reason, sizeof(reason), "f1 is not the flux of the Jacobian's physics (%s)", physics == PETSCWARP_PHYSICS_LAPLACE ? "kappa u_x" : "mu (u_x + u_x^T) + lambda div(u) I"));
        break;
      }
      for (PetscInt c = 0; c < nc; c++) r0[c] = 0.0;
      if (ff0) ff0(dim, 1, 0, uOff, uOff_x, p.u, p.u_t, p.u_x, NULL, NULL, a, a, a, p.t, p.x, nconst, constants, r0);
      for (PetscInt c = 0; c < nc && ok; c++) {
        PetscReal v = PetscRealPart(r0[c] - mass * p.u_t[c]);

        if (k == 0) fc[c] = v;
        if (PetscAbsReal(v - fc[c]) > 1e-12 * PetscMax(1.0, PetscAbsReal(fc[c]) + PetscAbsReal(mass) * 10)) ok = PETSC_FALSE;
      }
      if (!ok) PetscCall(PetscSNPrintf(reason, sizeof(reason), "f0 is not %sa constant (it depends on the state, its gradient%s, the point or the time)", mass != 0.0 ? "c u_t + " : "", mass != 0.0 ? "" : ", u_t"));
    }
  }
  if (ok) {
    *found = PETSC_TRUE;
    if (f0)
      for (PetscInt c = 0; c < 3; c++) f0[c] = c < nc ? fc[c] : 0.0;
  }
  if (why && len) PetscCall(PetscStrncpy(why, ok ? "" : reason, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
