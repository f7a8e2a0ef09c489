static char help[] = "Finite-element assembly benchmark: every compared path in one run. Run it with mpiexec -n <host cores>:\n"
                     "PETSc's CPU assembly (SNESComputeJacobian -> DMPlexSNESComputeJacobianFEM into MATAIJ) is timed on all\n"
                     "ranks (distributed mesh) and on one rank (the whole mesh on rank 0, PETSC_COMM_SELF); the GPU paths run on\n"
                     "rank 0 on that one-rank mesh: PetscWarpAsm (DMPlexWarpAsmCreate) with every strategy into cuSPARSE CSR\n"
                     "(aijcusparse) and ELL-WARP (ellwarp), element computation included; coo into aijcusparse is PETSc's own\n"
                     "device path (element matrices + MatSetValuesCOO). Each GPU result is checked against the one-rank AIJ.\n"
                     "  -cases a,b,...     q1lap,q2lap,q1elas,q2elas,p1tri,p2tri,p3tri,p1tet,p2tet (default all): Q1/Q2 Laplacian on\n"
                     "                     80^3/40^3 hexahedra, Q1/Q2 elasticity on 50^3/25^3, P1-P3 Laplacian on refined gmsh triangles,\n"
                     "                     P1-P2 Laplacian on refined gmsh tetrahedra (0.35-0.75 M rows each at -scale 1)\n"
                     "  -scale s           scale the cells per direction (box: faces*s; gmsh: refined log2(s) more times; default 1)\n"
                     "  -mesh_tri file     gmsh mesh of triangles (default bench/meshes/square_tri.msh; refined 3/2/1 times for P1/P2/P3)\n"
                     "  -mesh_tet file     gmsh mesh of tetrahedra (default bench/meshes/cube_tet.msh; refined 2/1 times for P1/P2)\n"
                     "  -nasm n            timed assemblies per GPU path, median reported (default 20, after -nwarm n = 3 warm-ups)\n"
                     "  -ncpu n            timed CPU assemblies on all ranks, median reported (default 3, after one warm-up)\n"
                     "  -ncpu1 n           timed CPU assemblies on one rank after the one that gives the reference matrix (default 1;\n"
                     "                     0: the time of that first one is reported)\n"
                     "  -strategies a,...  sharednz,globalnz,color,atomic,coo,rownz (default all)\n"
                     "  -affine 1,0        each strategy with the affine fast path on and/or off (PetscWarpAsmSetAffine(); default 1,\n"
                     "                     or -mat_warp_assembly_affine): rows strategy>target and strategy>target(noaffine); the\n"
                     "                     note gives the cells the last assembly computed by the affine path\n"
                     "  -sharednz_partitioners a,...  -sharednz_smem b,...  also run sharednz with each partitioner (balls, metis,\n"
                     "                     ranges) and shared memory per block (bytes, 0: the device's maximum), without the\n"
                     "                     redundancy fallback to globalnz, and -sharednz_bs c,... threads per block (default\n"
                     "                     -mat_warp_sharednz_block_size): rows sharednz[partitioner,KiB,threads]>target\n"
                     "  -rownz_fused 1,0   also run rownz with each value of -mat_warp_rownz_fused (rows computing their cells'\n"
                     "                     factors, or the factor array), each with its own PetscWarpAsm: rows rownz[fused]>target\n"
                     "  -rownz_prefetch 0,1,2  also run rownz with each value of -mat_warp_rownz_prefetch (with each -rownz_fused value\n"
                     "                     where both are given): rows rownz[fused=1:prefetch=2]>target\n"
                     "  -rownz_variants a=b:c=d,...  also run rownz with each set of -mat_warp_rownz_a b -mat_warp_rownz_c d (instead of\n"
                     "                     -rownz_fused and -rownz_prefetch): rows rownz[a=b:c=d]>target\n"
                     "  -targets a,...     matrix types assembled into (default aijcusparse,ellwarp)\n"
                     "  -symbolic <first|all|none>  also assemble into a matrix of PetscWarpAsmCreateMatrix() (symbolic pattern from the\n"
                     "                     element map, no DMPlex preallocation): with the first strategy listed (default), all, none\n"
                     "  -matcreate <dm|convert>  the matrix of each target: DMSetMatType + DMCreateMatrix (default), or PETSc's one-rank\n"
                     "                     AIJ (the same DM pattern) converted to the type, which skips a second DMPlex preallocation\n"
                     "                     (that preallocation takes minutes on the refined tetrahedra)\n"
                     "  -host_twins        without a CUDA device, run the strategies with the host twins of the kernels into aij and\n"
                     "                     ellwarp (host backend): a check of the driver, not a benchmark (default: skipped: no device)\n"
                     "  -csv file          write the results as CSV\n"
                     "  -setup_only        only the set-up, per phase, one process: no CPU path, no assembly; per case the mesh,\n"
                     "                     DMPlexWarpAsmCreate (extract), per target PetscWarpAsmCreateMatrix (pattern) and per strategy\n"
                     "                     PetscWarpAsmSetUpMatrix (the plan: slots, color, red (reduction arrays), part (sharednz\n"
                     "                     partition), blocks (sharednz per-block arrays), upload; the log events WarpAsm*). Targets\n"
                     "                     default to aijcusparse,ellwarp with a device, else aij,ellwarp (host backend)\n"
                     "Each target matrix is created once per case (mat(s)); each path assembles into a copy of it whose values were set\n"
                     "to NaN, so an entry left unwritten (or added to) fails the check: max |entry difference| / max |entry| <= 1e-12\n"
                     "against PETSc's one-rank AIJ, else the row is marked WRONG and the run ends with an error.\n"
                     "Time per assembly: CUDA events on PETSc's current stream around PetscWarpAsmAssembleMatrix() (wall clock for\n"
                     "host paths), median of -nasm. Bytes: the minimum a fused assembly must move,\n"
                     "  nnz*8 (values written) + nnz*4 (one target index per non-zero) + ncells*ncv*(dim*8 + 4) (vertex coordinates\n"
                     "  and cell-to-vertex connectivity read),\n"
                     "GB/s = bytes/time, and % copy = that over the device-to-device copy bandwidth measured in the same run (1 GiB\n"
                     "cudaMemcpy, read + write, median of 20). Extra options reach PETSc and PetscWarpAsm (-mat_warp_*); the mesh of a\n"
                     "case takes options with the prefix <case>_, which override the case's own (e.g. -q1lap_dm_plex_box_faces 60,60,60,\n"
                     "-p1tet_dm_refine 1, -q1lap_petscpartitioner_type simple).\n";

#include <petscwarp.h>
#include <petscsnes.h>
#include <petscdmplex.h>
#include <petscds.h>
#include <petsctime.h>
#include "../tutorials/plexproblem.h"
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

static PetscReal copy_gbs = 0;
static FILE     *csv      = NULL;
static PetscInt  nasm = 20, nwarm = 3, ncpu = 3, ncpu1 = 1, nwrong = 0;
#if PetscDefined(HAVE_CUDA)
static cudaEvent_t ev[2];
#endif

typedef struct {
  const char *name, *family;
  PlexPhysics phys;
  PetscInt    dim, faces, degree, refine; /* faces: box cells per direction; refine: of the gmsh mesh */
  PetscInt    mesh;                       /* 0: box of hexahedra, 2: gmsh triangles, 3: gmsh tetrahedra */
} BenchCase;

/* The problem of the current case, for the derived numbers */
typedef struct {
  const BenchCase *bc;
  PetscInt         rows, nnz, ncells, nel, ncv, dim;
  PetscReal        bytes;      /* minimum bytes of a fused assembly */
  PetscReal        tall, tone; /* PETSc's CPU path on all ranks and on one (seconds; < 0: not measured) */
  PetscMPIInt      size;
} CaseInfo;

/* One result line; a negative number means "not applicable" (a '-' in the table, empty in the CSV) */
typedef struct {
  char      path[128], strategy[16], target[32], matrix[16], where[16];
  PetscInt  nprocs;
  PetscReal mat, first, setup, planmb, t, tlib, diff;
  char      status[256], note[256];
} Row;

static void RowInit(Row *r, const char *path, const char *strategy, const char *target, const char *matrix, const char *where, PetscInt nprocs)
{
  (void)PetscMemzero(r, sizeof(*r));
  (void)PetscStrncpy(r->path, path, sizeof(r->path));
  (void)PetscStrncpy(r->strategy, strategy, sizeof(r->strategy));
  (void)PetscStrncpy(r->target, target, sizeof(r->target));
  (void)PetscStrncpy(r->matrix, matrix, sizeof(r->matrix));
  (void)PetscStrncpy(r->where, where, sizeof(r->where));
  (void)PetscStrncpy(r->status, "ok", sizeof(r->status));
  r->nprocs = nprocs;
  r->mat = r->first = r->setup = r->planmb = r->t = r->tlib = r->diff = -1;
}

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

