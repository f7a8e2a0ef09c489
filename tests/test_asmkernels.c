/* The finite-element assembly kernels (warpasmkernels.h) at the kernel layer, without PETSc. Tabulations (Q1, Q2 on
   quadrilaterals and hexahedra with Gauss points, P1 on triangles and tetrahedra) and small structured meshes (vertices
   moved off the lattice, boundary kept) are built here. Host twins: element matrices against closed forms (unit
   squares and cubes, Q1 and Q2; the corner triangle and tetrahedron), symmetry, zero row sums (Laplace), rigid-body
   modes in the null space (elasticity), v^T A u for linear fields u, v against its exact value (the coefficient
   tensor's convention), mass and load summing to the volume; then the same assembled values from Direct (all cells and
   color by color), Elem + Reduce (a packed reduction array built here), SharedNZ (scatter and reduction arrays built
   here, 1 to 32 parts) with dropped dofs; on the affine path also RowNZ (rownz plans built here for the dense target:
   CSR tiles of 32 and 5 rows, ELL-like tiles of one and two lanes per row; every slot, padding included, written once).
   With PETSCWARP_TEST_CUDA: every CUDA function against its host twin (RowNZ bitwise). */
#include <petscwarp/private/warpasmkernels.h>
#include <petscwarp/private/warpasmrownzkernels.h>
#if defined(PETSCWARP_TEST_CUDA)
  #include <cuda_runtime_api.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nfail = 0;

#define EXPECT(cond, ...) \
  do { \
    if (!(cond)) { \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__); \
      fprintf(stderr, "\n"); \
      nfail++; \
    } \
  } while (0)

#define CHECK(c) \
  do { \
    int e_ = (int)(c); \
    if (e_) { \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #c, e_); \
      exit(1); \
    } \
  } while (0)

static void *Calloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}
#define NEW(T, n) ((T *)Calloc((size_t)(n), sizeof(T)))

static unsigned long long rng = 88172645463325252ULL;
static double             Rand(void) /* uniform in [-1, 1] */
{
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / (double)(1ULL << 52) - 1.0;
}

