"""`python -m beam_pipelines.preview RUN_DIR`: random queries read as a person would, from
real Parquet files of candidates made by the pure chain on real CNN stories."""
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import preview
from benchmarks import corpus, quality
from transforms.core.schema import CANDIDATE_SCHEMA, DATASET_SCHEMA


@pytest.fixture(scope="module")
def run_dir(corpus_dir, annotator, tmp_path_factory):
    articles = corpus.read_articles([str(corpus_dir / "cnn_stories" / "*.story")])[:8]
    queries, _ = quality.run_chain(articles, annotator)
    assert len(queries) >= 6
    out = tmp_path_factory.mktemp("run")
    (out / "candidates").mkdir()
    half = len(queries) // 2
    for k, part in enumerate((queries[:half], queries[half:])):
        table = pa.Table.from_pylist(part, schema=CANDIDATE_SCHEMA)
        pq.write_table(table, out / "candidates" / f"candidates-{k:05d}-of-00002.parquet")
    return out, queries


def run(*args):
    return subprocess.run([sys.executable, "-m", "beam_pipelines.preview", *map(str, args)],
                          capture_output=True, text=True, cwd=preview.__file__.rsplit(
                              "/beam_pipelines/", 1)[0])


def test_preview_shows_queries_with_passage_placeholder_and_answers(run_dir):
    out, queries = run_dir
    done = run(out, "-n", "3", "--seed", "7")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.startswith(f"3 of {len(queries)} queries from 2 file(s)")
    assert text.count("QUERY: ") == 3 and text.count("ANSWERS: ") == 3
    assert text.count(">>@placeholder<<") == 3
    shown = [line.split()[1] for line in text.splitlines() if line.startswith("== ")]
    by_id = {q["id"]: q for q in queries}
    for qid in shown:
        for a in by_id[qid]["answers"]:
            assert a["text"] in text
    assert "[" in text and "@highlight" in text
    # the same run and seed show the same queries; another seed, others
    assert run(out, "-n", "3", "--seed", "7").stdout == text
    assert run(out, "-n", "3", "--seed", "8").stdout != text


def test_candidates_folder_given_directly_and_dataset_preferred(run_dir, tmp_path):
    out, queries = run_dir
    direct = run(out / "candidates", "-n", "2")
    assert direct.returncode == 0 and direct.stdout.count("QUERY: ") == 2
    (tmp_path / "dataset").mkdir()
    rows = [dict(q, split="dev") for q in queries[:2]]
    rows = [{k: r[k] for k in DATASET_SCHEMA.names} for r in rows]
    pq.write_table(pa.Table.from_pylist(rows, schema=DATASET_SCHEMA),
                   tmp_path / "dataset" / "dev-00000-of-00001.parquet")
    (tmp_path / "candidates").mkdir()
    pq.write_table(pa.Table.from_pylist(queries, schema=CANDIDATE_SCHEMA),
                   tmp_path / "candidates" / "candidates-00000-of-00001.parquet")
    done = run(tmp_path, "-n", "50")
    assert done.returncode == 0 and done.stdout.startswith("2 of 2 queries from 1 file(s)")


def test_one_clear_error_line_when_nothing_is_there(tmp_path):
    done = run(tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0
    assert done.stderr.startswith("error: no queries to preview")
    (tmp_path / "candidates").mkdir()
    (tmp_path / "candidates" / "broken.parquet").write_bytes(b"not parquet")
    done = run(tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("error:")
    assert done.stderr.strip().count("\n") == 0
    done = run(tmp_path, "-n", "0")
    assert done.returncode != 0 and done.stderr.startswith("error:")
