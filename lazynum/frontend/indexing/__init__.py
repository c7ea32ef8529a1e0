"""Indexing: ``basic`` (integers, slices, ellipsis, newaxis: views), ``advanced`` (integer
and boolean arrays: gathers and scatters; take, put, nonzero, ...) and ``subscript`` (the
``a[key]`` / ``a[key] = value`` entry points that choose between them)."""
