// lazynum's CUDA emulator: the CUDA execution model on the host, so the CUDA C the
// renderer writes (prelude.cuh and the kernels, unchanged) compiles with a host C++
// compiler and runs on the CPU.  Included in front of the module's text; the runtime
// appends one launcher per kernel (``LZ_EMU_LAUNCHER``).
//
// Model (docs/cuda.md, "The CPU emulator"):
// - blocks run one after another (forward, reversed or a seeded order); the threads of a
//   block are cooperative fibers (ucontext stacks, switched with _setjmp/_longjmp: no
//   system call per switch) that run until they finish or reach a synchronization point;
// - __syncthreads waits for every thread of the block; a warp shuffle deposits the
//   thread's value, waits for every lane of its warp, reads its source lane, and waits
//   again (so the slots are free for the next shuffle);
// - each round of the scheduler resumes runnable threads in the launch's order (forward,
//   reversed, or a permutation drawn from a seed at each round), so code that reads shared
//   memory without the barrier that orders it gives an order-dependent result;
// - divergence is an error, not a hang: a barrier some threads can never reach (a thread
//   finished, or waits at another kind of barrier) stops the launch with a message;
// - __shared__ variables are function statics: one copy, used by one block at a time.
// Not reproduced: flush-to-zero, FMA contraction (the host compiler runs with
// -ffp-contract=off, as NVRTC with --fmad=false), libdevice's accuracy (the host's libm
// computes transcendentals), the memory model (fibers interleave only at barriers and
// shuffles, so a data race between two barriers is invisible), and warp-synchronous
// execution without a _sync primitive.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <ucontext.h>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __shared__ static

struct lz_emu_dim3 { unsigned x, y, z; };

enum { LZ_EMU_RUNNABLE, LZ_EMU_AT_BLOCK_BARRIER, LZ_EMU_AT_WARP_BARRIER, LZ_EMU_DONE };

struct lz_emu_fiber {
  lz_emu_dim3 index;
  int state;
  jmp_buf context;
  ucontext_t start;
  char* stack;
};

typedef void (*lz_emu_body)(void** args);

static const unsigned LZ_EMU_STACK = 256 * 1024;
static const int warpSize = 32;
static lz_emu_dim3 blockIdx, blockDim, gridDim;
static lz_emu_fiber* lz_emu_fibers[1024];
static int lz_emu_fiber_count = 0;
static lz_emu_fiber* lz_emu_self = 0;
static jmp_buf lz_emu_scheduler;
static lz_emu_body lz_emu_kernel = 0;
static void** lz_emu_args = 0;
static unsigned long long lz_emu_exchange[1024];       // one shuffle slot per thread of the block
static char lz_emu_error[512];
static unsigned long long lz_emu_switches = 0;

#define threadIdx (lz_emu_self->index)

// --- device intrinsics the prelude uses ------------------------------------------------
static inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
static inline float __int_as_float(int v) { float f; memcpy(&f, &v, 4); return f; }
static inline long long __double_as_longlong(double d) { long long v; memcpy(&v, &d, 8); return v; }
static inline int __float_as_int(float f) { int v; memcpy(&v, &f, 4); return v; }

// --- switching ---------------------------------------------------------------------------
static void lz_emu_wait(int state) {
  lz_emu_self->state = state;
  ++lz_emu_switches;
  if (!_setjmp(lz_emu_self->context)) _longjmp(lz_emu_scheduler, 1);
}

static inline void __syncthreads() { lz_emu_wait(LZ_EMU_AT_BLOCK_BARRIER); }
static inline void __syncwarp(unsigned = 0xffffffffu) { lz_emu_wait(LZ_EMU_AT_WARP_BARRIER); }

// __shfl_down_sync for values of up to 8 bytes (all lanes of the warp take part; a
// source lane past the warp or the block gives the caller its own value).
template <class T> static T __shfl_down_sync(unsigned, T value, unsigned delta, int width = 32) {
  static_assert(sizeof(T) <= 8, "the emulator shuffles values of up to 8 bytes");
  const unsigned me = threadIdx.x, lane = me % 32;
  memcpy(&lz_emu_exchange[me], &value, sizeof(T));
  lz_emu_wait(LZ_EMU_AT_WARP_BARRIER);
  T out = value;
  if ((lane % width) + delta < (unsigned)width && me + delta < blockDim.x)
    memcpy(&out, &lz_emu_exchange[me + delta], sizeof(T));
  lz_emu_wait(LZ_EMU_AT_WARP_BARRIER);
  return out;
}

