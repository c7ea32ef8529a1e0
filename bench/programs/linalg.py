"""Dense linear algebra written as textbook Python loops of slice updates."""
import numpy


def gauss_inputs(size, rng):
    # Diagonally dominant, so elimination without pivoting is stable.
    return {"a": rng.random((size, size)) + size * numpy.eye(size), "b": rng.random(size)}


def gauss(np, size, a, b):
    """Solve a x = b: forward elimination on the augmented matrix, then back substitution."""
    n = size
    m = np.concatenate((np.asarray(a), np.asarray(b)[:, None]), axis=1)
    for c in range(1, n):
        m[c:, c - 1:] = m[c:, c - 1:] - (m[c:, c - 1] / m[c - 1, c - 1:c])[:, None] * m[c - 1, c - 1:]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (m[i, n] - m[i, i + 1:n] @ x[i + 1:]) / m[i, i]
    return {"upper": m, "x": x}


def lu_inputs(size, rng):
    return {"a": rng.random((size, size)) + size * numpy.eye(size)}


def lu(np, size, a):
    """Doolittle LU without pivoting, in place: L below the diagonal (unit diagonal), U on and above."""
    a = np.array(a, dtype=np.float64)
    n = size
    for k in range(n - 1):
        a[k + 1:, k] = a[k + 1:, k] / a[k, k]
        a[k + 1:, k + 1:] -= a[k + 1:, k][:, None] * a[k, k + 1:][None, :]
    lower = np.tril(a, -1) + np.eye(n)
    upper = np.triu(a)
    return {"L": lower, "U": upper, "logdet": np.sum(np.log(np.diagonal(upper)))}


def power_iteration_inputs(size, rng):
    g = rng.standard_normal((size, size))
    return {"m": g @ g.T / size}    # a covariance matrix: its top eigenvalues are close


def power_iteration(np, size, m, iterations=1000, tol=1e-10):
    """Dominant eigenpair of a symmetric matrix, stopping when the eigenvalue settles."""
    m = np.asarray(m)
    v = np.ones(size) / np.sqrt(size)
    eigenvalue = 0.0
    steps = 0
    for steps in range(1, iterations + 1):
        w = m @ v
        new = float(v @ w)
        v = w / np.linalg.norm(w)
        if abs(new - eigenvalue) < tol * abs(new):
            eigenvalue = new
            break
        eigenvalue = new
    return {"eigenvalue": eigenvalue, "vector": v, "steps": steps}
