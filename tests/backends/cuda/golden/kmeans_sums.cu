// kernel k27c9ceff6a56b352ac1e (scatter part): scatter form, 256 threads a block
//   from subtract
//   from square
//   from reduce_sum
//   from argmin
//   from scatter_add
extern "C" __global__ void __launch_bounds__(256) k27c9ceff6a56b352ac1e_part(
    const double* __restrict__ in1,
    const double* __restrict__ in0,
    const double* __restrict__ in3,
    double* __restrict__ v6,
    lz_i64* __restrict__ v7,
    const lz_i64 in5,
    const double in2,
    const lz_i64 in4,
    const lz_idx s0,
    const lz_idx s1,
    const lz_idx s2,
    const lz_idx s3,
    const lz_idx s4,
    lz_u64* __restrict__ scratch) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  lz_u64* const copy = scratch + (lz_i64)blockIdx.x * ((lz_idx)2 * s4);
  for (lz_idx j = threadIdx.x; j < s4; j += blockDim.x) {
    *(double*)(copy + 0 + j) = 0.0;
  }
  for (lz_idx j = threadIdx.x; j < s4; j += blockDim.x) {
    *(lz_i64*)(copy + s4 + j) = ((lz_i64)0LL);
  }
  __syncthreads();  // (the copy is set before thread 0 scatters into it)
  const lz_i64 rows = (s0);
  const lz_i64 first = rows * blockIdx.x / gridDim.x, last = rows * (blockIdx.x + 1) / gridDim.x;
  for (lz_idx row = first; row < last; ++row) {
    const lz_idx o0 = row;
    // phase 0 (reduce)
    lz_arg<double> lz_acc0_0 = {0.0, LZ_NO_POSITION};                    // argmin: argmin
    for (lz_idx point = threadIdx.x; point < (s1); point += blockDim.x) {
      const lz_idx r0_0 = point;
      const auto lz_combinen0_0 = [](double a, double b) { return (a + b); };
      double lz_accn0_0 = 0.0;                                           // add: reduce_sum
      for (lz_idx q2 = 0; q2 < s2; ++q2) {
        const double t0 = in1[s2 * r0_0 + q2];
        const double t1 = in0[s2 * o0 + q2];
        const double t2 = (t1 - t0);                                     // subtract
        const double t3 = (t2 * t2);                                     // square
        lz_accn0_0 = lz_combinen0_0(lz_accn0_0, t3);
      }
      const double acc0 = lz_accn0_0;
      const lz_i64 t4 = (lz_i64)(r0_0);                                  // argmin
      if (lz_arg_beats<false>(acc0, t4, lz_acc0_0)) { lz_acc0_0.value = acc0; lz_acc0_0.position = t4; }
    }
    lz_acc0_0 = lz_block_reduce(lz_acc0_0, lz_arg_op<false>(), (lz_arg<double>*)lz_shared);
    const lz_i64 acc1 = (lz_acc0_0.position == LZ_NO_POSITION ? 0 : lz_acc0_0.position);
    const double t5 = in3[s3 * o0];
    const lz_i64 t6 = (lz_i64)(s4);                                      // scatter_add
    const lz_i64 t7 = ((lz_i64)0LL);                                     // scatter_add
    const bool t8 = (acc1 >= t7);                                        // scatter_add
    const bool t9 = (acc1 < t6);                                         // scatter_add
    const bool t10 = (t8 && t9);                                         // scatter_add
    const lz_i64 t11 = in5;
    if (threadIdx.x == 0) {
      if (t10) {
        double* const slot = (double*)(copy + 0 + (lz_idx)acc1);
        *slot = (*slot + t5);                                            // add into v6
      }
      if (t10) {
        lz_i64* const slot = (lz_i64*)(copy + s4 + (lz_idx)acc1);
        *slot = lz_add(*slot, t11);                                      // add into v7
      }
    }
    __syncthreads();  // (the next row's phases reuse lz_shared and rows' data)
  }
}

// kernel k27c9ceff6a56b352ac1e (scatter finish): scatter form, 256 threads a block
//   from subtract
//   from square
//   from reduce_sum
//   from argmin
//   from scatter_add
extern "C" __global__ void __launch_bounds__(256) k27c9ceff6a56b352ac1e_finish(
    const double* __restrict__ in1,
    const double* __restrict__ in0,
    const double* __restrict__ in3,
    double* __restrict__ v6,
    lz_i64* __restrict__ v7,
    const lz_i64 in5,
    const double in2,
    const lz_i64 in4,
    const lz_idx s0,
    const lz_idx s1,
    const lz_idx s2,
    const lz_idx s3,
    const lz_idx s4,
    const lz_u64* __restrict__ scratch,
    const lz_i64 parts) {
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < (s4);
       flat += (lz_idx)blockDim.x * gridDim.x) {
    const lz_idx t0_0 = flat;
    const double t12 = in2;
    double value = t12;
    for (lz_i64 part = 0; part < parts; ++part) {
      value = (value + *(const double*)(scratch + part * ((lz_idx)2 * s4) + 0 + t0_0));
    }
    v6[t0_0] = value;                                                    // add.at
  }
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < (s4);
       flat += (lz_idx)blockDim.x * gridDim.x) {
    const lz_idx t1_0 = flat;
    const lz_i64 t13 = in4;
    lz_i64 value = t13;
    for (lz_i64 part = 0; part < parts; ++part) {
      value = lz_add(value, *(const lz_i64*)(scratch + part * ((lz_idx)2 * s4) + s4 + t1_0));
    }
    v7[t1_0] = value;                                                    // add.at
  }
}
