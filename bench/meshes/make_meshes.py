"""Coarse gmsh meshes for the benchmarks and tutorials (the programs refine them uniformly with DMPlex's -dm_refine).

Run with the PyPI gmsh package (the GPU machine has neither network nor gmsh: the .msh files live in the repository):
  python3 -m venv /tmp/gm && /tmp/gm/bin/pip install gmsh
  /tmp/gm/bin/python make_meshes.py                      # every mesh
  /tmp/gm/bin/python make_meshes.py holed_tri shell_tet  # only these (names without .msh)
  /tmp/gm/bin/python make_meshes.py --out /tmp/m ...     # write elsewhere
With gmsh 4.15.2 every file is reproduced byte for byte (each generator sets its whole option state, so a selection
gives the same files as a full run).
All files are gmsh MSH 4.1 binary. Physical groups become DMPlex labels: the cells' group is "Cell Sets", the boundary's
groups are "Face Sets" (value = physical group id); -dm_plex_gmsh_use_regions makes labels named after the physical
names below INSTEAD (add -dm_plex_gmsh_use_generic to keep "Face Sets"); see README.md. DMPlex refinement does not snap new boundary vertices to the curved geometry: the refined meshes
keep the coarse polygonal/polyhedral boundary (fine for benchmarks; note it when measuring convergence).

  cube_tet.msh    unit cube, tetrahedra, uniform size 1/24                   cells 1, faces 1
  graded_tet.msh  unit cube, tetrahedra, MEANT to be graded from 1/200 at the corner (0,0,0) to 1/10 (distance field),
                  but the first version of this script left Mesh.MeshSizeMin = MeshSizeMax = 1/24 set from cube_tet,
                  which clamps the field: the shipped file is in fact uniform 1/24 (12359 nodes, edge lengths as in
                  cube_tet). The generator keeps that clamp explicitly so that the shipped file (and the numbers of
                  bench/RESULTS.md measured on it) stay reproducible; drop the two MeshSizeMin/Max lines marked
                  "legacy clamp" below for a really graded mesh.
  square_tri.msh  unit square, triangles, uniform size 1/100                 cells 1, edges 1

  holed_tri.msh   2D heat problem of Cecka, Lew, Darve (2011), section 6.1: div(grad u) = f in Omega, u = 200 on Gamma_g1,
                  u = 10 on Gamma_g2, grad u . n = 0 on Gamma_q (f = 0.1). The paper shows the domain only in its
                  Figure 11 (not in the text we have): the labels of the figure name Gamma_g1 once, Gamma_g2 four times
                  and Gamma_q once, and its coarsest mesh has 184 nodes and 292 triangles (each level refined 4x, up to
                  2.4M nodes / 4.8M triangles). The exact shape is not given, so we chose: the rectangle [0,4]x[0,2] with
                  four circular holes (centres/radii (1.0,1.0)/0.40, (2.2,0.6)/0.30, (2.2,1.4)/0.30, (3.3,1.0)/0.25);
                  Gamma_g1 = the left edge x = 0 (hot, g = 200), Gamma_g2 = the four hole circles (cold, g = 10),
                  Gamma_q = the top, bottom and right edges (insulated, q = 0).
                  Physical groups: surface 1 "domain"; curves 1 "hot" (g=200), 2 "cold" (g=10), 3 "insulated" (q=0).
  holed_quad.msh  the same domain and groups with quadrilaterals only (frontal-Delaunay for quads + blossom full-quad
                  recombination).
  shell_tet.msh   the heart application of Wong, Kuhl, Darve (ELL-WARP): their heart mesh is patient-specific and not
                  given, so we use the standard idealised left ventricle of the cardiac-mechanics benchmark of Land et al.
                  (2015), in mm: a prolate ellipsoidal shell, endocardium semi-axes (7, 7, 17), epicardium (10, 10, 20),
                  centred at the origin with the long axis along z, apex at z < 0, truncated by the base plane z = 5.
                  Tetrahedra. Physical groups: volume 1 "myocardium"; surfaces 1 "epicardium" (outer), 2 "endocardium"
                  (inner), 3 "base" (the plane z = 5).
  torus_tet.msh   a quarter torus (major radius 1, tube radius 0.3, angle 0..pi/2 about z), tetrahedra.
                  Physical groups: volume 1 "solid"; all boundary surfaces 1 "boundary".
  lshape_tet.msh  an L-shaped block ([0,2]x[0,2] minus [1,2]x[1,2], extruded to z in [0,1]) with a cylindrical hole of
                  radius 0.25 along z at (0.5, 0.5), tetrahedra. Physical groups: volume 1 "solid"; all boundary
                  surfaces 1 "boundary".
"""
import math
import os
import sys

import gmsh

out_dir = os.path.dirname(os.path.abspath(__file__))


def write(name):
    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    gmsh.option.setNumber("Mesh.Binary", 1)
    gmsh.write(os.path.join(out_dir, name))
    n = len(gmsh.model.mesh.getNodes()[0])
    dim = gmsh.model.getDimension()
    counts = {}
    for t, tags in zip(*gmsh.model.mesh.getElements(dim)[:2]):
        counts[gmsh.model.mesh.getElementProperties(t)[0]] = len(tags)
    print(f"{name}: {n} nodes, elements {counts}")


