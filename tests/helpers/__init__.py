"""Helpers shared by the tests: ``webtools`` (the real browser and test-client helpers),
``scanner_synth`` (synthetic table photos with known answers), ``fuzz_strategies``
(hypothesis strategies built from the notation's pieces)."""
