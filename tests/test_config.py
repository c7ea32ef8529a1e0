"""Configuration: environment variables, validation and ``with lazynum.config``."""
import pytest

import lazynum as lnp
from lazynum.control import settings as cfg


def test_unknown_backend_is_a_clear_error_naming_valid_ones(monkeypatch):
    monkeypatch.setenv("LAZYNUM_BACKEND", "tpu")
    with pytest.raises(ValueError, match="valid backends: llvm, numpy"):
        cfg.reload_from_environment()
    monkeypatch.setenv("LAZYNUM_BACKEND", "numpy")
    assert cfg.reload_from_environment().backend == "numpy"


def test_config_block_overrides_and_restores():
    before = cfg.get().sync
    with lnp.config(sync="raise", logs="graph,sync"):
        assert cfg.get().sync == "raise"
        assert cfg.get().logs == frozenset({"graph", "sync"})
    assert cfg.get().sync == before


def test_config_rejects_unknown_settings_and_values():
    with pytest.raises(TypeError):
        with lnp.config(colour="blue"):
            pass
    with pytest.raises(ValueError):
        with lnp.config(sync="sometimes"):
            pass
    with pytest.raises(ValueError):
        with lnp.config(logs="everything"):
            pass


def test_describe_lists_every_setting():
    text = cfg.describe()
    for name, (env, _, _) in cfg.SETTINGS_TABLE.items():
        assert f"`{env}`" in text
