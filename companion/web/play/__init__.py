"""Recording a game on the phone: the map, placements, undo/redo, end-of-game entry.

Modules: ``routes`` (the ``play`` blueprint under ``/play/<game id>``), ``views`` (what
the recorder page shows, from the game and the page's query), ``tiles`` (choosing a tile:
the catalogue filtered by a typed pattern, painted codes), ``explain`` (one score-sheet
number's tiles, highlighted on the map), ``state`` (the game's record, version and redo
stack). Templates: ``templates/play/``.
"""
