"""A D2Q9 lattice-Boltzmann flow: the decay of a shear wave around a square obstacle."""

# Lattice velocities, weights and opposite directions of D2Q9.
CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY = (0, 0, 1, 0, -1, 1, 1, -1, -1)
W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)
OPPOSITE = (0, 3, 4, 1, 2, 7, 8, 5, 6)


def _equilibrium(np, rho, ux, uy, i):
    cu = 3.0 * (CX[i] * ux + CY[i] * uy)
    usq = 1.5 * (ux * ux + uy * uy)
    return rho * W[i] * (1.0 + cu + 0.5 * cu * cu - usq)


def lattice_boltzmann(np, size, steps=100, tau=0.8):
    """BGK collision, streaming by rolls, bounce-back on an obstacle: nine slice updates
    per step for the collision and nine for the streaming."""
    ny, nx = size, size
    y = np.arange(ny)
    ux = 0.05 * np.sin(2 * np.pi * y / ny)[:, None] * np.ones((1, nx))
    uy = np.zeros((ny, nx))
    rho = np.ones((ny, nx))
    solid = np.zeros((ny, nx), dtype=bool)
    solid[ny // 2 - 3:ny // 2 + 3, nx // 4 - 3:nx // 4 + 3] = True
    f = np.zeros((9, ny, nx))
    for i in range(9):
        f[i] = _equilibrium(np, rho, ux, uy, i)
    for _ in range(steps):
        rho = f.sum(axis=0)
        ux = (f[1] + f[5] + f[8] - f[3] - f[6] - f[7]) / rho
        uy = (f[2] + f[5] + f[6] - f[4] - f[7] - f[8]) / rho
        for i in range(9):
            f[i] = f[i] - (f[i] - _equilibrium(np, rho, ux, uy, i)) / tau
        for i in range(1, 9):
            f[i] = np.roll(np.roll(f[i], CY[i], axis=0), CX[i], axis=1)
        # Bounce-back: populations that entered the obstacle go back where they came from.
        bounced = f[list(OPPOSITE)]
        f = np.where(solid[None, :, :], bounced, f)
    return {"f": f, "rho": rho, "ux": ux, "uy": uy}
