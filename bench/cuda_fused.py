"""The CUDA backend against the GPU peers (issue 17's benchmark): runs only where a GPU is.

    python -m bench.cuda_fused                     # every workload at 10^4, 10^6, 10^8
    python -m bench.cuda_fused --sizes 1e6 --libraries lazynum,cupy --json out.json
    python -m bench.cuda_fused --smoke             # no GPU: lazynum on the CPU emulator at
                                                   # 10^4, values checked, nothing timed
    python -m bench.cuda_fused --agreement --per-kernel --sizes 1e4,1e5
                                                   # GPU outputs = emulator's, per kernel

Workloads (float32, each written once over a NumPy-like namespace ``xp``; torch and jax get
their idiomatic spelling where the namespaces differ): fused elementwise, Black-Scholes,
row softmax, layernorm, standardize (column statistics), ``((a-b)**2).sum()``, masked
statistics (the ``where`` form every library can jit), a k-means step, a heat stencil (20
in-place sweeps).  Libraries: lazynum (``LAZYNUM_BACKEND=cuda``), CuPy eager, ``cupy.fuse``
(elementwise workloads), ``jax.jit``, ``torch.compile``: each in its own process (no
allocator or compile cache shared), whichever are installed.

Per (workload, size, library): ``first_s`` (the first call: compiles included),
``device_ms`` (steady state, median of timed calls by device events: CUDA events for CuPy,
torch and lazynum's launches; jax has no event API, its time is the wall time of a call
with ``block_until_ready``), ``wall_ms`` (end to end: for lazynum tracing, the host copies
this stage still makes at each sync, launches and the copy back), and ``GB/s`` (the bytes
the workload must read and write once, over ``device_ms``) against the device's
device-to-device copy bandwidth.  Inputs of the peers are on the device before timing;
lazynum's arrays are host arrays (device residency is a later stage, docs/cuda.md), so its
``wall_ms`` includes their copies and its ``device_ms`` does not.
Targets (issue 17): at least the fastest peer on memory-bound workloads at 10^6 and
above, within 1.3x of copy bandwidth on fused elementwise at 10^8, and launch-bound small
sizes no slower than CuPy eager.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

import numpy

from .formulas import black_scholes, fused_elementwise

LIBRARIES = ("lazynum", "cupy", "cupy_fuse", "jax", "torch")
SIZES = (10**4, 10**6, 10**8)
ELEMENTWISE = ("fused elementwise", "Black-Scholes")
# lazynum on CUDA, every op recorded (the immediate tier would run small ops as NumPy calls
# on the host: the kernels are what is measured), a new program per workload and size
# without the recompile warning.
_LAZYNUM_ENVIRONMENT = {"LAZYNUM_BACKEND": "cuda", "LAZYNUM_IMMEDIATE_BELOW": "0",
                        "LAZYNUM_RECOMPILE_LIMIT": "0", "LAZYNUM_COMPILE": "eager"}


# --- workloads, once over a NumPy-like namespace -------------------------------------------
def softmax(xp, x):
    e = xp.exp(x - _max(xp, x, 1))
    return e / _sum(xp, e, 1)


def layernorm(xp, x):
    mu = _sum(xp, x, 1) / x.shape[1]
    var = _sum(xp, (x - mu) ** 2, 1) / x.shape[1]
    return (x - mu) / xp.sqrt(var + 1e-5)


def standardize(xp, x):
    mu = _sum(xp, x, 0) / x.shape[0]
    return (x - mu) / xp.sqrt(_sum(xp, (x - mu) ** 2, 0) / x.shape[0])


def sum_of_squares(xp, a, b):
    return ((a - b) ** 2).sum()


def masked_statistics(xp, x):
    keep = x > 0.25
    count = keep.sum()
    total = xp.where(keep, x, 0.0).sum()
    mean = total / count
    return xp.stack([total, mean, xp.where(keep, (x - mean) ** 2, 0.0).sum() / count])


def kmeans_step(xp, points, centers):
    d = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(2)
    labels = d.argmin(1)
    onehot = (labels[:, None] == xp.arange(centers.shape[0])[None, :]).astype(points.dtype)
    return (onehot.T @ points) / onehot.sum(0)[:, None]


def heat(xp, a, steps=20):
    for _ in range(steps):
        inner = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        if hasattr(a, "at"):                    # jax: functional update
            a = a.at[1:-1, 1:-1].set(inner)
        else:
            a[1:-1, 1:-1] = inner
    return a


def _max(xp, x, axis):
    if hasattr(x, "amax"):                      # torch
        return x.amax(dim=axis, keepdim=True)
    return x.max(axis=axis, keepdims=True)


def _sum(xp, x, axis):
    if hasattr(x, "amax"):
        return x.sum(dim=axis, keepdim=True)
    return x.sum(axis=axis, keepdims=True)


def inputs(name: str, n: int) -> tuple:
    """The workload's float32 host inputs for about ``n`` elements."""
    rng = numpy.random.default_rng(17)
    f = lambda *shape: rng.standard_normal(shape).astype(numpy.float32)   # noqa: E731
    rows = max(n // 1024, 1)
    if name == "Black-Scholes":
        return (numpy.abs(f(n)) + 1, numpy.abs(f(n)) + 1, numpy.abs(f(n)) + 0.1)
    if name == "fused elementwise":
        return (f(n), f(n), f(n))
    if name in ("row softmax", "layernorm", "standardize"):
        return (f(rows, 1024),)
    if name in ("((a-b)**2).sum()",):
        return (f(n), f(n))
    if name == "masked statistics":
        return (f(n),)
    if name == "k-means step":
        return (f(max(n // 2, 8), 2), f(8, 2))
    side = max(int(math.sqrt(n)), 4)
    return (f(side, side),)


WORKLOADS = {
    "fused elementwise": fused_elementwise, "Black-Scholes": black_scholes,
    "row softmax": softmax, "layernorm": layernorm, "standardize": standardize,
    "((a-b)**2).sum()": sum_of_squares, "masked statistics": masked_statistics,
    "k-means step": kmeans_step, "heat stencil": heat,
}


def moved_bytes(name, arrays, result) -> int:
    """Bytes a workload must read and write once (inputs and its result; the stencil:
    each sweep reads and writes the grid)."""
    total = sum(a.nbytes for a in arrays) + numpy.asarray(result).nbytes
    return total * 20 if name == "heat stencil" else total


# --- one library in this process -----------------------------------------------------------
class Library:
    """How one library runs a workload: namespace, device copies, a compiled callable,
    and the device time of the last call (None: use the wall time)."""

    def __init__(self, name: str):
        self.name = name
        self.events: list = []
        if name == "lazynum":
            import lazynum
            self.xp = lazynum
        elif name in ("cupy", "cupy_fuse"):
            import cupy
            self.xp = cupy
        elif name == "jax":
            import jax
            import jax.numpy as jnp
            self.jax, self.xp = jax, jnp
        else:
            import torch
            self.torch, self.xp = torch, torch

    def prepare(self, workload, arrays):
        """(callable of no arguments returning the result, host copy of a result)."""
        xp = self.xp
        if self.name == "lazynum":
            values = [xp.asarray(a) for a in arrays]

            def call():
                result = workload(xp, *[v.copy() if workload is heat else v for v in values])
                return numpy.asarray(xp.sync(result))
            return call, lambda r: r
        if self.name in ("cupy", "cupy_fuse"):
            values = [xp.asarray(a) for a in arrays]
            fn = workload
            if self.name == "cupy_fuse":
                fused = xp.fuse(lambda *v: workload(xp, *v))
                fn = lambda _xp, *v: fused(*v)            # noqa: E731
            return (lambda: fn(xp, *[v.copy() if workload is heat else v for v in values]),
                    xp.asnumpy)
        if self.name == "jax":
            values = [self.jax.device_put(a) for a in arrays]
            jitted = self.jax.jit(lambda *v: workload(xp, *v))
            return (lambda: jitted(*values).block_until_ready(), numpy.asarray)
        torch = self.torch
        values = [torch.from_numpy(a).cuda() for a in arrays]
        compiled = torch.compile(lambda *v: workload(_TorchNamespace(torch), *v))
        return (lambda: compiled(*[v.clone() if workload is heat else v for v in values]),
                lambda r: r.cpu().numpy())

    def synchronize(self):
        if self.name in ("cupy", "cupy_fuse", "lazynum"):
            import cupy
            cupy.cuda.get_current_stream().synchronize()
        elif self.name == "torch":
            self.torch.cuda.synchronize()


class _TorchNamespace:
    """The few NumPy names the workloads use, for torch tensors."""

    def __init__(self, torch):
        self.t = torch
        self.log, self.exp, self.sqrt, self.tanh = torch.log, torch.exp, torch.sqrt, torch.tanh
        self.stack = torch.stack

    def where(self, c, a, b):
        return self.t.where(c, a, self.t.as_tensor(b, dtype=a.dtype if hasattr(a, "dtype") else None,
                                                   device=c.device))

    def arange(self, n):
        return self.t.arange(n, device="cuda")


def device_timer(library: Library):
    """(start, stop) -> milliseconds of device time between them (CUDA events), or None
    where the library has no event API (jax)."""
    if library.name == "jax":
        return None
    if library.name == "torch":
        torch = library.torch
        return lambda: torch.cuda.Event(enable_timing=True)
    import cupy
    return lambda: cupy.cuda.Event()


def lazynum_launch_events(library: Library):
    """lazynum's device time: CUDA events around each launch of its device (the runtime
    copies arrays between launches' runs; those copies are in ``wall_ms`` only)."""
    import cupy
    from lazynum.backends.cuda import runtime
    device = runtime.current_device()
    launch = device.launch

    def timed(module, function, grid, block, args):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        launch(module, function, grid, block, args)
        stop.record()
        library.events.append((start, stop))
    device.launch = timed


def measure(library: Library, name: str, n: int, repeat: int) -> dict:
    workload, arrays = WORKLOADS[name], inputs(name, n)
    if library.name == "cupy_fuse" and name not in ELEMENTWISE:
        return {}
    call, to_host = library.prepare(workload, arrays)
    start = time.perf_counter()
    result = call()
    library.synchronize()
    first = time.perf_counter() - start
    expected = workload(numpy, *[a.copy() for a in arrays])
    numpy.testing.assert_allclose(to_host(result), expected, rtol=2e-3, atol=2e-3)
    walls, device = [], []
    make_event = device_timer(library)
    for _ in range(repeat):
        library.events.clear()
        start_event = make_event() if make_event and library.name != "lazynum" else None
        if start_event is not None:
            start_event.record()
        start = time.perf_counter()
        call()
        if start_event is not None:
            stop_event = make_event()
            stop_event.record()
            stop_event.synchronize()
            device.append(_elapsed(library, start_event, stop_event))
        library.synchronize()
        walls.append((time.perf_counter() - start) * 1e3)
        if library.name == "lazynum":
            device.append(sum(_elapsed(library, a, b) for a, b in library.events))
    device_ms = statistics.median(device) if device else statistics.median(walls)
    return {"workload": name, "n": n, "library": library.name, "first_s": first,
            "device_ms": device_ms, "wall_ms": statistics.median(walls),
            "bytes": moved_bytes(name, arrays, expected)}


def _elapsed(library, start, stop) -> float:
    if library.name == "torch":
        return start.elapsed_time(stop)
    import cupy
    stop.synchronize()
    return cupy.cuda.get_elapsed_time(start, stop)


def copy_bandwidth(nbytes=1 << 30, repeat=10) -> float:
    """The device's device-to-device copy bandwidth in bytes/s (a read and a write)."""
    import cupy
    a, b = cupy.empty(nbytes, cupy.uint8), cupy.empty(nbytes, cupy.uint8)
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(repeat):
        start.record()
        b[...] = a
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / 1e3)
    return 2 * nbytes / min(times)


def worker(name: str, sizes, repeat: int) -> None:
    """Run every workload for library ``name`` in this process; JSON lines on stdout."""
    if name == "lazynum":
        os.environ.update(_LAZYNUM_ENVIRONMENT)
        os.environ.setdefault("LAZYNUM_CUDA_DEVICE", "cupy")
    try:
        library = Library(name)
    except ImportError as exc:
        print(json.dumps({"library": name, "skipped": str(exc)}), flush=True)
        return
    if name == "lazynum":
        lazynum_launch_events(library)
    for workload in WORKLOADS:
        for n in sizes:
            try:
                row = measure(library, workload, n, repeat if n < 10**8 else max(repeat // 4, 3))
            except Exception as exc:      # noqa: BLE001 - a peer that cannot run a workload
                row = {"workload": workload, "n": n, "library": name,
                       "error": f"{type(exc).__name__}: {exc}"[:300]}
            if row:
                print(json.dumps(row), flush=True)


def smoke() -> int:
    """No GPU: every workload through lazynum on the CPU emulator at 10^4, values checked
    against NumPy (the script's own check; nothing is timed)."""
    os.environ.update(_LAZYNUM_ENVIRONMENT, LAZYNUM_CUDA_DEVICE="emulator")
    import lazynum
    from lazynum.control import settings as lazynum_settings
    lazynum_settings.reload_from_environment()
    failures = 0
    for name, workload in WORKLOADS.items():
        arrays = inputs(name, 10**4)
        expected = workload(numpy, *[a.copy() for a in arrays])
        got = numpy.asarray(lazynum.sync(workload(lazynum, *[lazynum.asarray(a) for a in arrays])))
        ok = numpy.allclose(got, expected, rtol=2e-3, atol=2e-3)
        failures += not ok
        print(f"{name:22s} {'ok' if ok else 'MISMATCH'}")
    return failures


def agreement(sizes, per_kernel=False) -> int:
    """On a GPU: every workload through lazynum on the GPU and on the CPU emulator (grids
    capped alike, so split reductions have the same parts and combine in the same order);
    prints the largest difference per workload and returns how many differ beyond ulp-scale
    (libdevice against the host's libm: docs/cuda.md).  ``per_kernel``: the GPU device is
    a ``comparing.ComparingDevice`` (each launch also on the emulator, every kernel's
    output compared), and each kernel's largest difference is printed too."""
    os.environ.update(_LAZYNUM_ENVIRONMENT)
    import lazynum
    from lazynum.control import settings as lazynum_settings
    lazynum_settings.reload_from_environment()     # (lazynum may be imported already)
    if per_kernel:      # every launch on the GPU and the emulator, each kernel's output compared
        from lazynum.backends.cuda import runtime
        from lazynum.backends.cuda.comparing import ComparingDevice
        from lazynum.backends.cuda.cupy_device import CupyDevice
        from lazynum.backends.cuda.emulator import EmulatorDevice
        comparing = runtime._devices["cupy"] = ComparingDevice(CupyDevice(), EmulatorDevice())
    failures = 0
    for name, workload in WORKLOADS.items():
        for n in sizes:
            arrays = inputs(name, n)
            results = {}
            for device in ("cupy", "emulator"):
                with lazynum.config(cuda_device=device, cuda_max_blocks=64):
                    lazy = workload(lazynum, *[lazynum.asarray(a) for a in arrays])
                    results[device] = numpy.asarray(lazynum.sync(lazy))
            gpu, emulated = results["cupy"], results["emulator"]
            scale = numpy.maximum(numpy.abs(emulated), 1.0)
            worst = float(numpy.max(numpy.abs(gpu - emulated) / scale)) if gpu.size else 0.0
            ok = gpu.dtype == emulated.dtype and gpu.shape == emulated.shape and worst < 1e-5
            failures += not ok
            print(f"{name:22s} {n:>8.0e} max relative difference {worst:.2e} {'' if ok else 'DIFFERS'}")
    if per_kernel:
        for function, worst in sorted(comparing.differences.items(), key=lambda kv: -kv[1]):
            print(f"kernel {function}: GPU vs emulator, max relative difference {worst:.2e}")
        failures += sum(worst >= 1e-5 for worst in comparing.differences.values())
    return failures


def report(rows, bandwidth) -> str:
    lines = [f"device-to-device copy bandwidth: {bandwidth / 1e9:.0f} GB/s", "",
             f"{'workload':22s} {'n':>6s} {'library':10s} {'device ms':>10s} {'wall ms':>9s} "
             f"{'GB/s':>7s} {'of copy':>7s} {'first s':>8s}"]
    for row in rows:
        if "error" in row or "skipped" in row:
            lines.append(f"{row.get('workload', ''):22s} {row.get('n', 0):>6.0e} "
                         f"{row['library']:10s} {row.get('error') or row.get('skipped')}")
            continue
        rate = row["bytes"] / (row["device_ms"] / 1e3)
        lines.append(f"{row['workload']:22s} {row['n']:>6.0e} {row['library']:10s} "
                     f"{row['device_ms']:10.3f} {row['wall_ms']:9.3f} {rate / 1e9:7.1f} "
                     f"{rate / bandwidth:7.2f} {row['first_s']:8.2f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--libraries", default=",".join(LIBRARIES))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json")
    parser.add_argument("--worker")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--agreement", action="store_true",
                        help="GPU against emulator outputs, every workload (sizes: --sizes)")
    parser.add_argument("--per-kernel", action="store_true",
                        help="with --agreement: also compare every kernel launch's output")
    args = parser.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    if args.smoke:
        return smoke()
    if args.worker:
        worker(args.worker, sizes, args.repeat)
        return 0
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() == 0:
            raise RuntimeError("no GPU")
    except Exception as exc:      # noqa: BLE001 - ImportError or CUDARuntimeError alike
        print(f"bench.cuda_fused: no usable GPU here ({exc}); nothing measured "
              "(--smoke checks the workloads on the CPU emulator)")
        return 0
    if args.agreement:
        return agreement(sizes, args.per_kernel)
    rows = []
    for library in args.libraries.split(","):
        done = subprocess.run([sys.executable, "-m", "bench.cuda_fused", "--worker", library,
                               "--sizes", args.sizes, "--repeat", str(args.repeat)],
                              capture_output=True, text=True)
        rows += [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        if done.returncode != 0:
            rows.append({"library": library, "error": done.stderr[-300:]})
    bandwidth = copy_bandwidth()
    print(report(rows, bandwidth))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"copy_bandwidth": bandwidth, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
