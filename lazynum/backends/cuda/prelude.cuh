// lazynum CUDA prelude: NumPy's scalar semantics where C and CUDA differ, and the block
// reductions the kernels use.  Compiled by NVRTC in front of every generated module (no
// system headers: NVRTC has none, and no INFINITY/NAN macros).
//
// NumPy rules written here (each mirrors backends/llvm/scalar_ops.py):
// - integer +, -, *, negation and abs wrap (computed unsigned: signed overflow is UB in C);
// - integer //, % and fmod: 0 for a zero divisor, MIN // -1 wraps, floor semantics;
// - float // and % are npy_divmod's (the sign of the divisor, -0.0 and inf cases);
// - shifts by the bit width or more give 0 (-1 for negative values shifted right);
// - maximum/minimum propagate NaN (the first argument's when both are);
// - float -> int casts give the minimum value for NaN and out-of-range values (x86's
//   "integer indefinite", what NumPy's casts give on the CPUs we compare with).

typedef signed char lz_i8;
typedef short lz_i16;
typedef int lz_i32;
typedef long long lz_i64;
typedef unsigned char lz_u8;
typedef unsigned short lz_u16;
typedef unsigned int lz_u32;
typedef unsigned long long lz_u64;

#define LZ_INF_F64 __longlong_as_double(0x7ff0000000000000LL)
#define LZ_NAN_F64 __longlong_as_double(0x7ff8000000000000LL)
#define LZ_INF_F32 __int_as_float(0x7f800000)
#define LZ_NAN_F32 __int_as_float(0x7fc00000)

template <class T> struct lz_unsigned { typedef T type; };
template <> struct lz_unsigned<lz_i8> { typedef lz_u8 type; };
template <> struct lz_unsigned<lz_i16> { typedef lz_u16 type; };
template <> struct lz_unsigned<lz_i32> { typedef lz_u32 type; };
template <> struct lz_unsigned<lz_i64> { typedef lz_u64 type; };
template <class T> struct lz_is_signed { static const bool value = (T)(-1) < (T)0; };

// --- wrapping integer arithmetic ------------------------------------------------------
template <class T> __device__ __forceinline__ T lz_add(T a, T b) {
  typedef typename lz_unsigned<T>::type U; return (T)(U)((U)a + (U)b); }
template <class T> __device__ __forceinline__ T lz_sub(T a, T b) {
  typedef typename lz_unsigned<T>::type U; return (T)(U)((U)a - (U)b); }
template <class T> __device__ __forceinline__ T lz_mul(T a, T b) {
  typedef typename lz_unsigned<T>::type U; return (T)(U)((U)a * (U)b); }
template <class T> __device__ __forceinline__ T lz_neg(T a) {
  typedef typename lz_unsigned<T>::type U; return (T)(U)((U)0 - (U)a); }
template <class T> __device__ __forceinline__ T lz_iabs(T a) {
  return (lz_is_signed<T>::value && a < (T)0) ? lz_neg(a) : a; }

// --- integer division family ------------------------------------------------------------
template <class T> __device__ __forceinline__ T lz_floor_divide(T a, T b) {
  if (b == (T)0) return (T)0;
  if (lz_is_signed<T>::value) {
    if (b == (T)(-1)) return lz_neg(a);
    T q = a / b, r = a % b;
    return (r != (T)0 && ((r < (T)0) != (b < (T)0))) ? (T)(q - (T)1) : q;
  }
  return a / b;
}
template <class T> __device__ __forceinline__ T lz_remainder(T a, T b) {
  if (b == (T)0) return (T)0;
  if (lz_is_signed<T>::value) {
    if (b == (T)(-1)) return (T)0;
    T r = a % b;
    return (r != (T)0 && ((r < (T)0) != (b < (T)0))) ? (T)(r + b) : r;
  }
  return a % b;
}
template <class T> __device__ __forceinline__ T lz_fmod(T a, T b) {
  if (b == (T)0 || (lz_is_signed<T>::value && b == (T)(-1))) return (T)0;
  return a % b;
}

