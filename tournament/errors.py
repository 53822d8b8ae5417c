"""The one error every layer may raise and catch: a request the rules do not allow.

It lives below all layers (domain, Spielliste, exports, imports, views and commands import it)
so that none of them imports the domain package only for its error."""


class DomainError(Exception):
    """A request the rules do not allow; ``message`` is shown to the user as it is."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message
