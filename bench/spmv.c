static char help[] = "SpMV benchmark: every compared path in one run. Run it with mpiexec -n <host cores>: the matrices are\n"
                     "assembled by PETSc on all ranks (that is also PETSc's CPU path, timed there), then gathered to rank 0,\n"
                     "where the GPU paths run.\n"
                     "  -cases a,b,...   q1lap,q2lap,q3lap,q1elas,q2elas,q1lap2d,p1tet,p2tet,q1lap_big,q2lap_big,\n"
                     "                   p1tet_gmsh,p2tet_gmsh,p1graded_gmsh,p2graded_gmsh,p1tri_gmsh,p2tri_gmsh,powerlaw,mtx\n"
                     "  -scale s         scale the cell counts per direction (default 1; gmsh meshes: refine log2(s) more times)\n"
                     "  -mesh_dir dir    where the gmsh meshes are (default bench/meshes, made by bench/meshes/make_meshes.py)\n"
                     "  -renumber        also run each matrix randomly renumbered (symmetric permutation)\n"
                     "  -search          exhaustive search over ellwarp kernel, threshold and block size\n"
                     "  -mtx file        Matrix Market file for the case mtx\n"
                     "  -nmult n         timed products (median reported, default 200)\n"
                     "  -cg_its n        CG+Jacobi iterations timed per path (default 200, 0: none)\n"
                     "  -cg_types a,b    KSP types of the CG timings (default cg): cg and/or cgwarp (KSPCGWARP: fused kernels,\n"
                     "                   device scalars); rows of a type other than cg have the path name <path>+<type>;\n"
                     "                   type:name=value:... sets -ksp_<type>_<name> <value> for that row only (e.g.\n"
                     "                   cgwarp:lag_x=0:check_every=1); at most 8 types\n"
                     "  -csv file        write results as CSV\n"
                     "One-GPU-user mode (issue 9; run with ONE rank): DMPlex's own numbering, nothing gathered:\n"
                     "  -pattern_only    matrices from DMCreateMatrix() (DMPlex's FE sparsity, Dirichlet rows removed) with synthetic\n"
                     "                   SPD values (-1 off the diagonal, row length on it) instead of PETSc's FE assembly (minutes on one core);\n"
                     "                   SpMV and CG-iteration times depend on the sparsity only\n"
                     "  -plex_reorders a,b  mesh orderings of every DMPlex case: none and/or a -dm_plex_reorder type (rcm, ...) (default none)\n"
                     "  -windows a,b,... ellwarp sort windows to run (K1, K2 t=8 and the automatic kernel with each; default 64,256,1024,4096)\n"
                     "  -cpu_nmult n     products timed on the CPU path (default: -nmult)\n"
                     "  -cpu_cg 0|1      time CG on the CPU path (default 1)\n"
                     "  -kr 0|1          run the Kr/Krs paths (matrices permuted into their layout's order; default 1)\n"
                     "  -kc_variants a,b load schedules of the device products (-mat_ellwarp_kc_variant, issue 9) run with the 32-bit,\n"
                     "                   16-bit and block16 column indices as paths ellwarp_auto_{i32,i16,block16}_v<v> (default 1,2,3;\n"
                     "                   the other ellwarp paths run the default schedule, 0)\n"
                     "  -ellwarp_paths a,b  run only the ellwarp paths of these names (default: all; e.g. for a profiler)\n"
                     "gmsh cases of bench/meshes, P1 and P2, one rank: cube_tet_p1/_p2 (0.72 M rows), graded_tet_p1/_p2 (0.71 M),\n"
                     "  lshape_tet_p1/_p2 (0.21 M), torus_tet_p1/_p2 (0.18 M), shell_tet_p1/_p2 (0.15 M), holed_tri_p1/_p2 (0.49 M),\n"
                     "  holed_quad_p1/_p2 (0.48 M) (all nodes; the Dirichlet rows are removed)\n";

#include <petscwarp.h>
#include <petscksp.h>
#include <petsctime.h>
#include "../tutorials/plexproblem.h"
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

static PetscReal copy_gbs = 0;
static FILE     *csv      = NULL;
static PetscInt  nmult = 200, cg_its = 200, cpu_nmult = -1;
static PetscBool cpu_cg = PETSC_TRUE, run_kr = PETSC_TRUE;
static char     *cg_types[9]; /* at most 8, one more to detect more */
static PetscInt  ncg_types = 0;

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

/* Wait for the device (device paths only: the CPU path's ranks never touch the GPU) and the other ranks */
static PetscErrorCode Sync(Mat A, PetscBool device)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (device) PetscCallCUDA(cudaDeviceSynchronize());
#endif
  (void)device;
  PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Median seconds of one MatMult: CUDA events on PETSc's stream for device paths, MPI_Wtime between barriers otherwise */
static PetscErrorCode TimeMult(Mat A, PetscBool device, PetscReal *t)
{
  Vec         x, y;
  PetscReal  *ts;
  PetscRandom r;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &r));
  PetscCall(VecSetRandom(x, r));
  PetscCall(PetscRandomDestroy(&r));
  PetscInt n = device || cpu_nmult <= 0 ? nmult : cpu_nmult;
  PetscCall(PetscMalloc1(n, &ts));
  for (PetscInt i = 0; i < (device ? 10 : 2); i++) PetscCall(MatMult(A, x, y)); /* warm-up: conversion, upload, handles */
  PetscCall(Sync(A, device));
  for (PetscInt i = 0; i < n; i++) {
#if PetscDefined(HAVE_CUDA)
    if (device) {
      cudaEvent_t  e0, e1;
      cudaStream_t st;
      float        ms;
      PetscCall(PetscGetCurrentCUDAStream(&st));
      PetscCallCUDA(cudaEventCreate(&e0));
      PetscCallCUDA(cudaEventCreate(&e1));
      PetscCallCUDA(cudaEventRecord(e0, st));
      PetscCall(MatMult(A, x, y));
      PetscCallCUDA(cudaEventRecord(e1, st));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      PetscCallCUDA(cudaEventDestroy(e0));
      PetscCallCUDA(cudaEventDestroy(e1));
      ts[i] = (PetscReal)ms * 1e-3;
      continue;
    }
#endif
    {
      PetscLogDouble t0, t1;
      PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
      t0 = MPI_Wtime();
      PetscCall(MatMult(A, x, y));
      PetscCallMPI(MPI_Barrier(PetscObjectComm((PetscObject)A)));
      t1    = MPI_Wtime();
      ts[i] = (PetscReal)(t1 - t0);
    }
  }
  (void)device;
  qsort(ts, (size_t)n, sizeof(PetscReal), CmpReal);
  *t = ts[n / 2];
  PetscCall(PetscFree(ts));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A -cg_types entry type[:name=value...]: its KSP type in base; set: set the options -<prefix>ksp_<type>_<name> <value>
   (prefix: the solver's options prefix, NULL for none), keeping the values they had; else put those values back (or
   clear the options that had none) */
