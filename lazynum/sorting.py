"""Placeholder: being written (issue 2)."""
__all__ = []


def argsort(*args, **kwargs):
    raise NotImplementedError('sorting.argsort is not written yet')


def searchsorted(*args, **kwargs):
    raise NotImplementedError('sorting.searchsorted is not written yet')


def method_sort(*args, **kwargs):
    raise NotImplementedError('sorting.method_sort is not written yet')
