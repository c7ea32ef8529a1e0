"""NumPy-backed arrays: every dtype NumPy accepts and lazynum has no lazy form of
(datetime64, timedelta64, structured and record, str_, bytes_, StringDType, object,
longdouble), as lazynum arrays whose operations NumPy runs eagerly (``array``), with
numpy.ndarray's whole interface (``interface``), plugged into the namespace by ``dispatch``."""
from .array import NumpyBackedArray

__all__ = ["NumpyBackedArray"]
