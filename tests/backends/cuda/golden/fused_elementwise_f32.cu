// kernel k4476e2f4d3034443f663 (map): points form, 256 threads a block
//   from exp
//   from multiply
//   from add
extern "C" __global__ void __launch_bounds__(256) k4476e2f4d3034443f663(
    const float* __restrict__ in1,
    const float* __restrict__ in0,
    float* __restrict__ v3,
    const float in2,
    const lz_idx s0,
    const lz_idx s1) {
  const lz_idx points = (s0) * (s1);
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < points;
       flat += (lz_idx)blockDim.x * gridDim.x) {
    lz_idx flat_rest = flat;
    const lz_idx o1 = flat_rest % (s1);
    flat_rest /= (s1);
    const lz_idx o0 = flat_rest;
    const float t0 = in2;
    const float t1 = in1[o1];
    const float t2 = in0[s1 * o0 + o1];
    const float t3 = expf(t2);                                           // exp
    const float t4 = (t3 * t1);                                          // multiply
    const float t5 = (t4 + t0);                                          // add
    v3[s1 * o0 + o1] = t5;
  }
}
