from . import native as _native

# An extension module shadows its source, so a compiled engine built from
# other sources would run other rules without a sign. Such a build is set
# aside, with a warning, and the engine is imported from its sources.
if _native.status() == "stale":
    import warnings

    warnings.warn(_native.stale_message(), RuntimeWarning, stacklevel=1)
    _native.prefer_sources()
