"""Disputes at the table ("may this tile go here?") and the searchable rules page.

Modules: ``routes`` (the ``disputes`` blueprint: ``/games/<id>/dispute``, ``/rules``),
``views`` (the engine's ruling on one proposed placement, as data). The ruling texts are
``companion.rules.rulebook`` (``search_rules``). Templates: ``templates/disputes/``.
"""
