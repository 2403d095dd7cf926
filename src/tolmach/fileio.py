"""Files at the edges: safe reading of sources, atomic writing, one process per project.

Every file tolmach writes appears whole or not at all (a temporary file in the same
folder, flushed to disk, then renamed over the target), and a file whose bytes would
not change is not touched at all, so timestamps and diffs stay quiet.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "MAX_SOURCE_BYTES",
    "ProjectLocked",
    "SourceError",
    "ensure_inside",
    "project_lock",
    "read_source",
    "write_atomic",
]

#: Sources above this size are refused: a Markdown article is never this large, and
#: the whole file is parsed in memory (about 30 times its size at peak).
MAX_SOURCE_BYTES = 16 * 1024 * 1024
_BINARY = "binary file (NUL bytes), not Markdown text"


class SourceError(Exception):
    """A source file that cannot be read as Markdown; says which file and line."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class ProjectLocked(Exception):
    """Another tolmach process holds the project lock."""


def read_source(path: Path) -> str:
    """The text of a Markdown source: UTF-8 (BOM allowed), not binary, not huge."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as handle:  # never more than the limit, even if it grew
            data = handle.read(MAX_SOURCE_BYTES + 1) if size <= MAX_SOURCE_BYTES else b""
    except FileNotFoundError:
        raise SourceError(path, None, "no such file") from None
    except OSError as exc:
        raise SourceError(path, None, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_SOURCE_BYTES or len(data) > MAX_SOURCE_BYTES:
        size = max(size, len(data))
        raise SourceError(
            path,
            None,
            f"file is {size / 2**20:.1f} MiB; the limit is {MAX_SOURCE_BYTES // 2**20} MiB",
        )
    nul = data.find(b"\0", 0, 8192)
    if nul >= 0 and data.count(b"\0") > 8:
        raise SourceError(path, data.count(b"\n", 0, nul) + 1, _BINARY)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if nul >= 0:  # NUL and invalid UTF-8: a binary file, however few NULs it has
            raise SourceError(path, data.count(b"\n", 0, nul) + 1, _BINARY) from None
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(path, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from None


def write_atomic(path: Path, text: str | bytes) -> bool:
    """Write ``text`` (UTF-8, or bytes as they are) to ``path`` atomically; return False
    if it was already so.

    A replaced file keeps its permissions; a new one gets 0644.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        if path.read_bytes() == data:
            return False
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return True


def ensure_inside(base: Path, target: Path, what: str) -> Path:
    """Refuse a path that would land outside ``base`` (``../``, absolute, symlink tricks)."""
    resolved_base = base.resolve()
    resolved = target.resolve()
    if resolved != resolved_base and resolved_base not in resolved.parents:
        raise ValueError(f"{what} {str(target)!r} would be written outside {base.name}/")
    return target


@contextlib.contextmanager
def project_lock(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on the project while catalogs and outputs are written."""
    lock_dir = root / ".tolmach-cache"
    lock_dir.mkdir(exist_ok=True)
    with open(lock_dir / "lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise ProjectLocked(
                f"another tolmach process ({holder}) is working on this project; "
                "wait for it to finish and run the command again"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        yield
