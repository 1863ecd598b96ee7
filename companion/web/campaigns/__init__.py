"""The campaign on the phone: the sheet with the advancement track, unlock moments, next-game
set-up, history, share links, export/import.

Modules: ``routes`` (the ``campaigns`` blueprint: ``/campaigns``, ``/c/<token>``,
``POST /api/campaign``), ``views`` (what the pages show, translated: moments, reminders,
offers, the Great Mill proposal), ``track`` (the advancement track as SVG data),
``chart`` (the score chart of the history). The rows are ``companion.storage.campaigns``,
replayed by the rules engine on every read. Templates: ``templates/campaigns/``.
"""