// --- float division family (npy_divmod) --------------------------------------------------
template <class F> __device__ __forceinline__ F lz_float_floor_divide(F a, F b) {
  F mod = fmod(a, b);
  if (b == (F)0) return a / b;
  F div = (a - mod) / b;
  if (mod != (F)0 && ((b < (F)0) != (mod < (F)0))) div -= (F)1;
  if (div == (F)0) return copysign((F)0, a / b);
  F fl = floor(div);
  if (div - fl > (F)0.5) fl += (F)1;
  return fl;
}
template <class F> __device__ __forceinline__ F lz_float_remainder(F a, F b) {
  F mod = fmod(a, b);
  if (mod == (F)0) return copysign((F)0, b);
  return ((b < (F)0) != (mod < (F)0)) ? mod + b : mod;
}
__device__ __forceinline__ float lz_floor_divide(float a, float b) { return lz_float_floor_divide(a, b); }
__device__ __forceinline__ double lz_floor_divide(double a, double b) { return lz_float_floor_divide(a, b); }
__device__ __forceinline__ float lz_remainder(float a, float b) { return lz_float_remainder(a, b); }
__device__ __forceinline__ double lz_remainder(double a, double b) { return lz_float_remainder(a, b); }
__device__ __forceinline__ float lz_fmod(float a, float b) { return fmodf(a, b); }
__device__ __forceinline__ double lz_fmod(double a, double b) { return fmod(a, b); }

// --- shifts ---------------------------------------------------------------------------------
template <class T> __device__ __forceinline__ T lz_left_shift(T a, T b) {
  typedef typename lz_unsigned<T>::type U;
  return ((U)b < (U)(sizeof(T) * 8)) ? (T)(U)((U)a << (U)b) : (T)0;
}
template <class T> __device__ __forceinline__ T lz_right_shift(T a, T b) {
  typedef typename lz_unsigned<T>::type U;
  if ((U)b < (U)(sizeof(T) * 8)) return (T)(a >> (U)b);
  return (lz_is_signed<T>::value && a < (T)0) ? (T)(-1) : (T)0;
}

// --- extremes ------------------------------------------------------------------------------
// NumPy's maximum/minimum: ``a`` if it wins strictly or is NaN, else ``b``.
template <class T> __device__ __forceinline__ T lz_maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> __device__ __forceinline__ T lz_minimum(T a, T b) { return (a < b || a != a) ? a : b; }
// fmax/fmin on ints and bools (floats use CUDA's fmax/fmin: the non-NaN one)
template <class T> __device__ __forceinline__ T lz_imax(T a, T b) { return a > b ? a : b; }
template <class T> __device__ __forceinline__ T lz_imin(T a, T b) { return a < b ? a : b; }

// --- sign, classification, power --------------------------------------------------------
template <class T> __device__ __forceinline__ T lz_sign(T x) {
  if (x != x) return x;
  return (T)((x > (T)0) - (x < (T)0));
}
template <class F> __device__ __forceinline__ F lz_heaviside(F x, F h) {
  if (x != x) return x;
  return x < (F)0 ? (F)0 : (x == (F)0 ? h : (F)1);
}
// NumPy's power loop for one exponent per loop: -1, 0, 0.5, 1, 2 are exact fast cases.
template <class F> __device__ __forceinline__ F lz_power_uniform(F a, F b) {
  if (b == (F)2) return a * a;
  if (b == (F)1) return a;
  if (b == (F)0) return (F)1;
  if (b == (F)0.5) return sqrt(a);
  if (b == (F)(-1)) return (F)1 / a;
  return pow(a, b);
}
template <class F> __device__ __forceinline__ F lz_logaddexp(F x, F y) {
  if (x == y) return x + (F)0.69314718055994530942;
  F m = lz_maximum(x, y);
  return m + log1p(exp(-fabs(x - y)));
}
template <class F> __device__ __forceinline__ F lz_logaddexp2(F x, F y) {
  if (x == y) return x + (F)1;
  F m = lz_maximum(x, y);
  return m + log1p(exp2(-fabs(x - y))) * (F)1.44269504088896340736;
}

// Exact comparisons of a signed with an unsigned integer (int64 vs uint64), as NumPy's.
template <class A, class B> __device__ __forceinline__ int lz_cmp(A a, B b) {
  if (lz_is_signed<A>::value && !lz_is_signed<B>::value && a < (A)0) return -1;
  if (!lz_is_signed<A>::value && lz_is_signed<B>::value && b < (B)0) return 1;
  return ((lz_u64)a > (lz_u64)b) - ((lz_u64)a < (lz_u64)b);
}

// --- casts -------------------------------------------------------------------------------
// float -> int: truncation toward zero, the minimum value for NaN and out of range.
template <class F> __device__ __forceinline__ lz_i64 lz_to_i64(F x) {
  return (x >= (F)(-9223372036854775808.0) && x < (F)9223372036854775808.0)
      ? (lz_i64)x : (lz_i64)0x8000000000000000ULL;
}
template <class F> __device__ __forceinline__ lz_i32 lz_to_i32(F x) {
  return (x >= (F)(-2147483648.0) && x < (F)2147483648.0) ? (lz_i32)x : (lz_i32)0x80000000U;
}
template <class F> __device__ __forceinline__ lz_u64 lz_to_u64(F x) {
  if (x >= (F)9223372036854775808.0)
    return (lz_u64)lz_to_i64(x - (F)9223372036854775808.0) ^ 0x8000000000000000ULL;
  return (lz_u64)lz_to_i64(x);
}