static double MaxAbs(size_t n, const double *a)
{
  double m = 0;
  for (size_t i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
  return m;
}

/* max |a - b| / max |a| */
static double RelDiff(size_t n, const double *a, const double *b)
{
  double d = 0, m = MaxAbs(n, a);
  for (size_t i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return m > 0 ? d / m : d;
}

/* ------------------------------------------------------------------ tabulations */
typedef struct {
  int     dim, simplex, degree, nb, nq, ncv;
  double *w, *B, *D, *Dc, *node; /* node: reference coordinates of the nb nodes */
} Tab;

/* 1D Lagrange polynomial i on the p+1 equispaced nodes of [-1,1] and its derivative at x */
static void Lagrange1D(int p, int i, double x, double *v, double *dv)
{
  double val = 1, der = 0;
  for (int m = 0; m <= p; m++) {
    double rm, ri = -1 + 2.0 * i / p, f;
    if (m == i) continue;
    rm  = -1 + 2.0 * m / p;
    f   = (x - rm) / (ri - rm);
    der = der * f + val / (ri - rm);
    val *= f;
  }
  *v  = val;
  *dv = der;
}

/* Coordinate basis psi_k and its derivatives at xi: Q1 (k = kx + 2 ky + 4 kz) or P1 */
static void CoordBasis(int dim, int simplex, const double *xi, double *psi, double *dpsi)
{
  if (simplex) {
    double s = 0;
    for (int d = 0; d < dim; d++) s += xi[d];
    psi[0] = 1 - dim / 2.0 - s / 2;
    for (int e = 0; e < dim; e++) dpsi[e] = -0.5;
    for (int k = 1; k <= dim; k++) {
      psi[k] = (1 + xi[k - 1]) / 2;
      for (int e = 0; e < dim; e++) dpsi[k * dim + e] = e == k - 1 ? 0.5 : 0.0;
    }
    return;
  }
  for (int k = 0; k < (1 << dim); k++) {
    psi[k] = 1;
    for (int d = 0; d < dim; d++) psi[k] *= (1 + ((k >> d & 1) ? 1 : -1) * xi[d]) / 2;
    for (int e = 0; e < dim; e++) {
      double g = 1;
      for (int d = 0; d < dim; d++) g *= d == e ? ((k >> d & 1) ? 0.5 : -0.5) : (1 + ((k >> d & 1) ? 1 : -1) * xi[d]) / 2;
      dpsi[k * dim + e] = g;
    }
  }
}

/* extra: Gauss points per direction beyond degree + 1 (tensor cells) */
static void TabCreate(int dim, int simplex, int degree, int extra, Tab *T)
{
  double xq[125 * 3], wq[125];
  T->dim = dim, T->simplex = simplex, T->degree = degree;
  if (simplex) { /* P1, degree-2 rules */
    double bary[4][4];
    T->nb = T->ncv = dim + 1;
    T->nq          = dim + 1;
    for (int q = 0; q < T->nq; q++)
      for (int k = 0; k <= dim; k++) bary[q][k] = dim == 2 ? (k == q ? 2.0 / 3 : 1.0 / 6) : (k == q ? 0.5854101966249685 : 0.1381966011250105);
    for (int q = 0; q < T->nq; q++) {
      wq[q] = dim == 2 ? 2.0 / 3 : 1.0 / 3; /* reference volumes 2 and 4/3 */
      for (int d = 0; d < dim; d++) {
        xq[q * dim + d] = -1;
        for (int k = 0; k <= dim; k++) xq[q * dim + d] += bary[q][k] * (k == d + 1 ? 2 : 0);
      }
    }
  } else { /* Q(degree), degree + 1 + extra Gauss points per direction */
    static const double g2[2] = {-0.5773502691896257, 0.5773502691896257}, w2[2] = {1, 1};
    static const double g3[3] = {-0.7745966692414834, 0, 0.7745966692414834}, w3[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    static const double g4[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
    static const double w4[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
    int                 ng = degree + 1 + extra, n1 = degree + 1;
    T->ncv = 1 << dim;
    T->nb = T->nq = 1;
    for (int d = 0; d < dim; d++) T->nb *= n1, T->nq *= ng;
    for (int q = 0; q < T->nq; q++) {
      wq[q] = 1;
      for (int d = 0, r = q; d < dim; d++, r /= ng) {
        xq[q * dim + d] = ng == 2 ? g2[r % ng] : ng == 3 ? g3[r % ng] : g4[r % ng];
        wq[q] *= ng == 2 ? w2[r % ng] : ng == 3 ? w3[r % ng] : w4[r % ng];
      }
    }
  }
  T->w    = NEW(double, T->nq);
  T->B    = NEW(double, T->nq * T->nb);
  T->D    = NEW(double, T->nq * T->nb * dim);
  T->Dc   = NEW(double, T->nq * T->ncv * dim);
  T->node = NEW(double, dim * T->nb);
  for (int q = 0; q < T->nq; q++) {
    double psi[8], dpsi[24];
    T->w[q] = wq[q];
    CoordBasis(dim, simplex, xq + q * dim, psi, dpsi);
    memcpy(T->Dc + q * T->ncv * dim, dpsi, sizeof(double) * T->ncv * dim);
    if (simplex) {
      memcpy(T->B + q * T->nb, psi, sizeof(double) * T->nb);
      memcpy(T->D + q * T->nb * dim, dpsi, sizeof(double) * T->nb * dim);
      continue;
    }
    for (int a = 0; a < T->nb; a++) {
      double v[3], dv[3];
      for (int d = 0, r = a; d < dim; d++, r /= degree + 1) Lagrange1D(degree, r % (degree + 1), xq[q * dim + d], &v[d], &dv[d]);
      T->B[q * T->nb + a] = 1;
      for (int d = 0; d < dim; d++) T->B[q * T->nb + a] *= v[d];
      for (int e = 0; e < dim; e++) {
        double g = 1;
        for (int d = 0; d < dim; d++) g *= d == e ? dv[d] : v[d];
        T->D[(q * T->nb + a) * dim + e] = g;
      }
    }
  }
  for (int a = 0; a < T->nb; a++)
    for (int d = 0; d < dim; d++) T->node[a * dim + d] = simplex ? (a == d + 1 ? 1 : -1) : -1 + 2.0 * (a / (int)pow(degree + 1, d) % (degree + 1)) / degree;
}

static void TabDestroy(Tab *T)
{
  free(T->w), free(T->B), free(T->D), free(T->Dc), free(T->node);
}

/* ------------------------------------------------------------------ meshes */
typedef struct {
  int     dim, simplex, n[3], corner; /* corner: the one simplex with vertices 0 and the unit vectors */
  int     ncells, nverts, ncv, nsub;  /* nsub: cells per lattice cube */
  int    *cv, *color, ncolors;
  double *X, volume;
} Mesh;

static int VertexId(const Mesh *M, const int *i)
{
  return i[0] + (M->n[0] + 1) * (i[1] + (M->n[1] + 1) * (M->dim == 3 ? i[2] : 0));
}

static double Orientation(const Mesh *M, const int *v)
{
  double a[3][3];
  for (int k = 0; k < M->dim; k++)
    for (int d = 0; d < M->dim; d++) a[k][d] = M->X[v[k + 1] * M->dim + d] - M->X[v[0] * M->dim + d];
  if (M->dim == 2) return a[0][0] * a[1][1] - a[0][1] * a[1][0];
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

static void MeshCreate(int dim, int simplex, const int *n, int distort, Mesh *M)
{
  int ncubes = 1, perm3[6][3] = {
                    {0, 1, 2},
                    {0, 2, 1},
                    {1, 0, 2},
                    {1, 2, 0},
                    {2, 0, 1},
                    {2, 1, 0}
  };
  memset(M, 0, sizeof(*M));
  M->dim = dim, M->simplex = simplex;
  M->ncv = simplex ? dim + 1 : 1 << dim;
  if (!n[0]) { /* the corner simplex */
    M->corner = 1, M->ncells = 1, M->nverts = dim + 1, M->nsub = 1, M->ncolors = 1;
    M->cv    = NEW(int, dim + 1);
    M->color = NEW(int, 1);
    M->X     = NEW(double, (dim + 1) * dim);
    for (int k = 0; k <= dim; k++) M->cv[k] = k;
    for (int k = 1; k <= dim; k++) M->X[k * dim + k - 1] = 1;
    M->volume = dim == 2 ? 0.5 : 1.0 / 6;
    return;
  }
  M->nverts = 1, M->volume = 1;
  for (int d = 0; d < dim; d++) M->n[d] = n[d], ncubes *= n[d], M->nverts *= n[d] + 1, M->volume *= n[d];
  M->nsub    = simplex ? (dim == 2 ? 2 : 6) : 1;
  M->ncells  = ncubes * M->nsub;
  M->ncolors = (1 << dim) * M->nsub;
  M->cv      = NEW(int, M->ncells * M->ncv);
  M->color   = NEW(int, M->ncells);
  M->X       = NEW(double, M->nverts *dim);
  for (int v = 0; v < M->nverts; v++) {
    int i[3] = {0, 0, 0}, interior = 1;
    for (int d = 0, r = v; d < dim; d++) i[d] = r % (n[d] + 1), r /= n[d] + 1, interior &= i[d] > 0 && i[d] < n[d];
    for (int d = 0; d < dim; d++) M->X[v * dim + d] = i[d] + (distort && interior ? 0.15 * Rand() : 0.0);
  }
  for (int c = 0; c < ncubes; c++) {
    int i[3] = {0, 0, 0}, q[8], par = 0;
    for (int d = 0, r = c; d < dim; d++) i[d] = r % n[d], r /= n[d], par |= (i[d] & 1) << d;
    for (int k = 0; k < (1 << dim); k++) {
      int j[3] = {0, 0, 0};
      for (int d = 0; d < dim; d++) j[d] = i[d] + (k >> d & 1);
      q[k] = VertexId(M, j);
    }
    for (int s = 0; s < M->nsub; s++) {
      int *v                    = M->cv + (c * M->nsub + s) * M->ncv;
      M->color[c * M->nsub + s] = par * M->nsub + s; /* cells of a color are two cubes apart: no shared vertex */
      if (!simplex) memcpy(v, q, sizeof(int) * M->ncv);
      else if (dim == 2) v[0] = q[0], v[1] = s ? q[3] : q[1], v[2] = s ? q[2] : q[3];
      else { /* Kuhn: the path from corner 0 to corner 7 along the axes perm3[s] */ int k = 0;
        v[0]                                                                              = q[0];
        for (int m = 0; m < 3; m++) k |= 1 << perm3[s][m], v[m + 1] = q[k];
      }
      if (simplex && Orientation(M, v) < 0) {
        int t = v[1];
        v[1] = v[2], v[2] = t;
      }
    }
  }
}

static void MeshDestroy(Mesh *M)
{
  free(M->cv), free(M->color), free(M->X);
}

/* Physical coordinates of the reference point xi in cell */
static void MapPoint(const Mesh *M, int cell, const double *xi, double *x)
{
  double psi[8], dpsi[24];
  CoordBasis(M->dim, M->simplex, xi, psi, dpsi);
  for (int d = 0; d < M->dim; d++) {
    x[d] = 0;
    for (int k = 0; k < M->ncv; k++) x[d] += psi[k] * M->X[M->cv[cell * M->ncv + k] * M->dim + d];
  }
}

/* Scalar node numbering: the vertices (degree 1) or the lattice of nodes of the Qp cells (p + 1 per direction, in the
   tabulation's lexicographic order); returns the number of nodes. (Until 2026-11-23 it knew p = 2 only, so the Q3
   configuration numbered several element nodes alike: the device's colored accumulation -- plain read-modify-writes --
   then lost updates against the host twin on the H100, while atomics and the host's sequential sums hid it.) */
static int NodeNumbering(const Mesh *M, const Tab *T, int *cnode)
{
  int L[3] = {1, 1, 1}, p = T->degree;
  if (p == 1) {
    memcpy(cnode, M->cv, sizeof(int) * M->ncells * M->ncv);
    return M->nverts;
  }
  for (int d = 0; d < M->dim; d++) L[d] = p * M->n[d] + 1;
  for (int c = 0; c < M->ncells; c++) {
    int i[3] = {0, 0, 0};
    for (int d = 0, r = c; d < M->dim; d++) i[d] = r % M->n[d], r /= M->n[d];
    for (int a = 0; a < T->nb; a++) {
      int g[3] = {0, 0, 0};
      for (int d = 0, r = a; d < M->dim; d++, r /= p + 1) g[d] = p * i[d] + r % (p + 1);
      cnode[c * T->nb + a] = g[0] + L[0] * (g[1] + L[1] * g[2]);
    }
  }
  return L[0] * L[1] * L[2];
}

/* ------------------------------------------------------------------ packed arrays */
typedef struct {
  int  nblocks, bs, cap;
  int *off, *ent;
} Packed;

static void PackedInit(Packed *P, int bs)
{
  P->nblocks = 0, P->bs = bs, P->cap = 1;
  P->off = NEW(int, 1);
  P->ent = NEW(int, 1);
}

static PetscWarpRed PackedView(const Packed *P)
{
  PetscWarpRed r;
  r.nblocks = P->nblocks, r.bs = P->bs, r.off = P->off, r.ent = P->ent;
  return r;
}

static void PackedDestroy(Packed *P)
{
  free(P->off), free(P->ent);
}

static const int *sortlen;
static int        ByLengthDesc(const void *a, const void *b)
{
  int la = sortlen[*(const int *)a + 1] - sortlen[*(const int *)a], lb = sortlen[*(const int *)b + 1] - sortlen[*(const int *)b];
  return la != lb ? lb - la : *(const int *)a - *(const int *)b;
}

/* Append one block holding the nl lists lent[lptr[l] .. lptr[l+1]): LPT onto the bs columns, padded with 0 */
static void PackBlock(Packed *P, int nl, const int *lptr, const int *lent)
{
  int bs = P->bs, *order = NEW(int, nl), *col = NEW(int, nl), *pos = NEW(int, nl), *load = NEW(int, bs), nsteps = 0, base;
  for (int l = 0; l < nl; l++) order[l] = l;
  sortlen = lptr;
  qsort(order, (size_t)nl, sizeof(int), ByLengthDesc);
  for (int m = 0; m < nl; m++) {
    int l = order[m], t = 0;
    for (int u = 1; u < bs; u++)
      if (load[u] < load[t]) t = u;
    col[l] = t, pos[l] = load[t];
    load[t] += lptr[l + 1] - lptr[l];
    if (load[t] > nsteps) nsteps = load[t];
  }
  base   = P->off[P->nblocks];
  P->off = realloc(P->off, sizeof(int) * (P->nblocks + 2));
  if (base + nsteps * bs > P->cap) {
    P->cap = 2 * (base + nsteps * bs) + 1;
    P->ent = realloc(P->ent, sizeof(int) * P->cap);
  }
  if (!P->off || !P->ent) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  memset(P->ent + base, 0, sizeof(int) * nsteps * bs);
  for (int l = 0; l < nl; l++)
    for (int m = lptr[l]; m < lptr[l + 1]; m++) P->ent[base + (pos[l] + m - lptr[l]) * bs + col[l]] = lent[m];
  P->off[++P->nblocks] = base + nsteps * bs;
  free(order), free(col), free(pos), free(load);
}

/* Reduction lists of the sources s < nsrc with tgt[s] >= 0 (tgt in [0, ntgt)) over the targets that occur, in blocks
   of tpb targets (tpb <= 0: one block) appended to P */
static void BuildReduction(Packed *P, int nsrc, const int *tgt, int ntgt, int tpb)
{
  int *cnt = NEW(int, ntgt + 1), *used = NEW(int, ntgt + 1), nused = 0, *start = NEW(int, ntgt + 1), *fill;
  int *lptr, *lent;
  for (int s = 0; s < nsrc; s++)
    if (tgt[s] >= 0) cnt[tgt[s]]++;
  for (int t = 0; t < ntgt; t++) {
    start[t] = t ? start[t - 1] + cnt[t - 1] : 0;
    if (cnt[t]) used[nused++] = t;
  }
  start[ntgt] = ntgt ? start[ntgt - 1] + cnt[ntgt - 1] : 0;
  fill        = NEW(int, start[ntgt] + 1);
  {
    int *cur = NEW(int, ntgt + 1);
    memcpy(cur, start, sizeof(int) * ntgt);
    for (int s = 0; s < nsrc; s++)
      if (tgt[s] >= 0) fill[cur[tgt[s]]++] = s;
    free(cur);
  }
  if (tpb <= 0) tpb = nused > 0 ? nused : 1;
  lptr = NEW(int, tpb + 1);
  lent = NEW(int, start[ntgt] + nused + 1);
  for (int b0 = 0; b0 == 0 || b0 < nused; b0 += tpb) { /* at least one block */
    int nl = 0, m = 0;
    for (int u = b0; u < nused && u < b0 + tpb; u++, nl++) {
      int t    = used[u];
      lptr[nl] = m;
      for (int k = start[t]; k < start[t] + cnt[t]; k++) lent[m++] = fill[k] + 1;
      lent[m++] = -t - 1;
    }
    lptr[nl] = m;
    PackBlock(P, nl, lptr, lent);
  }
  free(cnt), free(used), free(start), free(fill), free(lptr), free(lent);
}

/* ------------------------------------------------------------------ one problem */
typedef struct {
  const char *name;
  int         dim, simplex, degree, kind, coef, n[3], distort, closed, extra; /* extra Gauss points per direction */
} Config;

typedef struct {
  Tab           T;
  Mesh          M;
  PetscWarpFE   fe;
  PetscWarpMesh mesh;
  PetscWarpPhys stiff, mass, full; /* stiffness only, mass only (shift 1), both with a load */
  double       *kcell, *nodex;     /* nodex: physical coordinates of the element nodes [ncells*nb*dim] */
  int           nb, nc, nel, per, nnodes, ndof, *cnode, *e2d, *e2dall, *slot;
} Problem;

static void ProblemCreate(const Config *C, Problem *P)
{
  int dim = C->dim;
  memset(P, 0, sizeof(*P));
  TabCreate(dim, C->simplex, C->degree, C->extra, &P->T);
  MeshCreate(dim, C->simplex, C->n, C->distort, &P->M);
  P->nb     = P->T.nb;
  P->nc     = C->kind == PETSCWARP_PHYS_LAPLACE ? 1 : dim;
  P->nel    = P->nb * P->nc;
  P->per    = P->nel * P->nel;
  P->fe.dim = dim, P->fe.nb = P->nb, P->fe.nc = P->nc, P->fe.nq = P->T.nq, P->fe.ncv = P->T.ncv;
  P->fe.w = P->T.w, P->fe.B = P->T.B, P->fe.D = P->T.D, P->fe.Dc = P->T.Dc;
  P->mesh.ncells = P->M.ncells, P->mesh.nverts = P->M.nverts, P->mesh.cv = P->M.cv, P->mesh.X = P->M.X;
  P->kcell = NEW(double, P->M.ncells *dim *dim);
  for (int c = 0; c < P->M.ncells; c++) {
    if (C->coef == 1) P->kcell[c] = 1.5 + 0.5 * Rand();
    if (C->coef == 2)
      for (int d = 0; d < dim; d++)
        for (int e = d; e < dim; e++) P->kcell[(c * dim + d) * dim + e] = P->kcell[(c * dim + e) * dim + d] = d == e ? 2 + 0.5 * Rand() : 0.7 * Rand(); /* symmetric, as the kernels require */
  }
  memset(&P->stiff, 0, sizeof(P->stiff));
  P->stiff.kind   = C->kind;
  P->stiff.coef   = C->kind == PETSCWARP_PHYS_LAPLACE ? C->coef : 0;
  P->stiff.kappa  = 1.3;
  P->stiff.lambda = 1.7;
  P->stiff.mu     = 0.8;
  P->stiff.kcell  = P->kcell;
  P->full         = P->stiff;
  P->full.shift   = 0.35;
  P->full.f[0] = 0.7, P->full.f[1] = -1.1, P->full.f[2] = 0.4;
  memset(&P->mass, 0, sizeof(P->mass));
  P->mass.kind  = C->kind;
  P->mass.shift = 1;
  /* nodes and dofs: dof node*nc + c; dropped (-1) in e2d: the nodes with x_0 < 0.25 (a constrained face) */
  P->cnode  = NEW(int, P->M.ncells * P->nb);
  P->nnodes = NodeNumbering(&P->M, &P->T, P->cnode);
  P->ndof   = P->nnodes * P->nc;
  P->nodex  = NEW(double, P->M.ncells * P->nb * dim);
  P->e2d    = NEW(int, P->M.ncells * P->nel);
  P->e2dall = NEW(int, P->M.ncells * P->nel);
  for (int c = 0; c < P->M.ncells; c++)
    for (int a = 0; a < P->nb; a++) {
      double *x = P->nodex + (c * P->nb + a) * dim;
      MapPoint(&P->M, c, P->T.node + a * dim, x);
      for (int k = 0; k < P->nc; k++) {
        P->e2dall[c * P->nel + a * P->nc + k] = P->cnode[c * P->nb + a] * P->nc + k;
        P->e2d[c * P->nel + a * P->nc + k]    = x[0] < 0.25 && !P->M.corner ? -1 : P->cnode[c * P->nb + a] * P->nc + k;
      }
    }
  P->slot = NEW(int, (size_t)P->M.ncells * P->per);
  for (int c = 0; c < P->M.ncells; c++)
    for (int i = 0; i < P->nel; i++)
      for (int j = 0; j < P->nel; j++) {
        int r = P->e2d[c * P->nel + i], s = P->e2d[c * P->nel + j];
        P->slot[(size_t)c * P->per + i * P->nel + j] = r >= 0 && s >= 0 ? r * P->ndof + s : -1;
      }
}

static void ProblemDestroy(Problem *P)
{
  TabDestroy(&P->T), MeshDestroy(&P->M);
  free(P->kcell), free(P->nodex), free(P->cnode), free(P->e2d), free(P->e2dall), free(P->slot);
}

/* 1D unit-interval stiffness and mass of degree p (nodes in order -1, 0, 1 of the reference) */
static double S1(int p, int a, int b)
{
  static const double s2[3][3] = {
    {7.0 / 3,  -8.0 / 3, 1.0 / 3 },
    {-8.0 / 3, 16.0 / 3, -8.0 / 3},
    {1.0 / 3,  -8.0 / 3, 7.0 / 3 }
  };
  return p == 1 ? (a == b ? 1 : -1) : s2[a][b];
}

static double M1(int p, int a, int b)
{
  static const double m2[3][3] = {
    {4.0 / 30,  2.0 / 30,  -1.0 / 30},
    {2.0 / 30,  16.0 / 30, 2.0 / 30 },
    {-1.0 / 30, 2.0 / 30,  4.0 / 30 }
  };
  return p == 1 ? (a == b ? 1.0 / 3 : 1.0 / 6) : m2[a][b];
}

/* Closed forms: the unit square/cube of degree p (tensor products of S1, M1), the corner triangle/tetrahedron */
static void ClosedForm(const Problem *P, int a, int b, double *K, double *Mab)
{
  int dim = P->fe.dim, p = P->T.degree;
  if (P->M.simplex) {
    double vol = dim == 2 ? 0.5 : 1.0 / 6; /* grad lambda_0 = -(1,..,1), grad lambda_k = e_k */
    *K         = vol * (a == 0 && b == 0 ? dim : a == 0 || b == 0 ? -1 : a == b ? 1 : 0);
    *Mab       = vol * (a == b ? 2 : 1) / ((dim + 1) * (dim + 2));
    return;
  }
  *K = 0, *Mab = 1;
  for (int d = 0; d < dim; d++) {
    double s = 1;
    int    ad, bd;
    for (int e = 0; e < dim; e++) {
      ad = a / (int)pow(p + 1, e) % (p + 1), bd = b / (int)pow(p + 1, e) % (p + 1);
      s *= e == d ? S1(p, ad, bd) : M1(p, ad, bd);
    }
    ad = a / (int)pow(p + 1, d) % (p + 1), bd = b / (int)pow(p + 1, d) % (p + 1);
    *K += s;
    *Mab *= M1(p, ad, bd);
  }
}

/* Element-level checks of the host twin */
static void CheckElements(const Config *C, Problem *P)
{
  const int dim = P->fe.dim, nel = P->nel, nb = P->nb, nc = P->nc, per = P->per, nc_ = P->M.ncells;
  double   *A = NEW(double, (size_t)nc_ *per), *Mm = NEW(double, (size_t)nc_ *per), vol = 0, scale;
  double   *u = NEW(double, nel), *v = NEW(double, nel);
  CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, &P->stiff, nc_, NULL, A));
  CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, &P->mass, nc_, NULL, Mm));
  scale = MaxAbs((size_t)nc_ * per, A);
  { /* stiffness and mass terms together: A + shift M */
    double *Af = NEW(double, (size_t)nc_ *per), err = 0;
    CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, &P->full, nc_, NULL, Af));
    for (size_t m = 0; m < (size_t)nc_ * per; m++) err = fmax(err, fabs(Af[m] - A[m] - P->full.shift * Mm[m]));
    EXPECT(err <= 1e-14 * scale, "%s: element matrices with a shift differ from A + shift M by %g", C->name, err);
    free(Af);
  }
  for (int c = 0; c < nc_; c++) {
    const double *Ac = A + (size_t)c * per, *Mc = Mm + (size_t)c * per, *xn = P->nodex + c * nb * dim;
    double        volc = 0, asym = 0, rowsum = 0;
    for (int m = 0; m < per; m++) volc += Mc[m] / nc;
    vol += volc;
    for (int i = 0; i < nel; i++) {
      double r = 0;
      for (int j = 0; j < nel; j++) asym = fmax(asym, fabs(Ac[i * nel + j] - Ac[j * nel + i])), r += Ac[i * nel + j];
      rowsum = fmax(rowsum, fabs(r));
    }
    if (C->coef != 2) EXPECT(asym <= 1e-13 * scale, "%s cell %d: element matrix not symmetric (%g)", C->name, c, asym);
    if (C->kind == PETSCWARP_PHYS_LAPLACE) EXPECT(rowsum <= 1e-13 * scale, "%s cell %d: row sums not zero (%g)", C->name, c, rowsum);
    if (C->kind == PETSCWARP_PHYS_ELASTICITY) { /* rigid-body modes: translations and rotations about each axis pair */
      for (int mode = 0; mode < dim + dim * (dim - 1) / 2; mode++) {
        double res = 0;
        for (int a = 0; a < nb; a++)
          for (int k = 0; k < nc; k++) {
            const double *x  = xn + a * dim;
            int           d0 = mode - dim == 2 ? 1 : 0, d1 = mode - dim == 0 ? 1 : 2; /* rotations in planes (0,1) (0,2) (1,2) */
            u[a * nc + k] = mode < dim ? (k == mode) : (k == d0 ? -x[d1] : k == d1 ? x[d0] : 0);
          }
        for (int i = 0; i < nel; i++) {
          double r = 0;
          for (int j = 0; j < nel; j++) r += Ac[i * nel + j] * u[j];
          res = fmax(res, fabs(r));
        }
        EXPECT(res <= 1e-12 * scale * (dim + 1), "%s cell %d: rigid mode %d not in the null space (%g)", C->name, c, mode, res);
      }
    }
    { /* linear fields: v^T A u = vol (r . K p) (Laplace), vol (mu R:(P + P^T) + lambda tr R tr P) (elasticity) */
      double R[9], Pm[9], Kc[9], vAu = 0, exact = 0;
      for (int m = 0; m < dim * dim; m++) R[m] = Rand(), Pm[m] = Rand();
      for (int a = 0; a < nb; a++)
        for (int k = 0; k < nc; k++) {
          u[a * nc + k] = v[a * nc + k] = 0;
          for (int d = 0; d < dim; d++) u[a * nc + k] += Pm[k * dim + d] * xn[a * dim + d], v[a * nc + k] += R[k * dim + d] * xn[a * dim + d];
        }
      for (int i = 0; i < nel; i++)
        for (int j = 0; j < nel; j++) vAu += v[i] * Ac[i * nel + j] * u[j];
      if (C->kind == PETSCWARP_PHYS_LAPLACE) {
        for (int d = 0; d < dim; d++)
          for (int e = 0; e < dim; e++) Kc[d * dim + e] = C->coef == 2 ? P->kcell[(c * dim + d) * dim + e] : d == e ? (C->coef == 1 ? P->kcell[c] : P->stiff.kappa) : 0;
        for (int d = 0; d < dim; d++)
          for (int e = 0; e < dim; e++) exact += R[d] * Kc[d * dim + e] * Pm[e];
      } else {
        double trR = 0, trP = 0;
        for (int d = 0; d < dim; d++) {
          trR += R[d * dim + d], trP += Pm[d * dim + d];
          for (int e = 0; e < dim; e++) exact += P->stiff.mu * R[d * dim + e] * (Pm[d * dim + e] + Pm[e * dim + d]);
        }
        exact += P->stiff.lambda * trR * trP;
      }
      exact *= volc;
      EXPECT(fabs(vAu - exact) <= 1e-12 * (fabs(exact) + scale), "%s cell %d: v^T A u = %.15g for linear fields, exact %.15g", C->name, c, vAu, exact);
    }
    if (C->closed) {
      double err = 0, errm = 0;
      for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++) {
          double K, Mab;
          ClosedForm(P, a, b, &K, &Mab);
          err  = fmax(err, fabs(Ac[a * nb + b] - P->stiff.kappa * K));
          errm = fmax(errm, fabs(Mc[a * nb + b] - Mab));
        }
      EXPECT(err <= 1e-14 * 10 && errm <= 1e-15 * 10, "%s cell %d: element matrix differs from the closed form by %g (stiffness) %g (mass)", C->name, c, err, errm);
    }
  }
  EXPECT(fabs(vol - P->M.volume) <= 1e-13 * P->M.volume, "%s: mass matrices sum to %.15g, volume %.15g", C->name, vol, P->M.volume);
  { /* load vector: sum over the dofs of component k = f_k * volume */
    double *F = NEW(double, P->ndof);
    CHECK(PetscWarpAsmLoadHost(&P->fe, &P->mesh, &P->full, P->e2dall, F));
    for (int k = 0; k < nc; k++) {
      double s = 0;
      for (int node = 0; node < P->nnodes; node++) s += F[node * nc + k];
      EXPECT(fabs(s - P->full.f[k] * P->M.volume) <= 1e-13 * P->M.volume, "%s: load of component %d sums to %.15g, expected %.15g", C->name, k, s, P->full.f[k] * P->M.volume);
    }
    free(F);
  }
  free(A), free(Mm), free(u), free(v);
}

