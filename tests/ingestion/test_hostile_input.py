"""Hostile input costs one record (issue 22): oversized lines and records are skipped while
they are read, with bounded memory; the records around them are kept."""
import gzip
import json
import subprocess
import sys
import textwrap

import pytest

from transforms.ingestion import readers, streams
from transforms.ingestion.inputs import ReadConfig
from transforms.ingestion.parts import Part, plan_parts
from transforms.ingestion.read import ReadPart


def _good(i):
    return json.dumps({"id": f"g{i}", "article": f"Body {i}.", "highlights": ["h"]}).encode()


def _read(part, config=ReadConfig()):
    """(Articles' ids, rejected rows) that ReadPart yields for one part."""
    import apache_beam as beam
    fn = ReadPart(config)
    fn.start_bundle()
    ids, rejected = [], []
    for o in fn._outputs(part, (), {}):
        if isinstance(o, beam.pvalue.TaggedOutput):
            if o.tag == "rejected":
                rejected.append(o.value)
        elif isinstance(o, readers.Article):
            ids.append(o.article_id)
    return ids, rejected


def _whole(path, kind):
    return Part(str(path), "public", kind, path.stat().st_size, 0, 1, 0, None, None)


def test_bounded_lines_splits_and_refuses_long_lines():
    data = b"ab\n" + b"x" * 50 + b'"q"\nlast'
    import io
    got = list(streams.bounded_lines(io.BytesIO(data), limit=10, chunk=7))
    assert got == [(0, b"ab\n"), (3, streams.TooLarge(54, 2)), (57, b"last")]


BIG_LINE = 300 << 20   # inflated bytes of the one hostile line


def _write_bomb(path, inflated=BIG_LINE):
    """A .jsonl.gz: a good line, one line inflating to `inflated` bytes, a good line;
    written in 1 MB pieces, never held."""
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(_good(1) + b"\n" + b'{"id": "bomb", "article": "')
        piece = b"a" * (1 << 20)
        for _ in range(inflated >> 20):
            f.write(piece)
        f.write(b'", "highlights": ["h"]}\n' + _good(2) + b"\n")


def test_a_gzip_bomb_line_is_one_record_with_bounded_memory(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    _write_bomb(path)
    assert path.stat().st_size < BIG_LINE / 100
    script = textwrap.dedent(f"""
        import json
        from tests.ingestion.test_hostile_input import _read, _whole
        from transforms.core import procfs
        import pathlib
        path = pathlib.Path({str(path)!r})
        _read(_whole(path.with_name("warm.jsonl"), "jsonl"))   # imports and first use
        # the peak is measured from here: VmHWM reset to the current RSS (getrusage's
        # maxrss would carry the forking pytest process's peak across exec)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = procfs.hwm_bytes()
        ids, rejected = _read(_whole(path, "jsonl"))
        after = procfs.hwm_bytes()
        print(json.dumps({{"ids": ids, "reasons": [r["reason"] for r in rejected],
                          "grew_mb": (after - before) / 2**20, "peak_mb": after / 2**20}}))
    """)
    (tmp_path / "warm.jsonl").write_bytes(_good(0) + b"\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["ids"] == ["g1", "g2"]
    assert got["reasons"] == ["record_too_large"]
    # the old reader held the 300 MB line, then json.loads' copy of it
    assert got["grew_mb"] < 40, got
    assert got["peak_mb"] < BIG_LINE / (1 << 20), got


def test_a_large_story_or_page_is_refused_while_read(tmp_path):
    config = ReadConfig(max_record_mb=1)
    story = tmp_path / "big.story.gz"
    with gzip.open(story, "wb") as f:
        f.write(b"word " * (1 << 19) + b"\n\n@highlight\n\nA bullet\n")
    ids, rejected = _read(_whole(story, "story"), config)
    assert ids == [] and [r["reason"] for r in rejected] == ["record_too_large"]
    assert "2,621,4" in rejected[0]["detail"]
    small = tmp_path / "small.story"
    small.write_bytes(b"A paragraph.\n\n@highlight\n\nA bullet\n")
    assert _read(_whole(small, "story"), config)[0] == ["small"]


def test_an_oversized_csv_record_is_skipped_to_its_end(tmp_path):
    big = "x, \"\"quoted\"\"\nline\n" * 40_000          # ~800 KB inside one quoted field
    rows = ['id,article,highlights', 'c1,"Body one.",h', f'c2,"{big}",h',
            'c3,"Body, three.","h1\nh2"', 'c4,Body four.,h']
    path = tmp_path / "big.csv"
    path.write_text("\n".join(rows) + "\n")
    ids, rejected = _read(_whole(path, "csv"), ReadConfig(max_record_mb=0.5))
    assert ids == ["c1", "c3", "c4"]
    assert [r["reason"] for r in rejected] == ["record_too_large"]
    assert rejected[0]["detail"].startswith("row 3: byte ")


def test_parts_of_a_jsonl_with_a_long_line_keep_every_other_line(tmp_path):
    lines = [_good(i) for i in range(300)]
    lines[150] = b'{"id": "long", "article": "' + b"z" * 40_000 + b'", "highlights": []}'
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    parts = plan_parts(str(path), "public", path.stat().st_size, part_bytes=4000)
    assert len(parts) > 5
    config = ReadConfig(max_record_mb=0.01)
    got = [_read(p, config) for p in parts]
    assert sorted(i for ids, _ in got for i in ids) == sorted(f"g{i}" for i in range(300)
                                                             if i != 150)
    assert [r["reason"] for _, rej in got for r in rej] == ["record_too_large"]


def test_deep_json_in_results_is_one_line_not_a_traceback(tmp_path):
    import csv
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "results.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["WorkerId", "HITId", "Input.query_id", "Input.reference_answers",
                    "Answer.answer"])
        w.writerow(["w1", "h1", "q1", deep, "x"])
    done = subprocess.run([sys.executable, "-m", "beam_pipelines.human_validation", "ingest",
                           "--results", str(path), "--output", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "nested deeper" in done.stderr


def test_deep_json_data_for_evaluate_is_one_line(tmp_path):
    path = tmp_path / "dev.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    done = subprocess.run([sys.executable, "-m", "beam_pipelines.evaluate", "--data",
                           str(path), "--baseline", "random"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: nested deeper than 100 levels: line 1 column 101 (char 100)"]


@pytest.mark.parametrize("doc", ["[" * 101 + "]" * 101, '{"a": ' * 150 + "1" + "}" * 150])
def test_safejson_refuses_depth_and_keeps_strings_out_of_the_count(doc):
    from transforms.core import safejson
    with pytest.raises(safejson.JSONTooDeep):
        safejson.loads(doc)
    brackets_in_strings = json.dumps({"s": "[{" * 500, "l": [[["ok"]]]})
    assert safejson.loads(brackets_in_strings)["l"] == [[["ok"]]]
