/*
  The Neumann faces of a DMPlex for PetscWarpAsm: per boundary face of a recognised constant flux, its cell and the
  integrals int_f phi_a dS of the cell's basis functions, with PETSc's face quadrature and face geometry exactly as
  DMPlexComputeBdResidualSingleByKey() and PetscFEIntegrateBdResidual() pair them, so that g W is PETSc's boundary
  residual to rounding.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petsc/private/dmpleximpl.h> /* DMSNESGetFEGeom() */
#include <petscds.h>
#include <string.h>
#include <petscwarp/private/warpasmpw.h>

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

/* PETSc's geometry of the faces of one IS (owned boundary faces) at the physical points q of the element's face
   quadrature, exactly as DMPlexComputeBdResidualSingleByKey() and PetscFEIntegrateBdResidual_Basic() get it: for face e
   its support cell fcell[e] and, at k = e*Nq + q, the tabulated point tab[k] = face*Nq + qp (the face's local number,
   the orientation's reversal of the points), the weight w[k] = detJ_face w_q and, when asked (else NULL), the point
   x[k*dim], the outward normal n[k*dim] and the cell's inverse Jacobian invJ[k*dim*dim] there */
static PetscErrorCode FaceGeometry(DM dm, PetscFE fe, IS faces, PetscInt fcell[], PetscInt tab[], PetscReal w[], PetscReal x[], PetscReal nrm[], PetscReal invJ[])
{
  DMField          coordField;
  PetscQuadrature  quad, qGeom = NULL;
  PetscFEGeom     *fgeom;
  const PetscReal *qpts, *qw;
  const PetscInt  *pts;
  PetscInt         n, Nq, qdim, maxDegree, cStart, cEnd, dim;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(faces, &n));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetDimension(dm, &dim));
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
  PetscCall(PetscQuadratureGetData(quad, &qdim, NULL, &Nq, &qpts, &qw));
  PetscCheck(fgeom->dimEmbed == dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "Embedded faces (dimension %" PetscInt_FMT " in %" PetscInt_FMT ")", dim, fgeom->dimEmbed);
  fgeom->dim = dim - 1; /* as PetscFEIntegrateBdResidual_Basic() sets it (the reference coordinates of the face points) */
  PetscCall(ISGetIndices(faces, &pts));
  for (PetscInt e = 0; e < n; e++) {
    const PetscInt *support, face = fgeom->face[e][0], ornt = fgeom->face[e][1];
    PetscFEGeom     pg, cg;
    PetscReal       xw[3];

    PetscCall(DMPlexGetSupport(dm, pts[e], &support));
    PetscCheck(support[0] >= cStart && support[0] < cEnd, PETSC_COMM_SELF, PETSC_ERR_SUP, "Face %" PetscInt_FMT " of a natural boundary: its support point %" PetscInt_FMT " is not a cell", pts[e], support[0]);
    fcell[e] = support[0] - cStart;
    pg.v     = xw; /* workspace of the affine case */
    for (PetscInt q = 0; q < Nq; q++) {
      const PetscInt k = e * Nq + q;

      PetscCall(PetscFEGeomGetPoint(fgeom, e, q, x ? &qpts[q * qdim] : NULL, &pg));
      tab[k] = face * Nq + (ornt < 0 ? Nq - 1 - q : q); /* the tabulation point of physical point q (PETSc's pairing) */
      w[k]   = pg.detJ[0] * qw[q];
      if (x)
        for (PetscInt d = 0; d < dim; d++) x[k * dim + d] = pg.v[d];
      if (nrm)
        for (PetscInt d = 0; d < dim; d++) nrm[k * dim + d] = pg.n[d];
      if (invJ) {
        PetscCall(PetscFEGeomGetCellPoint(fgeom, e, q, &cg));
        for (PetscInt d = 0; d < dim * dim; d++) invJ[k * dim * dim + d] = cg.invJ[d];
      }
    }
  }
  PetscCall(ISRestoreIndices(faces, &pts));
  PetscCall(DMSNESRestoreFEGeom(coordField, faces, qGeom, PETSC_TRUE, &fgeom));
  PetscCall(PetscQuadratureDestroy(&qGeom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The faces of one flux: fcell and W from nf on (W zeroed) */
static PetscErrorCode FluxFaces(DM dm, PetscFE fe, PetscTabulation T, IS faces, PetscInt s, PetscInt nb, PetscInt *nf, PetscInt fcell[], PetscInt fset[], PetscReal W[])
{
  PetscInt   n, Nq = T->Np, Nc = T->Nc, Nb = T->Nb, *tab;
  PetscReal *w;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(faces, &n));
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(n * Nq, &tab, n * Nq, &w));
  PetscCall(FaceGeometry(dm, fe, faces, fcell + *nf, tab, w, NULL, NULL, NULL));
  for (PetscInt e = 0; e < n; e++) {
    const PetscInt k = *nf + e;
    fset[k]          = s;
    for (PetscInt q = 0; q < Nq; q++)
      for (PetscInt a = 0; a < nb; a++) W[k * nb + a] += w[e * Nq + q] * T->T[0][(tab[e * Nq + q] * Nb + a * Nc) * Nc];
  }
  PetscCall(PetscFree2(tab, w));
  *nf += n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The owned faces (facetIS, NULL: none) with the given label value; *faces NULL where there are none; ntot += their count */
static PetscErrorCode LabelFaces(IS facetIS, DMLabel label, PetscInt value, IS *faces, PetscInt *ntot)
{
  IS       pointIS;
  PetscInt n;

  PetscFunctionBegin;
  *faces = NULL;
  if (!facetIS) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMLabelGetStratumIS(label, value, &pointIS));
  if (!pointIS) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ISIntersect(facetIS, pointIS, faces));
  PetscCall(ISDestroy(&pointIS));
  PetscCall(ISGetLocalSize(*faces, &n));
  *ntot += n;
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
  for (PetscInt s = 0; s < nflux; s++) PetscCall(LabelFaces(facetIS, flux[s].label, flux[s].value, &faces[s], &ntot));
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