/* The sharednz plan over nparts consecutive ranges of the dofs (rows), bs threads per block */
typedef struct {
  Packed scatter, red;
  int   *coff, *cells, maxcells, nblocks;
} SharedPlan;

static void BuildShared(const Problem *P, int nparts, int bs, SharedPlan *S)
{
  const int nel = P->nel, per = P->per, ncv = P->M.ncv, nc_ = P->M.ncells;
  int      *lc = NEW(int, nc_), *vcnt = NEW(int, P->M.nverts + 1), *tgt = NEW(int, (size_t)nc_ *per);
  PackedInit(&S->scatter, bs);
  PackedInit(&S->red, bs);
  S->nblocks = nparts, S->maxcells = 0;
  S->coff  = NEW(int, nparts + 1);
  S->cells = NEW(int, nparts *nc_);
  for (int p = 0; p < nparts; p++) {
    int  r0 = (int)((long long)P->ndof * p / nparts), r1 = (int)((long long)P->ndof * (p + 1) / nparts), m = 0, nl = 0;
    int *lptr = NEW(int, P->M.nverts + 1), *lent = NEW(int, nc_ *ncv * 2 + 1), *first = NEW(int, P->M.nverts);
    for (int c = 0; c < nc_; c++) {
      int in = 0;
      for (int i = 0; i < nel; i++) in |= P->e2d[c * nel + i] >= r0 && P->e2d[c * nel + i] < r1;
      lc[c] = in ? m : -1;
      if (in) S->cells[S->coff[p] + m++] = c;
    }
    S->coff[p + 1] = S->coff[p] + m;
    if (m > S->maxcells) S->maxcells = m;
    /* scatter: per vertex the list (vertex + 1, -(slot) - 1 ...) over the coordinate slots lc*ncv + k */
    for (int v = 0; v < P->M.nverts; v++) vcnt[v] = 0, first[v] = -1;
    for (int l = 0; l < m; l++)
      for (int k = 0; k < ncv; k++) vcnt[P->M.cv[S->cells[S->coff[p] + l] * ncv + k]]++;
    lptr[0] = 0;
    for (int v = 0; v < P->M.nverts; v++)
      if (vcnt[v]) lptr[nl + 1] = lptr[nl] + vcnt[v] + 1, lent[lptr[nl]] = v + 1, first[v] = lptr[nl] + 1, nl++;
    for (int l = 0; l < m; l++)
      for (int k = 0; k < ncv; k++) lent[first[P->M.cv[S->cells[S->coff[p] + l] * ncv + k]]++] = -(l * ncv + k) - 1;
    PackBlock(&S->scatter, nl, lptr, lent);
    /* reduction: sources 1 + l*per + ij of the part's rows */
    for (int l = 0; l < m; l++) {
      int c = S->cells[S->coff[p] + l];
      for (int ij = 0; ij < per; ij++) {
        int r             = P->e2d[c * nel + ij / nel];
        tgt[l * per + ij] = r >= r0 && r < r1 ? P->slot[(size_t)c * per + ij] : -1;
      }
    }
    BuildReduction(&S->red, m * per, tgt, P->ndof * P->ndof, 0);
    free(lptr), free(lent), free(first);
  }
  free(lc), free(vcnt), free(tgt);
}

