"""Coarse gmsh meshes for bench_spmv (the benchmark refines them uniformly with -dm_refine on the GPU machine).

Run with the PyPI gmsh package:  python3 -m venv /tmp/gm && /tmp/gm/bin/pip install gmsh && /tmp/gm/bin/python make_meshes.py
  cube_tet.msh    unit cube, tetrahedra, uniform size 1/24
  graded_tet.msh  unit cube, tetrahedra, graded from 1/200 at the corner (0,0,0) to 1/10 (distance field)
  square_tri.msh  unit square, triangles, uniform size 1/100
"""
import os
import gmsh

here = os.path.dirname(os.path.abspath(__file__))


def write(name):
    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    gmsh.option.setNumber("Mesh.Binary", 1)
    gmsh.write(os.path.join(here, name))
    n = len(gmsh.model.mesh.getNodes()[0])
    print(f"{name}: {n} nodes")


def cube(name, graded):
    gmsh.model.add(name)
    gmsh.model.occ.addBox(0, 0, 0, 1, 1, 1)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(3, [1], 1)
    gmsh.model.addPhysicalGroup(2, [s[1] for s in gmsh.model.getEntities(2)], 1)
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
    else:
        gmsh.option.setNumber("Mesh.MeshSizeMin", 1 / 24)
        gmsh.option.setNumber("Mesh.MeshSizeMax", 1 / 24)
    gmsh.model.mesh.generate(3)
    write(name)
    gmsh.model.remove()


def square(name):
    gmsh.model.add(name)
    gmsh.model.occ.addRectangle(0, 0, 0, 1, 1)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(2, [1], 1)
    gmsh.model.addPhysicalGroup(1, [c[1] for c in gmsh.model.getEntities(1)], 1)
    gmsh.option.setNumber("Mesh.MeshSizeMin", 1 / 100)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 1 / 100)
    gmsh.model.mesh.generate(2)
    write(name)
    gmsh.model.remove()


gmsh.initialize()
gmsh.option.setNumber("General.Terminal", 0)
cube("cube_tet.msh", False)
cube("graded_tet.msh", True)
square("square_tri.msh")
gmsh.finalize()
