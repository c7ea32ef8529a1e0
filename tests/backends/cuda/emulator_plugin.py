"""A pytest plugin that runs the suite's compiled-backend tests on ``LAZYNUM_BACKEND=cuda``
through the CPU emulator (issue 17: the NumPy differential suite on the emulator):

    python -m pytest -p tests.backends.cuda.emulator_plugin tests/test_reductions.py -k llvm

Every ``lazynum.config(backend="llvm")`` (the suite's ``backend`` fixture) selects cuda on
the emulator instead, with grids capped at 2 blocks (grid-stride loops wrap) and every op
recorded (no immediate tier: small test arrays must reach the kernels).  Slow (a host
compile per new program, fibers per thread): not part of the default run.
"""
import os

# The suite's environment (tests/conftest.py sets the same; a plugin loads before it).
os.environ.update(LAZYNUM_CACHE_DIR="off", LAZYNUM_RECOMPILE_LIMIT="0", LAZYNUM_COMPILE="eager",
                  LAZYNUM_CUDA_DEVICE="emulator", LAZYNUM_CUDA_MAX_BLOCKS="2",
                  LAZYNUM_IMMEDIATE_BELOW="0")


def pytest_configure(config):
    import lazynum
    from lazynum.control import settings
    settings.reload_from_environment()
    plain = settings.config

    def cuda_instead_of_llvm(**overrides):
        if overrides.get("backend") == "llvm":
            overrides["backend"] = "cuda"
        return plain(**overrides)

    settings.config = cuda_instead_of_llvm
    lazynum.config = cuda_instead_of_llvm