// Atomics: fibers switch only at barriers, so a plain read-modify-write is atomic here.
template <class T> static T atomicAdd(T* address, T value) { T old = *address; *address = old + value; return old; }
template <class T> static T atomicMax(T* address, T value) { T old = *address; if (value > old) *address = value; return old; }
template <class T> static T atomicMin(T* address, T value) { T old = *address; if (value < old) *address = value; return old; }
template <class T> static T atomicCAS(T* address, T compare, T value) {
  T old = *address; if (old == compare) *address = value; return old; }

// --- the scheduler -------------------------------------------------------------------------
static void lz_emu_trampoline() {
  lz_emu_kernel(lz_emu_args);
  lz_emu_self->state = LZ_EMU_DONE;
  _longjmp(lz_emu_scheduler, 1);
}

// Fibers are made once and reused by every block and launch (each restarts from its
// trampoline).  Each is allocated on its own: a ucontext_t points into itself, so it must
// never move.
static int lz_emu_prepare_fibers(int count) {
  if (count > 1024) { snprintf(lz_emu_error, sizeof lz_emu_error, "block of %d threads (at most 1024)", count); return 0; }
  for (int t = lz_emu_fiber_count; t < count; ++t) {
    lz_emu_fiber* f = (lz_emu_fiber*)calloc(1, sizeof(lz_emu_fiber));
    if (!f) return 0;
    f->stack = (char*)malloc(LZ_EMU_STACK);
    if (!f->stack || getcontext(&f->start) != 0) return 0;
    f->start.uc_stack.ss_sp = f->stack;
    f->start.uc_stack.ss_size = LZ_EMU_STACK;
    f->start.uc_link = 0;
    makecontext(&f->start, lz_emu_trampoline, 0);
    lz_emu_fibers[t] = f;
    lz_emu_fiber_count = t + 1;
  }
  return 1;
}

static unsigned long long lz_emu_random_state;
static unsigned lz_emu_random(unsigned n) {      // xorshift64*: a reproducible permutation
  lz_emu_random_state ^= lz_emu_random_state >> 12;
  lz_emu_random_state ^= lz_emu_random_state << 25;
  lz_emu_random_state ^= lz_emu_random_state >> 27;
  return (unsigned)((lz_emu_random_state * 2685821657736338717ULL) >> 33) % n;
}

// order: 0 forward, 1 reversed, 2 a fresh permutation from the seed at every round
static void lz_emu_order(int* order, int n, int mode) {
  for (int i = 0; i < n; ++i) order[i] = mode == 1 ? n - 1 - i : i;
  if (mode == 2)
    for (int i = n - 1; i > 0; --i) { int j = lz_emu_random(i + 1), t = order[i]; order[i] = order[j]; order[j] = t; }
}

// Barrier bookkeeping of the running block.
static int lz_emu_warp_waiting[32], lz_emu_warp_done[32], lz_emu_block_waiting, lz_emu_done;

// After fiber ``f`` stopped: count it, release the barrier it completed, or say why that
// barrier can never be released (0).
static int lz_emu_release(lz_emu_fiber* f, int threads) {
  const int warp = f->index.x / 32, first = warp * 32;
  const int lanes = (first + 32 < threads ? first + 32 : threads) - first;
  if (f->state == LZ_EMU_DONE) { ++lz_emu_done; ++lz_emu_warp_done[warp]; }
  if (f->state == LZ_EMU_AT_WARP_BARRIER && ++lz_emu_warp_waiting[warp] == lanes) {
    lz_emu_warp_waiting[warp] = 0;
    for (int t = first; t < first + lanes; ++t) lz_emu_fibers[t]->state = LZ_EMU_RUNNABLE;
  }
  if (lz_emu_warp_waiting[warp] && lz_emu_warp_waiting[warp] + lz_emu_warp_done[warp] == lanes) {
    snprintf(lz_emu_error, sizeof lz_emu_error, "block (%u), warp %d: %d lanes wait in a warp shuffle, "
             "%d lanes finished without reaching it", blockIdx.x, warp, lz_emu_warp_waiting[warp],
             lz_emu_warp_done[warp]);
    return 0;
  }
  if (f->state == LZ_EMU_AT_BLOCK_BARRIER) ++lz_emu_block_waiting;
  if (lz_emu_block_waiting == threads) {
    lz_emu_block_waiting = 0;
    for (int t = 0; t < threads; ++t) lz_emu_fibers[t]->state = LZ_EMU_RUNNABLE;
  } else if (lz_emu_block_waiting && lz_emu_block_waiting + lz_emu_done == threads) {
    snprintf(lz_emu_error, sizeof lz_emu_error, "block (%u): %d threads wait at __syncthreads, "
             "%d threads finished without reaching it (barrier divergence)", blockIdx.x,
             lz_emu_block_waiting, lz_emu_done);
    return 0;
  }
  return 1;
}

