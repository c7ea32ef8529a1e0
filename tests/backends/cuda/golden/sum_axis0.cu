// kernel kfec0ae1b4b170c62d3f4 (rows): rows form, 256 threads a block
//   from reduce_sum
extern "C" __global__ void __launch_bounds__(256) kfec0ae1b4b170c62d3f4(
    const double* __restrict__ in0,
    double* __restrict__ v1,
    const lz_idx s0,
    const lz_idx s1) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const lz_idx rows = (s0);
  for (lz_idx row = blockIdx.x; row < rows; row += gridDim.x) {
    const lz_idx o0 = row;
    // phase 0 (reduce)
    const auto lz_combine0 = [](double a, double b) { return (a + b); };
    double lz_acc0 = 0.0;                                                // add: reduce_sum
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r0 = point;
      const double t0 = in0[s0 * r0 + o0];
      lz_acc0 = lz_combine0(lz_acc0, t0);
    }
    lz_acc0 = lz_block_reduce(lz_acc0, lz_combine0, (double*)lz_shared);
    const double acc0 = lz_acc0;
    if (threadIdx.x == 0) {
      v1[o0] = acc0;
    }
    __syncthreads();  // (the next row's phases reuse lz_shared and rows' data)
  }
}
