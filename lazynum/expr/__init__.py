"""The expression layer: nodes, the op registry, shapes, graph walks and the primitives.

Importing it registers every primitive, so a walk of ``registry.OPS`` sees them all.
"""
from . import (checks, compaction, elementwise, extern, indexing, linalg, movement,  # noqa: F401
               order_statistics, reduce, sampling)
