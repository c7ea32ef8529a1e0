"""lazynum's benchmarks: NumPy and the peers side by side, in one run (``python -m bench.run``).

Not part of the test suite (pytest's ``testpaths`` is ``tests``): timings are reported, never
asserted.
"""
