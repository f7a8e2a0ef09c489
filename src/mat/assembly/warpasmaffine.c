/*
  The affine fast path of PetscWarpAsm: on cells whose geometry map is affine (every simplex; parallelogram and
  parallelepiped quadrilaterals and hexahedra, e.g. every DMPlex box mesh) and with coefficients constant over the cell
  (constant, per-cell or tensor-per-cell conductivity, shift; not a per-point mass coefficient such as the
  Aliev-Panfilov model's), each element matrix is a small linear combination of reference matrices computed once from
  the tabulation (src/kernels/warpasm_elem.h, PwaAffinePair): no quadrature loop in the kernels.

  Which cells are affine is decided once per mesh on the host (the Jacobian at every quadrature point equal to the one
  at the first within PWA_AFFINE_RTOL; PetscWarpAsmSetMesh(), the only way to change the coordinates, discards it). When
  every cell is affine, every strategy runs the affine path; on a mesh with both kinds, atomic and color split the cells
  into two launches, the other strategies (globalnz, sharednz, coo: element matrices by position) run the quadrature
  path on all cells.
*/
#include <petscwarp/private/warpasmimpl.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

#define PWA_AFFINE_RTOL 1e-13

PetscErrorCode PetscWarpAsmAffineReset_Private(PetscWarpAsm a, PetscBool deviceonly)
{
  PetscFunctionBegin;
#if PetscDefined(HAVE_CUDA)
  if (a->d_affref) PetscCallCUDA(cudaFree(a->d_affref));
#endif
  a->d_affref = NULL;
  if (deviceonly) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(a->affcell));
  PetscCall(PetscFree(a->affref));
  a->naffine    = -1;
  a->affkind    = -1;
  a->lastaffine = 0;
  a->affinfo    = PETSC_FALSE; /* -info says again why the path is not used */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host arrays as the kernel layer describes them (not PetscWarpAsmDescribe_Private(), which would also move the
   Aliev-Panfilov point data to the host) */
