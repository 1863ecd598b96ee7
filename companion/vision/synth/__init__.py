"""Scanner tooling, never imported by ``scan``: the photo-like renderer (``render``,
``render_art``, ``render_scene``, ``render_records``), composites of real tile crops
(``composite``) and the evaluation script (``evaluate``)."""