static PetscWarpShared SharedView(const SharedPlan *S)
{
  PetscWarpShared sh;
  sh.nblocks = S->nblocks, sh.bs = S->scatter.bs, sh.maxcells = S->maxcells;
  sh.coff = S->coff, sh.cells = S->cells;
  sh.scatter = PackedView(&S->scatter), sh.red = PackedView(&S->red);
  return sh;
}

static void SharedDestroy(SharedPlan *S)
{
  PackedDestroy(&S->scatter), PackedDestroy(&S->red), free(S->coff), free(S->cells);
}

#if defined(PETSCWARP_TEST_CUDA)
static void *Dev(const void *h, size_t bytes)
{
  void *d = NULL;
  CHECK(cudaMalloc(&d, bytes ? bytes : 1));
  if (bytes) CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  return d;
}

static double *DevZeros(size_t n)
{
  void *d = NULL;
  CHECK(cudaMalloc(&d, sizeof(double) * (n ? n : 1)));
  CHECK(cudaMemset(d, 0, sizeof(double) * (n ? n : 1)));
  return (double *)d;
}

/* Copy n doubles back (after synchronizing the stream) and compare with the host twin's ref */
static void DevCompare(const Config *C, const char *what, cudaStream_t st, const double *d, const double *ref, size_t n)
{
  double *h = NEW(double, n), rd;
  CHECK(cudaStreamSynchronize(st));
  CHECK(cudaMemcpy(h, d, sizeof(double) * n, cudaMemcpyDeviceToHost));
  rd = RelDiff(n, ref, h);
  EXPECT(rd < 1e-13, "%s: %s on the device differs from the host twin: %g", C->name, what, rd);
  free(h);
}

static PetscWarpRed DevRed(const Packed *P, int **d_off, int **d_ent)
{
  PetscWarpRed r = PackedView(P);
  *d_off         = (int *)Dev(P->off, sizeof(int) * (P->nblocks + 1));
  *d_ent         = (int *)Dev(P->ent, sizeof(int) * P->off[P->nblocks]);
  r.off = *d_off, r.ent = *d_ent;
  return r;
}
#endif

static void CheckRowNZ(const Config *C, Problem *P, const double *ref, int cuda);

/* Assembled values of every method on the host (and with CUDA on the device) */
#define NPARTS 5
static const int nparts[NPARTS] = {1, 2, 3, 8, 32};

/* affine: every cell is affine; the same checks with the affine path (fe.Kaff), whose element matrices must agree with
   the quadrature's */
static void CheckAssembly(const Config *C, Problem *P, int cuda, int affine)
{
  const int      nc_ = P->M.ncells, per = P->per;
  const size_t   nv = (size_t)P->ndof * P->ndof;
  double        *E = NEW(double, (size_t)nc_ *per), *E2 = NEW(double, (size_t)nc_ *per), *ref = NEW(double, nv), *val = NEW(double, nv), *F = NEW(double, P->ndof), rd;
  int           *rev = NEW(int, nc_), *ccells = NEW(int, nc_), *ccoff = NEW(int, P->M.ncolors + 1), bs = 64;
  Packed         gred;
  SharedPlan     sp[NPARTS];
  PetscWarpRed   red;
  PetscWarpPhys *ph   = &P->full;
  double        *Kaff = NULL;

  if (affine) { /* the reference matrices, and the quadrature's element matrices to compare with */
    double *Eq = NEW(double, (size_t)nc_ *per);
    CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, ph, nc_, NULL, Eq));
    Kaff = NEW(double, PetscWarpAsmAffineRefsSize(&P->fe, ph->kind));
    CHECK(PetscWarpAsmAffineRefsHost(&P->fe, ph->kind, Kaff));
    P->fe.Kaff = Kaff;
    CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, ph, nc_, NULL, E));
    EXPECT((rd = RelDiff((size_t)nc_ * per, Eq, E)) < 1e-13, "%s: affine element matrices differ from the quadrature's: %g", C->name, rd);
    free(Eq);
  }
  for (int k = 0; k < nc_; k++) rev[k] = nc_ - 1 - k;
  for (int col = 0, m = 0; col < P->M.ncolors; col++) {
    ccoff[col] = m;
    for (int c = 0; c < nc_; c++)
      if (P->M.color[c] == col) ccells[m++] = c;
    ccoff[col + 1] = m;
  }
  CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, ph, nc_, NULL, E));
  CHECK(PetscWarpAsmElemHost(&P->fe, &P->mesh, ph, nc_, rev, E2));
  for (int k = 0; k < nc_; k++) EXPECT(!memcmp(E2 + (size_t)k * per, E + (size_t)rev[k] * per, sizeof(double) * per), "%s: element matrices of a cell list differ", C->name);
  for (size_t s = 0; s < (size_t)nc_ * per; s++)
    if (P->slot[s] >= 0) ref[P->slot[s]] += E[s];
  CHECK(PetscWarpAsmDirectHost(&P->fe, &P->mesh, ph, nc_, NULL, P->slot, val));
  EXPECT((rd = RelDiff(nv, ref, val)) < 1e-14, "%s: direct assembly differs from the element matrices: %g", C->name, rd);
  if (affine) CheckRowNZ(C, P, ref, cuda);
  memset(val, 0, sizeof(double) * nv);
  for (int col = 0; col < P->M.ncolors; col++) CHECK(PetscWarpAsmDirectHost(&P->fe, &P->mesh, ph, ccoff[col + 1] - ccoff[col], ccells + ccoff[col], P->slot, val));
  EXPECT((rd = RelDiff(nv, ref, val)) < 1e-14, "%s: colored direct assembly differs: %g", C->name, rd);
  PackedInit(&gred, bs);
  BuildReduction(&gred, nc_ * per, P->slot, (int)nv, 2 * bs);
  red = PackedView(&gred);
  memset(val, 0, sizeof(double) * nv);
  PetscWarpReduceHost(&red, E, val);
  EXPECT((rd = RelDiff(nv, ref, val)) < 1e-14, "%s: globalnz reduction differs: %g", C->name, rd);
  for (int k = 0; k < NPARTS; k++) {
    PetscWarpShared sh;
    BuildShared(P, nparts[k], bs, &sp[k]);
    sh = SharedView(&sp[k]);
    memset(val, 0, sizeof(double) * nv);
    CHECK(PetscWarpAsmSharedNZHost(&P->fe, &P->mesh, ph, &sh, val));
    EXPECT((rd = RelDiff(nv, ref, val)) < 1e-14, "%s: sharednz over %d parts differs: %g", C->name, nparts[k], rd);
  }
  CHECK(PetscWarpAsmLoadHost(&P->fe, &P->mesh, ph, P->e2d, F));
