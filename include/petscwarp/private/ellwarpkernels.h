/*
  ELL-WARP storage and kernels: the C interface of src/kernels/.

  No PETSc objects here: only pointers, sizes and a stream. Every function exists twice, a host twin in C
  (src/kernels/ellwarp_*_host.c) and a CUDA version (src/kernels/ellwarp_*.cu) over the same layout, so that the host
  twin is the reference in tests and the backend when there is no GPU.

  Layout (Wong, Kuhl, Darve, "ELL-WARP"; seeds/004):
  - rows are sorted by length, longest first (stable), giving the sorted position s -> original row perm[s];
  - a "warp" holds 32 lanes. A row of length len is given L = 2^l lanes (L = 1 for K1), the smallest power of two with
    ceil(len/L) <= threshold, at most 32; rows with the same L are consecutive (rows are sorted), and a warp holds
    32/L consecutive sorted rows of the same L (fewer for the last warp of a group);
  - warp w owns the slots [woff[w], woff[w+1]), a multiple of 32: width = (woff[w+1]-woff[w])/32 slots per lane,
    width = ceil(longest row of the warp / L). Lane t = r*L + sub serves local row r; entry e = k*L + sub of that row
    sits in slot woff[w] + 32*k + t (column-major inside the warp, so a warp reads 32 consecutive slots per step);
  - padding slots hold value 0 and a valid column (the row's last column; column 0 for empty rows), so the inner loop
    has no branch; map[slot] is the CSR position of the entry, -1 for padding; diag[row] is the slot of A(row,row)
    (original numbering) or -1.
  - windowed variant (window W > 0, a multiple of 32): the rows that are split (K2, below) come first, sorted by length;
    then the rows are sorted by length only within windows of W consecutive rows of the given order (window k holds the
    rows at positions kW .. kW+W-1), and a warp never spans two windows. Slices then stay mesh neighbours (the x reads
    of a slice's lanes and its y stores stay local) at the price of more padding; W >= nrows is the global sort.
  - winfo[w] = l | (rows in warp << 8) | (split << 16), wrow[w] = first sorted row of warp w. With all L = 1 (K1
    layout) wrow[w] = 32w.
  - K2 only (threshold t > 0): a row longer than 32 t entries does not fit one warp at the threshold; it is split into
    chunks of 32 t entries, one warp each (L = 32, one row, split = 1), whose partial sums are added to y atomically
    (after y of those rows was set to z or 0). This departs from the paper's warp-to-warp independence for those rows
    only: without it one warp would walk alone through a row of 10^5 entries (a dense row, power-law lengths). Split
    rows are the longest, so they are the first nsplit sorted rows.
  - compact column indices (issue 9: fewer bytes per nonzero than CSR), built when unit > 1 or 16-bit offsets are asked:
    * unit u > 1 (a blocked pattern: every row's columns are whole groups of u consecutive columns starting at a multiple
      of u, e.g. the 3x3 blocks of elasticity): the layout is built on the compressed pattern (row lengths / u, column
      c / u), then expanded: the unit slot 32 kb + t of warp w holds the u entries in value slots
      u woff_u[w] + 32 (kb u + j) + t, j < u. woff, nslots, maxwidth, col, map, diag and val are in value slots (so the
      value refresh, the COO maps, the transpose product and the diagonal are unchanged); threshold counts units per
      lane. One column index per unit;
    * per warp, 16-bit codes where the warp's columns allow, else 32-bit columns (the branch is uniform per warp): the
      distinct unit columns of the warp's entries (padding excluded), sorted, are cut greedily into clusters of span
      < 2^(16-sb) (a cluster starts at the first column beyond the previous cluster's start + 2^(16-sb) - 1), for
      sb = 0, 1, ..., 5 in turn; the first sb with at most 2^sb clusters makes the warp 16-bit: wmode[w] = sb | (nb << 8)
      (nb: clusters, 1..32), the warp's index stream starts with the nb cluster starts (32-bit, little-endian uint16
      pairs), then one code per unit slot, (k << (16 - sb)) | (c - start_k) with k the last cluster starting at or
      before column c (0 for padding slots: the first start, a valid column); the kernel keeps start_k in lane k and
      fetches it with a warp shuffle. Else, hybrid (wmode[w] = -2 - nb): along each lane (slots k = 0, 1, ...; the column
      before the first is 0) a column less than 32768 beyond the previous one is coded as that difference (< 0x8000),
      any other (a jump: to another stratum of DMPlex's numbering, cells, vertices, faces, edges) as
      0x8000 | (k << 10) | (c & 1023) with k the index of its 1024-aligned bucket c >> 10 among the warp's nb <= 32
      distinct jump buckets, sorted; the stream starts with the buckets' first columns (bucket << 10, 32-bit pairs),
      then one code per unit slot. Columns are sorted in each row and padding repeats the row's last column, so a lane
      jumps only where its row changes stratum (Q2 rows of DMPlex: 3-4 times). Else wmode[w] = -1 and the stream holds the 32-bit unit columns. A box mesh's
      warps need 1 cluster (Q1) or 8-32 (Q2 in DMPlex's numbering: cells, vertices, faces and edges far apart). cidx
      holds the warps' streams back to back, warp w's from cidx + ioff[w] (uint16 units, even);
    col (32-bit, every value slot) stays: the transpose product and the host twin's checks read it; the forward
    products read cidx instead.
*/
#pragma once

