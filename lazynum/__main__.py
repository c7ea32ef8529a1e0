"""``python -m lazynum``: version, backend and active settings; ``config-table`` prints the
README's configuration table (``lazynum.control.settings.describe()``); ``demo`` runs the tour;
``fallbacks`` prints the census of NumPy's names (``lazynum.census``);
``cache`` shows the persistent compile cache and ``cache clear`` empties it."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    import lazynum
    from lazynum.control import settings

    if args == ["config-table"]:
        print(settings.describe())
        return 0
    if args == ["demo"]:
        from lazynum import demo
        return demo.main()
    if args == ["fallbacks"]:
        from lazynum import census
        print(census.report())
        return 0
    if args[:1] == ["cache"] and args[1:] in ([], ["clear"]):
        return _cache_command(clear=args[1:] == ["clear"])
    if args:
        print("usage: python -m lazynum [config-table | demo | fallbacks | cache [clear]]", file=sys.stderr)
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


def _cache_command(clear: bool) -> int:
    from lazynum.control import settings
    from lazynum.runtime.compile_cache import disk_cache
    cache = disk_cache()
    if cache is None:
        print(f"the persistent compile cache is off or refused (LAZYNUM_CACHE_DIR="
              f"{settings.get().cache_dir!r})")
        return 0
    keys = cache.entries()
    size = sum((cache.path / f"{key}.lzc").stat().st_size for key in keys
               if (cache.path / f"{key}.lzc").exists())
    print(f"compile cache: {cache.path}: {len(keys)} programs, {size / 1e6:.2f} MB")
    if clear:
        print(f"removed {cache.clear()} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