/* The scalar basis of an interlaced face tabulation T at its Nr*Np points p: B[p*nb + a] and the reference derivatives
   D[(p*nb + a)*dim + r] of component 0 of function a*Nc (nb = Nb/Nc) */
static void FaceScalarTabulation(PetscTabulation T, PetscInt dim, PetscReal B[], PetscReal D[])
{
  const PetscInt Nc = T->Nc, Nb = T->Nb, nb = Nb / Nc, ntab = T->Nr * T->Np;

  for (PetscInt p = 0; p < ntab; p++)
    for (PetscInt a = 0; a < nb; a++) {
      B[p * nb + a] = T->T[0][(p * Nb + a * Nc) * Nc];
      for (PetscInt r = 0; r < dim; r++) D[(p * nb + a) * dim + r] = T->T[1][((p * Nb + a * Nc) * Nc) * dim + r];
    }
}

/* The faces of the natural boundaries with a boundary residual (owned faces of each label value, as
   DMPlexComputeBdResidual_Internal() takes them) and PETSc's geometry there, for the user's f0_bd, f1_bd and g0_bd ... g3_bd
   (PetscWarpAsmPointwiseSetBoundary_Private()). The keys of the boundary Jacobian are those of the boundary residual
   (DMPlexWarpPointwiseCheck_Private());
   PETSc's boundary Jacobian takes every face of a key, owned or not: the same faces, since a face of the domain's
   boundary has one cell and, without overlap (the hooks refuse it), only that cell's rank holds it */