def cube(name, graded):
    gmsh.model.add(name)
    gmsh.model.occ.addBox(0, 0, 0, 1, 1, 1)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(3, [1], 1)
    gmsh.model.addPhysicalGroup(2, [s[1] for s in gmsh.model.getEntities(2)], 1)
    gmsh.option.setNumber("Mesh.MeshSizeMin", 1 / 24)  # legacy clamp (see the module docstring)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 1 / 24)  # legacy clamp
    if graded:
        pt = gmsh.model.occ.addPoint(0, 0, 0)
        gmsh.model.occ.synchronize()
        d = gmsh.model.mesh.field.add("Distance")
        gmsh.model.mesh.field.setNumbers(d, "PointsList", [1])
        t = gmsh.model.mesh.field.add("Threshold")
        gmsh.model.mesh.field.setNumber(t, "InField", d)
        gmsh.model.mesh.field.setNumber(t, "SizeMin", 1 / 200)
        gmsh.model.mesh.field.setNumber(t, "SizeMax", 1 / 10)
        gmsh.model.mesh.field.setNumber(t, "DistMin", 0.02)
        gmsh.model.mesh.field.setNumber(t, "DistMax", 1.2)
        gmsh.model.mesh.field.setAsBackgroundMesh(t)
        gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
        gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
        gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
        del pt
    gmsh.model.mesh.generate(3)
    write(name)
    gmsh.model.remove()


def square(name):
    gmsh.model.add(name)
    gmsh.model.occ.addRectangle(0, 0, 0, 1, 1)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(2, [1], 1)
    gmsh.model.addPhysicalGroup(1, [c[1] for c in gmsh.model.getEntities(1)], 1)
    # The first version ran this after graded_tet and inherited its three options: kept for reproducibility.
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.option.setNumber("Mesh.MeshSizeMin", 1 / 100)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 1 / 100)
    gmsh.model.mesh.generate(2)
    write(name)
    gmsh.model.remove()


def holed(name, quads):
    """Rectangle with four circular holes (section 6.1 of Cecka, Lew, Darve); see the module docstring."""
    gmsh.model.add(name)
    occ = gmsh.model.occ
    rect = occ.addRectangle(0, 0, 0, 4, 2)
    holes = [occ.addDisk(x, y, 0, r, r) for x, y, r in ((1.0, 1.0, 0.40), (2.2, 0.6, 0.30), (2.2, 1.4, 0.30),
                                                         (3.3, 1.0, 0.25))]
    occ.cut([(2, rect)], [(2, h) for h in holes])
    occ.synchronize()
    surf = [s[1] for s in gmsh.model.getEntities(2)]
    assert len(surf) == 1
    hot, cold, insulated = [], [], []
    for _, c in gmsh.model.getEntities(1):
        x0, y0, _, x1, y1, _ = gmsh.model.getBoundingBox(1, c)
        if x1 < 1e-6:
            hot.append(c)
        elif x0 < 1e-6 or x1 > 4 - 1e-6 or y0 < 1e-6 or y1 > 2 - 1e-6:
            insulated.append(c)
        else:
            cold.append(c)
    assert len(hot) == 1 and len(cold) == 4 and len(insulated) == 3, (hot, cold, insulated)
    gmsh.model.addPhysicalGroup(2, surf, 1, "domain")
    gmsh.model.addPhysicalGroup(1, hot, 1, "hot")
    gmsh.model.addPhysicalGroup(1, cold, 2, "cold")
    gmsh.model.addPhysicalGroup(1, insulated, 3, "insulated")
    # Size 0.08 in the plate, 0.04 on the holes (39-63 segments per circle).
    d = gmsh.model.mesh.field.add("Distance")
    gmsh.model.mesh.field.setNumbers(d, "CurvesList", cold)
    gmsh.model.mesh.field.setNumber(d, "Sampling", 200)
    t = gmsh.model.mesh.field.add("Threshold")
    gmsh.model.mesh.field.setNumber(t, "InField", d)
    gmsh.model.mesh.field.setNumber(t, "SizeMin", 0.04)
    gmsh.model.mesh.field.setNumber(t, "SizeMax", 0.08)
    gmsh.model.mesh.field.setNumber(t, "DistMin", 0.02)
    gmsh.model.mesh.field.setNumber(t, "DistMax", 0.3)
    gmsh.model.mesh.field.setAsBackgroundMesh(t)
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    if quads:
        # Blossom full-quad recombination: no triangle remains (asserted below); the quads come out about the size of
        # the field (1852 quads, 2025 nodes against 3809 triangles, 2076 nodes).
        gmsh.option.setNumber("Mesh.Algorithm", 8)
        gmsh.option.setNumber("Mesh.RecombineAll", 1)
        gmsh.option.setNumber("Mesh.RecombinationAlgorithm", 3)
    else:
        gmsh.option.setNumber("Mesh.Algorithm", 6)
        gmsh.option.setNumber("Mesh.RecombineAll", 0)
    gmsh.model.mesh.generate(2)
    if quads:
        types = gmsh.model.mesh.getElementTypes(2)
        assert list(types) == [3], f"holed_quad: element types {types} (3 = 4-node quad)"
    write(name)
    gmsh.model.remove()