#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define PETSCWARP_WARP 32

#if defined(__CUDACC__)
  #define PETSCWARP_HD __host__ __device__ /* the layout rules below are shared by the host twin and the device build */
#else
  #define PETSCWARP_HD
#endif

typedef struct {
  int             nrows, ncols; /* local sizes of the block */
  int             nwarps;       /* number of warps (slices) */
  int             maxlanes;     /* largest L of any warp: 1 means a pure K1 layout */
  int             threshold;    /* entries per lane before a row is split (0: never, K1) */
  int             nnz;          /* entries of the CSR matrix it was built from */
  int             nslots;       /* slots, padding included (woff[nwarps]) */
  int             maxwidth;     /* widest warp, in slots per lane */
  int             nsplit;       /* rows split over several warps (the first nsplit sorted rows) */
  int             window;       /* rows sorted by length only within windows of this many consecutive rows (a multiple of 32) of
                           the given order, split rows first; 0: one global sort (the paper's layout) */
  int             identity;     /* perm[s] == s for every s: the rows are already in sorted order (a matrix in the layout's own
                           numbering, the paper's Kr/Krs), so products write y[s] directly, coalesced, without reading perm */
  int             unit;         /* entries per column index (1, or the block size of a blocked pattern); 0 means 1 */
  int             nnarrow;      /* warps whose column index is 16-bit (compact index only) */
  int             ncidx;        /* uint16 units of cidx */
  int            *wmode;        /* [nwarps] sb | (clusters << 8) for a 16-bit warp, -1 for a 32-bit one; NULL: no compact index */
  int            *ioff;         /* [nwarps] start of warp w's index stream in cidx (uint16 units, even) */
  unsigned short *cidx;         /* [ncidx] compact column indices, one per unit slot */
  int            *woff;         /* [nwarps+1] */
  int            *wrow;         /* [nwarps] */
  int            *winfo;        /* [nwarps] */
  int            *perm;         /* [nrows] sorted position -> original row */
  int            *col;          /* [nslots] */
  int            *map;          /* [nslots] CSR position or -1 */
  int            *diag;         /* [nrows] slot of the diagonal entry or -1 */
  double         *val;          /* [nslots] */
} PetscWarpEll;

/* Lanes per row for a row of length len under threshold t (0: 1 lane). Shared by both builds. */
static inline PETSCWARP_HD int PetscWarpEllLanes(int len, int t)
{
  int L = 1;
  if (t <= 0) return 1;
  while (L < PETSCWARP_WARP && (len + L - 1) / L > t) L *= 2;
  return L;
}

#define PETSCWARP_SPLIT (1 << 16) /* winfo flag of a warp holding one chunk of a split row */

/* Chunks (warps) of a row of length len split at threshold t > 0: 0 if the row is not split */
static inline PETSCWARP_HD int PetscWarpEllChunks(int len, int t)
{
  long long cap = 32LL * t;
  return (t > 0 && len > cap) ? (int)((len + cap - 1) / cap) : 0;
}

