"""Local files a document points to (images, downloads) and their localized variants.

Shared by the markup check, which lets a translation point to an existing variant of
an image, and by publishing, which copies the files and picks each locale's variant.
A variant sits beside the original and is named by a pattern: by default
``{stem}.{locale}{suffix}``, so ``images/hip-flow.png`` becomes ``images/hip-flow.uk.png``
for ``uk``. The locale may be spelled as its code (``zh_CN``) or its tag (``zh-CN``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

__all__ = [
    "DEFAULT_VARIANT_PATTERN",
    "is_local_reference",
    "is_variant_of",
    "local_path",
    "variant_candidates",
    "variant_checker",
]

DEFAULT_VARIANT_PATTERN = "{stem}.{locale}{suffix}"
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def is_local_reference(url: str) -> bool:
    """A destination naming a file of the project: no scheme, no host, not a fragment.

    >>> [is_local_reference(u) for u in ("img/a.png", "https://x.org/a.png", "#top", "/a")]
    [True, False, False, False]
    """
    if not url or url.startswith(("#", "/", "?")) or _SCHEME_RE.match(url):
        return False
    return bool(urlsplit(url).path)


def local_path(url: str) -> str:
    """The file part of a local destination, decoded: ``a%20b.png#x`` → ``a b.png``."""
    return unquote(urlsplit(url).path)


def variant_candidates(path: str, locale: str, pattern: str = DEFAULT_VARIANT_PATTERN) -> list[str]:
    """Names a localized variant of ``path`` may have, in order of preference.

    >>> variant_candidates("images/hip-flow.png", "zh_CN")
    ['images/hip-flow.zh_CN.png', 'images/hip-flow.zh-CN.png']
    """
    pure = PurePosixPath(path)
    spellings = list(dict.fromkeys((locale, locale.replace("_", "-"))))
    names = []
    for spelling in spellings:
        name = pattern.format(stem=pure.stem, suffix=pure.suffix, name=pure.name, locale=spelling)
        names.append(posixpath.normpath(posixpath.join(str(pure.parent), name)))
    return list(dict.fromkeys(names))


def is_variant_of(new: str, old: str, locale: str, pattern: str = DEFAULT_VARIANT_PATTERN) -> bool:
    """Whether destination ``new`` names a localized variant of ``old`` for ``locale``.

    >>> is_variant_of("images/a.uk.png", "images/a.png", "uk")
    True
    >>> is_variant_of("images/other.png", "images/a.png", "uk")
    False
    """
    if not (is_local_reference(new) and is_local_reference(old)):
        return False
    return posixpath.normpath(local_path(new)) in variant_candidates(local_path(old), locale, pattern)


def variant_checker(root: Path, locale: str, pattern: str = DEFAULT_VARIANT_PATTERN):
    """``(source file, old, new) -> bool``: is ``new`` an existing variant of ``old``?

    ``source file`` is the document's path relative to ``root``, as a catalog's ``#:``
    reference gives it; destinations are relative to the document's folder.
    """

    def accepts(source: str, old: str, new: str) -> bool:
        if not is_variant_of(new, old, locale, pattern):
            return False
        folder = (root / source).parent
        target = (folder / local_path(new)).resolve()
        return target.is_file() and _inside(target, root.resolve())

    return accepts


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def first_existing(folder: Path, names: Iterable[str]) -> str | None:
    """The first of ``names`` (relative to ``folder``) that is a file, or None."""
    return next((name for name in names if (folder / name).is_file()), None)
