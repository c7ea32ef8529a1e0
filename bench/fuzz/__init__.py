"""lazynum's random-program differential fuzzer (``python -m bench.fuzz``).

Programs of 5-30 statements (views, in-place writes, bounded producers and their consumers,
fancy indexing, reductions, joins, casts, mid-program syncs) are generated as source text
by running NumPy alongside (``generate``), then run once with numpy and once with lazynum
as ``np`` on a chosen backend and compared variable by variable, exceptions included
(``run``).  A failing program is shrunk to a standalone reproducer script (``shrink``).
The generator does not import lazynum; the runner uses only its public API.
"""
