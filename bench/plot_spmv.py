#!/usr/bin/env python3
"""Plot bench_spmv CSV output: effective bandwidth per matrix and path (with the measured copy bandwidth), and the
speed-up over aijcusparse.   usage: plot_spmv.py out.png in.csv [in.csv ...] [--paths a,b,...]"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

args = [a for a in sys.argv[2:] if not a.startswith("--paths=")]
keep = [a.split("=", 1)[1].split(",") for a in sys.argv[2:] if a.startswith("--paths=")]
rows, copy = [], None
for name in args:
    with open(name) as f:
        for line in f:
            if line.startswith("# copy_gbs="):
                v = float(line.split()[1].split("=")[1])
                copy = copy or (v if v > 0 else None)
            elif line.strip() and not line.startswith("#"):
                r = next(csv.reader([line]))
                if not keep or r[3] in keep[0] or r[3].split("+")[0] in keep[0]:
                    rows.append(r)


def label(r):
    return r[3] + (f" ({r[4]} CPU ranks)" if r[3] in ("aij", "aij_cpu") else "")


cases = list(dict.fromkeys(r[0] for r in rows))
paths = list(dict.fromkeys(label(r) for r in rows))
value = {(r[0], label(r)): (float(r[5]), float(r[7])) for r in rows}
# the baseline of the speed-ups: aijcusparse, with whatever "+<ksp>" suffix the driver gave its paths (-cg_types)
base = {r[0]: label(r) for r in rows if r[3].split("+")[0] == "aijcusparse"}
base.update({r[0]: label(r) for r in rows if r[3] == "aijcusparse"})  # the plain row where there is one
fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(10, 0.9 * len(cases) + 4), 9))
w = 0.8 / len(paths)
for k, p in enumerate(paths):
    xs = [i + k * w for i in range(len(cases))]
    ax1.bar(xs, [value.get((c, p), (0, 0))[1] for c in cases], w, label=p)
    ax2.bar(xs, [value[(c, base[c])][0] / value[(c, p)][0] if (c, p) in value and c in base else 0 for c in cases], w, label=p)
if copy:
    ax1.axhline(copy, color="k", ls="--", lw=1, label=f"device copy {copy:.0f} GB/s")
for ax in (ax1, ax2):
    ax.set_xticks([i + 0.4 - w / 2 for i in range(len(cases))], cases, rotation=30, ha="right", fontsize=8)
ax1.set_ylabel("effective GB/s (12 B/nonzero + 20 B/row)")
ax1.set_title("SpMV bandwidth")
ax2.set_ylabel("speed-up over aijcusparse")
ax2.set_yscale("log")
ax2.axhline(1.0, color="k", lw=0.8)
ax2.set_title("SpMV speed-up over aijcusparse")
ax1.legend(fontsize=7, loc="lower left", framealpha=0.9)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=100)
