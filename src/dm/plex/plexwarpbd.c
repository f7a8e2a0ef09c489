/*
  The Neumann faces of a DMPlex for PetscWarpAsm: per boundary face of a recognised constant flux, its cell and the
  integrals int_f phi_a dS of the cell's basis functions, with PETSc's face quadrature and face geometry exactly as
  DMPlexComputeBdResidualSingleByKey() and PetscFEIntegrateBdResidual() pair them, so that g W is PETSc's boundary
  residual to rounding.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petsc/private/dmpleximpl.h> /* DMSNESGetFEGeom() */
#include <petscds.h>

/* The faces of depth dim-1 that this rank owns (the leaves of the point SF removed), as PETSc's boundary residual */
static PetscErrorCode OwnedFacets(DM dm, IS *facetIS)
{
  DMLabel         depth;
  PetscInt        dim, nleaves;
  PetscSF         sf;
  const PetscInt *leaves;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMPlexGetDepthLabel(dm, &depth));
  PetscCall(DMLabelGetStratumIS(depth, dim - 1, facetIS));
  PetscCall(DMGetPointSF(dm, &sf));
  PetscCall(PetscSFGetGraph(sf, NULL, &nleaves, &leaves, NULL));
  if (*facetIS && nleaves > 0 && leaves) {
    IS leafIS, owned;

    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nleaves, leaves, PETSC_USE_POINTER, &leafIS));
    PetscCall(ISDifference(*facetIS, leafIS, &owned));
    PetscCall(ISDestroy(&leafIS));
    PetscCall(ISDestroy(facetIS));
    *facetIS = owned;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The faces of one flux: fcell and W from nf on (W zeroed) */
static PetscErrorCode FluxFaces(DM dm, PetscFE fe, PetscTabulation T, IS faces, PetscInt s, PetscInt nb, PetscInt *nf, PetscInt fcell[], PetscInt fset[], PetscReal W[])
{
  DMField          coordField;
  PetscQuadrature  quad, qGeom = NULL;
  PetscFEGeom     *fgeom, pg;
  const PetscReal *qw;
  const PetscInt  *pts;
  PetscInt         n, Nq, maxDegree, cStart, cEnd, Nc = T->Nc, Nb = T->Nb;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(faces, &n));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  PetscCall(DMGetCoordinateField(dm, &coordField));
  PetscCall(DMFieldGetDegree(coordField, faces, NULL, &maxDegree));
  if (maxDegree <= 1) PetscCall(DMFieldCreateDefaultQuadrature(coordField, faces, &qGeom));
  if (!qGeom) {
    PetscCall(PetscFEGetFaceQuadrature(fe, &qGeom));
    PetscCall(PetscObjectReference((PetscObject)qGeom));
  }
  PetscCall(DMSNESGetFEGeom(coordField, faces, qGeom, PETSC_FEGEOM_BOUNDARY, &fgeom));
  PetscCall(PetscFEGetFaceQuadrature(fe, &quad));
  PetscCall(PetscQuadratureGetData(quad, NULL, NULL, &Nq, NULL, &qw));
  PetscCheck(T->Np == Nq, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Face tabulation of %" PetscInt_FMT " points, face quadrature of %" PetscInt_FMT, T->Np, Nq);
  PetscCall(ISGetIndices(faces, &pts));
  for (PetscInt e = 0; e < n; e++) {
    const PetscInt *support, face = fgeom->face[e][0], ornt = fgeom->face[e][1], k = *nf + e;

    PetscCall(DMPlexGetSupport(dm, pts[e], &support));
    PetscCheck(support[0] >= cStart && support[0] < cEnd, PETSC_COMM_SELF, PETSC_ERR_SUP, "Face %" PetscInt_FMT " of a Neumann boundary: its support point %" PetscInt_FMT " is not a cell", pts[e], support[0]);
    fcell[k] = support[0] - cStart;
    fset[k]  = s;
    for (PetscInt q = 0; q < Nq; q++) {
      const PetscInt qp = ornt < 0 ? Nq - 1 - q : q; /* the tabulation point of physical point q (PETSc's pairing) */
      PetscReal      w;

      PetscCall(PetscFEGeomGetPoint(fgeom, e, q, NULL, &pg));
      w = pg.detJ[0] * qw[q];
      for (PetscInt a = 0; a < nb; a++) W[k * nb + a] += w * T->T[0][((face * Nq + qp) * Nb + a * Nc) * Nc];
    }
  }
  PetscCall(ISRestoreIndices(faces, &pts));
  PetscCall(DMSNESRestoreFEGeom(coordField, faces, qGeom, PETSC_TRUE, &fgeom));
  PetscCall(PetscQuadratureDestroy(&qGeom));
  *nf += n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The faces of the fluxes (owned faces of each label value) and their integrals into wa (PetscWarpAsmSetBoundaryFluxes()) */
PetscErrorCode DMPlexWarpSetBoundaryFluxes_Private(DM dm, PetscInt nflux, const DMPlexWarpBdFlux flux[], PetscWarpAsm wa)
{
  PetscDS          ds;
  PetscFE          fe;
  PetscTabulation *Tf;
  IS               facetIS, *faces;
  PetscInt         Nc, Nb, nb, ntot = 0, nf = 0, *fcell, *fset;
  PetscReal       *W, *g;

  PetscFunctionBegin;
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetDiscretization(ds, 0, (PetscObject *)&fe));
  PetscCall(PetscFEGetNumComponents(fe, &Nc));
  PetscCall(PetscFEGetDimension(fe, &Nb));
  nb = Nb / Nc;
  PetscCall(PetscDSGetFaceTabulation(ds, &Tf));
  PetscCall(OwnedFacets(dm, &facetIS));
  PetscCall(PetscCalloc1(nflux, &faces));
  for (PetscInt s = 0; s < nflux && facetIS; s++) {
    IS       pointIS;
    PetscInt n;

    PetscCall(DMLabelGetStratumIS(flux[s].label, flux[s].value, &pointIS));
    if (!pointIS) continue;
    PetscCall(ISIntersect(facetIS, pointIS, &faces[s]));
    PetscCall(ISDestroy(&pointIS));
    PetscCall(ISGetLocalSize(faces[s], &n));
    ntot += n;
  }
  PetscCall(PetscMalloc4(ntot, &fcell, ntot, &fset, ntot * nb, &W, nflux * Nc, &g));
  PetscCall(PetscArrayzero(W, ntot * nb));
  for (PetscInt s = 0; s < nflux; s++) {
    for (PetscInt c = 0; c < Nc; c++) g[s * Nc + c] = flux[s].g[c];
    if (faces[s]) PetscCall(FluxFaces(dm, fe, Tf[0], faces[s], s, nb, &nf, fcell, fset, W));
    PetscCall(ISDestroy(&faces[s]));
  }
  PetscCall(PetscWarpAsmSetBoundaryFluxes(wa, nf, fcell, fset, W, nflux, g));
  PetscCall(PetscInfo(dm, "%" PetscInt_FMT " constant Neumann fluxes on %" PetscInt_FMT " faces of this rank: residuals by PetscWarpAsm\n", nflux, nf));
  PetscCall(PetscFree4(fcell, fset, W, g));
  PetscCall(PetscFree(faces));
  PetscCall(ISDestroy(&facetIS));
  PetscFunctionReturn(PETSC_SUCCESS);
}
