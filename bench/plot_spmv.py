#!/usr/bin/env python3
"""Plot bench_spmv CSV output: effective bandwidth per matrix per path, against the measured copy bandwidth.
usage: plot_spmv.py spmv.csv spmv.png"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows, copy = [], None
with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("# copy_gbs="):
            v = float(line.split()[1].split("=")[1])
            copy = v if v > 0 else copy
        elif line.strip():
            rows.append(next(csv.reader([line])))
cases = list(dict.fromkeys(r[0] for r in rows))
paths = list(dict.fromkeys(f"{r[3]}" + (f" ({r[4]} ranks)" if r[4] != "1" else "") for r in rows))
fig, ax = plt.subplots(figsize=(10, 5))
w = 0.8 / len(paths)
for k, p in enumerate(paths):
    ys = []
    for c in cases:
        v = [float(r[7]) for r in rows if r[0] == c and (f"{r[3]}" + (f" ({r[4]} ranks)" if r[4] != "1" else "")) == p]
        ys.append(v[-1] if v else 0)
    ax.bar([i + k * w for i in range(len(cases))], ys, w, label=p)
if copy:
    ax.axhline(copy, color="k", ls="--", lw=1, label=f"device copy {copy:.0f} GB/s")
ax.set_xticks([i + 0.4 - w / 2 for i in range(len(cases))], cases)
ax.set_ylabel("effective GB/s (12 B/nnz + 20 B/row)")
ax.set_title("SpMV, DMPlex box matrices")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
