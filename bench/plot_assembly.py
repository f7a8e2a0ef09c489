#!/usr/bin/env python3
"""Plot bench_assembly CSV output: time per assembly against the element degree, one panel per mesh family (hex
Laplace, hex elasticity, gmsh triangles, gmsh tetrahedra), one line per strategy and target (log scale), with PETSc's
CPU path on all ranks and on one rank as black lines; below, the effective bandwidth of the GPU paths as % of the
device copy bandwidth measured in the same run.
  usage: plot_assembly.py out.png in.csv [in.csv ...] [--paths=a,b,...] [--no-symbolic]
Rows whose status is not ok (failed, skipped, WRONG) are left out; sharednz rows that fell back to globalnz are drawn
with hollow markers. Line style: aijcusparse solid, ellwarp dashed, (symbolic) dotted; colour: strategy."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

args = [a for a in sys.argv[2:] if not a.startswith("--")]
keep = [a.split("=", 1)[1].split(",") for a in sys.argv[2:] if a.startswith("--paths=")]
symbolic = "--no-symbolic" not in sys.argv[2:]
rows, copy, device = [], None, None
for name in args:
    with open(name) as f:
        lines = []
        for line in f:
            if line.startswith("# copy_gbs="):
                v = float(line.split()[1].split("=")[1])
                copy = copy or (v if v > 0 else None)
            elif line.startswith("# device="):
                device = device or line.split("=", 1)[1].strip()
            elif line.strip() and not line.startswith("#"):
                lines.append(line)
    table = list(csv.reader(lines))
    head = table[0] if table else []
    ipath = head.index("path") if "path" in head else 0
    for fields in table[1:]:
        # bench_assembly quotes the path since 2026-11-23; older CSVs do not, and their sweep rows' paths hold commas
        # (sharednz[balls,0K,256]>...): join the surplus fields back into the path
        extra = len(fields) - len(head)
        if extra > 0:
            fields = fields[:ipath] + [",".join(fields[ipath : ipath + extra + 1])] + fields[ipath + extra + 1 :]
        r = dict(zip(head, fields))
        ok = r["status"].startswith("ok") or r["status"].startswith("fallback")
        if not ok or not r["time_ms"]:
            continue
        if keep and r["path"] not in keep[0] and r["path"] not in ("cpu_all", "cpu_1"):
            continue
        if not symbolic and r["matrix"] == "symbolic":
            continue
        rows.append(r)
if not rows:
    sys.exit("no timed rows in " + ", ".join(args))

families = list(dict.fromkeys(r["family"] for r in rows))
paths = list(dict.fromkeys(r["path"] for r in rows if r["path"] not in ("cpu_all", "cpu_1", "extract")))
strategies = ["sharednz", "globalnz", "color", "atomic", "coo"]
colors = {s: f"C{i}" for i, s in enumerate(strategies)}
markers = {"aijcusparse": "o", "ellwarp": "s", "aij": "^"}
lines = {"aijcusparse": "-", "ellwarp": "--", "aij": "-."}


def style(path):
    strat, rest = path.split(">", 1)
    target = rest.replace("(symbolic)", "")
    sym = "(symbolic)" in rest
    return dict(color=colors.get(strat, "C7"), marker=markers.get(target, "D"), ls=":" if sym else lines.get(target, "-"), ms=4 if sym else 6)


have_bw = any(r["frac_copy"] for r in rows if r["path"] in paths)
nrow = 2 if have_bw else 1
fig, axes = plt.subplots(nrow, len(families), figsize=(4.2 * len(families) + 2.8, 4.5 * nrow), squeeze=False)
fmt = FuncFormatter(lambda v, _: f"{v:g}")
minor = FuncFormatter(lambda v, _: f"{v:g}" if f"{v:e}"[0] in "25" else "")
for j, fam in enumerate(families):
    ax = axes[0][j]
    bx = axes[1][j] if have_bw else None
    sel = [r for r in rows if r["family"] == fam]
    degrees = sorted({int(r["degree"]) for r in sel})
    cases = {int(r["degree"]): r["case"] for r in sel}
    for p in ["cpu_all", "cpu_1"] + paths:
        pts = sorted((int(r["degree"]), float(r["time_ms"]), r) for r in sel if r["path"] == p)
        if not pts:
            continue
        xs, ts = [d for d, _, _ in pts], [t for _, t, _ in pts]
        if p in ("cpu_all", "cpu_1"):
            n = pts[0][2]["nprocs"]
            lab = f"PETSc CPU, {n} rank{'s' if n != '1' else ''}"
            ax.plot(xs, ts, color="k" if p == "cpu_all" else "0.55", ls="-", lw=2.5, marker="x", ms=8, label=lab)
            continue
        st = style(p)
        ax.plot(xs, ts, color=st["color"], ls=st["ls"], lw=1.2, marker=st["marker"], ms=st["ms"], label=p)
        for d, t, r in pts:  # sharednz that fell back to globalnz (status "ok", note "... ran as globalnz ..."): hollow
            if r["status"].startswith("fallback") or "ran as globalnz" in r["note"]:
                ax.plot([d], [t], color=st["color"], marker=st["marker"], ms=st["ms"] + 2, mfc="white", ls="none")
        fr = [(d, 100 * float(r["frac_copy"])) for d, _, r in pts if r["frac_copy"]]
        if bx is not None and fr:
            bx.plot([d for d, _ in fr], [v for _, v in fr], color=st["color"], ls=st["ls"], marker=st["marker"], ms=st["ms"], lw=1.2)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(fmt)
    ax.yaxis.set_minor_formatter(minor)
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_title(fam)
    labels = [f"{d}\n{cases[d]}" for d in degrees]
    for a in (ax, bx):
        if a is None:
            continue
        a.set_xticks(degrees, labels)
        a.set_xlim(min(degrees) - 0.4, max(degrees) + 0.4)
        a.grid(True, which="both", alpha=0.3)
    ax.set_ylabel("time per assembly (ms)" if j == 0 else "")
    if bx is not None:
        bx.set_ylabel("effective bandwidth, % of device copy" if j == 0 else "")
        bx.set_xlabel("element degree")
        bx.set_ylim(bottom=0)
    else:
        ax.set_xlabel("element degree")
handles, labels = axes[0][0].get_legend_handles_labels()
seen = dict(zip(labels, handles))
for row in axes[0][1:]:
    for h, lab in zip(*row.get_legend_handles_labels()):
        seen.setdefault(lab, h)
fig.legend(seen.values(), seen.keys(), loc="center right", fontsize=8, framealpha=0.9)
title = "Finite-element assembly: time per assembly (element computation included)"
if device:
    title += f"\n{device}" + (f"; copy bandwidth {copy:.0f} GB/s" if copy else "")
fig.suptitle(title, fontsize=10)
fig.tight_layout(rect=(0, 0, 1 - 2.6 / (4.2 * len(families) + 2.8), 1))
fig.savefig(sys.argv[1], dpi=100)