#if defined(PETSCWARP_TEST_CUDA)
  if (cuda) {
    cudaStream_t  st;
    PetscWarpFE   dfe   = P->fe;
    PetscWarpMesh dmesh = P->mesh;
    PetscWarpPhys dph   = *ph;
    PetscWarpRed  dred;
    int          *d_rev, *d_cc, *d_slot, *d_e2d, *d_off, *d_ent, nsh = 0;
    double       *d_E, *d_val, *d_F;
    size_t        maxsh;
    CHECK(cudaStreamCreate(&st));
    dfe.w     = (double *)Dev(P->fe.w, sizeof(double) * P->fe.nq);
    dfe.B     = (double *)Dev(P->fe.B, sizeof(double) * P->fe.nq * P->nb);
    dfe.D     = (double *)Dev(P->fe.D, sizeof(double) * P->fe.nq * P->nb * P->fe.dim);
    dfe.Dc    = (double *)Dev(P->fe.Dc, sizeof(double) * P->fe.nq * P->fe.ncv * P->fe.dim);
    dfe.Kaff  = Kaff ? (double *)Dev(Kaff, sizeof(double) * PetscWarpAsmAffineRefsSize(&P->fe, ph->kind)) : NULL;
    dmesh.cv  = (int *)Dev(P->mesh.cv, sizeof(int) * nc_ * P->fe.ncv);
    dmesh.X   = (double *)Dev(P->mesh.X, sizeof(double) * P->mesh.nverts * P->fe.dim);
    dph.kcell = (double *)Dev(P->kcell, sizeof(double) * nc_ * P->fe.dim * P->fe.dim);
    d_rev     = (int *)Dev(rev, sizeof(int) * nc_);
    d_cc      = (int *)Dev(ccells, sizeof(int) * nc_);
    d_slot    = (int *)Dev(P->slot, sizeof(int) * (size_t)nc_ * per);
    d_e2d     = (int *)Dev(P->e2d, sizeof(int) * nc_ * P->nel);
    d_E       = DevZeros((size_t)nc_ * per);
    d_val     = DevZeros(nv);
    d_F       = DevZeros(P->ndof);
    CHECK(PetscWarpAsmElemCUDA(&dfe, &dmesh, &dph, nc_, NULL, d_E, st));
    DevCompare(C, "Elem", st, d_E, E, (size_t)nc_ * per);
    CHECK(PetscWarpAsmElemCUDA(&dfe, &dmesh, &dph, nc_, d_rev, d_E, st));
    DevCompare(C, "Elem (cell list)", st, d_E, E2, (size_t)nc_ * per);
    CHECK(PetscWarpAsmDirectCUDA(&dfe, &dmesh, &dph, nc_, NULL, d_slot, 1, d_val, st));
    DevCompare(C, "Direct (atomic)", st, d_val, ref, nv);
    CHECK(cudaMemsetAsync(d_val, 0, sizeof(double) * nv, st));
    for (int col = 0; col < P->M.ncolors; col++) CHECK(PetscWarpAsmDirectCUDA(&dfe, &dmesh, &dph, ccoff[col + 1] - ccoff[col], d_cc + ccoff[col], d_slot, 0, d_val, st));
    DevCompare(C, "Direct (colors)", st, d_val, ref, nv);
    CHECK(PetscWarpAsmElemCUDA(&dfe, &dmesh, &dph, nc_, NULL, d_E, st));
    CHECK(cudaMemsetAsync(d_val, 0, sizeof(double) * nv, st));
    dred = DevRed(&gred, &d_off, &d_ent);
    CHECK(PetscWarpReduceCUDA(&dred, d_E, d_val, st));
    DevCompare(C, "Reduce", st, d_val, ref, nv);
    CHECK(cudaStreamSynchronize(st));
    cudaFree(d_off), cudaFree(d_ent);
    CHECK(PetscWarpAsmMaxSharedCUDA(&maxsh));
    for (int k = 0; k < NPARTS; k++) { /* every partition whose blocks fit the device */
      PetscWarpShared dsh = SharedView(&sp[k]);
      int            *d_coff, *d_cells, *d_soff, *d_sent, *d_roff, *d_rent, np = nparts[k];
      if ((size_t)sp[k].maxcells * PetscWarpSharedNZCellBytes(&P->fe) + PetscWarpSharedNZFixedBytes(&P->fe, dsh.bs) > maxsh) continue;
      dsh.scatter = DevRed(&sp[k].scatter, &d_soff, &d_sent);
      dsh.red     = DevRed(&sp[k].red, &d_roff, &d_rent);
      dsh.coff = d_coff = (int *)Dev(sp[k].coff, sizeof(int) * (np + 1));
      dsh.cells = d_cells = (int *)Dev(sp[k].cells, sizeof(int) * (sp[k].coff[np] + 1));
      CHECK(cudaMemsetAsync(d_val, 0, sizeof(double) * nv, st));
      CHECK(PetscWarpAsmSharedNZCUDA(&dfe, &dmesh, &dph, &dsh, d_val, st));
      DevCompare(C, "SharedNZ", st, d_val, ref, nv);
      cudaFree(d_coff), cudaFree(d_cells), cudaFree(d_soff), cudaFree(d_sent), cudaFree(d_roff), cudaFree(d_rent);
      nsh++;
    }
    CHECK(PetscWarpAsmLoadCUDA(&dfe, &dmesh, &dph, d_e2d, d_F, st));
    DevCompare(C, "Load", st, d_F, F, P->ndof);
    printf("  device%s: Elem, Direct (atomic, %d colors), Reduce, SharedNZ (%d of %d partitions fit), Load agree with the host twin\n", affine ? " (affine path)" : "", P->M.ncolors, nsh, NPARTS);
    CHECK(cudaStreamDestroy(st));
    cudaFree((void *)dfe.w), cudaFree((void *)dfe.B), cudaFree((void *)dfe.D), cudaFree((void *)dfe.Dc), cudaFree((void *)dfe.Kaff), cudaFree((void *)dmesh.cv), cudaFree((void *)dmesh.X), cudaFree((void *)dph.kcell);
    cudaFree(d_rev), cudaFree(d_cc), cudaFree(d_slot), cudaFree(d_e2d), cudaFree(d_E), cudaFree(d_val), cudaFree(d_F);
  }
#else
  (void)cuda;
#endif
  PackedDestroy(&gred);
  for (int k = 0; k < NPARTS; k++) SharedDestroy(&sp[k]);
  free(E), free(E2), free(ref), free(val), free(F), free(rev), free(ccells), free(ccoff), free(Kaff);
  P->fe.Kaff = NULL;
}

/* ------------------------------------------------------------------ rownz */
typedef struct {
  PetscWarpRowNZ  v;
  int            *soff, *ioff, *lbase, *icell;
  unsigned char  *lsh, *iloc, *k8, *nl;
  unsigned short *k16;
  int             nslots;
} RowPlan;

/* A rownz plan for the dense target (row r, column s: position s of row r): CSR (ell 0: tiles of rpt rows, slot r*ndof
   + s) or ELL-like (ell 1: tiles of 32 >> lsh rows, a row over 2^lsh lanes, width ceil(ndof / 2^lsh) per lane); the
   incidence lists of a tile have 32 lanes (pad 1: unused lanes padded) or as many as the tile's rows */
