"""The voltage on the epicardium at the snapshot times of tutorial 4 (ex4 -surface <prefix>) as one PNG.

  python3 bench/heart_png.py <prefix> [out.png]     (needs matplotlib; the GPU machine may lack it: copy the two CSV
                                                     files back and run this where it is installed)
Reads <prefix>_tri.csv (triangles: three vertex indices) and <prefix>_vert.csv (x, y, z, then one column of voltages per
snapshot, headed t=<time>); draws each snapshot in 3D, faces coloured by the mean voltage of their vertices.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402


def main():
    prefix = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else prefix + ".png"
    tris = [[int(v) for v in row] for row in csv.reader(open(prefix + "_tri.csv"))]
    rows = list(csv.reader(open(prefix + "_vert.csv")))
    head, data = rows[0], [[float(v) for v in row] for row in rows[1:]]
    xyz = [r[:3] for r in data]
    times = head[3:]
    cmap = plt.get_cmap("inferno")
    fig = plt.figure(figsize=(4 * len(times), 5))
    for k, t in enumerate(times):
        ax = fig.add_subplot(1, len(times), k + 1, projection="3d")
        polys = [[xyz[i] for i in tri] for tri in tris]
        vals = [sum(data[i][3 + k] for i in tri) / 3 for tri in tris]
        pc = Poly3DCollection(polys, facecolors=[cmap(min(max(v, 0.0), 1.0)) for v in vals], edgecolors="none")
        ax.add_collection3d(pc)
        ax.set_xlim(-12, 12), ax.set_ylim(-12, 12), ax.set_zlim(-21, 6)
        ax.set_box_aspect((24, 24, 27))
        ax.view_init(elev=10, azim=-60)
        ax.set_axis_off()
        ax.set_title(f"V on the epicardium, {t}")
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, 1))
    fig.colorbar(sm, ax=fig.axes, shrink=0.6, label="V (dimensionless)")
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
