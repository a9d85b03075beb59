"""Every JSONL and CSV file a user gives, read a line at a time within a byte limit (a hostile or
broken file is refused holding one limited line in memory, by a DataError naming its line), under
one rule: a key or a column given twice is refused, as reading it would drop one of its values."""

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from liveqa_inspect.errors import DataError, shown


def normalise(text: str | None) -> str:
    """Collapse the XML's indentation and line breaks so references compare and display cleanly."""
    return " ".join((text or "").split())


def read_lines(
    path: Path, max_bytes: int | None = None, content: bytes | None = None
) -> Iterator[tuple[int, str]]:
    """Each line, numbered, of a UTF-8 file or its `content` already read and verified; a byte
    order mark at the start is dropped, as editors on Windows write one."""
    limit = -1 if max_bytes is None else max_bytes + 2
    with io.BytesIO(content) if content is not None else path.open("rb") as f:
        for number, raw in enumerate(iter(lambda: f.readline(limit), b""), start=1):
            body = raw.rstrip(b"\r\n")
            if max_bytes is not None and len(body) > max_bytes:
                raise DataError(
                    f"{path} line {number} is longer than {max_bytes} bytes, the limit for this "
                    "file; it was not read further."
                )
            try:
                text = body.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise DataError(
                    f"{path} line {number}: not UTF-8 text ({error}); save the file as UTF-8."
                ) from error
            yield number, text


@dataclass(frozen=True)
class OverlongInteger:
    """A JSON integer longer than int() reads (4300 digits), kept for a field check to name."""

    digits: int

    def __repr__(self) -> str:
        return f"an integer of {self.digits} digits"


def _json_int(digits: str) -> int | OverlongInteger:
    try:
        return int(digits)
    except ValueError:
        return OverlongInteger(len(digits.lstrip("-")))


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """json keeps the last of a repeated key: a second `grade` would silently replace the first."""
    keys = [key for key, _ in pairs]
    if len(set(keys)) < len(keys):
        raise KeyError(next(key for i, key in enumerate(keys) if key in keys[:i]))
    return dict(pairs)


def read_jsonl(
    path: Path, max_line_bytes: int | None = None, content: bytes | None = None
) -> Iterator[tuple[int, object]]:
    for number, line in read_lines(path, max_line_bytes, content):
        if not line.strip():
            continue
        try:
            value = json.loads(line, parse_int=_json_int, object_pairs_hook=_unique_keys)
        except KeyError as error:
            raise DataError(
                f"{path} line {number}: the key {shown(error.args[0])} appears twice in one "
                "object; JSON keeps only one of them, so the line is refused. Keep one."
            ) from error
        except RecursionError as error:
            raise DataError(f"{path} line {number}: not valid JSON (nested too deeply).") from error
        except json.JSONDecodeError as error:
            raise DataError(
                f"{path} line {number}: not valid JSON ({error.msg}, column {error.colno})."
            ) from error
        yield number, value


def read_csv(path: Path, columns: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """Each row by the line it starts on, its header naming `columns` among others (a header that
    lacks one is said once, not as each row's fault); a row of blank cells only is skipped, as
    Inspect's csv_dataset skips it."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.reader(f, dialect="unix")
            header = _header(path, next(reader, []), columns)
            start = reader.line_num + 1
            for row in reader:
                if row and len(row) != len(header):
                    raise DataError(
                        f"{path} line {start} has {len(row)} cells, the header {len(header)}; "
                        "quote a cell that holds a comma, and give each row every column."
                    )
                if any(cell.strip() for cell in row):
                    yield start, dict(zip(header, row, strict=True))
                start = reader.line_num + 1
    except UnicodeError as error:
        raise DataError(f"{path}: not UTF-8 text ({error}); save the file as UTF-8.") from error
    except (OSError, csv.Error) as error:
        raise DataError(f"{path}: cannot be read as .csv ({error}).") from error


def _header(path: Path, header: list[str], columns: Sequence[str]) -> list[str]:
    if lacks := [name for name in columns if name not in header]:
        has = ", ".join(shown(name) for name in header) or "nothing"
        raise DataError(
            f"{path} line 1: the header lacks the column{'s' if len(lacks) > 1 else ''} "
            f"{', '.join(lacks)}; it has {has}. Name the columns {', '.join(columns)} (lower "
            "case, no spaces), separated by commas."
        )
    for n, name in enumerate(header):
        if name in header[:n]:
            first = header.index(name) + 1
            raise DataError(
                f"{path} line 1: the column {shown(name)} appears twice in the header (columns "
                f"{first} and {n + 1}); a row would keep only one of its values. Keep one."
            )
    return header
