"""The static files of a deployment (DEBUG off, ``make hall``): WhiteNoise's compressed files
with hashed names, and the relative ``import`` paths inside the keeper's JavaScript modules
(outbox*.js) rewritten to the hashed names too. Without that, the hashed outbox.js, cached for
a year, would import the plain names, which are cached briefly: after an update a phone could
run an old module beside a new one. Only these files: Django's switch for all of them
(support_js_module_import_aggregation) also reads django_htmx's scripts, whose imports are
not static paths, and collectstatic fails."""

from whitenoise.storage import CompressedManifestStaticFilesStorage  # type: ignore[import-untyped]


class ModuleManifestStorage(CompressedManifestStaticFilesStorage):
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (
            "tournament/outbox*.js",
            CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns[1],
        ),
    )
