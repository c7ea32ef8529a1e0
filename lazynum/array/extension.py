"""How array types above the front end (bounded arrays) take part without being imported.

The front end never imports ``lazynum.bounded``; it calls through this table, which
``lazynum.bounded`` fills when it is imported (``lazynum/__init__`` imports it):

- ``register_type(cls)``: values of ``cls`` are extension arrays (``is_extension``).  They
  convert to lazynum arrays through ``__lazynum_array__`` (their true-size value) and name
  what a sync computes through ``__lazynum_sync_arrays__``.
- ``@extensible(name)`` marks a front-end function as the namespace's ``name``;
  ``register_form(name, factory)`` makes it call ``factory(plain_function)`` from then on:
  a form that handles extension arguments (``lazynum.sum(selection)``) and passes anything
  else to the plain function; ``wrap_form(name, wrapper)`` puts another in front of it.
  ``lazynum.sum`` is one function either way.
- ``register_hook(name, function)`` / ``hook(name)``: what the front end asks of the
  extension when its own arguments produce one (``x[mask]`` is a bounded selection; a ufunc
  over a bounded array).
- ``register_hook("unsupported_dtype", f)``: an extensible function whose arguments have a
  dtype with no lazy form (``expr.dtypes.UnsupportedDtype``) returns ``f(name, args, kwargs)``.
- ``register_numpy_backed(cls)``: values of ``cls`` (``lazynum.eager``'s arrays of dtypes
  with no lazy form) are lazynum arrays holding a NumPy array (``__lazynum_numpy__()``);
  the NumPy fallbacks hand that array itself to NumPy, so writes alias as in NumPy.
"""
from __future__ import annotations

import functools

from ..expr.dtypes import UnsupportedDtype

TYPES: set = set()              # extension array types
_PLAIN: dict = {}               # namespace name -> the front end's function
_FORMS: dict = {}               # namespace name -> the form that replaced it in dispatch
_HOOKS: dict = {}


def register_type(cls) -> None:
    TYPES.add(cls)


NUMPY_BACKED: set = set()       # lazynum array types that hold a NumPy array


def register_numpy_backed(cls) -> None:
    NUMPY_BACKED.add(cls)


def is_numpy_backed(value) -> bool:
    return type(value) in NUMPY_BACKED


def is_extension(value) -> bool:
    return type(value) in TYPES


def any_extension(values) -> bool:
    return bool(TYPES) and any(type(v) in TYPES for v in values)


def extensible(name: str):
    """Decorator: the front-end function that is the namespace's ``name`` (see the module
    docstring).  The wrapper keeps the plain function as ``__wrapped__``."""
    def decorate(function):
        _PLAIN[name] = function

        @functools.wraps(function)
        def dispatch(*args, **kwargs):
            form = _FORMS.get(name)
            try:
                return function(*args, **kwargs) if form is None else form(*args, **kwargs)
            except UnsupportedDtype:        # NumPy-backed arrays answer it (lazynum.eager)
                if "unsupported_dtype" not in _HOOKS:
                    raise
                return _HOOKS["unsupported_dtype"](name, args, kwargs)
        dispatch.__lazynum_extensible__ = name
        return dispatch
    return decorate


def register_form(name: str, factory) -> None:
    """From now on the namespace's ``name`` runs ``factory(plain function)``."""
    _FORMS[name] = factory(_PLAIN[name])


def wrap_form(name: str, wrapper) -> None:
    """From now on the namespace's ``name`` runs ``wrapper(what it ran until now)``: a form
    in front of the extension's (the immediate tier's, ``frontend.immediate_forms``)."""
    _FORMS[name] = wrapper(_FORMS.get(name, _PLAIN[name]))


def extensible_names() -> tuple:
    return tuple(_PLAIN)


def register_hook(name: str, function) -> None:
    _HOOKS[name] = function


def hook(name: str):
    """The extension's ``name`` (a ``LookupError`` naming it when no extension gave one)."""
    try:
        return _HOOKS[name]
    except KeyError:
        raise LookupError(f"no array extension provides {name!r} (lazynum.bounded is not "
                          "imported?)") from None
