#!/usr/bin/env bash
# Pack what the GPU machine needs into gpu/ (ignored by git): the stripped PETSc libraries, the Debian libraries PETSc
# links that an Ubuntu CUDA image may lack, libpetscwarp, the test/tutorial/benchmark programs and the CTest files.
#   scripts/pack_gpu.sh [build-dir]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
PETSC_DIR=$(scripts/setup.sh 2>/dev/null | tail -1)
rm -rf gpu && mkdir -p gpu/lib gpu/build
cp -a "$PETSC_DIR"/lib/libpetsc.so.* gpu/lib/
strip --strip-unneeded gpu/lib/libpetsc.so.*
# Debian libraries PETSc needs beyond MPI, CUDA and libc (OpenMPI comes from the GPU machine: 4.1.x, same ABI)
for l in $(ldd "$PETSC_DIR"/lib/libpetsc.so.*[0-9] | awk '/=>/ {print $3}' | grep -E 'liblapack|libblas|libmetis|libgfortran|libquadmath|libGKlib'); do
  cp -L "$l" gpu/lib/
done
# OpenMP's runtime, used only where the GPU machine lacks one (scripts/gpu_run.sh)
mkdir -p gpu/lib/fallback
for l in $(ldd "$BUILD"/libpetscwarp.so | awk '/libgomp/ {print $3}'); do cp -L "$l" gpu/lib/fallback/; done
# the build tree, without objects: programs, libraries, CTest files
(cd "$BUILD" && find . \( -name '*.so*' -o -name 'CTestTestfile.cmake' -o -perm -u+x \) -type f ! -path '*/CMakeFiles/*' -print0 | tar --null -T - -cf -) | tar -C gpu/build -xf -
(cd "$BUILD" && find . -name '*.so*' -type l ! -path '*/CMakeFiles/*' -print0 | tar --null -T - -cf -) | tar -C gpu/build -xf -
find gpu/build -type f -name '*.so*' -exec strip --strip-unneeded {} +
echo "$PWD/$BUILD" > gpu/build/.origin
# the hang-debugging aids (gpu_run.sh hang56h, hang56l)
cc -shared -fPIC -O1 -o gpu/lib/libbtpreload.so scripts/tools/btpreload.c
cc -shared -fPIC -O1 -o gpu/lib/libzeromalloc.so scripts/tools/zeromalloc.c -ldl
# the device tool carries at most 64 MiB with the working tree: PETSc and LAPACK travel xz-compressed (scripts/gpu_run.sh
# unpacks them)
for f in gpu/lib/libpetsc.so.* gpu/lib/liblapack.so.*; do [ -L "$f" ] || xz -T0 -6 "$f"; done
# and so do the largest programs (those that link the kernels' objects themselves) and libpetscwarp
find gpu/build -type f -size +2M ! -name '*.xz' -exec xz -T0 -6 {} +
du -sh gpu