/* The sort window in use for a requested one: a multiple of 32, or 0 (global sort) when it covers every row */
static inline int PetscWarpEllWindow(int nrows, int window)
{
  long long w = window <= 0 ? 0 : ((long long)window + PETSCWARP_WARP - 1) / PETSCWARP_WARP * PETSCWARP_WARP;
  return (w <= 0 || w >= nrows) ? 0 : (int)w;
}

/* The clusters of a warp's sorted unit columns (the low 32 bits of key[0..n-1], padding excluded) for 16-bit codes
   (see the layout above): returns sb (0..5; -1 when more than 32 clusters would be needed), the clusters in *nb and,
   when start != NULL, their first columns in start[0..*nb-1]. Shared by both builds. */
static inline PETSCWARP_HD int PetscWarpEllClusters(const unsigned long long *key, int n, int *nb, int *start)
{
  for (int sb = 0; sb <= 5; sb++) {
    int span = (1 << (16 - sb)) - 1, cnt = 0, st = 0;
    for (int i = 0; i < n && cnt <= (1 << sb); i++) {
      int c = (int)(key[i] & 0xffffffffULL);
      if (!cnt || c - st > span) {
        if (cnt < (1 << sb) && start) start[cnt] = c;
        cnt++;
        st = c;
      }
    }
    if (cnt <= (1 << sb)) {
      if (!cnt && start) start[0] = 0;
      *nb = cnt ? cnt : 1;
      return sb;
    }
  }
  *nb = 0;
  return -1;
}

#define PETSCWARP_MODE_WIDE (-1) /* wmode of a warp with 32-bit columns; a hybrid warp has wmode -2 - (jump buckets) */

/* The jumps of a warp's lanes (unit slots col[s0..s1), 32 lanes; see the layout above): their sorted distinct buckets
   in bucket[0..*nb-1]; 0 when there are more than 32. Shared by both builds. */
static inline PETSCWARP_HD int PetscWarpEllJumps(const int *col, int s0, int s1, int *bucket, int *nb)
{
  int n = 0;
  for (int t = 0; t < PETSCWARP_WARP; t++)
    for (int s = s0 + t, prev = 0; s < s1; s += PETSCWARP_WARP) {
      int c = col[s], d = c - prev, b = c >> 10, i = 0;
      prev = c;
      if (d >= 0 && d <= 32767) continue;
      while (i < n && bucket[i] < b) i++;
      if (i < n && bucket[i] == b) continue;
      if (n == 32) return 0;
      for (int j = n; j > i; j--) bucket[j] = bucket[j - 1];
      bucket[i] = b;
      n++;
    }
  *nb = n;
  return 1;
}

/* The code of column c after prev in a hybrid warp with jump buckets bucket[0..nb-1] */
static inline PETSCWARP_HD unsigned short PetscWarpEllHybridCode(const int *bucket, int nb, int prev, int c)
{
  int d = c - prev, k = 0;
  if (d >= 0 && d <= 32767) return (unsigned short)d;
  while (k + 1 < nb && bucket[k] != c >> 10) k++;
  return (unsigned short)(0x8000 | (k << 10) | (c & 1023));
}

/* The mode of a warp whose clusters gave sb (-1: too many) and nc, slots col[s0..s1) (unit slots): cluster, hybrid
   (its jump buckets in bucket[]) or wide */
static inline PETSCWARP_HD int PetscWarpEllMode(int sb, int nc, const int *col, int s0, int s1, int *bucket)
{
  int nb;
  if (sb >= 0) return sb | (nc << 8);
  return PetscWarpEllJumps(col, s0, s1, bucket, &nb) ? -2 - nb : PETSCWARP_MODE_WIDE;
}

/* uint16 units of the index stream of a warp of the given mode and unit slots */
static inline PETSCWARP_HD long long PetscWarpEllStreamLength(int mode, int slots)
{
  return mode >= 0 ? 2LL * (mode >> 8) + slots : mode < PETSCWARP_MODE_WIDE ? 2LL * (-2 - mode) + slots : 2LL * slots;
}

/* The 16-bit code of unit column c in a warp with clusters start[0..nb-1] and sb selector bits */
static inline PETSCWARP_HD unsigned short PetscWarpEllCode(const int *start, int nb, int sb, int c)
{
  int k = 0;
  while (k + 1 < nb && start[k + 1] <= c) k++;
  return (unsigned short)((k << (16 - sb)) | (c - start[k]));
}

