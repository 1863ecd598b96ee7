"""Games: the home list, the score page, new game, import, the game page with its score
sheet, download, share links, record edits.

Modules: ``routes`` (the ``games`` blueprint: ``/``, ``/score``, ``/api/score``,
``/games/...``, ``/s/<token>``), ``views`` (the game page's view model: ``score_view``,
``game_context``), ``sheet`` (the score sheet laid out like the paper pads). Templates:
``templates/games/``.
"""
