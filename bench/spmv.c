static char help[] = "SpMV benchmark: DMPlex box finite-element matrices, every compared path in one run.\n"
                     "  -cases q1lap,q2lap,q1elas   matrices (Q1/Q2 Laplacian 80^3/40^3, Q1 elasticity 50^3 cells)\n"
                     "  -scale s                    scale the cell counts per direction (default 1)\n"
                     "  -paths a,b,...              aij,aijcusparse,sellcuda,ellwarp_k1,ellwarp_k2,ellwarp (default: all GPU paths;\n"
                     "                              aij is the CPU path, run it on all cores with mpiexec -n 16 ... -paths aij)\n"
                     "  -nmult n                    timed products (median reported, default 200)\n"
                     "  -csv file                   append results as CSV\n";

#include <petscwarp.h>
#include <petscdevice.h>
#include <petsctime.h>
#include "../tutorials/plexproblem.h"
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

/* Wait for the device, if there is one */
static PetscErrorCode Sync(void)
{
  PetscDeviceContext dctx;
  PetscBool          dev;

  PetscFunctionBegin;
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!dev) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscCall(PetscDeviceContextSynchronize(dctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Median seconds of one MatMult: CUDA events on PETSc's stream for device paths, MPI_Wtime around a barrier otherwise */
static PetscErrorCode TimeMult(Mat A, PetscBool device, PetscInt nmult, PetscReal *t)
{
  Vec         x, y;
  PetscReal  *ts;
  PetscRandom r;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(PetscRandomCreate(PetscObjectComm((PetscObject)A), &r));
  PetscCall(VecSetRandom(x, r));
  PetscCall(PetscRandomDestroy(&r));
  PetscCall(PetscMalloc1(nmult, &ts));
  for (PetscInt i = 0; i < 10; i++) PetscCall(MatMult(A, x, y)); /* warm-up: conversion, upload, handles */
  PetscCall(Sync());
  for (PetscInt i = 0; i < nmult; i++) {
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
  qsort(ts, (size_t)nmult, sizeof(PetscReal), CmpReal);
  *t = ts[nmult / 2];
  PetscCall(PetscFree(ts));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device-to-device copy bandwidth, bytes read + written, median of 20 copies of 1 GiB */
static PetscErrorCode CopyBandwidth(PetscReal *gbs)
{
  *gbs = 0;
  PetscFunctionBegin;
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
  PetscInt           m, n, rstart, rend, *nnz, ncols;
  const PetscInt    *cols;
  const PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &m, &n));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(PetscMalloc1(m, &nnz));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscCall(MatGetRow(A, i, &ncols, NULL, NULL));
    nnz[i - rstart] = ncols;
    PetscCall(MatRestoreRow(A, i, &ncols, NULL, NULL));
  }
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), S));
  PetscCall(MatSetSizes(*S, m, n, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*S, MATSEQSELLCUDA));
  PetscCall(MatSeqSELLSetPreallocation(*S, 0, nnz));
  for (PetscInt i = rstart; i < rend; i++) {
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    PetscCall(MatSetValues(*S, 1, &i, ncols, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const char *name, *physics;
  PetscInt    faces, degree;
} BenchCase;

int main(int argc, char **argv)
{
  BenchCase all[] = {
    {"q1lap",  "laplace",    80, 1},
    {"q2lap",  "laplace",    40, 2},
    {"q1elas", "elasticity", 50, 1}
  };
  char       *cases[8], *paths[8], csv[PETSC_MAX_PATH_LEN] = "";
  PetscInt    ncases = 8, npaths = 8, nmult = 200;
  PetscReal   scale = 1.0, copy_gbs;
  PetscBool   setc, setp, dev;
  PetscMPIInt size;
  FILE       *fp = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", cases, &ncases, &setc));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-paths", paths, &npaths, &setp));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nmult", &nmult, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), NULL));
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!setc) {
    ncases = 3;
    for (int i = 0; i < 3; i++) PetscCall(PetscStrallocpy(all[i].name, &cases[i]));
  }
  if (!setp) {
    const char *def[] = {"aijcusparse", "sellcuda", "ellwarp_k1", "ellwarp_k2", "ellwarp"};
    npaths            = 5;
    for (int i = 0; i < 5; i++) PetscCall(PetscStrallocpy(def[i], &paths[i]));
  }
  PetscCall(CopyBandwidth(&copy_gbs));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "device-to-device copy bandwidth (read + write): %.0f GB/s; %d MPI process(es)\n", (double)copy_gbs, size));
  if (csv[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_WORLD, csv, "a", &fp));
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fp, "# copy_gbs=%.1f nprocs=%d\n", (double)copy_gbs, size));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %9s %10s %-14s %10s %8s %9s %7s %8s %9s %9s\n", "case", "rows", "nnz", "path", "time(us)", "GF/s", "eff.GB/s", "%copy", "padding", "build(s)", "vs cusp"));
  for (PetscInt c = 0; c < ncases; c++) {
    BenchCase *bc = NULL;
    DM         dm;
    Mat        A;
    Vec        b;
    char       opt[256], prefix[64];
    PetscInt   faces, m, nnz;
    MatInfo    minfo;
    PetscReal  t_cusp = 0;

    for (int i = 0; i < 3; i++) {
      PetscBool f;
      PetscCall(PetscStrcmp(cases[c], all[i].name, &f));
      if (f) bc = &all[i];
    }
    PetscCheck(bc, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown case %s", cases[c]);
    faces = PetscMax(1, (PetscInt)(bc->faces * scale + 0.5));
    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", bc->name));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdm_plex_dim 3 -%sdm_plex_simplex 0 -%sdm_plex_box_faces %" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT " -%spetscspace_degree %" PetscInt_FMT, prefix, prefix, prefix, faces, faces, faces, prefix, bc->degree));
    PetscCall(PetscOptionsInsertString(NULL, opt));
    PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, prefix, bc->physics[0] == 'l' ? PLEX_PHYSICS_LAPLACE : PLEX_PHYSICS_ELASTICITY, &dm));
    PetscCall(PlexProblemAssemble(dm, MATAIJ, &A, &b));
    PetscCall(MatGetSize(A, &m, NULL));
    PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &minfo));
    nnz = (PetscInt)minfo.nz_used;
    for (PetscInt p = 0; p < npaths; p++) {
      Mat            B      = NULL;
      PetscBool      device = PETSC_TRUE, is;
      PetscReal      t = 0, padding = 1.0, build = 0;
      PetscLogDouble t0, t1;
      MatEllWarpInfo info;

      PetscCall(PetscTime(&t0));
      PetscCall(PetscStrcmp(paths[p], "aij", &is));
      if (is) {
        device = PETSC_FALSE;
        PetscCall(PetscObjectReference((PetscObject)A));
        B = A;
      }
      if (!B && !dev) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %9" PetscInt_FMT " %10" PetscInt_FMT " %-14s   skipped: no CUDA device\n", bc->name, m, nnz, paths[p]));
        continue;
      }
      PetscCall(PetscStrcmp(paths[p], "aijcusparse", &is));
      if (is) PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &B));
      PetscCall(PetscStrcmp(paths[p], "sellcuda", &is));
      if (is) {
        PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "sellcuda path: one process");
        PetscCall(BuildSell(A, &B));
      }
      PetscCall(PetscStrncmp(paths[p], "ellwarp", 7, &is));
      if (is) {
        PetscBool k1, k2;
        PetscCall(PetscStrcmp(paths[p], "ellwarp_k1", &k1));
        PetscCall(PetscStrcmp(paths[p], "ellwarp_k2", &k2));
        PetscCall(MatConvert(A, MATELLWARP, MAT_INITIAL_MATRIX, &B));
        PetscCall(MatEllWarpSetKernel(B, k1 ? MAT_ELLWARP_KERNEL_K1 : k2 ? MAT_ELLWARP_KERNEL_K2 : MAT_ELLWARP_KERNEL_AUTO, k2 ? 8 : PETSC_DETERMINE));
      }
      PetscCheck(B, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown path %s", paths[p]);
      PetscCall(PetscTime(&t1));
      build = (PetscReal)(t1 - t0);
      PetscCall(TimeMult(B, device, nmult, &t));
      PetscCall(PetscObjectTypeCompare((PetscObject)B, size > 1 ? MATMPIAIJELLWARP : MATSEQAIJELLWARP, &is));
      if (is) {
        PetscCall(MatEllWarpGetInfo(B, &info));
        padding = info.padding;
        build   = info.build_time;
      }
      PetscCall(PetscStrcmp(paths[p], "aijcusparse", &is));
      if (is) t_cusp = t;
      {
        PetscReal gbs = (12.0 * nnz + 20.0 * m) / t / 1e9, gfs = 2.0 * nnz / t / 1e9;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-8s %9" PetscInt_FMT " %10" PetscInt_FMT " %-14s %10.1f %8.1f %9.0f %6.1f%% %8.4f %9.4f %8.2fx\n", bc->name, m, nnz, paths[p], t * 1e6, gfs, gbs, copy_gbs > 0 ? 100 * gbs / copy_gbs : 0.0, padding, build, t_cusp > 0 ? t_cusp / t : 0.0));
        if (fp) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, fp, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%d,%.3f,%.2f,%.1f,%.4f,%.4f,%.6f\n", bc->name, m, nnz, paths[p], size, t * 1e6, gfs, gbs, copy_gbs > 0 ? gbs / copy_gbs : 0.0, padding, build));
      }
      PetscCall(MatDestroy(&B));
    }
    PetscCall(MatDestroy(&A));
    PetscCall(VecDestroy(&b));
    PetscCall(DMDestroy(&dm));
  }
  if (fp) PetscCall(PetscFClose(PETSC_COMM_WORLD, fp));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "effective GB/s counts the minimum bytes of a CSR product: nnz*(8+4) + rows*(4+8+8); medians of %" PetscInt_FMT " products\n", nmult));
  for (PetscInt c = 0; c < ncases; c++) PetscCall(PetscFree(cases[c]));
  for (PetscInt p = 0; p < npaths; p++) PetscCall(PetscFree(paths[p]));
  PetscCall(PetscFinalize());
  return 0;
}
