#!/usr/bin/env bash
# Set up (scripts/setup.sh: packages and cached PETSc) and build petscwarp into build/ (or $PETSCWARP_BUILD).
set -euo pipefail
cd "$(dirname "$0")/.."
PETSC_DIR=$(scripts/setup.sh | tail -1)
BUILD=${PETSCWARP_BUILD:-build}
cmake -S . -B "$BUILD" -DPETSC_DIR="$PETSC_DIR" -DCMAKE_BUILD_TYPE=Release ${PETSCWARP_CMAKE_ARGS:-} >"$BUILD.cmake.log" 2>&1 || { cat "$BUILD.cmake.log"; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" 2>&1 | grep -E 'error|warning|Error' || true
cmake --build "$BUILD" -j "$(nproc)" >/dev/null
echo "$BUILD"
