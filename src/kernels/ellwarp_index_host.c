/* Host twin of the compact column indices of the ELL-WARP layout (issue 9): the blocked layout (one column index per
   unit of u consecutive columns) and 16-bit offsets per warp; see include/petscwarp/private/ellwarpkernels.h.
   Twin: ellwarp_index.cu. */
#include <petscwarp/private/ellwarpkernels.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int PetscWarpEllBlockedHost(int nrows, const int *rowptr, const int *colidx, int u)
{
  if (u < 1 || u > PETSCWARP_MAX_UNIT || rowptr[0] % u) return 0;
  for (int i = 0; i < nrows; i++) {
    int p = rowptr[i], len = rowptr[i + 1] - p;
    if (len % u) return 0;
    for (int b = 0; b < len; b += u)
      if (colidx[p + b] % u || colidx[p + b + u - 1] != colidx[p + b] + u - 1) return 0;
  }
  return 1;
}

void PetscWarpEllDropIndexHost(PetscWarpEll *E)
{
  free(E->wmode);
  free(E->ioff);
  free(E->cidx);
  E->wmode   = NULL;
  E->ioff    = NULL;
  E->cidx    = NULL;
  E->ncidx   = 0;
  E->nnarrow = 0;
}

static int CmpKey(const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
  return (x > y) - (x < y);
}

/* The sorted unit columns of warp w's entries into key[]; returns their number */
static int WarpColumns(const PetscWarpEll *B, int w, unsigned long long *key)
{
  int n = 0;
  for (int s = B->woff[w]; s < B->woff[w + 1]; s++)
    if (B->map[s] >= 0) key[n++] = (unsigned long long)B->col[s];
  qsort(key, (size_t)n, sizeof(*key), CmpKey);
  return n;
}

/* The compact index of a layout over units (B: col, map and woff in unit slots): 16-bit codes (when narrow) in the
   warps whose columns form at most 32 clusters, else in those whose lanes jump to at most 32 buckets (hybrid), 32-bit
   columns in the others */
static int CompactHost(PetscWarpEll *B, int narrow)
{
  long long           off = 0;
  int                 nw = B->nwarps, start[32], bucket[32], nb, err = PETSCWARP_ERR_MEM;
  unsigned long long *key = (unsigned long long *)malloc(sizeof(*key) * ((size_t)B->maxwidth * PETSCWARP_WARP + 1));

  B->wmode = (int *)malloc(sizeof(int) * ((size_t)nw + 1));
  B->ioff  = (int *)malloc(sizeof(int) * ((size_t)nw + 1));
  if (!key || !B->wmode || !B->ioff) goto done;
  B->nnarrow = 0;
  for (int w = 0; w < nw; w++) {
    int sb      = narrow ? PetscWarpEllClusters(key, WarpColumns(B, w, key), &nb, NULL) : -1;
    B->wmode[w] = narrow ? PetscWarpEllMode(sb, nb, B->col, B->woff[w], B->woff[w + 1], bucket) : PETSCWARP_MODE_WIDE;
    B->ioff[w]  = (int)off;
    B->nnarrow += B->wmode[w] != PETSCWARP_MODE_WIDE;
    off += PetscWarpEllStreamLength(B->wmode[w], B->woff[w + 1] - B->woff[w]);
    if (off > INT_MAX) {
      err = PETSCWARP_ERR_RANGE;
      goto done;
    }
  }
  B->ncidx = (int)off;
  B->cidx  = (unsigned short *)malloc(sizeof(unsigned short) * ((size_t)off + 1));
  if (!B->cidx) goto done;
  for (int w = 0; w < nw; w++) {
    unsigned short *ci   = B->cidx + B->ioff[w];
    int             mode = B->wmode[w], sb = mode & 255, hybrid = mode < PETSCWARP_MODE_WIDE, first;
    nb = 0;
    if (mode >= 0) (void)PetscWarpEllClusters(key, WarpColumns(B, w, key), &nb, start); /* cluster starts */
    else if (hybrid) (void)PetscWarpEllJumps(B->col, B->woff[w], B->woff[w + 1], bucket, &nb);
    for (int k = 0; k < nb; k++) {
      unsigned c    = (unsigned)(hybrid ? bucket[k] << 10 : start[k]);
      ci[2 * k]     = (unsigned short)(c & 0xffffu);
      ci[2 * k + 1] = (unsigned short)(c >> 16);
    }
    ci += 2 * nb;
    for (int s = B->woff[w], k = 0; s < B->woff[w + 1]; s++, k++) {
      unsigned c = (unsigned)B->col[s];
      first      = k < PETSCWARP_WARP;
      if (mode >= 0) ci[k] = B->map[s] >= 0 ? PetscWarpEllCode(start, nb, sb, (int)c) : 0;
      else if (hybrid) ci[k] = PetscWarpEllHybridCode(bucket, nb, first ? 0 : B->col[s - PETSCWARP_WARP], (int)c);
      else {
        ci[2 * k]     = (unsigned short)(c & 0xffffu);
        ci[2 * k + 1] = (unsigned short)(c >> 16);
      }
    }
  }
  err = PETSCWARP_OK;
done:
  free(key);
  return err;
}

