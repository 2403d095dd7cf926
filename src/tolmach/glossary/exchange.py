"""Termbase exchange: every format the termbase is written to and read from.

- :mod:`~tolmach.glossary.tbx`: TBX-Basic for terminology tools (all locales);
- :mod:`~tolmach.glossary.tables`: multilingual CSV (all locales), bilingual CSV pairs
  and OmegaT's tab-separated glossary (one locale a file);
- :mod:`~tolmach.glossary.tomlfile`: our own ``glossary.toml``, edited in place.

Every reader makes term tables and hands them to
:func:`~tolmach.glossary.termbase.build_termbase`, so an imported file obeys the rules
of the TOML file, and every writer starts from
:func:`~tolmach.glossary.termbase.term_table`, so each carries every field: a termbase
exported and imported again is equal to itself, in every format.

The ``[ignore]`` phrases are project settings, not terminology: no exchange format
carries them, and ``glossary import`` keeps those of the current file.
"""

from __future__ import annotations

from tolmach.glossary.tables import (
    merge_locale,
    read_csv,
    read_omegat,
    read_pairs,
    write_csv,
    write_omegat,
    write_pairs,
)
from tolmach.glossary.tbx import read_tbx, write_tbx
from tolmach.glossary.tomlfile import dump_termbase_toml, update_termbase_toml

__all__ = [
    "MULTILINGUAL_FORMATS",
    "PAIR_FORMATS",
    "dump_termbase_toml",
    "merge_locale",
    "read_csv",
    "read_omegat",
    "read_pairs",
    "read_tbx",
    "update_termbase_toml",
    "write_csv",
    "write_omegat",
    "write_pairs",
    "write_tbx",
]

MULTILINGUAL_FORMATS = ("tbx", "csv")  # one file holds every locale
PAIR_FORMATS = ("csv-pairs", "omegat")  # one file per target locale
