"""The verbs of the product. Each function owns its transaction and raises
:class:`~tournament.errors.DomainError` with a message for the user when a request cannot be
carried out. The reads live in :mod:`tournament.queries`."""
