// kernel k22928e34676e7e30a3b1 (map): points form, 256 threads a block
//   from greater
//   from cast
//   from multiply
//   from add
extern "C" __global__ void __launch_bounds__(256) k22928e34676e7e30a3b1(
    const double* __restrict__ in0,
    float* __restrict__ v3,
    const double in2,
    const double in1,
    const lz_idx s0) {
  const lz_idx points = (s0);
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < points;
       flat += (lz_idx)blockDim.x * gridDim.x) {
    const lz_idx o0 = flat;
    const double t0 = in2;
    const double t1 = in0[o0];
    const bool t2 = (t1 > t0);                                           // greater
    const float t3 = (float)t2;                                          // cast
    const double t4 = in1;
    const double t5 = (t1 * t4);                                         // multiply
    const lz_i32 t6 = (lz_i32)lz_to_i32(t5);                             // cast
    const float t7 = (float)t6;                                          // cast
    const float t8 = (t7 + t3);                                          // add
    v3[o0] = t8;
  }
}
