#include "plexproblem.h"
#include <petsctime.h>
#include <petscwarp.h>
#include <petscds.h>
#include <petscdevice.h>

static PetscErrorCode zero(PetscInt dim, PetscReal t, const PetscReal x[], PetscInt Nc, PetscScalar *u, PetscCtx ctx)
{
  for (PetscInt c = 0; c < Nc; c++) u[c] = 0.0;
  return PETSC_SUCCESS;
}

static void f0_one(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f0[])
{
  for (PetscInt c = 0; c < uOff[1] - uOff[0]; c++) f0[c] = -1.0 - x[0] * (PetscReal)(c + 1);
}

static void f1_lap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  for (PetscInt d = 0; d < dim; ++d) f1[d] = u_x[d];
}

static void g3_lap(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  for (PetscInt d = 0; d < dim; ++d) g3[d * dim + d] = 1.0;
}

/* isotropic elasticity, mu = 1, lambda = 1: sigma = mu (grad u + grad u^T) + lambda div(u) I */
static void f1_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar f1[])
{
  PetscScalar div = 0.0;
  for (PetscInt d = 0; d < dim; ++d) div += u_x[d * dim + d];
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt d = 0; d < dim; ++d) f1[c * dim + d] = u_x[c * dim + d] + u_x[d * dim + c] + (c == d ? div : 0.0);
}

static void g3_elas(PetscInt dim, PetscInt Nf, PetscInt NfAux, const PetscInt uOff[], const PetscInt uOff_x[], const PetscScalar u[], const PetscScalar u_t[], const PetscScalar u_x[], const PetscInt aOff[], const PetscInt aOff_x[], const PetscScalar a[], const PetscScalar a_t[], const PetscScalar a_x[], PetscReal t, PetscReal u_tShift, const PetscReal x[], PetscInt numConstants, const PetscScalar constants[], PetscScalar g3[])
{
  /* PETSc layout g3[fc][gc][df][dg] = d f1[fc][df] / d u_x[gc][dg] */
  for (PetscInt c = 0; c < dim; ++c)
    for (PetscInt g = 0; g < dim; ++g)
      for (PetscInt d = 0; d < dim; ++d)
        for (PetscInt e = 0; e < dim; ++e) {
          PetscScalar v = 0.0;
          if (c == g && d == e) v += 1.0; /* grad u */
          if (c == e && d == g) v += 1.0; /* grad u^T */
          if (c == d && g == e) v += 1.0; /* div */
          g3[((c * dim + g) * dim + d) * dim + e] = v;
        }
}

