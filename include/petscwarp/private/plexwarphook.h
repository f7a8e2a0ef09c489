/* Private interface of the DMPlex hooks (src/dm/plex/plexwarphook.c, plexwarpsnes.c, plexwarpts.c) */
#pragma once

#include <petscwarp.h>
#include <petscwarp/alievpanfilov.h>
#include <petscdmplex.h>

/* A constant Neumann flux g on the faces of a label value (a natural boundary's boundary f0) */
typedef struct {
  DMLabel   label;
  PetscInt  value;
  PetscReal g[3];
} DMPlexWarpBdFlux;

/* The state of a hook, composed with the DM (DMPlexWarpSetSNESLocalFEM(), DMPlexWarpSetSNESLocalAlievPanfilov():
   "DMPlexWarpSNES"; DMPlexWarpSetTSLocalFEM(), DMPlexWarpSetTSLocalAlievPanfilov(): "DMPlexWarpTS";
   DMPlexWarpSetKSPLocalFEM(): "DMPlexWarpKSP") */
typedef struct {
  PetscWarpAsm       wa;
  PetscBool          transient; /* TS: g0 = mass u_tShift, f0 = mass u_t + f */
  PetscWarpPhysics   physics;
  PetscReal          coef[2];  /* LAPLACE: kappa; ELASTICITY: lambda, mu */
  PetscReal          mass;     /* TS: the mass coefficient c */
  PetscReal          f[3];     /* the constant part of f0 */
  PetscBool          residual; /* the residual is computed by PetscWarpAsm (recognised and not turned off) */
  char               why[256]; /* why not, when it is not */
  PetscBool          check, checked, rchecked, warned;
  PetscInt           ndevice, nhost;  /* Jacobians assembled by PetscWarpAsm, by PETSc */
  PetscInt           nrwarp, nrpetsc; /* residuals computed by PetscWarpAsm, by PETSc */
  PetscBool          cachebc;         /* cache the boundary values (time-independent ones) */
  PetscBool          mpioff;          /* several ranks with the device assembling: PETSc's Jacobians and residuals (-dm_plex_warp_mpi_device) */
  Vec                bc, bc_t;        /* the cached local vectors of boundary values (state, time derivative) */
  PetscBool          bcprobed, bctimedep;
  PetscBool          bcchecked, hasbc; /* whether the PetscDS has essential conditions (else nothing is inserted) */
  PetscInt           nflux;            /* the recognised Neumann fluxes (residuals by PetscWarpAsm) */
  DMPlexWarpBdFlux  *flux;
  PetscBool          pointwise;  /* user pointwise functions compute the Jacobian and residual (DMPlexWarpSetPointwise()) */
  PetscWarpPointwise pw;         /* their element kernels */
  PetscBool          pwinfo[2];  /* -info said where the Jacobian / residual ran */
  PetscBool          ownpattern; /* DMCreateMatrix() gives the elements' pattern instead of PETSc's preallocation (-dm_plex_warp_preallocate) */
  /* the Aliev-Panfilov model (DMPlexWarpSetSNESLocalAlievPanfilov()) */
  PetscBool  ap;
  PetscReal  app[PETSCWARP_AP_NPARAM]; /* its parameters, dt and the stimulus amplitude of the step */
  PetscInt   apncells;                 /* the cells of apk and apstim (the DM's height-0 stratum) */
  PetscReal *apk, *apstim;             /* copies of the conductivity tensors (dim*dim per cell) and of the stimulus mask (or NULL) */
  Vec        apUn;                     /* the previous step's local voltage */
  /* its TS form (transient, DMPlexWarpSetTSLocalAlievPanfilov()): the steps accepted by the hook itself */
  PetscBool apstarted;                                        /* a step has begun since the set-up (or DMPlexWarpAPSetPrevious()) */
  PetscReal apt0;                                             /* the TS time at the start of the current step (a new one: the previous step was accepted) */
  PetscErrorCode (*apstimfn)(PetscReal, PetscReal *, void *); /* the stimulus amplitude at a time, or NULL (constant) */
  void            *apstimctx;
  PetscReal        apstimlast; /* the amplitude the assembler has */
  PetscObjectId    apUid;      /* the TS solution the previous voltage was read from, and its state then (a new state */
  PetscObjectState apUstate;   /* at the same time: read again, the recovery kept) */
} DMPlexWarpHook;

