#!/usr/bin/env bash
# The tests: set up, build (warnings are errors), run CTest. GPU tests skip with a printed reason when no device is here.
# Then the host tests again in an AddressSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(scripts/build.sh | tail -1)
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)")
if [ "${PETSCWARP_SKIP_ASAN:-0}" != 1 ]; then
  ASAN_BUILD=$(PETSCWARP_BUILD=build-asan PETSCWARP_CMAKE_ARGS="-DPETSCWARP_ASAN=ON" scripts/build.sh | tail -1)
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 # leaks are checked by PETSc's -malloc_dump in every test
  (cd "$ASAN_BUILD" && ctest --output-on-failure -j "$(nproc)" -L host -LE mpi)
fi
