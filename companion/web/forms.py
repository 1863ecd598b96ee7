"""Reading a record from a form: the pasted text or an uploaded file.

Representation: ``record_from_form()`` returns ``(text, error)``; ``error`` is one
translated sentence or None. An uploaded file wins over the text area when both
are given; it must be UTF-8 text. The size limit is enforced before (security).
"""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _

from companion.rules import whole_number


def record_from_form(field: str = "record", file_field: str = "file") -> tuple[str, str | None]:
    text = request.form.get(field, "")
    upload = request.files.get(file_field)
    if upload is not None and upload.filename:
        data = upload.read()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return text, _("The file is not a text record (UTF-8 expected).")
    text = text.replace("\r\n", "\n")
    if not text.strip():
        return text, _("Paste a record or choose a file.")
    return text, None


FIELD_LIMIT = 10**9 - 1
"""Largest whole number a form or query field carries (versions, scores, turns, indices)."""


def whole(text: str | None, default: int | None = None) -> int | None:
    """A form or query value as a whole number within +-``FIELD_LIMIT``, else ``default``
    (so 5000 digits or 2**64 are "not a number", never a crash further down)."""
    value = whole_number(str(text or "").strip(), -FIELD_LIMIT, FIELD_LIMIT)
    return default if value is None else value


def int_field(name: str, default: int | None = None) -> int | None:
    return whole(request.form.get(name), default)
