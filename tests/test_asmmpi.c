static char help[] = "PetscWarpAsm on several MPI ranks against PETSc's own assembly (DMPlexSNESComputeJacobianFEM into MATAIJ) on\n"
                     "the same distributed DMPlex: every strategy (on several ranks they reduce through MatSetValuesCOO() of\n"
                     "the MPI matrix, which -info says) into every target type, matrices from DMCreateMatrix() and from the\n"
                     "elements' own COO pattern (PetscWarpAsmCreateMatrix()), values reassembled, load vectors\n"
                     "(VecSetValuesCOO()), ranks without cells.\n"
                     "  -strategies sharednz,globalnz,color,atomic,coo,rownz  (default all)\n"
                     "  -types aij,ellwarp,sharednz,aijcusparse         (default aij,ellwarp; aijcusparse too with a device)\n"
                     "  -physics laplace|elasticity  -reassemble n      (default 2)\n";

#include "testutil.h"
#include <petscds.h>
#include <petsc/private/matimpl.h> /* the MatNorm method of a duplicate */

/* MatNorm() of A and of its MatDuplicate() against AIJ's; the duplicate has A's MatNorm method: petscwarp's NORM_1 where
   it replaces PETSc's (src/mat/utils/matnorm.c: MATMPIAIJELLWARP, MATSHAREDNZ on several ranks, whose duplicate is created
   as PETSc's MATMPIAIJ(CUSPARSE): on the host the sums agree either way, the method shows which ran) */
