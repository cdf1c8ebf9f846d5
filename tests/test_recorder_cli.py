"""`judgekit check FILE.jsonl` and the transcripts in docs/recorder.md."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from judgekit.cli import main
from judgekit.recorder.findings import CODES

DOC = Path(__file__).resolve().parents[1] / "docs" / "recorder.md"


def run_check(tmp_path, text, *args):
    f = tmp_path / "t.jsonl"
    f.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(f), *args])


def test_check_prints_one_json_finding_per_line(tmp_path):
    text = "\n".join([
        '{"type": "game", "seats": ["Ann", "Ben", "Cid", "Dee", "Eve"]}',
        "# the predator blocks before the prey passes",
        '{"type": "turn.start", "seat": 1}',
        '{"type": "action.declare", "seat": 1, "action": "hunt", "minion": "Modius"}',
        '{"type": "action.pass", "seat": 1}',
        '{"type": "block.declare", "seat": 5, "minion": "Alice Chen"}',
        ""])
    result = run_check(tmp_path, text)
    assert result.exit_code == 0, result.output
    lines = [json.loads(l) for l in result.output.splitlines()]
    assert [(f["seq"], f["code"]) for f in lines] == [(4, "block-out-of-order")]


def test_clean_transcript_prints_nothing(tmp_path):
    result = run_check(tmp_path, '{"type": "turn.start", "seat": 1}\n{"type": "turn.end", "seat": 1}\n')
    assert result.exit_code == 0 and result.output == ""


def test_malformed_transcript_is_one_line_error(tmp_path):
    for text, words in (('{"type": "turn.start", "seat": 1}\n{"type": \n', "line 2: not valid JSON"),
                        ('{"type": "turn.start", "seat": 9}\n', "line 1: seat"),
                        ('{"type": "game", "seats": ["A"]}\n', "line 1: seats"),
                        ('{"type": "card.play", "seat": 1, "card": "Nonexistent Card"}\n', "unknown card")):
        result = run_check(tmp_path, text)
        assert result.exit_code != 0
        assert words in result.output and len(result.output.strip().splitlines()) == 1


def test_four_seats_option(tmp_path):
    result = run_check(tmp_path, '{"type": "action.pass", "seat": 5}\n', "--seats", "4")
    assert result.exit_code != 0 and "out of range" in result.output


def doc_transcripts():
    """`docs/recorder.md`: each ```jsonl block under a '### `code`' heading."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^### `([a-z-]+)`\n(.*?)```jsonl\n(.*?)```", text, re.S | re.M):
        out[m.group(1)] = m.group(3)
    return out


def test_docs_have_a_transcript_per_code_that_produces_it(tmp_path):
    transcripts = doc_transcripts()
    assert set(transcripts) == set(CODES)
    for code, text in transcripts.items():
        result = run_check(tmp_path, text)
        assert result.exit_code == 0, (code, result.output)
        found = [json.loads(l)["code"] for l in result.output.splitlines()]
        assert code in found, (code, found)
