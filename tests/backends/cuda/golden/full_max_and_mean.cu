// kernel k5702f65f442e0cb87081 (split part): split form, 256 threads a block
//   from reduce_max
//   from reduce_sum
//   from cast
//   from divide
extern "C" __global__ void __launch_bounds__(256) k5702f65f442e0cb87081_part(
    const double* __restrict__ in0,
    double* __restrict__ v2,
    double* __restrict__ v3,
    const lz_i64 in1,
    const lz_idx s0,
    lz_u64* __restrict__ scratch) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const auto lz_combine0 = [](double a, double b) { return lz_maximum(a, b); };
  double lz_acc0 = (-LZ_INF_F64);                                        // maximum: reduce_max
  const auto lz_combine1 = [](double a, double b) { return (a + b); };
  double lz_acc1 = 0.0;                                                  // add: reduce_sum
  for (lz_idx point = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; point < (s0);
       point += (lz_idx)blockDim.x * gridDim.x) {
    const lz_idx r0_0 = point;
    const double t0 = in0[r0_0];
    lz_acc0 = lz_combine0(lz_acc0, t0);
    lz_acc1 = lz_combine1(lz_acc1, t0);
  }
  lz_acc0 = lz_block_reduce(lz_acc0, lz_combine0, (double*)lz_shared);
  lz_acc1 = lz_block_reduce(lz_acc1, lz_combine1, (double*)lz_shared);
  if (threadIdx.x == 0) {
    lz_u64* const slots = scratch + (lz_i64)blockIdx.x * 2;
    *(double*)(slots + 0) = lz_acc0;
    *(double*)(slots + 1) = lz_acc1;
  }
}

// kernel k5702f65f442e0cb87081 (split finish): split form, 256 threads a block
//   from reduce_max
//   from reduce_sum
//   from cast
//   from divide
extern "C" __global__ void __launch_bounds__(256) k5702f65f442e0cb87081_finish(
    const double* __restrict__ in0,
    double* __restrict__ v2,
    double* __restrict__ v3,
    const lz_i64 in1,
    const lz_idx s0,
    const lz_u64* __restrict__ scratch,
    const lz_i64 parts) {
  __shared__ lz_u64 lz_shared[64];  // block reductions: 32 values of up to 16 bytes
  const auto lz_combine0 = [](double a, double b) { return lz_maximum(a, b); };
  double lz_acc0 = (-LZ_INF_F64);                                        // maximum: reduce_max
  const auto lz_combine1 = [](double a, double b) { return (a + b); };
  double lz_acc1 = 0.0;                                                  // add: reduce_sum
  for (lz_i64 part = threadIdx.x; part < parts; part += blockDim.x) {
    const lz_u64* const slots = scratch + part * 2;
    lz_acc0 = lz_combine0(lz_acc0, *(const double*)(slots + 0));
    lz_acc1 = lz_combine1(lz_acc1, *(const double*)(slots + 1));
  }
  lz_acc0 = lz_block_reduce(lz_acc0, lz_combine0, (double*)lz_shared);
  lz_acc1 = lz_block_reduce(lz_acc1, lz_combine1, (double*)lz_shared);
  const double acc0 = lz_acc0;
  const double acc1 = lz_acc1;
  if (threadIdx.x == 0) {
    v2[0] = acc0;
  }
  const lz_i64 t1 = in1;
  const double t2 = (double)t1;                                          // cast
  const double t3 = (acc1 / t2);                                         // divide
  if (threadIdx.x == 0) {
    v3[0] = t3;
  }
}
