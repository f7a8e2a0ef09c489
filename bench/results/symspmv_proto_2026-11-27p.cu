// Prototype (not part of petscwarp): full ELL (7 slots) vs upper-triangle ELL (4 slots) + atomics on a triangulated
// N x N grid (7-point stencil, the heat P1 matrix's shape), vertices renumbered randomly within windows of W.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#include <cmath>
#define CK(x) \
  do { \
    cudaError_t e = (x); \
    if (e != cudaSuccess) { \
      printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); \
      exit(1); \
    } \
  } while (0)

__global__ void full32(int n, int K, const double *__restrict__ v, const int *__restrict__ c, const double *__restrict__ x, double *__restrict__ y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  size_t base = (size_t)(r / 32) * 32 * K + (r % 32);
  double s    = 0;
  for (int k = 0; k < K; k++) s += __ldcs(v + base + 32 * k) * __ldg(x + __ldcs(c + base + 32 * k));
  y[r] = s;
}
__global__ void full16(int n, int K, const double *__restrict__ v, const short *__restrict__ c, const double *__restrict__ x, double *__restrict__ y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  size_t base = (size_t)(r / 32) * 32 * K + (r % 32);
  double s    = 0;
  for (int k = 0; k < K; k++) s += __ldcs(v + base + 32 * k) * __ldg(x + r + __ldcs(c + base + 32 * k));
  y[r] = s;
}
// upper triangle: slot 0 = diagonal, slots 1..K-1 upper (delta >= 0; 0 = padding with value 0)
__global__ void sym16(int n, int K, const double *__restrict__ v, const short *__restrict__ c, const double *__restrict__ x, double *__restrict__ y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  size_t base = (size_t)(r / 32) * 32 * K + (r % 32);
  double xi = __ldg(x + r), s = __ldcs(v + base) * xi;
  for (int k = 1; k < K; k++) {
    double a = __ldcs(v + base + 32 * k);
    int    d = __ldcs(c + base + 32 * k);
    s += a * __ldg(x + r + d);
    if (d) atomicAdd(y + r + d, a * xi);
  }
  atomicAdd(y + r, s);
}
// variant: lower contributions computed first into a register... same as sym16 but y_i own via atomic after; plus zero
__global__ void zero(int n, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) y[r] = 0;
}
__global__ void copyk(int n, const double *__restrict__ a, double *__restrict__ b)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) b[r] = __ldcs(a + r);
}

