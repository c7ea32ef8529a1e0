"""``python -m lazynum``: version, backend and active settings; ``config-table`` prints the
README's configuration table (``lazynum.settings.describe()``); ``demo`` runs the tour."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    import lazynum
    from lazynum import settings

    if args == ["config-table"]:
        print(settings.describe())
        return 0
    if args == ["demo"]:
        from lazynum import demo
        return demo.main()
    if args:
        print("usage: python -m lazynum [config-table | demo]", file=sys.stderr)
        return 2
    active = settings.get()
    print(f"lazynum {lazynum.__version__}: NumPy, lazily")
    print(f"  backend: {active.backend} (available: {', '.join(settings.VALID_BACKENDS)})")
    for name in settings.SETTINGS_TABLE:
        value = getattr(active, name)
        if isinstance(value, frozenset):
            value = ",".join(sorted(value)) or "(none)"
        print(f"  {name} = {value!r}  [{settings.SETTINGS_TABLE[name][0]}]")
    print("try: python -m lazynum.demo   |   python -m lazynum config-table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
