"""Scoring from a photo of the table: upload, scan, review and fix, confirm.

Modules: ``routes`` (the ``photos`` blueprint under ``/games/<id>/photos``, and
``POST /api/scan``), ``views`` (what the review page shows: overlays, the engine's map,
the tile editor), ``review`` (the review draft: tiles read from the photos, fixes,
verdict, the final record), ``overlay`` (the lattice and readings drawn over a photo),
``image`` (a cleaned upload: EXIF-oriented, downscaled, re-encoded). The photos and the
draft are stored by ``companion.storage.photos``. Templates: ``templates/photos/``.
"""
