"""Workload formulas shared by the CPU kernel bench (``kernel_cases``) and the GPU bench
(``cuda_fused``), written once over a NumPy-like namespace ``xp``.  No lazynum import here:
the GPU bench runs each peer library in its own process with only its own imports."""


def fused_elementwise(xp, a, b, c):
    return 2 * a + 3 * b * c - a / (b + 1)


def black_scholes(xp, s, k, t):
    """Black-Scholes call prices with a polynomial approximation of the normal CDF."""
    r, v = 0.05, 0.2
    d1 = (xp.log(s / k) + (r + 0.5 * v * v) * t) / (v * xp.sqrt(t))
    d2 = d1 - v * xp.sqrt(t)
    cdf1 = 0.5 * (1 + xp.tanh(0.7978845608 * (d1 + 0.044715 * d1 ** 3)))
    cdf2 = 0.5 * (1 + xp.tanh(0.7978845608 * (d2 + 0.044715 * d2 ** 3)))
    return s * cdf1 - k * xp.exp(-r * t) * cdf2
