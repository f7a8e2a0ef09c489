/*
  COO assembly of an ELL-WARP matrix (MatSetPreallocationCOO(), MatSetValuesCOO()): the C interface of
  src/kernels/ellwarp_coo_host.c (host twin) and src/kernels/ellwarp_coo.cu (CUDA, with CUB).

  No PETSc objects here: only pointers, sizes and a stream. The symbolic step sorts the COO entries by the 64-bit key
  row * ncols + col (a stable radix sort on both sides, so the host twin and the device give identical arrays); entries
  with a negative row or column are dropped (they sort last under the key nrows * ncols); the distinct keys are the
  nonzeros of the CSR pattern (columns sorted in each row), and
    jmap[k] .. jmap[k+1]-1  are the sorted positions of the entries of nonzero k,
    perm[p]                 is the index in the COO arrays of the entry at sorted position p,
  the same data as PETSc's MatCOOStruct_SeqAIJ. The numeric step sums, for every nonzero k, v[perm[jmap[k] ..
  jmap[k+1]-1]] (in increasing COO order) and writes or adds it into val[slot[k]], slot[] being the layout slot of CSR
  position k (PetscWarpEllPos2Slot*()), so that the values land in the ELL-WARP slots directly.
*/
#pragma once

#include <petscwarp/private/ellwarpkernels.h>

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct {
  int       nrows, ncols;
  long long ncoo;   /* entries given */
  int       nvalid; /* entries with a non-negative row and column: the length of perm */
  int       nnz;    /* distinct (row, column) pairs: the nonzeros of the pattern */
  long long badrow; /* largest row >= nrows among the entries with non-negative indices, -1 if none */
  long long badcol; /* largest column >= ncols among those with a row < nrows, -1 if none or if badrow is set */
  int      *rowptr; /* [nrows+1] CSR pattern */
  int      *colidx; /* [nnz] */
  int      *jmap;   /* [nnz+1] */
  int      *perm;   /* [nvalid] */
} PetscWarpCOO;

#define PETSCWARP_COO_PATTERN 1 /* rowptr, colidx */
#define PETSCWARP_COO_MAPS    2 /* jmap, perm */

/* ---------------- host twin (src/kernels/ellwarp_coo_host.c), arrays in host memory (malloc) ---------------- */
/* The symbolic step. coo_i, coo_j: ncoo indices of idxbytes (4 or 8) bytes each, signed. Returns PETSCWARP_OK (also
   when an index is out of range: then badrow or badcol is set and no array is allocated), PETSCWARP_ERR_MEM, or
   PETSCWARP_ERR_RANGE when ncoo or the number of nonzeros does not fit a 32-bit int. */
int  PetscWarpCOOBuildHost(int nrows, int ncols, long long ncoo, const void *coo_i, const void *coo_j, int idxbytes, PetscWarpCOO *C);
void PetscWarpCOOFreeHost(PetscWarpCOO *C, int what); /* what: PETSCWARP_COO_PATTERN | PETSCWARP_COO_MAPS */
/* pos2slot[map[s]] = s for every slot s holding an entry: the slot of each CSR position */
void PetscWarpEllPos2SlotHost(const PetscWarpEll *E, int *pos2slot);
/* val[slot[k]] = (add ? val[slot[k]] : 0) + sum of v[perm[jmap[k] .. jmap[k+1]-1]], k < nnz; v NULL: zeros; slot
   NULL: slot[k] = k (values in CSR order: staged reassembly of MATSEQAIJ / MATSEQAIJCUSPARSE, warpstage.c) */
void PetscWarpCOOSetValuesHost(int nnz, const int *jmap, const int *perm, const int *slot, const double *v, int add, double *val);

/* ---------------- CUDA (src/kernels/ellwarp_coo.cu), arrays in device memory (cudaMalloc) ---------------- */
/* Return a cudaError_t as int (0 = success). The symbolic step: d_coo_i, d_coo_j in device memory; the scalars of C
   are set on the host, its arrays allocated on the device; out-of-range indices as in the host twin (badrow, badcol;
   no array allocated); cudaErrorInvalidValue when ncoo or nnz does not fit a 32-bit int. Synchronizes the stream. */
int PetscWarpCOOBuildCUDA(int nrows, int ncols, long long ncoo, const void *d_coo_i, const void *d_coo_j, int idxbytes, void *stream, PetscWarpCOO *C);
int PetscWarpCOOFreeCUDA(PetscWarpCOO *C, int what);
/* Copies of the maps (jmap, perm) and scalars of C on the other side: allocated with cudaMalloc (ToDevice) or malloc
   (ToHost), to be freed with the matching Free */
int PetscWarpCOOMapsToDeviceCUDA(const PetscWarpCOO *h, PetscWarpCOO *d);
int PetscWarpCOOMapsToHostCUDA(const PetscWarpCOO *d, PetscWarpCOO *h);
int PetscWarpEllPos2SlotCUDA(const PetscWarpEll *E, int *d_pos2slot, void *stream);
int PetscWarpCOOSetValuesCUDA(int nnz, const int *d_jmap, const int *d_perm, const int *d_slot, const double *d_v, int add, double *d_val, void *stream);

#if defined(__cplusplus)
}
#endif