#define CG_TYPE_MAX_OPTIONS 8
static struct {
  char      value[256];
  PetscBool had;
} cg_saved[CG_TYPE_MAX_OPTIONS];

static PetscErrorCode CGTypeOptions(const char *type, const char *prefix, PetscBool set, char *base, size_t len)
{
  char buf[256], opt[300], *tok, *next;
  int  k = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(buf, type, sizeof(buf)));
  next = strchr(buf, ':');
  if (next) *next++ = 0;
  PetscCall(PetscStrncpy(base, buf, len));
  for (tok = next; tok; tok = next) { /* name=value items separated by ':' */
    char *eq;
    next = strchr(tok, ':');
    if (next) *next++ = 0;
    eq = strchr(tok, '=');
    PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-cg_types entry %s: expected type:name=value", type);
    *eq = 0;
    PetscCheck(k < CG_TYPE_MAX_OPTIONS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-cg_types entry %s: at most %d options", type, CG_TYPE_MAX_OPTIONS);
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sksp_%s_%s", prefix ? prefix : "", base, tok));
    if (set) {
      PetscCall(PetscOptionsGetString(NULL, NULL, opt, cg_saved[k].value, sizeof(cg_saved[k].value), &cg_saved[k].had));
      PetscCall(PetscOptionsSetValue(NULL, opt, eq + 1));
    } else if (cg_saved[k].had) PetscCall(PetscOptionsSetValue(NULL, opt, cg_saved[k].value));
    else PetscCall(PetscOptionsClearValue(NULL, opt));
    k++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CG+Jacobi (KSP type: cg or cgwarp), cg_its iterations with no convergence test, seconds of one solve after a warm-up
   solve. perm: through PCELLWARPPERM (outer preonly; the system solved in the layout's numbering, vectors permuted once
   per solve) */
static PetscErrorCode TimeCG(Mat A, PetscBool device, PetscBool perm, KSPType type, PetscReal *t)
{
  KSP            ksp, solver;
  Vec            b, x;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  *t = 0;
  if (cg_its <= 0 || (!device && !cpu_cg)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)A), &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetCGJacobi(ksp, perm, &solver));
  { /* type[:name=value...]: the KSP type, and options -<prefix>ksp_<type>_<name> <value> for this solver only */
    char        base[256];
    const char *prefix;
    PetscCall(KSPGetOptionsPrefix(solver, &prefix)); /* ellwarpperm_ for the inner solver of the Kr/Krs paths */
    PetscCall(CGTypeOptions(type, prefix, PETSC_TRUE, base, sizeof(base)));
    PetscCall(KSPSetType(solver, base));
    if (strcmp(base, KSPCG)) PetscCall(KSPSetFromOptions(solver)); /* -[prefix]ksp_cgwarp_* */
    PetscCall(CGTypeOptions(type, prefix, PETSC_FALSE, base, sizeof(base)));
  }
  PetscCall(KSPSetNormType(solver, KSP_NORM_NONE));
  PetscCall(KSPSetConvergenceTest(solver, KSPConvergedSkip, NULL, NULL));
  PetscCall(KSPSetTolerances(solver, 0, 0, PETSC_CURRENT, cg_its));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSolve(ksp, b, x)); /* warm-up */
  PetscCall(Sync(A, device));
  t0 = MPI_Wtime();
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(Sync(A, device));
  t1 = MPI_Wtime();
  *t = (PetscReal)(t1 - t0);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device-to-device copy bandwidth, bytes read + written, median of 20 copies of 1 GiB */
