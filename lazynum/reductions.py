"""Placeholder: being written (issue 2)."""
__all__ = []


def sum(*args, **kwargs):
    raise NotImplementedError('reductions.sum is not written yet')


def prod(*args, **kwargs):
    raise NotImplementedError('reductions.prod is not written yet')


def mean(*args, **kwargs):
    raise NotImplementedError('reductions.mean is not written yet')


def var(*args, **kwargs):
    raise NotImplementedError('reductions.var is not written yet')


def std(*args, **kwargs):
    raise NotImplementedError('reductions.std is not written yet')


def min(*args, **kwargs):
    raise NotImplementedError('reductions.min is not written yet')


def max(*args, **kwargs):
    raise NotImplementedError('reductions.max is not written yet')


def argmin(*args, **kwargs):
    raise NotImplementedError('reductions.argmin is not written yet')


def argmax(*args, **kwargs):
    raise NotImplementedError('reductions.argmax is not written yet')


def any(*args, **kwargs):
    raise NotImplementedError('reductions.any is not written yet')


def all(*args, **kwargs):
    raise NotImplementedError('reductions.all is not written yet')


def cumsum(*args, **kwargs):
    raise NotImplementedError('reductions.cumsum is not written yet')


def cumprod(*args, **kwargs):
    raise NotImplementedError('reductions.cumprod is not written yet')


def ptp(*args, **kwargs):
    raise NotImplementedError('reductions.ptp is not written yet')


def trace(*args, **kwargs):
    raise NotImplementedError('reductions.trace is not written yet')


def ufunc_reduce(*args, **kwargs):
    raise NotImplementedError('reductions.ufunc_reduce is not written yet')


def ufunc_accumulate(*args, **kwargs):
    raise NotImplementedError('reductions.ufunc_accumulate is not written yet')
