"""Indexing: ``basic`` (integers, slices, ellipsis, newaxis: views) and ``advanced``
(integer and boolean arrays: gathers and scatters)."""
