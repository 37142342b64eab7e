"""Inputs and settings validated (issue 28, part 6), with real CNN/Daily Mail rows reshaped
here: the record limit applies to any cell of any layout (a 30 MB `url` cell of an
`.arrow` or Parquet row is rejected as its JSON line would be), short fields have limits
in every layout, a `datasets` folder with a missing split or a data file outside its
folder stops the run with one line, and NaN settings, `input = 5`, duplicate per-input
keys and `summary=url` get one line, never a traceback or a silent change."""
import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.conftest import REPO
from transforms.core.preflight import InputError
from transforms.ingestion import inputs
from transforms.ingestion.articles import Article
from transforms.ingestion.parts import plan_parts
from transforms.ingestion.read import ReadPart
from transforms.ingestion.specs import SpecError, from_toml, parse_input

datasets = pytest.importorskip("datasets")
BIG = 30 << 20


def _read(pattern, config=inputs.ReadConfig()):
    """(articles' ids, rejected (reason, detail)) the job reads for one input (no Beam)."""
    ids, rejected = [], []
    for f in inputs.listed_files(inputs.list_inputs([parse_input(str(pattern))])):
        for part in plan_parts(f.path, f.origin, f.size, 64 << 20, f.cap, f.source, f.columns):
            for o in ReadPart(config).apply(part):
                if isinstance(o, Article):
                    ids.append(o.article_id)
                elif hasattr(o, "row"):
                    rejected.append((o.row["reason"], o.row["detail"]))
    return ids, rejected


@pytest.fixture(scope="module")
def rows(corpus_dir):
    out = []
    for line in (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[20:26]:
        r = json.loads(line)
        out.append({"id": r["id"], "url": r["url"], "article": r["article"],
                    "highlights": "\n".join(r["highlights"])})
    return out


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ))


def _one_line(done):
    err = done.stderr.strip().splitlines()
    assert done.returncode != 0 and err and err[-1].startswith("error: "), done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return err[-1]


