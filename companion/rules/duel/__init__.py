"""The Duel's own rules (rules.md sections 4 and 7), used by ``scoring.duel_sheet``.

Modules: ``turns`` (whose turn, the reveal order and its warnings), ``module1`` (the
task cards), ``places`` (places 8/4/2/0 and shared places), ``module2`` (points of
interest), ``warnings`` (the same tile in every landscape, marker pools per player).
This package imports only the top-level rules modules, never ``scoring``.
"""
