// Small simplex meshes for the MPI tests of the DMPlex hook (simplex box meshes need triangle/tetgen, which PETSc from
// PyPI lacks): gmsh -3 -setnumber dim 3 small.geo -o cube_tet_small.msh; gmsh -2 -setnumber dim 2 small.geo -o square_tri_small.msh
// Physical groups: cells 1; faces 1 (x = 0), 2 (the rest of the boundary)
SetFactory("OpenCASCADE");
If (dim == 3)
  Box(1) = {0, 0, 0, 1, 1, 1};
  Physical Volume(1) = {1};
  Physical Surface(1) = {1};
  Physical Surface(2) = {2, 3, 4, 5, 6};
  Mesh.CharacteristicLengthMax = 0.6;
Else
  Rectangle(1) = {0, 0, 0, 1, 1};
  Physical Surface(1) = {1};
  Physical Curve(1) = {4};
  Physical Curve(2) = {1, 2, 3};
  Mesh.CharacteristicLengthMax = 0.34;
EndIf
Mesh.MshFileVersion = 4.1;