PetscErrorCode PlexProblemCreate(MPI_Comm comm, const char prefix[], PlexPhysics phys, DM *dm)
{
  PetscFE        fe;
  PetscDS        ds;
  DMLabel        label;
  PetscInt       dim, cStart, id = 1;
  DMPolytopeType ct;
  PetscBool      simplex;

  PetscFunctionBegin;
  PetscCall(DMCreate(comm, dm));
  PetscCall(DMSetType(*dm, DMPLEX));
  if (prefix) PetscCall(PetscObjectSetOptionsPrefix((PetscObject)*dm, prefix));
  PetscCall(DMSetFromOptions(*dm));
  PetscCall(DMViewFromOptions(*dm, NULL, "-dm_view"));
  { /* Lagrange elements of degree 1 unless -[prefix]petscspace_degree says otherwise (PetscFE's default is 0) */
    char      opt[128];
    PetscBool set;
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%spetscspace_degree", prefix ? prefix : ""));
    PetscCall(PetscOptionsHasName(NULL, NULL, opt, &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, opt, "1"));
  }
  PetscCall(DMGetDimension(*dm, &dim));
  PetscCall(DMPlexGetHeightStratum(*dm, 0, &cStart, NULL));
  PetscCall(DMPlexGetCellType(*dm, cStart, &ct));
  simplex = DMPolytopeTypeGetNumVertices(ct) == DMPolytopeTypeGetDim(ct) + 1 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscFECreateDefault(PETSC_COMM_SELF, dim, phys == PLEX_PHYSICS_LAPLACE ? 1 : dim, simplex, prefix, PETSC_DETERMINE, &fe));
  PetscCall(PetscObjectSetName((PetscObject)fe, "u"));
  PetscCall(DMSetField(*dm, 0, NULL, (PetscObject)fe));
  PetscCall(DMCreateDS(*dm));
  PetscCall(DMGetDS(*dm, &ds));
  if (phys == PLEX_PHYSICS_LAPLACE) {
    PetscCall(PetscDSSetResidual(ds, 0, f0_one, f1_lap));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_lap));
  } else {
    PetscCall(PetscDSSetResidual(ds, 0, f0_one, f1_elas));
    PetscCall(PetscDSSetJacobian(ds, 0, 0, NULL, NULL, NULL, g3_elas));
  }
  PetscCall(DMGetLabel(*dm, "marker", &label));
  if (!label) {
    PetscCall(DMCreateLabel(*dm, "marker"));
    PetscCall(DMGetLabel(*dm, "marker", &label));
    PetscCall(DMPlexMarkBoundaryFaces(*dm, 1, label));
    PetscCall(DMPlexLabelComplete(*dm, label));
  }
  PetscCall(DMAddBoundary(*dm, DM_BC_ESSENTIAL, "wall", label, 1, &id, 0, 0, NULL, (PetscVoidFn *)zero, NULL, NULL, NULL));
  PetscCall(PetscFEDestroy(&fe));
  PetscCall(DMPlexSetSNESLocalFEM(*dm, PETSC_FALSE, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PlexProblemAssemble(DM dm, MatType type, Mat *J, Vec *b)
{
  SNES snes;
  Vec  u;

  PetscFunctionBegin;
  if (type) PetscCall(DMSetMatType(dm, type));
  PetscCall(DMCreateMatrix(dm, J));
  PetscCall(DMCreateGlobalVector(dm, &u));
  PetscCall(VecDuplicate(u, b));
  PetscCall(VecSet(u, 0.0));
  PetscCall(SNESCreate(PetscObjectComm((PetscObject)dm), &snes));
  PetscCall(SNESSetDM(snes, dm));
  PetscCall(SNESComputeJacobian(snes, u, *J, *J));
  PetscCall(SNESComputeFunction(snes, u, *b));
  PetscCall(VecScale(*b, -1.0));
  PetscCall(SNESDestroy(&snes));
  PetscCall(VecDestroy(&u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecRelativeDifferenceNorm(Vec a, Vec b, NormType type, PetscReal *err)
{
  Vec       d;
  PetscReal nd, nb;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &d));
  PetscCall(VecCopy(a, d)); /* a may be a device vector of the same layout */
  PetscCall(VecAXPY(d, -1.0, b));
  PetscCall(VecNorm(d, type, &nd));
  PetscCall(VecNorm(b, type, &nb));
  *err = nb > 0 ? nd / nb : nd;
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode VecRelativeDifference(Vec a, Vec b, PetscReal *err)
{
  PetscFunctionBegin;
  PetscCall(VecRelativeDifferenceNorm(a, b, NORM_2, err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode KSPSetCGJacobi(KSP ksp, PetscBool perm, KSP *solver)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  *solver = ksp;
  if (perm) {
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(PCSetType(pc, PCELLWARPPERM));
    PetscCall(PCEllWarpPermGetKSP(pc, solver));
    PetscCall(KSPGetPC(*solver, &pc));
  }
  PetscCall(KSPSetType(*solver, KSPCG));
  PetscCall(PCSetType(pc, PCJACOBI));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceSync(void)
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

PetscErrorCode DeviceTic(PetscLogDouble *t0)
{
  PetscFunctionBegin;
  PetscCall(DeviceSync());
  PetscCall(PetscTime(t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DeviceTocAdd(PetscLogDouble t0, PetscReal *t)
{
  PetscLogDouble t1;

  PetscFunctionBegin;
  PetscCall(DeviceSync());
  PetscCall(PetscTime(&t1));
  *t += (PetscReal)(t1 - t0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode CSVOpenAppend(MPI_Comm comm, const char file[], const char header[], FILE **fp)
{
  PetscFunctionBegin;
  PetscCall(PetscFOpen(comm, file, "a", fp));
  if (*fp) { /* rank 0 */
    PetscCheck(!fseek(*fp, 0, SEEK_END), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot seek in %s", file);
    if (ftell(*fp) == 0) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, "%s\n", header));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
