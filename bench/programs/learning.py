"""Machine-learning loops: k-means, logistic regression by gradient descent, an MLP over
many batch sizes."""
import numpy


def kmeans_inputs(size, rng, k=8, dims=4):
    centres = rng.uniform(-10, 10, (k, dims))
    points = centres[rng.integers(0, k, size)] + rng.standard_normal((size, dims))
    return {"points": points, "start": points[:k].copy()}


def kmeans(np, size, points, start, iterations=30):
    """Lloyd's algorithm: assign to the nearest centre, move each centre to its points' mean,
    stop when no centre moves."""
    x = np.asarray(points)
    centres = np.asarray(start)
    k = centres.shape[0]
    done = 0
    for done in range(1, iterations + 1):
        distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        labels = distances.argmin(axis=1)
        moved = centres.copy()
        for j in range(k):
            members = x[labels == j]
            if len(members):
                moved[j] = members.mean(axis=0)
        shift = float(np.abs(moved - centres).max())
        centres = moved
        if shift == 0.0:
            break
    inertia = ((x - centres[labels]) ** 2).sum()
    return {"centres": centres, "labels": labels, "inertia": inertia, "iterations": done}


def logistic_inputs(size, rng, features=20):
    x = rng.standard_normal((size, features))
    truth = rng.standard_normal(features)
    y = (x @ truth + 0.5 * rng.standard_normal(size) > 0).astype(numpy.float64)
    return {"x": x, "y": y}


def _loss(np, w, x, y):
    # Cross-entropy of the sigmoid; smooth everywhere (a max(z, 0) form has a kink at the
    # starting point w = 0, where autograd's subgradient and the textbook gradient differ).
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    return -(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)).mean()


def _hand_gradient(np):
    def gradient(w, x, y):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        return x.T @ (p - y) / x.shape[0]
    return gradient


def logistic_regression(np, size, x, y, grad=None, steps=200, rate=0.5):
    """Gradient descent on the logistic loss.  ``grad`` makes a gradient function from a loss
    (``lazynum.grad``); without one (NumPy) the hand-written gradient is used."""
    x, y = np.asarray(x), np.asarray(y)
    if grad is None:
        grad = getattr(np, "grad", None)
    gradient = grad(lambda w, x, y: _loss(np, w, x, y)) if grad else _hand_gradient(np)
    w = np.zeros(x.shape[1])
    history = []
    for step in range(steps):
        w = w - rate * gradient(w, x, y)
        if step % 20 == 0:
            history.append(_loss(np, w, x, y))
    accuracy = (((x @ w) > 0) == (y > 0.5)).mean()
    return {"w": w, "loss": np.stack(history), "accuracy": accuracy}


def mlp_inputs(size, rng, features=64, hidden=128, classes=10):
    return {"x": rng.standard_normal((size, features)).astype(numpy.float32),
            "w1": (rng.standard_normal((features, hidden)) / 8).astype(numpy.float32),
            "w2": (rng.standard_normal((hidden, classes)) / 11).astype(numpy.float32)}


def mlp_batches(np, size, x, w1, w2, batches=50):
    """A float32 two-layer MLP's softmax outputs over ``batches`` growing batch sizes (the
    last one is all ``size`` rows), the mean top probability of each."""
    x, w1, w2 = np.asarray(x), np.asarray(w1), np.asarray(w2)
    top = []
    for b in range(1, batches + 1):
        rows = x[:b * size // batches]
        hidden = np.maximum(rows @ w1, 0)
        logits = hidden @ w2
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs = e / e.sum(axis=1, keepdims=True)
        top.append(probs.max(axis=1).mean())
    return {"top": np.stack(top), "last": probs}