static PetscErrorCode CopyBandwidth(PetscReal *gbs)
{
  PetscFunctionBegin;
  *gbs = 0;
#if PetscDefined(HAVE_CUDA)
  {
    size_t      bytes = (size_t)1 << 30;
    void       *a, *b;
    cudaEvent_t e0, e1;
    float       ms;
    PetscReal   ts[20];
    PetscCallCUDA(cudaMalloc(&a, bytes));
    PetscCallCUDA(cudaMalloc(&b, bytes));
    PetscCallCUDA(cudaMemset(a, 1, bytes));
    PetscCallCUDA(cudaEventCreate(&e0));
    PetscCallCUDA(cudaEventCreate(&e1));
    for (int i = -3; i < 20; i++) {
      PetscCallCUDA(cudaEventRecord(e0, 0));
      PetscCallCUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
      PetscCallCUDA(cudaEventRecord(e1, 0));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      if (i >= 0) ts[i] = (PetscReal)ms * 1e-3;
    }
    qsort(ts, 20, sizeof(PetscReal), CmpReal);
    *gbs = 2.0 * (PetscReal)bytes / ts[10] / 1e9;
    PetscCallCUDA(cudaEventDestroy(e0));
    PetscCallCUDA(cudaEventDestroy(e1));
    PetscCallCUDA(cudaFree(a));
    PetscCallCUDA(cudaFree(b));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's sellcuda built the cheapest way: a preallocated row-by-row copy of the AIJ matrix */
static PetscErrorCode BuildSell(Mat A, Mat *S)
{
  PetscInt           m, n, *nnz, ncols;
  const PetscInt    *cols;
  const PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(PetscMalloc1(m, &nnz));
  for (PetscInt i = 0; i < m; i++) {
    PetscCall(MatGetRow(A, i, &ncols, NULL, NULL));
    nnz[i] = ncols;
    PetscCall(MatRestoreRow(A, i, &ncols, NULL, NULL));
  }
  PetscCall(MatCreate(PETSC_COMM_SELF, S));
  PetscCall(MatSetSizes(*S, m, n, m, n));
  PetscCall(MatSetType(*S, MATSEQSELLCUDA));
  PetscCall(MatSeqSELLSetPreallocation(*S, 0, nnz));
  for (PetscInt i = 0; i < m; i++) {
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    PetscCall(MatSetValues(*S, 1, &i, ncols, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One result line (rank 0): the table and the CSV */
static PetscInt  rep_window = -1; /* extra CSV columns of the next Report(): ellwarp's window and bytes per nonzero */
static PetscReal rep_bpn    = 0;

static PetscErrorCode Report(const char *cs, PetscInt m, PetscInt nnz, const char *path, PetscMPIInt np, PetscReal t, PetscReal tcusp, PetscReal tcg, PetscReal padding, PetscReal build, PetscReal upload, PetscReal refresh, const char *note)
{
  PetscReal gbs = (12.0 * nnz + 20.0 * m) / t / 1e9, gfs = 2.0 * nnz / t / 1e9, frac = copy_gbs > 0 ? gbs / copy_gbs : 0;
  PetscReal bpn = rep_bpn > 0 ? rep_bpn : (np ? 12.0 + 4.0 * (m + 1) / PetscMax(nnz, 1) : 0), own = copy_gbs > 0 ? (bpn * nnz + 16.0 * m) / t / 1e9 / copy_gbs : 0; /* the path's own bytes: layout + x and y once */

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-14s %9" PetscInt_FMT " %10" PetscInt_FMT " %-23s %3d %9.1f %6.0f %5.0f %5.1f%% %6.2fx %7.4f %7.4f %6.1f %6.1f %6.1f %8.4f %5.2f %5.1f%% %s\n", cs, m, nnz, path, np, t * 1e6, gfs, gbs, 100 * frac, tcusp > 0 ? tcusp / t : 0.0, padding, build, build / t, upload / t, refresh / t, tcg, bpn, 100 * own, note));
  if (csv)
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%d,%.3f,%.2f,%.1f,%.4f,%.4f,%.5f,%.1f,%.1f,%.2f,%.5f,\"%s\",%.3f,%" PetscInt_FMT ",%.3f,%.4f\n", cs, m, nnz, path, np, t * 1e6, gfs, gbs, frac, padding, build, build / t, upload / t, refresh / t, tcg, note, tcg > 0 && cg_its > 0 ? tcg / cg_its * 1e6 : 0.0, rep_window, (double)bpn, (double)own));
  rep_window = -1;
  rep_bpn    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Report() once per KSP type of -cg_types, with the CG time of A (NULL: no CG) in that type; the path of a type other
   than cg is named <path>+<type> (KSPCGWARP refuses several ranks: only cg there) */
static PetscErrorCode ReportCG(const char *cs, PetscInt m, PetscInt nnz, const char *path, PetscMPIInt np, PetscReal t, PetscReal tcusp, Mat A, PetscBool device, PetscBool perm, PetscReal padding, PetscReal build, PetscReal upload, PetscReal refresh, const char *note)
{
  PetscInt  win = rep_window;
  PetscReal bpn = rep_bpn;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ncg_types; k++) {
    PetscReal tcg = 0;
    PetscBool cg;
    char      name[160];
    size_t    len;
    PetscCall(PetscStrcmp(cg_types[k], KSPCG, &cg));
    if (!cg && np > 1) continue;
    if (A) PetscCall(TimeCG(A, device, perm, cg_types[k], &tcg));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%s%s%s", path, cg ? "" : "+", cg ? "" : cg_types[k]));
    PetscCall(PetscStrlen(name, &len));
    PetscCheck(len + 1 < sizeof(name), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-cg_types entry %s: the row name would be cut", cg_types[k]);
    rep_window = win;
    rep_bpn    = bpn;
    PetscCall(Report(cs, m, nnz, name, np, t, tcusp, tcg, padding, build, upload, refresh, note));
    if (!A) break; /* no CG: one row */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ellwarp's column index layout (-mat_ellwarp_index) of the next conversions: NULL for the default (auto); its load
   schedule (-mat_ellwarp_kc_variant): -1 for the default */
static const char *conv_index   = NULL;
static PetscInt    conv_variant = -1;

/* ellwarp with the sort window w (-1: automatic, the default; -2: whatever the options say) and the column index layout
   conv_index */
static PetscErrorCode ConvertEllWarp(Mat S, PetscInt w, Mat *B)
{
  char str[32];

  PetscFunctionBegin;
  PetscCall(MatConvert(S, MATELLWARP, MAT_INITIAL_MATRIX, B));
  if (w != -2 || conv_index || conv_variant >= 0) {
    PetscCall(PetscSNPrintf(str, sizeof(str), "%" PetscInt_FMT, w));
    if (w != -2) PetscCall(PetscOptionsSetValue(NULL, "-mat_ellwarp_window", str));
    if (conv_index) PetscCall(PetscOptionsSetValue(NULL, "-mat_ellwarp_index", conv_index));
    PetscCall(PetscSNPrintf(str, sizeof(str), "%" PetscInt_FMT, conv_variant));
    if (conv_variant >= 0) PetscCall(PetscOptionsSetValue(NULL, "-mat_ellwarp_kc_variant", str));
    PetscCall(MatSetFromOptions(*B));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_ellwarp_window"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_ellwarp_index"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_ellwarp_kc_variant"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunEllWarp(Mat S, MatEllWarpKernel k, PetscInt t, PetscInt bs, const char *reorder, PetscInt w, PetscReal *time, MatEllWarpInfo *info)
{
  Mat       B;
  PetscBool dev;

  PetscFunctionBegin;
  PetscCall(PetscWarpDeviceAvailable(&dev));
  PetscCall(ConvertEllWarp(S, w, &B));
  PetscCall(MatEllWarpSetKernel(B, k, t));
  PetscCall(MatEllWarpSetBlockSize(B, bs));
  PetscCall(MatEllWarpSetReorder(B, reorder));
  PetscCall(TimeMult(B, dev, time));
  PetscCall(MatScale(B, 2.0)); /* a value change: the next product refreshes the layout */
  PetscCall(TimeMult(B, dev, time));
  PetscCall(MatEllWarpGetInfo(B, info));
  PetscCall(MatDestroy(&B));
  rep_window = info->window;
  rep_bpn    = info->bytes_per_nnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* P S P^T with P the row order of S's ELL-WARP layout under the given locality ordering: Krs (PETSc's MatPermute(), columns
   sorted within each row) and Kr (the same rows, columns renumbered but left in their original order within each row) */
static PetscErrorCode PermutedCopies(Mat S, const char *reorder, Mat *Krs, Mat *Kr)
{
  Mat             B;
  IS              perm, iperm;
  const PetscInt *p, *ip, *si, *sj;
  PetscInt        m, *ki, *kj;
  PetscScalar    *sa, *ka;
  PetscMemType    mt;

  PetscFunctionBegin;
  PetscCall(MatConvert(S, MATELLWARP, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatEllWarpSetReorder(B, reorder));
  PetscCall(MatEllWarpGetRowPermutation(B, &perm));
  PetscCall(MatDestroy(&B));
  PetscCall(MatPermute(S, perm, perm, Krs));
  PetscCall(ISInvertPermutation(perm, PETSC_DECIDE, &iperm));
  PetscCall(MatGetLocalSize(S, &m, NULL));
  PetscCall(MatSeqAIJGetCSRAndMemType(S, &si, &sj, &sa, &mt));
  PetscCall(PetscMalloc1(m + 1, &ki));
  PetscCall(PetscMalloc1(si[m], &kj));
  PetscCall(PetscMalloc1(si[m], &ka));
  PetscCall(ISGetIndices(perm, &p));
  PetscCall(ISGetIndices(iperm, &ip));
  ki[0] = 0;
  for (PetscInt s = 0; s < m; s++) {
    PetscInt r = p[s], len = si[r + 1] - si[r];
    for (PetscInt k = 0; k < len; k++) {
      kj[ki[s] + k] = ip[sj[si[r] + k]];
      ka[ki[s] + k] = sa[si[r] + k];
    }
    ki[s + 1] = ki[s] + len;
  }
  PetscCall(ISRestoreIndices(perm, &p));
  PetscCall(ISRestoreIndices(iperm, &ip));
  PetscCall(ISDestroy(&perm));
  PetscCall(ISDestroy(&iperm));
  {
    Mat K;
    PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, m, ki, kj, ka, &K));
    PetscCall(MatDuplicate(K, MAT_COPY_VALUES, Kr)); /* owns its arrays; the column order is kept */
    PetscCall(MatDestroy(&K));
  }
  PetscCall(PetscFree(ki));
  PetscCall(PetscFree(kj));
  PetscCall(PetscFree(ka));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* All GPU paths on the sequential matrix S (rank 0) */
static PetscInt nwindows = 4, windows[16] = {64, 256, 1024, 4096};
static PetscInt nkc_variants = 3, kc_variants[8] = {1, 2, 3};
static char    *ew_paths[64];
static PetscInt new_paths = 0; /* 0: every ellwarp path */

/* Whether the ellwarp path of this name runs (-ellwarp_paths) */
static PetscBool PathWanted(const char *name)
{
  PetscBool f = PETSC_FALSE;
  if (!new_paths) return PETSC_TRUE;
  for (PetscInt i = 0; i < new_paths && !f; i++) PetscCallAbort(PETSC_COMM_SELF, PetscStrcmp(name, ew_paths[i], &f));
  return f;
}

static PetscErrorCode GpuPaths(const char *cs, Mat S, PetscBool search)
{
  PetscInt       m, nnz, bsz;
  MatInfo        minfo;
  PetscReal      t, tcusp = 0, tauto = 0;
  Mat            B;
  PetscLogDouble t0, t1;
  MatEllWarpInfo info;
  PetscBool      dev;
  struct {
    const char      *name;
    MatEllWarpKernel k;
    PetscInt         t;
    const char      *reorder;
    PetscInt         w;
    const char      *index; /* -mat_ellwarp_index, NULL: the default (auto) */
  } ew[] = {
    {"ellwarp_k1",           MAT_ELLWARP_KERNEL_K1,   PETSC_DETERMINE, "none", 0,  NULL     },
    {"ellwarp_k2_t8",        MAT_ELLWARP_KERNEL_K2,   8,               "none", 0,  NULL     },
    {"ellwarp_auto",         MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", -1, NULL     },
    {"ellwarp_auto_rcm",     MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "rcm",  -1, NULL     },
    {"ellwarp_auto_global",  MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", 0,  NULL     },
    {"ellwarp_auto_i32",     MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", -1, "32"     },
    {"ellwarp_auto_i16",     MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", -1, "16"     },
    {"ellwarp_auto_block",   MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", -1, "block"  },
    {"ellwarp_auto_block16", MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, "none", -1, "block16"}
  };

  PetscFunctionBegin;
  PetscCall(MatGetSize(S, &m, NULL));
  PetscCall(MatGetBlockSize(S, &bsz));
  PetscCall(MatGetInfo(S, MAT_LOCAL, &minfo));
  nnz = (PetscInt)minfo.nz_used;
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!dev) PetscCall(PetscPrintf(PETSC_COMM_SELF, "(no CUDA device: a dry run of the ellwarp paths on the host twin)\n"));
  /* PETSc's CPU path on one core (rank 0, the others wait) */
  PetscCall(TimeMult(S, PETSC_FALSE, &t));
  PetscCall(ReportCG(cs, m, nnz, "aij_cpu1", 1, t, 0, m <= 2000000 ? S : NULL, PETSC_FALSE, PETSC_FALSE, 1, 0, 0, 0, m <= 2000000 ? "PETSc CPU path, 1 core" : "PETSc CPU path, 1 core (CG not run)"));
  /* aijcusparse */
  if (dev) {
    PetscCall(PetscTime(&t0));
    PetscCall(MatConvert(S, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &B));
    PetscCall(TimeMult(B, PETSC_TRUE, &tcusp));
    PetscCall(PetscTime(&t1));
    PetscCall(ReportCG(cs, m, nnz, "aijcusparse", 1, tcusp, tcusp, B, dev, PETSC_FALSE, 1, (PetscReal)(t1 - t0) - tcusp * (nmult + 10), 0, 0, "build=convert+first upload"));
    PetscCall(MatDestroy(&B));
    /* sellcuda */
    PetscCall(PetscTime(&t0));
    PetscCall(BuildSell(S, &B));
    PetscCall(PetscTime(&t1));
    PetscCall(TimeMult(B, PETSC_TRUE, &t));
    PetscCall(ReportCG(cs, m, nnz, "sellcuda", 1, t, tcusp, B, dev, PETSC_FALSE, 1, (PetscReal)(t1 - t0), 0, 0, "build=host row copy"));
    PetscCall(MatDestroy(&B));
  }
  /* ellwarp variants */
  for (size_t v = 0; v < sizeof(ew) / sizeof(ew[0]); v++) {
    char note[160];
    if (v >= 7 && bsz < 2) continue; /* block layouts: matrices with a column block size only */
    if (!PathWanted(ew[v].name)) continue;
    conv_index = ew[v].index;
    PetscCall(RunEllWarp(S, ew[v].k, ew[v].t, 0, ew[v].reorder, ew[v].w, &t, &info));
    B = NULL;
    if (v == 2 || v == 4 || v == 5) { /* CG with the default (automatic window and index), the global sort, 32-bit columns */
      if (v == 2) tauto = t;
      PetscCall(ConvertEllWarp(S, ew[v].w, &B));
    }
    conv_index = NULL;
    rep_window = info.window;
    rep_bpn    = info.bytes_per_nnz;
    PetscCall(PetscSNPrintf(note, sizeof(note), "%s t=%" PetscInt_FMT " bs=%" PetscInt_FMT " lanes<=%s window=%" PetscInt_FMT " index=%s/%" PetscInt_FMT " 16bit=%.3f B/nnz32=%.2f", MatEllWarpKernels[info.kernel], info.threshold, info.block_size, info.kernel == MAT_ELLWARP_KERNEL_K1 ? "1" : "32",
                            info.window, MatEllWarpIndices[info.index], info.index_unit, (double)info.narrow_fraction, (double)info.bytes_per_nnz_32));
    PetscCall(ReportCG(cs, m, nnz, ew[v].name, 1, t, tcusp, B, dev, PETSC_FALSE, info.padding, info.build_time, info.upload_time, info.refresh_time, note));
    PetscCall(MatDestroy(&B));
  }
  /* load schedules of the device products (issue 9, -mat_ellwarp_kc_variant): the automatic kernel and window with 32-bit
     columns, 16-bit codes and (blocked patterns) block16, each with the variants of -kc_variants; no CG */
  for (PetscInt vi = 0; vi < nkc_variants; vi++) {
    const char *idx[] = {"32", "16", "block16"}, *nm[] = {"i32", "i16", "block16"};
    for (int k = 0; k < 3; k++) {
      char note[192], name[64];
      if (k == 2 && bsz < 2) continue;
      PetscCall(PetscSNPrintf(name, sizeof(name), "ellwarp_auto_%s_v%" PetscInt_FMT, nm[k], kc_variants[vi]));
      if (!PathWanted(name)) continue;
      conv_index   = idx[k];
      conv_variant = kc_variants[vi];
      PetscCall(RunEllWarp(S, MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, 0, "none", -1, &t, &info));
      conv_index   = NULL;
      conv_variant = -1;
      PetscCall(PetscSNPrintf(note, sizeof(note), "%s t=%" PetscInt_FMT " bs=%" PetscInt_FMT " lanes<=%s window=%" PetscInt_FMT " index=%s/%" PetscInt_FMT " 16bit=%.3f B/nnz32=%.2f kcv=%" PetscInt_FMT, MatEllWarpKernels[info.kernel], info.threshold,
                              info.block_size, info.kernel == MAT_ELLWARP_KERNEL_K1 ? "1" : "32", info.window, MatEllWarpIndices[info.index], info.index_unit, (double)info.narrow_fraction, (double)info.bytes_per_nnz_32, info.kc_variant));
      PetscCall(Report(cs, m, nnz, name, 1, t, tcusp, 0, info.padding, info.build_time, info.upload_time, info.refresh_time, note));
    }
  }
  /* block sizes (issue 9): the automatic layout with 128, 256 and 512 threads per block (-mat_ellwarp_block_size) */
  for (PetscInt bsv = 128; bsv <= 512; bsv *= 2) {
    char note[160], name[64];
    PetscCall(PetscSNPrintf(name, sizeof(name), "ellwarp_auto_bs%" PetscInt_FMT, bsv));
    if (!PathWanted(name)) continue;
    PetscCall(RunEllWarp(S, MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, bsv, "none", -1, &t, &info));
    PetscCall(PetscSNPrintf(note, sizeof(note), "%s t=%" PetscInt_FMT " bs=%" PetscInt_FMT " window=%" PetscInt_FMT " index=%s", MatEllWarpKernels[info.kernel], info.threshold, info.block_size, info.window, MatEllWarpIndices[info.index]));
    PetscCall(Report(cs, m, nnz, name, 1, t, tcusp, 0, info.padding, info.build_time, info.upload_time, info.refresh_time, note));
  }
  /* sort windows (issue 9): K1, K2 t=8 and the automatic kernel within windows of each size */
  for (PetscInt wi = 0; wi < nwindows; wi++) {
    MatEllWarpKernel ks[] = {MAT_ELLWARP_KERNEL_K1, MAT_ELLWARP_KERNEL_K2, MAT_ELLWARP_KERNEL_AUTO};
    const char      *kn[] = {"k1", "k2t8", "auto"};
    for (int kk = 0; kk < 3; kk++) {
      char note[128], name[64];
      PetscCall(PetscSNPrintf(name, sizeof(name), "ellwarp_%s_w%" PetscInt_FMT, kn[kk], windows[wi]));
      if (!PathWanted(name)) continue;
      PetscCall(RunEllWarp(S, ks[kk], kk == 1 ? 8 : PETSC_DETERMINE, 0, "none", windows[wi], &t, &info));
      PetscCall(PetscSNPrintf(note, sizeof(note), "%s t=%" PetscInt_FMT " bs=%" PetscInt_FMT " window=%" PetscInt_FMT, MatEllWarpKernels[info.kernel], info.threshold, info.block_size, info.window));
      PetscCall(Report(cs, m, nnz, name, 1, t, tcusp, 0, info.padding, info.build_time, info.upload_time, info.refresh_time, note));
    }
  }
  /* Kr and Krs: the matrix in its layout's numbering (rows already sorted: coalesced stores, no permutation read) */
  for (int rv = 0; rv < (run_kr ? 2 : 0); rv++) {
    const char *ro = rv ? "rcm" : "none";
    Mat         Krs, Kr, V[2];
    char        note[160], name[64];
    PetscCall(PermutedCopies(S, ro, &Krs, &Kr));
    V[0] = Kr;
    V[1] = Krs;
    for (int k = 0; k < 2; k++) {
      PetscCall(RunEllWarp(V[k], MAT_ELLWARP_KERNEL_AUTO, PETSC_DETERMINE, 0, "none", -1, &t, &info));
      B = NULL;
      if (k == 1) { /* the solver path: PCELLWARPPERM on the user's matrix (its own setup forms Krs) */
        PetscCall(MatConvert(S, MATELLWARP, MAT_INITIAL_MATRIX, &B));
        PetscCall(MatEllWarpSetReorder(B, ro));
      }
      PetscCall(PetscSNPrintf(name, sizeof(name), "ellwarp_%s_%s", rv ? "rcm" : "auto", k ? "krs" : "kr"));
      PetscCall(PetscSNPrintf(note, sizeof(note), "%s t=%" PetscInt_FMT " sorted_rows=%d%s", MatEllWarpKernels[info.kernel], info.threshold, (int)info.sorted_rows, k ? "; CG: pc ellwarpperm (preonly outside)" : ""));
      PetscCall(ReportCG(cs, m, nnz, name, 1, t, tcusp, B, dev, PETSC_TRUE, info.padding, info.build_time, info.upload_time, info.refresh_time, note));
      PetscCall(MatDestroy(&B));
    }
    PetscCall(MatDestroy(&Kr));
    PetscCall(MatDestroy(&Krs));
  }
  if (search) { /* exhaustive search: kernel x threshold x block size */
    PetscInt  ts[] = {0, 4, 8, 16, 32, 64}, bss[] = {64, 128, 256, 512, 1024}, bt = 0, bb = 0;
    PetscReal best = PETSC_MAX_REAL;
    char      note[128];
    for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++)
      for (size_t j = 0; j < sizeof(bss) / sizeof(bss[0]); j++) {
        PetscCall(RunEllWarp(S, ts[i] ? MAT_ELLWARP_KERNEL_K2 : MAT_ELLWARP_KERNEL_K1, ts[i] ? ts[i] : PETSC_DETERMINE, bss[j], "none", -1, &t, &info));
        if (t < best) best = t, bt = ts[i], bb = bss[j];
      }
    PetscCall(PetscSNPrintf(note, sizeof(note), "best of 30: %s t=%" PetscInt_FMT " bs=%" PetscInt_FMT "; auto/best time = %.3f", bt ? "k2" : "k1", bt, bb, (double)(tauto / best)));
    PetscCall(Report(cs, m, nnz, "ellwarp_best_search", 1, best, tcusp, 0, 0, 0, 0, 0, note));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The whole matrix on rank 0 (empty elsewhere) as a sequential AIJ matrix */
static PetscErrorCode GatherToRoot(Mat A, Mat *S)
{
  PetscMPIInt rank;
  PetscInt    M, N;
  IS          is[2];
  Mat        *sub;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : M, 0, 1, &is[0]));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : N, 0, 1, &is[1]));
  {
    PetscInt rbs, cbs; /* as DMCreateMatrix() made it (elasticity: 3): the block layout's input */
    PetscCall(MatGetBlockSizes(A, &rbs, &cbs));
    PetscCall(ISSetBlockSize(is[0], rbs));
    PetscCall(ISSetBlockSize(is[1], cbs));
  }
  PetscCall(MatCreateSubMatrices(A, 1, &is[0], &is[1], MAT_INITIAL_MATRIX, &sub));
  *S = sub[0];
  PetscCall(PetscFree(sub));
  PetscCall(ISDestroy(&is[0]));
  PetscCall(ISDestroy(&is[1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A random symmetric renumbering P S P^T */
static PetscErrorCode Renumber(Mat S, Mat *R)
{
  PetscInt    m, *p;
  PetscRandom r;
  IS          is;

  PetscFunctionBegin;
  PetscCall(MatGetSize(S, &m, NULL));
  PetscCall(PetscMalloc1(m, &p));
  for (PetscInt i = 0; i < m; i++) p[i] = i;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  for (PetscInt i = m - 1; i > 0; i--) { /* Fisher-Yates */
    PetscReal u;
    PetscInt  j, tmp;
    PetscCall(PetscRandomGetValueReal(r, &u));
    j    = PetscMin(i, (PetscInt)(u * (i + 1)));
    tmp  = p[i];
    p[i] = p[j];
    p[j] = tmp;
  }
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, m, p, PETSC_OWN_POINTER, &is));
  PetscCall(ISSetPermutation(is));
  PetscCall(MatPermute(S, is, is, R));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Synthetic matrix with power-law row lengths (P(len > k) ~ 1/k^2 above 4), 1M rows, on PETSC_COMM_SELF */
static PetscErrorCode PowerLaw(PetscInt n, Mat *A)
{
  PetscRandom  r;
  PetscInt    *len, *cols;
  PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &r));
  PetscCall(PetscMalloc3(n, &len, n, &cols, n, &vals));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal u;
    PetscCall(PetscRandomGetValueReal(r, &u));
    len[i] = PetscMin(n, (PetscInt)(4.0 / PetscSqrtReal(PetscMax(u, 1e-12))));
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, len, A));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt k = 0; k < len[i]; k++) {
      PetscReal u;
      PetscCall(PetscRandomGetValueReal(r, &u));
      cols[k] = k == 0 ? i : (i + (PetscInt)(u * n)) % n;
      vals[k] = 1.0 / (1 + k);
    }
    PetscCall(MatSetValues(*A, 1, &i, len[i], cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree3(len, cols, vals));
  PetscCall(PetscRandomDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Matrix Market (coordinate, real/integer/pattern, general/symmetric) into a sequential AIJ matrix */
static PetscErrorCode LoadMTX(const char *file, Mat *A)
{
  FILE        *fp;
  char         line[1024], field[64] = "", sym[64] = "";
  PetscInt     m, n, nz, *rows, *cols, *cnt;
  PetscScalar *vals;
  PetscBool    symmetric, pattern;

  PetscFunctionBegin;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "r", &fp));
  PetscCheck(fgets(line, sizeof(line), fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Empty file %s", file);
  PetscCheck(sscanf(line, "%%%%MatrixMarket matrix coordinate %63s %63s", field, sym) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not a coordinate Matrix Market file", file);
  PetscCall(PetscStrcmp(sym, "symmetric", &symmetric));
  PetscCall(PetscStrcmp(field, "pattern", &pattern));
  do PetscCheck(fgets(line, sizeof(line), fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Truncated %s", file);
  while (line[0] == '%');
  PetscCheck(sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, &m, &n, &nz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad size line in %s", file);
  PetscCall(PetscMalloc4(nz, &rows, nz, &cols, nz, &vals, m, &cnt));
  PetscCall(PetscArrayzero(cnt, m));
  for (PetscInt k = 0; k < nz; k++) {
    double v = 1.0;
    PetscCheck(fgets(line, sizeof(line), fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Truncated %s", file);
    PetscCheck(sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %lf", &rows[k], &cols[k], &v) >= (pattern ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad entry line in %s", file);
    rows[k]--, cols[k]--;
    vals[k] = v;
    cnt[rows[k]]++;
    if (symmetric && rows[k] != cols[k]) cnt[cols[k]]++;
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, cnt, A));
  for (PetscInt k = 0; k < nz; k++) {
    PetscCall(MatSetValue(*A, rows[k], cols[k], vals[k], ADD_VALUES));
    if (symmetric && rows[k] != cols[k]) PetscCall(MatSetValue(*A, cols[k], rows[k], vals[k], ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree4(rows, cols, vals, cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMPlex's finite-element sparsity (DMCreateMatrix(): the closure pattern, Dirichlet rows removed) with synthetic
   symmetric positive definite values: -1 off the diagonal, the row length on it. PETSc's FE assembly of the same
   matrix takes minutes on one core; SpMV and CG-iteration times depend on the sparsity only. */
static PetscErrorCode PatternMatrix(DM dm, Mat *A)
{
  const PetscInt *ai, *aj;
  PetscScalar    *aa;
  PetscMemType    mt;
  PetscInt        m;

  PetscFunctionBegin;
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, A));
  PetscCall(MatGetLocalSize(*A, &m, NULL));
  PetscCall(MatSeqAIJGetCSRAndMemType(*A, &ai, &aj, &aa, &mt));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = ai[i]; k < ai[i + 1]; k++) aa[k] = aj[k] == i ? (PetscScalar)(ai[i + 1] - ai[i]) : -1.0;
  PetscCall(PetscObjectStateIncrease((PetscObject)*A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char *name, *physics;
  PetscInt    dim, faces, degree, refine;
  PetscBool   tets;
  const char *file; /* a gmsh mesh of bench/meshes (refined uniformly refine times), or NULL for a box mesh */
} BenchCase;

int main(int argc, char **argv)
{
  BenchCase all[] = {
    {"q1lap",         "laplace",    3, 80,  1, 0, PETSC_FALSE, NULL            },
    {"q2lap",         "laplace",    3, 40,  2, 0, PETSC_FALSE, NULL            },
    {"q3lap",         "laplace",    3, 27,  3, 0, PETSC_FALSE, NULL            },
    {"q1elas",        "elasticity", 3, 50,  1, 0, PETSC_FALSE, NULL            },
    {"q2elas",        "elasticity", 3, 25,  2, 0, PETSC_FALSE, NULL            },
    {"q1lap2d",       "laplace",    2, 700, 1, 0, PETSC_FALSE, NULL            },
    {"p1tet",         "laplace",    3, 80,  1, 0, PETSC_TRUE,  NULL            },
    {"p2tet",         "laplace",    3, 40,  2, 0, PETSC_TRUE,  NULL            },
    {"q1lap_big",     "laplace",    3, 85,  1, 1, PETSC_FALSE, NULL            },
    {"q2lap_big",     "laplace",    3, 43,  2, 1, PETSC_FALSE, NULL            },
    {"p1tet_gmsh",    "laplace",    3, 0,   1, 2, PETSC_TRUE,  "cube_tet.msh"  },
    {"p2tet_gmsh",    "laplace",    3, 0,   2, 1, PETSC_TRUE,  "cube_tet.msh"  },
    {"p1graded_gmsh", "laplace",    3, 0,   1, 2, PETSC_TRUE,  "graded_tet.msh"},
    {"p2graded_gmsh", "laplace",    3, 0,   2, 1, PETSC_TRUE,  "graded_tet.msh"},
    {"p1tri_gmsh",    "laplace",    2, 0,   1, 3, PETSC_TRUE,  "square_tri.msh"},
    {"p2tri_gmsh",    "laplace",    2, 0,   2, 2, PETSC_TRUE,  "square_tri.msh"},
 /* issue 9: every mesh of bench/meshes, P1 and P2, on one rank (rows: see -help) */
    {"cube_tet_p1",   "laplace",    3, 0,   1, 2, PETSC_TRUE,  "cube_tet.msh"  },
    {"cube_tet_p2",   "laplace",    3, 0,   2, 1, PETSC_TRUE,  "cube_tet.msh"  },
    {"graded_tet_p1", "laplace",    3, 0,   1, 2, PETSC_TRUE,  "graded_tet.msh"},
    {"graded_tet_p2", "laplace",    3, 0,   2, 1, PETSC_TRUE,  "graded_tet.msh"},
    {"lshape_tet_p1", "laplace",    3, 0,   1, 2, PETSC_TRUE,  "lshape_tet.msh"},
    {"lshape_tet_p2", "laplace",    3, 0,   2, 1, PETSC_TRUE,  "lshape_tet.msh"},
    {"torus_tet_p1",  "laplace",    3, 0,   1, 2, PETSC_TRUE,  "torus_tet.msh" },
    {"torus_tet_p2",  "laplace",    3, 0,   2, 1, PETSC_TRUE,  "torus_tet.msh" },
    {"shell_tet_p1",  "laplace",    3, 0,   1, 2, PETSC_TRUE,  "shell_tet.msh" },
    {"shell_tet_p2",  "laplace",    3, 0,   2, 1, PETSC_TRUE,  "shell_tet.msh" },
    {"holed_tri_p1",  "laplace",    2, 0,   1, 4, PETSC_TRUE,  "holed_tri.msh" },
    {"holed_tri_p2",  "laplace",    2, 0,   2, 3, PETSC_TRUE,  "holed_tri.msh" },
    {"holed_quad_p1", "laplace",    2, 0,   1, 4, PETSC_FALSE, "holed_quad.msh"},
    {"holed_quad_p2", "laplace",    2, 0,   2, 3, PETSC_FALSE, "holed_quad.msh"},
  };
  char       *cases[32], mtx[PETSC_MAX_PATH_LEN] = "", csvname[PETSC_MAX_PATH_LEN] = "", meshdir[PETSC_MAX_PATH_LEN] = "bench/meshes";
  PetscInt    ncases = 32;
  PetscReal   scale  = 1.0;
  PetscBool   setc, renumber = PETSC_FALSE, search = PETSC_FALSE, dev, pattern_only = PETSC_FALSE;
  char       *reorders[8];
  PetscInt    nreorders = 8;
  PetscMPIInt size, rank;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", cases, &ncases, &setc));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nmult", &nmult, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cg_its", &cg_its, NULL));
  {
    PetscBool set;
    ncg_types = 9;
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cg_types", cg_types, &ncg_types, &set));
    PetscCheck(ncg_types <= 8, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-cg_types: at most 8 types");
    if (!set) {
      ncg_types = 1;
      PetscCall(PetscStrallocpy(KSPCG, &cg_types[0]));
    }
  }
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-renumber", &renumber, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-search", &search, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtx", mtx, sizeof(mtx), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mesh_dir", meshdir, sizeof(meshdir), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-pattern_only", &pattern_only, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cpu_nmult", &cpu_nmult, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-cpu_cg", &cpu_cg, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-kr", &run_kr, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-windows", windows, &nwindows, NULL));
  {
    PetscInt  n = 8, kv[8];
    PetscBool set;
    PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-kc_variants", kv, &n, &set));
    if (set) {
      nkc_variants = n;
      for (PetscInt i = 0; i < n; i++) kc_variants[i] = kv[i];
    }
    new_paths = 64;
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-ellwarp_paths", ew_paths, &new_paths, &set));
    if (!set) new_paths = 0;
  }
  {
    PetscBool set;
    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-plex_reorders", reorders, &nreorders, &set));
    if (!set) {
      nreorders = 1;
      PetscCall(PetscStrallocpy("none", &reorders[0]));
    }
  }
  PetscCall(PetscWarpDeviceAvailable(&dev));
  PetscCheck(!pattern_only || size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-pattern_only is the one-GPU-user mode: run it on one rank");
  if (!setc) {
    ncases = 8;
    for (int i = 0; i < 8; i++) PetscCall(PetscStrallocpy(all[i].name, &cases[i]));
  }
  if (!rank && dev) PetscCall(CopyBandwidth(&copy_gbs));
  if (!rank && csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# copy_gbs=%.1f cpu_ranks=%d\n# case,rows,nnz,path,nprocs,time_us,gflops,eff_gbs,frac_copy,padding,build_s,build_per_spmv,upload_per_spmv,refresh_per_spmv,cg_s,note,cg_it_us,window,bytes_per_nnz,own_frac_copy\n", (double)copy_gbs, size));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device-to-device copy bandwidth (read + write): %.0f GB/s; CPU path on %d MPI ranks; GPU paths on rank 0\n", (double)copy_gbs, size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %9s %10s %-23s %3s %9s %6s %5s %6s %7s %7s %7s %6s %6s %6s %8s %5s %6s %s\n", "case", "rows", "nnz", "path", "np", "SpMV(us)", "GF/s", "GB/s", "%copy", "vsCusp", "padding", "build_s", "b/SpMV", "u/SpMV", "r/SpMV", "CG(s)", "B/nnz", "%own", "note"));
  for (PetscInt cr = 0; cr < ncases * nreorders; cr++) {
    PetscInt    c      = cr / nreorders;
    const char *plexro = reorders[cr % nreorders];
    BenchCase  *bc     = NULL;
    Mat         A = NULL, S = NULL, R;
    PetscBool   isp, ism, nore;
    char        name[64], cname[64];

    PetscCall(PetscStrcmp(cases[c], "powerlaw", &isp));
    PetscCall(PetscStrcmp(cases[c], "mtx", &ism));
    for (int i = 0; i < (int)(sizeof(all) / sizeof(all[0])); i++) {
      PetscBool f;
      PetscCall(PetscStrcmp(cases[c], all[i].name, &f));
      if (f) bc = &all[i];
    }
    PetscCheck(bc || isp || ism, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown case %s", cases[c]);
    PetscCall(PetscStrcmp(plexro, "none", &nore));
    if (!bc && !nore) continue; /* mesh orderings only for DMPlex cases */
    PetscCall(PetscStrncpy(cname, cases[c], sizeof(cname)));
    if (!nore) {
      PetscCall(PetscStrlcat(cname, "_plex", sizeof(cname)));
      PetscCall(PetscStrlcat(cname, plexro, sizeof(cname)));
    }
    if (bc) { /* assembled by PETSc on all ranks: the CPU path */
      DM        dm;
      Vec       b;
      char      opt[512], prefix[64];
      PetscInt  faces = PetscMax(1, (PetscInt)(bc->faces * scale + 0.5)), M, nnz;
      MatInfo   minfo;
      PetscReal t, tcg;

      PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", bc->name));
      PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_dim %" PetscInt_FMT " -%sdm_plex_simplex 0 -%sdm_plex_box_faces %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " -%spetscspace_degree %" PetscInt_FMT " -%sdm_refine %" PetscInt_FMT "%s%s%s", prefix, bc->dim, prefix, prefix, faces, faces, faces, prefix, bc->degree, prefix, bc->refine + (bc->tets ? 1 : 0), bc->tets ? " -" : "", bc->tets ? prefix : "", bc->tets ? "dm_plex_transform_type refine_tosimplex" : ""));
      if (bc->dim == 2)
        PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_dim 2 -%sdm_plex_simplex 0 -%sdm_plex_box_faces %" PetscInt_FMT ",%" PetscInt_FMT " -%spetscspace_degree %" PetscInt_FMT, prefix, prefix, prefix, faces, faces, prefix, bc->degree));
      if (bc->file)
        PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_filename %s/%s -%sdm_refine %" PetscInt_FMT " -%spetscspace_degree %" PetscInt_FMT, prefix, meshdir, bc->file, prefix, (PetscInt)PetscMax(0, (PetscInt)(bc->refine + PetscLog2Real(scale) + 0.5)), prefix, bc->degree));
      PetscCall(PetscOptionsInsertString(NULL, opt));
      if (!nore) {
        PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_reorder", prefix));
        PetscCall(PetscOptionsSetValue(NULL, opt, plexro));
      }
      PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, prefix, bc->physics[0] == 'l' ? PLEX_PHYSICS_LAPLACE : PLEX_PHYSICS_ELASTICITY, &dm));
      if (pattern_only) PetscCall(PatternMatrix(dm, &A));
      else {
        PetscCall(PlexProblemAssemble(dm, MATAIJ, &A, &b));
        PetscCall(VecDestroy(&b));
      }
      PetscCall(DMDestroy(&dm));
      if (!nore) {
        PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_reorder", prefix));
        PetscCall(PetscOptionsClearValue(NULL, opt));
      }
      PetscCall(MatGetSize(A, &M, NULL));
      PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &minfo));
      nnz = (PetscInt)minfo.nz_used;
      if (size > 1) { /* on one rank, aij_cpu1 below is the same path */
        PetscCall(TimeMult(A, PETSC_FALSE, &t));
        PetscCall(TimeCG(A, PETSC_FALSE, PETSC_FALSE, KSPCG, &tcg));
        if (!rank) PetscCall(Report(cname, M, nnz, "aij_cpu", size, t, 0, tcg, 1, 0, 0, 0, "PETSc CPU path, all ranks"));
      }
      PetscCall(GatherToRoot(A, &S));
      PetscCall(MatDestroy(&A));
    } else if (!rank) {
      if (isp) PetscCall(PowerLaw((PetscInt)(1000000 * scale), &S));
      else {
        PetscCheck(mtx[0], PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "case mtx needs -mtx file");
        PetscCall(LoadMTX(mtx, &S));
      }
    }
    if (!rank) {
      PetscCall(GpuPaths(cname, S, search));
      if (renumber) {
        PetscCall(Renumber(S, &R));
        PetscCall(PetscSNPrintf(name, sizeof(name), "%s_rand", cname));
        PetscCall(GpuPaths(name, R, PETSC_FALSE));
        PetscCall(MatDestroy(&R));
      }
    }
    PetscCall(MatDestroy(&S));
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  }
  if (csv) PetscCall(PetscFClose(PETSC_COMM_SELF, csv));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "GB/s: minimum bytes of a CSR product, nnz*(8+4) + rows*(4+8+8), over the median of %" PetscInt_FMT " products; b/u/r per SpMV: device build, index upload and device value refresh over one SpMV; CG: %" PetscInt_FMT " CG+Jacobi iterations\n", nmult, cg_its));
  for (PetscInt c = 0; c < ncases; c++) PetscCall(PetscFree(cases[c]));
  for (PetscInt c = 0; c < nreorders; c++) PetscCall(PetscFree(reorders[c]));
  for (PetscInt c = 0; c < ncg_types; c++) PetscCall(PetscFree(cg_types[c]));
  for (PetscInt c = 0; c < new_paths; c++) PetscCall(PetscFree(ew_paths[c]));
  PetscCall(PetscFinalize());
  return 0;
}
