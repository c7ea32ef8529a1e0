"""Many compiled programs in one process keep running.

LLVM's RuntimeDyld aborted the process (``isInt<32>(RealOffset)``) when the small code
model's 32-bit relocations met objects loaded more than 2 GB apart; it happened in the
dynamic-batch benchmark with jax's libraries loaded in the same process, and this smoke
test (150 compiles with gigabytes of address space reserved between them) did not
reproduce it on this machine, so it guards the process's health, not that exact layout.
"""
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import numpy as np
    import lazynum as lnp
    from lazynum.runtime import compile_cache
    total, hold = 0.0, []
    for k in range(150):                       # 150 distinct programs (static sizes)
        hold.append(np.empty(8 << 20))          # 64 MB of untouched address space each:
                                                # engines land gigabytes apart
        with lnp.config(dynamic_shapes=False):
            x = lnp.asarray(np.linspace(0.0, 1.0, 40 + k))
            total += float((lnp.exp(x) * 2.0 + lnp.sin(x)).sum())
    print(lnp.metrics()["compiles"], total)
""")


def test_a_process_compiling_many_programs_keeps_running():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=600, env={**__import__("os").environ, "LAZYNUM_BACKEND": "llvm",
                                            "LAZYNUM_CACHE_DIR": "off"})
    assert done.returncode == 0, done.stderr[-2000:]
    compiles, total = done.stdout.split()
    assert int(compiles) >= 150 and float(total) > 0
