"""Real programs: complete NumPy programs of the kind people write (Python loops of slice
updates, convergence tests, small states stepped thousands of times), each a function
``program(np, size, **inputs)`` that uses only the ``np`` it is given, so it runs unchanged
with ``numpy`` and with ``lazynum``.  Random inputs are drawn beforehand with a seeded NumPy
Generator (``inputs(size, rng)``) and passed in.  ``python -m bench.programs`` times them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy

from bench.programs import dynamics, fluids, learning, linalg, particles, stencils, stochastic

SEED = 20240613


@dataclass
class Program:
    """One program: ``size`` for the suite, ``quick`` for ``--quick``, ``tiny`` (with the extra
    keyword arguments ``tiny_options`` for the program and ``tiny_inputs`` for its inputs, e.g.
    fewer steps or batches) for the tests."""
    name: str
    run: Callable
    size: int
    quick: int
    tiny: int
    inputs: Callable | None = None
    tiny_options: dict = field(default_factory=dict)
    tiny_inputs: dict = field(default_factory=dict)
    rtol: float = 1e-6
    atol: float = 1e-12      # entries that cancel to about zero differ by rounding alone
    what: str = ""

    def make_inputs(self, size: int, tiny: bool = False) -> dict:
        if self.inputs is None:
            return {}
        options = self.tiny_inputs if tiny else {}
        return self.inputs(size, numpy.random.default_rng(SEED), **options)

    def __call__(self, np, size: int, inputs: dict, tiny: bool = False):
        options = self.tiny_options if tiny else {}
        return self.run(np, size, **inputs, **options)


PROGRAMS = {p.name: p for p in (
    Program("gauss", linalg.gauss, 300, 120, 12, linalg.gauss_inputs,
            what="Gaussian elimination + back substitution"),
    Program("lu", linalg.lu, 300, 120, 12, linalg.lu_inputs, what="LU decomposition (Doolittle)"),
    Program("power_iteration", linalg.power_iteration, 800, 300, 16, linalg.power_iteration_inputs,
            what="power iteration, a convergence test per step"),
    Program("jacobi", stencils.jacobi, 40, 24, 10, tiny_options={"max_iterations": 30},
            what="Jacobi heat solver to tolerance"),
    Program("shallow_water", stencils.shallow_water, 128, 64, 12, tiny_options={"steps": 5},
            what="shallow water (h, hu, hv), 100 steps"),
    Program("lattice_boltzmann", fluids.lattice_boltzmann, 64, 32, 12, tiny_options={"steps": 4},
            what="D2Q9 lattice Boltzmann, 100 steps"),
    Program("life", stencils.life, 128, 64, 10, stencils.life_inputs, tiny_options={"generations": 2},
            what="game of life, 100 generations"),
    Program("convolution", stencils.convolution, 512, 256, 16, stencils.convolution_inputs,
            tiny_options={"passes": 2}, rtol=1e-4, atol=1e-5, what="5x5 blur x4 + Sobel, float32"),
    Program("nbody", particles.nbody, 200, 100, 8, particles.nbody_inputs, tiny_options={"steps": 4},
            rtol=1e-5, what="n-body leapfrog, 50 steps"),
    Program("monte_carlo", stochastic.monte_carlo, 20000, 5000, 50, tiny_options={"batches": 4},
            what="Monte Carlo, 50 batches drawn by np.random"),
    Program("random_walk", stochastic.random_walk, 10000, 2000, 16, stochastic.random_walk_inputs,
            tiny_inputs={"steps": 30},             what="random walk, 1000 steps"),
    Program("black_scholes", stochastic.black_scholes, 20000, 5000, 32, stochastic.black_scholes_inputs,
            tiny_inputs={"batches": 3},             atol=1e-6, what="Black-Scholes, 40 batches, per-batch sums"),
    Program("kmeans", learning.kmeans, 20000, 5000, 64, learning.kmeans_inputs,
            tiny_options={"iterations": 4}, what="k-means (k=8), to convergence"),
    Program("logistic_regression", learning.logistic_regression, 5000, 2000, 40, learning.logistic_inputs,
            tiny_options={"steps": 5}, what="logistic regression, 200 steps with grad"),
    Program("mlp_batches", learning.mlp_batches, 2000, 1000, 20, learning.mlp_inputs,
            tiny_options={"batches": 4}, rtol=1e-4, atol=1e-6, what="float32 MLP over 50 batch sizes"),
    Program("pendulum_chain", dynamics.pendulum_chain, 64, 64, 8, tiny_options={"steps": 20},
            what="ODE: 64 pendulums, 5000 steps"),
    Program("grow_trajectory", dynamics.grow_trajectory, 16, 16, 4, tiny_options={"steps": 6},
            what="concatenate in a loop, 1000 steps"),
    Program("mandelbrot", dynamics.mandelbrot, 200, 100, 8, tiny_options={"iterations": 10},
            what="Mandelbrot escape counts, 60 iterations"),
)}


def to_numpy(result) -> dict:
    """The result as a dict of NumPy arrays (0-d for scalars); this is where a lazy result syncs."""
    return {key: numpy.asarray(value) for key, value in result.items()}


def mismatch(got: dict, want: dict, rtol: float, atol: float) -> str:
    """Why ``got`` differs from NumPy's ``want`` (keys, dtype, shape, values), or ''."""
    if sorted(got) != sorted(want):
        return f"keys {sorted(got)} != NumPy's {sorted(want)}"
    for key, expected in want.items():
        value = got[key]
        if value.dtype != expected.dtype:
            return f"{key}: dtype {value.dtype} != NumPy's {expected.dtype}"
        if value.shape != expected.shape:
            return f"{key}: shape {value.shape} != NumPy's {expected.shape}"
        if not numpy.allclose(value, expected, rtol=rtol, atol=atol, equal_nan=True):
            diff = numpy.max(numpy.abs(value.astype(float) - expected.astype(float)))
            return f"{key}: values differ from NumPy's (max abs diff {diff:.3g})"
    return ""
