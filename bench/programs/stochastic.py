"""Programs over random numbers: Monte Carlo (drawing its own points from the namespace's
seeded generator, NumPy's stream in both), a random walk and Black-Scholes (inputs drawn
beforehand with a seeded NumPy Generator and passed in)."""
import numpy


def monte_carlo(np, size, batches=50, seed=20261124):
    """Estimate pi and the integral of exp(-x^2 - y^2) over the unit square, batch by batch
    with points from ``np.random.default_rng(seed)``, with the estimate's standard error."""
    rng = np.random.default_rng(seed)
    inside_total = 0.0
    values = []
    for _ in range(batches):
        xy = rng.random((size, 2))
        r2 = (xy * xy).sum(axis=1)
        inside_total = inside_total + (r2 <= 1.0).sum()
        values.append(np.exp(-r2).mean())
    values = np.stack(values)
    n = batches * size
    return {"pi": 4.0 * inside_total / n, "integral": values.mean(),
            "stderr": values.std() / np.sqrt(batches)}


def random_walk_inputs(size, rng, steps=1000):
    return {"steps": rng.choice(numpy.array([-1, 1], dtype=numpy.int64), size=(steps, size))}


def random_walk(np, size, steps, barrier=20):
    """``size`` walkers of +-1 steps: final position, running maximum, and the first time each
    walker reaches ``barrier`` (-1 if never)."""
    steps = np.asarray(steps)
    pos = np.zeros(size, dtype=np.int64)
    highest = np.zeros(size, dtype=np.int64)
    first = np.full(size, -1, dtype=np.int64)
    for t in range(steps.shape[0]):
        pos = pos + steps[t]
        highest = np.maximum(highest, pos)
        first = np.where((first < 0) & (pos >= barrier), t, first)
    return {"pos": pos, "highest": highest, "first": first,
            "reached": (first >= 0).mean(), "spread": pos.std()}


def black_scholes_inputs(size, rng, batches=40):
    shape = (batches, size)
    return {"spot": rng.uniform(50, 150, shape), "strike": rng.uniform(50, 150, shape),
            "years": rng.uniform(0.1, 2.0, shape), "vol": rng.uniform(0.1, 0.5, shape)}


def _normal_cdf(np, x):
    # Abramowitz and Stegun 26.2.17 (absolute error below 7.5e-8): NumPy has no erf.
    t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
    poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
    tail = 0.3989422804014327 * np.exp(-0.5 * x * x) * poly
    return np.where(x >= 0, 1.0 - tail, tail)


def black_scholes(np, size, spot, strike, years, vol, rate=0.02):
    """European call and put prices batch by batch, with the per-batch sums of the prices."""
    batches = spot.shape[0]
    call_sums = np.zeros(batches)
    put_sums = np.zeros(batches)
    for b in range(batches):
        s, k, t, v = (np.asarray(a[b]) for a in (spot, strike, years, vol))
        root = v * np.sqrt(t)
        d1 = (np.log(s / k) + (rate + 0.5 * v * v) * t) / root
        d2 = d1 - root
        discounted = k * np.exp(-rate * t)
        call = s * _normal_cdf(np, d1) - discounted * _normal_cdf(np, d2)
        put = discounted * _normal_cdf(np, -d2) - s * _normal_cdf(np, -d1)
        call_sums[b] = call.sum()
        put_sums[b] = put.sum()
    return {"call_sums": call_sums, "put_sums": put_sums, "last_call": call}
