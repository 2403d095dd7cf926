"""Translation memory: every translation the project has made, ready to be reused.

:mod:`~tolmach.memory.store` keeps translated segments of all catalogs (and imported
compendia) in an SQLite file under ``.tolmach-cache/`` and answers fuzzy look-ups;
``tolmach update`` fills new entries from it as fuzzy proposals. :mod:`~tolmach.memory.tmx`
reads and writes TMX 1.4b, the exchange format of CAT tools.
"""
