#include "plexpaths.h"
#include "plexproblem.h"
#include <petscdmplex.h>
#include <petsctime.h>

PetscErrorCode PlexPathOptions(PetscBool device, PetscInt *npaths, char *paths[], PetscReal *rtol, PetscBool *check, PetscBool *skip)
{
  PetscBool set, require = PETSC_FALSE;
  PetscInt  n = *npaths;

  PetscFunctionBegin;
  *skip = PETSC_FALSE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-require_device", &require, NULL));
  if (require && !device) { /* a GPU test without a GPU: skipped, with the reason (the caller exits with 200: CTest's skip) */
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SKIPPED: -require_device and no CUDA device is available\n"));
    *skip = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", rtol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check", check, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-paths", paths, &n, &set));
  if (!set) {
    n = 0;
    PetscCall(PetscStrallocpy("aij", &paths[n++]));
    PetscCall(PetscStrallocpy("ellwarp", &paths[n++]));
    if (device) PetscCall(PetscStrallocpy("sharednz", &paths[n++]));
  }
  PetscCheck(n > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-paths lists no path");
  /* the first path is the reference of the others (aij by default; at sizes where PETSc's one-core path takes too long,
     run -paths ellwarp,sharednz on one rank and -paths aij on all ranks) */
  *npaths = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem, then the path's matrix type and SNES callbacks */
static PetscErrorCode CreatePath(const PlexPathProblem *prob, const char *path, PetscBool device, DM *dm)
{
  PetscBool warp;

  PetscFunctionBegin;
  PetscCall(prob->create(PETSC_COMM_WORLD, device, dm));
  PetscCall(PetscStrcmp(path, "aij", &warp));
  warp = (PetscBool)!warp;
  PetscCall(DMSetMatType(*dm, warp ? path : MATAIJ));
  if (warp && device) PetscCall(DMSetVecType(*dm, VECCUDA));
  if (warp) PetscCall(DMPlexWarpSetSNESLocalFEM(*dm));
  else PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PlexPathRun(const PlexPathProblem *prob, const char path[], PetscBool device, PetscReal rtol, Vec uref, Vec *uout, PlexPathResult *r)
{
  DM             dm;
  SNES           snes;
  KSP            ksp;
  PC             pc;
  Mat            J;
  Vec            u, F, du;
  PetscLogDouble t0 = 0;
  PetscBool      isaij;
  PetscLogStage  stage[2];
  char           sname[64];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->name, path, sizeof(r->name)));
  PetscCall(DeviceTic(&t0));
  PetscCall(CreatePath(prob, path, device, &dm));
  PetscCall(DeviceTocAdd(t0, &r->t_mesh));
  PetscCall(SNESCreate(PETSC_COMM_WORLD, &snes));
  PetscCall(SNESSetDM(snes, dm));
  {
    PetscLogDouble t1;
    PetscCall(DeviceTic(&t1));
    PetscCall(DMCreateMatrix(dm, &J));
    PetscCall(DeviceTocAdd(t1, &r->t_mat));
  }
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecDuplicate(u, &F));
  PetscCall(VecDuplicate(u, &du));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, prob->pctype));
  PetscCall(KSPSetTolerances(ksp, rtol, PETSC_CURRENT, PETSC_CURRENT, 10000));
  PetscCall(SNESSetFromOptions(snes));
  {                                                                             /* -paths_gamg_type: the PCGAMG type of the petscwarp paths (e.g. warp, set up on the device), aij keeping PETSc's */
    const char *gtypes[] = {PCGAMGAGG, PCGAMGWARP, PCGAMGGEO, PCGAMGCLASSICAL}; /* literals: PCGAMG keeps the pointer */
    PetscInt    g        = 0;
    PetscBool   set, isgamg, isaijpath;

    PetscCall(PetscOptionsGetEList(NULL, NULL, "-paths_gamg_type", gtypes, 4, &g, &set));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGAMG, &isgamg));
    PetscCall(PetscStrcmp(path, "aij", &isaijpath));
    if (set && isgamg && !isaijpath) {
      PetscCall(PCGAMGSetType(pc, gtypes[g]));
      PetscCall(PCSetFromOptions(pc)); /* the new type's own options (-pc_gamg_warp_check, ...) */
    }
  }
  PetscCall(VecSet(u, 0.0));
  PetscCall(DeviceTocAdd(t0, &r->t_setup));
  PetscCall(VecGetSize(u, &r->rows));

  /* residual and Jacobian twice: first (boundary values projected, plans built), then again as in a Newton step; the
     second time, the preconditioner's set-up and the solve are the log stage "<path> step" (-log_view: its
     CpuToGpu/GpuToCpu are one Newton step's) */
  PetscCall(PetscSNPrintf(sname, sizeof(sname), "%s first", path));
  PetscCall(PetscLogStageRegister(sname, &stage[0]));
  PetscCall(PetscSNPrintf(sname, sizeof(sname), "%s step", path));
  PetscCall(PetscLogStageRegister(sname, &stage[1]));
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscLogStagePush(stage[k]));
    PetscCall(DeviceTic(&t0));
    PetscCall(SNESComputeFunction(snes, u, F));
    PetscCall(DeviceTocAdd(t0, k == 0 ? &r->t_res1 : &r->t_res2));
    PetscCall(DeviceTic(&t0));
    PetscCall(SNESComputeJacobian(snes, u, J, J));
    PetscCall(DeviceTocAdd(t0, k == 0 ? &r->t_asm1 : &r->t_asm2));
    if (k == 0) PetscCall(PetscLogStagePop());
  }
  PetscCall(KSPSetOperators(ksp, J, J));
  PetscCall(DeviceTic(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(DeviceTocAdd(t0, &r->t_pcsetup));
  PetscCall(DeviceTic(&t0));
  PetscCall(KSPSolve(ksp, F, du));
  PetscCall(DeviceTocAdd(t0, &r->t_solve));
  PetscCall(KSPGetIterationNumber(ksp, &r->its));
  PetscCall(KSPGetConvergedReason(ksp, &r->reason));
  {
    KSPType kt;
    PCType  pt;
    PetscCall(KSPGetType(ksp, &kt));
    PetscCall(PCGetType(pc, &pt));
    PetscCall(PetscStrncpy(r->pc, pt, sizeof(r->pc)));
    {
      PetscBool isgamg;
      PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGAMG, &isgamg));
      if (isgamg) { /* the PCGAMG type too: paths of different types take different iteration counts */
        PCGAMGType gt;
        PetscCall(PCGAMGGetType(pc, &gt));
        PetscCall(PetscSNPrintf(r->pc, sizeof(r->pc), "%s/%s", pt, gt));
      }
    }
    PetscCall(PetscStrncpy(r->ksp, kt, sizeof(r->ksp)));
  }
  PetscCall(VecAXPY(u, -1.0, du));
  PetscCall(PetscLogStagePop());
  if (uref) {
    Vec       d;
    PetscReal nd, nr;
    PetscCall(VecDuplicate(uref, &d));
    PetscCall(VecCopy(u, d)); /* VecCopy between a CUDA and a standard vector of the same layout goes through the host */
    PetscCall(VecAXPY(d, -1.0, uref));
    PetscCall(VecNorm(d, NORM_INFINITY, &nd));
    PetscCall(VecNorm(uref, NORM_INFINITY, &nr));
    r->err = nr > 0 ? nd / nr : nd;
    PetscCall(VecDestroy(&d));
  }
  PetscCall(PetscStrcmp(path, "aij", &isaij));
  if (!isaij) {
    PetscWarpAsm     wa;
    PetscWarpAsmInfo info;
    PetscInt         nwarp;
    PetscCall(DMPlexWarpGetAsm(dm, &wa));
    PetscCall(PetscWarpAsmGetInfo(wa, &info));
    PetscCall(DMPlexWarpGetResidualCount(dm, &nwarp, NULL));
    PetscCall(PetscSNPrintf(r->how, sizeof(r->how), "PetscWarpAsm %s on the %s, residual by %s", PetscWarpAsmStrategies[info.used], info.device ? "GPU" : "host", nwarp ? "PetscWarpAsm" : "PETSc"));
  } else PetscCall(PetscStrncpy(r->how, "PETSc, MatSetValues on the CPU; PETSc's residual", sizeof(r->how)));
  if (r->reason < 0) { /* the CSV's free-text column carries it too: its times are not those of a solve */
    PetscCall(PetscStrlcat(r->how, "; KSP ", sizeof(r->how)));
    PetscCall(PetscStrlcat(r->how, KSPConvergedReasons[r->reason], sizeof(r->how)));
  }
  PetscCall(DMViewFromOptions(dm, NULL, "-dm_view"));
  if (uout) {
    PetscCall(VecDuplicate(u, uout));
    PetscCall(VecCopy(u, *uout));
  }
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&F));
  PetscCall(VecDestroy(&du));
  PetscCall(MatDestroy(&J));
  PetscCall(SNESDestroy(&snes));
  PetscCall(DMDestroy(&dm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PlexPathReport(const PlexPathProblem *prob, PetscInt npaths, const PlexPathResult res[], PetscBool device, PetscBool check, PetscReal rtol)
{
  PetscMPIInt size;
  PetscBool   warp = PETSC_FALSE; /* a petscwarp path ran */

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  for (PetscInt p = 0; p < npaths; p++) {
    PetscBool aij;
    PetscCall(PetscStrcmp(res[p].name, "aij", &aij));
    if (!aij) warp = PETSC_TRUE;
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s on %d rank(s), %" PetscInt_FMT " unknowns, %s + %s; the Jacobian assembled %s; times in seconds\n", prob->name, size, res[0].rows, res[0].ksp, res[0].pc, !warp ? "by PETSc on the CPU (aij only)" : (device ? "on the GPU by the petscwarp paths" : "by the host twins of the kernels for the petscwarp paths (no GPU)")));
  for (PetscInt p = 1; p < npaths; p++) { /* a path with another preconditioner (-paths_gamg_type) */
    PetscBool same;
    PetscCall(PetscStrcmp(res[p].pc, res[0].pc, &same));
    if (!same) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: %s + %s (its iteration count is not compared)\n", res[p].name, res[p].ksp, res[p].pc));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %8s %7s %7s %9s %9s %10s %10s %8s %8s %9s %6s %10s  %s\n", "path", "set-up", "(mesh", "matrix)", "res first", "res again", "asm first", "asm again", "PC setup", "solve", "asm+solve", "its", "max|du|/|u|", "assembly by"));
  for (PetscInt p = 0; p < npaths; p++) {
    const PlexPathResult *r = &res[p];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-9s %8.3f %7.3f %7.3f %9.4f %9.5f %10.4f %10.5f %8.4f %8.4f %9.4f %6" PetscInt_FMT " %10.2e  %s\n", r->name, (double)r->t_setup, (double)r->t_mesh, (double)r->t_mat, (double)r->t_res1, (double)r->t_res2,
                          (double)r->t_asm1, (double)r->t_asm2, (double)r->t_pcsetup, (double)r->t_solve, (double)(r->t_asm2 + r->t_pcsetup + r->t_solve), r->its, (double)r->err, r->how));
  }
  for (PetscInt p = 0; p < npaths; p++)
    if (res[p].reason < 0)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  WARNING: path %s: the solve did not converge (%s after %" PetscInt_FMT " iterations): its times are not those of a solve%s\n", res[p].name, KSPConvergedReasons[res[p].reason], res[p].its, res[p].reason == KSP_DIVERGED_ITS ? " (-ksp_max_it raises the limit)" : ""));
  for (PetscInt p = 1; p < npaths; p++)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s against %s: residual %.1fx faster (again), assembly %.1fx (again), PC set-up + solve %.1fx, assembly + PC set-up + solve %.1fx\n", res[p].name, res[0].name, (double)(res[0].t_res2 / res[p].t_res2),
                          (double)(res[0].t_asm2 / res[p].t_asm2), (double)((res[0].t_pcsetup + res[0].t_solve) / (res[p].t_pcsetup + res[p].t_solve)),
                          (double)((res[0].t_asm2 + res[0].t_pcsetup + res[0].t_solve) / (res[p].t_asm2 + res[p].t_pcsetup + res[p].t_solve))));
  { /* -csv <file>: one line per path appended (the end-to-end benchmark collects them) */
    char      csv[PETSC_MAX_PATH_LEN];
    PetscBool set;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), &set));
    if (set) {
      FILE    *fp;
      PetscInt deg = 1;
      PetscCall(PetscOptionsGetInt(NULL, NULL, "-petscspace_degree", &deg, NULL));
      PetscCall(CSVOpenAppend(PETSC_COMM_WORLD, csv, "problem,degree,ranks,unknowns,path,pc,setup,residual,asm_first,asm_again,pc_setup,solve,its,err,how,ksp,mesh_setup,matrix_setup", &fp));
      for (PetscInt p = 0; p < npaths; p++) {
        const PlexPathResult *r = &res[p];
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fp, "\"%s\",%" PetscInt_FMT ",%d,%" PetscInt_FMT ",\"%s\",%s,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%" PetscInt_FMT ",%.3e,\"%s\",%s,%.6e,%.6e\n", prob->name, deg, size, r->rows, r->name, r->pc, (double)r->t_setup,
                               (double)r->t_res1, (double)r->t_asm1, (double)r->t_asm2, (double)r->t_pcsetup, (double)r->t_solve, r->its, (double)r->err, r->how, r->ksp, (double)r->t_mesh, (double)r->t_mat));
      }
      PetscCall(PetscFClose(PETSC_COMM_WORLD, fp));
    }
  }
  if (check) {
    for (PetscInt p = 0; p < npaths; p++)
      PetscCheck(res[p].reason > 0, PETSC_COMM_WORLD, PETSC_ERR_NOT_CONVERGED, "Path %s: the solve did not converge (%s after %" PetscInt_FMT " iterations)", res[p].name, KSPConvergedReasons[res[p].reason], res[p].its);
    for (PetscInt p = 1; p < npaths; p++) {
      PetscCheck(res[p].err <= 100 * rtol, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: solution differs from %s's by %g", res[p].name, res[0].name, (double)res[p].err);
      PetscBool samepc;
      PetscCall(PetscStrcmp(res[p].pc, res[0].pc, &samepc));
      if (samepc) PetscCheck(PetscAbsInt(res[p].its - res[0].its) <= PetscMax(1, res[0].its / 200), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Path %s: %" PetscInt_FMT " iterations, %s %" PetscInt_FMT, res[p].name, res[p].its, res[0].name, res[0].its);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
