/*
  LPT packing of a block's lists onto its bs threads, written once for the host plans (src/mat/assembly/warpasmplan.c)
  and the reduction plan built on the device (src/kernels/warpasm_plan.cu), so that both give the same assignment:
  the lists are taken longest first (ties in list order: a stable counting sort by length), each onto the least-loaded
  of the bs threads (ties: the thread that reached that load first). Since the lengths are integers and the least load
  never decreases, the least-loaded thread comes from a bucket queue indexed by load: O(1) a list, no heap.
  Plain C, no PETSc types.
*/
#pragma once

#include <petscwarp/elemgeometry.h> /* PETSCWARP_HD, the host and device qualifiers */

/* Buckets of the queue: LPT keeps every load below total/bs + maxlen */
static inline PETSCWARP_HD long long PwaLptBuckets(int n, int bs, long long total, int maxlen)
{
  return n > bs ? total / bs + maxlen + 1 : (long long)maxlen + 1;
}

/* Histogram of the lengths len[0..n) by maxlen - len into cnt[0..maxlen] */
static inline PETSCWARP_HD void PwaLptHist(int n, const int *len, int maxlen, int *cnt)
{
  for (int k = 0; k <= maxlen; k++) cnt[k] = 0;
  for (int l = 0; l < n; l++) cnt[maxlen - len[l]]++;
}

/* order[k]: the list in sorted position k (longest first, stable), from the histogram cnt (overwritten) */
static inline PETSCWARP_HD void PwaLptOrder(int n, const int *len, int maxlen, int *cnt, int *order)
{
  for (int k = 0, s = 0; k <= maxlen; k++) {
    const int c = cnt[k];

    cnt[k] = s;
    s += c;
  }
  for (int l = 0; l < n; l++) order[cnt[maxlen - len[l]]++] = l;
}

/* Thread thr[l] and first row row[l] of each list l, in sorted order; returns the block's height (the longest
   column). Scratch: bh, bt [nbk] (PwaLptBuckets()), next [bs]. */
static inline PETSCWARP_HD int PwaLptQueue(int n, int bs, int maxlen, int nbk, const int *len, const int *order, int *bh, int *bt, int *next, int *thr, int *row)
{
  int cur = 0, h = 0;

  if (n <= bs) { /* every list has a thread of its own */
    for (int k = 0; k < n; k++) {
      thr[order[k]] = k;
      row[order[k]] = 0;
    }
    return n ? maxlen : 0;
  }
  for (int k = 0; k < nbk; k++) bh[k] = bt[k] = -1;
  for (int t = 0; t < bs; t++) next[t] = t + 1;
  next[bs - 1] = -1;
  bh[0]        = 0;
  bt[0]        = bs - 1;
  for (int k = 0; k < n; k++) {
    const int l = order[k];
    int       t, nl;

    while (bh[cur] < 0) cur++;
    t       = bh[cur];
    bh[cur] = next[t];
    if (bh[cur] < 0) bt[cur] = -1;
    thr[l]  = t;
    row[l]  = cur;
    nl      = cur + len[l];
    h       = nl > h ? nl : h;
    next[t] = -1;
    if (bt[nl] < 0) bh[nl] = t;
    else next[bt[nl]] = t;
    bt[nl] = t;
  }
  return h;
}
