#!/usr/bin/env python3
"""Plot bench/e2e.sh's CSV: per case (problem, degree, preconditioner, unknowns), stacked bars of the time of PETSc's
CPU path on one core and on all ranks and of each petscwarp path (residual, assembly again, preconditioner set-up,
solve), with the speed-up of assembly + PC set-up + solve against the CPU path on all ranks written above each bar (a petscwarp path
solved with KSPCGWARP is labelled +cgwarp); prints the table it plots, then per problem, degree and size the time to
solution (assembly + PC set-up + solve) of each side's fastest solver. CSVs of several runs may be concatenated: the
unknowns keep cases of other sizes apart. A solve that did not converge (the tutorials append "; KSP <reason>" to the
how column) is labelled "(not converged)" and left out of the fastest-solver lines. With a third argument, the heart's
CSV (tutorial 4: ms per time step split into assembly, solve and other, per size), one more panel per size with the
speed-up per step against the CPU path on all ranks. The tables end with the set-up's parts where the CSV has them:
the mesh (the DM and its discretisation) and DMCreateMatrix(), in seconds.
  usage: plot_e2e.py in.csv out.png [heart.csv]"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
hrows = list(csv.DictReader(open(sys.argv[3]))) if len(sys.argv) > 3 else []
hsizes = list(dict.fromkeys(r["unknowns"] for r in hrows))


def converged(r):
    return "; KSP " not in (r.get("how") or "")


def pcbase(r):  # "gamg/warp" and "gamg/agg" (the PCGAMG type, -paths_gamg_type) are one case: PETSc's GAMG against ours
    return (r["pc"] or "").split("/")[0]


cases = []
for r in rows:
    key = (r["problem"], r["degree"], pcbase(r), r["unknowns"])
    if key not in cases:
        cases.append(key)
phases = [("residual", "#999999"), ("asm_again", "#d62728"), ("pc_setup", "#ff7f0e"), ("solve", "#1f77b4")]
npanels = len(cases) + len(hsizes)
if not npanels:
    sys.exit("plot_e2e.py: no rows to plot")
fig, axes = plt.subplots(1, npanels, figsize=(4.2 * npanels, 4.8), squeeze=False)
print(f"{'case':34s} {'path':18s} {'unknowns':>9s} {'asm':>9s} {'pcsetup':>9s} {'solve':>9s} {'its':>5s} {'asm+pc+solve':>12s} {'x CPU-all':>9s} {'mesh s':>8s} {'matrix s':>8s}")


def opt(r, k):  # a column that older CSVs lack (mesh_setup, matrix_setup: the set-up's parts)
    v = r.get(k)
    return f"{float(v):8.3f}" if v not in (None, "") else f"{'-':>8s}"


for ax, key in zip(axes[0], cases):
    sel = [r for r in rows if (r["problem"], r["degree"], pcbase(r), r["unknowns"]) == key]
    bars = []
    for r in sel:
        label = f"CPU {r['ranks']}" if r["path"] == "aij" else r["path"] + ("+cgwarp" if r.get("ksp") == "cgwarp" else "") + ("+" + r["pc"].split("/")[1] if "/" in (r["pc"] or "") and not r["pc"].endswith("/agg") else "")
        if not converged(r):
            label += " (not converged)"
        bars.append((label, r))
    cpu_all = [r for lab, r in bars if r["path"] == "aij" and int(r["ranks"]) > 1]
    ref = None
    if cpu_all:
        c = cpu_all[0]
        ref = float(c["asm_again"]) + float(c["pc_setup"]) + float(c["solve"])
    for i, (label, r) in enumerate(bars):
        bottom = 0.0
        for ph, col in phases:
            v = float(r[ph])
            ax.bar(i, v, bottom=bottom, color=col, label=ph if i == 0 else None)
            bottom += v
        tot = float(r["asm_again"]) + float(r["pc_setup"]) + float(r["solve"])
        sp = ref / tot if ref else float("nan")
        ax.text(i, bottom * 1.05, f"{sp:.1f}x", ha="center", fontsize=8)
        print(f"{key[0] + ' deg ' + key[1] + ' ' + key[2]:34s} {label:18s} {int(r['unknowns']):9d} {float(r['asm_again']):9.4f} {float(r['pc_setup']):9.4f} {float(r['solve']):9.4f} {int(r['its']):5d} {tot:12.4f} {sp:9.1f} {opt(r, 'mesh_setup')} {opt(r, 'matrix_setup')}")
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[0] for b in bars], rotation=30, fontsize=8)
    ax.set_yscale("log")
    ax.set_title(f"{key[0]}, degree {key[1]}, CG+{key[2]}\n{int(sel[0]['unknowns'])} unknowns", fontsize=9)
    ax.set_ylabel("seconds")
if cases:
    axes[0][0].legend(fontsize=8)
if hsizes:
    print(f"{'heart (ms per step)':34s} {'path':18s} {'unknowns':>9s} {'steps':>5s} {'Newton':>6s} {'CG':>6s} {'assembly':>9s} {'solve':>9s} {'other':>9s} {'total':>9s} {'x CPU-all':>9s} {'matrix s':>8s}")
for ax, size in zip(axes[0][len(cases):], hsizes):
    sel = [r for r in hrows if r["unknowns"] == size]
    cpu_all = [r for r in sel if r["path"] == "aij" and int(r["ranks"]) > 1]
    ref = float(cpu_all[0]["total"]) if cpu_all else None
    labels = [f"CPU {r['ranks']}" if r["path"] == "aij" else r["path"] for r in sel]
    for i, (label, r) in enumerate(zip(labels, sel)):
        a, so, t = (1e3 * float(r[k]) for k in ("asm", "solve", "total"))
        bottom = 0.0
        for v, col, name in ((a, "#d62728", "assembly"), (so, "#1f77b4", "solve"), (t - a - so, "#999999", "other")):
            ax.bar(i, v, bottom=bottom, color=col, label=name if i == 0 else None)
            bottom += v
        sp = ref / float(r["total"]) if ref else float("nan")
        ax.text(i, bottom * 1.05, f"{sp:.1f}x", ha="center", fontsize=8)
        print(f"{'heart':34s} {label:18s} {int(r['unknowns']):9d} {int(r['steps']):5d} {int(r['newton']):6d} {int(r['cg']):6d} {a:9.2f} {so:9.2f} {t - a - so:9.2f} {t:9.2f} {sp:9.1f} {opt(r, 'matrix_setup')}")
    ax.set_xticks(range(len(sel)))
    ax.set_xticklabels(labels, rotation=30, fontsize=8)
    ax.set_yscale("log")
    ax.set_title(f"heart (Aliev-Panfilov), ms per time step\n{int(size)} unknowns", fontsize=9)
    ax.set_ylabel("ms per step")
    ax.legend(fontsize=8)


def total(r):
    return float(r["asm_again"]) + float(r["pc_setup"]) + float(r["solve"])


for prob in dict.fromkeys((r["problem"], r["degree"], r["unknowns"]) for r in rows):
    sel = [r for r in rows if (r["problem"], r["degree"], r["unknowns"]) == prob and converged(r)]
    cpu = [r for r in sel if r["path"] == "aij" and int(r["ranks"]) > 1]
    gpu = [r for r in sel if r["path"] != "aij"]
    if cpu and gpu:
        c, g = min(cpu, key=total), min(gpu, key=total)
        print(f"{prob[0]} deg {prob[1]}, {prob[2]} unknowns: fastest CPU-all ({c.get('ksp') or 'cg'}+{c['pc']}) {total(c):.4f} s, fastest petscwarp ({g['path']}, {g.get('ksp') or 'cg'}+{g['pc']}) {total(g):.4f} s: {total(c) / total(g):.1f}x")
fig.suptitle("PETSc CPU path (1 core, all ranks) against petscwarp on one GPU\nx: speed-up of assembly + PC set-up + solve (heart: of the time per step) over the CPU path on all ranks", fontsize=9)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