static PetscErrorCode CheckNorms(Mat A, Mat Jref, const char *what)
{
  Mat D;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &D));
  PetscCheck(D->ops->norm == A->ops->norm, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: the duplicate (%s) has another MatNorm method than the matrix (%s)", what, ((PetscObject)D)->type_name, ((PetscObject)A)->type_name);
  for (PetscInt q = 0; q < 3; q++) {
    const NormType t = q == 0 ? NORM_1 : (q == 1 ? NORM_FROBENIUS : NORM_INFINITY);
    PetscReal      nr, na, nd;
    PetscCall(MatNorm(Jref, t, &nr));
    PetscCall(MatNorm(A, t, &na));
    PetscCall(MatNorm(D, t, &nd));
    PetscCheck(PetscAbsReal(na - nr) <= 1e-12 * nr && PetscAbsReal(nd - nr) <= 1e-12 * nr, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: %s norm %g, of the duplicate %g, AIJ's %g", what, NormTypes[t], (double)na, (double)nd, (double)nr);
  }
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM                   dm;
  Mat                  Jref, A, A2;
  Vec                  b;
  PetscWarpAsm         wa;
  PetscBool            skip, device, flg;
  char                 physname[32];
  char                *strategies[8], *types[8];
  PetscInt             ns = 8, nt = 8, nre = 2, cStart, cEnd, ncmin, ncmax;
  PlexPhysics          phys;
  PetscWarpAsmInfo     info;
  PetscReal            e;
  PetscWarpAsmStrategy strat;
  PetscMPIInt          size;

  PetscCall(TestBegin(&argc, &argv, help, &skip));
  if (skip) return TestSkip();
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(TestGetPhysics(physname, sizeof(physname), &phys));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reassemble", &nre, NULL));
  PetscCall(PetscWarpDeviceAvailable(&device));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_warp_assembly_device", &device, NULL));
  PetscCall(TestGetStrategies(strategies, &ns));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-types", types, &nt, &flg));
  if (!flg) {
    nt = 0;
    PetscCall(PetscStrallocpy(MATAIJ, &types[nt++]));
    PetscCall(PetscStrallocpy(MATELLWARP, &types[nt++]));
    if (device) PetscCall(PetscStrallocpy(MATAIJCUSPARSE, &types[nt++]));
  }

  PetscCall(PlexProblemCreate(PETSC_COMM_WORLD, NULL, phys, &dm));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  ncmin = ncmax = cEnd - cStart;
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &ncmin, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &ncmax, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(PlexProblemAssemble(dm, MATAIJ, &Jref, &b));
  PetscCall(DMPlexWarpAsmCreate(dm, phys == PLEX_PHYSICS_LAPLACE ? PETSCWARP_PHYSICS_LAPLACE : PETSCWARP_PHYSICS_ELASTICITY, &wa));
  PetscCall(PetscWarpAsmSetFromOptions(wa));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s on %d ranks, %" PetscInt_FMT " to %" PetscInt_FMT " cells per rank; assembly on the %s\n", physname, size, ncmin, ncmax, device ? "device" : "host"));

  for (PetscInt t = 0; t < nt; t++) {
    for (PetscInt s = 0; s < ns; s++) {
      char what[128];

      PetscCall(PetscEnumFind(PetscWarpAsmStrategies, strategies[s], (PetscEnum *)&strat, &flg));
      PetscCheck(flg, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "Unknown strategy %s", strategies[s]);
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s into %s", strategies[s], types[t]));
      PetscCall(PetscWarpAsmSetStrategy(wa, strat));
      /* the DM's preallocation, values from PetscWarpAsm, several times */
      PetscCall(DMSetMatType(dm, types[t]));
      PetscCall(DMCreateMatrix(dm, &A));
      for (PetscInt k = 0; k < nre; k++) PetscCall(PetscWarpAsmAssembleMatrix(wa, A));
      PetscCall(TestEntryDifference(A, Jref, &e));
      PetscCheck(e < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: max entry difference %g relative to max entry", what, (double)e);
      PetscCall(PetscWarpAsmGetInfo(wa, &info));
      PetscCheck(size == 1 || info.used == PETSCWARP_ASM_COO, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: on %d ranks the plan should run coo, it runs %s", what, size, PetscWarpAsmStrategies[info.used]);
      /* the pattern of the elements' COO preallocation */
      PetscCall(PetscWarpAsmCreateMatrix(wa, types[t], &A2));
      PetscCall(PetscWarpAsmAssembleMatrix(wa, A2));
      PetscCall(TestEntryDifference(A2, Jref, &e));
      PetscCheck(e < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s, pattern of the elements: max entry difference %g", what, (double)e);
      PetscCall(PetscWarpAsmAssembleMatrix(wa, A)); /* back to the first matrix: plan rebuilt, values equal */
      PetscCall(TestEntryDifference(A, Jref, &e));
      PetscCheck(e < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s, again: max entry difference %g", what, (double)e);
      {
        Vec       x, y1, y2;
        PetscReal ey;
        PetscCall(MatCreateVecs(A, &x, &y1));
        PetscCall(MatCreateVecs(Jref, NULL, &y2));
        PetscCall(VecSetRandom(x, NULL));
        PetscCall(MatMult(A, x, y1));
        PetscCall(MatMult(Jref, x, y2));
        PetscCall(VecRelativeDifference(y1, y2, &ey));
        PetscCheck(ey < 1e-12, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "%s: MatMult rel. err %g", what, (double)ey);
        PetscCall(VecDestroy(&x));
        PetscCall(VecDestroy(&y1));
        PetscCall(VecDestroy(&y2));
      }
      PetscCall(CheckNorms(A, Jref, what));
      { /* values set on the last rank only and not assembled: the same clear error on every rank (the ranks reduce
           their flags before any collective call: no rank may wait in one the others skip) */
        PetscMPIInt    rank, setter;
        PetscErrorCode ierr;

        PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
        setter = A->rmap->n > 0 ? rank : -1; /* the last rank with rows */
        PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, &setter, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
        if (rank == setter) PetscCall(MatSetValue(A, A->rmap->rstart, A->rmap->rstart, 1.0, ADD_VALUES));
        PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
        ierr = PetscWarpAsmAssembleMatrix(wa, A);
        PetscCall(PetscPopErrorHandler());
        PetscCheck(ierr == PETSC_ERR_ARG_WRONGSTATE, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: values set on rank %d only, not assembled: expected PETSC_ERR_ARG_WRONGSTATE, got %d", what, setter, (int)ierr);
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-26s %-9s max entry diff %.2e, ran as %s, MatMult and norms (duplicate too) agree\n", what, info.device ? "(device)" : "(host)", (double)e, PetscWarpAsmStrategies[info.used]));
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&A2));
    }
  }
  PetscCall(TestCheckLoad(dm, wa, VECSTANDARD, 2)); /* host vectors: VECMPICUDA is refused on several ranks (see AssembleVectorMPI()); the second reuses the vector's COO */
  PetscCall(PetscObjectViewFromOptions((PetscObject)wa, NULL, "-warpasm_view"));

  for (PetscInt s = 0; s < ns; s++) PetscCall(PetscFree(strategies[s]));
  for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(types[t]));
  PetscCall(PetscWarpAsmDestroy(&wa));
  PetscCall(MatDestroy(&Jref));
  PetscCall(VecDestroy(&b));
  PetscCall(DMDestroy(&dm));
  PetscCall(PetscFinalize());
  return 0;
}
