"""Placeholder: being written (issue 2)."""
__all__ = []


def repeat(*args, **kwargs):
    raise NotImplementedError('joining.repeat is not written yet')
