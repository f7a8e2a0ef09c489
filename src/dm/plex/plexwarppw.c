/*
  User pointwise functions in the DMPlex hooks: DMPlexWarpSetPointwise() registers the element kernels a user compiled
  from the PetscDS's own pointwise functions (petscwarp/pointwise.cuh); the SNES, TS and KSP hooks then compute the
  Jacobian and the residual with them (src/mat/assembly/warpasmpw.c) instead of recognising a built-in physics.
*/
#include <petscwarp/private/plexwarphook.h>
#include <petscwarp/private/plexwarpasm.h>
#include <petscwarp/private/warpasmpw.h>
#include <petsc/private/dmimpl.h> /* dm->ops->clone: DMClone() has no hook */
#include <petscds.h>
#include <petscfe.h>

#define PW_NAME "DMPlexWarpPointwise"

/* The registration composed on a DM: the kernels (set: registered, else removed), whether it came from the DM's origin
   (DMClone(), DMRefine(), DMCoarsen()) rather than from DMPlexWarpSetPointwise() on this DM, and the DM type's clone
   method that CloneInherit() wraps */
typedef struct {
  PetscWarpPointwise pw;
  PetscBool          set, inherited, handler;
  PetscErrorCode (*clone)(DM, DM *);
} PointwiseReg;

