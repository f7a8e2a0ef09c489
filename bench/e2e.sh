#!/usr/bin/env bash
# The end-to-end benchmark (issue 8): the heat tutorial (P1, P2; CG + Jacobi and CG + GAMG) and the elasticity tutorial
# (Q1, Q2; CG + GAMG; Q1 also CG + Jacobi), PETSc's CPU path on one core and on all host cores against the petscwarp
# paths (ellwarp, sharednz) on one GPU, split into set-up, residual, assembly, preconditioner set-up and solve; the
# CG + Jacobi cases also with KSPCGWARP (the GPU paths' fused CG, one rank); then the heart (tutorial 4, time per
# step, its own CSV). One PNG of both; plot_e2e.py also prints each problem's time to solution with each side's
# fastest solver.
#   bench/e2e.sh [build-dir] [out-dir]        (default gpu/build and $OUT or bench/results)
# Environment: HEAT_P1_REFINE, HEAT_P2_REFINE, ELAS_Q1, ELAS_Q2, HEART_REFINE (sizes), HEART_STEPS, HEART_STEPS_CPU1,
# HEAT_P1_BIG (below), ONLY (run only the cases whose command line contains this), NP (ranks of the CPU path on all
# cores).
# Every line of the CSV is a path of one run of a tutorial; the one-core CPU path is the aij path of the one-rank run.
# One-rank runs are not bound to a core (OpenMPI binds one or two ranks to a core each): the petscwarp paths' set-up
# extracts the element-to-dof map on threads (-dm_plex_warp_threads); PETSc's path runs one thread either way.
set -uo pipefail
B=${1:-gpu/build}
OUTDIR=${2:-${OUT:-bench/results}}
NP=${NP:-$(nproc)}
CSV=$OUTDIR/e2e.csv
LOG=$OUTDIR/e2e.log
mkdir -p "$OUTDIR"
HCSV=$OUTDIR/e2e_heart.csv
: > "$CSV" # empty: the tutorials write the header of an empty file
rm -f "$HCSV"
run() { # name, args...
  echo "== $*" | tee -a "$LOG"
  "$@" 2>&1 | tee -a "$LOG" | tail -8
}
HEAT="$B/tutorials/ex2 -dm_plex_filename bench/meshes/holed_tri.msh"
ELAS="$B/tutorials/ex3"
for c in "$HEAT -petscspace_degree 1 -dm_refine ${HEAT_P1_REFINE:-4}" \
         "$HEAT -petscspace_degree 2 -dm_refine ${HEAT_P2_REFINE:-3}" \
         "$HEAT -petscspace_degree 1 -dm_refine ${HEAT_P1_REFINE:-4} -pc_type gamg" \
         "$ELAS -petscspace_degree 1 -dm_plex_box_faces ${ELAS_Q1:-50,50,50}" \
         "$ELAS -petscspace_degree 2 -dm_plex_box_faces ${ELAS_Q2:-20,20,20}" \
         "$ELAS -petscspace_degree 1 -dm_plex_box_faces ${ELAS_Q1:-50,50,50} -pc_type jacobi"; do
  case "$c" in *${ONLY:-}*) ;; *) continue ;; esac # ONLY=ex3: one tutorial
  run mpiexec -n 1 --bind-to none $c -csv "$CSV"
  run mpiexec -n "$NP" --bind-to core $c -paths aij -csv "$CSV"
  t=${c#"$B"/tutorials/} # the case without the build directory (whose name must not match the patterns)
  # PCGAMG type warp (set up on the device; scalar problems): the GPU paths again with it
  case "$t" in ex2*gamg*) run mpiexec -n 1 --bind-to none $c -paths ellwarp,sharednz -paths_gamg_type warp -csv "$CSV" ;; esac
  case "$t" in *gamg*) continue ;; esac # KSPCGWARP fuses Jacobi only (it runs on one rank)
  case "$t" in ex3*-pc_type\ jacobi* | ex2*) run mpiexec -n 1 --bind-to none $c -paths ellwarp,sharednz -ksp_type cgwarp -csv "$CSV" ;; esac
done
# HEAT_P1_BIG=<refinement>: heat P1 with CG + Jacobi at that size without the one-core CPU path (at -dm_refine 6, 7.8 M
# unknowns, it would take about 30 minutes): the GPU paths with KSPCGWARP (with KSPCG the one-rank set-up, 80 s a path
# there, would push the case past the device tool's 10 minutes), PETSc on all cores with CG + Jacobi and CG + GAMG.
# At -dm_refine 6 on the H100 machine it took 527 s: run it alone (ONLY="-dm_refine 6")
if [ -n "${HEAT_P1_BIG:-}" ]; then
  c="$HEAT -petscspace_degree 1 -dm_refine $HEAT_P1_BIG"
  case "$c" in *${ONLY:-}*)
    run mpiexec -n "$NP" --bind-to core $c -paths aij -csv "$CSV"
    run mpiexec -n "$NP" --bind-to core $c -paths aij -pc_type gamg -csv "$CSV"
    run mpiexec -n 1 --bind-to none $c -paths ellwarp,sharednz -ksp_type cgwarp -csv "$CSV"
    [ -n "${HEAT_P1_BIG_GAMG:-}" ] && run mpiexec -n 1 --bind-to none $c -paths ellwarp,sharednz -pc_type gamg -paths_gamg_type warp -csv "$CSV" ;;
  esac
fi
# The heart (tutorial 4, the Aliev-Panfilov model on the ellipsoidal shell): ms per time step, its own CSV
# (e2e_heart.csv). The GPU paths and PETSc on all cores run HEART_STEPS steps (default 10), PETSc on one core
# HEART_STEPS_CPU1 (default 2: about 50 s a step at -dm_refine 2 on the H100 machine's host; 0 leaves it out)
H="$B/tutorials/ex4 -dm_plex_filename bench/meshes/shell_tet.msh -dm_refine ${HEART_REFINE:-2}"
case "$H" in *${ONLY:-}*)
  run mpiexec -n 1 --bind-to none $H -steps "${HEART_STEPS:-10}" -paths ellwarp,sharednz -csv "$HCSV"
  run mpiexec -n "$NP" --bind-to core $H -steps "${HEART_STEPS:-10}" -paths aij -csv "$HCSV"
  if [ "${HEART_STEPS_CPU1:-2}" != 0 ]; then run mpiexec -n 1 --bind-to none $H -steps "${HEART_STEPS_CPU1:-2}" -paths aij -csv "$HCSV"; fi ;;
esac
if python3 -c "import matplotlib" 2>/dev/null; then python3 bench/plot_e2e.py "$CSV" "$OUTDIR/e2e.png" $([ -s "$HCSV" ] && echo "$HCSV") 2>&1 | tee -a "$LOG"; else echo "no matplotlib here: plot with python3 bench/plot_e2e.py $CSV e2e.png [$HCSV]"; fi
