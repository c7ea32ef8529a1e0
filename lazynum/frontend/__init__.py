"""The NumPy front end: NumPy's semantics (argument checks, promotion, broadcasting, shape
rules) for every function, method and ufunc, each recording graph nodes through the array
layer.  ``lazynum/__init__.py`` re-exports it as the namespace."""