static int lz_emu_run_block(int threads, int mode, int* order) {
  for (int t = 0; t < threads; ++t) {
    lz_emu_fibers[t]->index = {(unsigned)t, 0u, 0u};
    lz_emu_fibers[t]->state = -1;         // not started
  }
  memset(lz_emu_warp_waiting, 0, sizeof lz_emu_warp_waiting);
  memset(lz_emu_warp_done, 0, sizeof lz_emu_warp_done);
  lz_emu_block_waiting = lz_emu_done = 0;
  while (lz_emu_done < threads) {
    int progress = 0;
    lz_emu_order(order, threads, mode);
    for (int k = 0; k < threads; ++k) {
      lz_emu_fiber* f = lz_emu_fibers[order[k]];
      if (f->state != LZ_EMU_RUNNABLE && f->state != -1) continue;
      lz_emu_self = f;
      if (!_setjmp(lz_emu_scheduler)) {
        if (f->state == -1) { f->state = LZ_EMU_RUNNABLE; setcontext(&f->start); }
        _longjmp(f->context, 1);
      }
      progress = 1;
      if (!lz_emu_release(f, threads)) return 0;
    }
    if (!progress) {
      snprintf(lz_emu_error, sizeof lz_emu_error, "block (%u): no thread can run (threads wait "
               "at different barriers)", blockIdx.x);
      return 0;
    }
  }
  return 1;
}

// Runs ``body`` (a launcher) over the grid; returns 0 and fills lz_emu_error on failure.
extern "C" int lz_emu_launch(lz_emu_body body, void** args, unsigned grid, unsigned block,
                             int mode, unsigned long long seed) {
  lz_emu_error[0] = 0;
  if (block == 0 || grid == 0 || !lz_emu_prepare_fibers((int)block)) {
    if (!lz_emu_error[0]) snprintf(lz_emu_error, sizeof lz_emu_error, "cannot launch %u blocks of %u threads", grid, block);
    return 0;
  }
  lz_emu_kernel = body;
  lz_emu_args = args;
  lz_emu_random_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  gridDim = {grid, 1u, 1u};
  blockDim = {block, 1u, 1u};
  int* order = (int*)malloc(sizeof(int) * (block > grid ? block : grid));
  int* blocks = (int*)malloc(sizeof(int) * grid);
  lz_emu_order(blocks, (int)grid, mode);
  int ok = 1;
  for (unsigned b = 0; b < grid && ok; ++b) {
    blockIdx = {(unsigned)blocks[b], 0u, 0u};
    ok = lz_emu_run_block((int)block, mode, order);
  }
  free(order);
  free(blocks);
  return ok;
}

extern "C" const char* lz_emu_last_error() { return lz_emu_error; }
extern "C" unsigned long long lz_emu_switch_count() { return lz_emu_switches; }

// Calls kernel ``f`` with its arguments from ``args`` (cuLaunchKernel's convention: one
// pointer to each argument's value).
template <class... A, size_t... I>
static void lz_emu_call(void (*f)(A...), void** args, std::index_sequence<I...>) {
  f(*static_cast<typename std::remove_cv<A>::type*>(args[I])...);
}
template <class... A> static void lz_emu_call(void (*f)(A...), void** args) {
  lz_emu_call(f, args, std::index_sequence_for<A...>{});
}
#define LZ_EMU_LAUNCHER(name) \
  extern "C" void lz_emu_launcher_##name(void** args) { lz_emu_call(name, args); }
