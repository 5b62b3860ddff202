"""`report.visible`: every control character a terminal or a viewer acts on is shown, never obeyed."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.report.visible import displayed, visible, visible_json

#: Every character that must never reach a person's screen raw: C0, DEL, C1, the bidi controls.
CONTROLS = ([chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
            + ["\u061c", "\u200e", "\u200f", "\u2028", "\u2029"]
            + [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)])


def test_every_control_character_is_shown_as_an_escape_in_a_value() -> None:
    for char in CONTROLS:
        shown = visible(f"a{char}b")
        assert shown.startswith("a\\") and shown.endswith("b") and char not in shown, repr(char)


def test_a_document_keeps_its_newlines_and_tabs_and_nothing_else() -> None:
    for char in CONTROLS:
        shown = visible(f"a{char}b", lines=True)
        assert (char in shown) == (char in "\n\t"), repr(char)


def test_the_escapes_name_the_character() -> None:
    assert visible("\x1b[2J\r\x7f\x9b\u202e\udcff") == "\\x1b[2J\\r\\x7f\\x9b\\u202e\\udcff"


@given(st.text())
def test_what_visible_shows_has_no_control_character_and_the_rest_unchanged(text: str) -> None:
    shown = visible(text)
    assert not any(char in shown for char in CONTROLS)
    assert visible(shown) == shown  # applied twice, nothing more is escaped
    kept = [c for c in text if c not in CONTROLS and not 0xD800 <= ord(c) <= 0xDFFF]
    assert all(c in shown for c in kept)
    assert all(unicodedata.category(c) not in ("Cc",) for c in shown)


@given(st.dictionaries(st.text(max_size=5), st.text(max_size=20), max_size=4))
def test_visible_json_stays_valid_and_reads_back_equal(values: dict[str, str]) -> None:
    text = json.dumps(values, ensure_ascii=False)
    shown = visible_json(text)
    assert not any(char in shown for char in CONTROLS)
    assert json.loads(shown) == values


def test_displayed_shows_the_datas_strings_and_leaves_the_record_exact() -> None:
    report: dict[str, Any] = {  # a report record: JSON values
        "dataset": {"source": "a\x1b.csv", "feature_names": ["x\n", "y"],
                    "labels": {"negative": "\u202eno", "positive": "yes"}, "n_samples": 2},
        "final_weights": ["1", "-1"]}
    shown = displayed(report)
    assert shown["dataset"] == {"source": "a\\x1b.csv", "feature_names": ["x\\n", "y"],
                                "labels": {"negative": "\\u202eno", "positive": "yes"}, "n_samples": 2}
    assert shown["final_weights"] == ["1", "-1"]
    assert report["dataset"]["source"] == "a\x1b.csv"  # the record itself is unchanged
