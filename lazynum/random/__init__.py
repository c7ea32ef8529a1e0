"""``lazynum.random``: NumPy's random module whose draws are lazy arrays, bit for bit NumPy's.

``default_rng``/``Generator`` and ``RandomState`` wrap NumPy's own generators
(``generators``); the legacy functions (``seed``, ``rand``, ``normal``, ...) draw from
NumPy's global ``RandomState`` itself, so ``numpy.random.seed(0)`` and
``lazynum.random.seed(0)`` start one shared stream, as the two modules would share it if
lazynum were NumPy.  Bit generators and ``SeedSequence`` are NumPy's classes.
"""
from __future__ import annotations

import numpy as np
from numpy.random import (MT19937, PCG64, PCG64DXSM, BitGenerator, Philox,  # noqa: F401
                          SeedSequence, SFC64)

from ..frontend.fallbacks import module_getattr
from .generators import Generator, RandomState, default_rng  # noqa: F401

_global = RandomState._wrapping(np.random.mtrand._rand)


def get_bit_generator():
    """The bit generator of the global ``RandomState`` (pending draws run first)."""
    _global._settle()
    return np.random.get_bit_generator()


def set_bit_generator(bitgen):
    """Replace the global ``RandomState``'s bit generator, as NumPy's function does."""
    _global._settle()
    np.random.set_bit_generator(bitgen)


_LEGACY = ("beta", "binomial", "bytes", "chisquare", "choice", "dirichlet", "exponential", "f",
           "gamma", "geometric", "get_state", "gumbel", "hypergeometric", "laplace", "logistic",
           "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
           "noncentral_chisquare", "noncentral_f", "normal", "pareto", "permutation", "poisson",
           "power", "rand", "randint", "randn", "random", "random_integers", "random_sample",
           "rayleigh", "seed", "set_state", "shuffle", "standard_cauchy",
           "standard_exponential", "standard_gamma", "standard_normal", "standard_t",
           "triangular", "uniform", "vonmises", "wald", "weibull", "zipf")
globals().update({name: getattr(_global, name) for name in _LEGACY})
ranf = sample = random_sample     # noqa: F821  (NumPy's aliases, installed just above)

__all__ = list(_LEGACY) + ["ranf", "sample", "Generator", "RandomState", "SeedSequence",
                           "MT19937", "Philox", "PCG64", "PCG64DXSM", "SFC64", "default_rng",
                           "BitGenerator", "get_bit_generator", "set_bit_generator"]
__getattr__ = module_getattr(np.random, "numpy.random")   # NumPy's other names, resolved once
