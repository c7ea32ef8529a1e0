"""Grid programs: a Jacobi heat solver, shallow water, image convolution, the game of life."""


def jacobi(np, size, tol=1e-3, max_iterations=2000):
    """Steady heat on a square plate (hot top edge, cold elsewhere) by Jacobi iteration,
    stopping when the largest change of a step falls below ``tol``: a sync per iteration."""
    u = np.zeros((size, size))
    u[0, :] = 100.0
    iterations = 0
    change = 0.0
    while iterations < max_iterations:
        new = u.copy()
        new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        change = float(np.abs(new - u).max())
        u = new
        iterations += 1
        if change < tol:
            break
    return {"u": u, "iterations": iterations, "change": change}


def _flux_x(np, h, hu, hv, g):
    u = hu / h
    return hu, hu * u + 0.5 * g * h * h, hv * u


def _flux_y(np, h, hu, hv, g):
    v = hv / h
    return hv, hu * v, hv * v + 0.5 * g * h * h


def shallow_water(np, size, steps=100):
    """Nonlinear shallow-water equations (h, hu, hv) by Lax-Friedrichs on a square basin with
    reflecting walls: a drop of water spreading out.  Returns the fields and the mass per step."""
    g, dx = 9.81, 1.0
    dt = 0.1
    x = np.arange(size) - size / 2
    r2 = x[:, None] ** 2 + x[None, :] ** 2
    h = 1.0 + 0.5 * np.exp(-r2 / (size / 8) ** 2)
    hu = np.zeros((size, size))
    hv = np.zeros((size, size))
    mass = np.zeros(steps)
    c = dt / (2 * dx)
    for step in range(steps):
        fx = _flux_x(np, h, hu, hv, g)
        fy = _flux_y(np, h, hu, hv, g)
        new = []
        for q, f, e in zip((h, hu, hv), fx, fy):
            n = q.copy()
            n[1:-1, 1:-1] = (0.25 * (q[2:, 1:-1] + q[:-2, 1:-1] + q[1:-1, 2:] + q[1:-1, :-2])
                             - c * (f[2:, 1:-1] - f[:-2, 1:-1]) - c * (e[1:-1, 2:] - e[1:-1, :-2]))
            new.append(n)
        h, hu, hv = new
        # Reflecting walls: copy the depth outward, flip the normal momentum.
        h[0, :], h[-1, :], h[:, 0], h[:, -1] = h[1, :], h[-2, :], h[:, 1], h[:, -2]
        hu[0, :], hu[-1, :] = -hu[1, :], -hu[-2, :]
        hu[:, 0], hu[:, -1] = hu[:, 1], hu[:, -2]
        hv[:, 0], hv[:, -1] = -hv[:, 1], -hv[:, -2]
        hv[0, :], hv[-1, :] = hv[1, :], hv[-2, :]
        mass[step] = h[1:-1, 1:-1].sum()
    return {"h": h, "hu": hu, "hv": hv, "mass": mass}


def convolution_inputs(size, rng):
    return {"image": rng.random((size, size)).astype("float32")}


def convolution(np, size, image, passes=4):
    """Blur a float32 image with a 5x5 binomial kernel several times (a sum of shifted slices of
    the edge-padded image), then take the Sobel edge magnitude."""
    img = np.asarray(image)
    taps = [1.0, 4.0, 6.0, 4.0, 1.0]
    for _ in range(passes):
        padded = np.pad(img, 2, mode="edge")
        out = np.zeros_like(img)
        for i, wi in enumerate(taps):
            for j, wj in enumerate(taps):
                out += (wi * wj / 256.0) * padded[i:i + size, j:j + size]
        img = out
    p = np.pad(img, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    edges = np.sqrt(gx * gx + gy * gy)
    return {"blurred": img, "edges": edges, "edge_mean": edges.mean()}


def life_inputs(size, rng):
    return {"board": rng.random((size, size)) < 0.3}


def life(np, size, board, generations=100):
    """Conway's game of life on a torus; counts neighbours with eight rolls of the board.
    Returns the final board and the population of every generation."""
    grid = np.asarray(board).astype(np.uint8)
    population = []
    for _ in range(generations):
        neighbours = np.zeros((size, size), dtype=np.uint8)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dy or dx:
                    neighbours += np.roll(np.roll(grid, dy, axis=0), dx, axis=1)
        alive = (neighbours == 3) | ((grid == 1) & (neighbours == 2))
        grid = alive.astype(np.uint8)
        population.append(grid.sum())
    return {"board": grid, "population": np.stack(population)}
