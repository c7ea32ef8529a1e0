// kernel kaec1fa34eda59f651894 (map): points form, 256 threads a block
//   from negative
//   from less
//   from invert
//   from greater
//   from bitwise_and
//   from select
extern "C" __global__ void __launch_bounds__(256) kaec1fa34eda59f651894(
    const double* __restrict__ in2,
    const double* __restrict__ in0,
    double* __restrict__ v4,
    const double in3,
    const double in1,
    const lz_idx s0,
    const lz_idx s1) {
  const lz_idx points = (s0 * s1);
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < points;
       flat += (lz_idx)blockDim.x * gridDim.x) {
    const lz_idx o0 = flat;
    const double t0 = in2[o0];
    const double t1 = (-t0);                                             // negative
    const double t2 = in0[o0];
    const double t3 = in3;
    const bool t4 = (t0 < t3);                                           // less
    const bool t5 = !t4;                                                 // invert
    const double t6 = in1;
    const bool t7 = (t2 > t6);                                           // greater
    const bool t8 = (t7 && t5);                                          // bitwise_and
    const double t9 = (t8 ? t2 : t1);                                    // select
    v4[o0] = t9;
  }
}

// kernel kf5d719f526cf5b8aa733 (rows): rows form, 256 threads a block
//   from less
//   from invert
//   from greater
//   from bitwise_and
//   from cast
//   from reduce_sum
extern "C" __global__ void __launch_bounds__(256) kf5d719f526cf5b8aa733(
    const double* __restrict__ in2,
    const double* __restrict__ in0,
    lz_i64* __restrict__ v5,
    const double in3,
    const double in1,
    const lz_idx s0,
    const lz_idx s1) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const lz_idx rows = (s0);
  for (lz_idx row = blockIdx.x; row < rows; row += gridDim.x) {
    const lz_idx o0 = row;
    // phase 0 (reduce)
    const auto lz_combine0 = [](lz_i64 a, lz_i64 b) { return lz_add(a, b); };
    lz_i64 lz_acc0 = ((lz_i64)0LL);                                      // add: reduce_sum
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r0 = point;
      const double t0 = in3;
      const double t1 = in2[s0 * r0 + o0];
      const bool t2 = (t1 < t0);                                         // less
      const bool t3 = !t2;                                               // invert
      const double t4 = in1;
      const double t5 = in0[s0 * r0 + o0];
      const bool t6 = (t5 > t4);                                         // greater
      const bool t7 = (t6 && t3);                                        // bitwise_and
      const lz_i64 t8 = (lz_i64)t7;                                      // cast
      lz_acc0 = lz_combine0(lz_acc0, t8);
    }
    lz_acc0 = lz_block_reduce(lz_acc0, lz_combine0, (lz_i64*)lz_shared);
    const lz_i64 acc0 = lz_acc0;
    if (threadIdx.x == 0) {
      v5[o0] = acc0;
    }
    __syncthreads();  // (the next row's phases reuse lz_shared and rows' data)
  }
}