def shell(name):
    """Truncated prolate ellipsoidal shell (idealised left ventricle, Land et al. 2015), in mm."""
    gmsh.model.add(name)
    occ = gmsh.model.occ
    epi = occ.addSphere(0, 0, 0, 1)
    occ.dilate([(3, epi)], 0, 0, 0, 10, 10, 20)
    endo = occ.addSphere(0, 0, 0, 1)
    occ.dilate([(3, endo)], 0, 0, 0, 7, 7, 17)
    cap = occ.addBox(-30, -30, 5, 60, 60, 30)
    occ.cut([(3, epi)], [(3, endo), (3, cap)])
    occ.synchronize()
    vols = [v[1] for v in gmsh.model.getEntities(3)]
    assert len(vols) == 1
    epis, endos, base = [], [], []
    for _, s in gmsh.model.getBoundary([(3, vols[0])], oriented=False):
        lo, hi = gmsh.model.getParametrizationBounds(2, s)
        x, y, z = gmsh.model.getValue(2, s, [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2])
        if abs(z - 5) < 1e-6:
            base.append(s)
        elif abs((x * x + y * y) / 100 + z * z / 400 - 1) < 1e-6:
            epis.append(s)
        elif abs((x * x + y * y) / 49 + z * z / 289 - 1) < 1e-6:
            endos.append(s)
        else:
            raise AssertionError(f"shell: surface {s} at {(x, y, z)} is neither base, epicardium nor endocardium")
    assert epis and endos and len(base) == 1, (epis, endos, base)
    gmsh.model.addPhysicalGroup(3, vols, 1, "myocardium")
    gmsh.model.addPhysicalGroup(2, epis, 1, "epicardium")
    gmsh.model.addPhysicalGroup(2, endos, 2, "endocardium")
    gmsh.model.addPhysicalGroup(2, base, 3, "base")
    gmsh.option.setNumber("Mesh.MeshSizeMin", 1.1)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 1.1)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.model.mesh.generate(3)
    gmsh.model.mesh.optimize("Netgen")
    write(name)
    gmsh.model.remove()


def torus(name):
    gmsh.model.add(name)
    gmsh.model.occ.addTorus(0, 0, 0, 1.0, 0.3, -1, math.pi / 2)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(3, [v[1] for v in gmsh.model.getEntities(3)], 1, "solid")
    gmsh.model.addPhysicalGroup(2, [s[1] for s in gmsh.model.getEntities(2)], 1, "boundary")
    gmsh.option.setNumber("Mesh.MeshSizeMin", 0.05)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.05)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.model.mesh.generate(3)
    gmsh.model.mesh.optimize("Netgen")
    write(name)
    gmsh.model.remove()


def lshape(name):
    gmsh.model.add(name)
    occ = gmsh.model.occ
    block = occ.addBox(0, 0, 0, 2, 2, 1)
    notch = occ.addBox(1, 1, 0, 1, 1, 1)
    hole = occ.addCylinder(0.5, 0.5, 0, 0, 0, 1, 0.25)
    occ.cut([(3, block)], [(3, notch), (3, hole)])
    occ.synchronize()
    gmsh.model.addPhysicalGroup(3, [v[1] for v in gmsh.model.getEntities(3)], 1, "solid")
    gmsh.model.addPhysicalGroup(2, [s[1] for s in gmsh.model.getEntities(2)], 1, "boundary")
    gmsh.option.setNumber("Mesh.MeshSizeMin", 0.05)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.1)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 24)
    gmsh.model.mesh.generate(3)
    gmsh.model.mesh.optimize("Netgen")
    write(name)
    gmsh.model.remove()


MESHES = {
    "cube_tet": lambda: cube("cube_tet.msh", False),
    "graded_tet": lambda: cube("graded_tet.msh", True),
    "square_tri": lambda: square("square_tri.msh"),
    "holed_tri": lambda: holed("holed_tri.msh", False),
    "holed_quad": lambda: holed("holed_quad.msh", True),
    "shell_tet": lambda: shell("shell_tet.msh"),
    "torus_tet": lambda: torus("torus_tet.msh"),
    "lshape_tet": lambda: lshape("lshape_tet.msh"),
}

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--out"]:
        out_dir = args[1]
        os.makedirs(out_dir, exist_ok=True)
        args = args[2:]
    names = [a[:-4] if a.endswith(".msh") else a for a in args] or list(MESHES)
    unknown = [n for n in names if n not in MESHES]
    if unknown:
        sys.exit(f"unknown mesh(es) {unknown}; known: {' '.join(MESHES)}")
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    for n in names:
        gmsh.option.restoreDefaults()
        gmsh.option.setNumber("General.Terminal", 0)
        MESHES[n]()
    gmsh.finalize()
