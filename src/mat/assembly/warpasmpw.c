/*
  PetscWarpAsm with user pointwise functions: the element kernels compiled in the user's file (petscwarp/pointwise.cuh,
  a PetscWarpPointwise) run on the reference element, mesh and element->local map of the assembler, on the device when
  the state is there (else their host twins), and their element matrices / vectors are reduced by the assembler
  (PetscWarpAsmAssembleElementMatrices(), the scatter of src/kernels/warpasm_res*).
*/
#include <petscwarp/private/warpasmimpl.h>
#include <petscwarp/private/warpasmreskernels.h>
#include <petscwarp/private/warpasmpw.h>
#include <petscdevice.h>
#if PetscDefined(HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

struct _n_PetscWarpAsmPW {
  PetscReal   *Bc;             /* [nq*ncv] coordinate basis values */
  double      *d_Bc;           /* device copy */
  PetscScalar *h_out;          /* host element matrices or vectors */
  size_t       nh;             /* their capacity */
  double      *d_out;          /* device ones */
  size_t       nd;             /* their capacity */
  PetscScalar *h_const;        /* the constants last uploaded */
  double      *d_const;        /* device copy */
  PetscInt     nconst, cconst; /* constants uploaded; capacity of d_const */
  PetscBool    jacdev, resdev; /* the last Jacobian / residual ran on the device */
  PetscBool    uploadinfo;     /* -info said once that host element matrices were uploaded */
  /* the natural boundary faces of f0_bd and g0_bd (PetscWarpAsmPointwiseSetBoundary_Private()) */
  PetscInt     nbf, nbq, nbtab, nbc;                    /* faces, points per face, tabulated face points, cells with faces */
  PetscReal   *bB, *bD, *bw, *bx, *bn, *bJ;             /* host arrays (PetscWarpPointwiseBdData) */
  int         *bfcell, *btab, *bboff, *bbface;          /* host arrays; bboff[nbc+1], bbface[nbf]: the faces grouped by cell */
  double      *d_bB, *d_bD, *d_bw, *d_bx, *d_bn, *d_bJ; /* device copies, made at the first device residual or Jacobian */
  int         *d_bfcell, *d_btab, *d_bboff, *d_bbface;
  PetscScalar *bG;   /* the boundary Jacobian's workspace (nbf*nbq*gstride), made at its first use */
  double      *d_bG; /* device one */
  /* several fields: each field's cell basis at the tabulated face points and each face's field (bnf = 0: one field) */
  PetscInt   bnf;
  PetscReal *bfB[PETSCWARP_PW_MAXNF], *bfD[PETSCWARP_PW_MAXNF];
  int       *bffield;
  double    *d_bfB[PETSCWARP_PW_MAXNF], *d_bfD[PETSCWARP_PW_MAXNF];
  int       *d_bffield;
  /* several fields (PetscWarpAsmPointwiseSetFields_Private()); nf = 0: the assembler's one field */
  PetscInt   nf, fnb[PETSCWARP_PW_MAXNF], fnc[PETSCWARP_PW_MAXNF];
  PetscReal *fB[PETSCWARP_PW_MAXNF], *fD[PETSCWARP_PW_MAXNF]; /* [nq*fnb[f]], [nq*fnb[f]*dim] */
  double    *d_fB[PETSCWARP_PW_MAXNF], *d_fD[PETSCWARP_PW_MAXNF];
};

