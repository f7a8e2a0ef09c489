#!/usr/bin/env bash
# The main job: set up, build, and run tutorial 2, the heat problem of Cecka, Lew and Darve on the shipped holed 2D mesh:
# PETSc's CPU path (AIJ, MatSetValues) against the Jacobian computed and assembled by petscwarp (on the GPU when there is
# one, else by the host twins of the kernels) into MATELLWARP (and MATSHAREDNZ with a GPU), CG solves, and the comparison.
# Extra arguments go to the tutorial, e.g. scripts/run.sh -petscspace_degree 2 -dm_refine 4 -pc_type gamg
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(scripts/build.sh | tail -1)
# one process: PETSc's CUDA build refuses a non-GPU-aware MPI unless told it need not be
export PETSC_OPTIONS="${PETSC_OPTIONS:-} -use_gpu_aware_mpi 0"
exec "$BUILD/tutorials/ex2" "$@"