static PetscReal Median(PetscReal *ts, PetscInt n)
{
  qsort(ts, (size_t)n, sizeof(PetscReal), CmpReal);
  return ts[n / 2];
}

/* A number for the table ("-" when not applicable) or the CSV (empty when not applicable) */
static void Num(char *buf, size_t len, const char *fmt, PetscReal v, PetscBool table)
{
  if (v < 0) (void)PetscSNPrintf(buf, len, "%s", table ? "-" : "");
  else (void)PetscSNPrintf(buf, len, fmt, (double)v);
}

/* Text without double quotes or line breaks (one quoted CSV field, one table line) */
static void Clean(char *s)
{
  for (; *s; s++)
    if (*s == '\n' || *s == '\r') *s = ' ';
    else if (*s == '"') *s = '\'';
}

static PetscErrorCode TableHeader(void)
{
  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-34s %8s %8s %8s %8s %9s %8s %8s %8s %7s %7s %6s %9s  %s\n", "path", "mat(s)", "first(s)", "setup(s)", "plan(MB)", "asm(ms)", "vsCPUall", "vsCPU1", "Mcells/s", "Gnnz/s", "GB/s", "%copy", "maxrdiff", "status; note"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One result (rank 0): a table line and a CSV line */
static PetscErrorCode Report(const CaseInfo *ci, Row *r)
{
  PetscReal t = r->t, vsall = -1, vsone = -1, mcells = -1, gnnz = -1, gbs = -1, frac = -1;
  char      s[14][32];

  PetscFunctionBegin;
  Clean(r->status);
  Clean(r->note);
  if (t > 0) {
    vsall  = ci->tall > 0 ? ci->tall / t : -1;
    vsone  = ci->tone > 0 ? ci->tone / t : -1;
    mcells = ci->ncells / t / 1e6;
    gnnz   = ci->nnz / t / 1e9;
    gbs    = ci->bytes / t / 1e9;
    frac   = copy_gbs > 0 && r->where[0] != 'c' ? gbs / copy_gbs : -1; /* not for the CPU rows */
  }
  Num(s[0], 32, "%.3f", r->mat, PETSC_TRUE);
  Num(s[1], 32, "%.3f", r->first, PETSC_TRUE);
  Num(s[2], 32, "%.3f", r->setup, PETSC_TRUE);
  Num(s[3], 32, "%.1f", r->planmb, PETSC_TRUE);
  Num(s[4], 32, "%.3f", t > 0 ? t * 1e3 : -1, PETSC_TRUE);
  Num(s[5], 32, "%.2f", vsall, PETSC_TRUE);
  Num(s[6], 32, "%.1f", vsone, PETSC_TRUE);
  Num(s[7], 32, "%.1f", mcells, PETSC_TRUE);
  Num(s[8], 32, "%.2f", gnnz, PETSC_TRUE);
  Num(s[9], 32, "%.0f", gbs, PETSC_TRUE);
  Num(s[10], 32, "%.1f%%", frac > 0 ? 100 * frac : -1, PETSC_TRUE);
  Num(s[11], 32, "%.2e", r->diff, PETSC_TRUE);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-34s %8s %8s %8s %8s %9s %8s %8s %8s %7s %7s %6s %9s  %s%s%s\n", r->path, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], r->status, r->note[0] ? "; " : "", r->note));
  if (!csv) PetscFunctionReturn(PETSC_SUCCESS);
  Num(s[0], 32, "%.6f", r->mat, PETSC_FALSE);
  Num(s[1], 32, "%.6f", r->first, PETSC_FALSE);
  Num(s[2], 32, "%.6f", r->setup, PETSC_FALSE);
  Num(s[3], 32, "%.3f", r->planmb, PETSC_FALSE);
  Num(s[4], 32, "%.6f", t > 0 ? t * 1e3 : -1, PETSC_FALSE);
  Num(s[5], 32, "%.6f", r->tlib > 0 ? r->tlib * 1e3 : -1, PETSC_FALSE);
  Num(s[6], 32, "%.4f", vsall, PETSC_FALSE);
  Num(s[7], 32, "%.4f", vsone, PETSC_FALSE);
  Num(s[8], 32, "%.4f", mcells, PETSC_FALSE);
  Num(s[9], 32, "%.5f", gnnz, PETSC_FALSE);
  Num(s[10], 32, "%.2f", gbs, PETSC_FALSE);
  Num(s[11], 32, "%.5f", frac, PETSC_FALSE);
  Num(s[12], 32, "%.3e", r->diff, PETSC_FALSE);
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",\"%s\",%s,%s,%s,%s,%" PetscInt_FMT ",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.0f,%s,%s,%s,\"%s\",\"%s\"\n",
                         ci->bc->name, ci->bc->family, ci->bc->degree, ci->rows, ci->nnz, ci->ncells, ci->nel, ci->ncv, ci->dim, r->path, r->strategy, r->target, r->matrix, r->where, r->nprocs, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9],
                         (double)ci->bytes, s[10], s[11], s[12], r->status, r->note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PetscDefined(HAVE_CUDA)
/* Device-to-device copy bandwidth, bytes read + written, median of 20 copies of 1 GiB (called with CUDA only) */
static PetscErrorCode CopyBandwidth(PetscReal *gbs)
{
  PetscFunctionBegin;
  *gbs = 0;
  {
    size_t    bytes = (size_t)1 << 30;
    void     *a, *b;
    float     ms;
    PetscReal ts[20];
    PetscCallCUDA(cudaMalloc(&a, bytes));
    PetscCallCUDA(cudaMalloc(&b, bytes));
    PetscCallCUDA(cudaMemset(a, 1, bytes));
    for (int i = -3; i < 20; i++) {
      PetscCallCUDA(cudaEventRecord(ev[0], 0));
      PetscCallCUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
      PetscCallCUDA(cudaEventRecord(ev[1], 0));
      PetscCallCUDA(cudaEventSynchronize(ev[1]));
      PetscCallCUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
      if (i >= 0) ts[i] = (PetscReal)ms * 1e-3;
    }
    *gbs = 2.0 * (PetscReal)bytes / Median(ts, 20) / 1e9;
    PetscCallCUDA(cudaFree(a));
    PetscCallCUDA(cudaFree(b));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode DeviceDescription(PetscBool dev, char *buf, size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, len, "no CUDA device"));
#if PetscDefined(HAVE_CUDA)
  if (dev) {
    int                   d;
    struct cudaDeviceProp p;
    PetscCallCUDA(cudaGetDevice(&d));
    PetscCallCUDA(cudaGetDeviceProperties(&p, d));
    PetscCall(PetscSNPrintf(buf, len, "%s (%.1f GiB, %d SMs, %d KiB shared memory per block opt-in)", p.name, (double)p.totalGlobalMem / (1 << 30), p.multiProcessorCount, (int)(p.sharedMemPerBlockOptin / 1024)));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cudaDeviceSynchronize(): every stream, not only the current context (the plan uploads are timed too) */
static PetscErrorCode DeviceSynchronizeAll(PetscBool device)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (device) PetscCallCUDA(cudaDeviceSynchronize());
#endif
  (void)device;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's CPU path on the DM's communicator: DMCreateMatrix (MATAIJ), then SNESComputeJacobian (DMPlexSNESComputeJacobianFEM)
   once as warm-up and n times timed between barriers; the matrix of the last one is returned */
static PetscErrorCode TimeCPU(DM dm, PetscInt n, PetscReal *tmat, PetscReal *tfirst, PetscReal *tmed, Mat *J)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)dm);
  SNES           snes;
  Vec            u;
  PetscLogDouble t0, t1;
  PetscReal     *ts;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  PetscCall(DMSetMatType(dm, MATAIJ));
  PetscCall(DMCreateMatrix(dm, J));
  PetscCallMPI(MPI_Barrier(comm));
  t1    = MPI_Wtime();
  *tmat = (PetscReal)(t1 - t0);
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESCreate(comm, &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCallMPI(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  PetscCall(SNESComputeJacobian(snes, u, *J, *J));
  PetscCallMPI(MPI_Barrier(comm));
  t1      = MPI_Wtime();
  *tfirst = (PetscReal)(t1 - t0);
  *tmed   = *tfirst;
  if (n > 0) {
    PetscCall(PetscMalloc1(n, &ts));
    for (PetscInt i = 0; i < n; i++) {
      PetscCallMPI(MPI_Barrier(comm));
      t0 = MPI_Wtime();
      PetscCall(SNESComputeJacobian(snes, u, *J, *J));
      PetscCallMPI(MPI_Barrier(comm));
      t1    = MPI_Wtime();
      ts[i] = (PetscReal)(t1 - t0);
    }
    *tmed = Median(ts, n);
    PetscCall(PetscFree(ts));
  }
  PetscCall(SNESDestroy(&snes));
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |a_ij - b_ij| / max |b_ij| over the union of the two (sorted) CSR patterns; A's device values are pulled to the
   host. A NaN anywhere (an entry the assembly did not write keeps the NaN it was poisoned with) gives infinity. */
static PetscErrorCode MaxRelDiff(Mat A, Mat B, PetscReal *rel)
{
  const PetscInt    *ai, *aj, *bi, *bj;
  const PetscScalar *av, *bv;
  PetscInt           ma, mb;
  PetscBool          da, db, nan = PETSC_FALSE;
  PetscReal          nd = 0, nb = 0;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetArrayRead(A, &av));
  PetscCall(MatSeqAIJGetArrayRead(B, &bv));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &ma, &ai, &aj, &da));
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &mb, &bi, &bj, &db));
  PetscCheck(da && db && ma == mb, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Cannot compare: %" PetscInt_FMT " and %" PetscInt_FMT " rows", ma, mb);
  for (PetscInt i = 0; i < ma; i++) {
    PetscInt k = ai[i], l = bi[i];
    while (k < ai[i + 1] || l < bi[i + 1]) {
      PetscInt    ca = k < ai[i + 1] ? aj[k] : PETSC_INT_MAX, cb = l < bi[i + 1] ? bj[l] : PETSC_INT_MAX;
      PetscScalar va = 0, vb = 0;
      PetscReal   d;
      if (ca <= cb) va = av[k++];
      if (cb <= ca) vb = bv[l++];
      d = PetscAbsScalar(va - vb);
      if (PetscIsNanReal(d)) nan = PETSC_TRUE;
      nd = PetscMax(nd, d);
      nb = PetscMax(nb, PetscAbsScalar(vb));
    }
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &ma, &ai, &aj, &da));
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &mb, &bi, &bj, &db));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &av));
  PetscCall(MatSeqAIJRestoreArrayRead(B, &bv));
  *rel = nan ? PETSC_INFINITY : (nb > 0 ? nd / nb : nd);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every stored value NaN (host write): an entry that an assembly leaves unwritten, or adds to, shows in the check */