PETSC_INTERN PetscErrorCode DMPlexWarpRecognizeBoundary_Private(DM, PetscBool *, PetscInt *, DMPlexWarpBdFlux **, char[], size_t);
PETSC_INTERN PetscErrorCode DMPlexWarpSetBoundaryFluxes_Private(DM, PetscInt, const DMPlexWarpBdFlux[], PetscWarpAsm);
PETSC_INTERN PetscErrorCode DMPlexWarpRecognizeJacobian_Private(DM, PetscBool, PetscBool *, PetscWarpPhysics *, PetscReal[], PetscReal *, char[], size_t);
PETSC_INTERN PetscErrorCode DMPlexWarpHookCreate_Private(DM, PetscBool, PetscBool, const char[], DMPlexWarpHook **);
PETSC_INTERN PetscErrorCode DMPlexWarpMatchVectors_Private(DM, Mat);
PETSC_INTERN PetscErrorCode DMPlexWarpHookQuery_Private(DM, DMPlexWarpHook **); /* NULL when there is none */
PETSC_INTERN PetscErrorCode DMPlexWarpHookGet_Private(DM, DMPlexWarpHook **);
PETSC_INTERN PetscErrorCode DMPlexWarpHookGetAsm_Private(DM, DMPlexWarpHook *);
PETSC_INTERN PetscErrorCode DMPlexWarpHookAssemble_Private(DM, DMPlexWarpHook *, const PetscReal *, PetscReal, Vec, Vec, Mat, Mat, PetscBool *);
/* user pointwise functions (plexwarppw.c) */
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseGet_Private(DM, const PetscWarpPointwise **);
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseCheck_Private(DM, const PetscWarpPointwise *, PetscBool);
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseAsmCreate_Private(DM, PetscWarpAsm *);
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseSetBoundary_Private(DM, PetscWarpAsm);
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseJacobian_Private(DM, DMPlexWarpHook *, PetscReal, PetscReal, Vec, Vec, Mat, Mat, PetscBool);
PETSC_INTERN PetscErrorCode DMPlexWarpPointwiseResidual_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode DMPlexWarpHookBoundary_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec);
PETSC_INTERN PetscErrorCode DMPlexWarpHookLocalState_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec *);
PETSC_INTERN PetscErrorCode DMPlexWarpHookResidual_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec, Vec);
PETSC_INTERN PetscErrorCode DMPlexWarpHookResidualGlobal_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec);
PETSC_INTERN PetscErrorCode DMPlexWarpHookCheckJacobian_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec, PetscReal, Mat);
PETSC_INTERN PetscErrorCode DMPlexWarpHookCheckResidual_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Vec, Vec);
/* the Aliev-Panfilov hooks (plexwarpap.c) */
PETSC_INTERN PetscErrorCode DMPlexWarpHookCreateAP_Private(DM, PetscBool, const char[], const PetscReal[], const PetscReal[], const PetscReal[], DMPlexWarpHook **);
PETSC_INTERN PetscErrorCode DMPlexWarpHookGetAP_Private(DM, DMPlexWarpHook **);
PETSC_INTERN PetscErrorCode DMPlexWarpHookAPPrevious_Private(DM, DMPlexWarpHook *, PetscReal, Vec, PetscBool, const PetscReal[]);
PETSC_INTERN PetscErrorCode DMPlexWarpHookAPJacobian_Private(DM, DMPlexWarpHook *, PetscReal, Vec, Mat, Mat);