static PetscErrorCode HostDescription(PetscWarpAsm a, PetscWarpFE *fe, PetscWarpMesh *mesh)
{
  PetscFunctionBegin;
  PetscCheck(a->nb && a->dim, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the elements, the mesh and the reference element before assembling");
  PetscCall(PetscMemzero(fe, sizeof(*fe)));
  fe->dim      = (int)a->dim;
  fe->nb       = (int)a->nb;
  fe->nc       = (int)a->nc;
  fe->nq       = (int)a->nq;
  fe->ncv      = (int)a->ncv;
  fe->w        = a->w;
  fe->B        = a->B;
  fe->D        = a->D;
  fe->Dc       = a->Dc;
  mesh->ncells = (int)a->ncells;
  mesh->nverts = (int)a->nverts;
  mesh->cv     = a->cv;
  mesh->X      = a->X;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmAffineCells_Private(PetscWarpAsm a)
{
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  int           n;

  PetscFunctionBegin;
  if (a->affcell || !a->ncells) {
    if (!a->ncells) a->naffine = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HostDescription(a, &fe, &mesh));
  PetscCall(PetscMalloc1(a->ncells, &a->affcell));
  PetscCheck(PetscWarpAsmAffineCellsHost(&fe, &mesh, PWA_AFFINE_RTOL, a->affcell, &n) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Affinity check failed");
  a->naffine = n;
  PetscCall(PetscInfo(a, "affine path: %" PetscInt_FMT " of %" PetscInt_FMT " cells are affine (Jacobian constant within %g)%s\n", a->naffine, a->ncells, PWA_AFFINE_RTOL, a->ncv == a->dim + 1 ? ": simplices" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmAffineRefs_Private(PetscWarpAsm a, PetscBool device, int kind, const double **K)
{
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  int           n;

  PetscFunctionBegin;
  PetscCall(HostDescription(a, &fe, &mesh));
  n = PetscWarpAsmAffineRefsSize(&fe, kind);
  if (a->affkind != kind) {
    PetscCall(PetscWarpAsmAffineReset_Private(a, PETSC_TRUE));
    PetscCall(PetscFree(a->affref));
    PetscCall(PetscMalloc1(n, &a->affref));
    PetscCheck(PetscWarpAsmAffineRefsHost(&fe, kind, a->affref) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_SUP, "Unsupported element for the affine path");
    a->affkind = kind;
    PetscCall(PetscInfo(a, "affine path: %d reference matrices of %" PetscInt_FMT " node pairs (%.3g KB)\n", n / (int)(a->nb * (a->nb + 1) / 2), a->nb * (a->nb + 1) / 2, 8e-3 * n));
  }
  *K = a->affref;
  if (!device) PetscFunctionReturn(PETSC_SUCCESS);
#if PetscDefined(HAVE_CUDA)
  if (!a->d_affref) PetscCall(PetscWarpAsmUpload_Private(a->affref, (size_t)n, sizeof(double), (void **)&a->d_affref));
  *K = a->d_affref;
#else
  SETERRQ(PetscObjectComm((PetscObject)a), PETSC_ERR_SUP_SYS, "PETSc has no CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmAffinePlanReset_Private(PetscWarpAsmPlan *p)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(p->acells, p->qcells));
  PetscCall(PetscFree(p->caff));
#if PetscDefined(HAVE_CUDA)
  if (p->d_acells) PetscCallCUDA(cudaFree(p->d_acells));
  if (p->d_qcells) PetscCallCUDA(cudaFree(p->d_qcells));
#endif
  p->d_acells = p->d_qcells = NULL;
  p->naffine                = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the reference matrices of the element and physics kind fit the shared-memory budget of the affine kernels
   (PWA_REF_BUDGET of src/kernels/warpasm_elem.h); the affine atomic/color path and rownz both need it */
PetscBool PetscWarpAsmAffineRefsFit_Private(PetscWarpAsm a, int kind)
{
  PetscWarpFE fe = {0};

  fe.dim = (int)a->dim;
  fe.nb  = (int)a->nb;
  return (PetscBool)((size_t)PetscWarpAsmAffineRefsSize(&fe, kind) * sizeof(double) <= 32 * 1024);
}

/* Whether the affine path may run at all for this call: on, some cell affine, no per-point coefficient */
static PetscErrorCode AffineUsable(PetscWarpAsm a, const PetscWarpPhys *ph, PetscBool *usable)
{
  PetscFunctionBegin;
  *usable = PETSC_FALSE;
  if (!a->affine || ph->cq || !a->ncells) PetscFunctionReturn(PETSC_SUCCESS);
  /* Gates from the H100 run of 2026-11-23 (bench/results/bench_affine_h100_2026-11-23.log): elasticity was slower by the
     fast path (Q1 hexahedra 1.008 against 0.771 ms): only when asked for (PetscWarpAsmSetAffine() or
     -mat_warp_assembly_affine). Reference matrices above the shared-memory budget (Q3 hexahedra) keep quadrature: that
     variant of the kernel (references read from global memory) has not run on a GPU with a valid test (the Q3 failure of
     that run was the test's node numbering) */
  if (!PetscWarpAsmAffineRefsFit_Private(a, ph->kind)) {
    PetscWarpFE fe = {0};
    fe.dim         = (int)a->dim;
    fe.nb          = (int)a->nb;
    if (!a->affinfo) PetscCall(PetscInfo(a, "affine path: the reference matrices (%d doubles) exceed the shared-memory budget: quadrature\n", PetscWarpAsmAffineRefsSize(&fe, ph->kind)));
    a->affinfo = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (ph->kind == PETSCWARP_PHYS_ELASTICITY && !a->affine_set) {
    if (!a->affinfo) PetscCall(PetscInfo(a, "affine path: elasticity uses quadrature unless -mat_warp_assembly_affine or PetscWarpAsmSetAffine() asks for it\n"));
    a->affinfo = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscWarpAsmAffineCells_Private(a));
  *usable = (PetscBool)(a->naffine > 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the plan's strategy is set up, before its upload: where the affine path is usable (AffineUsable(), ph the
   plan's physics) on a mesh with affine and non-affine cells, the atomic lists,
   or the colors reordered with their affine cells first (the order of the cells of one color changes no sum: no two
   share a slot) */
PetscErrorCode PetscWarpAsmAffinePlan_Private(PetscWarpAsm a, const PetscWarpPhys *ph, PetscWarpAsmPlan *p)
{
  PetscBool usable;

  PetscFunctionBegin;
  PetscCall(PetscWarpAsmAffinePlanReset_Private(p));
  PetscCall(AffineUsable(a, ph, &usable)); /* the assemblies' gate: no split where they would not use it */
  if (!usable || a->naffine == a->ncells) PetscFunctionReturn(PETSC_SUCCESS);
  if (p->strategy != PETSCWARP_ASM_ATOMIC && p->strategy != PETSCWARP_ASM_COLOR) {
    PetscCall(PetscInfo(a, "affine path: %s computes every cell by quadrature (%" PetscInt_FMT " of the %" PetscInt_FMT " cells are not affine; atomic and color would split them)\n", PetscWarpAsmStrategies[p->strategy], a->ncells - a->naffine, a->ncells));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  p->naffine = a->naffine;
  if (p->strategy == PETSCWARP_ASM_ATOMIC) {
    PetscInt na = 0, nq = 0;
    PetscCall(PetscMalloc2(a->naffine, &p->acells, a->ncells - a->naffine, &p->qcells));
    for (PetscInt c = 0; c < a->ncells; c++) {
      if (a->affcell[c]) p->acells[na++] = (int)c;
      else p->qcells[nq++] = (int)c;
    }
    p->bytes += sizeof(int) * (PetscLogDouble)a->ncells; /* the caller uploads the lists */
  } else {
    int *tmp;
    PetscCall(PetscMalloc1(p->ncolors, &p->caff));
    PetscCall(PetscMalloc1(a->ncells, &tmp));
    for (PetscInt k = 0; k < p->ncolors; k++) {
      int n = 0, m = 0, len = p->coff[k + 1] - p->coff[k], *cc = p->ccells + p->coff[k];
      for (int i = 0; i < len; i++)
        if (a->affcell[cc[i]]) tmp[n++] = cc[i];
      p->caff[k] = n;
      for (int i = 0; i < len; i++)
        if (!a->affcell[cc[i]]) tmp[n + m++] = cc[i];
      PetscCall(PetscArraycpy(cc, tmp, len));
    }
    PetscCall(PetscFree(tmp));
    p->bytes += sizeof(int) * (PetscLogDouble)p->ncolors;
  }
  PetscCall(PetscInfo(a, "affine path: %s runs the %" PetscInt_FMT " affine cells and the %" PetscInt_FMT " others in separate launches\n", PetscWarpAsmStrategies[p->strategy], a->naffine, a->ncells - a->naffine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* fe->Kaff for a call over all cells: the reference matrices when every cell is affine and the path usable, else NULL;
   mixed: whether the mesh has both kinds and the path is usable (the caller may split the cells) */
PetscErrorCode PetscWarpAsmAffineAll_Private(PetscWarpAsm a, PetscBool device, const PetscWarpPhys *ph, PetscWarpFE *fe, PetscBool *mixed)
{
  PetscBool usable;

  PetscFunctionBegin;
  fe->Kaff = NULL;
  if (mixed) *mixed = PETSC_FALSE;
  PetscCall(AffineUsable(a, ph, &usable));
  if (!usable) PetscFunctionReturn(PETSC_SUCCESS);
  if (a->naffine == a->ncells) PetscCall(PetscWarpAsmAffineRefs_Private(a, device, ph->kind, &fe->Kaff));
  else if (mixed) *mixed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