static PetscErrorCode Poison(Mat A)
{
  PetscScalar *v;
  MatInfo      info;

  PetscFunctionBegin;
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatSeqAIJGetArrayWrite(A, &v));
  for (PetscInt i = 0; i < (PetscInt)info.nz_used; i++) v[i] = (PetscScalar)nan("");
  PetscCall(MatSeqAIJRestoreArrayWrite(A, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Seconds of one assembly: CUDA events on PETSc's current stream (device), wall clock (host twins) */
static PetscErrorCode TimeOne(PetscWarpAsm wa, Mat A, PetscBool device, PetscReal *t)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (device) {
    cudaStream_t st;
    float        ms;
    PetscCall(PetscGetCurrentCUDAStream(&st));
    PetscCallCUDA(cudaEventRecord(ev[0], st));
    PetscCall(PetscWarpAsmAssembleMatrix(wa, A));
    PetscCallCUDA(cudaEventRecord(ev[1], st));
    PetscCallCUDA(cudaEventSynchronize(ev[1]));
    PetscCallCUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
    *t = (PetscReal)ms * 1e-3;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(PetscWarpAsmAssembleMatrix(wa, A));
    PetscCall(PetscTime(&t1));
    *t = (PetscReal)(t1 - t0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One path: a copy of the target matrix T (pattern only, values poisoned), the first assembly (plan set-up included),
   warm-ups, nasm timed assemblies, and the check against PETSc's one-rank AIJ */
static PetscErrorCode RunPath(PetscWarpAsm wa, Mat T, Mat Jref, PetscWarpAsmStrategy s, PetscBool device, Mat *A, Row *r)
{
  PetscLogDouble   t0, t1;
  PetscWarpAsmInfo info;
  PetscReal       *ts, *tl, setup;
  char             extra[128] = "";

  PetscFunctionBegin;
  {
    PetscBool isaij;
    PetscCall(PetscObjectBaseTypeCompare((PetscObject)T, MATSEQAIJ, &isaij));
    PetscCheck(isaij, PETSC_COMM_SELF, PETSC_ERR_SUP, "The target %s is not an AIJ type (the assembly and this driver's check need one)", ((PetscObject)T)->type_name);
  }
  PetscCall(MatDuplicate(T, MAT_DO_NOT_COPY_VALUES, A));
  PetscCall(Poison(*A));
  PetscCall(PetscWarpAsmSetStrategy(wa, s));
  PetscCall(DeviceSynchronizeAll(device));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscWarpAsmAssembleMatrix(wa, *A));
  PetscCall(DeviceSynchronizeAll(device));
  PetscCall(PetscTime(&t1));
  r->first = (PetscReal)(t1 - t0);
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  setup     = (PetscReal)info.setup_time;
  r->setup  = setup;
  r->planmb = (PetscReal)info.plan_bytes / 1e6;
  PetscCall(PetscStrncpy(r->where, info.device ? "device" : "host", sizeof(r->where)));
  for (PetscInt i = 0; i < nwarm; i++) PetscCall(PetscWarpAsmAssembleMatrix(wa, *A));
  PetscCall(PetscMalloc2(nasm, &ts, nasm, &tl));
  for (PetscInt i = 0; i < nasm; i++) {
    PetscCall(TimeOne(wa, *A, device, &ts[i]));
    PetscCall(PetscWarpAsmGetInfo(wa, &info));
    tl[i] = (PetscReal)info.assembly_time;
  }
  r->t    = Median(ts, nasm);
  r->tlib = Median(tl, nasm);
  PetscCall(PetscFree2(ts, tl));
  PetscCall(MaxRelDiff(*A, Jref, &r->diff));
  /* what the plan turned out to be */
  switch (s) {
  case PETSCWARP_ASM_SHAREDNZ:
    if (info.used == PETSCWARP_ASM_SHAREDNZ) PetscCall(PetscSNPrintf(extra, sizeof(extra), "%" PetscInt_FMT " blocks of <= %" PetscInt_FMT " cells, %.3f element computations per element", info.nblocks, info.maxcells, (double)info.redundancy));
    else if (info.redundancy > 0) PetscCall(PetscSNPrintf(extra, sizeof(extra), "ran as globalnz: blocks would compute each element %.2f times", (double)info.redundancy));
    else PetscCall(PetscStrncpy(extra, "ran as globalnz: the elements do not fit in shared memory", sizeof(extra)));
    break;
  case PETSCWARP_ASM_GLOBALNZ:
    PetscCall(PetscSNPrintf(extra, sizeof(extra), "%" PetscInt_FMT " reduction blocks", info.nblocks));
    break;
  case PETSCWARP_ASM_COLOR:
    PetscCall(PetscSNPrintf(extra, sizeof(extra), "%" PetscInt_FMT " colors", info.ncolors));
    break;
  case PETSCWARP_ASM_ROWNZ:
    if (info.used != PETSCWARP_ASM_ROWNZ) PetscCall(PetscStrncpy(extra, "ran as atomic (-info says why)", sizeof(extra)));
    else PetscCall(PetscStrncpy(extra, "no atomics, bitwise reproducible", sizeof(extra)));
    break;
  case PETSCWARP_ASM_COO:
    if (device && !info.device) PetscCall(PetscStrncpy(extra, "summed on the host (the target has no device COO path)", sizeof(extra)));
    break;
  default:
    break;
  }
  if (s == PETSCWARP_ASM_COO) PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "%s; %.0f COO entries%s%s", info.device ? "device" : "host", (double)info.ncells * info.nel * info.nel, extra[0] ? "; " : "", extra));
  else PetscCall(PetscSNPrintf(r->note, sizeof(r->note), "%s; %" PetscInt_FMT " target slots%s%s", info.device ? "device" : "host", info.nnz, extra[0] ? "; " : "", extra));
  PetscCall(PetscSNPrintf(extra, sizeof(extra), "; affine %" PetscInt_FMT "/%" PetscInt_FMT " cells", info.affine_last, info.ncells));
  PetscCall(PetscStrlcat(r->note, extra, sizeof(r->note)));
  if (info.setup_time != setup) PetscCall(PetscStrlcat(r->note, "; PLAN REBUILT DURING TIMING", sizeof(r->note)));
  if (!(r->diff <= 1e-12)) {
    nwrong++;
    if (r->diff >= PETSC_INFINITY) PetscCall(PetscStrncpy(r->status, "WRONG: entries left NaN (not written, or added to)", sizeof(r->status)));
    else PetscCall(PetscSNPrintf(r->status, sizeof(r->status), "WRONG: max rel. entry difference %.3e > 1e-12", (double)r->diff));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The message of a caught error, in status */
static PetscErrorCode Failed(PetscErrorCode ierr, char *status, size_t len)
{
  const char *text = NULL, *specific = NULL;

  PetscFunctionBegin;
  PetscCall(PetscErrorMessage(ierr, &text, &specific));
  PetscCall(PetscSNPrintf(status, len, "failed: %s%s%s", text ? text : "error", specific && specific[0] ? ": " : "", specific ? specific : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options a rownz variant replaced, with the values they had (a user's own -mat_warp_rownz_* options come back
   after the variant) */
#define ROWNZ_VARIANT_MAXOPT 8
typedef struct {
  int       n;
  char      name[ROWNZ_VARIANT_MAXOPT][128], value[ROWNZ_VARIANT_MAXOPT][256];
  PetscBool had[ROWNZ_VARIANT_MAXOPT];
} VariantSaved;

/* Sets the options -mat_warp_rownz_<name> <value> of a rownz variant "name=value:name=value:..." (saving what they
   were in *sv), or (spec NULL) puts back what *sv saved */
static PetscErrorCode RowNZVariantOptions(const char *spec, VariantSaved *sv)
{
  char buf[PETSC_MAX_PATH_LEN], *tok, *save = NULL;

  PetscFunctionBegin;
  if (!spec) {
    for (int k = 0; k < sv->n; k++) {
      if (sv->had[k]) PetscCall(PetscOptionsSetValue(NULL, sv->name[k], sv->value[k][0] ? sv->value[k] : NULL));
      else PetscCall(PetscOptionsClearValue(NULL, sv->name[k]));
    }
    sv->n = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  sv->n = 0;
  PetscCall(PetscStrncpy(buf, spec, sizeof(buf)));
  for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
    char *eq = strchr(tok, '=');
    int   k  = sv->n;
    PetscCheck(eq, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-rownz_variants: %s is not name=value", tok);
    PetscCheck(k < ROWNZ_VARIANT_MAXOPT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-rownz_variants: more than %d options in %s", ROWNZ_VARIANT_MAXOPT, spec);
    *eq = 0;
    PetscCall(PetscSNPrintf(sv->name[k], sizeof(sv->name[k]), "-mat_warp_rownz_%s", tok));
    sv->value[k][0] = 0;
    PetscCall(PetscOptionsGetString(NULL, NULL, sv->name[k], sv->value[k], sizeof(sv->value[k]), &sv->had[k]));
    sv->n++;
    PetscCall(PetscOptionsSetValue(NULL, sv->name[k], eq + 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A path whose errors are caught: a strategy that cannot run is reported as such, not a crash. T: the target matrix
   (NULL when its creation failed, with that message in tfail), tmat: the seconds its creation took */
static PetscErrorCode RunPathSafe(CaseInfo *ci, PetscWarpAsm wa, Mat T, PetscReal tmat, const char *tfail, Mat Jref, PetscWarpAsmStrategy s, const char *variant, const char *target, PetscBool symbolic, PetscBool device)
{
  Row              r;
  Mat              A = NULL;
  PetscErrorCode   ierr;
  char             path[128];
  PetscWarpAsmInfo info;

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmGetInfo(wa, &info));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s%s>%s%s%s", PetscWarpAsmStrategies[s], variant ? variant : "", target, symbolic ? "(symbolic)" : "", info.affine ? "" : "(noaffine)"));
  RowInit(&r, path, PetscWarpAsmStrategies[s], target, symbolic ? "symbolic" : "dm", device ? "device" : "host", 1);
  r.mat = tmat;
  if (!T) {
    PetscCall(PetscStrncpy(r.status, tfail, sizeof(r.status)));
    PetscCall(Report(ci, &r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = RunPath(wa, T, Jref, s, device, &A, &r);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(Failed(ierr, r.status, sizeof(r.status)));
    r.t = r.tlib = r.diff = -1;
#if PetscDefined(HAVE_CUDA)
    if (device) {
      (void)cudaGetLastError(); /* a non-sticky error (out of memory) is cleared; a sticky one will stop the run later */
      (void)cudaDeviceSynchronize();
      (void)cudaGetLastError();
    }
#endif
  }
  PetscCall(MatDestroy(&A));
  PetscCall(Report(ci, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The matrix of a target: DMCreateMatrix (or, with -matcreate convert, PETSc's one-rank AIJ without values converted to
   the type: the same pattern without a second DMPlex preallocation), or the symbolic PetscWarpAsmCreateMatrix */
static PetscErrorCode CreateTarget(DM dm, PetscWarpAsm wa, Mat Jref, const char *target, PetscBool symbolic, PetscBool convert, PetscBool device, Mat *T, PetscReal *tmat)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(DeviceSynchronizeAll(device));
  PetscCall(PetscTime(&t0));
  if (symbolic) PetscCall(PetscWarpAsmCreateMatrix(wa, target, T));
  else if (convert) {
    PetscCall(MatDuplicate(Jref, MAT_DO_NOT_COPY_VALUES, T));
    PetscCall(MatConvert(*T, target, MAT_INPLACE_MATRIX, T));
  } else {
    PetscCall(DMSetMatType(dm, target));
    PetscCall(DMCreateMatrix(dm, T));
  }
  PetscCall(DeviceSynchronizeAll(device));
  PetscCall(PetscTime(&t1));
  *tmat = (PetscReal)(t1 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* All GPU paths of a case on rank 0: dm is the one-rank DM, Jref PETSc's one-rank matrix */
static PetscErrorCode GpuPaths(CaseInfo *ci, DM dm, Mat Jref, PetscInt nstrat, const PetscWarpAsmStrategy strat[], PetscInt ntarg, char *targ[], PetscInt symbolic, PetscBool convert, PetscBool device, PetscBool run)
{
  PetscWarpAsm   wa = NULL;
  PetscErrorCode ierr;
  Row            r;
  PetscLogDouble t0, t1;

  PetscInt                     nswp = 8, nsws = 16, swsmem[16], smem0 = 0, nswb = 8, swbs[8], sbs0 = 512, naff = 2, nfused = 2, npf = 3, pfs[3], nfv, nrv = 16;
  PetscBool                    affs[2] = {PETSC_TRUE, PETSC_FALSE}, aff0 = PETSC_TRUE, fused[2];
  char                        *swpart[8], *rvs[16];
  PetscWarpSharedNZPartitioner part0   = PETSCWARP_SHAREDNZ_BALLS;
  PetscReal                    maxred0 = 3;
  PetscBool                    flg;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-sharednz_partitioners", swpart, &nswp, &flg));
  if (!flg) nswp = 0;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-sharednz_smem", swsmem, &nsws, &flg));
  if (!flg) {
    nsws      = 1;
    swsmem[0] = 0;
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_warp_sharednz_block_size", &sbs0, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-sharednz_bs", swbs, &nswb, &flg));
  if (!flg) {
    nswb    = 1;
    swbs[0] = sbs0;
  }
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_warp_sharednz_partitioner", PetscWarpSharedNZPartitioners, (PetscEnum *)&part0, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_warp_sharednz_shared_memory", &smem0, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mat_warp_sharednz_max_redundancy", &maxred0, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_warp_assembly_affine", &aff0, NULL));
  PetscCall(PetscOptionsGetBoolArray(NULL, NULL, "-rownz_fused", fused, &nfused, &flg));
  if (!flg) nfused = 0;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-rownz_prefetch", pfs, &npf, &flg));
  if (!flg) npf = 0;
  nfv = PetscMax(nfused, 1) * PetscMax(npf, 1); /* the rownz variants: each fused value with each prefetch value */
  if (!nfused && !npf) nfv = 0;
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-rownz_variants", rvs, &nrv, &flg));
  if (!flg) nrv = 0;
  if (nrv) nfv = nrv;
  PetscCall(PetscOptionsGetBoolArray(NULL, NULL, "-affine", affs, &naff, &flg));
  if (!flg) {
    naff    = 1;
    affs[0] = aff0;
  }
  /* the element map, mesh and reference element taken from the DM (host work, once per problem) */
  RowInit(&r, "extract", "", "", "", "host", 1);
  PetscCall(PetscStrncpy(r.note, "DMPlexWarpAsmCreate: element map, coordinates, reference element", sizeof(r.note)));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(PetscTime(&t0));
  ierr = DMPlexWarpAsmCreate(dm, ci->bc->phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY, &wa);
  if (!ierr) ierr = PetscWarpAsmSetFromOptions(wa);
  if (!ierr && !device) ierr = PetscWarpAsmUseDevice(wa, PETSC_FALSE);
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(Failed(ierr, r.status, sizeof(r.status)));
    PetscCall(Report(ci, &r));
    PetscCall(PetscWarpAsmDestroy(&wa));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  r.setup = (PetscReal)(t1 - t0);
  PetscCall(Report(ci, &r));
  for (PetscInt t = 0; t < ntarg; t++) {
    for (PetscInt m = 0; m < (symbolic ? 2 : 1); m++) {
      Mat       T    = NULL;
      PetscReal tmat = -1;
      char      tfail[256];

      PetscCall(PetscStrncpy(tfail, "skipped: no device", sizeof(tfail)));
      if (run) {
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = CreateTarget(dm, wa, Jref, targ[t], (PetscBool)(m == 1), convert, device, &T, &tmat);
        PetscCall(PetscPopErrorHandler());
        if (ierr) {
          PetscCall(Failed(ierr, tfail, sizeof(tfail)));
          PetscCall(MatDestroy(&T));
          tmat = -1;
        }
      }
      for (PetscInt k = 0; k < (m == 0 || symbolic == 2 ? nstrat : 1); k++) {
        for (PetscInt ia = 0; ia < naff; ia++) {
          PetscCall(PetscWarpAsmSetAffine(wa, affs[ia]));
          PetscCall(RunPathSafe(ci, wa, T, tmat, tfail, Jref, strat[k], NULL, targ[t], (PetscBool)(m == 1), device || !run));
        }
        PetscCall(PetscWarpAsmSetAffine(wa, affs[0]));
        if (strat[k] == PETSCWARP_ASM_ROWNZ && m == 0) { /* the rownz variants (-rownz_variants, or -rownz_fused x -rownz_prefetch) */
          for (PetscInt iv = 0; iv < nfv; iv++) {
            PetscWarpAsm wv = NULL;
            char         label[PETSC_MAX_PATH_LEN], spec[PETSC_MAX_PATH_LEN];
            VariantSaved saved;

            if (nrv) PetscCall(PetscStrncpy(spec, rvs[iv], sizeof(spec)));
            else {
              const PetscInt jf = nfused ? iv % nfused : -1, jp = npf ? iv / PetscMax(nfused, 1) : -1;
              PetscCall(PetscSNPrintf(spec, sizeof(spec), "%s%s", jf < 0 ? "" : fused[jf] ? "fused=1" : "fused=0", jf >= 0 && jp >= 0 ? ":" : ""));
              if (jp >= 0) PetscCall(PetscSNPrintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "prefetch=%" PetscInt_FMT, pfs[jp]));
            }
            PetscCall(PetscSNPrintf(label, sizeof(label), "[%s]", spec));
            PetscCall(RowNZVariantOptions(spec, &saved));
            PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
            ierr = DMPlexWarpAsmCreate(dm, ci->bc->phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY, &wv);
            if (!ierr) ierr = PetscWarpAsmSetFromOptions(wv);
            if (!ierr && !device) ierr = PetscWarpAsmUseDevice(wv, PETSC_FALSE);
            PetscCall(PetscPopErrorHandler());
            PetscCall(RowNZVariantOptions(NULL, &saved));
            if (!ierr) PetscCall(RunPathSafe(ci, wv, T, tmat, tfail, Jref, strat[k], label, targ[t], PETSC_FALSE, device || !run));
            else { /* a variant the options reject still gets its row, with the reason */ Row r;
              char                                                                            path[128];

              PetscCall(PetscSNPrintf(path, sizeof(path), "%s%s>%s", PetscWarpAsmStrategies[strat[k]], label, targ[t]));
              RowInit(&r, path, PetscWarpAsmStrategies[strat[k]], targ[t], "dm", device || !run ? "device" : "host", 1);
              PetscCall(Failed(ierr, r.status, sizeof(r.status)));
              r.t = r.tlib = r.diff = -1;
              PetscCall(Report(ci, &r));
            }
            PetscCall(PetscWarpAsmDestroy(&wv));
          }
        }
        if (strat[k] != PETSCWARP_ASM_SHAREDNZ || m == 1) continue;
        /* the sweep of sharednz's parameters (-sharednz_partitioners, -sharednz_smem), without the redundancy fallback */
        for (PetscInt ip = 0; ip < nswp; ip++)
          for (PetscInt is = 0; is < nsws; is++)
            for (PetscInt ib = 0; ib < nswb; ib++) {
              char                         variant[64];
              PetscWarpSharedNZPartitioner pt;
              PetscBool                    found;

              PetscCall(PetscEnumFind(PetscWarpSharedNZPartitioners, swpart[ip], (PetscEnum *)&pt, &found));
              PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown partitioner %s", swpart[ip]);
              PetscCall(PetscSNPrintf(variant, sizeof(variant), "[%s,%" PetscInt_FMT "K,%" PetscInt_FMT "]", swpart[ip], swsmem[is] / 1024, swbs[ib]));
              PetscCall(PetscWarpAsmSetSharedNZ(wa, pt, swsmem[is], swbs[ib], 1e30));
              PetscCall(RunPathSafe(ci, wa, T, tmat, tfail, Jref, strat[k], variant, targ[t], PETSC_FALSE, device || !run));
              PetscCall(PetscWarpAsmSetSharedNZ(wa, part0, smem0, sbs0, maxred0));
            }
      }
      PetscCall(MatDestroy(&T));
    }
  }
  PetscCall(PetscWarpAsmDestroy(&wa));
  for (PetscInt ip = 0; ip < nswp; ip++) PetscCall(PetscFree(swpart[ip]));
  for (PetscInt iv = 0; iv < nrv; iv++) PetscCall(PetscFree(rvs[iv]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cells, element dofs, vertices per cell and dimension of a (possibly distributed) single-field DM */
static PetscErrorCode ProblemSizes(DM dm, CaseInfo *ci)
{
  PetscInt       cStart, cEnd, n, nel = 0, ncv = 0;
  PetscDS        ds;
  DMPolytopeType ct;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &ci->dim));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  n = cEnd - cStart;
  PetscCallMPI(MPIU_Allreduce(&n, &ci->ncells, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)dm)));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetTotalDimension(ds, &nel));
  if (n > 0) {
    PetscCall(DMPlexGetCellType(dm, cStart, &ct));
    ncv = DMPolytopeTypeGetNumVertices(ct);
  }
  PetscCallMPI(MPIU_Allreduce(&nel, &ci->nel, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)dm)));
  PetscCallMPI(MPIU_Allreduce(&ncv, &ci->ncv, 1, MPIU_INT, MPI_MAX, PetscObjectComm((PetscObject)dm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -setup_only: the set-up phases, seconds of the log events since the last call (the default log handler runs) */
#define NPHASE 8
static const char *phase_event[NPHASE] = {"WarpAsmExtract", "WarpAsmPattern", "WarpAsmPlanSlots", "WarpAsmPlanColor", "WarpAsmPlanRed", "WarpAsmPlanPart", "WarpAsmPlanBlocks", "WarpAsmPlanUpload"};
static const char *phase_name[NPHASE]  = {"extract", "pattern", "slots", "color", "red", "part", "blocks", "upload"};

static PetscErrorCode PhaseTimes(PetscReal last[], PetscReal dt[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < NPHASE; k++) {
    PetscLogEvent      e;
    PetscEventPerfInfo pi;
    PetscCall(PetscLogEventGetId(phase_event[k], &e));
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &pi));
    dt[k]   = (PetscReal)pi.time - last[k];
    last[k] = (PetscReal)pi.time;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One line of the set-up table and of the CSV: total seconds (wall), the phases, a note */
static PetscErrorCode SetupReport(const BenchCase *bc, const CaseInfo *ci, const char *path, PetscReal total, PetscReal setup, const PetscReal dt[], PetscReal planmb, const char *note)
{
  char s[NPHASE + 3][32], line[512] = "";

  PetscFunctionBegin;
  Num(s[0], 32, "%.3f", total, PETSC_TRUE);
  Num(s[1], 32, "%.3f", setup, PETSC_TRUE);
  Num(s[2], 32, "%.1f", planmb, PETSC_TRUE);
  for (PetscInt k = 0; k < NPHASE; k++) Num(s[3 + k], 32, "%.3f", dt && dt[k] > 0 ? dt[k] : -1, PETSC_TRUE);
  for (PetscInt k = 0; k < NPHASE; k++) {
    char f[40];
    PetscCall(PetscSNPrintf(f, sizeof(f), " %8s", s[3 + k]));
    PetscCall(PetscStrlcat(line, f, sizeof(line)));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-26s %8s %8s %8s%s  %s\n", path, s[0], s[1], s[2], line, note));
  if (!csv) PetscFunctionReturn(PETSC_SUCCESS);
  Num(s[0], 32, "%.6f", total, PETSC_FALSE);
  Num(s[1], 32, "%.6f", setup, PETSC_FALSE);
  Num(s[2], 32, "%.3f", planmb, PETSC_FALSE);
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",\"%s\",%s,%s,%s", bc->name, ci->rows, ci->nnz, ci->ncells, ci->nel, path, s[0], s[1], s[2]));
  for (PetscInt k = 0; k < NPHASE; k++) {
    Num(s[3 + k], 32, "%.6f", dt && dt[k] > 0 ? dt[k] : -1, PETSC_FALSE);
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, ",%s", s[3 + k]));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, ",\"%s\"\n", note));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -setup_only, one case on PETSC_COMM_SELF: mesh, extraction, per target the symbolic pattern and per strategy the plan
   (after a warm-up of the first case's plans on the device, once per process) */
static PetscBool warmedup = PETSC_FALSE;

static PetscErrorCode SetupCase(const BenchCase *bc, const char *prefix, PetscInt nstrat, const PetscWarpAsmStrategy strat[], PetscInt ntarg, char *targ[], PetscBool device)
{
  DM             dm;
  PetscWarpAsm   wa;
  CaseInfo       ci;
  PetscLogDouble t0, t1;
  PetscReal      last[NPHASE] = {0}, dt[NPHASE], tmesh;
  char           note[256];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&ci, sizeof(ci)));
  ci.bc = bc;
  PetscCall(PetscTime(&t0));
  PetscCall(PlexProblemCreate(PETSC_COMM_SELF, prefix, bc->phys, &dm));
  { /* what any use of the DM sets up first (PETSc's Jacobian too): the sections, the cell types, the local coordinates */
    PetscSection   gs;
    Vec            X;
    PetscInt       cStart;
    DMPolytopeType ct;
    PetscCall(DMGetGlobalSection(dm, &gs));
    PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, NULL));
    PetscCall(DMPlexGetCellType(dm, cStart, &ct));
    PetscCall(DMGetCoordinatesLocal(dm, &X));
  }
  PetscCall(PetscTime(&t1));
  tmesh = (PetscReal)(t1 - t0);
  PetscCall(ProblemSizes(dm, &ci));
  PetscCall(PhaseTimes(last, dt));
  PetscCall(PetscTime(&t0));
  PetscCall(DMPlexWarpAsmCreate(dm, bc->phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY, &wa));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscWarpAsmSetFromOptions(wa));
  if (!device) PetscCall(PetscWarpAsmUseDevice(wa, PETSC_FALSE));
  PetscCall(PhaseTimes(last, dt));
  {
    PetscSection gs;
    PetscCall(DMGetGlobalSection(dm, &gs));
    PetscCall(PetscSectionGetConstrainedStorageSize(gs, &ci.rows));
  }
  if (device && !warmedup) { /* the first plans of the process load their kernels (CUDA lazy loading): once, not counted */
    Mat            T;
    PetscLogDouble s0, s1;
    PetscReal      dtw[NPHASE];

    warmedup = PETSC_TRUE;
    PetscCall(PetscTime(&s0));
    PetscCall(PetscWarpAsmCreateMatrix(wa, targ[0], &T));
    for (PetscInt k = 0; k < nstrat; k++) {
      PetscErrorCode ierr;

      PetscCall(PetscWarpAsmSetStrategy(wa, strat[k]));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PetscWarpAsmSetUpMatrix(wa, T);
      PetscCall(PetscPopErrorHandler());
      (void)ierr; /* reported by the measured call below */
    }
    PetscCall(MatDestroy(&T));
    PetscCall(DeviceSynchronizeAll(device));
    PetscCall(PetscTime(&s1));
    PetscCall(PhaseTimes(last, dtw)); /* dt keeps the extraction's phases */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  (warm-up, not counted: the pattern and every strategy's plan once into %s, %.3f s: the process's first plans load their CUDA kernels)\n", targ[0], (double)(s1 - s0)));
  }
  for (PetscInt t = 0; t < ntarg; t++) {
    Mat              T;
    PetscLogDouble   s0, s1;
    PetscWarpAsmInfo info;

    PetscCall(DeviceSynchronizeAll(device));
    PetscCall(PetscTime(&s0));
    PetscCall(PetscWarpAsmCreateMatrix(wa, targ[t], &T));
    PetscCall(DeviceSynchronizeAll(device));
    PetscCall(PetscTime(&s1));
    if (!t) {
      MatInfo minfo;
      PetscCall(MatGetInfo(T, MAT_LOCAL, &minfo));
      ci.nnz = (PetscInt)minfo.nz_used;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n== %s: %s, degree %" PetscInt_FMT ", %" PetscInt_FMT " rows, %" PetscInt_FMT " nnz, %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs\n", bc->name, bc->family, bc->degree, ci.rows, ci.nnz, ci.ncells, ci.nel));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-26s %8s %8s %8s", "path", "wall(s)", "setup(s)", "plan(MB)"));
      for (PetscInt k = 0; k < NPHASE; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %8s", phase_name[k]));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  note\n"));
      PetscCall(PetscSNPrintf(note, sizeof(note), "DMPlexWarpAsmCreate: element map, coordinates, reference element (before it, not counted: mesh, sections, cell types %.3f s)", (double)tmesh));
      PetscCall(SetupReport(bc, &ci, "extract", (PetscReal)(t1 - t0), -1, dt, -1, note));
    }
    PetscCall(PhaseTimes(last, dt));
    PetscCall(PetscSNPrintf(note, sizeof(note), "PetscWarpAsmCreateMatrix(%s): symbolic pattern, matrix creation", targ[t]));
    {
      char path[128];
      PetscCall(PetscSNPrintf(path, sizeof(path), "pattern>%s", targ[t]));
      PetscCall(SetupReport(bc, &ci, path, (PetscReal)(s1 - s0), -1, dt, -1, note));
    }
    for (PetscInt k = 0; k < nstrat; k++) {
      char           path[128];
      PetscErrorCode ierr;

      PetscCall(PetscSNPrintf(path, sizeof(path), "%s>%s", PetscWarpAsmStrategies[strat[k]], targ[t]));
      PetscCall(PetscWarpAsmSetStrategy(wa, strat[k]));
      PetscCall(DeviceSynchronizeAll(device));
      PetscCall(PetscTime(&s0));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PetscWarpAsmSetUpMatrix(wa, T);
      PetscCall(PetscPopErrorHandler());
      PetscCall(DeviceSynchronizeAll(device));
      PetscCall(PetscTime(&s1));
      PetscCall(PhaseTimes(last, dt));
      if (ierr) {
        PetscCall(Failed(ierr, note, sizeof(note)));
        PetscCall(SetupReport(bc, &ci, path, -1, -1, NULL, -1, note));
        continue;
      }
      PetscCall(PetscWarpAsmGetInfo(wa, &info));
      note[0] = 0;
      if (strat[k] == PETSCWARP_ASM_SHAREDNZ && info.used == PETSCWARP_ASM_SHAREDNZ)
        PetscCall(PetscSNPrintf(note, sizeof(note), "%" PetscInt_FMT " blocks of <= %" PetscInt_FMT " cells, %.3f element computations per element", info.nblocks, info.maxcells, (double)info.redundancy));
      else if (strat[k] == PETSCWARP_ASM_SHAREDNZ) PetscCall(PetscSNPrintf(note, sizeof(note), "ran as globalnz (redundancy %.2f)", (double)info.redundancy));
      else if (strat[k] == PETSCWARP_ASM_COLOR) PetscCall(PetscSNPrintf(note, sizeof(note), "%" PetscInt_FMT " colors", info.ncolors));
      else if (strat[k] == PETSCWARP_ASM_GLOBALNZ) PetscCall(PetscSNPrintf(note, sizeof(note), "%" PetscInt_FMT " reduction blocks", info.nblocks));
      PetscCall(SetupReport(bc, &ci, path, (PetscReal)(s1 - s0), (PetscReal)info.setup_time, dt, (PetscReal)info.plan_bytes / 1e6, note));
    }
    PetscCall(MatDestroy(&T));
  }
  PetscCall(PetscWarpAsmDestroy(&wa));
  PetscCall(DMDestroy(&dm));
  if (csv) PetscCall(PetscFFlush(csv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  BenchCase all[] = {
    {"q1lap",  "hex Laplace",     PLEX_PHYSICS_LAPLACE,    3, 80, 1, 0, 0},
    {"q2lap",  "hex Laplace",     PLEX_PHYSICS_LAPLACE,    3, 40, 2, 0, 0},
    {"q1elas", "hex elasticity",  PLEX_PHYSICS_ELASTICITY, 3, 50, 1, 0, 0},
    {"q2elas", "hex elasticity",  PLEX_PHYSICS_ELASTICITY, 3, 25, 2, 0, 0},
    {"p1tri",  "gmsh triangles",  PLEX_PHYSICS_LAPLACE,    2, 0,  1, 3, 2},
    {"p2tri",  "gmsh triangles",  PLEX_PHYSICS_LAPLACE,    2, 0,  2, 2, 2},
    {"p3tri",  "gmsh triangles",  PLEX_PHYSICS_LAPLACE,    2, 0,  3, 1, 2},
    {"p1tet",  "gmsh tetrahedra", PLEX_PHYSICS_LAPLACE,    3, 0,  1, 2, 3},
    {"p2tet",  "gmsh tetrahedra", PLEX_PHYSICS_LAPLACE,    3, 0,  2, 1, 3},
  };
  const PetscInt       nall = (PetscInt)(sizeof(all) / sizeof(all[0]));
  char                *cases[32], *strs[8], *targ[8], csvname[PETSC_MAX_PATH_LEN] = "", meshtri[PETSC_MAX_PATH_LEN] = "bench/meshes/square_tri.msh", meshtet[PETSC_MAX_PATH_LEN] = "bench/meshes/cube_tet.msh";
  char                 symname[16] = "first", devname[256], date[64], version[128];
  PetscInt             ncases = 32, nstrat = 8, ntarg = 8, symbolic = 1;
  PetscWarpAsmStrategy strat[8];
  PetscReal            scale = 1.0;
  PetscBool            setc, sets, sett, dev, twins = PETSC_FALSE, run, convert = PETSC_FALSE, setuponly = PETSC_FALSE, one;
  PetscMPIInt          size, rank;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscWarpInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-cases", cases, &ncases, &setc));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-strategies", strs, &nstrat, &sets));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-targets", targ, &ntarg, &sett));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-scale", &scale, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nasm", &nasm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nwarm", &nwarm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncpu", &ncpu, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncpu1", &ncpu1, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mesh_tri", meshtri, sizeof(meshtri), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mesh_tet", meshtet, sizeof(meshtet), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csvname, sizeof(csvname), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-symbolic", symname, sizeof(symname), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-host_twins", &twins, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-setup_only", &setuponly, NULL));
  if (setuponly) PetscCall(PetscLogDefaultBegin()); /* the phases are read from the log events */
  {
    char      mc[16] = "dm";
    PetscBool f0, f1;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-matcreate", mc, sizeof(mc), NULL));
    PetscCall(PetscStrcmp(mc, "dm", &f0));
    PetscCall(PetscStrcmp(mc, "convert", &f1));
    PetscCheck(f0 || f1, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-matcreate %s: dm or convert", mc);
    convert = f1;
  }
  PetscCheck(nasm >= 1 && nwarm >= 0 && ncpu >= 0 && ncpu1 >= 0 && scale > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "Need -nasm >= 1, -nwarm, -ncpu, -ncpu1 >= 0 and -scale > 0");
  {
    PetscBool f0, f1, f2;
    PetscCall(PetscStrcmp(symname, "none", &f0));
    PetscCall(PetscStrcmp(symname, "first", &f1));
    PetscCall(PetscStrcmp(symname, "all", &f2));
    PetscCheck(f0 || f1 || f2, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-symbolic %s: none, first or all", symname);
    symbolic = f0 ? 0 : (f1 ? 1 : 2);
  }
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!setc) {
    ncases = nall;
    for (PetscInt i = 0; i < nall; i++) PetscCall(PetscStrallocpy(all[i].name, &cases[i]));
  }
  if (!sets) {
    nstrat = 6; /* every PetscWarpAsmStrategy */
    for (PetscInt s = 0; s < nstrat; s++) PetscCall(PetscStrallocpy(PetscWarpAsmStrategies[s], &strs[s]));
  }
  for (PetscInt s = 0; s < nstrat; s++) {
    PetscBool found;
    PetscCall(PetscEnumFind(PetscWarpAsmStrategies, strs[s], (PetscEnum *)&strat[s], &found));
    PetscCheck(found, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown strategy %s (sharednz, globalnz, color, atomic, coo, rownz)", strs[s]);
  }
  if (!sett) { /* with the host twins (no device): PETSc's host AIJ in place of cuSPARSE, ELL-WARP's host backend */
    ntarg = 2;
    PetscCall(PetscStrallocpy(dev || !(twins || setuponly) ? MATAIJCUSPARSE : MATAIJ, &targ[0]));
    PetscCall(PetscStrallocpy(MATELLWARP, &targ[1]));
  }
  run = (PetscBool)(dev || twins);
#if PetscDefined(HAVE_CUDA)
  if (!rank && dev) {
    PetscCallCUDA(cudaEventCreate(&ev[0]));
    PetscCallCUDA(cudaEventCreate(&ev[1]));
    PetscCall(CopyBandwidth(&copy_gbs));
  }
#endif
  PetscCall(DeviceDescription((PetscBool)(dev && !rank), devname, sizeof(devname)));
  PetscCall(PetscGetDate(date, sizeof(date)));
  PetscCall(PetscGetVersion(version, sizeof(version)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bench_assembly, %s; %s\ndevice: %s; device-to-device copy bandwidth (read + write) measured now: %.0f GB/s\n", date, version, devname, (double)copy_gbs));
  if (setuponly) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "set-up only (-setup_only), one process; plans on the %s\n", dev ? "device (uploads included)" : "host"));
  else
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PETSc's CPU path on %d MPI ranks (median of %" PetscInt_FMT " after a warm-up) and on 1 (median of %" PetscInt_FMT "); GPU paths on rank 0: median of %" PetscInt_FMT " after %" PetscInt_FMT " warm-ups%s\n", size, ncpu, ncpu1, nasm, nwarm, run ? (dev ? "" : " -- NO DEVICE: host twins of the kernels, a check of the driver, not GPU numbers") : " -- NO DEVICE: the GPU paths are skipped"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "bytes = nnz*8 (values written) + nnz*4 (target index per non-zero) + ncells*ncv*(dim*8 + 4) (coordinates, connectivity read); GB/s = bytes/time\n"));
  if (!rank && csvname[0] && setuponly) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# bench_assembly -setup_only date=%s petsc=%s\n# device=%s\n# seconds; wall_s: wall clock of the call; setup_s: PetscWarpAsmInfo.setup_time; phases: log events\n", date, version, devname));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "case,rows,nnz,ncells,nel,path,wall_s,setup_s,plan_mb"));
    for (PetscInt k = 0; k < NPHASE; k++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, ",%s_s", phase_name[k]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, ",note\n"));
  } else if (!rank && csvname[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, csvname, "w", &csv));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# bench_assembly date=%s petsc=%s\n# device=%s\n# copy_gbs=%.1f cpu_ranks=%d nasm=%" PetscInt_FMT " nwarm=%" PetscInt_FMT " ncpu=%" PetscInt_FMT " ncpu1=%" PetscInt_FMT " scale=%g\n", date, version, devname, (double)copy_gbs, size, nasm, nwarm, ncpu, ncpu1, (double)scale));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "# bytes = nnz*8 (values written) + nnz*4 (one target index per non-zero) + ncells*ncv*(dim*8+4) (coordinates and connectivity read); eff_gbs = bytes/time; frac_copy = eff_gbs/copy_gbs\n"));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, csv, "case,family,degree,rows,nnz,ncells,nel,ncv,dim,path,strategy,target,matrix,where,nprocs,mat_s,first_s,setup_s,plan_mb,time_ms,lib_time_ms,vs_cpu_all,vs_cpu_1,mcells_s,gnnz_s,bytes,eff_gbs,frac_copy,max_rel_diff,status,note\n"));
  }

  for (PetscInt c = 0; c < ncases; c++) {
    const BenchCase *bc = NULL;
    CaseInfo         ci;
    DM               dm;
    Mat              J;
    Row              r;
    char             prefix[64], key[128], val[PETSC_MAX_PATH_LEN];
    PetscReal        tmat, tfirst, tmed;
    PetscBool        given;

    for (PetscInt i = 0; i < nall; i++) {
      PetscBool f;
      PetscCall(PetscStrcmp(cases[c], all[i].name, &f));
      if (f) bc = &all[i];
    }
    PetscCheck(bc, PETSC_COMM_WORLD, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown case %s", cases[c]);
    PetscCall(PetscMemzero(&ci, sizeof(ci)));
    ci.bc   = bc;
    ci.size = size;
    ci.tall = ci.tone = -1;
    /* the mesh and element of the case, as options with the prefix <case>_ (both DMs read them; given ones are kept) */
    PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%s_", bc->name));
#define SETOPT(k, ...) \
  do { \
    PetscCall(PetscSNPrintf(key, sizeof(key), "-%s%s", prefix, k)); \
    PetscCall(PetscSNPrintf(val, sizeof(val), __VA_ARGS__)); \
    PetscCall(PetscOptionsHasName(NULL, NULL, key, &given)); \
    if (!given) PetscCall(PetscOptionsSetValue(NULL, key, val)); \
  } while (0)
    if (bc->mesh == 0) {
      PetscInt f = PetscMax(1, (PetscInt)(bc->faces * scale + 0.5));
      SETOPT("dm_plex_dim", "%" PetscInt_FMT, bc->dim);
      SETOPT("dm_plex_simplex", "0");
      SETOPT("dm_plex_box_faces", "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT, f, f, f);
    } else {
      PetscInt n = PetscMax(0, bc->refine + (PetscInt)PetscFloorReal(PetscLog2Real(scale) + 0.5));
      SETOPT("dm_plex_filename", "%s", bc->mesh == 2 ? meshtri : meshtet);
      SETOPT("dm_refine", "%" PetscInt_FMT, n);
    }
    SETOPT("petscspace_degree", "%" PetscInt_FMT, bc->degree);
#undef SETOPT
    if (setuponly) {
      if (!rank) PetscCall(SetupCase(bc, prefix, nstrat, strat, ntarg, targ, dev));
      continue;
    }

    /* PETSc's CPU path on all ranks (distributed mesh). On one process it is the one-rank path below: that one runs
       once and stands for both (on p1tet each run costs 150 s, 106 s of it DMCreateMatrix) */
    one = size == 1 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PlexProblemCreate(one ? PETSC_COMM_SELF : PETSC_COMM_WORLD, prefix, bc->phys, &dm));
    PetscCall(ProblemSizes(dm, &ci));
    PetscCall(TimeCPU(dm, one ? ncpu1 : ncpu, &tmat, &tfirst, &tmed, &J));
    {
      MatInfo minfo;
      PetscCall(MatGetSize(J, &ci.rows, NULL));
      PetscCall(MatGetInfo(J, MAT_GLOBAL_SUM, &minfo));
      ci.nnz = (PetscInt)minfo.nz_used;
    }
    ci.tall  = tmed;
    ci.bytes = 12.0 * ci.nnz + (PetscReal)ci.ncells * ci.ncv * (8.0 * ci.dim + 4.0);
    if (!one) {
      PetscCall(MatDestroy(&J));
      PetscCall(DMDestroy(&dm));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n== %s: %s, degree %" PetscInt_FMT ", %" PetscInt_FMT " rows, %" PetscInt_FMT " nnz, %" PetscInt_FMT " cells of %" PetscInt_FMT " dofs and %" PetscInt_FMT " vertices; minimum bytes %.4g GB%s", bc->name, bc->family, bc->degree, ci.rows, ci.nnz, ci.ncells, ci.nel, ci.ncv, (double)(ci.bytes / 1e9), copy_gbs > 0 ? " (copy time " : "\n"));
    if (copy_gbs > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%.3f ms)\n", (double)(ci.bytes / copy_gbs / 1e6)));
    if (!rank) {
      PetscCall(TableHeader());
      RowInit(&r, "cpu_all", "", MATAIJ, "dm", "cpu", size);
      r.mat   = tmat;
      r.first = tfirst;
      r.t     = tmed;
      if (one) PetscCall(PetscSNPrintf(r.note, sizeof(r.note), "PETSc CPU path (DMPlexSNESComputeJacobianFEM) on 1 rank: the cpu_1 run (one process)"));
      else PetscCall(PetscSNPrintf(r.note, sizeof(r.note), "PETSc CPU path (DMPlexSNESComputeJacobianFEM) on %d ranks, median of %" PetscInt_FMT, size, ncpu));
      PetscCall(Report(&ci, &r));
    }

    /* PETSc's CPU path on one rank: the whole mesh on rank 0; its matrix is the reference of the GPU paths */
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
    if (!rank) {
      CaseInfo c1 = ci;
      if (!one) {
        PetscCall(PlexProblemCreate(PETSC_COMM_SELF, prefix, bc->phys, &dm));
        PetscCall(ProblemSizes(dm, &c1));
        PetscCall(TimeCPU(dm, ncpu1, &tmat, &tfirst, &tmed, &J));
      }
      ci.tone = tmed;
      {
        PetscInt m;
        PetscCall(MatGetSize(J, &m, NULL));
        PetscCheck(m == ci.rows && c1.ncells == ci.ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The one-rank mesh has %" PetscInt_FMT " rows and %" PetscInt_FMT " cells, the distributed one %" PetscInt_FMT " and %" PetscInt_FMT, m, c1.ncells, ci.rows, ci.ncells);
      }
      RowInit(&r, "cpu_1", "", MATAIJ, "dm", "cpu", 1);
      r.mat   = tmat;
      r.first = tfirst;
      r.t     = tmed;
      PetscCall(PetscSNPrintf(r.note, sizeof(r.note), ncpu1 ? "PETSc CPU path on 1 rank, median of %" PetscInt_FMT "; its matrix is the reference" : "PETSc CPU path on 1 rank, first assembly (no warm-up); its matrix is the reference", ncpu1));
      PetscCall(Report(&ci, &r));
      /* the GPU paths, on rank 0 */
      PetscCall(GpuPaths(&ci, dm, J, nstrat, strat, ntarg, targ, symbolic, convert, dev, run));
      PetscCall(MatDestroy(&J));
      PetscCall(DMDestroy(&dm));
      if (csv) PetscCall(PetscFFlush(csv));
    }
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  }
#if PetscDefined(HAVE_CUDA)
  if (!rank && dev) {
    PetscCallCUDA(cudaEventDestroy(ev[0]));
    PetscCallCUDA(cudaEventDestroy(ev[1]));
  }
#endif
  if (csv) PetscCall(PetscFClose(PETSC_COMM_SELF, csv));
  if (!setuponly)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD,
                          "\nmat: creation of the target matrix (DMCreateMatrix, -matcreate convert: MatConvert of the reference, '(symbolic)': PetscWarpAsmCreateMatrix), once per target; first: the first assembly, plan set-up and layout build "
                          "included; setup: "
                          "PetscWarpAsmInfo.setup_time; plan: PetscWarpAsmInfo.plan_bytes; asm: median time per assembly (element computation included); vsCPUall / vsCPU1: PETSc's CPU path on %d ranks / 1 rank over it; maxrdiff: max |entry "
                          "difference| / max |entry| against "
                          "PETSc's one-rank AIJ\n",
                          size));
  for (PetscInt c = 0; c < ncases; c++) PetscCall(PetscFree(cases[c]));
  for (PetscInt s = 0; s < nstrat; s++) PetscCall(PetscFree(strs[s]));
  for (PetscInt t = 0; t < ntarg; t++) PetscCall(PetscFree(targ[t]));
  {
    PetscInt nw = nwrong;
    PetscCallMPI(MPI_Bcast(&nw, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
    PetscCheck(nw == 0, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%" PetscInt_FMT " GPU path(s) differ from PETSc's matrix by more than 1e-12 (rows marked WRONG)", nw);
  }
  PetscCall(PetscFinalize());
  return 0;
}
