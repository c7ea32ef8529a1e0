"""Placeholder: being written (issue 2)."""
__all__ = []


def clip(*args, **kwargs):
    raise NotImplementedError('mathfuncs.clip is not written yet')


def round(*args, **kwargs):
    raise NotImplementedError('mathfuncs.round is not written yet')


def conj(*args, **kwargs):
    raise NotImplementedError('mathfuncs.conj is not written yet')


def real(*args, **kwargs):
    raise NotImplementedError('mathfuncs.real is not written yet')


def imag(*args, **kwargs):
    raise NotImplementedError('mathfuncs.imag is not written yet')
