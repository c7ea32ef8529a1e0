"""The array layer: the ndarray data model (owners and views over versioned storage),
layouts, dtypes, conversion of user values to nodes, and the tracing fast path.  It builds
on ``expr`` and ``runtime`` and never imports the front end above it."""
