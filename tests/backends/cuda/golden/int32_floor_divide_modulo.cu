// kernel kdf28dcdbdc6f685528ca (map): points form, 256 threads a block
//   from remainder
//   from floor_divide
//   from add
extern "C" __global__ void __launch_bounds__(256) kdf28dcdbdc6f685528ca(
    const lz_i32* __restrict__ in1,
    const lz_i32* __restrict__ in0,
    lz_i32* __restrict__ v2,
    const lz_idx s0,
    const lz_idx s1) {
  const lz_idx points = (s0) * (s1);
  for (lz_idx flat = (lz_idx)blockIdx.x * blockDim.x + threadIdx.x; flat < points;
       flat += (lz_idx)blockDim.x * gridDim.x) {
    lz_idx flat_rest = flat;
    const lz_idx o1 = flat_rest % (s1);
    flat_rest /= (s1);
    const lz_idx o0 = flat_rest;
    const lz_i32 t0 = in1[o1];
    const lz_i32 t1 = in0[s1 * o0 + o1];
    const lz_i32 t2 = lz_remainder(t1, t0);                              // remainder
    const lz_i32 t3 = lz_floor_divide(t1, t0);                           // floor_divide
    const lz_i32 t4 = lz_add(t3, t2);                                    // add
    v2[s1 * o0 + o1] = t4;
  }
}
