static char help[] = "User pointwise functions on the device (issue 8): petscwarp/pointwise.cuh kernels compiled here from the same\n"
                     "__host__ __device__ functions the PetscDS holds, registered with DMPlexWarpSetPointwise(); the hook's Jacobian\n"
                     "and residual at a random state with non-zero Dirichlet values against PETSc's DMPlexSNESComputeJacobianFEM /\n"
                     "ResidualFEM (max entry difference / relative difference < 1e-12), then Newton solves with the same iteration\n"
                     "counts and solutions as PETSc's path with -dm_mat_type aij.\n"
                     "  -problems nonlinear,linear,vector  -div((1+u^2) grad u) + u^3 = f (g0, g2, g3); c u - div(K grad u) = f with a\n"
                     "            non-symmetric K from the PetscDS's constants (g0, g3); a 2-component nonlinear problem with advection\n"
                     "            (g0, g1, g2, g3)\n"
                     "  -degrees 1,2  -types aij,ellwarp,...  -refusals (the checks of the registration); mesh: -dm_plex_* options,\n"
                     "  -perturb amp (vertices displaced: non-affine cells)\n"
                     "Compiled by nvcc with CUDA (device kernels and host twins), else as C++ (host twins only).\n";

#include <petscwarp/pointwise.cuh>
#include <petscsnes.h>
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

/* ---- the problems ---- */
typedef enum {
  PROB_NONLINEAR,
  PROB_LINEAR,
  PROB_VECTOR
} Problem;
static const char *const Problems[] = {"nonlinear", "linear", "vector"};

static PetscErrorCode bc(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = 0.3 + 0.2 * x[0] - 0.1 * x[1] + 0.05 * c;
  return PETSC_SUCCESS;
}

/* The DM of a problem: PETSc's path (hook false: DMPlexSetSNESLocalFEM(), aij) or petscwarp's (the pointwise kernels
   registered, DMPlexWarpSetSNESLocalFEM(), matrix type mt); wrongds: the PetscDS's g3 differs from the compiled one */
static PetscErrorCode CreateDM(Problem p, PetscInt degree, PetscBool hook, MatType mt, PetscBool wrongds, DM *dm)
{
  PetscInt                  dim, cStart, cEnd, id = 1;
  DMPolytopeType            ct = DM_POLYTOPE_UNKNOWN;
  PetscFE                   fe;
  PetscDS                   ds;
  DMLabel                   label;
  const PetscWarpPointwise *pw      = p == PROB_NONLINEAR ? &pw_nonlinear : p == PROB_LINEAR ? &pw_linear : &pw_vector;
  const PetscScalar         cst[10] = {0.8, 2.0, 0.5, 0.1, -0.3, 1.5, 0.2, 0.05, -0.1, 1.2};

  PetscFunctionBegin;
  PetscCall(TestPlexCreate(PETSC_COMM_WORLD, dm));
  { /* -perturb amp: non-affine quadrilaterals and hexahedra (the points x and the geometry per quadrature point) */
    PetscReal amp = 0.0;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-perturb", &amp, NULL));
    PetscCall(TestPerturbCoordinates(*dm, amp, PETSC_MAX_REAL));
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
  PetscCall(PetscFECreateLagrange(PETSC_COMM_SELF, dim, p == PROB_VECTOR ? 2 : 1, DMPolytopeTypeGetNumVertices(ct) == dim + 1 ? PETSC_TRUE : PETSC_FALSE, degree, PETSC_DETERMINE, &fe));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
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
  }
  PetscCall(DMCreateLabel(*dm, "marker"));
  PetscCall(DMGetLabel(*dm, "marker", &label));
  PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
  PetscCall(DMPlexLabelComplete(*dm, label));
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)bc, NULL, NULL, NULL));
  PetscCall(DMSetMatType(*dm, hook ? mt : MATAIJ));
  if (hook) {
    PetscCall(DMPlexWarpSetPointwise(*dm, pw));
    PetscCall(DMPlexWarpSetSNESLocalFEM(*dm));
  } else PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the values of a global vector of one DM into one of another (their types may differ) */
