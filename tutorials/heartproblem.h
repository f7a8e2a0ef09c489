/* The heart problem of Wong, Kuhl and Darve (seeds/004) shared by tutorial 4 and its tests: the Aliev-Panfilov
   monodomain model on a tetrahedral ellipsoidal shell (the idealised left ventricle bench/meshes/shell_tet.msh), P1
   elements with one quadrature point per cell (the paper's reduced integration), fibre-direction anisotropy, a stimulus
   at the apex, backward Euler with Newton per step. Two ways to compute the same discrete problem:
   - PETSc: pointwise functions f0, f1, g0, g3 of a PetscDS (DMPlexSNESComputeResidualFEM/JacobianFEM), with the
     previous voltage (P1), the previous recovery (P0: its one value per cell is exact at the one quadrature point), the
     fibre (P0, 3 components) and the stimulus mask (P0) as auxiliary fields;
   - petscwarp: one call, DMPlexWarpSetSNESLocalAlievPanfilov() (the conductivity tensor and stimulus mask per cell),
     and DMPlexWarpAPSetStep()/DMPlexWarpAPAdvance() in the time loop: the recovery at the quadrature points, on the device
     with VECCUDA vectors; or through a TS (HeartCreateTS(): DMPlexWarpSetTSLocalAlievPanfilov(), no calls in the loop).
   Both paths time the functions they install (the PETSc path's DMPlexSetSNESLocalFEM(), petscwarp's hook): the local
   residual, and the SNES Jacobian with its scatter of the state to a local vector. */
#pragma once
#include <petscwarp.h>
#include <petscwarp/alievpanfilov.h>
#include <petscts.h>

typedef struct {
  PetscReal p[PETSCWARP_AP_NPARAM];   /* model parameters and dt */
  PetscReal diso, dani;               /* conductivity D = diso I + dani n n^T (mm^2 per time unit) */
  PetscReal stim_amp, stim_t, stim_z; /* stimulus current, its duration, the apex region z < stim_z */
  PetscReal helix;                    /* fibre helix angle at the endocardium (degrees; minus at the epicardium) */
} HeartParams;

typedef struct {
  HeartParams par;
  DM          dm, dmAux;
  PetscBool   warp; /* petscwarp's path (else PETSc's) */
  PetscInt    ncells, nq;
  PetscReal  *fibre; /* [ncells*3] */
  PetscReal  *stim;  /* [ncells] mask */
  PetscReal  *kcell; /* [ncells*9] conductivity tensors */
  Vec         aux;   /* PETSc: local auxiliary vector (Vn, rn, fibre, stim) */
  /* the SNES local functions installed by DMPlexSetSNESLocalFEM() or DMPlexWarpSetSNESLocalAlievPanfilov(), timed */
  PetscErrorCode (*residual)(DM, Vec, Vec, void *);
  SNESJacobianFn *jacobian;  /* the SNES Jacobian (PETSc's DMLocal wrapper, or the hook's) */
  TSIFunctionFn  *ifunction; /* the TS form (HeartCreateTS()): the hook's implicit function and Jacobian instead */
  TSIJacobianFn  *ijacobian;
  void           *rctx, *jctx;
  PetscReal       t_asm; /* seconds in residuals and Jacobians */
  PetscInt        nres, njac;
} Heart;

PetscErrorCode HeartParamsFromOptions(HeartParams *);
/* The mesh (-dm_plex_filename, default the shipped shell; -dm_refine), the P1 field with one-point quadrature, the
   PetscDS; mattype (ellwarp, sharednz, ...): that matrix type and petscwarp's hook, NULL: the auxiliary fields and PETSc's
   DMPlexSetSNESLocalFEM() with AIJ */
PetscErrorCode HeartCreate(MPI_Comm, const HeartParams *, const char mattype[], const char srcdir[], Heart *);
/* The same problem through a TS (petscwarp only, mattype not NULL): DMPlexWarpSetTSLocalAlievPanfilov() with the
   stimulus of HeartSetStep() as a function of time; use a TSBEULER with time step p[PETSCWARP_AP_DT], no calls in the time
   loop (HeartGetRecovery() and HeartSetPrevious() serve both forms) */
PetscErrorCode HeartCreateTS(MPI_Comm, const HeartParams *, const char mattype[], const char srcdir[], Heart *);
PetscErrorCode HeartDestroy(Heart *);
/* The stimulus amplitude of a step ending at time t: stim_amp until stim_t, then 0 */
PetscReal HeartStimulus(const HeartParams *, PetscReal);
/* The time step and stimulus of step n (time (n+1) dt) */
PetscErrorCode HeartSetStep(Heart *, PetscInt);
/* Accept the converged global state U: the previous voltage and recovery become U's */
PetscErrorCode HeartAdvance(Heart *, Vec);
/* The recovery of the last accepted step at the quadrature points, r[cell*nq + q] (host, ncells*nq) */
PetscErrorCode HeartGetRecovery(Heart *, PetscReal[]);
/* Set the previous recovery (host, r[cell*nq + q]) and the previous voltage (global vector) */
PetscErrorCode HeartSetPrevious(Heart *, const PetscReal[], Vec);
