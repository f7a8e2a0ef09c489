/* Host twin of the ELL-WARP build (see include/petscwarp/private/ellwarpkernels.h for the layout). */
#include <petscwarp/private/ellwarpkernels.h>
#include <stdlib.h>
#include <string.h>

void PetscWarpEllFreeHost(PetscWarpEll *E)
{
  free(E->woff);
  free(E->wrow);
  free(E->winfo);
  free(E->perm);
  free(E->col);
  free(E->map);
  free(E->diag);
  free(E->val);
  free(E->wmode);
  free(E->ioff);
  free(E->cidx);
  memset(E, 0, sizeof(*E));
}

/* Stable counting sort of the rows (taken in the given order, or 0..nrows-1) by length, longest first */
static int SortRowsByLength(int nrows, const int *rowptr, const int *order, int maxlen, int *perm)
{
  int *count = (int *)calloc((size_t)maxlen + 2, sizeof(int));
  if (!count) return PETSCWARP_ERR_MEM;
  for (int i = 0; i < nrows; i++) count[maxlen - (rowptr[i + 1] - rowptr[i]) + 1]++;
  for (int b = 1; b <= maxlen + 1; b++) count[b] += count[b - 1];
  for (int k = 0; k < nrows; k++) {
    int i                                               = order ? order[k] : k;
    perm[count[maxlen - (rowptr[i + 1] - rowptr[i])]++] = i;
  }
  free(count);
  return PETSCWARP_OK;
}

typedef struct {
  long long key; /* segment << 32 | (INT_MAX - length): segment 0 for split rows, 1 + window index for the others */
  int       pos; /* position in the given order (ties: stable) */
  int       row;
} WinKey;

static int CmpWinKey(const void *a, const void *b)
{
  const WinKey *x = (const WinKey *)a, *y = (const WinKey *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Windowed order: split rows first (longest first), then the rows of each window of W positions longest first; stable.
   seg[s]: the segment of sorted row s (0 split, 1 + window index); a warp never spans two segments. The device build
   sorts the same keys (radix sort, stable) and gets the same order. */
static int SortRowsWindowed(int nrows, const int *rowptr, const int *order, int threshold, int W, int *perm, int *seg)
{
  WinKey *k = (WinKey *)malloc(sizeof(WinKey) * ((size_t)nrows + 1));
  if (!k) return PETSCWARP_ERR_MEM;
  for (int p = 0; p < nrows; p++) {
    int       i = order ? order[p] : p, len = rowptr[i + 1] - rowptr[i];
    long long sg = PetscWarpEllChunks(len, threshold) ? 0 : 1 + p / W;
    k[p].key     = (sg << 32) | (long long)(2147483647 - len);
    k[p].pos     = p;
    k[p].row     = i;
  }
  qsort(k, (size_t)nrows, sizeof(WinKey), CmpWinKey);
  for (int s = 0; s < nrows; s++) {
    perm[s] = k[s].row;
    seg[s]  = (int)(k[s].key >> 32);
  }
  free(k);
  return PETSCWARP_OK;
}

/* Cut the sorted rows into warps: split rows first (one warp per chunk of 32 t entries), then rows of equal lane count
   L, 32/L rows per warp, never across two segments (seg: NULL for the global sort) */
static int CutWarps(PetscWarpEll *E, const int *rowptr, const int *seg, int *wrow, int *winfo, int *woff, long long *nslots)
{
  int       nw = 0, s = 0;
  long long off = 0, cap = 32LL * E->threshold;
  E->nsplit = 0;
  while (s < E->nrows) {
    int row = E->perm[s], len = rowptr[row + 1] - rowptr[row], nch = PetscWarpEllChunks(len, E->threshold);
    int L = PetscWarpEllLanes(len, E->threshold), l = 0, nr = 0, width;
    if (nch) {
      for (int k = 0; k < nch; k++, nw++) {
        long long clen = len - k * cap < cap ? len - k * cap : cap;
        if (wrow) {
          wrow[nw]  = s;
          winfo[nw] = 5 | (1 << 8) | PETSCWARP_SPLIT;
          woff[nw]  = (int)off;
        }
        off += 32 * ((clen + 31) / 32);
      }
      E->nsplit++;
      s++;
      continue;
    }
    while ((1 << l) < L) l++;
    while (nr < PETSCWARP_WARP / L && s + nr < E->nrows) {
      int r2 = E->perm[s + nr];
      if (PetscWarpEllLanes(rowptr[r2 + 1] - rowptr[r2], E->threshold) != L || (seg && seg[s + nr] != seg[s])) break;
      nr++;
    }
    width = (len + L - 1) / L;
    if (wrow) {
      wrow[nw]  = s;
      winfo[nw] = l | (nr << 8);
      woff[nw]  = (int)off;
    }
    off += (long long)PETSCWARP_WARP * width;
    s += nr;
    nw++;
  }
  if (woff) woff[nw] = (int)off;
  *nslots = off;
  return nw;
}

int PetscWarpEllBuildHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, PetscWarpEll *E)
{
  return PetscWarpEllBuildWindowHost(nrows, ncols, rowptr, colidx, order, threshold, 0, E);
}

int PetscWarpEllBuildWindowHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, int window, PetscWarpEll *E)
{
  int       maxlen = 0, err, nw, *seg = NULL;
  long long nslots;

  memset(E, 0, sizeof(*E));
  E->unit      = 1;
  E->nrows     = nrows;
  E->ncols     = ncols;
  E->threshold = threshold;
  E->window    = PetscWarpEllWindow(nrows, window);
  E->nnz       = rowptr[nrows] - rowptr[0];
  for (int i = 0; i < nrows; i++) {
    int len = rowptr[i + 1] - rowptr[i];
    if (len > maxlen) maxlen = len;
  }
  E->perm = (int *)malloc(sizeof(int) * ((size_t)nrows + 1));
  E->diag = (int *)malloc(sizeof(int) * ((size_t)nrows + 1));
  if (!E->perm || !E->diag) goto oom;
  if (E->window) {
    seg = (int *)malloc(sizeof(int) * ((size_t)nrows + 1));
    if (!seg) goto oom;
    err = SortRowsWindowed(nrows, rowptr, order, threshold, E->window, E->perm, seg);
  } else err = SortRowsByLength(nrows, rowptr, order, maxlen, E->perm);
  if (err) goto fail;
  E->identity = 1;
  for (int s = 0; s < nrows && E->identity; s++) E->identity = E->perm[s] == s;

  nw = CutWarps(E, rowptr, seg, NULL, NULL, NULL, &nslots);
  if (nslots > 2147483647LL) {
    err = PETSCWARP_ERR_RANGE;
    goto fail;
  }
  E->nwarps = nw;
  E->nslots = (int)nslots;
  E->woff   = (int *)malloc(sizeof(int) * ((size_t)nw + 1));
  E->wrow   = (int *)malloc(sizeof(int) * ((size_t)nw + 1));
  E->winfo  = (int *)malloc(sizeof(int) * ((size_t)nw + 1));
  E->col    = (int *)calloc((size_t)nslots + 1, sizeof(int));
  E->map    = (int *)malloc(sizeof(int) * ((size_t)nslots + 1));
  E->val    = (double *)calloc((size_t)nslots + 1, sizeof(double));
  if (!E->woff || !E->wrow || !E->winfo || !E->col || !E->map || !E->val) goto oom;
  (void)CutWarps(E, rowptr, seg, E->wrow, E->winfo, E->woff, &nslots);
  free(seg);
  seg = NULL;

  for (int s = 0; s < nslots; s++) E->map[s] = -1;
  for (int i = 0; i < nrows; i++) E->diag[i] = -1;
  E->maxlanes = 1;
  for (int w = 0, chunk = 0; w < nw; w++) {
    int l = E->winfo[w] & 255, nr = (E->winfo[w] >> 8) & 255, L = 1 << l;
    int width = (E->woff[w + 1] - E->woff[w]) / PETSCWARP_WARP;
    if (L > E->maxlanes) E->maxlanes = L;
    if (width > E->maxwidth) E->maxwidth = width;
    if (E->winfo[w] & PETSCWARP_SPLIT) { /* chunk k of a split row: its entries k*32t .. */
      int row = E->perm[E->wrow[w]], p = rowptr[row], len = rowptr[row + 1] - p, e0;
      chunk = (w > 0 && E->wrow[w - 1] == E->wrow[w]) ? chunk + 1 : 0;
      e0    = chunk * 32 * threshold;
      for (int e = 0; e < 32 * width; e++) {
        int slot = E->woff[w] + e;
        if (e0 + e < len) {
          E->col[slot] = colidx[p + e0 + e];
          E->map[slot] = p + e0 + e - rowptr[0];
          if (colidx[p + e0 + e] == row) E->diag[row] = slot;
        } else E->col[slot] = colidx[p + len - 1];
      }
      continue;
    }
    for (int r = 0; r < nr; r++) {
      int row = E->perm[E->wrow[w] + r], p = rowptr[row], len = rowptr[row + 1] - p;
      int pad = len ? colidx[p + len - 1] : 0;
      for (int e = 0; e < L * width; e++) {
        int slot = E->woff[w] + PETSCWARP_WARP * (e / L) + r * L + e % L;
        if (e < len) {
          E->col[slot] = colidx[p + e];
          E->map[slot] = p + e - rowptr[0];
          if (colidx[p + e] == row) E->diag[row] = slot;
        } else E->col[slot] = pad;
      }
    }
  }
  return PETSCWARP_OK;
oom:
  err = PETSCWARP_ERR_MEM;
fail:
  free(seg);
  PetscWarpEllFreeHost(E);
  return err;
}

