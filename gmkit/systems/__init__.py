"""The rules of each game (pure: no widgets, no files but the data tables, no clock).

Tables and catalogs are data files under ``systems/data/<game>/`` that a GM can extend or
override (:mod:`gmkit.systems.catalogs`).
"""
