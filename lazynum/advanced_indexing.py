"""Placeholder: being written (issue 2)."""
__all__ = []


def take(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.take is not written yet')


def nonzero(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.nonzero is not written yet')


def put(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.put is not written yet')


def ufunc_at(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.ufunc_at is not written yet')


def advanced_getitem(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.advanced_getitem is not written yet')


def advanced_setitem(*args, **kwargs):
    raise NotImplementedError('advanced_indexing.advanced_setitem is not written yet')
