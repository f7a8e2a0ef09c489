/*
  DMPlexWarpCreateRigidBody(): the rigid-body modes of a displacement field (PCGAMG's near null space), as
  DMPlexCreateRigidBody() makes them, written straight from the vertex coordinates where the field's dofs are the values
  at the vertices (Lagrange P1 and Q1). DMPlexCreateRigidBody() projects each of the dim (dim + 1) / 2 modes with
  DMProjectFunction(), which evaluates the dual space cell by cell: on one core that was 3.81 s of the 4.82 s of
  DMCreateMatrix() of Q1 elasticity at 40^3 cells (the near null space constructor runs inside DMCreateMatrix()), more
  than the matrix itself, and the one-GPU user pays it before the first product.
*/
#include <petscwarp/private/plexwarpasm.h> /* DMPLEXWARP_RigidBody */
#include <petscfe.h>

/* Whether the field's dofs are its components' values at the vertices: a PetscFE of Lagrange type (or the sum of
   Lagrange spaces of a vector field) with one component
   per coordinate, dofs on vertices only, no basis transform and no cell-wise (periodic) coordinates; *why otherwise */
static PetscErrorCode VertexLagrange(DM dm, PetscInt field, PetscInt cdim, PetscBool *ok, const char **why)
{
  PetscObject    obj;
  PetscClassId   id;
  PetscDualSpace Q;
  PetscSection   s;
  PetscInt       Nc, pStart, pEnd, vStart, vEnd;
  PetscBool      lag, tf;
  Vec            cellc;
  PetscMPIInt    okl, okg;
  PetscFE        fe;

  PetscFunctionBegin;
  *ok  = PETSC_FALSE;
  *why = NULL;
  PetscCall(DMGetField(dm, field, NULL, &obj));
  PetscCall(PetscObjectGetClassId(obj, &id));
  if (id != PETSCFE_CLASSID) *why = "not a PetscFE field";
  if (!*why) {
    fe = (PetscFE)obj;
    PetscCall(PetscFEGetNumComponents(fe, &Nc));
    PetscCall(PetscFEGetDualSpace(fe, &Q));
    PetscCall(PetscObjectTypeCompare((PetscObject)Q, PETSCDUALSPACELAGRANGE, &lag));
    if (!lag) { /* a vector field's: the sum of one Lagrange space per component */
      PetscBool sum;
      PetscInt  ns;

      PetscCall(PetscObjectTypeCompare((PetscObject)Q, PETSCDUALSPACESUM, &sum));
      if (sum) {
        PetscCall(PetscDualSpaceSumGetNumSubspaces(Q, &ns));
        lag = PETSC_TRUE;
        for (PetscInt i = 0; i < ns && lag; i++) {
          PetscDualSpace Qi;

          PetscCall(PetscDualSpaceSumGetSubspace(Q, i, &Qi));
          PetscCall(PetscObjectTypeCompare((PetscObject)Qi, PETSCDUALSPACELAGRANGE, &lag));
        }
      }
    }
    if (Nc != cdim) *why = "components other than the coordinates";
    else if (!lag) *why = "not a Lagrange dual space";
  }
  if (!*why) {
    PetscCall(DMHasBasisTransform(dm, &tf));
    PetscCall(DMGetCellCoordinatesLocal(dm, &cellc));
    if (tf) *why = "a basis transform";
    else if (cellc) *why = "cell-wise coordinates";
  }
  if (!*why) { /* dofs of this field: cdim on every vertex, none elsewhere */
    PetscCall(DMGetLocalSection(dm, &s));
    PetscCall(PetscSectionGetChart(s, &pStart, &pEnd));
    PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
    for (PetscInt p = pStart; p < pEnd && !*why; p++) {
      PetscInt fdof;

      PetscCall(PetscSectionGetFieldDof(s, p, field, &fdof));
      if (p >= vStart && p < vEnd) {
        if (fdof != cdim) *why = "vertices without one dof per component";
      } else if (fdof) *why = "dofs off the vertices (degree 2 or more)";
    }
  }
  okl = *why ? 0 : 1; /* collective: every rank takes the same path */
  PetscCallMPI(MPIU_Allreduce(&okl, &okg, 1, MPI_INT, MPI_MIN, PetscObjectComm((PetscObject)dm)));
  if (okl && !okg) *why = "another rank's field";
  *ok = okg ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpCreateRigidBody - The rigid-body modes of a displacement field (the near null space of elasticity for
  `PCGAMG`), the same as `DMPlexCreateRigidBody()`'s, computed directly from the vertex coordinates where the field's
  dofs are the values at the vertices

  Collective

  Input Parameters:
+ dm    - the `DMPLEX`, with its fields and local section set up
- field - the displacement field

  Output Parameter:
. sp - the null space (`MatNullSpaceDestroy()` it)

  Level: intermediate

  Notes:
  `DMPlexCreateRigidBody()` projects each mode with `DMProjectFunction()`, which evaluates the dual space cell by cell;
  inside `DMCreateMatrix()` (through a constructor given to `DMSetNearNullSpaceConstructor()`) that dominated the
  set-up of Q1 elasticity on one rank (3.81 s of 4.82 s at 40^3 cells). For a Lagrange field with one dof per
  coordinate on every vertex and none elsewhere (P1, Q1), the modes' values are those of the translations and
  rotations at the vertex coordinates: they are written into a local vector, moved to the global one with
  `DMLocalToGlobal()` (constrained dofs drop out as in `DMProjectFunction()`), and orthonormalized as
  `DMPlexCreateRigidBody()` does, so that the null space is the same to rounding. Any other field (higher degree, a
  basis transform, cell-wise coordinates, components other than the coordinates) is handed to
  `DMPlexCreateRigidBody()`; `-info` says which path ran and why, the log event `WarpRigidBody` times it.

  A near null space constructor for `DMSetNearNullSpaceConstructor()` calls it as
.vb
  static PetscErrorCode RigidBody(DM dm, PetscInt origField, PetscInt field, MatNullSpace *sp)
  {
    PetscFunctionBegin;
    PetscCall(DMPlexWarpCreateRigidBody(dm, origField, sp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
.ve

.seealso: `DMPlexCreateRigidBody()`, `DMSetNearNullSpaceConstructor()`, `MatSetNearNullSpace()`, `MatNullSpaceCreateRigidBody()`, `PCGAMG`
@*/
PetscErrorCode DMPlexWarpCreateRigidBody(DM dm, PetscInt field, MatNullSpace *sp)
{
  MPI_Comm           comm;
  PetscInt           dim, cdim, Nf, m, mmin, n, nloc, vStart, vEnd;
  PetscBool          ok;
  const char        *why;
  Vec                mode[6], loc, coords;
  PetscSection       s, cs;
  PetscScalar       *a;
  const PetscScalar *x;

  PetscFunctionBegin;
  PetscValidHeaderSpecificType(dm, DM_CLASSID, 1, DMPLEX);
  PetscAssertPointer(sp, 3);
  PetscCall(PetscObjectGetComm((PetscObject)dm, &comm));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetCoordinateDim(dm, &cdim));
  PetscCall(DMGetNumFields(dm, &Nf));
  PetscCheck(!Nf || (field >= 0 && field < Nf), comm, PETSC_ERR_ARG_OUTOFRANGE, "Field %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", field, Nf);
  PetscCheck(cdim <= 3, comm, PETSC_ERR_SUP, "Coordinate dimension %" PetscInt_FMT " > 3", cdim);
  PetscCall(PetscWarpInitializePackage()); /* the log event */
  PetscCall(PetscLogEventBegin(DMPLEXWARP_RigidBody, dm, 0, 0, 0));
  ok  = PETSC_FALSE;
  why = !Nf ? "no fields" : "dimension 1";
  if (Nf && dim > 1) PetscCall(VertexLagrange(dm, field, cdim, &ok, &why));
  if (!ok) {
    PetscCall(PetscInfo(dm, "Rigid-body modes by DMPlexCreateRigidBody() (%s)\n", why));
    PetscCall(DMPlexCreateRigidBody(dm, field, sp));
    PetscCall(PetscLogEventEnd(DMPLEXWARP_RigidBody, dm, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscInfo(dm, "Rigid-body modes from the vertex coordinates (field %" PetscInt_FMT ": Lagrange, dofs on the vertices)\n", field));
  m = (dim * (dim + 1)) / 2; /* as DMPlexCreateRigidBody(): the modes of the topological dimension, rotations of the coordinates */
  PetscCall(DMGetLocalSection(dm, &s));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMGetCoordinateSection(dm, &cs));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  PetscCall(DMGetLocalVector(dm, &loc));
  PetscCall(VecGetArrayRead(coords, &x));
  for (PetscInt d = 0; d < m; d++) {
    /* DMPlexProjectRigidBody_Private() of PETSc: translation along axis d for d < dim, else the rotation of index k */
    const PetscInt eps[3][3][3] = {
      {{0, 0, 0},  {0, 0, 1},  {0, -1, 0}},
      {{0, 0, -1}, {0, 0, 0},  {1, 0, 0} },
      {{0, 1, 0},  {-1, 0, 0}, {0, 0, 0} }
    };
    const PetscInt k = cdim > 2 ? d - cdim : d;

    PetscCall(DMCreateGlobalVector(dm, &mode[d]));
    PetscCall(VecGetLocalSize(loc, &nloc));
    PetscCall(VecGetArrayWrite(loc, &a)); /* write access: a device vector's host array is not brought up to date */
    PetscCall(PetscArrayzero(a, nloc));
    for (PetscInt v = vStart; v < vEnd; v++) {
      PetscInt     off, coff;
      PetscScalar *u;

      PetscCall(PetscSectionGetFieldOffset(s, v, field, &off));
      PetscCall(PetscSectionGetOffset(cs, v, &coff));
      u = a + off;
      for (PetscInt i = 0; i < cdim; i++) u[i] = 0.0;
      if (d < cdim) u[d] = 1.0;
      else
        for (PetscInt i = 0; i < cdim; i++)
          for (PetscInt j = 0; j < cdim; j++) u[j] += eps[i][j][k] * x[coff + i];
    }
    PetscCall(VecRestoreArrayWrite(loc, &a));
    PetscCall(DMLocalToGlobal(dm, loc, INSERT_VALUES, mode[d]));
  }
  PetscCall(VecRestoreArrayRead(coords, &x));
  PetscCall(DMRestoreLocalVector(dm, &loc));
  /* orthonormalized as DMPlexCreateRigidBody() does (modified Gram-Schmidt; vanishing modes dropped) */
  PetscCall(VecGetSize(mode[0], &n));
  mmin = PetscMin(m, n);
  for (PetscInt i = mmin; i < m; i++) PetscCall(VecDestroy(&mode[i]));
  for (PetscInt i = 0; i < mmin; ++i) {
    PetscScalar dots[6];
    PetscReal   norm;

    PetscCall(VecNormalize(mode[i], &norm));
    if (PetscAbsReal(norm) <= PETSC_SQRT_MACHINE_EPSILON) {
      PetscCall(VecDestroy(&mode[i]));
      for (PetscInt j = i; j < mmin - 1; j++) mode[j] = mode[j + 1];
      mode[mmin - 1] = NULL;
      mmin--;
      i--;
      continue;
    }
    PetscCall(VecMDot(mode[i], mmin - i - 1, mode + i + 1, dots + i + 1));
    for (PetscInt j = i + 1; j < mmin; ++j) {
      dots[j] *= -1.0;
      PetscCall(VecAXPY(mode[j], dots[j], mode[i]));
    }
  }
  PetscCall(MatNullSpaceCreate(comm, PETSC_FALSE, mmin, mode, sp));
  for (PetscInt i = 0; i < mmin; ++i) PetscCall(VecDestroy(&mode[i]));
  PetscCall(PetscLogEventEnd(DMPLEXWARP_RigidBody, dm, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
