// kernel k14dd181e3be64a029eb9 (rows): rows form, 256 threads a block
//   from argmax
extern "C" __global__ void __launch_bounds__(256) k14dd181e3be64a029eb9(
    const double* __restrict__ in0,
    lz_i64* __restrict__ v1,
    const lz_idx s0,
    const lz_idx s1) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const lz_idx rows = (s0);
  for (lz_idx row = blockIdx.x; row < rows; row += gridDim.x) {
    const lz_idx o0 = row;
    // phase 0 (reduce)
    lz_arg<double> lz_acc0 = {0.0, LZ_NO_POSITION};                      // argmax: argmax
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r0 = point;
      const double t0 = in0[s1 * o0 + r0];
      const lz_i64 t1 = (lz_i64)(r0);                                    // argmax
      if (lz_arg_beats<true>(t0, t1, lz_acc0)) { lz_acc0.value = t0; lz_acc0.position = t1; }
    }
    lz_acc0 = lz_block_reduce(lz_acc0, lz_arg_op<true>(), (lz_arg<double>*)lz_shared);
    const lz_i64 acc0 = (lz_acc0.position == LZ_NO_POSITION ? 0 : lz_acc0.position);
    if (threadIdx.x == 0) {
      v1[o0] = acc0;
    }
    __syncthreads();  // (the next row's phases reuse lz_shared and rows' data)
  }
}
