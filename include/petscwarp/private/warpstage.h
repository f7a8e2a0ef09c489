/* Staged reassembly (src/mat/utils/warpstage.c): the values of a repeated MatSetValues() sequence go to the device
   through MatSetValuesCOO(). Installed by MATSEQAIJELLWARP and MATSHAREDNZ on their operations. */
#pragma once

#include <petscwarp.h>
#include <petsc/private/matimpl.h>

PETSC_INTERN PetscLogEvent MATWARP_StageBuild, MATWARP_StageUpload, MATWARP_StageFallback;

/* Wrap A's setvalues/zeroentries/assemblyend (on); option: the options-database name of the on/off switch (with A's
   prefix), e.g. "-mat_ellwarp_stage". Off: put the saved operations back and drop the recording. */
PETSC_INTERN PetscErrorCode MatWarpStageInstall_Private(Mat, const char[], PetscBool);
PETSC_INTERN PetscErrorCode MatWarpStageUninstall_Private(Mat);
/* A duplicate B of A gets A's staging settings (on/off as set by MatWarpSetStage() or read from the options, and the
   entry limit); not the recording: B records its own first assembly */
PETSC_INTERN PetscErrorCode MatWarpStageCopySettings_Private(Mat, Mat);

/* Called once at the end of the first recorded (ADD_VALUES) assembly of a matrix; sets *taken when someone else
   (the DMPlex auto hook) assembles the matrix from now on, so that the recording can be dropped. Registered by the DM
   layer (src/dm/plex/plexwarpauto.c) so that the Mat layer does not know about DMs. */
typedef PetscErrorCode (*MatWarpStageHook)(Mat, PetscBool *);
PETSC_INTERN PetscErrorCode MatWarpStageSetHook_Private(MatWarpStageHook);
