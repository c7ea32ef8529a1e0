"""A pytest plugin that runs the suite's compiled-backend tests on ``LAZYNUM_BACKEND=cuda``
through the CPU emulator (issue 17: the NumPy differential suite on the emulator):

    python -m pytest -p tests.backends.cuda.emulator_plugin tests/test_reductions.py -k llvm

Every ``lazynum.config(backend="llvm")`` (the suite's ``backend`` fixture) selects cuda on
the emulator instead, with grids capped at 2 blocks (grid-stride loops wrap) and every op
recorded (no immediate tier: small test arrays must reach the kernels).  Slow (a host
compile per new program, fibers per thread): not part of the default run.
"""
import os

os.environ["LAZYNUM_CUDA_DEVICE"] = "emulator"
os.environ["LAZYNUM_CUDA_MAX_BLOCKS"] = "2"
os.environ["LAZYNUM_IMMEDIATE_BELOW"] = "0"

import lazynum  # noqa: E402
from lazynum.control import settings  # noqa: E402

_config = settings.config


def _cuda_instead_of_llvm(**overrides):
    if overrides.get("backend") == "llvm":
        overrides["backend"] = "cuda"
    return _config(**overrides)


settings.config = _cuda_instead_of_llvm
lazynum.config = _cuda_instead_of_llvm
