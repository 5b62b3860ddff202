"""`report.outputs` and `report.files`: a command's files are put in place all together when it has finished,
or none are; a Markdown report and its figures are one unit, even with two writers at once."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from verify_perceptron.errors import InvalidArgument
from verify_perceptron.report.files import PendingFile
from verify_perceptron.report.outputs import Outputs


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _links(report: Path) -> list[str]:
    return re.findall(r"\]\(([^)]+)\)", report.read_text(encoding="utf-8"))


def _write_report(out: Outputs, path: Path, figures: dict[str, str]) -> None:
    """What ``verify --format markdown -o`` does, in its two steps' first: name, draw, write."""
    report = out.file(path)
    folder = out.figures(report)
    links = {name: folder.add(name, svg) for name, svg in figures.items()}
    report.write("".join(f"![{name}]({link})\n" for name, link in links.items()))


@pytest.mark.parametrize("last", ["first", "second"])
def test_two_interleaved_markdown_writers_never_mix_a_report_with_the_others_figures(tmp_path: Path,
                                                                                     last: str) -> None:
    target = tmp_path / "report.md"
    drawn = {"first": {"invariants": "<svg>first invariants</svg>", "bounds": "<svg>first bounds</svg>"},
             "second": {"invariants": "<svg>second invariants</svg>", "bounds": "<svg>second bounds</svg>"}}
    with Outputs() as first, Outputs() as second:
        _write_report(first, target, drawn["first"])   # both draw and write before either is put in place
        _write_report(second, target, drawn["second"])
        (second if last == "first" else first).commit()
        (first if last == "first" else second).commit()
    links = _links(target)
    assert len(links) == 2
    assert {(tmp_path / link).read_text() for link in links} == set(drawn[last].values())
    # The report put in place first was replaced, and its figures went with it; no temporary file is left.
    assert sorted(os.listdir(tmp_path / "report_figures")) == sorted(Path(link).name for link in links)
    assert _listing(tmp_path) == sorted(["report.md", "report_figures", *links])