/* Per window: a histogram of the lengths, walked from the longest; a slice starts at every 32nd row and is as wide as
   the row there. O(nrows + the range of lengths of each window). */
int PetscWarpEllWindowStatsHost(int nrows, const int *rowptr, const int *order, int window, double *padding)
{
  int       W = PetscWarpEllWindow(nrows, window), maxlen = 0, *hist;
  long long slots = 0, nnz = nrows ? rowptr[nrows] - rowptr[0] : 0;

  if (!W) W = nrows;
  for (int i = 0; i < nrows; i++)
    if (rowptr[i + 1] - rowptr[i] > maxlen) maxlen = rowptr[i + 1] - rowptr[i];
  hist = (int *)calloc((size_t)maxlen + 1, sizeof(int));
  if (!hist) return PETSCWARP_ERR_MEM;
  for (int w0 = 0; w0 < nrows; w0 += W) {
    int n = nrows - w0 < W ? nrows - w0 : W, lo = maxlen, hi = 0;
    for (int p = w0; p < w0 + n; p++) {
      int i = order ? order[p] : p, len = rowptr[i + 1] - rowptr[i];
      hist[len]++;
      if (len < lo) lo = len;
      if (len > hi) hi = len;
    }
    for (long long L = hi, cnt = 0; L >= lo; L--) {
      long long c = hist[L];
      hist[L]     = 0;
      slots += PETSCWARP_WARP * L * ((cnt + c + PETSCWARP_WARP - 1) / PETSCWARP_WARP - (cnt + PETSCWARP_WARP - 1) / PETSCWARP_WARP);
      cnt += c;
    }
  }
  free(hist);
  *padding = nnz ? (double)slots / (double)nnz : 1.0;
  return PETSCWARP_OK;
}
