"""Many compiled programs in one process: loading must never abort (LLVM's RuntimeDyld
asserts on 32-bit relocations between objects loaded more than 2 GB apart)."""
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import numpy as np
    import lazynum as lnp
    from lazynum.runtime import compile_cache
    total = 0.0
    for k in range(150):                       # 150 distinct programs (static sizes)
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