static void BuildRowNZ(const Problem *P, int ell, int rpt, int lsh, int pad, RowPlan *R)
{
  const int n = P->ndof, nel = P->nel, L = 1 << lsh, W = (n + L - 1) / L;
  int      *cnt = NEW(int, n + 1), *ptr = NEW(int, n + 1), *lst, nt;
  memset(R, 0, sizeof(*R));
  if (ell) rpt = PETSCWARP_ROWNZ_LANES >> lsh;
  for (int x = 0; x < P->M.ncells * nel; x++)
    if (P->e2d[x] >= 0) cnt[P->e2d[x]]++;
  for (int r = 0; r < n; r++) ptr[r + 1] = ptr[r] + cnt[r], cnt[r] = 0;
  lst = NEW(int, ptr[n] + 1);
  for (int x = 0; x < P->M.ncells * nel; x++)
    if (P->e2d[x] >= 0) lst[ptr[P->e2d[x]] + cnt[P->e2d[x]]++] = x;
  nt       = (n + rpt - 1) / rpt;
  R->soff  = NEW(int, nt + 1);
  R->ioff  = NEW(int, nt + 1);
  R->lbase = NEW(int, nt *PETSCWARP_ROWNZ_LANES);
  R->lsh   = NEW(unsigned char, nt *PETSCWARP_ROWNZ_LANES);
  R->nl    = NEW(unsigned char, nt + 1);
  for (int b = 0; b < nt; b++) {
    int nm         = 0;
    R->nl[b]       = (unsigned char)(pad ? PETSCWARP_ROWNZ_LANES : (n - b * rpt < rpt ? n - b * rpt : rpt));
    R->soff[b + 1] = ell ? (b + 1) * PETSCWARP_ROWNZ_LANES * W : ((b + 1) * rpt < n ? (b + 1) * rpt : n) * n;
    for (int t = 0; t < PETSCWARP_ROWNZ_LANES; t++) {
      int r                                   = b * rpt + t;
      R->lbase[b * PETSCWARP_ROWNZ_LANES + t] = t < rpt && r < n && cnt[r] ? (ell ? t * L : t * n) : -1;
      R->lsh[b * PETSCWARP_ROWNZ_LANES + t]   = (unsigned char)(ell ? lsh : 0);
      if (t < rpt && r < n && cnt[r] > nm) nm = cnt[r];
    }
    R->ioff[b + 1] = R->ioff[b] + nm * R->nl[b];
  }
  R->icell = NEW(int, R->ioff[nt] + 1);
  R->iloc  = NEW(unsigned char, R->ioff[nt] + 1);
  R->k8    = NEW(unsigned char, (size_t)R->ioff[nt] * nel + 1);
  R->k16   = NEW(unsigned short, (size_t)R->ioff[nt] * nel + 1);
  for (int b = 0; b < nt; b++)
    for (int t = 0; t < R->nl[b]; t++)
      for (int m = 0; m < (R->ioff[b + 1] - R->ioff[b]) / R->nl[b]; m++) {
        int r = b * rpt + t, x = R->ioff[b] + m * R->nl[b] + t, ce = t < rpt && r < n && m < cnt[r] ? lst[ptr[r] + m] : -1;
        R->icell[x] = ce >= 0 ? ce / nel : -1;
        R->iloc[x]  = (unsigned char)(ce >= 0 ? ce % nel : 0);
        for (int j = 0; j < nel; j++) {
          int    col = ce >= 0 ? P->e2d[(ce / nel) * nel + j] : -1;
          size_t y   = ((size_t)R->ioff[b] + (size_t)m * R->nl[b]) * nel + (size_t)j * R->nl[b] + t;
          R->k8[y]   = (unsigned char)(col >= 0 ? col : PETSCWARP_ROWNZ_SKIP8);
          R->k16[y]  = (unsigned short)(col >= 0 ? col : PETSCWARP_ROWNZ_SKIP16);
        }
      }
  R->nslots     = R->soff[nt];
  R->v.ntiles   = nt;
  R->v.nel      = nel;
  R->v.wide     = n >= PETSCWARP_ROWNZ_SKIP8;
  R->v.ssh      = ell ? 5 : 0;
  R->v.soff     = R->soff;
  R->v.ioff     = R->ioff;
  R->v.nlane    = R->nl;
  R->v.lbase    = R->lbase;
  R->v.lsh      = R->lsh;
  R->v.icell    = R->icell;
  R->v.iloc     = R->iloc;
  R->v.kpos8    = R->v.wide ? NULL : R->k8;
  R->v.kpos16   = R->v.wide ? R->k16 : NULL;
  R->v.maxslots = 0;
  for (int b = 0; b < nt; b++)
    if (R->soff[b + 1] - R->soff[b] > R->v.maxslots) R->v.maxslots = R->soff[b + 1] - R->soff[b];
  free(cnt), free(ptr), free(lst);
}

static void RowPlanDestroy(RowPlan *R)
{
  free(R->soff), free(R->ioff), free(R->lbase), free(R->lsh), free(R->icell), free(R->iloc), free(R->k8), free(R->k16), free(R->nl);
}

/* The dense reference ref[r*ndof + s] in the plan's slots (padding and rows without incidences: 0) */
static void RowNZExpected(const Problem *P, const RowPlan *R, int ell, int rpt, int lsh, const double *ref, double *exp_)
{
  const int n = P->ndof;
  memset(exp_, 0, sizeof(double) * (size_t)R->nslots);
  if (ell) rpt = PETSCWARP_ROWNZ_LANES >> lsh;
  for (int r = 0; r < n; r++) {
    const int b = r / rpt, t = r % rpt;
    for (int k = 0; k < n; k++) exp_[ell ? R->soff[b] + t * (1 << lsh) + ((k >> lsh) << 5) + (k & ((1 << lsh) - 1)) : r * n + k] = ref[(size_t)r * n + k];
  }
}

#if defined(PETSCWARP_TEST_CUDA)
/* RowNZ on the device into d_val (poisoned with NaN first: every slot must be written), its values copied to h */
static void RowNZRunCUDA(const PetscWarpFE *dfe, const PetscWarpMesh *dmesh, const PetscWarpPhys *dph, const PetscWarpRowNZ *dv, const double *d_coef, double *d_val, double *h, int nslots, cudaStream_t st)
{
  CHECK(cudaMemset(d_val, 0xff, sizeof(double) * nslots));
  CHECK(PetscWarpAsmRowNZCUDA(dfe, dmesh, dph, dv, d_coef, d_val, st));
  CHECK(cudaStreamSynchronize(st));
  CHECK(cudaMemcpy(h, d_val, sizeof(double) * nslots, cudaMemcpyDeviceToHost));
}

/* geo 2 on the device (the fused P1 lanes in closed form, prefetching 0 (run by the prefetch 1 kernel), 1 and 2) bitwise
   against the host twin's values cf */
static void RowNZClosedCUDA(const Config *C, int l, const PetscWarpFE *dfe, const PetscWarpMesh *dmesh, const PetscWarpPhys *dph, PetscWarpRowNZ *dv, double p1s, double p1r, double *d_val, double *h, const double *cf, int nslots, cudaStream_t st, const char *how)
{
  dv->unroll = 1, dv->geo = 2, dv->p1sigma = p1s, dv->p1detr = p1r;
  for (int pipe = 0; pipe <= 2; pipe++) {
    dv->pipe = pipe;
    RowNZRunCUDA(dfe, dmesh, dph, dv, NULL, d_val, h, nslots, st);
    EXPECT(!memcmp(h, cf, sizeof(double) * nslots), "%s: RowNZ in closed form (layout %d, %s, prefetch %d) on the device differs from the host twin (not bitwise): %g", C->name, l, how, pipe, RelDiff((size_t)nslots, cf, h));
  }
  dv->pipe = 0, dv->geo = 0, dv->p1sigma = dv->p1detr = 0.0;
}
#endif