static PetscErrorCode PointwiseDestroy(PetscCtxRt ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*(PointwiseReg **)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RegGet(DM dm, PointwiseReg **reg)
{
  PetscFunctionBegin;
  *reg = NULL;
  PetscCall(PetscObjectContainerQuery((PetscObject)dm, PW_NAME, (void **)reg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Inherit(DM, DM);

/* DMClone() calls dm->ops->clone only: the type's method, then the registration onto the clone */
static PetscErrorCode CloneInherit(DM dm, DM *newdm)
{
  PointwiseReg *reg;

  PetscFunctionBegin;
  PetscCall(RegGet(dm, &reg));
  PetscCheck(reg && reg->clone, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The clone method of DMPlexWarpSetPointwise() lost the DM type's own");
  PetscCall((*reg->clone)(dm, newdm));
  PetscCall(Inherit(dm, *newdm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RefineInherit(DM coarse, DM fine, PetscCtx ctx)
{
  PetscFunctionBegin;
  PetscCall(Inherit(coarse, fine));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CoarsenInherit(DM fine, DM coarse, PetscCtx ctx)
{
  PetscFunctionBegin;
  PetscCall(Inherit(fine, coarse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Attach(DM, PointwiseReg *);

/* At the end of DMSetFromOptions(): its in-place refinement or distribution (DMPlexReplace_Internal()) resets the DM
   type's methods, the clone method among them */
static PetscErrorCode Reattach(PetscObject obj, PetscOptionItems items, PetscCtx ctx)
{
  PointwiseReg *reg;

  PetscFunctionBegin;
  PetscCall(RegGet((DM)obj, &reg));
  if (reg) PetscCall(Attach((DM)obj, reg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ways dm passes its registration on: DMRefine() and DMCoarsen() hooks, and its clone method wrapped (again at the
   end of every DMSetFromOptions(), and whenever the registration is read) */
static PetscErrorCode Attach(DM dm, PointwiseReg *reg)
{
  PetscFunctionBegin;
  if (!reg->handler) {
    PetscCall(PetscObjectAddOptionsHandler((PetscObject)dm, Reattach, NULL, NULL));
    reg->handler = PETSC_TRUE;
  }
  PetscCall(DMRefineHookAdd(dm, RefineInherit, NULL, NULL)); /* once: PETSc skips a hook already added */
  PetscCall(DMCoarsenHookAdd(dm, CoarsenInherit, NULL, NULL));
  if (dm->ops->clone && dm->ops->clone != CloneInherit) {
    reg->clone     = dm->ops->clone;
    dm->ops->clone = CloneInherit;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* to takes from's registration, marked inherited, unless it has its own (DMCoarsen() may return a coarse DM set before) */
static PetscErrorCode Inherit(DM from, DM to)
{
  PointwiseReg *reg, *mine;

  PetscFunctionBegin;
  PetscCall(RegGet(from, &reg));
  if (!reg || !reg->set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RegGet(to, &mine));
  if (mine && mine->set && !mine->inherited) PetscFunctionReturn(PETSC_SUCCESS);
  if (!mine) {
    PetscCall(PetscNew(&mine));
    PetscCall(PetscObjectContainerCompose((PetscObject)to, PW_NAME, mine, PointwiseDestroy));
  }
  mine->pw        = reg->pw;
  mine->set       = PETSC_TRUE;
  mine->inherited = PETSC_TRUE;
  PetscCall(Attach(to, mine));
  PetscCall(PetscInfo(to, "Pointwise kernels %s inherited from DM %p\n", mine->pw.name ? mine->pw.name : "(unnamed)", (void *)from));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpSetPointwise - Registers the device pointwise functions of the `DM`'s `PetscDS`, compiled by the user with
  `PETSCWARP_POINTWISE()` of petscwarp/pointwise.cuh, so that `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`
  and `DMPlexWarpSetKSPLocalFEM()` compute the Jacobian and the residual with them, on the device, whatever the physics

  Logically Collective

  Input Parameters:
+ dm - a `DMPLEX` with the `PetscFE` fields the kernels were compiled for, its `PetscDS` holding the same host functions
       (`PetscDSSetResidual()`, `PetscDSSetJacobian()`)
- pw - the element kernels (copied), or `NULL` to remove a registration

  Level: intermediate

  Notes:
  Call it before `DMPlexWarpSetSNESLocalFEM()` (or the TS and KSP variants); they check that the `PetscDS` holds exactly
  the functions `pw` was compiled from (f0, f1 of field 0; g0, g1, g2, g3 of fields (0, 0)), one of each at most, and
  refuse otherwise (`PETSC_ERR_ARG_INCOMP`). Then, for every Jacobian and residual:
+ the element kernels evaluate the state, its physical gradient (and u_t for TS) and the point x at the quadrature
  points of each cell and call the functions as PETSc's `PetscFEIntegrateJacobian_Basic()` and
  `PetscFEIntegrateResidual_Basic()` do, with the `PetscDS`'s constants (`PetscDSSetConstants()`, read at every call),
  t and u_tShift; on the device when the local state is in device memory (`VECCUDA`, which the hooks choose for device
  matrices), else their host twins (the same templates compiled for the host);
. the element matrices are reduced into the matrix by `PetscWarpAsmAssembleElementMatrices()` (strategy globalnz, or
  coo with `-mat_warp_assembly coo` and on several ranks), constrained (Dirichlet) dofs dropped as PETSc drops them;
- the element vectors are added into the local residual through the element-to-local-dof map (device atomics), the
  constrained dofs' entries included, as `DMPlexSNESComputeResidualFEM()` does.

  Unlike the built-in physics, the Jacobian depends on the state: the hooks gather the local state (with its boundary
  values) before each Jacobian. The log events `WarpAsmPWJacobian` and `WarpAsmPWResidual` time the element kernels,
  and `-info` says that the pointwise path runs and where.

  Natural boundaries (`DMAddBoundary()` with `DM_BC_NATURAL`): a boundary residual f0_bd compiled with
  `PETSCWARP_POINTWISE_BD()` and set for their keys (`PetscWeakFormSetIndexBdResidual()`) is evaluated at the face
  quadrature points of their owned faces with u, u_x, u_t, x, the outward normal n, t and the constants (on the device
  with the cell residual, else by its host twin) and added into the local residual as `DMPlexComputeBdResidual_Internal()`
  does. A boundary Jacobian g0_bd compiled with `PETSCWARP_POINTWISE_BD_JACOBIAN()` (e.g. alpha of a Robin term
  alpha u - g) and set for the same keys (`PetscWeakFormSetIndexBdJacobian()`) is evaluated at the same points with
  u_tShift too, and its terms, the full element matrix of each face's cell as `PetscFEIntegrateBdJacobian_Basic()`
  computes it, are added into the cells' element matrices before their reduction into the matrix (each entry summed
  face after face in a fixed order: no atomics). `PETSCWARP_POINTWISE_BD_ALL()` adds a boundary f1_bd and the boundary
  Jacobian's g1_bd, g2_bd, g3_bd (terms with the physical gradients of the face's cell basis). A boundary term without
  its compiled function, more than one function per term, a boundary Jacobian on a key without a boundary residual and
  a boundary Jacobian preconditioner are refused (`PETSC_ERR_SUP`): the Jacobian would differ from PETSc's; so is a key
  without a compiled function, or with another one (`PETSC_ERR_ARG_INCOMP`).

  Derived `DM`s inherit the registration (not the hooks: install those on the `DM` that is solved on):
+ `DMClone()` (then `DMCopyDisc()` gives the clone the `PetscDS`), `DMRefine()`, `DMCoarsen()`, and the hierarchies built
  with them (`DMRefineHierarchy()`, `-dm_refine_hierarchy`, multigrid levels);
- the `DM` itself keeps it when `DMSetFromOptions()` refines or distributes it in place (`-dm_refine`, `-dm_distribute`),
  and its clones made after that inherit it too.
  An inherited registration is used only where the derived `DM`'s `PetscDS` holds the functions the kernels were compiled
  from (else the hooks go on as without one, and `-info` says so): a clone that solves another problem is not affected.
  `DMPlexWarpSetPointwise()` on a derived `DM` replaces or (`NULL`) removes the registration there only. Not inherited:
  the `DM`s that PETSc makes anew rather than by `DMClone()` or `DMRefine()` (`DMPlexDistribute()`, `DMPlexFilter()`,
  `DMPlexCreateSubmesh()`, `DMPlexTransformApply()`, `DMAdaptLabel()`, ...), nor a `DM` that only receives this one's
  `PetscDS` (`DMCopyDisc()`, `DMCopyDS()` copy the `PetscDS`, not the registration): register on those.

  Several fields (`PETSCWARP_POINTWISE_FIELDS_BEGIN()`, up to `PETSCWARP_PW_MAXNF` Lagrange `PetscFE`s of their own degrees
  and components, sharing the quadrature): every field's residual and every block's Jacobian are checked as above, the
  element matrices and vectors hold all fields in PETSc's order (essential boundaries of any field are dropped as PETSc
  drops them). Natural boundaries belong to one field each (that of `DMAddBoundary()`): their boundary residual is
  that field's (`PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL()`), their boundary Jacobian the blocks (field, g) for every g
  (`PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN()`), checked key by key as above, evaluated with every field's state at the
  face points; their terms go into the field's rows of the faces' cells, as `DMPlexComputeBdResidualSingleByKey()`
  and `DMPlexComputeBdJacobianSingleByLabel()` add them.

  The functions get the `PetscDS`'s constants only, not the three values PETSc appends after them during its own
  integration (the fields of the block and a scale, `constants[numConstants]` ...): do not read past numConstants.

  This version supports at most `PETSCWARP_PW_MAXNC` components in all, no explicit (IMEX) fields, no auxiliary fields, no separate Jacobian
  preconditioner and no dynamic Jacobian of TS; otherwise the hooks stop with `PETSC_ERR_SUP`. Real scalars only.

.seealso: `PETSCWARP_POINTWISE()`, `PETSCWARP_POINTWISE_BD()`, `PETSCWARP_POINTWISE_BD_JACOBIAN()`, `PETSCWARP_POINTWISE_BD_ALL()`, `PetscWarpPointwise`, `DMPlexWarpSetSNESLocalFEM()`, `DMPlexWarpSetTSLocalFEM()`,
          `DMPlexWarpSetKSPLocalFEM()`, `DMPlexWarpGetPointwiseCount()`, `PetscDSSetJacobian()`, `PetscDSSetResidual()`
@*/
PetscErrorCode DMPlexWarpSetPointwise(DM dm, const PetscWarpPointwise *pw)
{
  PointwiseReg   *reg;
  DMPlexWarpHook *hook;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(PetscWarpInitializePackage());
  PetscCall(DMPlexWarpHookQuery_Private(dm, &hook));
  PetscCheck(!hook, PetscObjectComm((PetscObject)dm), PETSC_ERR_ORDER, "Call DMPlexWarpSetPointwise() before DMPlexWarpSetSNESLocalFEM(), DMPlexWarpSetTSLocalFEM() or DMPlexWarpSetKSPLocalFEM()");
  if (pw) {
    PetscCheck(pw->version == PETSCWARP_POINTWISE_VERSION, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The PetscWarpPointwise %s was compiled against version %d of petscwarp/pointwise.cuh, this library has version %d: recompile it", pw->name ? pw->name : "(unnamed)", pw->version, PETSCWARP_POINTWISE_VERSION);
    PetscCheck(pw->jacobian_host && pw->residual_host, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The PetscWarpPointwise has no host launchers: make it with PETSCWARP_POINTWISE()");
    PetscCheck(pw->nf >= 1 && pw->nf <= PETSCWARP_PW_MAXNF, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_WRONG, "The PetscWarpPointwise %s has %d fields, not 1 to %d: make it with PETSCWARP_POINTWISE() or PETSCWARP_POINTWISE_FIELDS_BEGIN()", pw->name ? pw->name : "(unnamed)", pw->nf, PETSCWARP_PW_MAXNF);
  }
  PetscCall(RegGet(dm, &reg));
  if (!reg && !pw) PetscFunctionReturn(PETSC_SUCCESS);
  if (!reg) {
    PetscCall(PetscNew(&reg));
    PetscCall(PetscObjectContainerCompose((PetscObject)dm, PW_NAME, reg, PointwiseDestroy));
  }
  reg->set       = pw ? PETSC_TRUE : PETSC_FALSE; /* NULL removes it (the container stays: it holds the clone method) */
  reg->inherited = PETSC_FALSE;
  if (pw) reg->pw = *pw;
  else PetscCall(PetscMemzero(&reg->pw, sizeof(reg->pw)));
  PetscCall(Attach(dm, reg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Exactly one or no function of a kind, the compiled one (or none of either) */
static PetscBool SameSlot(PetscInt n, void (*ds)(void), void (*compiled)(void))
{
  return (PetscBool)(n <= 1 && ds == compiled);
}

/* The PetscDS's residual functions of field f (n[k], fn[k] for f0, f1) and Jacobian functions of the block (f, g)
   (n[k], fn[k] for g0 ... g3): the first of each kind, or NULL */
static PetscErrorCode DSResidual(PetscWeakForm wf, PetscInt f, PetscInt n[2], void (*fn[2])(void))
{
  PetscPointFn **f0, **f1;

  PetscFunctionBegin;
  PetscCall(PetscWeakFormGetResidual(wf, NULL, 0, f, 0, &n[0], &f0, &n[1], &f1));
  fn[0] = n[0] ? (void (*)(void))f0[0] : NULL;
  fn[1] = n[1] ? (void (*)(void))f1[0] : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode DSJacobian(PetscWeakForm wf, PetscInt f, PetscInt g, PetscInt n[4], void (*fn[4])(void))
{
  PetscPointJacFn **g0, **g1, **g2, **g3;

  PetscFunctionBegin;
  PetscCall(PetscWeakFormGetJacobian(wf, NULL, 0, f, g, 0, &n[0], &g0, &n[1], &g1, &n[2], &g2, &n[3], &g3));
  fn[0] = n[0] ? (void (*)(void))g0[0] : NULL;
  fn[1] = n[1] ? (void (*)(void))g1[0] : NULL;
  fn[2] = n[2] ? (void (*)(void))g2[0] : NULL;
  fn[3] = n[3] ? (void (*)(void))g3[0] : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dm's PetscDS holds the functions the kernels were compiled from (pw->nf fields, one PetscDS) */
static PetscErrorCode DSMatches(DM dm, const PetscWarpPointwise *pw, PetscBool *match)
{
  PetscInt      Nf, Nds, n[4];
  PetscDS       ds;
  PetscWeakForm wf;
  void (*fn[4])(void);

  PetscFunctionBegin;
  *match = PETSC_FALSE;
  PetscCall(DMGetNumFields(dm, &Nf));
  PetscCall(DMGetNumDS(dm, &Nds));
  if (Nf != pw->nf || Nds != 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetWeakForm(ds, &wf));
  for (PetscInt f = 0; f < Nf; f++) {
    PetscCall(DSResidual(wf, f, n, fn));
    for (int k = 0; k < 2; k++)
      if (!SameSlot(n[k], fn[k], pw->fm[f][k])) PetscFunctionReturn(PETSC_SUCCESS);
    for (PetscInt g = 0; g < Nf; g++) {
      PetscCall(DSJacobian(wf, f, g, n, fn));
      for (int k = 0; k < 4; k++)
        if (!SameSlot(n[k], fn[k], pw->gm[f][g][k])) PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *match = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The registered pointwise functions of dm, or NULL; an inherited registration only where dm's PetscDS holds the
   functions they were compiled from (a clone may solve another problem on the same mesh) */
PetscErrorCode DMPlexWarpPointwiseGet_Private(DM dm, const PetscWarpPointwise **pw)
{
  PointwiseReg *reg;

  PetscFunctionBegin;
  *pw = NULL;
  PetscCall(RegGet(dm, &reg));
  if (!reg || !reg->set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Attach(dm, reg)); /* again, should the DM's methods have been reset since */
  if (reg->inherited) {
    PetscBool match;
    PetscCall(DSMatches(dm, &reg->pw, &match));
    if (!match) {
      PetscCall(PetscInfo(dm, "Pointwise kernels %s inherited but not used: the PetscDS does not hold the functions they were compiled from\n", reg->pw.name ? reg->pw.name : "(unnamed)"));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  *pw = &reg->pw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One kind of pointwise function of the PetscDS against the compiled one: at most one, the same (slot: e.g. "g2 of the
   block (0, 1)") */
static PetscErrorCode CheckSlot(DM dm, const char *slot, PetscInt n, void (*ds)(void), void (*compiled)(void), const char *name)
{
  PetscFunctionBegin;
  PetscCheck(n <= 1, PetscObjectComm((PetscObject)dm), PETSC_ERR_SUP, "The PetscDS has %" PetscInt_FMT " %s functions; the pointwise kernels %s take one", n, slot, name);
  PetscCheck(ds == compiled, PetscObjectComm((PetscObject)dm), PETSC_ERR_ARG_INCOMP, "The PetscDS's %s (%s) is not the %s the pointwise kernels %s were compiled from (%s): give the same functions to PetscDSSetResidual()/PetscDSSetJacobian() and PETSCWARP_POINTWISE() (PETSCWARP_POINTWISE_RESIDUAL(), PETSCWARP_POINTWISE_JACOBIAN())", slot, ds ? "set" : "none", slot, name, compiled ? "set" : "none");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The problem is one the pointwise kernels compute: one field, a PetscFE of at most pw->maxnc components, no auxiliary
   fields, the PetscDS's functions those compiled (natural boundaries: f0_bd and g0_bd only), no Jacobian preconditioner
   (no dynamic Jacobian) */
PetscErrorCode DMPlexWarpPointwiseCheck_Private(DM dm, const PetscWarpPointwise *pw, PetscBool transient)
{
  MPI_Comm      comm = PetscObjectComm((PetscObject)dm);
  const char   *name = pw->name ? pw->name : "(unnamed)";
  PetscDS       ds;
  PetscWeakForm wf;
  PetscInt      Nf, Nds, Nc = 0, naux, nbd, n[4];
  PetscObject   obj;
  PetscClassId  id;
  PetscBool     has;
  void (*fn[4])(void);

  PetscFunctionBegin;
  PetscCall(DMGetNumFields(dm, &Nf));
  PetscCall(DMGetNumDS(dm, &Nds));
  PetscCheck(Nf == pw->nf && Nds == 1, comm, PETSC_ERR_SUP, "The pointwise kernels %s were compiled for %d field%s and one PetscDS, the DM has %" PetscInt_FMT " fields and %" PetscInt_FMT " PetscDS", name, pw->nf, pw->nf > 1 ? "s" : "", Nf, Nds);
  PetscCall(DMGetDS(dm, &ds));
  for (PetscInt f = 0; f < Nf; f++) {
    PetscInt nc;
    PetscCall(PetscDSGetDiscretization(ds, f, &obj));
    PetscCheck(obj, comm, PETSC_ERR_SUP, "The pointwise kernels %s: field %" PetscInt_FMT " has no discretization", name, f);
    PetscCall(PetscObjectGetClassId(obj, &id));
    PetscCheck(id == PETSCFE_CLASSID, comm, PETSC_ERR_SUP, "The pointwise kernels %s support PetscFE fields, field %" PetscInt_FMT " is a %s", name, f, obj->class_name);
    PetscCall(PetscFEGetNumComponents((PetscFE)obj, &nc));
    Nc += nc;
    { /* PETSc's residuals skip explicit fields (IMEX: PetscDSSetImplicit(ds, f, PETSC_FALSE)); the kernels integrate all */
      PetscBool implicit;
      PetscCall(PetscDSGetImplicit(ds, f, &implicit));
      PetscCheck(implicit, comm, PETSC_ERR_SUP, "The pointwise kernels %s: field %" PetscInt_FMT " is explicit (PetscDSSetImplicit()), whose residual PETSc's implicit functions skip; the kernels integrate every field", name, f);
    }
  }
  PetscCheck(Nc <= pw->maxnc, comm, PETSC_ERR_SUP, "The pointwise kernels %s were compiled for at most %d components in all (PETSCWARP_PW_MAXNC), the fields have %" PetscInt_FMT, name, pw->maxnc, Nc);
  PetscCall(DMGetNumAuxiliaryVec(dm, &naux));
  PetscCheck(naux == 0, comm, PETSC_ERR_SUP, "The pointwise kernels %s do not support auxiliary fields (the DM has %" PetscInt_FMT " auxiliary vectors)", name, naux);
  PetscCall(PetscDSGetNumBoundary(ds, &nbd));
  for (PetscInt b = 0; b < nbd; ++b) {
    DMBoundaryConditionType type;
    PetscWeakForm           bwf;
    DMLabel                 label;
    const char             *bname;
    const PetscInt         *values;
    PetscInt                nv, field;

    PetscCall(PetscDSGetBoundary(ds, b, &bwf, &type, &bname, &label, &nv, &values, &field, NULL, NULL, NULL, NULL, NULL));
    if (type & DM_BC_ESSENTIAL) continue;
    PetscCheck(type == DM_BC_NATURAL, comm, PETSC_ERR_SUP, "The pointwise kernels %s: boundary %s is of type %s; they support essential and natural (DM_BC_NATURAL) boundaries", name, bname, DMBoundaryConditionTypes[type]);
    for (PetscInt v = 0; v < nv && bwf; v++) { /* the keys of DMPlexComputeBdResidual_Internal(): (label, value, field, part 0);
                                                  of the boundary Jacobian: (label, value, field, g) for every field g */
      const char *const   tn[4] = {"0", "1", "2", "3"};
      PetscInt            m[2], jn[4];
      PetscBdPointFn    **bf[2];
      PetscBdPointJacFn **cj[4];
      PetscBool           res;
      char                blk[64] = "";

      PetscCall(PetscWeakFormGetBdResidual(bwf, label, values[v], field, 0, &m[0], &bf[0], &m[1], &bf[1]));
      res = (PetscBool)(m[0] || m[1]);
      if (Nf > 1) PetscCall(PetscSNPrintf(blk, sizeof(blk), " of field %" PetscInt_FMT, field));
      for (int k = 0; k < 2; k++) {
        void (*compiled)(void) = pw->fbdm[field][k];
        PetscCheck(m[k] <= 1, comm, PETSC_ERR_SUP, "The natural boundary %s, value %" PetscInt_FMT ", has %" PetscInt_FMT " boundary f%s functions; the pointwise kernels %s take one", bname, values[v], m[k], tn[k], name);
        PetscCheck(!m[k] || compiled, comm, PETSC_ERR_SUP, "The pointwise kernels %s have no boundary residual f%s_bd%s (%s); the natural boundary %s, value %" PetscInt_FMT ", has a boundary f%s", name, tn[k], blk,
                   Nf > 1 ? "PETSCWARP_POINTWISE_BOUNDARY_RESIDUAL()"
                   : k    ? "PETSCWARP_POINTWISE_BD_ALL()"
                          : "PETSCWARP_POINTWISE_BD()",
                   bname, values[v], tn[k]);
        PetscCheck(!m[k] || (void (*)(void))bf[k][0] == compiled, comm, PETSC_ERR_ARG_INCOMP, "The boundary f%s of the natural boundary %s, value %" PetscInt_FMT ", is not the f%s_bd%s the pointwise kernels %s were compiled from: give the same function to PetscWeakFormSetIndexBdResidual() and the kernels' macro", tn[k], bname, values[v], tn[k], blk, name);
        PetscCheck(!res || !compiled || m[k], comm, PETSC_ERR_ARG_INCOMP, "The natural boundary %s, value %" PetscInt_FMT ", has no boundary f%s, but the pointwise kernels %s were compiled with f%s_bd%s", bname, values[v], tn[k], name, tn[k], blk);
      }
      for (PetscInt g = 0; g < Nf; g++) {
        if (Nf > 1) PetscCall(PetscSNPrintf(blk, sizeof(blk), " of the block (%" PetscInt_FMT ", %" PetscInt_FMT ")", field, g));
        PetscCall(PetscWeakFormGetBdJacobian(bwf, label, values[v], field, g, 0, &jn[0], &cj[0], &jn[1], &cj[1], &jn[2], &cj[2], &jn[3], &cj[3]));
        for (int k = 0; k < 4; k++) {
          void (*compiled)(void) = pw->gbdm[field][g][k];
          PetscCheck(jn[k] <= 1, comm, PETSC_ERR_SUP, "The natural boundary %s, value %" PetscInt_FMT ", has %" PetscInt_FMT " boundary g%s functions%s; the pointwise kernels %s take one", bname, values[v], jn[k], tn[k], blk, name);
          PetscCheck(!jn[k] || compiled, comm, PETSC_ERR_SUP, "The pointwise kernels %s have no boundary Jacobian g%s_bd%s (%s); the natural boundary %s, value %" PetscInt_FMT ", has a boundary g%s", name, tn[k], blk,
                     Nf > 1 ? "PETSCWARP_POINTWISE_BOUNDARY_JACOBIAN()"
                     : k    ? "PETSCWARP_POINTWISE_BD_ALL()"
                            : "PETSCWARP_POINTWISE_BD_JACOBIAN()",
                     bname, values[v], tn[k]);
          PetscCheck(!jn[k] || res, comm, PETSC_ERR_SUP, "The natural boundary %s, value %" PetscInt_FMT ", has a boundary g%s%s and no boundary residual: the pointwise kernels %s compute the boundary Jacobian on the faces of f0_bd and f1_bd", bname, values[v], tn[k], blk, name);
          PetscCheck(!res || !compiled || (jn[k] && (void (*)(void))cj[k][0] == compiled), comm, PETSC_ERR_ARG_INCOMP, "The boundary g%s%s of the natural boundary %s, value %" PetscInt_FMT ", is %s, not the g%s_bd the pointwise kernels %s were compiled from: give the same function to PetscWeakFormSetIndexBdJacobian() and the kernels' macro", tn[k], blk, bname, values[v], jn[k] ? "another function" : "absent", tn[k], name);
        }
        PetscCall(PetscWeakFormGetBdJacobianPreconditioner(bwf, label, values[v], field, g, 0, &jn[0], &cj[0], &jn[1], &cj[1], &jn[2], &cj[2], &jn[3], &cj[3]));
        PetscCheck(!(jn[0] || jn[1] || jn[2] || jn[3]), comm, PETSC_ERR_SUP, "The natural boundary %s, value %" PetscInt_FMT ", has a boundary Jacobian preconditioner%s, which the pointwise kernels %s do not compute", bname, values[v], blk, name);
      }
    }
  }
  PetscCall(PetscDSHasJacobianPreconditioner(ds, &has));
  PetscCheck(!has, comm, PETSC_ERR_SUP, "The pointwise kernels %s: the PetscDS has a separate Jacobian preconditioner, which they do not compute", name);
  if (transient) {
    PetscCall(PetscDSHasDynamicJacobian(ds, &has));
    PetscCheck(!has, comm, PETSC_ERR_SUP, "The pointwise kernels %s: the PetscDS has a dynamic Jacobian (PetscDSSetDynamicJacobian()), which they do not compute", name);
  }
  PetscCall(PetscDSGetWeakForm(ds, &wf));
  for (PetscInt f = 0; f < Nf; f++) {
    char slot[64];
    PetscCall(DSResidual(wf, f, n, fn));
    for (int k = 0; k < 2; k++) {
      if (Nf > 1) PetscCall(PetscSNPrintf(slot, sizeof(slot), "f%d of field %" PetscInt_FMT, k, f));
      else PetscCall(PetscSNPrintf(slot, sizeof(slot), "f%d", k));
      PetscCall(CheckSlot(dm, slot, n[k], fn[k], pw->fm[f][k], name));
    }
    for (PetscInt g = 0; g < Nf; g++) {
      PetscCall(DSJacobian(wf, f, g, n, fn));
      for (int k = 0; k < 4; k++) {
        if (Nf > 1) PetscCall(PetscSNPrintf(slot, sizeof(slot), "g%d of the block (%" PetscInt_FMT ", %" PetscInt_FMT ")", k, f, g));
        else PetscCall(PetscSNPrintf(slot, sizeof(slot), "g%d", k));
        PetscCall(CheckSlot(dm, slot, n[k], fn[k], pw->gm[f][g][k], name));
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The assembler of the pointwise kernels: the element of any number of components, and the values of the coordinate
   basis at the field's quadrature points (for the points x) */
PetscErrorCode DMPlexWarpPointwiseAsmCreate_Private(DM dm, PetscWarpAsm *wa)
{
  PetscDS          ds;
  PetscFE          fe, cfe;
  PetscQuadrature  quad;
  PetscTabulation  Tc;
  DMPolytopeType   ct = DM_POLYTOPE_UNKNOWN;
  const PetscReal *qpts;
  PetscReal       *Bc;
  PetscInt         dim, Nq, Nbc, cStart, cEnd, ncv;
  MPI_Comm         comm = PetscObjectComm((PetscObject)dm);

  PetscFunctionBegin;
  PetscCall(DMPlexWarpAsmCreate_Private(dm, DMPLEXWARP_PHYSICS_ANY, wa)); /* checks the element, cells and coordinates */
  PetscCall(DMGetDimension(dm, &dim));
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetDiscretization(ds, 0, (PetscObject *)&fe));
  PetscCall(PetscFEGetQuadrature(fe, &quad));
  PetscCall(PetscQuadratureGetData(quad, NULL, NULL, &Nq, &qpts, NULL));
  PetscCall(DMPlexGetHeightStratum(dm, 0, &cStart, &cEnd));
  { /* the cell type, the same on every rank (a rank without cells takes the others') */
    PetscInt mine = -1, all;
    if (cEnd > cStart) {
      PetscCall(DMPlexGetCellType(dm, cStart, &ct));
      mine = (PetscInt)ct;
    }
    PetscCallMPI(MPIU_Allreduce(&mine, &all, 1, MPIU_INT, MPI_MAX, comm));
    PetscCheck(all >= 0, comm, PETSC_ERR_ARG_WRONG, "The mesh has no cells on any rank: nothing for the pointwise kernels");
    ct = (DMPolytopeType)all;
  }
  ncv = DMPolytopeTypeGetNumVertices(ct);
  PetscCall(DMPlexWarpCoordinateFE_Private(dm, ct, &cfe));
  PetscCall(PetscFEGetDimension(cfe, &Nbc));
  PetscCheck(Nbc == ncv * dim, comm, PETSC_ERR_SUP, "The pointwise kernels need P1/Q1 coordinates");
  PetscCall(PetscFECreateTabulation(cfe, 1, Nq, qpts, 0, &Tc));
  PetscCall(PetscMalloc1(Nq * ncv, &Bc));
  for (PetscInt q = 0; q < Nq; ++q) /* function k*dim is psi_k in component 0 (checked interlaced by DMPlexWarpAsmGetData_Private()) */
    for (PetscInt k = 0; k < ncv; ++k) Bc[q * ncv + k] = Tc->T[0][(q * Nbc + k * dim) * dim];
  PetscCall(PetscWarpAsmPointwiseSetCoordinateBasis_Private(*wa, Bc));
  PetscCall(PetscFree(Bc));
  { /* several fields: each field's basis (one field: the assembler's reference) */
    PetscInt   nf, fnb[PETSCWARP_PW_MAXNF], fnc[PETSCWARP_PW_MAXNF];
    PetscReal *fB[PETSCWARP_PW_MAXNF], *fD[PETSCWARP_PW_MAXNF];

    PetscCall(PetscDSGetNumFields(ds, &nf));
    if (nf > 1) {
      PetscCall(DMPlexWarpFieldTabulations_Private(dm, &nf, fnb, fnc, fB, fD));
      PetscErrorCode ierr = PetscWarpAsmPointwiseSetFields_Private(*wa, nf, fnb, fnc, (const PetscReal *const *)fB, (const PetscReal *const *)fD);
      for (PetscInt f = 0; f < nf; f++) PetscCall(PetscFree2(fB[f], fD[f]));
      PetscCall(ierr);
    }
  }
  PetscCall(PetscTabulationDestroy(&Tc));
  PetscCall(PetscFEDestroy(&cfe));
  {
    const PetscWarpPointwise *pw = NULL;
    PetscCall(DMPlexWarpPointwiseGet_Private(dm, &pw));
    if (pw && PetscWarpPointwiseHasBoundaryResidual_Private(pw)) PetscCall(DMPlexWarpPointwiseSetBoundary_Private(dm, *wa)); /* the natural boundaries' faces */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The PetscDS's constants, read at every call (PetscDSSetConstants() may change them between solves) */
static PetscErrorCode Constants(DM dm, PetscInt *n, const PetscScalar **c)
{
  PetscDS ds;

  PetscFunctionBegin;
  PetscCall(DMGetDS(dm, &ds));
  PetscCall(PetscDSGetConstants(ds, n, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Jp (and J, unless it is Jp or a MATMFFD) at the local state locX (locX_t), time t and shift */
PetscErrorCode DMPlexWarpPointwiseJacobian_Private(DM dm, DMPlexWarpHook *h, PetscReal t, PetscReal shift, Vec locX, Vec locX_t, Mat J, Mat Jp, PetscBool mffd)
{
  PetscInt           n;
  const PetscScalar *c;

  PetscFunctionBegin;
  PetscCheck(locX, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The pointwise Jacobian needs the local state");
  PetscCall(Constants(dm, &n, &c));
  PetscCall(PetscWarpAsmPointwiseJacobian_Private(h->wa, &h->pw, n, c, t, shift, locX, locX_t, Jp));
  if (J != Jp && !mffd) PetscCall(PetscWarpAsmPointwiseJacobian_Private(h->wa, &h->pw, n, c, t, shift, locX, locX_t, J));
  if (!h->pwinfo[0]) {
    PetscBool jd, rd;
    PetscCall(PetscWarpAsmPointwiseGetDevice_Private(h->wa, &jd, &rd));
    PetscCall(PetscInfo(dm, "Jacobian by the pointwise kernels %s: element matrices %s\n", h->pw.name, jd ? "on the device" : "by the host twin"));
    h->pwinfo[0] = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* locF += the residual at locX (locX_t) and time t */
PetscErrorCode DMPlexWarpPointwiseResidual_Private(DM dm, DMPlexWarpHook *h, PetscReal t, Vec locX, Vec locX_t, Vec locF)
{
  PetscInt           n;
  const PetscScalar *c;

  PetscFunctionBegin;
  PetscCall(Constants(dm, &n, &c));
  PetscCall(PetscWarpAsmPointwiseResidual_Private(h->wa, &h->pw, n, c, t, locX, locX_t, locF));
  if (!h->pwinfo[1]) {
    PetscBool jd, rd;
    PetscCall(PetscWarpAsmPointwiseGetDevice_Private(h->wa, &jd, &rd));
    PetscCall(PetscInfo(dm, "Residual by the pointwise kernels %s: element vectors %s\n", h->pw.name, rd ? "on the device" : "by the host twin"));
    h->pwinfo[1] = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpGetPointwiseCount - Gets how many Jacobians and residuals the element kernels of the registered pointwise
  functions computed

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`, with `DMPlexWarpSetPointwise()` and a hook (`DMPlexWarpSetSNESLocalFEM()` ...) set

  Output Parameters:
+ njac - Jacobians (calls of the hook's Jacobian) computed by them, or `NULL`
- nres - residuals computed by them, or `NULL`

  Level: intermediate

.seealso: `DMPlexWarpSetPointwise()`, `DMPlexWarpGetResidualCount()`
@*/
PetscErrorCode DMPlexWarpGetPointwiseCount(DM dm, PetscInt *njac, PetscInt *nres)
{
  DMPlexWarpHook *h;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookGet_Private(dm, &h));
  if (njac) *njac = h->pointwise ? h->ndevice : 0;
  if (nres) *nres = h->pointwise ? h->nrwarp : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  DMPlexWarpGetPointwiseDevice - Gets whether the last Jacobian and the last residual of the registered pointwise
  functions ran on the device (else the host twins of the kernels ran)

  Not Collective

  Input Parameter:
. dm - the `DMPLEX`, with `DMPlexWarpSetPointwise()` and a hook (`DMPlexWarpSetSNESLocalFEM()` ...) set

  Output Parameters:
+ jac - the last Jacobian's element matrices were computed on the device, or `NULL`
- res - the last residual's element vectors were computed on the device, or `NULL`

  Level: intermediate

  Note:
  The device runs when PETSc has CUDA, a device is present, the kernels were compiled by nvcc, and the matrix (for the
  Jacobian) or the vectors (for the residual) live on the device; `-info` says the same once per hook.

.seealso: `DMPlexWarpSetPointwise()`, `DMPlexWarpGetPointwiseCount()`
@*/
PetscErrorCode DMPlexWarpGetPointwiseDevice(DM dm, PetscBool *jac, PetscBool *res)
{
  DMPlexWarpHook *h;
  PetscBool       jd = PETSC_FALSE, rd = PETSC_FALSE;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(dm, DM_CLASSID, 1);
  PetscCall(DMPlexWarpHookGet_Private(dm, &h));
  if (h->pointwise && h->wa) PetscCall(PetscWarpAsmPointwiseGetDevice_Private(h->wa, &jd, &rd));
  if (jac) *jac = jd;
  if (res) *res = rd;
  PetscFunctionReturn(PETSC_SUCCESS);
}