int main(int argc, char **argv)
{
  int              N = argc > 1 ? atoi(argv[1]) : 1400, W = argc > 2 ? atoi(argv[2]) : 1, n = N * N;
  std::mt19937_64  g(12345);
  std::vector<int> perm(n);
  for (int i = 0; i < n; i++) perm[i] = i;
  if (W > 1)
    for (int s = 0; s < n; s += W) std::shuffle(perm.begin() + s, perm.begin() + std::min(n, s + W), g);
  // edges: (a,b)-(a,b+1), (a,b)-(a+1,b), (a,b)-(a+1,b+1)
  std::uniform_real_distribution<double>           U(0.1, 1.0);
  std::vector<std::vector<std::pair<int, double>>> rows(n);
  std::vector<double>                              diag(n, 1.0);
  auto                                             id = [&](int a, int b) { return perm[a * N + b]; };
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++) {
      int i        = id(a, b);
      int nb[3][2] = {
        {a,     b + 1},
        {a + 1, b    },
        {a + 1, b + 1}
      };
      for (auto &q : nb)
        if (q[0] < N && q[1] < N) {
          int    j = id(q[0], q[1]);
          double w = -U(g);
          rows[i].push_back({j, w});
          rows[j].push_back({i, w});
          diag[i] -= w;
          diag[j] -= w;
        }
    }
  int                 K = 7, KU = 4, maxd = 0;
  std::vector<double> vf((size_t)n * K, 0), vu((size_t)n * KU, 0);
  std::vector<int>    cf((size_t)n * K);
  std::vector<short>  cf16((size_t)n * K, 0), cu16((size_t)n * KU, 0);
  for (int r = 0; r < n; r++) {
    size_t                              base = (size_t)(r / 32) * 32 * K + (r % 32), bu = (size_t)(r / 32) * 32 * KU + (r % 32);
    std::vector<std::pair<int, double>> e = rows[r];
    e.push_back({r, diag[r]});
    std::sort(e.begin(), e.end());
    if ((int)e.size() > K) {
      printf("row too long\n");
      return 1;
    }
    for (int k = 0; k < K; k++) {
      int    c            = k < (int)e.size() ? e[k].first : r;
      double v            = k < (int)e.size() ? e[k].second : 0;
      vf[base + 32 * k]   = v;
      cf[base + 32 * k]   = c;
      maxd                = std::max(maxd, abs(c - r));
      cf16[base + 32 * k] = (short)(c - r);
    }
    vu[bu] = diag[r];
    int k  = 1;
    for (auto &p : e)
      if (p.first > r) {
        if (k >= KU) {
          printf("upper too long\n");
          return 1;
        }
        vu[bu + 32 * k]   = p.second;
        cu16[bu + 32 * k] = (short)(p.first - r);
        k++;
      }
  }
  if (maxd > 32767) {
    printf("delta %d too large for 16 bits\n", maxd);
    return 1;
  }
  std::vector<double> x(n);
  for (auto &t : x) t = U(g);
  double *dvf, *dvu, *dx, *dy, *dy2, *dbig, *dbig2;
  int    *dcf;
  short  *dcf16, *dcu16;
  CK(cudaMalloc(&dvf, vf.size() * 8));
  CK(cudaMalloc(&dvu, vu.size() * 8));
  CK(cudaMalloc(&dcf, cf.size() * 4));
  CK(cudaMalloc(&dcf16, cf16.size() * 2));
  CK(cudaMalloc(&dcu16, cu16.size() * 2));
  CK(cudaMalloc(&dx, n * 8));
  CK(cudaMalloc(&dy, n * 8));
  CK(cudaMalloc(&dy2, n * 8));
  size_t big = 1 << 27;
  CK(cudaMalloc(&dbig, big * 8));
  CK(cudaMalloc(&dbig2, big * 8));
  CK(cudaMemset(dbig, 0, big * 8));
  CK(cudaMemcpy(dvf, vf.data(), vf.size() * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dvu, vu.data(), vu.size() * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcf, cf.data(), cf.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcf16, cf16.data(), cf16.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcu16, cu16.data(), cu16.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dx, x.data(), n * 8, cudaMemcpyHostToDevice));
  int         T = 256, B = (n + T - 1) / T;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto timeit = [&](auto f) {
    std::vector<float> ts;
    for (int it = 0; it < 120; it++) {
      CK(cudaEventRecord(e0));
      f();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 20) ts.push_back(ms * 1000);
    }
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
  };
  float tc = timeit([&] { copyk<<<(int)(big / 256), 256>>>((int)big, dbig, dbig2); });
  printf("N %d W %d n %d: copy %.1f GB/s\n", N, W, n, 2.0 * big * 8 / tc / 1e3);
  std::vector<double> yref(n), yt(n);
  float               t1 = timeit([&] { full32<<<B, T>>>(n, K, dvf, dcf, dx, dy); });
  CK(cudaMemcpy(yref.data(), dy, n * 8, cudaMemcpyDeviceToHost));
  auto err = [&](double *d) {
    CK(cudaMemcpy(yt.data(), d, n * 8, cudaMemcpyDeviceToHost));
    double a = 0, b = 0;
    for (int i = 0; i < n; i++) {
      a += (yt[i] - yref[i]) * (yt[i] - yref[i]);
      b += yref[i] * yref[i];
    }
    return sqrt(a / b);
  };
  float  t2   = timeit([&] { full16<<<B, T>>>(n, K, dvf, dcf16, dx, dy2); });
  double e2   = err(dy2);
  float  t3   = timeit([&] {
    zero<<<B, T>>>(n, dy2);
    sym16<<<B, T>>>(n, KU, dvu, dcu16, dx, dy2);
  });
  double e3   = err(dy2);
  float  t4   = timeit([&] { sym16<<<B, T>>>(n, KU, dvu, dcu16, dx, dy2); });
  float  t5   = timeit([&] { zero<<<B, T>>>(n, dy2); });
  double bf32 = n * (K * 12.0 + 16), bf16 = n * (K * 10.0 + 16), bs = n * (KU * 10.0 + 16 + 8);
  printf("full32 %.1f us (%.0f GB/s of %.0f MB)\nfull16 %.1f us (%.0f GB/s of %.0f MB) err %.1e\nsym16+zero %.1f us  (err %.1e)  sym16 alone %.1f us (%.0f GB/s of %.0f MB), zero %.1f us\n", t1, bf32 / t1 / 1e3, bf32 / 1e6, t2, bf16 / t2 / 1e3, bf16 / 1e6, e2, t3, e3, t4, bs / t4 / 1e3, bs / 1e6, t5);
  return 0;
}
