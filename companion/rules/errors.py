"""Errors of the rules engine: a small hierarchy under ``ValueError``.

Every error carries its ``Reason`` (``why``: a code with parameters, see ``reasons``),
the English sentence rendered from it (``reason``) and can carry the record line it
refers to; ``str(error)`` is then ``"line N: reason"``, the exact form the command line
prints (notation.md section 5). An error raised with words only carries the code
``message``.

>>> from companion.rules.reasons import Reason
>>> err = IllegalPlacementError(Reason.of("touches-nothing", at=(5, 5)), 7)
>>> str(err), err.why.code
('line 7: (5, 5) touches no placed tile', 'touches-nothing')
"""

from __future__ import annotations

from companion.rules.reasons import Reason, message, render


class RulesError(ValueError):
    """Base class of every refusal by the rules engine."""

    def __init__(self, reason: str | Reason, line: int | None = None) -> None:
        why = reason if isinstance(reason, Reason) else message(reason)
        text = render(why)
        super().__init__(text)
        self.why = why
        self.reason = text
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
