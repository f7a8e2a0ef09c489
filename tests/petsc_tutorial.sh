#!/usr/bin/env bash
# Runs one of PETSc's own tutorials (built unchanged from the sdist) twice: with -dm_mat_type aij, then loaded with
# petscwarp (-dll_append) and -dm_mat_type ellwarp (or the type given), and checks that the SNES and KSP iteration
# counts are the same, and that -info names the expected assembly path. With np N, both runs use mpiexec -n N.
#   petsc_tutorial.sh <exe> <libpetscwarp.so> <mat type> <regex expected in the -info output, or -> [gpu] [np N] -- args...
set -uo pipefail
exe=$1 lib=$2 type=$3 expect=$4
shift 4
if [ "$1" = gpu ]; then
  shift
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "SKIPPED: no CUDA device is present; this GPU test did not run"; exit 200; fi
fi
run=()
if [ "$1" = np ]; then run=(mpiexec -n "$2"); shift 2; fi
[ "$1" = -- ] && shift
common=(-ksp_converged_reason -snes_converged_reason)
base=$("${run[@]}" "$exe" "$@" "${common[@]}" -dm_mat_type aij 2>&1) || { echo "$base"; echo "FAILED: the AIJ run"; exit 1; }
warp=$("${run[@]}" "$exe" "$@" "${common[@]}" -dll_append "$lib" -dm_mat_type "$type" -info :mat,dm 2>&1) || { echo "$warp" | grep -v "^\[[0-9]*\] <" ; echo "FAILED: the $type run"; exit 1; }
its() { grep -Eo "(Linear|Nonlinear) solve (converged|did not converge) due to [A-Z_]+ iterations [0-9]+"; }
a=$(echo "$base" | its) w=$(echo "$warp" | its)
echo "== aij:";   echo "$a"
echo "== $type:"; echo "$w"
echo "== $type, assembly paths (-info):"
echo "$warp" | grep -E "AutoHook|Build\(\)|Fallback|DMPlexWarpSetSNESLocalFEM|CheckAgainstPETSc" | sed 's/^\[[0-9]*\] <[a-z:0-9()]*> //' | cut -c1-220
echo "$warp" | grep -c "Upload(): Staged assembly" | sed 's/^/staged assemblies: /'
[ -n "$a" ] || { echo "FAILED: no iteration counts"; exit 1; }
[ "$a" = "$w" ] || { echo "FAILED: the iteration counts differ"; exit 1; }
if [ "$expect" != - ] && ! grep -Eq "$expect" <<<"$warp"; then echo "FAILED: -info does not show: $expect"; exit 1; fi
echo "PASSED: the same iteration counts as AIJ"