static PetscErrorCode CopyValues(Vec from, Vec to)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscCall(VecRestoreArrayWrite(to, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The SNES function and Jacobian of a DM at X */
static PetscErrorCode Evaluate(DM dm, Vec X, Vec F, Mat J)
{
  SNES snes;

  PetscFunctionBegin;
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESComputeFunction(snes, X, F));
  PetscCall(SNESComputeJacobian(snes, X, J, J));
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Jacobian and residual of the hook's DM against PETSc's at a random state */
static PetscErrorCode Compare(DM dmw, DM dmp, PetscRandom rnd, const char *what)
{
  Vec       Xw, Xp, Fw, Fp;
  Mat       Jw, Jp;
  PetscReal ej, er;
  PetscInt  nj, nr;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dmp, &Xp));
  PetscCall(DMCreateGlobalVector(dmw, &Xw));
  PetscCall(VecSetRandom(Xp, rnd));
  PetscCall(VecShift(Xp, -0.5));
  PetscCall(CopyValues(Xp, Xw));
  PetscCall(VecDuplicate(Xp, &Fp));
  PetscCall(VecDuplicate(Xw, &Fw));
  PetscCall(DMCreateMatrix(dmp, &Jp));
  PetscCall(DMCreateMatrix(dmw, &Jw));
  PetscCall(Evaluate(dmp, Xp, Fp, Jp));
  PetscCall(Evaluate(dmw, Xw, Fw, Jw));
  PetscCall(TestEntryDifference(Jw, Jp, &ej));
  {
    Vec Fc;
    PetscCall(VecDuplicate(Fp, &Fc));
    PetscCall(CopyValues(Fw, Fc));
    PetscCall(VecRelativeDifference(Fc, Fp, &er));
    PetscCall(VecDestroy(&Fc));
  }
  PetscCall(DMPlexWarpGetPointwiseCount(dmw, &nj, &nr));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: Jacobian (%s) max entry diff. %.1e, residual rel. diff. %.1e (pointwise kernels: %" PetscInt_FMT " Jacobian, %" PetscInt_FMT " residual)\n", what, ((PetscObject)Jw)->type_name, (double)ej, (double)er, nj, nr));
  PetscCheck(ej < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the Jacobian differs from PETSc's: max entry difference %g", what, (double)ej);
  PetscCheck(er < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the residual differs from PETSc's: relative difference %g", what, (double)er);
  PetscCheck(nj == 1 && nr == 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " Jacobians and %" PetscInt_FMT " residuals by the pointwise kernels, expected 1 and 1", what, nj, nr);
  PetscCall(VecDestroy(&Xw));
  PetscCall(VecDestroy(&Xp));
  PetscCall(VecDestroy(&Fw));
  PetscCall(VecDestroy(&Fp));
  PetscCall(MatDestroy(&Jw));
  PetscCall(MatDestroy(&Jp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A Newton solve from u = 0: iterations and solution */
static PetscErrorCode Solve(DM dm, PetscInt *its, Vec *u)
{
  SNES snes;
  KSP  ksp;
  PC   pc;

  PetscFunctionBegin;
  PetscCall(DMCreateGlobalVector(dm, u));
  PetscCall(VecSet(*u, 0.0));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESSetTolerances(snes, PETSC_CURRENT, 1e-10, PETSC_CURRENT, 30, PETSC_CURRENT));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-13, 1e-50, PETSC_CURRENT, 2000));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(SNESSolve(snes, NULL, *u));
  PetscCall(SNESGetIterationNumber(snes, its));
  {
    SNESConvergedReason reason;
    PetscCall(SNESGetConvergedReason(snes, &reason));
    PetscCheck(reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "Newton did not converge (%s)", SNESConvergedReasons[reason]);
  }
  PetscCall(SNESDestroy(&snes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the registration refuses: a PetscDS whose function differs from the compiled one; a registration after the hook */
static PetscErrorCode Refusals(void)
{
  DM dm;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Refusals:\n"));
  EXPECT_ERROR(CreateDM(PROB_NONLINEAR, 1, PETSC_TRUE, MATAIJ, PETSC_TRUE, &dm), "a PetscDS g3 other than the compiled one");
  PetscCall(DMDestroy(&dm));
  PetscCall(CreateDM(PROB_LINEAR, 1, PETSC_TRUE, MATAIJ, PETSC_FALSE, &dm));
  EXPECT_ERROR(DMPlexWarpSetPointwise(dm, &pw_linear), "DMPlexWarpSetPointwise() after the hook");
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscBool   skip, device, flg, refusals = PETSC_FALSE;
  char       *types[8], *plist[3];
  PetscInt    nt = 8, np = 3, degrees[4] = {1, 2}, nd = 4;
  PetscRandom rnd;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-degrees", degrees, &nd, &flg));
  if (!flg) nd = 2;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-problems", plist, &np, &flg));
  if (!flg) {
    np = 3;
    for (PetscInt i = 0; i < np; i++) PetscCall(PetscStrallocpy(Problems[i], &plist[i]));
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-refusals", &refusals, NULL));
  PetscCall(TestGetTypes(device, types, &nt));
  PetscCall(TestRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Pointwise kernels %s device launchers\n", pw_nonlinear.jacobian_device ? "with" : "without (host compiler)"));
  for (PetscInt ip = 0; ip < np; ip++) {
    Problem p = PROB_NONLINEAR;
    for (int k = 0; k < 3; k++) {
      PetscBool same;
      PetscCall(PetscStrcmp(plist[ip], Problems[k], &same));
      if (same) p = (Problem)k;
    }
    for (PetscInt id = 0; id < nd; id++) {
      DM       dmp;
      Vec      up;
      PetscInt itsp;

      PetscCall(CreateDM(p, degrees[id], PETSC_FALSE, MATAIJ, PETSC_FALSE, &dmp));
      PetscCall(Solve(dmp, &itsp, &up));
      for (PetscInt it = 0; it < nt; it++) {
        DM        dmw;
        Vec       uw, uc;
        PetscInt  itsw;
        PetscReal e;
        char      what[128];

        PetscCall(PetscSNPrintf(what, sizeof(what), "%s P%" PetscInt_FMT " %s", Problems[p], degrees[id], types[it]));
        PetscCall(CreateDM(p, degrees[id], PETSC_TRUE, types[it], PETSC_FALSE, &dmw));
        PetscCall(Compare(dmw, dmp, rnd, what));
        PetscCall(Solve(dmw, &itsw, &uw));
        PetscCall(VecDuplicate(up, &uc));
        PetscCall(CopyValues(uw, uc));
        PetscCall(VecRelativeDifference(uc, up, &e));
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: Newton %" PetscInt_FMT " iterations (PETSc aij: %" PetscInt_FMT "), solutions differ by %.1e\n", what, itsw, itsp, (double)e));
        PetscCheck(itsw == itsp, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %" PetscInt_FMT " Newton iterations, PETSc's path %" PetscInt_FMT, what, itsw, itsp);
        PetscCheck(e < 1e-8, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the solutions differ by %g", what, (double)e);
        PetscCall(VecDestroy(&uc));
        PetscCall(VecDestroy(&uw));
        PetscCall(DMDestroy(&dmw));
      }
      PetscCall(VecDestroy(&up));
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