/* The layout B over units (unit slots) into value slots: E takes B's warps, permutation and compact index; col, map,
   diag and val are expanded u-fold; B's unit arrays are freed */
static int ExpandHost(PetscWarpEll *B, int u, int ncols, PetscWarpEll *E)
{
  long long ns = (long long)u * B->nslots;

  int    *col, *map, *woff;
  double *val;

  if (ns > INT_MAX) return PETSCWARP_ERR_RANGE;
  col  = (int *)calloc((size_t)ns + 1, sizeof(int));
  map  = (int *)malloc(sizeof(int) * ((size_t)ns + 1));
  val  = (double *)calloc((size_t)ns + 1, sizeof(double));
  woff = (int *)malloc(sizeof(int) * ((size_t)B->nwarps + 1));
  if (!col || !map || !val || !woff) {
    free(col), free(map), free(val), free(woff);
    return PETSCWARP_ERR_MEM;
  }
  PetscWarpEllExpandScalars(E, B, u, ncols);
  E->col  = col;
  E->map  = map;
  E->val  = val;
  E->woff = woff;
  for (int i = 0; i < B->nrows; i++) E->diag[i] = -1;
  for (int w = 0; w < B->nwarps; w++) {
    int l = B->winfo[w] & 255, nr = (B->winfo[w] >> 8) & 255;
    for (int bs = B->woff[w]; bs < B->woff[w + 1]; bs++) {
      int rel = bs - B->woff[w], kb = rel / PETSCWARP_WARP, t = rel % PETSCWARP_WARP, r = t >> l, row = r < nr ? B->perm[B->wrow[w] + r] : -1;
      int c = B->col[bs], m = B->map[bs];
      for (int j = 0; j < u; j++) {
        int v     = u * B->woff[w] + PETSCWARP_WARP * (kb * u + j) + t;
        E->col[v] = u * c + j;
        E->map[v] = m >= 0 ? u * m + j : -1;
        if (m >= 0 && u * c + j == row) E->diag[row] = v;
      }
    }
  }
  for (int w = 0; w <= B->nwarps; w++) E->woff[w] = u * B->woff[w];
  free(B->col), free(B->map), free(B->val), free(B->woff);
  memset(B, 0, sizeof(*B));
  return PETSCWARP_OK;
}

int PetscWarpEllBuildIndexHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, int window, int unit, int narrow, PetscWarpEll *E)
{
  int          u = unit < 1 ? 1 : unit, err, *rb = NULL, *cb = NULL, nb;
  PetscWarpEll B;

  if (u == 1 && !narrow) return PetscWarpEllBuildWindowHost(nrows, ncols, rowptr, colidx, order, threshold, window, E);
  if (u == 1) {
    err = PetscWarpEllBuildWindowHost(nrows, ncols, rowptr, colidx, order, threshold, window, E);
    if (!err) err = CompactHost(E, narrow);
    if (err) PetscWarpEllFreeHost(E);
    return err;
  }
  memset(E, 0, sizeof(*E));
  if (u > PETSCWARP_MAX_UNIT) return PETSCWARP_ERR_RANGE;
  /* the compressed pattern: rows of len / u units, unit columns c / u (the positions keep the base rowptr[0] / u) */
  nb = rowptr[nrows] / u;
  rb = (int *)malloc(sizeof(int) * ((size_t)nrows + 1));
  cb = (int *)malloc(sizeof(int) * ((size_t)nb + 1));
  if (!rb || !cb) {
    free(rb), free(cb);
    return PETSCWARP_ERR_MEM;
  }
  for (int i = 0; i <= nrows; i++) rb[i] = rowptr[i] / u;
  for (int k = rb[0]; k < nb; k++) cb[k] = colidx[(long long)u * k] / u;
  err = PetscWarpEllBuildWindowHost(nrows, (ncols + u - 1) / u, rb, cb, order, threshold > 0 ? (threshold + u - 1) / u : 0, window, &B);
  free(rb), free(cb);
  if (err) return err;
  err = CompactHost(&B, narrow);
  if (!err) err = ExpandHost(&B, u, ncols, E);
  if (err) {
    PetscWarpEllFreeHost(&B);
    PetscWarpEllFreeHost(E);
  }
  return err;
}
