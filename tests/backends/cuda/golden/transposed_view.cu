// kernel k88507b379321c107b2c6 (map): points form, 256 threads a block
//   from sqrt
//   from add
extern "C" __global__ void __launch_bounds__(256) k88507b379321c107b2c6(
    const double* __restrict__ in0,
    double* __restrict__ v2,
    const double in1,
    const lz_idx s0,
    const lz_idx s1,
    const lz_idx s2,
    const lz_idx s3) {
  const lz_idx points = (s0) * (s1);
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < points;
       flat += (lz_idx)blockDim.x * gridDim.x) {
    lz_idx flat_rest = flat;
    const lz_idx o1 = flat_rest % (s1);
    flat_rest /= (s1);
    const lz_idx o0 = flat_rest;
    const double t0 = in1;
    const double t1 = in0[s2 * o0 + s3 * o1];
    const double t2 = sqrt(t1);                                          // sqrt
    const double t3 = (t2 + t0);                                         // add
    v2[s1 * o0 + o1] = t3;
  }
}
