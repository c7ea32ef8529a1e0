"""What users set and what they see: the configuration table (``LAZYNUM_*``, ``config``)
and telemetry (metrics, logs).  Every layer may import it; it imports no other layer."""
