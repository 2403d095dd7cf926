"""tolmach: a localization pipeline for Markdown articles."""