def test_a_report_replacing_an_earlier_one_removes_only_the_figures_that_one_linked(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    (tmp_path / "report_figures").mkdir()
    (tmp_path / "report_figures" / "mine.png").write_text("the user's own file")
    for text in ("<svg>1</svg>", "<svg>2</svg>"):
        with Outputs() as out:
            _write_report(out, target, {"bounds": text})
            out.commit()
    assert sorted(os.listdir(tmp_path / "report_figures")) == sorted(["mine.png", Path(_links(target)[0]).name])


def test_nothing_is_left_when_the_command_fails_before_it_commits(tmp_path: Path) -> None:
    (tmp_path / "report.md").write_text("old report")
    (tmp_path / "t.jsonl").write_text("old trace")
    with pytest.raises(KeyboardInterrupt):
        with Outputs() as out:
            _write_report(out, tmp_path / "report.md", {"bounds": "<svg/>"})
            out.file(tmp_path / "t.jsonl", what="--trace").write("new")
            raise KeyboardInterrupt
    assert _listing(tmp_path) == ["report.md", "t.jsonl"]
    assert (tmp_path / "report.md").read_text() == "old report" and (tmp_path / "t.jsonl").read_text() == "old trace"


def _no_space(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write to a file opened with `os.fdopen` fails as on a full disk, from the first byte."""
    real = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r": Full(real(fd, mode)))


def test_a_full_disk_is_a_clear_error_naming_the_file_and_leaves_no_part(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "t.jsonl").write_text("old trace")
    _no_space(monkeypatch)
    with pytest.raises(InvalidArgument, match=r"^--trace .*t\.jsonl: cannot be written \(No space left on device\)$"):
        with Outputs() as out:
            out.file(tmp_path / "t.jsonl", what="--trace").write("{}\n")
    assert _listing(tmp_path) == ["t.jsonl"] and (tmp_path / "t.jsonl").read_text() == "old trace"


def test_a_full_disk_while_writing_a_figure_leaves_no_figure_and_no_folder(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _no_space(monkeypatch)
    with pytest.raises(InvalidArgument, match=r"its figure .*bounds-[0-9a-f]{12}\.svg cannot be written \(No space"):
        with Outputs() as out:
            _write_report(out, tmp_path / "report.md", {"bounds": "<svg/>"})
    assert _listing(tmp_path) == []


def test_a_full_disk_at_the_last_flush_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "r.txt").write_text("old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(InvalidArgument, match=r"^output .*r\.txt: cannot be written \(No space left on device\)$"):
        with Outputs() as out:
            out.file(tmp_path / "r.txt").write("new")
            out.commit()
    assert _listing(tmp_path) == ["r.txt"] and (tmp_path / "r.txt").read_text() == "old"


def test_a_file_where_the_figure_folder_goes_is_refused_when_named(tmp_path: Path) -> None:
    (tmp_path / "report_figures").write_text("not a folder")
    with pytest.raises(InvalidArgument, match="its figures go in .*report_figures, which is a file, not a folder"):
        with Outputs() as out:
            out.figures(out.file(tmp_path / "report.md"))
    assert _listing(tmp_path) == ["report_figures"]


def test_a_read_only_file_system_is_refused_when_a_file_is_named(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real, read_only_folder = os.open, [tmp_path]

    def read_only(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], flags: int, *args: int) -> int:
        if flags & os.O_CREAT and Path(str(path)).parent == read_only_folder[0]:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(InvalidArgument, match=r"output .*r\.md: cannot be written \(Read-only file system\)"):
        with Outputs() as out:
            out.file(tmp_path / "r.md")
    (tmp_path / "r_figures").mkdir()
    read_only_folder[0] = tmp_path / "r_figures"  # a folder mounted read-only in a writable one
    with pytest.raises(InvalidArgument, match=r"its figures cannot be written in .*r_figures \(Read-only file sys"):
        with Outputs() as out:
            out.figures(out.file(tmp_path / "r.md"))
    assert _listing(tmp_path) == ["r_figures"]


def test_every_output_follows_one_rule_its_folder_must_exist(tmp_path: Path) -> None:
    for name in ("r.txt", "r.html", "r.json", "r.md", "t.jsonl"):
        with pytest.raises(InvalidArgument, match=r"the directory .*missing does not exist"):
            with Outputs() as out:
                out.figures(out.file(tmp_path / "missing" / name))
    assert _listing(tmp_path) == []


def test_two_outputs_naming_one_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match=r"--trace .*r\.md and output .*r\.md are the same file"):
        with Outputs() as out:
            out.file(tmp_path / "r.md")
            out.file(tmp_path / "." / "r.md", what="--trace")
    with pytest.raises(InvalidArgument, match="is where the figures of"):
        with Outputs() as out:
            out.figures(out.file(tmp_path / "r.md"))
            out.file(tmp_path / "r_figures", what="--trace")
    assert _listing(tmp_path) == []


def test_a_pending_file_refuses_a_nul_in_its_name_and_a_write_after_it_finished(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="cannot hold a NUL character"):
        PendingFile(str(tmp_path / "a\0b"))
    pending = PendingFile(tmp_path / "r.txt")
    pending.finish()
    with pytest.raises(InvalidArgument, match="written after it was finished"):
        pending.write("x")
    pending.discard()
    assert _listing(tmp_path) == []


def test_a_file_name_as_long_as_the_file_system_allows_is_written(tmp_path: Path) -> None:
    # Its temporary file's name adds a dot, a token and .tmp: cut short, it stays within the 255 bytes too.
    target = tmp_path / ("r" * 251 + ".txt")
    with Outputs() as out:
        out.file(target).write("report")
        out.commit()
    assert target.read_text() == "report" and _listing(tmp_path) == [target.name]


def test_a_figure_folder_name_too_long_is_refused_when_named_and_nothing_is_left(tmp_path: Path) -> None:
    # report.md's name fits; with _figures its folder's does not.
    with pytest.raises(InvalidArgument, match=r"its figures cannot be written in .*_figures \(File name too long\)"):
        with Outputs() as out:
            out.figures(out.file(tmp_path / ("r" * 250 + ".md")))
    assert _listing(tmp_path) == []


def test_a_file_name_longer_than_the_file_system_allows_is_one_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match=r"^output .*rrr\.txt: cannot be written \(File name too long\)$"):
        with Outputs() as out:
            out.file(tmp_path / ("r" * 300 + ".txt"))
    assert _listing(tmp_path) == []
