/* DMPlex -> PetscWarpAsm: the element-to-dof map, mesh and reference tabulation of a single-field PetscFE problem */
#include <petscwarp/private/plexwarpasm.h>
#include <petscwarp/private/warpasmimpl.h>
#include <petscds.h>
#include <petscfe.h>
#include <petscdmplextransform.h>
#include <petsc/private/sectionimpl.h> /* PetscSection's arrays and closure permutation */
#include <petsc/private/dmpleximpl.h>  /* DMPlex's cone arrays and cell types */
#if defined(_OPENMP)
  #include <omp.h>
#endif

/* Checks that the vector tabulation T (Nb = nb*nc functions of nc components) is the interlaced copy of one scalar
   basis, function b = a*nc + c being phi_a in component c and zero in the others, and, when B or D are given, extracts
   the scalar values B[q*nb+a] and reference derivatives D[(q*nb+a)*dim+d] from component 0 of b = a*nc */
static PetscErrorCode PlexWarpScalarTabulation_Private(PetscTabulation T, PetscInt nc, PetscBool *ok, PetscReal B[], PetscReal D[])
{
  const PetscInt   Np = T->Np, Nb = T->Nb, dim = T->cdim, nb = Nb / nc;
  const PetscReal *T0 = T->T[0], *T1 = T->T[1];
  PetscReal        scale = 1.0;

  PetscFunctionBegin;
  *ok = (PetscBool)(T->K >= 1 && T->Nc == nc && Nb % nc == 0);
  if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < Np * Nb * nc; ++i) scale = PetscMax(scale, PetscAbsReal(T0[i]));
  for (PetscInt i = 0; i < Np * Nb * nc * dim; ++i) scale = PetscMax(scale, PetscAbsReal(T1[i]));
  for (PetscInt q = 0; q < Np; ++q) {
    for (PetscInt a = 0; a < nb; ++a) {
      const PetscInt   b0 = q * Nb + a * nc; /* function a*nc at point q */
      const PetscReal  v  = T0[b0 * nc];
      const PetscReal *g  = &T1[b0 * nc * dim];

      for (PetscInt c = 0; c < nc; ++c) {
        for (PetscInt c2 = 0; c2 < nc; ++c2) {
          const PetscReal *gc = &T1[((b0 + c) * nc + c2) * dim];

          if (PetscAbsReal(T0[(b0 + c) * nc + c2] - (c == c2 ? v : 0.0)) > 1e-12 * scale) *ok = PETSC_FALSE;
          for (PetscInt d = 0; d < dim; ++d)
            if (PetscAbsReal(gc[d] - (c == c2 ? g[d] : 0.0)) > 1e-12 * scale) *ok = PETSC_FALSE;
        }
      }
      if (B) B[q * nb + a] = v;
      if (D)
        for (PetscInt d = 0; d < dim; ++d) D[(q * nb + a) * dim + d] = g[d];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PetscSection and DMPlex lookups without the checks of a call (set-up section, point in its chart, no transform):
   what PetscSectionGetDof(), PetscSectionGetOffset(), PetscSectionGetConstraintDof(),
   PetscSectionGetConstraintIndices(), DMPlexGetConeSize(), DMPlexGetOrientedCone() and DMPlexGetCellType() return */
static inline PetscInt SecDof(PetscSection s, PetscInt p)
{
  return s->atlasDof[p - s->pStart];
}
static inline PetscInt SecOff(PetscSection s, PetscInt p)
{
  return s->atlasOff[p - s->pStart];
}
static inline PetscInt SecCDof(PetscSection s, PetscInt p)
{
  return s->bc ? SecDof(s->bc, p) : 0;
}
static inline const PetscInt *SecCInd(PetscSection s, PetscInt p)
{
  return s->bc ? s->bcIndices + SecOff(s->bc, p) : NULL;
}
static inline DMPolytopeType PlexCellType(const DM_Plex *mesh, PetscInt p)
{
  return (DMPolytopeType)mesh->cellTypes[p - mesh->coneSection->pStart].value_as_uint8;
}

/*
  The closure of cell c exactly as DMPlexGetTransitiveClosure() returns it on an interpolated mesh (pairs point,
  orientation): the same breadth-first search over the cones arranged by orientation (DMPolytopeTypeGetArrangement(),
  DMPolytopeTypeComposeOrientation()), without the work arrays and checks of a call per cell. cl[] and fifo[] hold
  2*max and 3*max entries. A plain function (no PETSc call, no error stack): the extraction's threads call it; it
  returns NULL or what is wrong
*/
static const char PlexWarpClosureOverflow[] = "a closure with more points than DMPlexGetTransitiveClosure()'s bound (an internal error)";

static const char *PlexWarpCellClosure(const DM_Plex *mesh, PetscInt c, PetscInt max, PetscInt cl[], PetscInt fifo[], PetscInt *ncl)
{
  PetscInt n = 0, head = 0, tail = 0;

  cl[n++]      = c;
  cl[n++]      = 0;
  fifo[tail++] = c;
  fifo[tail++] = 0;
  fifo[tail++] = (PetscInt)PlexCellType(mesh, c);
  while (head < tail) {
    const PetscInt       q    = fifo[head++];
    const PetscInt       o    = fifo[head++];
    const DMPolytopeType qt   = (DMPolytopeType)fifo[head++];
    const PetscInt      *qarr = DMPolytopeTypeGetArrangement(qt, o);
    const PetscInt       size = SecDof(mesh->coneSection, q), off = SecOff(mesh->coneSection, q);
    const PetscInt      *cone = mesh->cones + off, *ornt = mesh->coneOrientations + off;

    for (PetscInt t = 0; t < size; ++t) {
      const PetscInt ip = qarr ? qarr[t * 2] : t;
      const PetscInt io = qarr ? qarr[t * 2 + 1] : 0;
      const PetscInt cp = cone[ip];
      DMPolytopeType pt;
      PetscInt       k;

      for (k = 0; k < n; k += 2)
        if (cl[k] == cp) break;
      if (k < n) continue;
      if (n / 2 >= max) return PlexWarpClosureOverflow;
      pt      = PlexCellType(mesh, cp);
      cl[n++] = cp;
      cl[n++] = DMPolytopeTypeComposeOrientation(pt, io, ornt[ip]);
      if (pt == DM_POLYTOPE_POINT) continue; /* no cone */
      fifo[tail++] = cp;
      fifo[tail++] = cl[n - 1];
      fifo[tail++] = (PetscInt)pt;
    }
  }
  *ncl = n / 2;
  return NULL;
}

/*
  The closure indices of one cell from its compressed closure (the points of the section's chart, with the point
  permutations perms[p] or NULL), as DMPlexGetClosureIndices() computes them for one field without a closure
  permutation: global rows (gsec given) with a negative index for a constrained dof, or, with gsec NULL, local offsets
  (constrained dofs included). n: the number of indices (those below cap are written). A plain function, as
  PlexWarpCellClosure()
*/
static void PlexWarpCellIndices(PetscSection sec, PetscSection gsec, PetscInt np, const PetscInt pts[], const PetscInt **perms, PetscInt cap, PetscInt idx[], PetscInt *n)
{
  const PetscSection fsec = sec->field[0];
  PetscInt           foff = 0;

  for (PetscInt p = 0; p < np; ++p) {
    const PetscInt  pnt  = pts[2 * p];
    const PetscInt *perm = perms ? perms[p] : NULL;
    const PetscInt  fdof = SecDof(fsec, pnt), cdof = SecCDof(fsec, pnt);
    const PetscInt *cind = cdof ? SecCInd(fsec, pnt) : NULL;
    PetscInt        off, c = 0;

    if (gsec && (pnt < gsec->pStart || pnt >= gsec->pEnd)) continue;
    off = SecOff(gsec ? gsec : sec, pnt);
    if (off < 0) off = -(off + 1);
    for (PetscInt b = 0; b < fdof; ++b) {
      const PetscInt ind = foff + (perm ? perm[b] : b);
      PetscInt       v;

      if (c < cdof && b == cind[c]) {
        v = gsec ? -(off + b + 1) : off + b;
        ++c;
      } else v = off + b - (gsec ? c : 0);
      if (ind < cap) idx[ind] = v;
    }
    foff += fdof;
  }
  *n = foff;
}

/* Whether PlexWarpCellClosure() and PlexWarpCellIndices() compute what DMPlexGetTransitiveClosure() and
   DMPlexGetClosureIndices() return: an interpolated mesh without a transform, one field, no closure permutation of
   the section for this DM (DMPlexSetClosurePermutationTensor()), global offsets by point (not by field). Option
   -dm_plex_warp_asm_reference_closures: always PETSc's per-cell calls (for tests) */
static PetscErrorCode PlexWarpFastClosures(DM dm, PetscSection section, PetscSection gsection, PetscBool *fast)
{
  PetscInt        depth, dim, nf;
  PetscBool       split, ref = PETSC_FALSE;
  DMPlexTransform tr;

  PetscFunctionBegin;
  PetscCall(DMPlexGetDepth(dm, &depth));
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(PetscSectionGetNumFields(section, &nf));
  PetscCall(PetscSectionGetUseFieldOffsets(gsection, &split));
  PetscCall(DMPlexGetTransform(dm, &tr));
  PetscCall(PetscOptionsGetBool(((PetscObject)dm)->options, ((PetscObject)dm)->prefix, "-dm_plex_warp_asm_reference_closures", &ref, NULL));
  *fast = (PetscBool)(!ref && !tr && depth == dim && nf == 1 && !split && !(section->clObj == (PetscObject)dm && section->clHash) && section->setup && gsection->setup && section->field && section->field[0]);
  if (*fast) { /* the coordinate section too */
    PetscSection cs;

    PetscCall(DMGetCoordinateSection(dm, &cs));
    *fast = cs->setup;
  }
  if (*fast) { /* the cell types of every point, computed once (DMPlexGetCellType() computes them on its first call) */
    DMPolytopeType ct;
    PetscInt       pStart;

    PetscCall(DMPlexGetChart(dm, &pStart, NULL));
    PetscCall(DMPlexGetCellType(dm, pStart, &ct));
    *fast = (PetscBool) !!((DM_Plex *)dm->data)->cellTypes;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coordinate basis: the coordinate DM's PetscFE (as DMPlexComputeCellGeometryFEM() uses it), else the P1/Q1
   Lagrange element of the cell type; a new reference */
PetscErrorCode DMPlexWarpCoordinateFE_Private(DM dm, DMPolytopeType ct, PetscFE *cfe)
{
  DM           cdm;
  PetscInt     cNf, d;
  PetscObject  obj;
  PetscClassId id;

  PetscFunctionBegin;
  *cfe = NULL;
  PetscCall(DMGetDimension(dm, &d));
  PetscCall(DMGetCoordinateDM(dm, &cdm));
  PetscCall(DMGetNumFields(cdm, &cNf));
  if (cNf) {
    PetscCall(DMGetField(cdm, 0, NULL, &obj));
    PetscCall(PetscObjectGetClassId(obj, &id));
    if (id == PETSCFE_CLASSID) {
      *cfe = (PetscFE)obj;
      PetscCall(PetscObjectReference((PetscObject)*cfe));
    }
  }
  if (!*cfe) PetscCall(PetscFECreateLagrangeByCell(PETSC_COMM_SELF, d, d, ct, 1, PETSC_DETERMINE, cfe));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Field f of the PetscDS, for every field of the element (one for the built-in physics, up to PETSCWARP_PW_MAXNF for
   pointwise kernels): a PetscFE of the mesh's dimension with an H1 (Lagrange) dual space, whose PetscDS tabulation has
   its element's functions and components at its quadrature's points with first derivatives, interlaced by node; a
   field f > 0 at field 0's quadrature (PetscDSSetForceQuad(), the default, or PetscFECopyQuadrature()) */
static PetscErrorCode PlexWarpCheckField_Private(DM dm, PetscDS ds, PetscInt f)
{
  MPI_Comm         comm = PetscObjectComm((PetscObject)dm);
  PetscObject      obj, obj0;
  PetscClassId     id;
  PetscDualSpace   dsp;
  PetscQuadrature  q, q0;
  PetscTabulation *T;
  PetscInt         k, sdim, d, Nc, Nb, Nq;
  PetscBool        same, ok;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &d));
  PetscCall(PetscDSGetTabulation(ds, &T)); /* sets the PetscDS up first: with forced quadrature that may change the fields' quadratures */
  PetscCall(PetscDSGetDiscretization(ds, f, &obj));
  PetscCheck(obj, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate(): field %" PetscInt_FMT " has no discretization", f);
  PetscCall(PetscObjectGetClassId(obj, &id));
  PetscCheck(id == PETSCFE_CLASSID, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() supports PetscFE fields only, field %" PetscInt_FMT " is a %s", f, obj->class_name);
  PetscCall(PetscFEGetDualSpace((PetscFE)obj, &dsp));
  PetscCall(PetscDualSpaceGetDeRahm(dsp, &k));
  PetscCheck(k == 0, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() supports H1 (Lagrange) elements only, field %" PetscInt_FMT "'s dual space is not (de Rham index %" PetscInt_FMT ")", f, k);
  PetscCall(PetscFEGetSpatialDimension((PetscFE)obj, &sdim));
  PetscCheck(sdim == d, comm, PETSC_ERR_SUP, "Field %" PetscInt_FMT ": the PetscFE's dimension %" PetscInt_FMT " differs from the mesh's %" PetscInt_FMT, f, sdim, d);
  PetscCall(PetscFEGetQuadrature((PetscFE)obj, &q));
  if (f > 0) {
    PetscCall(PetscDSGetDiscretization(ds, 0, &obj0));
    PetscCall(PetscFEGetQuadrature((PetscFE)obj0, &q0));
    PetscCall(PetscQuadratureEqual(q, q0, &same));
    PetscCheck(same, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate(): field %" PetscInt_FMT " has another quadrature than field 0; the kernels integrate all fields at the same points (PetscDSSetForceQuad(), PetscFECopyQuadrature())", f);
  }
  PetscCall(PetscQuadratureGetData(q, NULL, NULL, &Nq, NULL, NULL));
  PetscCall(PetscFEGetNumComponents((PetscFE)obj, &Nc));
  PetscCall(PetscFEGetDimension((PetscFE)obj, &Nb));
  PetscCheck(Nb % Nc == 0 && T[f]->Nr == 1 && T[f]->Np == Nq && T[f]->Nb == Nb && T[f]->Nc == Nc && T[f]->cdim == d && T[f]->K >= 1, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate(): the PetscDS tabulation of field %" PetscInt_FMT " (%" PetscInt_FMT " points, %" PetscInt_FMT " functions, %" PetscInt_FMT " components, derivatives up to order %" PetscInt_FMT ") does not match its quadrature and element with first derivatives", f,
             T[f]->Np, T[f]->Nb, T[f]->Nc, T[f]->K);
  PetscCall(PlexWarpScalarTabulation_Private(T[f], Nc, &ok, NULL, NULL));
  PetscCheck(ok, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() needs Lagrange bases interlaced by node (function a*nc+c = phi_a in component c); field %" PetscInt_FMT "'s is not", f);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The fields of the DM's PetscDS for the pointwise kernels: per field its scalar basis functions fnb[f], components
   fnc[f], basis values fB[f][q*fnb[f] + a] and reference derivatives fD[f] (PetscMalloc2(); free with PetscFree2()) at
   the PetscDS's points (checked by DMPlexWarpAsmGetData_Private()) */
PetscErrorCode DMPlexWarpFieldTabulations_Private(DM dm, PetscInt *nf, PetscInt fnb[], PetscInt fnc[], PetscReal *fB[], PetscReal *fD[])
{
  PetscDS          ds;
  PetscTabulation *T;
  PetscInt         d;
  PetscBool        ok;

  PetscFunctionBegin;
  PetscCall(DMGetDimension(dm, &d));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetNumFields(ds, nf));
  PetscCheck(*nf >= 1 && *nf <= PETSCWARP_PW_MAXNF, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "%" PetscInt_FMT " fields: 1 to %d supported", *nf, PETSCWARP_PW_MAXNF);
  PetscCall(PetscDSGetTabulation(ds, &T));
  for (PetscInt f = 0; f < *nf; ++f) {
    fnc[f] = T[f]->Nc;
    fnb[f] = T[f]->Nb / T[f]->Nc;
    PetscCall(PetscMalloc2(T[f]->Np * fnb[f], &fB[f], T[f]->Np * fnb[f] * d, &fD[f]));
    PetscCall(PlexWarpScalarTabulation_Private(T[f], fnc[f], &ok, fB[f], fD[f]));
    if (!ok) { /* checked by DMPlexWarpAsmGetData_Private() before: nothing to leak should it happen */
      for (PetscInt g = 0; g <= f; ++g) PetscCall(PetscFree2(fB[g], fD[g]));
      SETERRQ(PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "Field %" PetscInt_FMT ": not a Lagrange basis interlaced by node", f);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frees the arrays of DMPlexWarpAsmGetData_Private() (the element map, the local map, the cells' vertices, the
   coordinates, the weights and the tabulations), each a separate allocation */
static PetscErrorCode FreeData(PetscInt **e2d, PetscInt **l2d, PetscInt **cv, PetscReal **X, PetscReal **w, PetscReal **B, PetscReal **D, PetscReal **Dc)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*e2d));
  PetscCall(PetscFree(*l2d));
  PetscCall(PetscFree(*cv));
  PetscCall(PetscFree(*X));
  PetscCall(PetscFree(*w));
  PetscCall(PetscFree(*B));
  PetscCall(PetscFree(*D));
  PetscCall(PetscFree(*Dc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the extraction of one cell reads (the mesh, its sections) and writes (its rows of e2d, l2d, cv) */
typedef struct {
  const DM_Plex *mesh;
  PetscSection   section, gsection, cs;
  PetscInt       sStart, sEnd, csStart, csEnd, vStart, vEnd, dim, Nel, Ncv, Nglobal, Nloc, maxcl;
  PetscInt      *e2d, *l2d, *cv;
} PlexWarpCells;

/* The cell's vertices in the order of its closure cl (ncl points), restricted to the coordinate section: the order of
   DMPlexGetCellCoordinates(). A plain function, as those below: NULL or what is wrong */
static const char *PlexWarpCellVertices(const PlexWarpCells *x, PetscInt cell, PetscInt ncl, const PetscInt cl[])
{
  PetscInt k = 0;

  for (PetscInt p = 0; p < ncl; ++p) {
    const PetscInt pt = cl[2 * p];
    PetscInt       dof;

    if (pt < x->csStart || pt >= x->csEnd) continue;
    dof = SecDof(x->cs, pt);
    if (!dof) continue;
    if (pt < x->vStart || pt >= x->vEnd || dof != x->dim || k >= x->Ncv) return "coordinates on points other than the cell's vertices (P1/Q1 coordinates only)";
    x->cv[cell * x->Ncv + k++] = pt - x->vStart;
  }
  return k == x->Ncv ? NULL : "a cell whose coordinate closure does not hold all its vertices";
}

/* The points of closure cl (ncl points, pairs point, orientation) in the section's chart [sStart, sEnd), as
   DMPlexGetCompressedClosure() keeps them, into spts; returns their number */
static PetscInt PlexWarpRestrictToChart(PetscInt ncl, const PetscInt cl[], PetscInt sStart, PetscInt sEnd, PetscInt spts[])
{
  PetscInt np = 0;

  for (PetscInt p = 0; p < ncl; ++p)
    if (cl[2 * p] >= sStart && cl[2 * p] < sEnd) {
      spts[2 * np]     = cl[2 * p];
      spts[2 * np + 1] = cl[2 * p + 1];
      ++np;
    }
  return np;
}

/* The closure of cell c (w[0, 2*maxcl)) and its restriction to the section's chart, as DMPlexGetCompressedClosure()
   makes it (w[5*maxcl, 7*maxcl)); w[2*maxcl, 5*maxcl) is the search's queue */
static const char *PlexWarpCellFastClosure(const PlexWarpCells *x, PetscInt c, PetscInt w[], PetscInt *ncl, PetscInt *np)
{
  const char *fail = PlexWarpCellClosure(x->mesh, c, x->maxcl, w, w + 2 * x->maxcl, ncl);

  *np = fail ? 0 : PlexWarpRestrictToChart(*ncl, w, x->sStart, x->sEnd, w + 5 * x->maxcl);
  return fail;
}

/* The global rows (e2d) and local indices (l2d) of the cell from its compressed closure and the point permutations
   perms (or NULL), then its vertices (cv) */
static const char *PlexWarpCellFastRest(const PlexWarpCells *x, PetscInt cell, PetscInt ncl, PetscInt np, const PetscInt w[], const PetscInt **perms)
{
  const PetscInt *spts = w + 5 * x->maxcl;
  PetscInt       *e    = x->e2d + cell * x->Nel, n;

  PlexWarpCellIndices(x->section, x->gsection, np, spts, perms, x->Nel, e, &n);
  if (n != x->Nel) return "a closure whose number of dofs differs from the element's nb*nc";
  for (PetscInt i = 0; i < x->Nel; ++i)
    if (e[i] >= x->Nglobal) return "a closure index beyond the rows of the global section";
  if (x->l2d) {
    PetscInt *l = x->l2d + cell * x->Nel;

    PlexWarpCellIndices(x->section, NULL, np, spts, perms, x->Nel, l, &n);
    if (n != x->Nel) return "a local closure whose number of dofs differs from the element's nb*nc";
    for (PetscInt i = 0; i < x->Nel; ++i)
      if (l[i] >= x->Nloc) return "a local closure index beyond the local section";
  }
  return PlexWarpCellVertices(x, cell, ncl, w);
}

/* Cells [cStart, cEnd) on at most nt threads (OpenMP may give fewer: OMP_THREAD_LIMIT, OMP_DYNAMIC, a call from inside
   a parallel region), each with its work array w + t*7*maxcl; a field without point symmetries. Each thread takes one
   contiguous range of cells in increasing order (static schedule) and stops at its first failure: bad[t] (or -1) and
   fail[t] (or NULL), set for every t < nt; the smallest bad[t] is then the cell that one thread finds first */
static void PlexWarpCellsThreaded(const PlexWarpCells *x, PetscInt cStart, PetscInt cEnd, int nt, PetscInt w[], PetscInt bad[], const char *fail[])
{
  for (int t = 0; t < nt; ++t) {
    bad[t]  = -1;
    fail[t] = NULL;
  }
#if defined(_OPENMP)
  #pragma omp parallel num_threads(nt)
  {
    const int   t  = omp_get_thread_num();
    PetscInt   *wt = w + (size_t)t * 7 * x->maxcl, b = -1;
    const char *f = NULL;

  #pragma omp for schedule(static)
    for (PetscInt c = cStart; c < cEnd; ++c) {
      PetscInt ncl, np;

      if (f) continue;
      f = PlexWarpCellFastClosure(x, c, wt, &ncl, &np);
      if (!f) f = PlexWarpCellFastRest(x, c - cStart, ncl, np, wt, NULL);
      if (f) b = c;
    }
    bad[t]  = b; /* once, not per cell: the threads' entries share cache lines */
    fail[t] = f;
  }
#else
  (void)x, (void)cStart, (void)cEnd, (void)w;
#endif
}

/* Ends OpenMP's idle threads (omp_pause_resource_all(), which libgomp implements by joining them); called by
   PetscWarpFinalizePackage(), that is by PetscFinalize() before it dlcloses the libraries of -dll_append, which would
   unload OpenMP's runtime under its threads (they crashed at exit: PETSc's snes ex12 with -dll_append). A no-op inside
   a parallel region or without OpenMP */
PetscErrorCode PetscWarpThreadsFinalize_Private(void)
{
  PetscFunctionBegin;
#if defined(_OPENMP)
  if (!omp_in_parallel()) (void)omp_pause_resource_all(omp_pause_hard);
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The extraction's threads: -dm_plex_warp_threads, by default the processors this rank may run on (its CPU affinity:
   an MPI launcher that binds each rank to one core gives one) shared among the ranks of the DM's communicator on its
   node, at most OMP_NUM_THREADS; one without OpenMP */
static PetscErrorCode PlexWarpThreads(DM dm, PetscInt *nt)
{
  PetscInt def = 1;

  PetscFunctionBegin;
#if defined(_OPENMP)
  {
    PetscMPIInt nloc = 1;
  #if defined(PETSC_HAVE_MPI_PROCESS_SHARED_MEMORY) /* else PetscShmCommGet() is PETSC_ERR_SUP: count this rank alone */
    PetscShmComm shm;
    MPI_Comm     node;

    PetscCall(PetscShmCommGet(PetscObjectComm((PetscObject)dm), &shm));
    PetscCall(PetscShmCommGetMpiShmComm(shm, &node));
    PetscCallMPI(MPI_Comm_size(node, &nloc));
  #endif
    def = PetscMax(1, PetscMin(omp_get_max_threads(), omp_get_num_procs() / nloc));
  }
#endif
  *nt = def;
  /* not PetscObjectOptionsBegin(): after DMSetFromOptions() the DM's options count as printed, -help would omit these */
  PetscOptionsBegin(PetscObjectComm((PetscObject)dm), ((PetscObject)dm)->prefix, "DMPlex petscwarp element-to-dof map options", "DM");
  PetscCall(PetscOptionsRangeInt("-dm_plex_warp_threads", "Threads that extract the element-to-dof map from the mesh (default: the processors this rank may run on, shared with its node's other ranks)", "DMPlexWarpAsmCreate", def, nt, NULL, 1, 4096));
  PetscOptionsEnd();
#if !defined(_OPENMP)
  if (*nt > 1) PetscCall(PetscInfo(dm, "petscwarp was built without OpenMP: -dm_plex_warp_threads %" PetscInt_FMT " ignored, one thread\n", *nt));
  *nt = 1;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DMPlexWarpAsmGetData_Private(DM dm, PetscWarpPhysics physics, PetscInt *ncells, PetscInt *nel, PetscInt *nrows, PetscInt **e2d, PetscInt *dim, PetscInt *nverts, PetscReal **X, PetscInt *ncv, PetscInt **cv, PetscInt *nb, PetscInt *nc, PetscInt *nq, PetscReal **w, PetscReal **B, PetscReal **D, PetscReal **Dc, PetscInt *nloc, PetscInt **l2d)
{
  MPI_Comm           comm;
  PetscMPIInt        size;
  PetscBool          isplex, localized, useClPerm, ok, hasTransform;
  PetscInt           d, Nf, Nds, cStart, cEnd, vStart, vEnd, Nb, Nc, nbs, totDim, cdimCoord, qdim, qNc, Nq, Ncv, Nel, Nr, Nv, Ncells;
  PetscInt           pdim, cNcomp, bad = -1, Nglobal;
  DMPolytopeType     ct;
  PetscDS            ds;
  PetscObject        obj;
  PetscFE            fe, cfe = NULL;
  PetscQuadrature    quad;
  const PetscReal   *qpts, *qwts, *L;
  PetscTabulation   *Tds, T, Tc = NULL;
  DM                 ccdm;
  PetscSection       section, gsection, cs, asec;
  PetscSectionSym    sym;
  IS                 ais;
  Vec                coords;
  const PetscScalar *ca;
  PetscInt          *le2d, *ll2d = NULL, *lcv, *spts = NULL, maxcl = 0, csStart, csEnd, sStart, sEnd, Nloc, nthreads;
  PetscBool          fast = PETSC_FALSE, symOther = PETSC_FALSE;
  PlexWarpCells      x;
  PetscReal         *lX, *lw, *lB, *lD, *lDc;
  const char        *fail = NULL;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(e2d, 6);
  PetscAssertPointer(X, 9);
  PetscAssertPointer(cv, 11);
  PetscAssertPointer(Dc, 18);
  PetscCall(PetscObjectGetComm((PetscObject)dm, &comm));
  PetscCall(PetscObjectTypeCompare((PetscObject)dm, DMPLEX, &isplex));
  PetscCheck(isplex, comm, PETSC_ERR_ARG_WRONG, "DMPlexWarpAsmCreate() needs a DMPLEX, not a %s", ((PetscObject)dm)->type_name ? ((PetscObject)dm)->type_name : "DM without a type");
  PetscCheck(physics == PETSCWARP_PHYSICS_LAPLACE || physics == PETSCWARP_PHYSICS_ELASTICITY || physics == DMPLEXWARP_PHYSICS_ANY, comm, PETSC_ERR_ARG_OUTOFRANGE, "Unknown PetscWarpPhysics %d", (int)physics);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) { /* each rank its own cells: an overlap would assemble the shared cells twice */
    PetscInt ov;
    PetscCall(DMPlexGetOverlap(dm, &ov));
    PetscCheck(ov == 0, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() needs a mesh distributed without overlap (this one has overlap %" PetscInt_FMT ")", ov);
  }

  /* one field (several, up to PETSCWARP_PW_MAXNF, for user pointwise kernels), a PetscFE with an H1 (Lagrange) dual space */
  PetscCall(DMGetDimension(dm, &d));
  PetscCall(DMGetNumFields(dm, &Nf));
  PetscCall(DMGetNumDS(dm, &Nds));
  if (physics == DMPLEXWARP_PHYSICS_ANY)
    PetscCheck(Nf >= 1 && Nf <= PETSCWARP_PW_MAXNF && Nds == 1, comm, PETSC_ERR_SUP, "The pointwise kernels support 1 to %d fields (PETSCWARP_PW_MAXNF) and one PetscDS, not %" PetscInt_FMT " fields and %" PetscInt_FMT " PetscDS", PETSCWARP_PW_MAXNF, Nf, Nds);
  else PetscCheck(Nf == 1 && Nds == 1, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() supports one field and one PetscDS, not %" PetscInt_FMT " fields and %" PetscInt_FMT " PetscDS", Nf, Nds);
  PetscCall(DMGetDS(dm, &ds));
  {
    PetscInt dsNf;
    PetscCall(PetscDSGetNumFields(ds, &dsNf));
    PetscCheck(dsNf == Nf, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate(): the DM has %" PetscInt_FMT " fields, its PetscDS %" PetscInt_FMT, Nf, dsNf);
  }
  for (PetscInt f = 0; f < Nf; ++f) PetscCall(PlexWarpCheckField_Private(dm, ds, f)); /* PetscFE, Lagrange, interlaced, one quadrature */
  PetscCall(PetscDSGetDiscretization(ds, 0, &obj));
  fe = (PetscFE)obj;
  PetscCall(PetscFEGetNumComponents(fe, &Nc));
  if (physics == PETSCWARP_PHYSICS_LAPLACE) PetscCheck(Nc == 1, comm, PETSC_ERR_SUP, "PETSCWARP_PHYSICS_LAPLACE needs a scalar field (1 component), the field has %" PetscInt_FMT, Nc);
  else if (physics == PETSCWARP_PHYSICS_ELASTICITY) PetscCheck(Nc == d, comm, PETSC_ERR_SUP, "PETSCWARP_PHYSICS_ELASTICITY needs a field of dim = %" PetscInt_FMT " components, the field has %" PetscInt_FMT, d, Nc);
  PetscCall(PetscFEGetDimension(fe, &Nb));
  PetscCall(PetscDSGetTotalDimension(ds, &totDim));
  PetscCheck(Nb % Nc == 0 && (Nf > 1 || totDim == Nb), comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate(): the element has %" PetscInt_FMT " dofs, not nb*nc for %" PetscInt_FMT " components", totDim, Nc);
  nbs = Nb / Nc;

  /* cells: one type among triangle, quadrilateral, tetrahedron, hexahedron */
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  Ncells = cEnd - cStart;
  {
    PetscInt Nall = Ncells;
    if (size > 1) PetscCallMPI(MPIU_Allreduce(&Ncells, &Nall, 1, MPIU_INT, MPI_SUM, comm));
    PetscCheck(Nall > 0, comm, PETSC_ERR_ARG_WRONG, "DMPlexWarpAsmCreate(): the mesh has no cells");
  }
  /* the cell type, the same on every rank (a rank without cells takes the others') */
  {
    PetscInt mine = -1, all;
    if (Ncells) {
      PetscCall(DMPlexGetCellType(dm, cStart, &ct));
      mine = (PetscInt)ct;
    }
    all = mine;
    if (size > 1) PetscCallMPI(MPIU_Allreduce(&mine, &all, 1, MPIU_INT, MPI_MAX, comm));
    PetscCheck(mine < 0 || mine == all, PETSC_COMM_SELF, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() needs one cell type, the ranks have %s and %s", DMPolytopeTypes[mine], DMPolytopeTypes[all]);
    ct = (DMPolytopeType)all;
  }
  for (PetscInt c = cStart + 1; c < cEnd; ++c) {
    DMPolytopeType ctc;

    PetscCall(DMPlexGetCellType(dm, c, &ctc));
    PetscCheck(ctc == ct, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() needs one cell type, the mesh mixes %s (cell %" PetscInt_FMT ") and %s (cell %" PetscInt_FMT ")", DMPolytopeTypes[ct], cStart, DMPolytopeTypes[ctc], c);
  }
  PetscCheck((d == 2 && (ct == DM_POLYTOPE_TRIANGLE || ct == DM_POLYTOPE_QUADRILATERAL)) || (d == 3 && (ct == DM_POLYTOPE_TETRAHEDRON || ct == DM_POLYTOPE_HEXAHEDRON)), comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() supports triangles, quadrilaterals, tetrahedra and hexahedra, not %s cells in dimension %" PetscInt_FMT, DMPolytopeTypes[ct], d);
  Ncv = DMPolytopeTypeGetNumVertices(ct);

  /* coordinates: vertex coordinates of dimension dim, neither localized nor periodic; no anchors or basis transform */
  PetscCall(DMGetCoordinateDim(dm, &cdimCoord));
  PetscCheck(cdimCoord == d, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() does not support embedded meshes (coordinate dimension %" PetscInt_FMT " != %" PetscInt_FMT ")", cdimCoord, d);
  PetscCall(DMGetCoordinatesLocalized(dm, &localized));
  PetscCall(DMGetCellCoordinateDM(dm, &ccdm));
  PetscCall(DMGetPeriodicity(dm, NULL, NULL, &L));
  PetscCheck(!localized && !ccdm && !L, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() does not support periodic meshes or localized (cellwise) coordinates");
  PetscCall(DMPlexGetAnchors(dm, &asec, &ais));
  PetscCheck(!asec && !ais, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() does not support anchors (hanging-node constraints)");
  PetscCall(DMHasBasisTransform(dm, &hasTransform));
  PetscCheck(!hasTransform, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() does not support a basis transform");

  /* quadrature and basis: PETSc's Jacobian integrates with the field's quadrature and the PetscDS tabulation */
  PetscCall(PetscFEGetQuadrature(fe, &quad));
  PetscCall(PetscQuadratureGetData(quad, &qdim, &qNc, &Nq, &qpts, &qwts));
  PetscCheck(qdim == d && qNc == 1 && Nq > 0, comm, PETSC_ERR_SUP, "DMPlexWarpAsmCreate() needs a scalar quadrature in dimension %" PetscInt_FMT " (it has dimension %" PetscInt_FMT ", %" PetscInt_FMT " components, %" PetscInt_FMT " points)", d, qdim, qNc, Nq);
  PetscCall(PetscDSGetTabulation(ds, &Tds));
  T = Tds[0]; /* checked against the quadrature and the element by PlexWarpCheckField_Private() */

  PetscCall(DMPlexWarpCoordinateFE_Private(dm, ct, &cfe));
  PetscCall(PetscFEGetDimension(cfe, &pdim));
  PetscCall(PetscFEGetNumComponents(cfe, &cNcomp));
  if (pdim != Ncv * d || cNcomp != d) fail = "DMPlexWarpAsmCreate() supports P1/Q1 coordinates only (one point per vertex); the coordinate space has another degree";
  if (!fail) {
    PetscCall(PetscFECreateTabulation(cfe, 1, Nq, qpts, 1, &Tc));
    PetscCall(PlexWarpScalarTabulation_Private(Tc, d, &ok, NULL, NULL));
    if (!ok) fail = "DMPlexWarpAsmCreate(): the coordinate PetscFE is not an interlaced vector Lagrange element";
  }
  if (fail) {
    PetscCall(PetscTabulationDestroy(&Tc));
    PetscCall(PetscFEDestroy(&cfe));
    SETERRQ(comm, PETSC_ERR_SUP, "%s", fail);
  }

  /* sections */
  PetscCall(DMGetLocalSection(dm, &section));
  PetscCall(DMGetGlobalSection(dm, &gsection));
  PetscCall(PetscSectionGetConstrainedStorageSize(gsection, &Nr));
  Nglobal = Nr;
  if (size > 1) PetscCallMPI(MPIU_Allreduce(&Nr, &Nglobal, 1, MPIU_INT, MPI_SUM, comm));
  PetscCall(PetscSectionGetStorageSize(section, &Nloc));
  PetscCall(PetscSectionGetFieldSym(section, 0, &sym));
  for (PetscInt f = 1; f < Nf; ++f) {
    PetscSectionSym fsym;
    PetscCall(PetscSectionGetFieldSym(section, f, &fsym));
    if (fsym) symOther = PETSC_TRUE;
  }
  PetscCall(DMPlexGetUseMatClosurePermutation(dm, &useClPerm));
  PetscCall(DMGetCoordinateSection(dm, &cs));
  PetscCall(DMGetCoordinatesLocal(dm, &coords));
  PetscCall(DMPlexGetDepthStratum(dm, 0, &vStart, &vEnd));
  Nv  = vEnd - vStart;
  Nel = totDim;
  PetscCall(PlexWarpThreads(dm, &nthreads));

  /* everything that can be checked cheaply was; from here on a failure frees what was allocated before it errors */
  PetscCall(PetscMalloc1((size_t)Ncells * Nel, &le2d));
  if (l2d) PetscCall(PetscMalloc1((size_t)Ncells * Nel, &ll2d));
  PetscCall(PetscMalloc1((size_t)Ncells * Ncv, &lcv));
  PetscCall(PetscMalloc1((size_t)Nv * d, &lX));
  PetscCall(PetscMalloc1(Nq, &lw));
  PetscCall(PetscMalloc1(Nq * nbs, &lB));
  PetscCall(PetscMalloc1(Nq * nbs * d, &lD));
  PetscCall(PetscMalloc1(Nq * Ncv * d, &lDc));

  /* vertex coordinates, vertex v - vStart */
  PetscCall(VecGetArrayRead(coords, &ca));
  for (PetscInt v = vStart; v < vEnd && !fail; ++v) {
    PetscInt dof, off;

    PetscCall(PetscSectionGetDof(cs, v, &dof));
    PetscCall(PetscSectionGetOffset(cs, v, &off));
    if (dof != d) {
      fail = "a vertex without dim coordinates";
      bad  = v;
      break;
    }
    for (PetscInt k = 0; k < d; ++k) lX[(v - vStart) * d + k] = PetscRealPart(ca[off + k]);
  }
  PetscCall(VecRestoreArrayRead(coords, &ca));

  /* one pass over the cells: closure indices exactly as the Jacobian inserts them (DMPlexMatSetClosure_Internal() with
     the mesh's useMatClPerm); then one transitive closure of the cell, which gives its vertices in the order of the
     closure of the coordinate section (the order of DMPlexGetCellCoordinates(), which pairs closure vertex k with
     coordinate basis function k) and, restricted to the section's chart as DMPlexGetCompressedClosure() does, the
     points whose symmetries the closure indices used */
  PetscCall(PetscSectionGetChart(cs, &csStart, &csEnd));
  PetscCall(PetscSectionGetChart(section, &sStart, &sEnd));
  PetscCall(PlexWarpFastClosures(dm, section, gsection, &fast));
  x = (PlexWarpCells){(const DM_Plex *)dm->data, section, gsection, cs, sStart, sEnd, csStart, csEnd, vStart, vEnd, d, Nel, Ncv, Nglobal, Nloc, 0, le2d, ll2d, lcv};
  if (fast && !fail) { /* the closures from the cones, the indices from the sections (PlexWarpCellClosure(), PlexWarpCellIndices()) */
    PetscInt     maxCone, maxSupp, depth, nt = sym ? 1 : nthreads, *tbad;
    PetscInt     work[7 * 64], *wbuf = work;
    const char **tfail;

    PetscCall(DMPlexGetMaxSizes(dm, &maxCone, &maxSupp));
    PetscCall(DMPlexGetDepth(dm, &depth));
    x.maxcl = maxCone > 1 ? (PetscPowInt(maxCone, depth + 1) - 1) / (maxCone - 1) : depth + 1; /* DMPlexGetTransitiveClosure()'s bound */
    PetscCall(PetscMalloc2(nt, &tbad, nt, &tfail));
    if (7 * x.maxcl * nt > (PetscInt)PETSC_STATIC_ARRAY_LENGTH(work)) PetscCall(PetscMalloc1(7 * x.maxcl * nt, &wbuf));
    /* several threads, or one with the point symmetries of the field (PetscSectionGetFieldPointSyms() is not thread
       safe) */
    if (nt > 1) PlexWarpCellsThreaded(&x, cStart, cEnd, (int)nt, wbuf, tbad, tfail);
    else {
      tbad[0]  = -1;
      tfail[0] = NULL;
      for (PetscInt c = cStart; c < cEnd && !tfail[0]; ++c) {
        const PetscInt    **perms = NULL;
        const PetscScalar **flips = NULL;
        PetscInt            ncl, np;
        PetscBool           got = PETSC_FALSE;

        tfail[0] = PlexWarpCellFastClosure(&x, c, wbuf, &ncl, &np);
        if (!tfail[0] && sym) {
          PetscCall(PetscSectionGetFieldPointSyms(section, 0, np, wbuf + 5 * x.maxcl, &perms, &flips));
          got = PETSC_TRUE;
        }
        if (!tfail[0]) tfail[0] = PlexWarpCellFastRest(&x, c - cStart, ncl, np, wbuf, perms);
        /* sign flips would change the values of the element matrix, which the device kernels do not */
        for (PetscInt p = 0; flips && p < np && !tfail[0]; ++p)
          if (flips[p]) tfail[0] = "point symmetries that flip the signs of dofs";
        if (got) PetscCall(PetscSectionRestoreFieldPointSyms(section, 0, np, wbuf + 5 * x.maxcl, &perms, &flips));
        if (tfail[0]) tbad[0] = c;
      }
    }
    for (PetscInt t = 0; t < nt; ++t) /* the first failing cell, as one thread finds it */
      if (tfail[t] && (!fail || tbad[t] < bad)) {
        fail = tfail[t];
        bad  = tbad[t];
      }
    if (wbuf != work) PetscCall(PetscFree(wbuf));
    PetscCall(PetscFree2(tbad, tfail));
    PetscCall(PetscInfo(dm, "Element-to-dof map of %" PetscInt_FMT " cells from the cone arrays with %" PetscInt_FMT " thread(s)%s\n", Ncells, nt, sym && nthreads > 1 ? " (point symmetries: one)" : ""));
  }
  for (PetscInt c = cStart; c < cEnd && !fail && !fast; ++c) { /* PETSc's calls per cell */
    const PetscInt      cell = c - cStart;
    PetscInt            n, ncl, np = 0, *idx = NULL, *cl = NULL;
    const PetscInt    **perms = NULL;
    const PetscScalar **flips = NULL;

    PetscCall(DMPlexGetClosureIndices(dm, section, gsection, c, useClPerm, &n, &idx, NULL, NULL));
    if (n == Nel) {
      for (PetscInt i = 0; i < Nel; ++i) {
        le2d[cell * Nel + i] = idx[i];
        if (idx[i] >= Nglobal) fail = "a closure index beyond the rows of the global section";
      }
    } else fail = "a closure whose number of dofs differs from the element's nb*nc";
    PetscCall(DMPlexRestoreClosureIndices(dm, section, gsection, c, useClPerm, &n, &idx, NULL, NULL));
    if (ll2d && !fail) { /* the local indices, in the order of DMPlexVecGetClosure() (the closure permutation always):
                            constrained dofs come as -(idx+1) */
      PetscCall(DMPlexGetClosureIndices(dm, section, section, c, PETSC_TRUE, &n, &idx, NULL, NULL));
      if (n == Nel) {
        for (PetscInt i = 0; i < Nel; ++i) {
          ll2d[cell * Nel + i] = idx[i] < 0 ? -(idx[i] + 1) : idx[i];
          if (ll2d[cell * Nel + i] >= Nloc) fail = "a local closure index beyond the local section";
        }
      } else fail = "a local closure whose number of dofs differs from the element's nb*nc";
      PetscCall(DMPlexRestoreClosureIndices(dm, section, section, c, PETSC_TRUE, &n, &idx, NULL, NULL));
    }
    PetscCall(DMPlexGetTransitiveClosure(dm, c, PETSC_TRUE, &ncl, &cl));
    if (sym || symOther) {
      if (ncl > maxcl) {
        PetscCall(PetscFree(spts));
        maxcl = ncl;
        PetscCall(PetscMalloc1(2 * maxcl, &spts));
      }
      np = PlexWarpRestrictToChart(ncl, cl, sStart, sEnd, spts);
      if (sym) PetscCall(PetscSectionGetFieldPointSyms(section, 0, np, spts, &perms, &flips));
    }
    if (!fail) fail = PlexWarpCellVertices(&x, cell, ncl, cl);
    for (PetscInt p = 0; flips && p < np && !fail; ++p)
      if (flips[p]) fail = "point symmetries that flip the signs of dofs";
    if (sym) PetscCall(PetscSectionRestoreFieldPointSyms(section, 0, np, spts, &perms, &flips));
    for (PetscInt f = 1; symOther && f < Nf && !fail; ++f) { /* the other fields' symmetries (several fields: slow path) */
      const PetscInt    **fperms = NULL;
      const PetscScalar **fflips = NULL;
      PetscCall(PetscSectionGetFieldPointSyms(section, f, np, spts, &fperms, &fflips));
      for (PetscInt p = 0; fflips && p < np && !fail; ++p)
        if (fflips[p]) fail = "point symmetries that flip the signs of dofs";
      PetscCall(PetscSectionRestoreFieldPointSyms(section, f, np, spts, &fperms, &fflips));
    }
    PetscCall(DMPlexRestoreTransitiveClosure(dm, c, PETSC_TRUE, &ncl, &cl));
    if (fail) bad = c;
  }
  PetscCall(PetscFree(spts));

  /* reference data at the field's quadrature points */
  if (!fail) {
    for (PetscInt q = 0; q < Nq; ++q) lw[q] = qwts[q];
    PetscCall(PlexWarpScalarTabulation_Private(T, Nc, &ok, lB, lD));
    PetscCall(PlexWarpScalarTabulation_Private(Tc, d, &ok, NULL, lDc));
  }
  PetscCall(PetscTabulationDestroy(&Tc));
  PetscCall(PetscFEDestroy(&cfe));
  if (fail) {
    PetscCall(FreeData(&le2d, &ll2d, &lcv, &lX, &lw, &lB, &lD, &lDc));
    SETERRQ(comm, fail == PlexWarpClosureOverflow ? PETSC_ERR_PLIB : PETSC_ERR_SUP, "DMPlexWarpAsmCreate() does not support %s (point %" PetscInt_FMT ")", fail, bad);
  }
  *ncells = Ncells;
  *nel    = Nel;
  *nrows  = Nr;
  *e2d    = le2d;
  *dim    = d;
  *nverts = Nv;
  *X      = lX;
  *ncv    = Ncv;
  *cv     = lcv;
  *nb     = nbs;
  *nc     = Nc;
  *nq     = Nq;
  *w      = lw;
  *B      = lB;
  *D      = lD;
  *Dc     = lDc;
  if (nloc) *nloc = Nloc;
  if (l2d) *l2d = ll2d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpAsmCreate - Creates a `PetscWarpAsm` that assembles the Jacobian of the single-field finite-element problem
  of a `DMPLEX` on the device, with one of the built-in physics

  Synopsis:
  #include <petscwarp.h>
  PetscErrorCode DMPlexWarpAsmCreate(DM dm, PetscWarpPhysics physics, PetscWarpAsm *assembler)

  Collective

  Input Parameters:
+ dm      - the `DMPLEX`, with one field, a Lagrange `PetscFE`, its `PetscDS` created (`DMCreateDS()`) and its boundary
            conditions set
- physics - `PETSCWARP_PHYSICS_LAPLACE` (a scalar field) or `PETSCWARP_PHYSICS_ELASTICITY` (a field of dim components)

  Output Parameter:
. assembler - the new `PetscWarpAsm`; destroy it with `PetscWarpAsmDestroy()`

  Level: intermediate

  Notes:
  The assembler receives, through `PetscWarpAsmSetElements()`, `PetscWarpAsmSetMesh()` and `PetscWarpAsmSetReference()`:
+ the element-to-dof map - per cell the global rows of its closure, exactly as `DMPlexGetClosureIndices()` returns them
  with the global section and the closure permutation flag that PETSc's FE Jacobian uses
  (`DMPlexGetUseMatClosurePermutation()`); constrained (essential boundary condition) dofs are negative and dropped.
  The matrix has as many rows and columns as the global section has unconstrained dofs. The element-to-local-dof map
  of residuals (`PetscWarpAsmSetLocalElements()`) is taken from the same closures with the local section (the order of
  `DMPlexVecGetClosure()`), constrained dofs included.
. the mesh - the vertex coordinates (vertex v is the point vStart + v of depth 0) and, per cell, its vertices in the
  closure order of the coordinate section, the order in which `DMPlexComputeCellGeometryFEM()` pairs them with the
  coordinate basis
- the reference element - the field's quadrature (`PetscFEGetQuadrature()`), the scalar basis (function a of component 0
  of PETSc's vector basis function a*nc, the basis being checked to be interlaced by node), and the reference
  derivatives of the P1/Q1 coordinate basis at the same points: the coordinate `DM`'s `PetscFE` when it has one, else
  the Lagrange element of degree 1 of the cell type.

  Then `PETSCWARP_PHYSICS_LAPLACE` sets `PetscWarpAsmSetLaplace`(assembler, `PETSCWARP_COEF_CONSTANT`, 1.0, NULL) and
  `PETSCWARP_PHYSICS_ELASTICITY` sets `PetscWarpAsmSetElasticity`(assembler, 1.0, 1.0) (lambda = mu = 1); change them,
  the shift or the source afterwards with the setters.

  The assembled matrix is the one that `SNESComputeJacobian()` assembles with `DMPlexSNESComputeJacobianFEM()` for the
  pointwise Jacobian g3 of the chosen physics; boundary (face) integrals, auxiliary fields and other pointwise terms of
  the `PetscDS` are not taken into account.

  On more than one MPI process each rank gives its own cells and the element-to-dof map holds global rows (those of
  other ranks included); the mesh must be distributed without overlap. Matrices and load vectors are then reduced
  through PETSc's COO interface (see `PetscWarpAsmSetElements()`).

  This version supports
+ a mesh distributed without overlap (or on one process)
. one field, a `PetscFE` with an H1 (Lagrange) dual space, with 1 component (Laplace) or dim components (elasticity),
  whose closure has nb*nc dofs on every cell
. one cell type among triangles, quadrilaterals, tetrahedra and hexahedra
- P1/Q1 vertex coordinates of dimension dim

  and errors with `PETSC_ERR_SUP` for several fields or `PetscDS`, a field that is not a `PetscFE`, mixed or other cell
  types, embedded, periodic or localized coordinates (`DMGetCellCoordinateDM()`, `DMGetCoordinatesLocalized()`),
  coordinates of higher degree, hanging-node constraints (`DMPlexGetAnchors()`), a basis transform, point symmetries
  that flip the signs of dofs, a wrong number of components, or an element dof count other than nb*nc.

  It makes one pass over the cells, meant to be done once per mesh and dof layout: on an interpolated mesh with one
  field and no closure permutation or transform, from DMPlex's cone arrays and the sections directly (what
  `DMPlexGetTransitiveClosure()` and `DMPlexGetClosureIndices()` compute, without a call per cell), on several threads
  when petscwarp was built with OpenMP (the cells split in contiguous ranges; one thread for fields whose point
  symmetries permute dofs, P3 and higher); otherwise with `DMPlexGetClosureIndices()` per cell.

  Options Database Key:
. -dm_plex_warp_threads <n> - threads of the pass over the cells (default: the processors this MPI rank may run on, its
                              CPU affinity, shared with the other ranks of its node, at most `OMP_NUM_THREADS`). An MPI
                              launcher that binds each rank to one core (OpenMPI does for one or two ranks) leaves one:
                              `mpiexec --bind-to none` (or a binding to several cores) lets the threads spread

.seealso: `PetscWarpAsm`, `PetscWarpAsmCreate()`, `PetscWarpAsmSetElements()`, `PetscWarpAsmSetMesh()`,
          `PetscWarpAsmSetReference()`, `PetscWarpAsmSetLaplace()`, `PetscWarpAsmSetElasticity()`,
          `PetscWarpAsmAssembleMatrix()`, `DMPlexGetClosureIndices()`, `DMPlexComputeCellGeometryFEM()`
@*/
PetscErrorCode DMPlexWarpAsmCreate(DM dm, PetscWarpPhysics physics, PetscWarpAsm *assembler)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscAssertPointer(assembler, 3);
  *assembler = NULL;
  PetscCheck(physics == PETSCWARP_PHYSICS_LAPLACE || physics == PETSCWARP_PHYSICS_ELASTICITY, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_OUTOFRANGE, "Unknown PetscWarpPhysics %d", (int)physics);
  PetscCall(DMPlexWarpAsmCreate_Private(dm, physics, assembler));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembler from the extracted data (a separate function so that its errors, e.g. PETSC_ERR_SUP for elements
   beyond the compiled limits, reach a caller that frees the data and ends the log event first) */
static PetscErrorCode AsmFromData(DM dm, PetscWarpPhysics physics, PetscInt ncells, PetscInt nel, PetscInt nrows, const PetscInt e2d[], PetscInt nloc, const PetscInt l2d[], PetscInt dim, PetscInt nverts, const PetscReal X[], PetscInt ncv, const PetscInt cv[], PetscInt nb, PetscInt nc, PetscInt nq, const PetscReal w[], const PetscReal B[], const PetscReal D[], const PetscReal Dc[], PetscWarpAsm *assembler)
{
  PetscFunctionBegin;
  PetscCall(PetscWarpAsmCreate(PetscObjectComm((PetscObject)dm), assembler));
  PetscCall(PetscWarpAsmSetElements(*assembler, ncells, nel, nrows, nrows, e2d));
  PetscCall(PetscWarpAsmSetLocalElements(*assembler, nloc, l2d));
  PetscCall(PetscWarpAsmSetMesh(*assembler, dim, nverts, X, ncv, cv));
  if (nel == nb * nc) PetscCall(PetscWarpAsmSetReference(*assembler, nb, nc, nq, w, B, D, Dc));
  else { /* several fields (DMPLEXWARP_PHYSICS_ANY): field 0's reference; the pointwise kernels get every field's */ PetscInt Nf;
    PetscCall(DMGetNumFields(dm, &Nf));
    PetscCall(PetscWarpAsmSetReferenceFields_Private(*assembler, Nf, nb, nc, nq, w, B, D, Dc));
  }
  if (physics == PETSCWARP_PHYSICS_LAPLACE) PetscCall(PetscWarpAsmSetLaplace(*assembler, PETSCWARP_COEF_CONSTANT, 1.0, NULL));
  else if (physics == PETSCWARP_PHYSICS_ELASTICITY) PetscCall(PetscWarpAsmSetElasticity(*assembler, 1.0, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DMPlexWarpAsmCreate(), or with DMPLEXWARP_PHYSICS_ANY an assembler of a field of any number of components and no
   physics (the element kernels of user pointwise functions compute its element matrices) */
PetscErrorCode DMPlexWarpAsmCreate_Private(DM dm, PetscWarpPhysics physics, PetscWarpAsm *assembler)
{
  PetscInt       ncells, nel, nrows, dim, nverts, ncv, nb, nc, nq, nloc;
  PetscInt      *e2d, *cv, *l2d;
  PetscReal     *X, *w, *B, *D, *Dc;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *assembler = NULL;
  PetscCall(PetscWarpInitializePackage());
  /* errors (an unsupported mesh or element: PETSC_ERR_SUP, which the hooks' DMCreateMatrix() catches) end the log event
     and free the data first */
  PetscCall(PetscLogEventBegin(PETSCWARPASM_Extract, dm, 0, 0, 0));
  ierr = DMPlexWarpAsmGetData_Private(dm, physics, &ncells, &nel, &nrows, &e2d, &dim, &nverts, &X, &ncv, &cv, &nb, &nc, &nq, &w, &B, &D, &Dc, &nloc, &l2d);
  if (!ierr) {
    ierr = AsmFromData(dm, physics, ncells, nel, nrows, e2d, nloc, l2d, dim, nverts, X, ncv, cv, nb, nc, nq, w, B, D, Dc, assembler);
    PetscCall(FreeData(&e2d, &l2d, &cv, &X, &w, &B, &D, &Dc));
    if (ierr) PetscCall(PetscWarpAsmDestroy(assembler));
  }
  PetscCall(PetscLogEventEnd(PETSCWARPASM_Extract, dm, 0, 0, 0));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