/* The boundary faces' arrays (host and device) */
static PetscErrorCode BoundaryFree(struct _n_PetscWarpAsmPW *p)
{
  PetscFunctionBegin;
  PetscCall(PetscFree6(p->bB, p->bD, p->bw, p->bx, p->bn, p->bJ));
  PetscCall(PetscFree4(p->bfcell, p->btab, p->bboff, p->bbface));
  PetscCall(PetscFree(p->bG));
  for (PetscInt f = 0; f < p->bnf; f++) PetscCall(PetscFree2(p->bfB[f], p->bfD[f]));
  PetscCall(PetscFree(p->bffield));
#if PetscDefined(HAVE_CUDA)
  {
    void *d[11] = {p->d_bB, p->d_bD, p->d_bw, p->d_bx, p->d_bn, p->d_bJ, p->d_bfcell, p->d_btab, p->d_bboff, p->d_bbface, p->d_bG};
    for (int i = 0; i < 11; i++)
      if (d[i]) PetscCallCUDA(cudaFree(d[i]));
    for (PetscInt f = 0; f < p->bnf; f++) {
      if (p->d_bfB[f]) PetscCallCUDA(cudaFree(p->d_bfB[f]));
      if (p->d_bfD[f]) PetscCallCUDA(cudaFree(p->d_bfD[f]));
      p->d_bfB[f] = p->d_bfD[f] = NULL;
    }
    if (p->d_bffield) PetscCallCUDA(cudaFree(p->d_bffield));
    p->d_bffield = NULL;
  }
#endif
  p->bnf  = 0;
  p->d_bB = p->d_bD = p->d_bw = p->d_bx = p->d_bn = p->d_bJ = p->d_bG = NULL;
  p->d_bfcell = p->d_btab = p->d_bboff = p->d_bbface = NULL;
  p->nbf = p->nbq = p->nbtab = p->nbc = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element buffers and constants (host and device) and the device copy of the coordinate basis; the basis stays */
PetscErrorCode PetscWarpAsmPointwiseFreeBuffers_Private(PetscWarpAsm a)
{
  struct _n_PetscWarpAsmPW *p = a->pw;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(p->h_out));
  PetscCall(PetscFree(p->h_const));
  p->nh = 0;
#if PetscDefined(HAVE_CUDA)
  for (PetscInt f = 0; f < p->nf; f++) {
    if (p->d_fB[f]) PetscCallCUDA(cudaFree(p->d_fB[f]));
    if (p->d_fD[f]) PetscCallCUDA(cudaFree(p->d_fD[f]));
    p->d_fB[f] = p->d_fD[f] = NULL;
  }
  if (p->d_Bc) PetscCallCUDA(cudaFree(p->d_Bc));
  if (p->d_out) PetscCallCUDA(cudaFree(p->d_out));
  if (p->d_const) PetscCallCUDA(cudaFree(p->d_const));
#endif
  p->d_Bc    = NULL;
  p->d_out   = NULL;
  p->d_const = NULL;
  p->nd      = 0;
  p->nconst  = 0;
  p->cconst  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseReset_Private(PetscWarpAsm a)
{
  PetscFunctionBegin;
  if (!a->pw) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscWarpAsmPointwiseFreeBuffers_Private(a));
  PetscCall(BoundaryFree(a->pw));
  for (PetscInt f = 0; f < a->pw->nf; f++) PetscCall(PetscFree2(a->pw->fB[f], a->pw->fD[f]));
  PetscCall(PetscFree(a->pw->Bc));
  PetscCall(PetscFree(a->pw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseSetCoordinateBasis_Private(PetscWarpAsm a, const PetscReal Bc[])
{
  PetscFunctionBegin;
  PetscCheck(a->nq > 0 && a->ncv > 0, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the mesh and the reference element before the coordinate basis");
  PetscCall(PetscWarpAsmPointwiseReset_Private(a));
  PetscCall(PetscNew(&a->pw));
  PetscCall(PetscMalloc1(a->nq * a->ncv, &a->pw->Bc));
  PetscCall(PetscArraycpy(a->pw->Bc, Bc, a->nq * a->ncv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseSetFields_Private(PetscWarpAsm a, PetscInt nf, const PetscInt fnb[], const PetscInt fnc[], const PetscReal *const fB[], const PetscReal *const fD[])
{
  struct _n_PetscWarpAsmPW *p   = a->pw;
  PetscInt                  nel = 0;

  PetscFunctionBegin;
  PetscCheck(p, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the coordinate basis of the pointwise kernels before their fields");
  PetscCheck(nf >= 1 && nf <= PETSCWARP_PW_MAXNF, PetscObjectComm((PetscObject)a), PETSC_ERR_SUP, "The pointwise kernels support 1 to %d fields (PETSCWARP_PW_MAXNF), not %" PetscInt_FMT, PETSCWARP_PW_MAXNF, nf);
  for (PetscInt f = 0; f < nf; f++) nel += fnb[f] * fnc[f];
  PetscCheck(nel == a->nel, PetscObjectComm((PetscObject)a), PETSC_ERR_ARG_INCOMP, "The fields have %" PetscInt_FMT " dofs per cell, the elements %" PetscInt_FMT, nel, a->nel);
  PetscCall(PetscWarpAsmPointwiseFreeBuffers_Private(a)); /* the device copies of the previous fields */
  for (PetscInt f = 0; f < p->nf; f++) PetscCall(PetscFree2(p->fB[f], p->fD[f]));
  p->nf = 0; /* until every field is copied */
  for (PetscInt f = 0; f < nf; f++) {
    p->fnb[f] = fnb[f];
    p->fnc[f] = fnc[f];
    PetscCall(PetscMalloc2(a->nq * fnb[f], &p->fB[f], a->nq * fnb[f] * a->dim, &p->fD[f]));
    PetscCall(PetscArraycpy(p->fB[f], fB[f], a->nq * fnb[f]));
    PetscCall(PetscArraycpy(p->fD[f], fD[f], a->nq * fnb[f] * a->dim));
    p->nf = f + 1; /* freed by the reset should a later field fail */
  }
  p->nf = nf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseSetBoundary_Private(PetscWarpAsm a, PetscInt nf, PetscInt nq, PetscInt ntab, const PetscReal B[], const PetscReal D[], const PetscInt fcell[], const PetscInt tab[], const PetscReal w[], const PetscReal x[], const PetscReal n[], const PetscReal invJ[])
{
  struct _n_PetscWarpAsmPW *p   = a->pw;
  const PetscInt            dim = a->dim, nb = a->nb, np = nf * nq;

  PetscFunctionBegin;
  PetscCheck(p, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the coordinate basis of the pointwise kernels before their boundary faces");
  PetscCall(BoundaryFree(p));
  if (!nf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(nq > 0 && ntab > 0 && np * nb * dim <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%" PetscInt_FMT " boundary faces of %" PetscInt_FMT " points: out of range", nf, nq);
  PetscCall(PetscMalloc6(ntab * nb, &p->bB, ntab * nb * dim, &p->bD, np, &p->bw, np * dim, &p->bx, np * dim, &p->bn, np * dim * dim, &p->bJ));
  PetscCall(PetscMalloc4(nf, &p->bfcell, np, &p->btab, nf + 1, &p->bboff, nf, &p->bbface));
  PetscCall(PetscArraycpy(p->bB, B, ntab * nb));
  PetscCall(PetscArraycpy(p->bD, D, ntab * nb * dim));
  PetscCall(PetscArraycpy(p->bw, w, np));
  PetscCall(PetscArraycpy(p->bx, x, np * dim));
  PetscCall(PetscArraycpy(p->bn, n, np * dim));
  PetscCall(PetscArraycpy(p->bJ, invJ, np * dim * dim));
  for (PetscInt f = 0; f < nf; f++) {
    PetscCheck(fcell[f] >= 0 && fcell[f] < a->ncells, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Boundary face %" PetscInt_FMT ": cell %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", f, fcell[f], a->ncells);
    p->bfcell[f] = (int)fcell[f];
  }
  for (PetscInt k = 0; k < np; k++) {
    PetscCheck(tab[k] >= 0 && tab[k] < ntab, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Boundary point %" PetscInt_FMT ": tabulated point %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", k, tab[k], ntab);
    p->btab[k] = (int)tab[k];
  }
  { /* the faces grouped by cell, of a cell in increasing order (a counting sort): the boundary Jacobian's entries */
    PetscInt *start;
    PetscCall(PetscCalloc1(a->ncells + 1, &start));
    for (PetscInt f = 0; f < nf; f++) start[fcell[f] + 1]++;
    for (PetscInt c = 0; c < a->ncells; c++) start[c + 1] += start[c];
    p->bboff[0] = 0;
    for (PetscInt c = 0; c < a->ncells; c++)
      if (start[c + 1] > start[c]) p->bboff[++p->nbc] = (int)start[c + 1];
    for (PetscInt f = 0; f < nf; f++) p->bbface[start[fcell[f]]++] = (int)f;
    PetscCall(PetscFree(start));
  }
  p->nbf   = nf;
  p->nbq   = nq;
  p->nbtab = ntab;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseSetBoundaryFields_Private(PetscWarpAsm a, PetscInt nf, const PetscReal *const fB[], const PetscReal *const fD[], const PetscInt ffield[])
{
  struct _n_PetscWarpAsmPW *p = a->pw;

  PetscFunctionBegin;
  PetscCheck(p && p->nf == nf && nf > 1, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the fields and the boundary faces of the pointwise kernels before the faces' fields");
  if (!p->nbf) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(p->nbf, &p->bffield));
  for (PetscInt f = 0; f < p->nbf; f++) {
    PetscCheck(ffield[f] >= 0 && ffield[f] < nf, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Boundary face %" PetscInt_FMT ": field %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", f, ffield[f], nf);
    p->bffield[f] = (int)ffield[f];
  }
  for (PetscInt f = 0; f < nf; f++) {
    PetscCall(PetscMalloc2(p->nbtab * p->fnb[f], &p->bfB[f], p->nbtab * p->fnb[f] * a->dim, &p->bfD[f]));
    p->bnf = f + 1; /* freed by BoundaryFree() should a later field fail */
    PetscCall(PetscArraycpy(p->bfB[f], fB[f], p->nbtab * p->fnb[f]));
    PetscCall(PetscArraycpy(p->bfD[f], fD[f], p->nbtab * p->fnb[f] * a->dim));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The boundary kernels' data for the backend (the faces' arrays in its memory, uploaded at the first device use) and the
   cell kernels' state, constants and stream d */
static PetscErrorCode BdDescribe(PetscWarpAsm a, PetscBool device, const PetscWarpPointwiseData *d, PetscWarpPointwiseBdData *b)
{
  struct _n_PetscWarpAsmPW *p = a->pw;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  b->nfaces       = (int)p->nbf;
  b->dim          = (int)a->dim;
  b->nb           = (int)a->nb;
  b->nc           = (int)a->nc;
  b->nq           = (int)p->nbq;
  b->nbcells      = (int)p->nbc;
  b->l2d          = d->l2d;
  b->u            = d->u;
  b->u_t          = d->u_t;
  b->t            = d->t;
  b->u_tShift     = d->u_tShift;
  b->numConstants = d->numConstants;
  b->constants    = d->constants;
  b->stream       = d->stream;
  b->nf           = d->nf;
  for (int f = 0; f < d->nf; f++) {
    b->fnb[f] = d->fnb[f];
    b->fnc[f] = d->fnc[f];
  }
  if (!device) {
    b->fB[0] = p->bB;
    b->fD[0] = p->bD;
    for (PetscInt f = 0; f < p->bnf; f++) {
      b->fB[f] = p->bfB[f];
      b->fD[f] = p->bfD[f];
    }
    b->ffield = p->bffield;
    b->B      = p->bB;
    b->D      = p->bD;
    b->fcell  = p->bfcell;
    b->tab    = p->btab;
    b->w      = p->bw;
    b->x      = p->bx;
    b->n      = p->bn;
    b->invJ   = p->bJ;
    b->boff   = p->bboff;
    b->bface  = p->bbface;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(HAVE_CUDA)
  {
    const size_t np = (size_t)p->nbf * p->nbq, dim = (size_t)a->dim;
    if (!p->d_bB) {
      PetscCall(PetscWarpAsmUpload_Private(p->bB, (size_t)p->nbtab * a->nb, sizeof(double), (void **)&p->d_bB));
      PetscCall(PetscWarpAsmUpload_Private(p->bD, (size_t)p->nbtab * a->nb * dim, sizeof(double), (void **)&p->d_bD));
      PetscCall(PetscWarpAsmUpload_Private(p->bw, np, sizeof(double), (void **)&p->d_bw));
      PetscCall(PetscWarpAsmUpload_Private(p->bx, np * dim, sizeof(double), (void **)&p->d_bx));
      PetscCall(PetscWarpAsmUpload_Private(p->bn, np * dim, sizeof(double), (void **)&p->d_bn));
      PetscCall(PetscWarpAsmUpload_Private(p->bJ, np * dim * dim, sizeof(double), (void **)&p->d_bJ));
      PetscCall(PetscWarpAsmUpload_Private(p->bfcell, (size_t)p->nbf, sizeof(int), (void **)&p->d_bfcell));
      PetscCall(PetscWarpAsmUpload_Private(p->btab, np, sizeof(int), (void **)&p->d_btab));
      PetscCall(PetscWarpAsmUpload_Private(p->bboff, (size_t)p->nbc + 1, sizeof(int), (void **)&p->d_bboff));
      PetscCall(PetscWarpAsmUpload_Private(p->bbface, (size_t)p->nbf, sizeof(int), (void **)&p->d_bbface));
    }
    for (PetscInt f = 0; f < p->bnf; f++) {
      if (!p->d_bfB[f]) PetscCall(PetscWarpAsmUpload_Private(p->bfB[f], (size_t)p->nbtab * p->fnb[f], sizeof(double), (void **)&p->d_bfB[f]));
      if (!p->d_bfD[f]) PetscCall(PetscWarpAsmUpload_Private(p->bfD[f], (size_t)p->nbtab * p->fnb[f] * dim, sizeof(double), (void **)&p->d_bfD[f]));
    }
    if (p->bnf && !p->d_bffield) PetscCall(PetscWarpAsmUpload_Private(p->bffield, (size_t)p->nbf, sizeof(int), (void **)&p->d_bffield));
    b->fB[0] = p->d_bB;
    b->fD[0] = p->d_bD;
    for (PetscInt f = 0; f < p->bnf; f++) {
      b->fB[f] = p->d_bfB[f];
      b->fD[f] = p->d_bfD[f];
    }
    b->ffield = p->bnf ? p->d_bffield : NULL;
    b->B      = p->d_bB;
    b->D      = p->d_bD;
    b->fcell  = p->d_bfcell;
    b->tab    = p->d_btab;
    b->w      = p->d_bw;
    b->x      = p->d_bx;
    b->n      = p->d_bn;
    b->invJ   = p->d_bJ;
    b->boff   = p->d_bboff;
    b->bface  = p->d_bbface;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool PetscWarpPointwiseHasBoundaryResidual_Private(const PetscWarpPointwise *pw)
{
  for (int f = 0; f < pw->nf && f < PETSCWARP_PW_MAXNF; f++)
    if (pw->fbdm[f][0] || pw->fbdm[f][1]) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Work of the boundary points: the state and its gradient at each point, every field's (and extra flops per point) */
static PetscLogDouble BdFlops(PetscWarpAsm a, PetscLogDouble extra)
{
  const struct _n_PetscWarpAsmPW *p     = a->pw;
  PetscLogDouble                  state = 0.0;

  if (p->nf)
    for (PetscInt f = 0; f < p->nf; f++) state += p->fnb[f] * (2.0 * p->fnc[f] * (1 + a->dim) + 2.0 * a->dim * a->dim);
  else state = a->nb * (2.0 * a->nc * (1 + a->dim) + 2.0 * a->dim * a->dim);
  return (PetscLogDouble)p->nbf * p->nbq * (state + extra);
}

/* f += the boundary terms of f0_bd and f1_bd (host arrays, or device arrays on the stream of d) */
static PetscErrorCode BoundaryResidual(PetscWarpAsm a, const PetscWarpPointwise *pw, PetscBool device, const PetscWarpPointwiseData *d, PetscScalar *f)
{
  struct _n_PetscWarpAsmPW *p = a->pw;
  PetscWarpPointwiseBdData  b;
  int                       err;

  PetscFunctionBegin;
  if (!p->nbf || !PetscWarpPointwiseHasBoundaryResidual_Private(pw)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BdDescribe(a, device, d, &b));
  b.f = f;
  if (!device) {
    err = pw->bdresidual_host(&b);
    PetscCheck(err == 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The host boundary kernel of the pointwise functions %s failed (%d): unsupported sizes", pw->name, err);
    PetscCall(PetscLogFlops(BdFlops(a, 2.0 * a->nel)));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    PetscCheck(pw->bdresidual_device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The pointwise functions %s have a device residual and no device boundary kernel", pw->name);
    PetscCallCUDA((cudaError_t)pw->bdresidual_device(&b));
    PetscCall(PetscLogGpuFlops(BdFlops(a, 2.0 * a->nel)));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Doubles per face point of the present boundary Jacobian terms g0_bd, g1_bd, g2_bd, g3_bd (PetscWarpPointwiseBdData.gstride):
   for a face of field h those of the blocks (h, 0), (h, 1), ...; the most over h (the kernels' BdPointDoubles()) */
static int BdStride(PetscWarpAsm a, const PetscWarpPointwise *pw)
{
  const struct _n_PetscWarpAsmPW *p  = a->pw;
  const int                       nf = p->nf ? (int)p->nf : 1, dim = (int)a->dim;
  int                             most = 0;

  for (int h = 0; h < nf; h++) {
    int n = 0;
    for (int g = 0; g < nf; g++) {
      const int nn = (int)((p->nf ? p->fnc[h] : a->nc) * (p->nf ? p->fnc[g] : a->nc));
      n += (pw->gbdm[h][g][0] ? nn : 0) + (pw->gbdm[h][g][1] ? nn * dim : 0) + (pw->gbdm[h][g][2] ? nn * dim : 0) + (pw->gbdm[h][g][3] ? nn * dim * dim : 0);
    }
    most = PetscMax(most, n);
  }
  return most;
}

/* E += the boundary terms of g0_bd ... g3_bd in the element matrices of the faces' cells (host arrays, or device arrays
   on the stream of d): folded into the cells' element matrices, they go through the same reduction */
static PetscErrorCode BoundaryJacobian(PetscWarpAsm a, const PetscWarpPointwise *pw, PetscBool device, const PetscWarpPointwiseData *d, PetscScalar *E)
{
  struct _n_PetscWarpAsmPW *p  = a->pw;
  const int                 gs = BdStride(a, pw);
  const size_t              nG = (size_t)p->nbf * p->nbq * gs;
  const PetscLogDouble      fl = BdFlops(a, (PetscLogDouble)gs + 3.0 * (1 + a->dim * a->dim) * a->nel * a->nel);
  PetscWarpPointwiseBdData  b;
  int                       err;

  PetscFunctionBegin;
  if (!p->nbf || !gs) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BdDescribe(a, device, d, &b));
  b.E       = E;
  b.gstride = gs;
  if (!device) {
    if (!p->bG) PetscCall(PetscMalloc1(nG, &p->bG));
    b.G = p->bG;
    err = pw->bdjacobian_host(&b);
    PetscCheck(err == 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The host boundary Jacobian kernel of the pointwise functions %s failed (%d): unsupported sizes", pw->name, err);
    PetscCall(PetscLogFlops(fl));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    PetscCheck(pw->bdjacobian_device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The pointwise functions %s have a device Jacobian and no device boundary Jacobian kernel", pw->name);
    if (!p->d_bG) PetscCallCUDA(cudaMalloc((void **)&p->d_bG, sizeof(double) * nG));
    b.G = p->d_bG;
    PetscCallCUDA((cudaError_t)pw->bdjacobian_device(&b));
    PetscCall(PetscLogGpuFlops(fl));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseGetDevice_Private(PetscWarpAsm a, PetscBool *jac, PetscBool *res)
{
  PetscFunctionBegin;
  *jac = a->pw ? a->pw->jacdev : PETSC_FALSE;
  *res = a->pw ? a->pw->resdev : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element buffer of n entries in the memory of the backend, grown when needed */
static PetscErrorCode GetOut(PetscWarpAsm a, PetscBool device, size_t n, PetscScalar **out)
{
  struct _n_PetscWarpAsmPW *p = a->pw;

  PetscFunctionBegin;
  n = PetscMax(n, 1);
  if (!device) {
    if (p->nh < n) {
      PetscCall(PetscFree(p->h_out));
      PetscCall(PetscMalloc1(n, &p->h_out));
      p->nh = n;
    }
    *out = p->h_out;
  }
#if PetscDefined(HAVE_CUDA)
  else {
    if (p->nd < n) {
      cudaError_t err;
      if (p->d_out) PetscCallCUDA(cudaFree(p->d_out));
      p->d_out = NULL;
      p->nd    = 0;
      err      = cudaMalloc((void **)&p->d_out, sizeof(double) * n);
      PetscCheck(err != cudaErrorMemoryAllocation, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of device memory for %zu element entries of the pointwise kernels (%.3g GB)", n, 8e-9 * (double)n);
      PetscCallCUDA(err);
      p->nd = n;
    }
    *out = p->d_out;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fills the kernels' data for the backend: the reference element, mesh, element->local map, coordinate basis and the
   constants in its memory */
static PetscErrorCode Describe(PetscWarpAsm a, PetscBool device, PetscInt nconst, const PetscScalar consts[], PetscReal t, PetscReal shift, PetscWarpPointwiseData *d)
{
  struct _n_PetscWarpAsmPW *p = a->pw;
  PetscWarpFE               fe;
  PetscWarpMesh             mesh;
  const double             *kcell;

  PetscFunctionBegin;
  PetscCheck(p && p->Bc, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "The coordinate basis of the pointwise kernels is not set (the PetscWarpAsm's mesh or reference element changed after DMPlexWarpSetPointwise()?)");
  PetscCheck(a->l2d && a->nl2d == a->ncells * a->nel, PetscObjectComm((PetscObject)a), PETSC_ERR_ORDER, "Set the element-to-local-dof map (PetscWarpAsmSetLocalElements()) before the pointwise kernels");
  PetscCall(PetscWarpAsmDescribeData_Private(a, device, &fe, &mesh, &kcell));
  PetscCall(PetscMemzero(d, sizeof(*d)));
  d->ncells       = mesh.ncells;
  d->dim          = fe.dim;
  d->nb           = fe.nb;
  d->nc           = fe.nc;
  d->nq           = fe.nq;
  d->ncv          = fe.ncv;
  d->w            = fe.w;
  d->B            = fe.B;
  d->D            = fe.D;
  d->Dc           = fe.Dc;
  d->X            = mesh.X;
  d->cv           = mesh.cv;
  d->t            = t;
  d->u_tShift     = shift;
  d->numConstants = nconst;
  d->nf           = p->nf ? (int)p->nf : 1;
  d->fnb[0]       = fe.nb;
  d->fnc[0]       = fe.nc;
  d->fB[0]        = fe.B;
  d->fD[0]        = fe.D;
  for (PetscInt f = 0; f < p->nf; f++) {
    d->fnb[f] = (int)p->fnb[f];
    d->fnc[f] = (int)p->fnc[f];
    d->fB[f]  = p->fB[f];
    d->fD[f]  = p->fD[f];
  }
  if (!device) {
    d->Bc        = p->Bc;
    d->l2d       = a->l2d;
    d->constants = consts;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if PetscDefined(HAVE_CUDA)
  {
    cudaStream_t st;

    PetscCall(PetscGetCurrentCUDAStream(&st));
    if (!p->d_Bc) PetscCall(PetscWarpAsmUpload_Private(p->Bc, (size_t)(a->nq * a->ncv), sizeof(double), (void **)&p->d_Bc));
    for (PetscInt f = 0; f < p->nf; f++) {
      if (!p->d_fB[f]) PetscCall(PetscWarpAsmUpload_Private(p->fB[f], (size_t)(a->nq * p->fnb[f]), sizeof(double), (void **)&p->d_fB[f]));
      if (!p->d_fD[f]) PetscCall(PetscWarpAsmUpload_Private(p->fD[f], (size_t)(a->nq * p->fnb[f] * a->dim), sizeof(double), (void **)&p->d_fD[f]));
      d->fB[f] = p->d_fB[f];
      d->fD[f] = p->d_fD[f];
    }
    PetscCall(PetscWarpAsmLocalMapDevice_Private(a));
    if (nconst) { /* uploaded when they change, ordered on the stream after the kernels that read the previous ones */
      PetscBool same = (PetscBool)(nconst == p->nconst && p->h_const);
      if (same) PetscCall(PetscArraycmp(p->h_const, consts, nconst, &same));
      if (!same) {
        if (nconst > p->cconst) {
          PetscCall(PetscFree(p->h_const));
          if (p->d_const) PetscCallCUDA(cudaFree(p->d_const));
          p->d_const = NULL;
          PetscCall(PetscMalloc1(nconst, &p->h_const));
          PetscCallCUDA(cudaMalloc((void **)&p->d_const, sizeof(double) * nconst));
          p->cconst = nconst;
        }
        PetscCall(PetscArraycpy(p->h_const, consts, nconst));
        PetscCallCUDA(cudaMemcpyAsync(p->d_const, p->h_const, sizeof(double) * nconst, cudaMemcpyHostToDevice, st));
        PetscCall(PetscLogCpuToGpu(sizeof(double) * (PetscLogDouble)nconst));
        p->nconst = nconst;
      }
    }
    d->Bc        = p->d_Bc;
    d->l2d       = a->d_l2d;
    d->constants = nconst ? p->d_const : NULL;
    d->stream    = (void *)st;
  }
#else
  SETERRQ(PetscObjectComm((PetscObject)a), PETSC_ERR_SUP_SYS, "PETSc has no CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runs a launcher (the error of a device one is a cudaError_t) */
static PetscErrorCode Run(PetscWarpAsm a, PetscBool device, PetscWarpPointwiseKernel k, const PetscWarpPointwiseData *d, const char what[], const char name[])
{
  int err;

  PetscFunctionBegin;
  err = k(d);
  if (!device)
    PetscCheck(err == 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "The host %s kernel of the pointwise functions %s failed (%d): unsupported sizes (dim %d, %d field(s), field 0: %d components, %d basis functions; %d points, %d vertices)", what, name, err, d->dim, d->nf, d->fnc[0], d->fnb[0], d->nq, d->ncv);
#if PetscDefined(HAVE_CUDA)
  else {
    PetscCheck(err != (int)cudaErrorInvalidConfiguration, PETSC_COMM_SELF, PETSC_ERR_SUP, "The device %s kernel of the pointwise functions %s: the data of one cell (%d field(s), field 0: %d basis functions x %d components; %d points) does not fit the shared memory of a block", what, name, d->nf, d->fnb[0], d->fnc[0], d->nq);
    PetscCallCUDA((cudaError_t)err);
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Work per cell: per point the geometry, the state and its gradient (each field's basis); per entry and point its terms */
static PetscLogDouble Flops(PetscWarpAsm a, PetscBool jac)
{
  const struct _n_PetscWarpAsmPW *p   = a->pw;
  const PetscLogDouble            dim = (PetscLogDouble)a->dim, nel = (PetscLogDouble)a->nel, nq = (PetscLogDouble)a->nq, ncv = (PetscLogDouble)a->ncv;
  PetscLogDouble                  point = 2 * ncv * dim * dim + 2 * ncv * dim;

  if (p->nf)
    for (PetscInt f = 0; f < p->nf; f++) point += p->fnb[f] * (2 * dim * dim + 2.0 * p->fnc[f] * (1 + dim));
  else point += a->nb * (2 * dim * dim + 2.0 * a->nc * (1 + dim));
  return (PetscLogDouble)a->ncells * nq * (point + (jac ? nel * nel * (4 * dim * dim + 4 * dim + 2) : nel * (2 * dim * dim + 2 * dim + 2)));
}

PetscErrorCode PetscWarpAsmPointwiseJacobian_Private(PetscWarpAsm a, const PetscWarpPointwise *pw, PetscInt nconst, const PetscScalar consts[], PetscReal t, PetscReal shift, Vec U, Vec Ut, Mat A)
{
  PetscWarpPointwiseData  d;
  PetscWarpAsmLocalArrays la;
  PetscBool               edev, device;
  PetscScalar            *out;
  const size_t            n = (size_t)a->ncells * a->nel * a->nel;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(a, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(U, VEC_CLASSID, 7);
  PetscValidHeaderSpecific(A, MAT_CLASSID, 9);
  PetscCall(PetscWarpAsmElementMatricesOnDevice_Private(a, A, &edev));
  PetscCall(PetscWarpAsmGetLocalArrays_Private(a, (PetscBool)(edev && pw->jacobian_device), U, Ut, NULL, &la));
  device = la.device; /* else the host twin on the host arrays */
  PetscCall(Describe(a, device, nconst, consts, t, shift, &d));
  PetscCall(GetOut(a, device, n, &out));
  d.u   = la.u;
  d.u_t = la.ut;
  d.out = out;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PWJacobian, A, 0, 0, 0));
  if (device) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(Run(a, device, pw->jacobian_device, &d, "Jacobian", pw->name));
    PetscCall(BoundaryJacobian(a, pw, device, &d, out));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(Flops(a, PETSC_TRUE)));
  } else {
    PetscCall(Run(a, device, pw->jacobian_host, &d, "Jacobian", pw->name));
    PetscCall(BoundaryJacobian(a, pw, device, &d, out));
    PetscCall(PetscLogFlops(Flops(a, PETSC_TRUE)));
  }
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PWJacobian, A, 0, 0, 0));
  PetscCall(PetscWarpAsmRestoreLocalArrays_Private(U, Ut, NULL, &la));
  a->pw->jacdev = device;
#if PetscDefined(HAVE_CUDA)
  if (edev && !device) { /* the matrix is reduced on the device, the element matrices came from the host twin */
    PetscScalar *dout;
    if (!a->pw->uploadinfo)
      PetscCall(PetscInfo(a, "Pointwise %s: element matrices by the host twin (%s), uploaded for the device reduction\n", pw->name, pw->jacobian_device ? "the state is in host memory" : "the pointwise file was compiled without CUDA"));
    a->pw->uploadinfo = PETSC_TRUE;
    PetscCall(GetOut(a, PETSC_TRUE, n, &dout));
    PetscCallCUDA(cudaMemcpy(dout, out, sizeof(double) * n, cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu(sizeof(double) * (PetscLogDouble)n));
    out = dout;
  }
#endif
  PetscCall(PetscWarpAsmAssembleElementMatrices(a, out, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PetscWarpAsmPointwiseResidual_Private(PetscWarpAsm a, const PetscWarpPointwise *pw, PetscInt nconst, const PetscScalar consts[], PetscReal t, Vec U, Vec Ut, Vec F)
{
  PetscWarpPointwiseData  d;
  PetscWarpAsmLocalArrays la;
  PetscScalar            *f, *out;
  PetscBool               device;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(a, PETSCWARPASM_CLASSID, 1);
  PetscValidHeaderSpecific(U, VEC_CLASSID, 6);
  PetscValidHeaderSpecific(F, VEC_CLASSID, 8);
  PetscCall(PetscWarpAsmGetLocalArrays_Private(a, (PetscBool)(a->usedevice && pw->residual_device), U, Ut, F, &la));
  device = la.device;
  f      = la.f;
  PetscCall(Describe(a, device, nconst, consts, t, 0.0, &d));
  PetscCall(GetOut(a, device, (size_t)a->ncells * a->nel, &out));
  d.u   = la.u;
  d.u_t = la.ut;
  d.out = out;
  PetscCall(PetscLogEventBegin(PETSCWARPASM_PWResidual, U, F, 0, 0));
  if (!device) {
    PetscCall(Run(a, device, pw->residual_host, &d, "residual", pw->name));
    PetscCheck(PetscWarpAsmScatterAddHost(d.ncells, (int)a->nel, a->l2d, out, f) == PETSCWARP_ASM_OK, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Host scatter of element vectors failed");
    PetscCall(BoundaryResidual(a, pw, device, &d, f));
    PetscCall(PetscLogFlops(Flops(a, PETSC_FALSE) + (PetscLogDouble)a->ncells * a->nel));
  }
#if PetscDefined(HAVE_CUDA)
  else {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(Run(a, device, pw->residual_device, &d, "residual", pw->name));
    PetscCallCUDA((cudaError_t)PetscWarpAsmScatterAddCUDA(d.ncells, (int)a->nel, a->d_l2d, out, f, d.stream));
    PetscCall(BoundaryResidual(a, pw, device, &d, f));
    PetscCall(PetscLogGpuTimeEnd());
    PetscCall(PetscLogGpuFlops(Flops(a, PETSC_FALSE) + (PetscLogDouble)a->ncells * a->nel));
  }
#endif
  PetscCall(PetscLogEventEnd(PETSCWARPASM_PWResidual, U, F, 0, 0));
  PetscCall(PetscWarpAsmRestoreLocalArrays_Private(U, Ut, F, &la));
  a->pw->resdev = device;
  a->nresiduals++;
  PetscFunctionReturn(PETSC_SUCCESS);
}
