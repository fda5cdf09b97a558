"""The seats' refusal: a seat or a request refused (a revoked key, a flood, a payload too large),
in words. Its own module: the seats file and the questions it holds both raise it."""

from gmkit.errors import GmkitError


class SeatError(GmkitError):
    """A seat or a request refused (a revoked key, a flood, a payload too large), in words."""


__all__ = ["SeatError"]
