#!/usr/bin/env bash
# The main job: set up, build, and run tutorial 1 (DMPlex Laplacian: SpMV and CG with PETSc's AIJ on the CPU, MATELLWARP
# on the GPU when there is one -- else its host twin -- and aijcusparse), printing the comparison.
# Extra arguments go to the tutorial, e.g. scripts/run.sh -dm_plex_box_faces 80,80,80
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(scripts/build.sh | tail -1)
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-dm_plex_dim 3 -dm_plex_simplex 0 -dm_plex_box_faces 40,40,40 -nmult 50)
exec "$BUILD/tutorials/ex1" "${args[@]}"
