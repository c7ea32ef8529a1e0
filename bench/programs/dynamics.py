"""Time stepping with a small state: a chain of damped pendulums, a trajectory grown with
concatenate, and the Mandelbrot escape-time iteration."""


def pendulum_chain(np, size, steps=5000, dt=0.01):
    """``size`` coupled damped pendulums on a ring, semi-implicit Euler for ``steps`` steps
    (damped, so rounding differences shrink instead of growing)."""
    theta = np.sin(np.linspace(0.0, 2 * np.pi, size, endpoint=False)) * 1.5
    omega = np.zeros(size)
    energy = np.zeros(10)
    for step in range(steps):
        coupling = np.roll(theta, 1) + np.roll(theta, -1) - 2 * theta
        omega = omega + dt * (-np.sin(theta) - 0.1 * omega + 2.0 * coupling)
        theta = theta + dt * omega
        if (step + 1) % (steps // 10) == 0:
            energy[(step + 1) // (steps // 10) - 1] = (0.5 * omega ** 2 + 1 - np.cos(theta)).sum()
    return {"theta": theta, "omega": omega, "energy": energy}


def grow_trajectory(np, size, steps=1000):
    """Record the state of a rotating, decaying ``size``-element vector after every step by
    growing the history with ``concatenate``."""
    state = np.linspace(1.0, 2.0, size)
    history = state[None, :]
    for step in range(steps):
        state = 0.999 * np.roll(state, 1) + 0.01 * np.cos(step * 0.1)
        history = np.concatenate((history, state[None, :]), axis=0)
    return {"history": history, "mean": history.mean(axis=0)}


def mandelbrot(np, size, iterations=60):
    """Escape counts of the Mandelbrot set on a ``size`` x ``3*size/2`` grid, in real arithmetic
    (lazynum has no complex dtype); escaped points stop changing."""
    re = np.linspace(-2.0, 1.0, size * 3 // 2)[None, :] * np.ones((size, 1))
    im = np.linspace(-1.2, 1.2, size)[:, None] * np.ones((1, size * 3 // 2))
    zr = np.zeros_like(re)
    zi = np.zeros_like(re)
    counts = np.zeros(re.shape, dtype=np.int32)
    for _ in range(iterations):
        active = zr * zr + zi * zi <= 4.0
        zr, zi = (np.where(active, zr * zr - zi * zi + re, zr),
                  np.where(active, 2 * zr * zi + im, zi))
        counts += active
    return {"counts": counts, "inside": (counts == iterations).sum()}