/* RowNZ (host twin, and the device bitwise against it) for the CSR and ELL-like plans; Kaff set in P->fe */
static void CheckRowNZ(const Config *C, Problem *P, const double *ref, int cuda)
{
  const int layouts[5][4] = {
    {0, 32, 0, 1},
    {0, 5,  0, 1},
    {0, 5,  0, 0},
    {1, 0,  0, 1},
    {1, 0,  1, 0}
  };
  const int      nc_ = P->M.ncells, cs = PetscWarpAsmRowNZCoefStride(P->fe.dim, P->full.kind);
  double        *coef = NEW(double, (size_t)nc_ *cs), rd;
  PetscWarpPhys *ph   = &P->full;
  int            ndev = 0;
  CHECK(PetscWarpAsmRowNZCoefHost(&P->fe, &P->mesh, ph, coef));
  for (int l = 0; l < 5; l++) {
    RowPlan R;
    double *val, *exp_, *cf = NULL, p1s = 0, p1r = 0; /* cf: geo 2's values (P1 Laplacians) */
    BuildRowNZ(P, layouts[l][0], layouts[l][1], layouts[l][2], layouts[l][3], &R);
    val  = NEW(double, R.nslots + 1);
    exp_ = NEW(double, R.nslots + 1);
    for (int s = 0; s < R.nslots; s++) val[s] = 1e300; /* every slot must be written */
    RowNZExpected(P, &R, layouts[l][0], layouts[l][1], layouts[l][2], ref, exp_);
    CHECK(PetscWarpAsmRowNZHost(&P->fe, &P->mesh, ph, &R.v, coef, val));
    EXPECT((rd = RelDiff((size_t)R.nslots, exp_, val)) < 1e-14, "%s: rownz (layout %d) differs from the element matrices: %g", C->name, l, rd);
    { /* fused: the rows compute their cells' factors, the same values bitwise */
      double *fv = NEW(double, R.nslots + 1);
      for (int s = 0; s < R.nslots; s++) fv[s] = 1e300;
      CHECK(PetscWarpAsmRowNZHost(&P->fe, &P->mesh, ph, &R.v, NULL, fv));
      EXPECT(!memcmp(fv, val, sizeof(double) * R.nslots), "%s: fused rownz (layout %d) differs from rownz with the factor array (not bitwise): %g", C->name, l, RelDiff((size_t)R.nslots, val, fv));
      free(fv);
    }
    if (l == 0 && !(P->fe.nb == P->fe.dim + 1 && P->fe.ncv == P->fe.nb)) { /* not P1 on simplices: no closed form */
      double sg, dr;
      EXPECT(PetscWarpAsmRowNZSimplexConstants(&P->fe, &sg, &dr) != 0, "%s: the P1 closed form accepted a tabulation of %d basis functions on cells of %d vertices", C->name, P->fe.nb, P->fe.ncv);
    }
    if (ph->kind == PETSCWARP_PHYS_LAPLACE && P->fe.nb == P->fe.dim + 1 && P->fe.ncv == P->fe.nb && !R.v.wide) { /* geo 2: the P1 rows in closed form (host twin) */
      PetscWarpRowNZ v2 = R.v;
      cf                = NEW(double, R.nslots + 1);
      EXPECT(!PetscWarpAsmRowNZSimplexConstants(&P->fe, &v2.p1sigma, &v2.p1detr), "%s: the P1 closed form refused a P1 tabulation", C->name);
      v2.geo = 2, v2.unroll = 1;
      for (int s = 0; s < R.nslots; s++) cf[s] = 1e300;
      CHECK(PetscWarpAsmRowNZHost(&P->fe, &P->mesh, ph, &v2, NULL, cf));
      EXPECT((rd = RelDiff((size_t)R.nslots, exp_, cf)) < 1e-13, "%s: rownz in closed form (layout %d) differs from the element matrices: %g", C->name, l, rd);
      if (ph->coef == 2) EXPECT(!memcmp(cf, val, sizeof(double) * R.nslots), "%s: rownz in closed form with a tensor coefficient (layout %d) is not the generic arithmetic", C->name, l);
      { /* where it does not apply the twin keeps the generic arithmetic: the factor array, the generic kernel (unroll 0) */
        double *gv = NEW(double, R.nslots + 1);
        CHECK(PetscWarpAsmRowNZHost(&P->fe, &P->mesh, ph, &v2, coef, gv));
        EXPECT(!memcmp(gv, val, sizeof(double) * R.nslots), "%s: rownz with the factor array and geo 2 (layout %d) is not the generic arithmetic", C->name, l);
        v2.unroll = 0;
        CHECK(PetscWarpAsmRowNZHost(&P->fe, &P->mesh, ph, &v2, NULL, gv));
        EXPECT(!memcmp(gv, val, sizeof(double) * R.nslots), "%s: fused rownz with geo 2 and the generic kernel (layout %d) is not the generic arithmetic", C->name, l);
        free(gv);
      }
      if (l == 0) { /* the constants refuse a P1 basis whose functions are not the coordinate map's, vertex by vertex */
        PetscWarpFE pf = P->fe;
        double     *Dp = NEW(double, (size_t)P->fe.nq * P->fe.nb * P->fe.dim), sg, dr;
        for (int q = 0; q < P->fe.nq; q++) /* basis functions 0 and 1 swapped */
          for (int a = 0; a < P->fe.nb; a++)
            for (int d = 0; d < P->fe.dim; d++) Dp[((size_t)q * P->fe.nb + a) * P->fe.dim + d] = P->fe.D[((size_t)q * P->fe.nb + (a < 2 ? 1 - a : a)) * P->fe.dim + d];
        pf.D = Dp;
        EXPECT(PetscWarpAsmRowNZSimplexConstants(&pf, &sg, &dr) != 0, "%s: the P1 closed form accepted a permuted basis", C->name);
        free(Dp);
        printf("  rownz P1 closed form (geo 2, coefficient %d): %.2e from the element matrices\n", ph->coef, rd);
      }
      p1s = v2.p1sigma, p1r = v2.p1detr;
      (void)p1s, (void)p1r; /* read by the CUDA checks only */
    }
#if defined(PETSCWARP_TEST_CUDA)
    if (cuda && PetscWarpAsmRowNZTileBytes(&P->fe, ph->kind, R.v.maxslots)) {
      cudaStream_t   st;
      PetscWarpFE    dfe   = P->fe;
      PetscWarpMesh  dmesh = P->mesh;
      PetscWarpPhys  dph   = *ph;
      PetscWarpRowNZ dv    = R.v;
      double        *d_coef, *d_val, *h = NEW(double, R.nslots + 1), *hc = NEW(double, (size_t)nc_ *cs);
      size_t         maxsh, ni = (size_t)R.ioff[R.v.ntiles];
      CHECK(PetscWarpAsmMaxSharedCUDA(&maxsh));
      if (PetscWarpAsmRowNZTileBytes(&P->fe, ph->kind, R.v.maxslots) <= maxsh) {
        CHECK(cudaStreamCreate(&st));
        dfe.Dc    = (double *)Dev(P->fe.Dc, sizeof(double) * P->fe.nq * P->fe.ncv * P->fe.dim);
        dfe.Kaff  = (double *)Dev(P->fe.Kaff, sizeof(double) * PetscWarpAsmAffineRefsSize(&P->fe, ph->kind));
        dmesh.cv  = (int *)Dev(P->mesh.cv, sizeof(int) * nc_ * P->fe.ncv);
        dmesh.X   = (double *)Dev(P->mesh.X, sizeof(double) * P->mesh.nverts * P->fe.dim);
        dph.kcell = (double *)Dev(P->kcell, sizeof(double) * nc_ * P->fe.dim * P->fe.dim);
        dv.soff   = (int *)Dev(R.soff, sizeof(int) * (R.v.ntiles + 1));
        dv.ioff   = (int *)Dev(R.ioff, sizeof(int) * (R.v.ntiles + 1));
        dv.nlane  = (unsigned char *)Dev(R.nl, R.v.ntiles);
        dv.lbase  = (int *)Dev(R.lbase, sizeof(int) * R.v.ntiles * PETSCWARP_ROWNZ_LANES);
        dv.lsh    = (unsigned char *)Dev(R.lsh, R.v.ntiles * PETSCWARP_ROWNZ_LANES);
        dv.icell  = (int *)Dev(R.icell, sizeof(int) * ni);
        dv.iloc   = (unsigned char *)Dev(R.iloc, ni);
        dv.kpos8  = R.v.wide ? NULL : (unsigned char *)Dev(R.k8, ni * P->nel);
        dv.kpos16 = R.v.wide ? (unsigned short *)Dev(R.k16, sizeof(unsigned short) * ni * P->nel) : NULL;
        d_coef    = DevZeros((size_t)nc_ * cs);
        d_val     = (double *)Dev(val, sizeof(double) * R.nslots); /* not zeroed: overwritten */
        CHECK(PetscWarpAsmRowNZCoefCUDA(&dfe, &dmesh, &dph, d_coef, st));
        CHECK(cudaStreamSynchronize(st));
        CHECK(cudaMemcpy(hc, d_coef, sizeof(double) * nc_ * cs, cudaMemcpyDeviceToHost));
        EXPECT(!memcmp(hc, coef, sizeof(double) * nc_ * cs), "%s: RowNZCoef on the device differs from the host twin (not bitwise): %g", C->name, RelDiff((size_t)nc_ * cs, coef, hc));
        for (int u = 0; u < 4; u++) { /* the generic kernel, then the one specialised for nb (where there is one); each with the factor array, then fused */
          dv.unroll = u % 2;
          RowNZRunCUDA(&dfe, &dmesh, &dph, &dv, u < 2 ? d_coef : NULL, d_val, h, R.nslots, st);
          EXPECT(!memcmp(h, val, sizeof(double) * R.nslots), "%s: RowNZ (layout %d, unroll %d, %s) on the device differs from the host twin (not bitwise): %g", C->name, l, u % 2, u < 2 ? "factor array" : "fused", RelDiff((size_t)R.nslots, val, h));
        }
        for (int u = 0; u < 4 && P->fe.nb == P->fe.dim + 1; u++) { /* P1: the lanes prefetching 1 and 2 incidences ahead (factor array, then fused gathering the vertices from cv) */
          dv.unroll = 1;
          dv.pipe   = 1 + u % 2;
          dv.geo    = 1; /* fused Laplacians: the metric's upper triangle (the automatic before the closed form), the vertices gathered from cv */
          RowNZRunCUDA(&dfe, &dmesh, &dph, &dv, u < 2 ? d_coef : NULL, d_val, h, R.nslots, st);
          EXPECT(!memcmp(h, val, sizeof(double) * R.nslots), "%s: RowNZ (layout %d, prefetch %d, %s) on the device differs from the host twin (not bitwise): %g", C->name, l, dv.pipe, u < 2 ? "factor array" : "fused", RelDiff((size_t)R.nslots, val, h));
          dv.pipe = 0;
          dv.geo  = 0;
        }
        if (cf) {
          RowNZClosedCUDA(C, l, &dfe, &dmesh, &dph, &dv, p1s, p1r, d_val, h, cf, R.nslots, st, "vertices from cv");
          for (int u = 0; u < 2; u++) { /* geo 2 where it does not apply (the generic kernel, fused; the factor array): the generic values */
            dv.unroll = u, dv.pipe = 1, dv.geo = 2, dv.p1sigma = p1s, dv.p1detr = p1r;
            RowNZRunCUDA(&dfe, &dmesh, &dph, &dv, u ? d_coef : NULL, d_val, h, R.nslots, st);
            EXPECT(!memcmp(h, val, sizeof(double) * R.nslots), "%s: RowNZ with geo 2 and %s (layout %d) on the device is not the generic arithmetic: %g", C->name, u ? "the factor array" : "the generic kernel", l, RelDiff((size_t)R.nslots, val, h));
          }
          dv.unroll = 1, dv.pipe = 0, dv.geo = 0, dv.p1sigma = dv.p1detr = 0.0;
        }
        if (P->fe.ncv == P->fe.dim + 1) { /* fused simplices reading each incidence's vertices streaming (ivert; 3D: the prefetching P1 lanes) */
          int *d_iv = NULL;
          dv.ninc   = (int)ni;
          CHECK(cudaMalloc((void **)&d_iv, sizeof(int) * (size_t)P->fe.ncv * ni + 16));
          CHECK(PetscWarpAsmRowNZIncVertsCUDA(&dv, P->fe.ncv, dmesh.cv, d_iv, st));
          { /* the lists: the incidence's cell's vertices, 0 for padding */
            int *hiv = NEW(int, (size_t)P->fe.ncv *ni + 1), bad = 0;
            CHECK(cudaMemcpy(hiv, d_iv, sizeof(int) * (size_t)P->fe.ncv * ni, cudaMemcpyDeviceToHost));
            for (size_t x = 0; x < ni; x++)
              for (int q = 0; q < P->fe.ncv; q++) bad += hiv[(size_t)q * ni + x] != (R.icell[x] < 0 ? 0 : P->mesh.cv[(size_t)R.icell[x] * P->fe.ncv + q]);
            EXPECT(!bad, "%s: RowNZ incidence vertex lists (layout %d): %d wrong entries", C->name, l, bad);
            free(hiv);
          }
          dv.ivert  = d_iv;
          dv.unroll = 1;
          for (int pg = 0; pg < (P->fe.nb == P->fe.dim + 1 ? 5 : 1); pg++) { /* P1: prefetch 1, 2, each with the factor's two arithmetics (geo) */
            dv.pipe = pg ? 1 + (pg - 1) / 2 : 0;
            dv.geo  = pg ? (pg - 1) % 2 : 0;
            RowNZRunCUDA(&dfe, &dmesh, &dph, &dv, NULL, d_val, h, R.nslots, st);
            EXPECT(!memcmp(h, val, sizeof(double) * R.nslots), "%s: RowNZ (layout %d, fused, incidence vertices, prefetch %d, geometry %d) on the device differs from the host twin (not bitwise): %g", C->name, l, dv.pipe, dv.geo, RelDiff((size_t)R.nslots, val, h));
          }
          dv.pipe = 0;
          dv.geo  = 0;
          if (cf) RowNZClosedCUDA(C, l, &dfe, &dmesh, &dph, &dv, p1s, p1r, d_val, h, cf, R.nslots, st, "incidence vertices");
          dv.ivert = NULL;
          cudaFree(d_iv);
        }
        CHECK(cudaStreamDestroy(st));
        cudaFree((void *)dfe.Dc), cudaFree((void *)dfe.Kaff), cudaFree((void *)dmesh.cv), cudaFree((void *)dmesh.X), cudaFree((void *)dph.kcell);
        cudaFree((void *)dv.soff), cudaFree((void *)dv.ioff), cudaFree((void *)dv.nlane), cudaFree((void *)dv.lbase), cudaFree((void *)dv.lsh), cudaFree((void *)dv.icell), cudaFree((void *)dv.iloc), cudaFree((void *)dv.kpos8), cudaFree((void *)dv.kpos16);
        cudaFree(d_coef), cudaFree(d_val);
        ndev++;
      }
      free(h), free(hc);
    }
#else
    (void)cuda;
#endif
    free(val), free(exp_), free(cf);
    RowPlanDestroy(&R);
  }
  if (cuda) printf("  device: RowNZCoef, RowNZ (generic and specialised for nb %d) bitwise equal to the host twin (%d of 5 layouts fit)\n", P->nb, ndev);
  free(coef);
}

