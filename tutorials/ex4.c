static char help[] = "petscwarp tutorial 4: the heart application of Wong, Kuhl and Darve (seeds/004): the Aliev-Panfilov monodomain model\n"
                     "  dV/dt = div(D grad V) + c V (V - alpha)(1 - V) - r V + I_stim,   dr/dt = (gamma + mu1 r/(mu2 + V)) (-r - c V (V - b - 1))\n"
                     "on a tetrahedral ellipsoidal shell (the idealised left ventricle bench/meshes/shell_tet.msh, mm; -dm_refine),\n"
                     "D = diso I + dani n n^T with fibres n turning from +60 degrees (endocardium) to -60 (epicardium), a stimulus\n"
                     "current at the apex for the first time unit, P1 elements with one quadrature point per cell, backward Euler with\n"
                     "Newton per step (CG + Jacobi), the recovery variable r kept at the quadrature points and solved there by its own\n"
                     "Newton iteration (the global-local splitting of the paper; consistent tangent: quadratic convergence). Paths:\n"
                     "  aij      PETSc's CPU path: pointwise f0, f1, g0, g3 of a PetscDS with the previous voltage, the previous\n"
                     "           recovery (piecewise constant: exact at the one point), fibres and stimulus as auxiliary fields,\n"
                     "           DMPlexSNESComputeResidualFEM/JacobianFEM into MATAIJ (any number of MPI ranks)\n"
                     "  ellwarp  petscwarp's hook, DMPlexWarpSetSNESLocalAlievPanfilov(): the model at the points, the residual and\n"
                     "           the consistent Jacobian on the GPU when there is one (VECCUDA vectors on one rank), into MATELLWARP's\n"
                     "           layout (host twins without a GPU; any number of MPI ranks, each its own cells)\n"
                     "  sharednz the same into MATSHAREDNZ (cuSPARSE CSR; GPU only)\n"
                     "Prints per path the Newton and CG iterations and the time per step split into assembly (residuals and\n"
                     "Jacobians), solve (KSPSolve) and other (the rest of SNES, accepting the step), and the agreement with aij;\n"
                     "the DM's own lazy set-up (the star forest of DMGlobalToLocal(), the first local vectors), which the first\n"
                     "residual would pay, is done before the time loop and printed apart (DM setup, seconds), and so is\n"
                     "DMCreateMatrix() (matrix, seconds: PETSc's preallocation for aij; the hook's element-to-dof map, on\n"
                     "-dm_plex_warp_threads threads, and the elements' pattern for the others).\n"
                     "  -paths a,b,...     paths (default aij,ellwarp, and sharednz with a GPU); the others are compared with the first\n"
                     "  -steps <n>         time steps (default 20)\n"
                     "  -use_ts            the petscwarp paths through a TS (TSBEULER): DMPlexWarpSetTSLocalAlievPanfilov() and one\n"
                     "                     TSSolve(), no calls in the time loop (the stimulus as a function of time); aij keeps its\n"
                     "                     SNES time loop\n"
                     "  -check             error unless every path has aij's Newton iterations at every step, CG iterations within\n"
                     "                     1 per step, and the final voltage within 1e-6 (relative, max norm)\n"
                     "  -require_device    exit with the skip code 200 (and say so) when there is no CUDA device\n"
                     "  -csv <file>        append one line per path (unknowns, ranks, path, steps, its, times per step; a header first\n"
                     "                     when the file is new)\n"
                     "  -surface <prefix>  write the epicardium (<prefix>_tri.csv: triangles; <prefix>_vert.csv: x, y, z and V at the\n"
                     "                     snapshot steps) of the last path, one rank; bench/heart_png.py makes the PNG\n"
                     "  -snapshots s1,...  steps of the snapshots (default 9,19,39,59: t = 1, 2, 4, 6 at dt 0.1)\n"
                     "Model options -heart_dt, -heart_diso, -heart_dani, -heart_stim_*, -heart_helix, -heart_c, ... (see -help);\n"
                     "SNES/KSP options as usual (defaults: -snes_rtol 1e-8 -snes_atol 1e-10 -ksp_rtol 1e-10, no line search).\n\n";

