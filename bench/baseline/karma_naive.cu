// Reference point for `fibril bench`, not part of fibril: the same
// one-thread-per-cell Karma step written in CUDA C (tanhf from CUDA's math
// library, fused multiply-adds allowed), and a device-to-device copy that
// gives the memory ceiling. Built and run on the GPU machine by
// scripts/device-bench.sh; prints one JSON object per line.
//
//   nvcc -O3 -arch=sm_90 -o karma_naive bench/baseline/karma_naive.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void karma_step(const float* __restrict__ u, float* __restrict__ v, float* __restrict__ un,
                           int nx, int ny, int nz, float r, float dt, float gamma, float inv_vstar, float dt_eps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny) return;
  int xm = x == 0 ? 1 : x - 1, xp = x == nx - 1 ? nx - 2 : x + 1;
  int ym = y == 0 ? 1 : y - 1, yp = y == ny - 1 ? ny - 2 : y + 1;
  int zm = z == 0 ? 1 : z - 1, zp = z == nz - 1 ? nz - 2 : z + 1;
  size_t s = (size_t)nx * ny, row = (size_t)y * nx, sl = (size_t)z * s;
  size_t i = sl + row + x;
  float uc = u[i];
  float lap = u[sl + row + xm] + u[sl + row + xp] + u[sl + (size_t)ym * nx + x] + u[sl + (size_t)yp * nx + x]
            + u[(size_t)zm * s + row + x] + u[(size_t)zp * s + row + x] - 6.0f * uc;
  float vc = v[i];
  float q = vc * inv_vstar; q = q * q; q = q * q;
  float f = (1.0f - tanhf(uc - 3.0f)) * uc * uc * 0.5f * (gamma - q) - uc;
  un[i] = uc + r * lap + dt * f;
  v[i] = vc + dt_eps * ((uc > 1.0f ? 1.0f : 0.0f) - vc);
}

int main(int argc, char** argv) {
  int sizes[] = {128, 256, 512};
  cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
  cudaEvent_t a, b; CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
  for (int n : sizes) {
    size_t cells = (size_t)n * n * n;
    float *u, *un, *v;
    CHECK(cudaMalloc(&u, cells * 4)); CHECK(cudaMalloc(&un, cells * 4)); CHECK(cudaMalloc(&v, cells * 4));
    float* h = (float*)malloc(cells * 4);
    for (size_t i = 0; i < cells; i++) h[i] = (i / ((size_t)n * n)) <= 0.05 * n ? 3.0f : 0.0f;
    CHECK(cudaMemcpy(u, h, cells * 4, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < cells; i++) h[i] = 0.5f;
    CHECK(cudaMemcpy(v, h, cells * 4, cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8, n);
    int steps = n >= 512 ? 200 : 1000;
    float r = 0.05f / 0.36f;
    for (int s = 0; s < 50; s++) { karma_step<<<grid, block>>>(u, v, un, n, n, n, r, 0.05f, 1.5415f, 1.0f / 0.6f, 0.0005f); float* t = u; u = un; un = t; }
    CHECK(cudaEventRecord(a));
    for (int s = 0; s < steps; s++) { karma_step<<<grid, block>>>(u, v, un, n, n, n, r, 0.05f, 1.5415f, 1.0f / 0.6f, 0.0005f); float* t = u; u = un; un = t; }
    CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b)); CHECK(cudaGetLastError());
    float ms; CHECK(cudaEventElapsedTime(&ms, a, b));
    double cups = (double)cells * steps / (ms / 1e3);
    printf("{\"what\": \"cuda_c_naive\", \"device\": \"%s\", \"n\": %d, \"steps\": %d, \"steps_per_s\": %.1f, \"cell_updates_per_s\": %.4e}\n",
           p.name, n, steps, steps / (ms / 1e3), cups);
    // Copy ceiling: 2 * cells * 4 bytes moved per copy (read + write).
    CHECK(cudaEventRecord(a));
    for (int s = 0; s < 50; s++) CHECK(cudaMemcpyAsync(un, u, cells * 4, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    printf("{\"what\": \"d2d_copy\", \"n\": %d, \"gb_per_s\": %.1f}\n", n, 50.0 * 2 * cells * 4 / (ms / 1e3) / 1e9);
    CHECK(cudaFree(u)); CHECK(cudaFree(un)); CHECK(cudaFree(v)); free(h);
  }
  return 0;
}
