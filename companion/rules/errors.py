"""Errors of the rules engine: a small hierarchy under ``ValueError``.

Every error can carry the record line it refers to; ``str(error)`` is then
``"line N: reason"``, the exact form the command line prints.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every refusal by the rules engine."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line

    def at_line(self, line: int) -> RulesError:
        """Return the same error, now naming the record line (keeps an existing line)."""
        if self.line is None:
            self.line = line
        return self

    def __str__(self) -> str:
        if self.line is None:
            return self.reason
        return f"line {self.line}: {self.reason}"


class NotationError(RulesError):
    """The text is not a well-formed record, tile code or attribute."""


class IllegalPlacementError(RulesError):
    """A placement breaks a placement rule (rules.md section 2)."""


class CampaignError(RulesError):
    """A campaign record or a spending breaks the campaign rules (rules.md section 6)."""
