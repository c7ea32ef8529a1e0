// kernel k327782dec5b4093b7192 (rows): rows form, 256 threads a block
//   from reduce_max
//   from subtract
//   from exp
//   from reduce_sum
//   from divide
extern "C" __global__ void __launch_bounds__(256) k327782dec5b4093b7192(
    const float* __restrict__ in0,
    float* __restrict__ v1,
    const lz_idx s0,
    const lz_idx s1) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const lz_idx rows = (s0);
  for (lz_idx row = blockIdx.x; row < rows; row += gridDim.x) {
    const lz_idx o0 = row;
    // phase 0 (reduce)
    const auto lz_combine0_0 = [](float a, float b) { return lz_maximum(a, b); };
    float lz_acc0_0 = (-LZ_INF_F32);                                     // maximum: reduce_max
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r0_0 = point;
      const float t0 = in0[s1 * o0 + r0_0];
      lz_acc0_0 = lz_combine0_0(lz_acc0_0, t0);
    }
    lz_acc0_0 = lz_block_reduce(lz_acc0_0, lz_combine0_0, (float*)lz_shared);
    const float acc0 = lz_acc0_0;
    // phase 1 (reduce)
    const auto lz_combine1_0 = [](double a, double b) { return (a + b); };
    double lz_acc1_0 = 0.0;                                              // add: reduce_sum
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r1_0 = point;
      const float t1 = in0[s1 * o0 + r1_0];
      const float t2 = (t1 - acc0);                                      // subtract
      const float t3 = expf(t2);                                         // exp
      lz_acc1_0 = lz_combine1_0(lz_acc1_0, (double)t3);
    }
    lz_acc1_0 = lz_block_reduce(lz_acc1_0, lz_combine1_0, (double*)lz_shared);
    const float acc1 = (float)lz_acc1_0;
    // phase 2 (map)
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r2_0 = point;
      const float t4 = in0[s1 * o0 + r2_0];
      const float t5 = (t4 - acc0);                                      // subtract
      const float t6 = expf(t5);                                         // exp
      const float t7 = (t6 / acc1);                                      // divide
      v1[s1 * o0 + r2_0] = t7;
    }
    __syncthreads();  // (the next row's phases reuse lz_shared and rows' data)
  }
}
