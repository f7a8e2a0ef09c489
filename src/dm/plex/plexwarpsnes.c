/*
  The DMPlex hook: SNES Jacobians of a DMPlex + PetscFE problem assembled by PetscWarpAsm (on the device when there is
  one) instead of PETSc's closure-by-closure host assembly, for the PetscDS pointwise Jacobians that match a built-in
  physics. The residual stays PETSc's own (DMPlexSNESComputeResidualFEM()).
*/
#include <petscwarp.h>
#include <petscdmplex.h>
#include <petscsnes.h>
#include <petscds.h>

#define HOOK_NAME "DMPlexWarpSNES"

typedef struct {
  PetscWarpAsm     wa;
  PetscWarpPhysics physics;
  PetscReal        coef[2]; /* LAPLACE: kappa; ELASTICITY: lambda, mu */
  PetscBool        check;   /* compare the first Jacobian with PETSc's */
  PetscBool        checked;
  PetscBool        warned;
  PetscInt         ndevice, nhost; /* Jacobians assembled by PetscWarpAsm, by PETSc */
} DMPlexWarpSNES;

static PetscErrorCode HookDestroy(PetscCtxRt ctx)
{
  DMPlexWarpSNES *h = *(DMPlexWarpSNES **)ctx;

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmDestroy(&h->wa));
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Deterministic pseudo-random numbers in [-1, 1] for the probes */
static PetscReal Probe(unsigned *s)
{
  *s = *s * 1664525u + 1013904223u;
  return 2.0 * (PetscReal)(*s >> 8) / (PetscReal)(1u << 24) - 1.0;
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
  recognised only when g0, g1 and g2 are absent and g3 has the built-in form with the same constants at every probe.
  A Jacobian that depends on the state (a nonlinear problem) or on the point is not recognised.

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpAsmCreate()`, `PetscDSSetJacobian()`
@*/
PetscErrorCode DMPlexWarpRecognizePhysics(DM dm, PetscBool *found, PetscWarpPhysics *physics, PetscReal coef[], char why[], size_t len)
{
  PetscDS            ds;
  PetscInt           nf, dim, nc, nconst;
  PetscObject        disc;
  PetscClassId       id;
  PetscPointJacFn   *g0, *g1, *g2, *g3;
  const PetscScalar *constants;
  char               reason[256] = "";
  PetscReal          c0 = 0, c1 = 0;
  PetscBool          ok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(found, 2);
  PetscAssertPointer(physics, 3);
  *found   = PETSC_FALSE;
  *physics = PETSCWARP_PHYSICS_LAPLACE;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetNumFields(ds, &nf));
  if (nf != 1) {
    PetscCall(PetscSNPrintf(reason, sizeof(reason), "%" PetscInt_FMT " fields (one is supported)", nf));
    ok = PETSC_FALSE;
  }
  if (ok) {
    PetscCall(PetscDSGetDiscretization(ds, 0, &disc));
    PetscCall(PetscObjectGetClassId(disc, &id));
    if (id != PETSCFE_CLASSID) {
      PetscCall(PetscStrncpy(reason, "the field is not a PetscFE", sizeof(reason)));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    PetscCall(PetscFEGetNumComponents((PetscFE)disc, &nc));
    PetscCall(PetscDSGetJacobian(ds, 0, 0, &g0, &g1, &g2, &g3));
    if (g0 || g1 || g2 || !g3) {
      PetscCall(PetscSNPrintf(reason, sizeof(reason), "the Jacobian has %s%s%s%s (only g3 is recognised)", g0 ? "g0 " : "", g1 ? "g1 " : "", g2 ? "g2 " : "", !g3 ? "no g3" : ""));
      ok = PETSC_FALSE;
    } else if (nc != 1 && nc != dim) {
      PetscCall(PetscSNPrintf(reason, sizeof(reason), "%" PetscInt_FMT " components (1 or %" PetscInt_FMT ")", nc, dim));
      ok = PETSC_FALSE;
    }
  }
  if (ok) {
    const PetscInt n = nc * nc * dim * dim, uOff[2] = {0, nc}, uOff_x[2] = {0, nc * dim};
    PetscScalar    u[3], u_t[3], u_x[9], g[81], a[1] = {0};
    PetscReal      x[3];
    unsigned       seed = 12345u;

    PetscCall(PetscDSGetConstants(ds, &nconst, &constants));
    for (PetscInt p = 0; p < 8 && ok; p++) {
      for (PetscInt k = 0; k < nc; k++) u[k] = 10 * Probe(&seed), u_t[k] = Probe(&seed);
      for (PetscInt k = 0; k < nc * dim; k++) u_x[k] = 10 * Probe(&seed);
      for (PetscInt d = 0; d < dim; d++) x[d] = 5 * Probe(&seed);
      for (PetscInt k = 0; k < n; k++) g[k] = 0.0;
      g3(dim, 1, 0, uOff, uOff_x, u, u_t, u_x, NULL, NULL, a, a, a, Probe(&seed), 0.0, x, nconst, constants, g);
      if (nc == 1) { /* kappa I */
        if (p == 0) c0 = PetscRealPart(g[0]);
        for (PetscInt d = 0; d < dim && ok; d++)
          for (PetscInt e = 0; e < dim && ok; e++)
            if (PetscAbsScalar(g[d * dim + e] - (d == e ? c0 : 0.0)) > 1e-12 * PetscMax(1.0, PetscAbsReal(c0))) ok = PETSC_FALSE;
        if (!ok) PetscCall(PetscStrncpy(reason, "g3 of the scalar field is not a constant multiple of the identity", sizeof(reason)));
      } else { /* g3[fc][gc][df][dg] = mu (d_cg d_de + d_ce d_dg) + lambda d_cd d_ge */
        if (p == 0) {
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
  if (why && len) PetscCall(PetscStrncpy(why, ok ? "" : reason, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembler, made at the first Jacobian (the section is final by then) */
static PetscErrorCode HookGetAsm(DM dm, DMPlexWarpSNES *h)
{
  PetscFunctionBegin;
  if (h->wa) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMPlexWarpAsmCreate(dm, h->physics, &h->wa));
  if (h->physics == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscWarpAsmSetLaplace(h->wa, PETSCWARP_COEF_CONSTANT, h->coef[0], NULL));
  else PetscCall(PetscWarpAsmSetElasticity(h->wa, h->coef[0], h->coef[1]));
  PetscCall(PetscWarpAsmSetStrategy(h->wa, PETSCWARP_ASM_ATOMIC)); /* the fastest on the H100 for every case measured (bench/RESULTS.md) */
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)h->wa, ((PetscObject)dm)->prefix));
  PetscCall(PetscWarpAsmSetFromOptions(h->wa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether PetscWarpAsm can fill this matrix */
static PetscErrorCode Supported(Mat A, PetscBool *ok)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscObjectBaseTypeCompare((PetscObject)A, MATSEQAIJ, ok));
  if (size > 1) *ok = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckAgainstPETSc(DM dm, Vec Xloc, Mat A)
{
  Mat       D, R;
  PetscReal nd, nr;

  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &D)); /* the values pulled from the device once */
  PetscCall(MatDuplicate(D, MAT_DO_NOT_COPY_VALUES, &R));
  PetscCall(DMPlexSNESComputeJacobianFEM(dm, Xloc, R, R, NULL));
  PetscCall(MatNorm(R, NORM_FROBENIUS, &nr));
  PetscCall(MatAXPY(D, -1.0, R, SAME_NONZERO_PATTERN));
  PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
  PetscCall(MatDestroy(&D));
  PetscCall(MatDestroy(&R));
  PetscCall(PetscInfo(dm, "-dm_plex_warp_check: |J_warp - J_PETSc|_F / |J_PETSc|_F = %g\n", (double)(nr > 0 ? nd / nr : nd)));
  PetscCheck(nd <= 1e-10 * nr, PetscObjectComm((PetscObject)dm), PETSC_ERR_PLIB, "The device Jacobian differs from PETSc's: relative Frobenius difference %g", (double)(nd / nr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The local state with its boundary values, as SNESComputeJacobian_DMLocal() makes it (for PETSc's own assembly) */
static PetscErrorCode LocalState(DM dm, Vec X, Vec *Xloc)
{
  PetscFunctionBegin;
  PetscCall(DMGetLocalVector(dm, Xloc));
  PetscCall(VecZeroEntries(*Xloc));
  PetscCall(DMPlexSNESComputeBoundaryFEM(dm, *Xloc, NULL));
  PetscCall(DMGlobalToLocalBegin(dm, X, INSERT_VALUES, *Xloc));
  PetscCall(DMGlobalToLocalEnd(dm, X, INSERT_VALUES, *Xloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A global Jacobian (not a local one): the Jacobian does not depend on the state, so the local state and its boundary
   values, which PETSc's DMLocal wrapper would make at every call (a projection that costs more than the assembly:
   1 s at 120 k unknowns on one core), are made only when PETSc assembles */
static PetscErrorCode JacobianGlobal(SNES snes, Vec X, Mat J, Mat Jp, void *ctx)
{
  DMPlexWarpSNES *h = (DMPlexWarpSNES *)ctx;
  DM              dm;
  Vec             Xloc;
  PetscBool       okp, okj = PETSC_TRUE, mffd;

  PetscFunctionBegin;
  PetscCall(SNESGetDM(snes, &dm));
  PetscCall(Supported(Jp, &okp));
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATMFFD, &mffd));
  if (J != Jp && !mffd) PetscCall(Supported(J, &okj));
  if (!okp || !okj) { /* PETSc's own assembly */
    if (!h->warned)
      PetscCall(PetscInfo(dm, "Jacobian of type %s on %s: assembled by PETSc (DMPlexSNESComputeJacobianFEM); PetscWarpAsm fills one-rank AIJ types\n", ((PetscObject)Jp)->type_name, PetscObjectComm((PetscObject)Jp) == PETSC_COMM_SELF ? "one rank" : "several ranks"));
    h->warned = PETSC_TRUE;
    h->nhost++;
    PetscCall(LocalState(dm, X, &Xloc));
    PetscCall(DMPlexSNESComputeJacobianFEM(dm, Xloc, J, Jp, NULL));
    PetscCall(DMRestoreLocalVector(dm, &Xloc));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HookGetAsm(dm, h));
  PetscCall(PetscWarpAsmAssembleMatrix(h->wa, Jp));
  if (J != Jp) {
    if (mffd) {
      PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    } else PetscCall(PetscWarpAsmAssembleMatrix(h->wa, J));
  }
  h->ndevice++;
  if (h->check && !h->checked) {
    PetscCall(LocalState(dm, X, &Xloc));
    PetscCall(CheckAgainstPETSc(dm, Xloc, Jp));
    PetscCall(DMRestoreLocalVector(dm, &Xloc));
    h->checked = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetSNESLocalFEM - The counterpart of `DMPlexSetSNESLocalFEM()` whose Jacobians are assembled by `PetscWarpAsm`:
  computed and reduced on the device (or by the host twins of the kernels) straight into the values of the matrix

  Logically Collective

  Input Parameter:
. dm - a `DMPLEX` with one `PetscFE` field whose `PetscDS` Jacobian is a built-in physics (see
       `DMPlexWarpRecognizePhysics()`)

  Options Database Keys:
+ -dm_plex_warp_check <bool> - compare the first Jacobian with PETSc's `DMPlexSNESComputeJacobianFEM()` (an error when the
                               relative Frobenius difference exceeds 1e-10; the difference is printed with `-info`)
- -mat_warp_*                - the options of the assembler (`PetscWarpAsmSetFromOptions()`), with the DM's prefix;
                               the strategy defaults to atomic

  Level: intermediate

  Notes:
  Calls `DMPlexSetSNESLocalFEM()` (residual and boundary values stay PETSc's) and replaces its Jacobian (a global one,
  `DMSNESSetJacobian()`: the state and its boundary values are not needed by a state-independent Jacobian). The
  Jacobian matrix is the one `DMCreateMatrix()` makes: choose `-dm_mat_type ellwarp`, `sharednz` or `aijcusparse` for
  values on the device (and `-dm_vec_type cuda`); with `aij` the host twins assemble it. Jacobians of other types, and
  of more than one MPI rank in this version, are assembled by PETSc, which `-info` says once.

  The Jacobian must not depend on the state: linear problems, or the linear part of a Newton step.

.seealso: `DMPlexSetSNESLocalFEM()`, `DMPlexWarpRecognizePhysics()`, `DMPlexWarpGetAsm()`, `PetscWarpAsm`
@*/
PetscErrorCode DMPlexWarpSetSNESLocalFEM(DM dm)
{
  DMPlexWarpSNES *h;
  PetscBool       isplex, found;
  char            why[256];

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &isplex));
  PetscCheck(isplex, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "DMPlexWarpSetSNESLocalFEM() needs a DMPLEX, not %s", ((PetscObject)dm)->type_name);
  PetscCall(PetscNew(&h));
  PetscCall(DMPlexWarpRecognizePhysics(dm, &found, &h->physics, h->coef, why, sizeof(why)));
  if (!found) {
    PetscCall(PetscFree(h));
    SETERRQ(PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "The PetscDS's Jacobian is not a built-in physics of PetscWarpAsm: %s", why);
  }
  if (h->physics == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscInfo(dm, "Jacobians by PetscWarpAsm: Laplacian, kappa %g\n", (double)h->coef[0]));
  else PetscCall(PetscInfo(dm, "Jacobians by PetscWarpAsm: isotropic elasticity, lambda %g, mu %g\n", (double)h->coef[0], (double)h->coef[1]));
  PetscObjectOptionsBegin((PetscObject)dm);
  PetscCall(PetscOptionsBool("-dm_plex_warp_check", "Compare the first device Jacobian with PETSc's", "DMPlexWarpSetSNESLocalFEM", h->check, &h->check, NULL));
  PetscOptionsEnd();
  PetscCall(PetscObjectContainerCompose((PetscObject)dm, HOOK_NAME, h, HookDestroy)); /* replaces (and frees) an earlier one */
  PetscCall(DMPlexSetSNESLocalFEM(dm, PETSC_FALSE, NULL));
  PetscCall(DMSNESSetJacobian(dm, JacobianGlobal, h)); /* replaces the DMLocal wrapper of the Jacobian only */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpGetAsm - Gets the `PetscWarpAsm` that `DMPlexWarpSetSNESLocalFEM()` installed (made at the first call)

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`

  Output Parameter:
. wa - the assembler (owned by the DM), for `PetscWarpAsmGetInfo()`, `PetscWarpAsmView()` or settings

  Level: intermediate

.seealso: `DMPlexWarpSetSNESLocalFEM()`, `PetscWarpAsm`
@*/
PetscErrorCode DMPlexWarpGetAsm(DM dm, PetscWarpAsm *wa)
{
  DMPlexWarpSNES *h = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(wa, 2);
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, HOOK_NAME, &h));
  PetscCheck(h, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONGSTATE, "Call DMPlexWarpSetSNESLocalFEM() first");
  PetscCall(HookGetAsm(dm, h));
  *wa = h->wa;
  PetscFunctionReturn(PETSC_SUCCESS);
}