/* E: the layout B over units of u columns seen in value slots (its scalars and B's arrays; both builds then replace
   col, map, val and woff by the expanded ones) */
static inline void PetscWarpEllExpandScalars(PetscWarpEll *E, const PetscWarpEll *B, int u, int ncols)
{
  *E          = *B;
  E->ncols    = ncols;
  E->unit     = u;
  E->nnz      = u * B->nnz;
  E->nslots   = u * B->nslots;
  E->maxwidth = u * B->maxwidth;
}

#define PETSCWARP_MAX_UNIT 8 /* largest block size of the blocked layout (one kernel instance per size) */

#define PETSCWARP_KC_VARIANTS 4 /* load schedules of the device products (PetscWarpEllMultVariantCUDA()) */
#define PETSCWARP_KC_VARIANT_DEFAULT \
  1 /* the default one (variant -1) of layouts with a compact index (EllWarpKc): H100 2026-11-23, box suite: 16-bit Q1 Laplacian 67.6 -> 60.0 us, Q2 143.3 -> 131.9, block16 Q1 elasticity 101.5 -> 97.8 (bench/results/spmv_kc_h100_2026-11-23.csv) */
#define PETSCWARP_K_VARIANT_DEFAULT 0 /* the default one (variant -1) of layouts with 32-bit columns (EllWarpK1, EllWarpK2): the variants were within 3% of it on the H100 */

/* The load schedule that variant (-1: the default) means for layout E */
static inline int PetscWarpEllVariant(const PetscWarpEll *E, int variant)
{
  return variant >= 0 ? variant : E->cidx ? PETSCWARP_KC_VARIANT_DEFAULT : PETSCWARP_K_VARIANT_DEFAULT;
}

/* Return codes of the host twin */
#define PETSCWARP_OK        0
#define PETSCWARP_ERR_MEM   1 /* allocation failed */
#define PETSCWARP_ERR_RANGE 2 /* more slots than a 32-bit index can address */

/* ---------------- host twin (src/kernels/ellwarp_*_host.c), arrays in host memory ---------------- */
/* Build the layout from CSR (rowptr[nrows+1], colidx[nnz], 32-bit); allocates E's arrays with malloc.
   order: NULL, or the rows in the order in which rows of equal length are to be placed (a locality ordering such as
   RCM); the sort by length is stable with respect to it. */
int PetscWarpEllBuildHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, PetscWarpEll *E);
/* The same with a sort window (0: global sort, as PetscWarpEllBuildHost(); else rounded up to a multiple of 32) */
int PetscWarpEllBuildWindowHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, int window, PetscWarpEll *E);
/* Padding (slots / entries, 1 when there are none) of a K1 layout sorted within windows of the given size (0: global),
   from the row lengths only, without building it: for the automatic choice of the window */
/* The layout with compact column indices (see above): unit u >= 1 (the pattern must be blocked for u > 1:
   PetscWarpEllBlockedHost()), narrow: 16-bit offsets in the warps where they fit; threshold in entries per lane (in
   units: ceil(threshold / u)). With unit 1 and narrow 0 it is PetscWarpEllBuildWindowHost(). */
int PetscWarpEllBuildIndexHost(int nrows, int ncols, const int *rowptr, const int *colidx, const int *order, int threshold, int window, int unit, int narrow, PetscWarpEll *E);
/* 1 if every row's columns are whole groups of u consecutive columns starting at a multiple of u (columns sorted and
   unique in each row, rowptr[0] a multiple of u), else 0; u in 1..PETSCWARP_MAX_UNIT */
