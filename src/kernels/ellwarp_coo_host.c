/* Host twin of the COO assembly of an ELL-WARP matrix (ellwarp_coo.cu); see include/petscwarp/private/ellwarpcookernels.h */
#include <petscwarp/private/ellwarpcookernels.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long Key;

static long long Index(const void *a, int idxbytes, long long k)
{
  return idxbytes == 8 ? ((const long long *)a)[k] : (long long)((const int *)a)[k];
}

/* Bits of the keys: enough for nrows * ncols (the key of dropped entries), at least one */
static int KeyBits(Key S)
{
  int b = 1;
  while (b < 64 && (S >> b)) b++;
  return b;
}

/* Stable LSD radix sort of (key, val) pairs on the low nbits bits of the keys, 8 bits per pass (CUB's
   DeviceRadixSort::SortPairs on the device is stable too, so both give the same order) */
static int SortPairs(int n, int nbits, Key *key, int *val)
{
  Key    *k2 = (Key *)malloc(sizeof(Key) * (size_t)(n ? n : 1));
  int    *v2 = (int *)malloc(sizeof(int) * (size_t)(n ? n : 1));
  Key    *ka = key, *kb = k2;
  int    *va = val, *vb = v2;
  size_t *count;

  count = (size_t *)malloc(sizeof(size_t) * 257);
  if (!k2 || !v2 || !count) {
    free(k2);
    free(v2);
    free(count);
    return PETSCWARP_ERR_MEM;
  }
  for (int shift = 0; shift < nbits; shift += 8) {
    Key *kt;
    int *vt;
    memset(count, 0, sizeof(size_t) * 257);
    for (int i = 0; i < n; i++) count[((ka[i] >> shift) & 0xff) + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (int i = 0; i < n; i++) {
      size_t p = count[(ka[i] >> shift) & 0xff]++;
      kb[p]    = ka[i];
      vb[p]    = va[i];
    }
    kt = ka, ka = kb, kb = kt;
    vt = va, va = vb, vb = vt;
  }
  if (ka != key) {
    memcpy(key, ka, sizeof(Key) * (size_t)n);
    memcpy(val, va, sizeof(int) * (size_t)n);
  }
  free(k2);
  free(v2);
  free(count);
  return PETSCWARP_OK;
}

void PetscWarpCOOFreeHost(PetscWarpCOO *C, int what)
{
  if (what & PETSCWARP_COO_PATTERN) {
    free(C->rowptr);
    free(C->colidx);
    C->rowptr = C->colidx = NULL;
  }
  if (what & PETSCWARP_COO_MAPS) {
    free(C->jmap);
    free(C->perm);
    C->jmap = C->perm = NULL;
  }
}

int PetscWarpCOOBuildHost(int nrows, int ncols, long long ncoo, const void *coo_i, const void *coo_j, int idxbytes, PetscWarpCOO *C)
{
  Key  S = (Key)nrows * (Key)ncols, *key;
  int  n, nvalid = 0, nnz = 0, err;
  int *perm;

  memset(C, 0, sizeof(*C));
  C->nrows  = nrows;
  C->ncols  = ncols;
  C->ncoo   = ncoo;
  C->badrow = C->badcol = -1;
  if (ncoo < 0 || ncoo > INT_MAX) return PETSCWARP_ERR_RANGE;
  n    = (int)ncoo;
  key  = (Key *)malloc(sizeof(Key) * (size_t)(n ? n : 1));
  perm = (int *)malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!key || !perm) {
    free(key);
    free(perm);
    return PETSCWARP_ERR_MEM;
  }
  /* keys, the dropped entries (a negative index) last; out-of-range indices as MatSetPreallocationCOO_SeqAIJ finds them */
  for (int k = 0; k < n; k++) {
    long long r = Index(coo_i, idxbytes, k), c = Index(coo_j, idxbytes, k);
    key[k]  = S;
    perm[k] = k;
    if (r < 0 || c < 0) continue;
    if (r >= nrows) {
      if (r > C->badrow) C->badrow = r;
    } else if (c >= ncols) {
      if (c > C->badcol) C->badcol = c;
    } else key[k] = (Key)r * (Key)ncols + (Key)c;
  }
  if (C->badrow >= 0) C->badcol = -1; /* the row is reported first, as MatSetPreallocationCOO_SeqAIJ() does */
  if (C->badrow >= 0 || C->badcol >= 0) {
    free(key);
    free(perm);
    return PETSCWARP_OK;
  }
  err = SortPairs(n, KeyBits(S), key, perm);
  if (err) {
    free(key);
    free(perm);
    return err;
  }
  while (nvalid < n && key[nvalid] < S) nvalid++;
  for (int k = 0; k < nvalid; k++) nnz += (k == 0 || key[k] != key[k - 1]);
  C->nvalid = nvalid;
  C->nnz    = nnz;
  C->perm   = perm;
  C->rowptr = (int *)calloc((size_t)nrows + 1, sizeof(int));
  C->colidx = (int *)malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  C->jmap   = (int *)malloc(sizeof(int) * ((size_t)nnz + 1));
  if (!C->rowptr || !C->colidx || !C->jmap) {
    free(key);
    PetscWarpCOOFreeHost(C, PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS);
    return PETSCWARP_ERR_MEM;
  }
  for (int k = 0, q = -1; k < nvalid; k++) {
    if (k && key[k] == key[k - 1]) continue;
    q++;
    C->jmap[q]   = k;
    C->colidx[q] = (int)(key[k] % (Key)ncols);
    C->rowptr[key[k] / (Key)ncols + 1]++;
  }
  C->jmap[nnz] = nvalid;
  for (int r = 0; r < nrows; r++) C->rowptr[r + 1] += C->rowptr[r];
  free(key);
  return PETSCWARP_OK;
}

void PetscWarpEllPos2SlotHost(const PetscWarpEll *E, int *pos2slot)
{
  for (int s = 0; s < E->nslots; s++)
    if (E->map[s] >= 0) pos2slot[E->map[s]] = s;
}

void PetscWarpCOOSetValuesHost(int nnz, const int *jmap, const int *perm, const int *slot, const double *v, int add, double *val)
{
  for (int k = 0; k < nnz; k++) {
    double sum = 0.0;
    if (v)
      for (int p = jmap[k]; p < jmap[k + 1]; p++) sum += v[perm[p]];
    double *t = val + (slot ? slot[k] : k);
    *t        = (add ? *t : 0.0) + sum;
  }
}