// --- index math: floor semantics, divisor positive -------------------------------------------
template <class I> __device__ __forceinline__ I lz_idiv(I a, I b) {
  I q = a / b; return (a % b < 0) ? q - 1 : q; }
template <class I> __device__ __forceinline__ I lz_imod(I a, I b) {
  I r = a % b; return r < 0 ? r + b : r; }
template <class I> __device__ __forceinline__ I lz_clamp(I a, I high) {
  I low = a < high ? a : high; return low > 0 ? low : 0; }

// --- reductions ------------------------------------------------------------------------------
// An arg-reduction's accumulator: the best value and its position (LZ_NO_POSITION: none
// yet).  ``better`` is strict; ties and NaNs go to the smaller position, so the block
// tree gives NumPy's first best whatever order threads met the values in.
#define LZ_NO_POSITION 0x7fffffffffffffffLL
template <class T> struct lz_arg { T value; lz_i64 position; };
template <class T> __device__ __forceinline__ bool lz_isnan_any(T v) { return v != v; }

template <bool Max, class T> __device__ __forceinline__ bool lz_arg_beats(T v, lz_i64 i, lz_arg<T> best) {
  if (best.position == LZ_NO_POSITION) return true;
  bool v_nan = lz_isnan_any(v), best_nan = lz_isnan_any(best.value);
  if (best_nan) return v_nan && i < best.position;
  if (v_nan) return true;
  if (Max ? v > best.value : v < best.value) return true;
  return v == best.value && i < best.position;
}
template <bool Max> struct lz_arg_op {
  template <class T> __device__ __forceinline__ lz_arg<T> operator()(lz_arg<T> a, lz_arg<T> b) const {
    return (b.position != LZ_NO_POSITION && lz_arg_beats<Max>(b.value, b.position, a)) ? b : a;
  }
};

template <class T> __device__ __forceinline__ T lz_shfl_down(T v, int d) {
  return __shfl_down_sync(0xffffffffu, v, d);
}
__device__ __forceinline__ bool lz_shfl_down(bool v, int d) {
  return __shfl_down_sync(0xffffffffu, (int)v, d) != 0;
}
__device__ __forceinline__ lz_i8 lz_shfl_down(lz_i8 v, int d) {
  return (lz_i8)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ lz_u8 lz_shfl_down(lz_u8 v, int d) {
  return (lz_u8)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
__device__ __forceinline__ lz_i16 lz_shfl_down(lz_i16 v, int d) {
  return (lz_i16)__shfl_down_sync(0xffffffffu, (int)v, d); }
__device__ __forceinline__ lz_u16 lz_shfl_down(lz_u16 v, int d) {
  return (lz_u16)__shfl_down_sync(0xffffffffu, (unsigned)v, d); }
template <class T> __device__ __forceinline__ lz_arg<T> lz_shfl_down(lz_arg<T> v, int d) {
  lz_arg<T> out;
  out.value = lz_shfl_down(v.value, d);
  out.position = __shfl_down_sync(0xffffffffu, v.position, d);
  return out;
}

// The block's values combined in a fixed tree: lanes within each warp (shuffles), then the
// warps' results (shared memory) in warp 0; every thread gets the result.  Every thread of
// the block must call it (blockDim.x a multiple of 32); ``shared`` holds 32 values of T.
template <class T, class Op> __device__ __forceinline__ T lz_block_reduce(T v, Op op, T* shared) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  for (int d = 16; d > 0; d >>= 1) v = op(v, lz_shfl_down(v, d));
  __syncthreads();              // (the previous call's readers are done with ``shared``)
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = shared[lane < warps ? lane : 0];
    for (int d = 16; d > 0; d >>= 1) {
      T other = lz_shfl_down(v, d);
      if (lane + d < warps) v = op(v, other);
    }
    if (lane == 0) shared[0] = v;
  }
  __syncthreads();
  return shared[0];
}

struct lz_op_add { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return a + b; } };
struct lz_op_iadd { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_add(a, b); } };
struct lz_op_mul { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return a * b; } };
struct lz_op_imul { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_mul(a, b); } };
struct lz_op_maximum { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_maximum(a, b); } };
struct lz_op_minimum { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_minimum(a, b); } };
struct lz_op_fmax { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return fmax(a, b); } };
struct lz_op_fmin { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return fmin(a, b); } };
struct lz_op_imax { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_imax(a, b); } };
struct lz_op_imin { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return lz_imin(a, b); } };
struct lz_op_or { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return (T)(a | b); } };
struct lz_op_and { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return (T)(a & b); } };
struct lz_op_xor { template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return (T)(a ^ b); } };