/* Unsupported sizes are refused, not computed */
static void CheckErrors(int cuda)
{
  Config        C;
  Problem       P;
  PetscWarpFE   bad;
  PetscWarpPhys ph;
  double        E[16];
  memset(&C, 0, sizeof(C)); /* one Q1 Laplace quadrilateral */
  C.name = "errors", C.dim = 2, C.degree = 1, C.kind = PETSCWARP_PHYS_LAPLACE, C.n[0] = C.n[1] = C.n[2] = 1;
  ProblemCreate(&C, &P);
  ph = P.stiff;
  EXPECT(PetscWarpAsmCheck(&P.fe, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_OK, "a Q1 Laplacian is refused");
  EXPECT(PetscWarpAsmCheck(&P.fe, PETSCWARP_PHYS_ELASTICITY) == PETSCWARP_ASM_ERR_ARG, "nc 1 accepted for elasticity");
  bad     = P.fe;
  bad.dim = 4;
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_ERR_ARG, "dim 4 accepted");
  bad    = P.fe;
  bad.nb = PETSCWARP_MAXNB + 1;
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_ERR_ARG, "nb beyond the limit accepted");
  bad    = P.fe;
  bad.nq = PETSCWARP_MAXNQ + 1;
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_ERR_ARG, "nq beyond the limit accepted");
  bad     = P.fe;
  bad.ncv = 9;
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_ERR_ARG, "ncv 9 accepted");
  bad    = P.fe;
  bad.nc = 2;
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_LAPLACE) == PETSCWARP_ASM_ERR_ARG, "nc 2 accepted for Laplace");
  EXPECT(PetscWarpAsmCheck(&bad, PETSCWARP_PHYS_ELASTICITY) == PETSCWARP_ASM_OK, "nc = dim refused for elasticity");
  EXPECT(PetscWarpAsmElemHost(&bad, &P.mesh, &ph, 1, NULL, E) == PETSCWARP_ASM_ERR_ARG, "ElemHost accepted nc 2 for Laplace");
  ph.coef = 1, ph.kcell = NULL;
  EXPECT(PetscWarpAsmElemHost(&P.fe, &P.mesh, &ph, 1, NULL, E) == PETSCWARP_ASM_ERR_ARG, "ElemHost accepted coef 1 without kcell");
  bad     = P.fe;
  bad.dim = 4;
  ph      = P.stiff;
  EXPECT(PetscWarpAsmLoadHost(&bad, &P.mesh, &ph, P.e2d, E) == PETSCWARP_ASM_ERR_ARG, "LoadHost accepted dim 4");
#if defined(PETSCWARP_TEST_CUDA)
  if (cuda) {
    PetscWarpShared sh;
    memset(&sh, 0, sizeof(sh));
    EXPECT(PetscWarpAsmElemCUDA(&bad, &P.mesh, &ph, 1, NULL, NULL, NULL) == (int)cudaErrorInvalidValue, "ElemCUDA accepted dim 4");
    EXPECT(PetscWarpAsmDirectCUDA(&bad, &P.mesh, &ph, 1, NULL, NULL, 1, NULL, NULL) == (int)cudaErrorInvalidValue, "DirectCUDA accepted dim 4");
    EXPECT(PetscWarpAsmLoadCUDA(&bad, &P.mesh, &ph, NULL, NULL, NULL) == (int)cudaErrorInvalidValue, "LoadCUDA accepted dim 4");
    EXPECT(PetscWarpAsmSharedNZCUDA(&bad, &P.mesh, &ph, &sh, NULL, NULL) == (int)cudaErrorInvalidValue, "SharedNZCUDA accepted dim 4");
  }
#else
  (void)cuda;
#endif
  ProblemDestroy(&P);
}

int main(int argc, char **argv)
{
  const int    LAP = PETSCWARP_PHYS_LAPLACE, EL = PETSCWARP_PHYS_ELASTICITY;
  const Config configs[] = {
    {"quad Q1 laplace unit squares",    2, 0, 1, LAP, 0, {2, 2, 1},   0, 1, 0},
    {"quad Q1 laplace kcell",           2, 0, 1, LAP, 1, {3, 2, 1},   1, 0, 0},
    {"quad Q2 laplace unit squares",    2, 0, 2, LAP, 0, {2, 2, 1},   0, 1, 0},
    {"quad Q2 laplace tensor",          2, 0, 2, LAP, 2, {2, 3, 1},   1, 0, 0},
    {"quad Q1 elasticity",              2, 0, 1, EL,  0, {3, 3, 1},   1, 0, 0},
    {"quad Q2 elasticity",              2, 0, 2, EL,  0, {2, 2, 1},   1, 0, 0},
    {"tri P1 laplace corner",           2, 1, 1, LAP, 0, {0, 0, 0},   0, 1, 0},
    {"tri P1 laplace tensor",           2, 1, 1, LAP, 2, {3, 2, 1},   1, 0, 0},
    {"tri P1 elasticity",               2, 1, 1, EL,  0, {3, 3, 1},   1, 0, 0},
    {"hex Q1 laplace unit cubes",       3, 0, 1, LAP, 0, {2, 2, 2},   0, 1, 0},
    {"hex Q1 laplace tensor",           3, 0, 1, LAP, 2, {2, 2, 2},   1, 0, 0},
    {"hex Q1 elasticity",               3, 0, 1, EL,  0, {2, 2, 2},   1, 0, 0},
    {"hex Q2 laplace unit cubes",       3, 0, 2, LAP, 0, {2, 2, 2},   0, 1, 0},
    {"hex Q2 laplace kcell",            3, 0, 2, LAP, 1, {2, 2, 1},   1, 0, 0},
    {"hex Q2 elasticity (nel 81)",      3, 0, 2, EL,  0, {2, 1, 1},   1, 0, 0},
    {"hex Q2 elasticity 2x2x2",         3, 0, 2, EL,  0, {2, 2, 2},   1, 0, 0},
    {"tet P1 laplace corner",           3, 1, 1, LAP, 0, {0, 0, 0},   0, 1, 0},
    {"tet P1 laplace tensor",           3, 1, 1, LAP, 2, {2, 2, 2},   1, 0, 0},
    {"tet P1 elasticity",               3, 1, 1, EL,  0, {2, 2, 2},   1, 0, 0},
    {"tet P1 laplace kcell",            3, 1, 1, LAP, 1, {2, 2, 2},   1, 0, 0},
    {"hex Q1 laplace 8^3 (batches)",    3, 0, 1, LAP, 0, {8, 8, 8},   1, 0, 0},
    {"tet P1 elasticity 4^3 (batches)", 3, 1, 1, EL,  0, {4, 4, 4},   1, 0, 0},
    {"tri P1 laplace 16^2 (batches)",   2, 1, 1, LAP, 1, {16, 16, 1}, 1, 0, 0},
    {"hex Q2 laplace unit cubes nq 64", 3, 0, 2, LAP, 0, {2, 2, 2},   0, 1, 1}, /* tabulation beyond the shared memory budget */
    {"hex Q2 elasticity nq 64",         3, 0, 2, EL,  0, {2, 1, 1},   1, 0, 1},
    {"quad Q2 laplace tensor affine",   2, 0, 2, LAP, 2, {3, 2, 1},   0, 0, 0}, /* the affine path with coefficients */
    {"hex Q1 laplace kcell affine",     3, 0, 1, LAP, 1, {3, 2, 2},   0, 0, 0},
    {"hex Q2 laplace tensor affine",    3, 0, 2, LAP, 2, {2, 2, 2},   0, 0, 0},
    {"hex Q2 elasticity affine",        3, 0, 2, EL,  0, {2, 2, 1},   0, 0, 0},
    {"quad Q1 elasticity affine",       2, 0, 1, EL,  0, {3, 3, 1},   0, 0, 0},
    {"hex Q3 laplace affine",           3, 0, 3, LAP, 1, {2, 1, 1},   0, 0, 0}, /* reference matrices beyond PWA_REF_BUDGET */
  };
  int cuda = 0;

#if defined(PETSCWARP_TEST_CUDA)
  {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess) ndev = 0, (void)cudaGetLastError();
    cuda = ndev > 0;
  }
#endif
  CheckErrors(cuda);
  for (size_t k = 0; k < sizeof(configs) / sizeof(configs[0]); k++) {
    Problem P;
    int     before = nfail;
    ProblemCreate(&configs[k], &P);
    printf("%-34s: %4d cells, nel %2d, nq %2d, %5d dofs\n", configs[k].name, P.M.ncells, P.nel, P.fe.nq, P.ndof);
    CheckElements(&configs[k], &P);
    CheckAssembly(&configs[k], &P, cuda, 0);
    if (nfail == before) printf("  host: element checks pass; Direct, colors, Reduce, SharedNZ (1, 2, 3, 8, 32 parts) agree\n");
    { /* every cell affine (simplices, undistorted quadrilaterals and hexahedra): the affine path too */
      unsigned char *aff = NEW(unsigned char, P.M.ncells);
      int            naff;
      CHECK(PetscWarpAsmAffineCellsHost(&P.fe, &P.mesh, 1e-13, aff, &naff));
      EXPECT(configs[k].simplex ? naff == P.M.ncells : configs[k].distort || naff == P.M.ncells, "%s: %d of %d cells affine", configs[k].name, naff, P.M.ncells);
      if (naff == P.M.ncells) {
        before = nfail;
        CheckAssembly(&configs[k], &P, cuda, 1);
        if (nfail == before) printf("  host (affine path): element matrices agree with the quadrature's; Direct, colors, Reduce, SharedNZ, RowNZ (5 layouts) agree\n");
      } else printf("  %d of %d cells affine: the quadrature path only\n", naff, P.M.ncells);
      free(aff);
    }
    ProblemDestroy(&P);
  }
  if (nfail) {
    fprintf(stderr, "%d check(s) failed\n", nfail);
    return 1;
  }
#if defined(PETSCWARP_TEST_CUDA)
  if (!cuda && !(argc > 1 && !strcmp(argv[1], "-host"))) {
    printf("SKIPPED: no CUDA device (the host checks passed; the device checks did not run)\n");
    return 200;
  }
#endif
  printf("all assembly kernel checks pass%s\n", cuda ? " (host and device)" : " (host)");
  return 0;
}
