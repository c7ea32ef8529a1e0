"""lazynum's version (read by setup.cfg and stored in disk-cache keys)."""
__version__ = "0.1.0"
