"""An n-body simulation: softened gravity, leapfrog steps, energy at the end."""


def nbody_inputs(size, rng):
    return {"pos": rng.standard_normal((size, 3)), "vel": 0.1 * rng.standard_normal((size, 3)),
            "mass": rng.random(size) / size}


def _accelerations(np, pos, mass, soft2):
    d = pos[None, :, :] - pos[:, None, :]
    inv = (np.sum(d * d, axis=-1) + soft2) ** -1.5
    return np.sum(d * (inv * mass[None, :])[:, :, None], axis=1)


def nbody(np, size, pos, vel, mass, steps=50, dt=0.01, soft=0.1):
    """Kick-drift-kick leapfrog over ``steps`` steps; returns the final state and total energy."""
    pos, vel, mass = np.asarray(pos), np.asarray(vel), np.asarray(mass)
    soft2 = soft * soft
    acc = _accelerations(np, pos, mass, soft2)
    for _ in range(steps):
        vel = vel + 0.5 * dt * acc
        pos = pos + dt * vel
        acc = _accelerations(np, pos, mass, soft2)
        vel = vel + 0.5 * dt * acc
    kinetic = 0.5 * np.sum(mass * np.sum(vel * vel, axis=1))
    d = pos[None, :, :] - pos[:, None, :]
    r = np.sqrt(np.sum(d * d, axis=-1) + soft2)
    potential = -0.5 * np.sum(mass[:, None] * mass[None, :] / r * (1 - np.eye(size)))
    return {"pos": pos, "vel": vel, "energy": kinetic + potential}
