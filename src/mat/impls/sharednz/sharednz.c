/*
  MATSHAREDNZ: a MATSEQAIJCUSPARSE matrix (MATSEQAIJ without a device) marked for assembly on the device with the
  shared-memory assembly by non-zero of PetscWarpAsm. The values are cuSPARSE's own CSR values, so PETSc's offload mask
  keeps host and device coherent, and everything that works with MATAIJCUSPARSE works with it.

  The type keeps PETSc's name (seqaijcusparse): MatSeqAIJCUSPARSEGetArray() and PETSc's cuSPARSE products check the
  type name exactly, so a renamed subtype would lose them.
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpstage.h>
#include <petscwarp/private/matnormimpl.h>

static PetscErrorCode MatSharedNZMarker(void)
{
  return PETSC_SUCCESS;
}

/*MC
   MatCreate_SharedNZ - the creation routine behind -mat_type sharednz
M*/
PetscErrorCode MatCreate_SharedNZ(Mat B)
{
  PetscMPIInt size;
  PetscBool   dev;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)B), &size));
  PetscCall(PetscWarpDeviceAvailable(&dev));
  if (!dev) PetscCall(PetscInfo(B, "No CUDA device: MATSHAREDNZ is a %s matrix assembled by the host twins of the kernels\n", size > 1 ? MATMPIAIJ : MATSEQAIJ));
  /* several ranks: PETSc's MPI cuSPARSE matrix, filled by PetscWarpAsm through its MatSetValuesCOO() */
  if (size > 1) {
    PetscCall(MatSetType(B, dev ? MATMPIAIJCUSPARSE : MATMPIAIJ));
    PetscCall(MatWarpFixMPIAIJNorm_Private(B, PETSC_TRUE)); /* PETSc's NORM_1 reads uninitialised VECCUDA host arrays (the host: the same sums, one path) */
  } else PetscCall(MatSetType(B, dev ? MATSEQAIJCUSPARSE : MATSEQAIJ));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatIsSharedNZ_C", MatSharedNZMarker));
  PetscCall(MatWarpStageInstall_Private(B, "-mat_sharednz_stage", PETSC_TRUE)); /* staged reassembly (warpstage.c: sums straight into the device CSR values on one rank, through a shadow MPIAIJCUSPARSE on several); its assembly end also asks the DMPlex no-code path's hook */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatIsSharedNZ - Whether a matrix was created as `MATSHAREDNZ`

  Not Collective

  Input Parameter:
. A - the matrix

  Output Parameter:
. flg - `PETSC_TRUE` for a `MATSHAREDNZ` matrix

  Level: intermediate

.seealso: `MATSHAREDNZ`, `PetscWarpAsm`
@*/
PetscErrorCode MatIsSharedNZ(Mat A, PetscBool *flg)
{
  PetscErrorCode (*f)(void) = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(flg, 2);
  PetscCall(PetscObjectQueryFunction((PetscObject)A, "MatIsSharedNZ_C", &f));
  *flg = f ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
