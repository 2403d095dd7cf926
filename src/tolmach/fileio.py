"""Files at the edges: safe reading of sources, atomic writing, one process per project.

Every file tolmach writes appears whole or not at all (a temporary file in the same
folder, flushed to disk, then renamed over the target), and a file whose bytes would
not change is not touched at all, so timestamps and diffs stay quiet. A command that
writes thousands of pages it can make again flushes them to disk together when it ends
(:func:`flushed_at_end`), instead of waiting for the disk after each one. What a process
parsed and wrote is counted in :data:`WORK`, so that a test can tell that a run with
nothing to do did nothing.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import fnmatch
import functools
import gc
import os
import re
import stat
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePath, PurePosixPath

__all__ = [
    "MAX_SOURCE_BYTES",
    "WORK",
    "LinkGuard",
    "OutsideError",
    "ProjectLocked",
    "SourceError",
    "WriteError",
    "count_work",
    "ensure_inside",
    "error_message",
    "flush_to_disk",
    "flushed_at_end",
    "glob_pruned",
    "move_into_place",
    "place_if_absent",
    "project_lock",
    "read_source",
    "relative_to_root",
    "staged_writes",
    "write_atomic",
    "write_cache_file",
    "write_error",
]

#: Sources above this size are refused: a Markdown article is never this large, and
#: the whole file is parsed in memory (about 30 times its size at peak).
MAX_SOURCE_BYTES = 16 * 1024 * 1024
_BINARY = "binary file (NUL bytes), not Markdown text"

#: What this process did, by kind: ``parse`` (a Markdown source or built text through
#: markdown-it, a catalog through the PO reader), ``render`` (Markdown to HTML), ``write``
#: (a call of :func:`write_atomic`, whether or not the bytes changed), ``cache write`` and
#: ``check`` (a catalog through the checks).
WORK: Counter[str] = Counter()


def count_work(kind: str, amount: int = 1) -> None:
    """Count one piece of work of ``kind`` (see :data:`WORK`)."""
    WORK[kind] += amount


@contextlib.contextmanager
def no_garbage_collection() -> Iterator[None]:
    """Reading (and merging, writing) makes tens of thousands of objects and no reference
    cycle: the cycle collector, run again and again as they are made, would only cost
    time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class SourceError(Exception):
    """A source file that cannot be read as Markdown; says which file and line."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path, self.line, self.message = str(path), line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


class ProjectLocked(Exception):
    """Another tolmach process holds the project lock."""


class OutsideError(Exception):
    """A path of the project that a symbolic link leads outside it: refused, never followed."""

    def __init__(self, path: Path | str, message: str):
        self.path, self.line, self.message = str(path), None, message
        super().__init__(f"{path}: {message}")


class WriteError(Exception):
    """A file the system would not let tolmach write: which one, why, and what to do."""

    def __init__(self, path: Path | str, message: str):
        self.path, self.line, self.message = str(path), None, message
        super().__init__(f"{path}: {message}")


_TEMP_NAME_ROOM = 200
_FREE_SPACE = "free some space and run the command again"
_MAKE_WRITABLE = "make it writable and run the command again"
_WRITE_PROBLEMS = {
    errno.ENOSPC: ("no space left on the device", _FREE_SPACE),
    errno.EDQUOT: ("the disk quota is used up", _FREE_SPACE),
    errno.EROFS: ("the file system is read-only", _MAKE_WRITABLE),
    errno.EACCES: ("permission denied", "make the file and its folder writable for you"),
    errno.EPERM: ("operation not permitted", "make the file and its folder writable for you"),
    errno.EISDIR: ("a folder stands where the file should be", "move the folder away"),
    errno.EEXIST: ("a file stands where a folder should be", "move the file away"),
    errno.ENOTDIR: ("a file stands where a folder should be", "move the file away"),
    errno.ENOENT: ("its folder does not exist", "check the path"),
    errno.ENAMETOOLONG: ("the file name is too long for the file system",
                         "give the document a shorter name"),
}


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


def write_atomic(
    path: Path, content: str | bytes, *, regenerable: bool = False, staged: bool = False
) -> bool:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` atomically; return False if
    the file already held exactly that.

    A file is flushed to disk before it is renamed over the old one, so a disk that
    fails keeps the old file. A ``regenerable`` file — one the project can make again
    (a template, a built page, the site) — is flushed with the others at the end of the
    command when one runs (:func:`flushed_at_end`): waiting for the disk per file was
    most of the time of a command writing thousands of them. A ``staged`` file, inside
    :func:`staged_writes`, takes its place when the scope ends, flushed together with
    the others first; nothing may read it before.

    A replaced file keeps its permissions; a new one gets 0644. When the system refuses
    (full disk, read-only, no permission...), :class:`WriteError` says what to do, and the
    old file is as it was: no temporary file is left behind.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    WORK["write"] += 1
    try:
        if staged and _STAGED is not None and _STAGED[0] == os.getpid():
            return _stage(path, data, _STAGED[1])
        return _replace_with(path, data, deferred=regenerable and _flush_scope_open())
    except OSError as exc:
        raise write_error(path, exc, "the file is as it was") from None


def _flush_scope_open() -> bool:
    return _FLUSH_SCOPE is not None and _FLUSH_SCOPE[0] == os.getpid()


def move_into_place(staged: Path, target: Path) -> None:
    """Put a file written aside (by :func:`write_atomic`) in place of ``target``: one
    rename, so ``target`` is whole or as it was."""
    WORK["write"] += 1
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, target)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise write_error(target, exc, "the file is as it was") from None
        write_atomic(target, staged.read_bytes())  # another file system: copy it over


def place_if_absent(staged: Path, target: Path) -> bool:
    """Put a file made aside at ``target`` unless another process put one there first
    (one hard link: it exists whole or not at all); whether this one was placed. The
    file made aside is removed either way. Where the file system has no hard links, it
    is renamed in instead, replacing what may be there."""
    WORK["write"] += 1
    try:
        os.link(staged, target)
    except FileExistsError:
        placed = False
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV):
            raise write_error(target, exc, "nothing was changed") from None
        move_into_place(staged, target)
        return True
    else:
        placed = True
    staged.unlink(missing_ok=True)
    return placed


#: The open :func:`flushed_at_end` scope of this process: (its process id, the files
#: written in it and not yet flushed); None outside one.
_FLUSH_SCOPE: tuple[int, list[Path]] | None = None
_FLUSH_THREADS = 16


@contextlib.contextmanager
def flushed_at_end() -> Iterator[None]:
    """Within: regenerable files (see :func:`write_atomic`) are still replaced
    atomically, but flushed to disk together on leaving instead of one by one.

    Waiting for the disk after each file costs a few milliseconds (a journal commit
    each), which for a command that writes 3,000 pages was most of its time; flushed
    together from a few threads, the file system commits them in a handful of journal
    transactions. A flush error still names its file. A scope opened inside another in
    the same process adds to it; a worker process opens its own around each batch.
    """
    global _FLUSH_SCOPE
    if _FLUSH_SCOPE is not None and _FLUSH_SCOPE[0] == os.getpid():
        yield
        return
    outer, written = _FLUSH_SCOPE, []
    _FLUSH_SCOPE = (os.getpid(), written)
    try:
        yield
    except BaseException:
        with contextlib.suppress(WriteError):  # the error in flight says more
            _flush(written)
        raise
    else:
        _flush(written)
    finally:
        _FLUSH_SCOPE = outer


def _flush(paths: list[Path]) -> None:
    """Flush ``paths`` to disk; the first failure as a WriteError."""
    failure = _flush_all(paths)
    if failure is not None:
        path, exc = failure
        raise write_error(path, exc, "it was written, but may not be whole on disk")


def _flush_all(paths: list[Path]) -> tuple[Path, OSError] | None:
    """Flush ``paths`` to disk from a few threads at once (the file system commits them
    together); the first failure, if any."""
    unique = list(dict.fromkeys(paths))
    if not unique:
        return None
    with ThreadPoolExecutor(min(_FLUSH_THREADS, len(unique))) as pool:
        return next((f for f in pool.map(_flush_one, unique) if f is not None), None)


def flush_to_disk(path: Path) -> None:
    """Wait until a file's bytes are on disk: before it is renamed into place, so that the
    name never stands for a file the disk does not hold yet."""
    failed = _flush_one(path)
    if failed is not None:
        raise failed[1]


def _flush_one(path: Path) -> tuple[Path, OSError] | None:
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except FileNotFoundError:  # replaced or removed again since: nothing to flush
        return None
    except OSError as exc:
        return path, exc
    return None


#: The open :func:`staged_writes` scope of this process: (its process id, the
#: temporary files written and the targets they replace, in order); None outside one.
_STAGED: tuple[int, list[tuple[Path, Path]]] | None = None


@contextlib.contextmanager
def staged_writes() -> Iterator[None]:
    """Within: ``staged`` files (see :func:`write_atomic`) are written aside; on leaving,
    all are flushed to disk together and only then renamed into place, each whole.

    This keeps the promise of flushing before the rename — a failing disk keeps every
    old file — at the cost of one journal commit for many files instead of one each. An
    error inside, or a flush that fails, removes the files written aside: the targets
    are as they were. Scopes in one process do not nest (the inner one adds to the
    outer).
    """
    global _STAGED
    if _STAGED is not None and _STAGED[0] == os.getpid():
        yield
        return
    outer, staged = _STAGED, []
    _STAGED = (os.getpid(), staged)
    try:
        yield
        _STAGED = outer
        _commit(staged)
    except BaseException:
        for temporary, _ in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        raise
    finally:
        _STAGED = outer


def _stage(path: Path, data: bytes, staged: list[tuple[Path, Path]]) -> bool:
    """Write ``data`` aside for ``path`` unless ``path`` holds it already."""
    temporary = _write_aside(path, data, flush=False)
    if temporary is None:
        return False
    staged.append((temporary, path))
    return True


def _commit(staged: list[tuple[Path, Path]]) -> None:
    """Flush the files written aside, then rename each over its target; a failure
    before the renames leaves every target as it was."""
    failure = _flush_all([temporary for temporary, _ in staged])
    if failure is not None:
        temporary, exc = failure
        raise write_error(dict(staged)[temporary], exc, "the file is as it was")
    for position, (temporary, target) in enumerate(staged):
        try:
            os.replace(temporary, target)
        except OSError as exc:
            del staged[:position]  # those are in place; the rest are removed
            raise write_error(target, exc, "the file is as it was") from None


def write_cache_file(path: Path, data: bytes) -> bool:
    """Replace a cache file atomically, without waiting for the disk: a cache file lost
    in a crash is read as missing and made again. False when the system refused (a
    read-only project, a full disk): a cache is never worth failing a command for."""
    WORK["cache write"] += 1
    try:
        _replace_with(path, data, durable=False)
    except OSError:
        return False
    return True


def _replace_with(path: Path, data: bytes, durable: bool = True, deferred: bool = False) -> bool:
    """``deferred``: flushed at the end of the open :func:`flushed_at_end` scope instead
    of before the rename."""
    temporary = _write_aside(path, data, flush=durable and not deferred)
    if temporary is None:
        return False
    try:
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    if durable and deferred:
        _FLUSH_SCOPE[1].append(path)
    return True


def _write_aside(path: Path, data: bytes, *, flush: bool) -> Path | None:
    """A temporary file beside ``path`` holding ``data`` with ``path``'s permissions
    (``flush``: on disk before this returns); None when ``path`` holds ``data`` already.
    Nothing is left behind when writing it fails."""
    try:
        if path.read_bytes() == data:
            return None
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
        path.parent.mkdir(parents=True, exist_ok=True)  # a file that is there has its folder
    # a long name keeps room for the random part: the temporary name must fit too
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:_TEMP_NAME_ROOM]}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if flush:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def write_error(path: Path | str, exc: OSError, outcome: str) -> WriteError:
    """What the system said, in words that tell what to do; ``outcome``: what became of
    the file (e.g. "the file is as it was")."""
    problem, todo = _WRITE_PROBLEMS.get(
        exc.errno or 0, (exc.strerror or str(exc), "fix the cause and run the command again")
    )
    return WriteError(path, f"cannot write: {problem} ({outcome}); {todo}")


def ensure_inside(base: Path, target: Path, *, where: str, refused: str) -> Path:
    """``target``, if it stays inside ``base`` once symbolic links are followed.

    Otherwise :class:`OutsideError` names the link that leads out (a link to a file, or
    a linked folder on the way), says it leads outside ``where`` and what was ``refused``;
    nothing is read through it, so no message can show what lies outside.
    """
    real_base = os.path.realpath(base)
    if _within(os.path.realpath(target), real_base):
        return target
    link = _link_leading_out(base, target, real_base) or target
    raise OutsideError(link, f"a symbolic link to a place outside {where}; {refused}")


_DOTS = frozenset((".", ".."))


class LinkGuard:
    """:func:`ensure_inside` for the many files of a few folders, as one command asks it.

    Following a path's links costs a system call per folder on the way; here each
    folder's real path is found once, from its parent's, and a file costs one call (is
    it a link itself?).
    Meant for the life of one command: a folder made a link meanwhile goes unseen.
    """

    def __init__(self) -> None:
        self._real: dict[str, str] = {}

    def inside(self, base: Path, target: Path, *, where: str, refused: str) -> Path:
        """``target`` as :func:`ensure_inside` returns it, or its error."""
        real = self.real_path(target)
        if real is not None and _within(real, self._real_path(base)):
            return target
        return ensure_inside(base, target, where=where, refused=refused)

    def real_path(self, path: Path | str) -> str | None:
        """``os.path.realpath(path)`` for a path of plain names (no ``.`` or ``..``: after a
        missing folder the system cannot tell whether ``x/missing/../link`` is a link) whose
        last part is not a link itself; None for any other (ask ``os.path.realpath``)."""
        text = os.fspath(path)
        folder, name = os.path.split(text)
        if name in ("", ".", "..") or _DOTS.intersection(text.split(os.sep)) or os.path.islink(text):
            return None
        return os.path.join(self._real_path(folder), name)

    def _real_path(self, folder: str | Path) -> str:
        """The folder's real path, from its parent's (each folder of a tree found once)."""
        key = os.fspath(folder)
        real = self._real.get(key)
        if real is None:
            parent, name = os.path.split(key)
            if parent == key or name in ("", ".", "..") or os.path.islink(key):
                real = os.path.realpath(key)
            else:
                real = os.path.join(self._real_path(parent), name)
            self._real[key] = real
        return real


def _within(real: str, real_base: str) -> bool:
    return real == real_base or real.startswith(real_base.rstrip(os.sep) + os.sep)


def _link_leading_out(base: Path, target: Path, real_base: str) -> Path | None:
    """The first path from ``base`` down to ``target`` that is a link leading out of it."""
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        return None
    current = base
    for part in parts:
        current = current / part
        if current.is_symlink() and not _within(os.path.realpath(current), real_base):
            return current
    return None


def relative_to_root(path: Path, root: Path) -> str:
    """``path`` as messages show it: its POSIX path from ``root`` when inside it, else as
    given. A ``Path``'s text is normalized, so a prefix of text answers what
    ``relative_to`` would (asked for every file of a run)."""
    root_text = str(root)
    if isinstance(path, PurePath) and root_text not in ("", ".", os.sep):
        text = str(path)
        if text.startswith(root_text) and text[len(root_text):len(root_text) + 1] == os.sep:
            return text[len(root_text) + 1:]
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def error_message(exc: Exception, root: Path) -> str:
    """An error as one line, its file named relative to the project ``root``.

    tolmach's errors carry ``path``, ``line`` and ``message``; the library works with
    absolute paths, the user reads the ones the README shows (``locales/de/…/a.po:6``).
    """
    path, message = getattr(exc, "path", None), getattr(exc, "message", None)
    if path is None or message is None:
        return str(exc)
    try:
        shown = Path(path).relative_to(root).as_posix()
    except ValueError:
        shown = str(path)
    line = getattr(exc, "line", None)
    return f"{shown}:{line}: {message}" if line else f"{shown}: {message}"


LOCK_FILE = Path(".tolmach-cache") / "lock"


@contextlib.contextmanager
def project_lock(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on the project while catalogs and outputs are written.

    The lock is ``flock`` on ``.tolmach-cache/lock``, which the kernel releases however
    the process ends. On release the file is removed while still locked, and the cache
    folder too when nothing else is in it, so a run leaves nothing behind. A process that
    opened the file just before it was removed notices, once it holds the lock, that the
    path no longer names its file, and starts again: two processes never both hold it.
    """
    path = root / LOCK_FILE
    fd = _acquire_lock(path)
    try:
        with contextlib.suppress(OSError):  # the pid only informs: a full disk must not
            os.ftruncate(fd, 0)             # stop a command before it says what it cannot do
            os.write(fd, f"pid {os.getpid()}".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        with contextlib.suppress(OSError):  # not empty: the translation memory lives there
            path.parent.rmdir()
        os.close(fd)


def _acquire_lock(path: Path) -> int:
    """Lock ``path``, made if need be (with its folder); the open file."""
    while True:
        try:
            with contextlib.suppress(FileExistsError):
                path.parent.mkdir()
            try:
                fd = _open_lock_file(path)
            except FileNotFoundError:
                continue  # a releasing process removed the folder in between: make it again
        except OSError as exc:
            raise write_error(path, exc, "cannot lock the project, nothing was changed") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = os.pread(fd, 100, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            raise ProjectLocked(
                f"another tolmach process ({holder}) is working on this project; "
                "wait for it to finish and run the command again"
            ) from None
        if _names_open_file(path, fd):
            return fd
        os.close(fd)  # locked a file its holder had just removed: take the current one


def _open_lock_file(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)


def _names_open_file(path: Path, fd: int) -> bool:
    try:
        named = path.stat()
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


# --- globbing without walking where no source can be ------------------------------
#
# ``Path.glob("**/*.md")`` walks every folder below the project, ``.venv``, ``.git`` and
# ``node_modules`` included, only for the project to drop what it found there: at the
# root of a real project that is thousands of folders, seconds of every command.
# :func:`glob_pruned` gives the same paths as ``Path.glob`` (Python 3.11's rules: ``**``
# is a whole part and does not enter linked folders, ``*``, ``?`` and ``[…]`` match
# within one part, dot files included, case counts), except that it does not go into a
# folder ``prune`` refuses. A pattern it does not take as ``Path.glob`` does (``**``
# inside a part, an absolute path, a trailing ``/``, on Windows) goes to ``Path.glob``.

#: ``prune(parts)``: whether nothing under the folder of these parts (relative to the
#: globbing root) can be wanted, so that it is not walked.
Prune = Callable[[tuple[str, ...]], bool]


def glob_pruned(root: Path, pattern: str, prune: Prune) -> list[Path]:
    """The paths ``root.glob(pattern)`` yields, but for those under folders ``prune``
    refuses, in no particular order (see the comment above)."""
    parts = PurePosixPath(pattern).parts
    if not parts or os.name == "nt" or PurePosixPath(pattern).is_absolute() \
            or pattern.endswith("/") or any("**" in part and part != "**" for part in parts):
        return list(root.glob(pattern))
    if not os.path.isdir(root):
        return []
    found = set(_glob_select(os.fspath(root), (), parts, prune))  # ``**/**`` finds some twice
    return [root.joinpath(*relative) for relative in found]


def _glob_select(folder: str, relative: tuple[str, ...], parts: tuple[str, ...],
            prune: Prune) -> Iterator[tuple[str, ...]]:
    """What the pattern ``parts`` finds in ``folder`` (at ``relative`` from the root)."""
    if not parts:
        yield relative
        return
    head, rest = parts[0], parts[1:]
    if head == "**":
        for below, at in _glob_folders(folder, relative, prune):
            yield from _glob_select(below, at, rest, prune)
    elif any(mark in head for mark in "*?["):
        matches = _glob_matcher(head)
        for entry in _glob_entries(folder):
            if rest and not (_glob_is_dir(entry) and not prune((*relative, entry.name))):
                continue
            if matches(entry.name):
                yield from _glob_select(entry.path, (*relative, entry.name), rest, prune)
    else:
        path = os.path.join(folder, head)
        if rest and os.path.isdir(path) and not prune((*relative, head)):
            yield from _glob_select(path, (*relative, head), rest, prune)
        elif not rest and os.path.exists(path):
            yield (*relative, head)


def _glob_folders(folder: str, relative: tuple[str, ...],
                    prune: Prune) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``folder`` and every folder below it, not through links (as ``**`` goes)."""
    yield folder, relative
    for entry in _glob_entries(folder):
        if _glob_is_dir(entry, follow_symlinks=False):
            below = (*relative, entry.name)
            if not prune(below):
                yield from _glob_folders(entry.path, below, prune)


def _glob_entries(folder: str) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except (PermissionError, FileNotFoundError, NotADirectoryError):
        return []


def _glob_is_dir(entry: os.DirEntry, follow_symlinks: bool = True) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow_symlinks)
    except OSError:
        return False


@functools.lru_cache(maxsize=64)
def _glob_matcher(part: str) -> Callable[[str], re.Match | None]:
    """One part's wildcard test, case counting (``Path.glob`` on POSIX)."""
    return re.compile(fnmatch.translate(part)).fullmatch