PetscErrorCode DMPlexWarpPointwiseSetBoundary_Private(DM dm, PetscWarpAsm wa)
{
  PetscDS          ds;
  PetscFE          fe;
  PetscTabulation *Tf, T;
  IS               facetIS, *faces = NULL;
  PetscInt         dim, Nc, Nb, nb, Nq, ntab, nbd, nkeys = 0, ntot = 0, nf = 0, Nf, *fcell, *tab, *kfield = NULL, *ffield;
  PetscReal       *B, *D, *w, *x, *nrm, *invJ;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetDiscretization(ds, 0, (PetscObject *)&fe));
  PetscCall(PetscFEGetNumComponents(fe, &Nc));
  PetscCall(PetscFEGetDimension(fe, &Nb));
  nb = Nb / Nc;
  PetscCall(PetscDSGetFaceTabulation(ds, &Tf));
  T = Tf[0];
  PetscCheck(T->K >= 1 && T->cdim == dim, PETSC_COMM_SELF, PETSC_ERR_SUP, "The face tabulation has no derivatives");
  Nq   = T->Np;
  ntab = T->Nr * T->Np;
  PetscCall(PetscDSGetNumFields(ds, &Nf));
  for (PetscInt f = 1; f < Nf; f++) { /* several fields: one face quadrature (PETSc integrates a boundary with its field's) */
    PetscFE         fef;
    PetscQuadrature q0, qf;
    PetscBool       same;
    PetscCall(PetscDSGetDiscretization(ds, f, (PetscObject *)&fef));
    PetscCall(PetscFEGetFaceQuadrature(fe, &q0));
    PetscCall(PetscFEGetFaceQuadrature(fef, &qf));
    PetscCall(PetscQuadratureEqual(q0, qf, &same));
    PetscCheck(same && Tf[f]->Np == Nq && Tf[f]->Nr == T->Nr && Tf[f]->K >= 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "The pointwise kernels' natural boundaries need one face quadrature for all fields; field %" PetscInt_FMT "'s differs from field 0's", f);
  }
  PetscCall(OwnedFacets(dm, &facetIS));
  PetscCall(PetscDSGetNumBoundary(ds, &nbd));
  for (PetscInt pass = 0; pass < 2; pass++) { /* count the keys, then take their faces */
    PetscInt key = 0;
    for (PetscInt b = 0; b < nbd && facetIS; b++) {
      DMBoundaryConditionType type;
      PetscWeakForm           wf;
      DMLabel                 label;
      const PetscInt         *values;
      PetscInt                nv, field;

      PetscCall(PetscDSGetBoundary(ds, b, &wf, &type, NULL, &label, &nv, &values, &field, NULL, NULL, NULL, NULL, NULL));
      if (type != DM_BC_NATURAL || !wf || !label) continue;
      for (PetscInt v = 0; v < nv; v++) {
        PetscInt         n0, n1;
        PetscBdPointFn **f0, **f1;

        PetscCall(PetscWeakFormGetBdResidual(wf, label, values[v], field, 0, &n0, &f0, &n1, &f1));
        if (!n0 && !n1) continue;
        if (!pass) {
          nkeys++;
          continue;
        }
        PetscCall(LabelFaces(facetIS, label, values[v], &faces[key], &ntot));
        kfield[key] = field;
        key++;
      }
    }
    if (!pass) PetscCall(PetscCalloc2(nkeys + 1, &faces, nkeys + 1, &kfield));
  }
  PetscCall(PetscMalloc3(ntot, &fcell, ntot * Nq, &tab, ntot, &ffield));
  PetscCall(PetscMalloc6(ntab * nb, &B, ntab * nb * dim, &D, ntot * Nq, &w, ntot * Nq * dim, &x, ntot * Nq * dim, &nrm, ntot * Nq * dim * dim, &invJ));
  FaceScalarTabulation(T, dim, B, D);
  for (PetscInt key = 0; key < nkeys; key++) {
    PetscInt n;
    if (!faces[key]) continue;
    PetscCall(ISGetLocalSize(faces[key], &n));
    PetscCall(FaceGeometry(dm, fe, faces[key], fcell + nf, tab + nf * Nq, w + nf * Nq, x + nf * Nq * dim, nrm + nf * Nq * dim, invJ + nf * Nq * dim * dim));
    for (PetscInt e = 0; e < n; e++) ffield[nf + e] = kfield[key];
    nf += n;
    PetscCall(ISDestroy(&faces[key]));
  }
  PetscCall(PetscWarpAsmPointwiseSetBoundary_Private(wa, nf, Nq, ntab, B, D, fcell, tab, w, x, nrm, invJ));
  if (Nf > 1) { /* every field's cell basis at the tabulated face points, and the faces' fields */
    PetscReal     *fB[PETSCWARP_PW_MAXNF] = {NULL}, *fD[PETSCWARP_PW_MAXNF] = {NULL};
    PetscErrorCode ierr;
    PetscCheck(Nf <= PETSCWARP_PW_MAXNF, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt_FMT " fields", Nf);
    for (PetscInt f = 0; f < Nf; f++) {
      const PetscInt ncf = Tf[f]->Nc, Nbf = Tf[f]->Nb, nbf = Nbf / ncf;
      PetscCall(PetscMalloc2(ntab * nbf, &fB[f], ntab * nbf * dim, &fD[f]));
      FaceScalarTabulation(Tf[f], dim, fB[f], fD[f]);
    }
    ierr = PetscWarpAsmPointwiseSetBoundaryFields_Private(wa, Nf, (const PetscReal *const *)fB, (const PetscReal *const *)fD, ffield);
    for (PetscInt f = 0; f < Nf; f++) PetscCall(PetscFree2(fB[f], fD[f]));
    PetscCall(ierr);
  }
  {
    const PetscWarpPointwise *pw = NULL;
    PetscCall(DMPlexWarpPointwiseGet_Private(dm, &pw));
    char     res[64] = "", jac[64] = "";
    PetscInt Nf = pw ? pw->nf : 0;
    for (PetscInt f = 0; f < Nf; f++) {
      for (int k = 0; k < 2; k++)
        if (pw->fbdm[f][k] && !strstr(res, k ? "f1_bd" : "f0_bd")) PetscCall(PetscStrlcat(res, k ? " f1_bd" : " f0_bd", sizeof(res)));
      for (PetscInt g = 0; g < Nf; g++)
        for (int k = 0; k < 4; k++) {
          const char *const t[4] = {" g0_bd", " g1_bd", " g2_bd", " g3_bd"};
          if (pw->gbdm[f][g][k] && !strstr(jac, t[k])) PetscCall(PetscStrlcat(jac, t[k], sizeof(jac)));
        }
    }
    PetscCall(PetscInfo(dm, "Boundary residual%s and boundary Jacobian%s of the pointwise kernels (%" PetscInt_FMT " field%s) on %" PetscInt_FMT " faces (%" PetscInt_FMT " natural boundary keys) of this rank\n", res, jac[0] ? jac : " (none)", Nf, Nf > 1 ? "s" : "", nf, nkeys));
  }
  PetscCall(PetscFree6(B, D, w, x, nrm, invJ));
  PetscCall(PetscFree3(fcell, tab, ffield));
  PetscCall(PetscFree2(faces, kfield));
  PetscCall(ISDestroy(&facetIS));
  PetscFunctionReturn(PETSC_SUCCESS);
}
