"""The runtime: the one sync entry point and the registry of live pending arrays."""
from . import immediate  # noqa: F401 - installs the immediate tier's hook
from .sync import SyncError, flush_all, register_live, sync_nodes

__all__ = ["SyncError", "flush_all", "register_live", "sync_nodes"]