int  PetscWarpEllBlockedHost(int nrows, const int *rowptr, const int *colidx, int unit);
int  PetscWarpEllWindowStatsHost(int nrows, const int *rowptr, const int *order, int window, double *padding);
void PetscWarpEllFreeHost(PetscWarpEll *E);
void PetscWarpEllDropIndexHost(PetscWarpEll *E);
/* val[s] = csrval[map[s]] (0 for padding) */
void PetscWarpEllRefreshHost(const PetscWarpEll *E, const double *csrval);
/* csrval[map[s]] = val[s]: the layout's values back in CSR order (the inverse of the refresh) */
void PetscWarpEllToCSRHost(const PetscWarpEll *E, double *csrval);
/* y = A x (+ z when z != NULL; z may alias y) */
void PetscWarpEllMultHost(const PetscWarpEll *E, const double *x, const double *z, double *y);
/* y = A^T x (+ z when z != NULL; z may alias y); y has ncols entries */
void PetscWarpEllMultTransposeHost(const PetscWarpEll *E, const double *x, const double *z, double *y);
void PetscWarpEllGetDiagonalHost(const PetscWarpEll *E, double *d);

/* ---------------- CUDA (src/kernels/ellwarp_*.cu), arrays in device memory ---------------- */
/* Return a cudaError_t as int (0 = success) so that this header stays free of CUDA headers. */
int PetscWarpCUDADeviceCount(int *count);
/* Build from device CSR arrays; allocates E's arrays with cudaMalloc on the device (winfo inside wrow's allocation, map
   and val inside col's: free with PetscWarpEllFreeCUDA() only). */
int PetscWarpEllBuildCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, void *stream, PetscWarpEll *E);
int PetscWarpEllBuildWindowCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, int window, void *stream, PetscWarpEll *E);
int PetscWarpEllBuildIndexCUDA(int nrows, int ncols, const int *d_rowptr, const int *d_colidx, const int *d_order, int threshold, int window, int unit, int narrow, void *stream, PetscWarpEll *E);
int PetscWarpEllBlockedCUDA(int nrows, const int *d_rowptr, const int *d_colidx, int unit, void *stream, int *blocked);
/* Free the compact index (the products then read col) */
int PetscWarpEllDropIndexCUDA(PetscWarpEll *E);
int PetscWarpEllFreeCUDA(PetscWarpEll *E);
int PetscWarpEllRefreshCUDA(const PetscWarpEll *E, const double *d_csrval, void *stream);
int PetscWarpEllToCSRCUDA(const PetscWarpEll *E, double *d_csrval, void *stream);
/* kernel: 1 = K1 (one thread per row; requires maxlanes == 1), 2 = K2 (any layout); a layout with a compact index
   (cidx) runs its own kernel (K2's form over units) whatever kernel says. blocksize: threads per block. */
int PetscWarpEllMultCUDA(const PetscWarpEll *E, int kernel, int blocksize, const double *x, const double *z, double *y, void *stream);
/* The same with the load schedule variant (0 .. PETSCWARP_KC_VARIANTS - 1, or -1 for the layout's default:
   PetscWarpEllVariant(); -mat_ellwarp_kc_variant, issue 9): 0 the compiler's schedule of the plain loops; 1..3 explicit
   batches of codes/columns and values per lane (see ellwarp_spmv.cu, KcSchedule). Every variant gives the same
   products, bitwise but for the chunks of split rows (added atomically in any order). PetscWarpEllMultCUDA() runs the default (-1). */
int PetscWarpEllMultVariantCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, const double *x, const double *z, double *y, void *stream);
/* y = A x with the partial sums of x'y (KSPCGWARP's p'w with its w = A p): part[b] = the sum of x[i] y[i] over the rows
   that block b of the product stored, in a fixed order. Square layouts of schedules 1..3 without split rows only
   (else cudaErrorNotSupported, nothing launched); *nparts: the entries part needs (the product's blocks) */
int PetscWarpEllMultDotPartsCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, int *nparts);
int PetscWarpEllMultDotCUDA(const PetscWarpEll *E, int kernel, int variant, int blocksize, const double *x, double *y, double *part, void *stream);
int PetscWarpEllMultTransposeCUDA(const PetscWarpEll *E, const double *x, const double *z, double *y, void *stream);
int PetscWarpEllGetDiagonalCUDA(const PetscWarpEll *E, double *d, void *stream);
/* Copy a device layout's index arrays to host arrays (for tests comparing with the host twin); the compact index
   (wmode, ioff, cidx) too where both have it */
int PetscWarpEllCopyToHostCUDA(const PetscWarpEll *dE, PetscWarpEll *hE);

#if defined(__cplusplus)
}
#endif
