"""Placeholder: being written (issue 2)."""
__all__ = []


def matmul(*args, **kwargs):
    raise NotImplementedError('linalg.matmul is not written yet')


def dot(*args, **kwargs):
    raise NotImplementedError('linalg.dot is not written yet')