def test_a_30mb_url_cell_is_rejected_in_arrow_and_parquet_as_in_json_lines(rows, tmp_path):
    big = dict(rows[1], url="http://x/" + "a" * BIG)
    table = pa.Table.from_pylist([rows[0], big] + rows[2:])
    with pa.OSFile(str(tmp_path / "rows.arrow"), "wb") as sink:     # as `datasets` writes
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table, max_chunksize=2)
    pq.write_table(table, tmp_path / "rows.parquet")
    with open(tmp_path / "rows.jsonl", "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in [rows[0], big] + rows[2:])
    want = [r["id"] for r in rows if r["id"] != big["id"]]
    for name in ("rows.arrow", "rows.parquet", "rows.jsonl"):
        ids, rejected = _read(tmp_path / name)
        assert ids == want, name
        assert [r for r, _ in rejected] == ["record_too_large"], name
        assert "> the 16,777,216-byte record limit" in rejected[0][1], name


def test_short_fields_have_limits_in_every_layout(rows, tmp_path):
    odd = dict(rows[2], url="http://x/" + "b" * 10_000, id="c" * 5_000)
    long_url = dict(rows[3], url="http://x/" + "u" * 10_000)
    table = pa.Table.from_pylist([rows[0], odd, long_url])
    pq.write_table(table, tmp_path / "rows.parquet")
    table.to_pandas().to_csv(tmp_path / "rows.csv", index=False)
    with open(tmp_path / "rows.jsonl", "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in [rows[0], odd, long_url])
    for name in ("rows.parquet", "rows.csv", "rows.jsonl"):
        ids, rejected = _read(tmp_path / name)
        assert ids == [rows[0]["id"]], name
        assert [r for r, _ in rejected] == ["field_too_large:id", "field_too_large:url"], name
        assert rejected[1][1] == "`url` holds 10,009 characters > 8,192"


@pytest.fixture
def dict_folder(rows, tmp_path):
    ds = datasets.Dataset.from_list(rows)
    datasets.DatasetDict({"train": ds.select(range(4)), "test": ds.select(range(4, 6))}
                         ).save_to_disk(str(tmp_path / "dict"))
    return tmp_path / "dict"


def test_a_datasetdict_with_a_missing_split_stops_with_one_line(dict_folder):
    assert len(_read(dict_folder)[0]) == 6
    for f in (dict_folder / "test").iterdir():
        f.unlink()
    (dict_folder / "test").rmdir()
    with pytest.raises(InputError, match="lists split 'test', but .* is not a `datasets` folder"):
        inputs.list_inputs([parse_input(str(dict_folder))])
    done = _cli("beam_pipelines.build", "--input", str(dict_folder), "--output",
                str(dict_folder.parent / "run"))
    assert "the dataset is incomplete" in _one_line(done)


def test_data_files_outside_the_named_folder_are_refused(dict_folder, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    train = dict_folder / "train"
    shard = next(train.glob("*.arrow"))
    (elsewhere / "x.arrow").write_bytes(shard.read_bytes())
    state = json.loads((train / "state.json").read_text())
    for name in ("../../elsewhere/x.arrow", str(elsewhere / "x.arrow")):
        state["_data_files"] = [{"filename": name}]
        (train / "state.json").write_text(json.dumps(state))
        with pytest.raises(InputError, match="outside its folder: refused"):
            inputs.list_inputs([parse_input(str(train))])
    state["_data_files"] = [{"filename": "link.arrow"}]      # a link out of the folder
    (train / "state.json").write_text(json.dumps(state))
    (train / "link.arrow").symlink_to(elsewhere / "x.arrow")
    with pytest.raises(InputError, match="outside its folder: refused"):
        inputs.list_inputs([parse_input(str(train))])
    done = _cli("beam_pipelines.build", "--input", str(train), "--output", str(tmp_path / "r"))
    assert "outside its folder" in _one_line(done)


@pytest.mark.fast
def test_duplicate_per_input_keys_and_a_column_on_two_fields_are_refused():
    for text, match in (("a.csv::text=a,text=b", "text is given twice"),
                        ("a.csv::text=a,article=b", "text is given twice"),
                        ("a.csv::origin=public,origin=crawled", "origin is given twice"),
                        ("a.csv::summary=url", "summary=url maps the summary to the column "
                                               "the url is read from"),
                        ("a.csv::text=body,summary=body", "mapped to both summary and text")):
        with pytest.raises(SpecError, match=match):
            parse_input(text)
    with pytest.raises(SpecError, match="given twice"):
        from_toml({"path": "a.csv", "columns": {"summary": "a", "highlights": "b"}}, "run.toml")
    assert parse_input("a.csv::summary=abstract,url=link,id=url").columns == (
        ("id", "url"), ("summary", "abstract"), ("url", "link"))


@pytest.mark.parametrize("config, flags, says", [
    ('input = "a.jsonl"\n[finalize]\nnear_dup_threshold = nan\n', (),
     "near_dup_threshold must be a finite number, got nan"),
    ('input = "a.jsonl"\n[generate]\nmax_record_mb = inf\n', (),
     "max_record_mb must be a finite number, got inf"),
    ('input = "a.jsonl"\n', ("--near_dup_threshold", "nan"),
     "argument --near_dup_threshold: must be a finite number, got 'nan'"),
    ("input = 5\n", (), "input must be a string or a list, got 5"),
    ('input = ["a.jsonl", 5]\n', (), "each input must be a path or an [[input]] table, got 5"),
    ('input = "a.jsonl::summary=url"\n', (), "summary=url maps the summary"),
    ('[[input]]\npath = "a.csv"\ncolumns = { text = "a", article = "b" }\n', (),
     "the text column is given twice"),
])
def test_bad_settings_get_one_line(tmp_path, config, flags, says):
    (tmp_path / "run.toml").write_text(f'output = "{tmp_path / "run"}"\n' + config)
    done = _cli("beam_pipelines.build", "--config", str(tmp_path / "run.toml"), *flags)
    assert says in _one_line(done)
