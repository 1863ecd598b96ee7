"""Translation catalogues: every message translated in pt_BR, es and de with the same
placeholders, and the .mo files (re)built from the .po when missing (fresh clone)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from companion.web.i18n import LANGUAGES, TRANSLATIONS, ensure_compiled

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
LOCALES = [code for code in LANGUAGES if code != "en"]


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_complete_with_same_placeholders(locale: str) -> None:
    po = TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    ids = [m for m in catalog if m.id]
    assert len(ids) > 100
    for m in ids:
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        targets = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(targets), f"{locale}: untranslated {m.id!r}"
        wanted = set(PLACEHOLDER.findall(sources[-1]))
        for t in targets:
            assert set(PLACEHOLDER.findall(t)) == wanted, f"{locale}: {m.id!r}"


def test_mo_built_from_po_when_missing(tmp_path: Path) -> None:
    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, copy)
    for mo in copy.glob("*/LC_MESSAGES/*.mo"):
        mo.unlink()
    built = ensure_compiled(copy)
    assert {p.parts[-3] for p in built} == set(LOCALES)
    with (copy / "de" / "LC_MESSAGES" / "messages.mo").open("rb") as fh:
        catalog = read_mo(fh)
    assert catalog.get("Rules").string == "Regeln"
    assert ensure_compiled(copy) == []  # up to date: nothing rebuilt
