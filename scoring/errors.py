"""The one exception type of the rules engine: input that describes no possible game."""

from typing import Any


class InvalidFacts(ValueError):
    """Facts that describe no possible game; ``code`` is stable, ``params`` fill the message."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        details = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code} ({details})" if details else self.code
