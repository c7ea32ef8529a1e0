"""NumPy's floating-point error handling: ``errstate``, ``seterr``, ``geterr``,
``seterrcall``, ``geterrcall``.

Each sets NumPy's own state (so NumPy calls lazynum makes at trace time, and eager
fallbacks, honour it as NumPy would) and logs the change against the node ids
(``expr/fp_state``): a lazy op acts on floating-point errors as the state was when it was
recorded, whenever it is computed.  The sync reports them (``runtime/fp_errors``).
"""
from __future__ import annotations

import functools

import numpy as np

from ..expr import fp_state

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall"]

_UNSET = object()


class errstate:  # noqa: N801 - NumPy's name
    """Context manager (and decorator) for floating-point error handling.

    Like ``numpy.errstate``: inside the block, floating-point errors of the ops recorded
    there are treated as the keywords say.  The state is captured when an op is recorded,
    not when it is computed: ``with errstate(divide='ignore'): y = 1 / x`` never warns,
    wherever ``y`` is synced.

    Parameters
    ----------
    all : {'ignore', 'warn', 'raise', 'call', 'print', 'log'}, optional
        Treatment of every kind of error not named by its own keyword.
    divide, over, under, invalid : {'ignore', 'warn', 'raise', 'call', 'print', 'log'}, optional
        Treatment of division by zero, overflow, underflow and invalid operations.
    call : callable or object with a ``write`` method, optional
        The function called for ``'call'`` (``call(kind, status)``) or the object written
        to for ``'log'``.

    See Also
    --------
    seterr, geterr, seterrcall, geterrcall
    """

    def __init__(self, *, call=_UNSET, all=None, divide=None, over=None,  # noqa: A002
                 under=None, invalid=None):
        self._kwargs = {k: v for k, v in dict(all=all, divide=divide, over=over, under=under,
                                              invalid=invalid).items() if v is not None}
        if call is not _UNSET:
            self._kwargs["call"] = call
        self._entered = []

    def __enter__(self):
        before = fp_state.current()
        numpy_state = np.errstate(**self._kwargs)
        numpy_state.__enter__()
        self._entered.append((numpy_state, before))
        fp_state.changed(before, fp_state.current())
        return self

    def __exit__(self, *exc_info):
        numpy_state, _ = self._entered.pop()
        inside = fp_state.current()
        numpy_state.__exit__(*exc_info)
        fp_state.changed(inside, fp_state.current())
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def with_errstate(*args, **kwargs):
            with errstate(**self._kwargs):
                return function(*args, **kwargs)
        return with_errstate


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    """Set how floating-point errors are handled (``numpy.seterr``).

    Parameters
    ----------
    all, divide, over, under, invalid : {'ignore', 'warn', 'raise', 'call', 'print', 'log'}, optional
        As in ``errstate``.

    Returns
    -------
    dict
        The previous settings.
    """
    before = fp_state.current()
    old = np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)
    fp_state.changed(before, fp_state.current())
    return old


def geterr():
    """The current way floating-point errors are handled (``numpy.geterr``).

    Returns
    -------
    dict
        ``{'divide': ..., 'over': ..., 'under': ..., 'invalid': ...}``.
    """
    return np.geterr()


def seterrcall(func):
    """Set the floating-point error callback or log object (``numpy.seterrcall``).

    Parameters
    ----------
    func : callable ``f(kind, status)``, object with a ``write`` method, or None
        Called for errors set to ``'call'``; written to for errors set to ``'log'``.

    Returns
    -------
    callable, object or None
        The previous one.
    """
    before = fp_state.current()
    old = np.seterrcall(func)
    fp_state.changed(before, fp_state.current())
    return old


def geterrcall():
    """The current floating-point error callback or log object (``numpy.geterrcall``)."""
    return np.geterrcall()
