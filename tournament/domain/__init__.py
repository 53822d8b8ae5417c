"""The verbs of the product. Each function owns its transaction and raises
:class:`DomainError` with a message for the user when a request cannot be carried out."""


class DomainError(Exception):
    """A request the rules do not allow; ``message`` is shown to the user as it is."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message