#include "heartproblem.h"
#include "plexproblem.h"
#include <petscdmplex.h>
#include <petsctime.h>

#ifndef PETSCWARP_SOURCE_DIR
  #define PETSCWARP_SOURCE_DIR "."
#endif

#define MAXSNAP 8

typedef struct {
  char           name[16];
  PetscInt       rows, newton, cg, *nits, *lits;
  PetscReal      t_asm, t_solve, t_total, err, t_setup, t_mat;
  PetscLogDouble tk;
} Result;

/* KSPSolve's time, through the pre- and post-solve hooks */
static PetscErrorCode PreSolve(KSP ksp, Vec b, Vec x, void *ctx)
{
  Result *r = (Result *)ctx;

  PetscFunctionBegin;
  PetscCall(DeviceTic(&r->tk));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PostSolve(KSP ksp, Vec b, Vec x, void *ctx)
{
  Result *r = (Result *)ctx;

  PetscFunctionBegin;
  PetscCall(DeviceTocAdd(r->tk, &r->t_solve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The epicardium ("Face Sets" 1 of the gmsh mesh): its triangles, and its vertices' coordinates and voltages at the
   snapshots (one rank) */
typedef struct {
  PetscInt   nsnap, snap[MAXSNAP], nv, *vmap; /* vmap[v - vStart]: index among the surface vertices, or -1 */
  PetscReal *V;                               /* [nv*nsnap] */
  char       prefix[PETSC_MAX_PATH_LEN];
} Surface;

static PetscErrorCode SurfaceSetUp(DM dm, Surface *s)
{
  PetscInt        vStart, vEnd, nf = 0;
  const PetscInt *faces = NULL;
  IS              is;
  FILE           *fp;
  char            name[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBegin;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(PetscMalloc1(vEnd - vStart, &s->vmap));
  for (PetscInt v = 0; v < vEnd - vStart; v++) s->vmap[v] = -1;
  PetscCall(DMGetStratumIS(dm, "Face Sets", 1, &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "The mesh has no \"Face Sets\" 1 (epicardium)");
  PetscCall(ISGetLocalSize(is, &nf));
  PetscCall(ISGetIndices(is, &faces));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_tri.csv", s->prefix));
  PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "w", &fp));
  for (PetscInt f = 0; f < nf; f++) {
    PetscInt *cl = NULL, ncl, k = 0, tri[3];
    PetscCall(DMPlexGetTransitiveClosure(dm, faces[f], PETSC_TRUE, &ncl, &cl));
    for (PetscInt i = 0; i < ncl; i++) {
      PetscInt p = cl[2 * i];
      if (p < vStart || p >= vEnd || k >= 3) continue;
      if (s->vmap[p - vStart] < 0) s->vmap[p - vStart] = s->nv++;
      tri[k++] = s->vmap[p - vStart];
    }
    PetscCall(DMPlexRestoreTransitiveClosure(dm, faces[f], PETSC_TRUE, &ncl, &cl));
    if (k == 3) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT "\n", tri[0], tri[1], tri[2]));
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscCall(ISRestoreIndices(is, &faces));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscCalloc1(s->nv * s->nsnap, &s->V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SurfaceRecord(DM dm, Vec U, PetscInt k, Surface *s)
{
  Vec                Uloc;
  PetscSection       sec;
  PetscInt           vStart, vEnd;
  const PetscScalar *u;

  PetscFunctionBegin;
  PetscCall(DMGetLocalSection(dm, &sec));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMGetLocalVector(dm, &Uloc));
  PetscCall(DMGlobalToLocal(dm, U, INSERT_VALUES, Uloc));
  PetscCall(VecGetArrayRead(Uloc, &u));
  for (PetscInt v = vStart; v < vEnd; v++) {
    PetscInt off;
    if (s->vmap[v - vStart] < 0) continue;
    PetscCall(PetscSectionGetOffset(sec, v, &off));
    s->V[s->vmap[v - vStart] * s->nsnap + k] = PetscRealPart(u[off]);
  }
  PetscCall(VecRestoreArrayRead(Uloc, &u));
  PetscCall(DMRestoreLocalVector(dm, &Uloc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SurfaceWrite(DM dm, PetscReal dt, Surface *s)
{
  Vec                X;
  PetscInt           vStart, vEnd;
  const PetscScalar *x;
  FILE              *fp;
  char               name[PETSC_MAX_PATH_LEN + 16];

  PetscFunctionBegin;
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMGetCoordinatesLocal(dm, &X));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s_vert.csv", s->prefix));
  PetscCall(PetscFOpen(PETSC_COMM_SELF, name, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "x,y,z"));
  for (PetscInt k = 0; k < s->nsnap; k++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",t=%g", (double)((s->snap[k] + 1) * dt)));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\n"));
  { /* rows in surface order */
    PetscInt *inv;
    PetscCall(PetscMalloc1(s->nv, &inv));
    for (PetscInt v = vStart; v < vEnd; v++)
      if (s->vmap[v - vStart] >= 0) inv[s->vmap[v - vStart]] = v - vStart;
    for (PetscInt i = 0; i < s->nv; i++) {
      const PetscScalar *xv = &x[3 * inv[i]];
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%.6g,%.6g,%.6g", (double)PetscRealPart(xv[0]), (double)PetscRealPart(xv[1]), (double)PetscRealPart(xv[2])));
      for (PetscInt k = 0; k < s->nsnap; k++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%.6g", (double)s->V[i * s->nsnap + k]));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "\n"));
    }
    PetscCall(PetscFree(inv));
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(PetscFree(s->vmap));
  PetscCall(PetscFree(s->V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The TS form's record of each accepted step: its Newton and CG iterations, and the snapshots */
typedef struct {
  Result  *r;
  Surface *surf;
  PetscInt ksnap, nsteps;
} StepRecord;

static PetscErrorCode PostStep(TS ts)
{
  StepRecord *rec;
  SNES        snes;
  DM          dm;
  Vec         U;
  PetscInt    n, its, lits;

  PetscFunctionBegin;
  PetscCall(TSGetApplicationContext(ts, &rec));
  PetscCall(TSGetStepNumber(ts, &n));
  n--; /* the step just taken */
  PetscCheck(n >= 0 && n < rec->nsteps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Step %" PetscInt_FMT " of %" PetscInt_FMT, n, rec->nsteps);
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetIterationNumber(snes, &its));
  PetscCall(SNESGetLinearSolveIterations(snes, &lits));
  rec->r->nits[n] = its;
  rec->r->lits[n] = lits;
  rec->r->newton += its;
  rec->r->cg += lits;
  PetscCall(TSGetDM(ts, &dm));
  PetscCall(TSGetSolution(ts, &U));
  if (rec->surf && rec->ksnap < rec->surf->nsnap && rec->surf->snap[rec->ksnap] == n) PetscCall(SurfaceRecord(dm, U, rec->ksnap++, rec->surf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The solver of every path: Newton without line search, CG + Jacobi, KSPSolve timed */
static PetscErrorCode SolverSettings(SNES snes, Result *r)
{
  KSP            ksp;
  PC             pc;
  SNESLineSearch ls;

  PetscFunctionBegin;
  PetscCall(SNESSetTolerances(snes, 1e-10, 1e-8, 0.0, 50, PETSC_CURRENT));
  PetscCall(SNESSetErrorIfNotConverged(snes, PETSC_TRUE)); /* a failed step would make every later one meaningless */
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHNONE));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscCall(KSPSetTolerances(ksp, 1e-10, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(KSPSetPreSolve(ksp, PreSolve, r));
  PetscCall(KSPSetPostSolve(ksp, PostSolve, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunPath(const HeartParams *hp, const char *path, PetscInt nsteps, PetscBool usets, Surface *surf, Vec uref, Vec *uout, Result *r)
{
  Heart          h;
  SNES           snes = NULL;
  TS             ts   = NULL;
  Mat            J;
  Vec            U;
  PetscBool      isaij;
  PetscLogDouble t0;
  PetscInt       ksnap = 0;
  StepRecord     rec   = {r, surf, 0, nsteps};

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(path, "aij", &isaij));
  usets = (PetscBool)(usets && !isaij);
  PetscCall(PetscStrncpy(r->name, path, sizeof(r->name)));
  if (usets) PetscCall(PetscStrlcat(r->name, " TS", sizeof(r->name)));
  if (usets) PetscCall(HeartCreateTS(PETSC_COMM_WORLD, hp, path, PETSCWARP_SOURCE_DIR, &h));
  else PetscCall(HeartCreate(PETSC_COMM_WORLD, hp, isaij ? NULL : path, PETSCWARP_SOURCE_DIR, &h));
  PetscCall(DeviceTic(&t0)); /* the matrix: PETSc's preallocation, or the hook's element-to-dof map and pattern */
  PetscCall(DMCreateMatrix(h.dm, &J));
  PetscCall(DeviceTocAdd(t0, &r->t_mat));
  PetscCall(DMCreateGlobalVector(h.dm, &U));
  PetscCall(VecGetSize(U, &r->rows));
  PetscCall(VecSet(U, 0.0));
  PetscCall(PetscCalloc2(nsteps, &r->nits, nsteps, &r->lits));
  { /* the DM's own lazy set-up, which the first residual would pay otherwise (any DMPlex program, every path): the
       section's star forest of DMGlobalToLocal() and the first local vectors (about 1.2 s at 1.14 M unknowns on one
       rank of the H100 machine, -log_trace: loops over the ~28 M points of the chart); timed apart, not per step */
    PetscSF sf;
    Vec     l[3];
    PetscCall(DeviceTic(&t0));
    PetscCall(DMGetSectionSF(h.dm, &sf));
    for (int k = 0; k < 3; k++) PetscCall(DMGetLocalVector(h.dm, &l[k]));
    for (int k = 0; k < 3; k++) PetscCall(DMRestoreLocalVector(h.dm, &l[k]));
    PetscCall(DeviceTocAdd(t0, &r->t_setup));
  }
  if (usets) { /* one TSSolve(): the hook accepts the steps itself */
    PetscCall(TSCreate(PETSC_COMM_WORLD, &ts));
    PetscCall(TSSetDM(ts, h.dm));
    PetscCall(TSSetType(ts, TSBEULER));
    PetscCall(TSSetIJacobian(ts, J, J, NULL, NULL));
    PetscCall(TSSetTimeStep(ts, hp->p[PETSCWARP_AP_DT]));
    PetscCall(TSSetMaxTime(ts, 1e30));
    PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
    PetscCall(TSSetApplicationContext(ts, &rec));
    PetscCall(TSSetPostStep(ts, PostStep));
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SolverSettings(snes, r));
    PetscCall(TSSetFromOptions(ts));
    PetscCall(TSSetMaxSteps(ts, nsteps)); /* after the options: -steps, as the SNES loop's */
    PetscCall(DeviceTic(&t0));
    PetscCall(TSSolve(ts, U));
    PetscCall(DeviceTocAdd(t0, &r->t_total));
    snes = NULL; /* the TS's */
  } else {
    PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
    PetscCall(SNESSetDM(snes, h.dm));
    PetscCall(SNESSetJacobian(snes, J, J, NULL, NULL));
    PetscCall(SolverSettings(snes, r));
    PetscCall(SNESSetFromOptions(snes));
  }
  for (PetscInt n = 0; n < nsteps && !usets; n++) {
    PetscInt its, lits;
    PetscCall(HeartSetStep(&h, n));
    PetscCall(DeviceTic(&t0));
    PetscCall(SNESSolve(snes, NULL, U));
    PetscCall(HeartAdvance(&h, U));
    PetscCall(DeviceTocAdd(t0, &r->t_total));
    PetscCall(SNESGetIterationNumber(snes, &its));
    PetscCall(SNESGetLinearSolveIterations(snes, &lits));
    r->nits[n] = its;
    r->lits[n] = lits;
    r->newton += its;
    r->cg += lits;
    if (surf && ksnap < surf->nsnap && surf->snap[ksnap] == n) PetscCall(SurfaceRecord(h.dm, U, ksnap++, surf));
  }
  r->t_asm = h.t_asm;
  { /* the slowest rank's times */
    PetscReal t[5] = {r->t_asm, r->t_solve, r->t_total, r->t_setup, r->t_mat}, tm[5];
    PetscCallMPI(MPIU_Allreduce(t, tm, 5, MPIU_REAL, MPIU_MAX, PETSC_COMM_WORLD));
    r->t_asm = tm[0], r->t_solve = tm[1], r->t_total = tm[2], r->t_setup = tm[3], r->t_mat = tm[4];
  }
  if (surf) PetscCall(SurfaceWrite(h.dm, hp->p[PETSCWARP_AP_DT], surf));
  if (uref) PetscCall(VecRelativeDifferenceNorm(U, uref, NORM_INFINITY, &r->err));
  if (uout) {
    PetscCall(VecDuplicate(U, uout));
    PetscCall(VecCopy(U, *uout));
  }
  PetscCall(VecDestroy(&U));
  PetscCall(MatDestroy(&J));
  PetscCall(SNESDestroy(&snes));
  PetscCall(TSDestroy(&ts));
  PetscCall(HeartDestroy(&h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       *paths[8], csv[PETSC_MAX_PATH_LEN];
  PetscInt    npaths = 8, nsteps = 20;
  PetscBool   set, device, check = PETSC_FALSE, require = PETSC_FALSE, surfset, usets = PETSC_FALSE;
  HeartParams hp;
  Result      res[8];
  Vec         uref = NULL;
  Surface     surf;
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMemzero(res, sizeof(res)));
  PetscCall(PetscMemzero(&surf, sizeof(surf)));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Tutorial 4: the heart", NULL);
  PetscCall(PetscOptionsBool("-require_device", "skip (exit 200) without a CUDA device", NULL, require, &require, NULL));
  PetscCall(PetscOptionsInt("-steps", "time steps", NULL, nsteps, &nsteps, NULL));
  PetscCall(PetscOptionsBool("-use_ts", "the petscwarp paths through a TS (DMPlexWarpSetTSLocalAlievPanfilov)", NULL, usets, &usets, NULL));
  PetscCall(PetscOptionsBool("-check", "compare the paths with aij (iterations, voltage)", NULL, check, &check, NULL));
  PetscCall(PetscOptionsStringArray("-paths", "paths: aij first, then ellwarp, sharednz", NULL, paths, &npaths, &set));
  PetscCall(PetscOptionsString("-csv", "append one line per path to this file", NULL, csv, csv, sizeof(csv), NULL));
  PetscCall(PetscOptionsString("-surface", "write the epicardium's voltage at the snapshots to <prefix>_tri.csv, <prefix>_vert.csv", NULL, surf.prefix, surf.prefix, sizeof(surf.prefix), &surfset));
  surf.nsnap = MAXSNAP;
  PetscCall(PetscOptionsIntArray("-snapshots", "steps of the snapshots", NULL, surf.snap, &surf.nsnap, &set));
  if (!set) { surf.nsnap = 4, surf.snap[0] = 9, surf.snap[1] = 19, surf.snap[2] = 39, surf.snap[3] = 59; /* t = 1, 2, 4, 6 at dt 0.1 */ }
  PetscOptionsEnd();
  if (require && !device) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED: -require_device and no CUDA device is available\n"));
    PetscCall(PetscFinalize());
    return 200;
  }
  PetscCall(PetscOptionsHasName(NULL, NULL, "-paths", &set));
  if (!set) {
    npaths = 0;
    PetscCall(PetscStrallocpy("aij", &paths[npaths++]));
    PetscCall(PetscStrallocpy("ellwarp", &paths[npaths++]));
    if (device) PetscCall(PetscStrallocpy("sharednz", &paths[npaths++]));
  }
  {
    PetscBool isaij;
    PetscCall(PetscStrcmp(paths[0], "aij", &isaij));
    PetscCheck(isaij || !check, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-check compares with aij: make it the first path");
  }
  PetscCheck(!surfset || size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-surface is for one rank");
  PetscCall(HeartParamsFromOptions(&hp));
  for (PetscInt p = 0; p < npaths; p++) {
    PetscBool last = (PetscBool)(p == npaths - 1);
    if (surfset && last) {
      Heart h; /* the surface of the same mesh */
      PetscCall(HeartCreate(PETSC_COMM_WORLD, &hp, NULL, PETSCWARP_SOURCE_DIR, &h));
      PetscCall(SurfaceSetUp(h.dm, &surf));
      PetscCall(HeartDestroy(&h));
    }
    PetscCall(RunPath(&hp, paths[p], nsteps, usets, surfset && last ? &surf : NULL, p ? uref : NULL, p ? NULL : &uref, &res[p]));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Aliev-Panfilov heart (shell, P1, one point per cell) on %d rank(s): %" PetscInt_FMT " unknowns, %" PetscInt_FMT " steps of dt %g, Newton + CG/Jacobi; the petscwarp paths %s; ms per step\n", size, res[0].rows, nsteps,
                        (double)hp.p[PETSCWARP_AP_DT], device ? "on the GPU" : "by the host twins (no GPU)"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-11s %7s %7s %10s %10s %10s %10s %11s %10s %10s\n", "path", "Newton", "CG", "assembly", "solve", "other", "total", "max|dV|/|V|", "matrix", "DM setup"));
  for (PetscInt p = 0; p < npaths; p++) {
    const Result *r = &res[p];
    PetscReal     s = 1e3 / nsteps;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-11s %7" PetscInt_FMT " %7" PetscInt_FMT " %10.3f %10.3f %10.3f %10.3f %11.2e %8.3f s %8.3f s\n", r->name, r->newton, r->cg, (double)(s * r->t_asm), (double)(s * r->t_solve), (double)(s * (r->t_total - r->t_asm - r->t_solve)), (double)(s * r->t_total),
                          (double)r->err, (double)r->t_mat, (double)r->t_setup));
  }
  for (PetscInt p = 1; p < npaths; p++)
    PetscCall(
      PetscPrintf(PETSC_COMM_WORLD, "  %s against %s: %.1fx per time step (assembly %.1fx, solve %.1fx)\n", res[p].name, res[0].name, (double)(res[0].t_total / res[p].t_total), (double)(res[0].t_asm / res[p].t_asm), (double)(res[0].t_solve / res[p].t_solve)));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-csv", &set));
  if (set) {
    FILE *fp;
    PetscCall(CSVOpenAppend(PETSC_COMM_WORLD, csv, "problem,unknowns,ranks,path,steps,newton,cg,asm,solve,total,err,where,matrix_setup,dm_setup", &fp));
    for (PetscInt p = 0; p < npaths; p++) {
      const Result *r = &res[p];
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fp, "\"heart\",%" PetscInt_FMT ",%d,\"%s\",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%.6e,%.3e,\"%s\",%.6e,%.6e\n", r->rows, size, r->name, nsteps, r->newton, r->cg, (double)(r->t_asm / nsteps), (double)(r->t_solve / nsteps), (double)(r->t_total / nsteps),
                             (double)r->err, device ? "gpu" : "host", (double)r->t_mat, (double)r->t_setup));
    }
    PetscCall(PetscFClose(PETSC_COMM_WORLD, fp));
  }
  if (check)
    for (PetscInt p = 1; p < npaths; p++) {
      for (PetscInt n = 0; n < nsteps; n++) {
        PetscCheck(res[p].nits[n] == res[0].nits[n], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s, step %" PetscInt_FMT ": %" PetscInt_FMT " Newton iterations, aij %" PetscInt_FMT, res[p].name, n, res[p].nits[n], res[0].nits[n]);
        PetscCheck(PetscAbsInt(res[p].lits[n] - res[0].lits[n]) <= 1, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s, step %" PetscInt_FMT ": %" PetscInt_FMT " CG iterations, aij %" PetscInt_FMT, res[p].name, n, res[p].lits[n], res[0].lits[n]);
      }
      PetscCheck(res[p].err <= 1e-6, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: voltage differs from aij's by %g", res[p].name, (double)res[p].err);
    }
  for (PetscInt p = 0; p < npaths; p++) {
    PetscCall(PetscFree2(res[p].nits, res[p].lits));
    PetscCall(PetscFree(paths[p]));
  }
  PetscCall(VecDestroy(&uref));
  PetscCall(PetscFinalize());
  return 0;
}
