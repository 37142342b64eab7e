"""Inputs as users hold them (issue 19 items 2-3, issue 22 item 6, issue 21's CSV total):
Hugging Face `datasets` folders and `.arrow` files, per-input publisher/origin/columns,
the file list fixed before the job, and pre-flight totals that count rows."""
import json

import pytest

from transforms.core.preflight import InputError
from transforms.ingestion import inputs, listing
from transforms.ingestion.articles import Article
from transforms.ingestion.parts import plan_parts
from transforms.ingestion.read import ReadPart
from transforms.ingestion.specs import (
    InputSpec,
    SpecError,
    format_input,
    from_toml,
    parse_input,
)

datasets = pytest.importorskip("datasets")


def _read(spec) -> list:
    """Every Article and rejected row the job would read for one input (no Beam)."""
    files = inputs.listed_files(inputs.list_inputs([spec]))
    out = []
    for f in files:
        for part in plan_parts(f.path, f.origin, f.size, 1 << 20, f.cap, f.source, f.columns):
            out += [o if isinstance(o, Article) else o.row
                    for o in ReadPart(inputs.ReadConfig()).apply(part)
                    if isinstance(o, Article) or hasattr(o, "row")]
    return out


def _key(a: Article) -> tuple:
    return a.article_id, a.paragraphs, a.highlights, a.source, a.url, a.title, a.origin


@pytest.fixture(scope="module")
def hf_rows(corpus_dir) -> list:
    """Real rows in Hugging Face's cnn_dailymail layout (highlights one "\\n"-joined string)."""
    rows = [json.loads(line) for line in
            (corpus_dir / "cnndm_test250.jsonl").read_text().splitlines()[:12]]
    return [{"article": r["article"], "highlights": "\n".join(r["highlights"]), "id": r["id"]}
            for r in rows]


@pytest.fixture(scope="module")
def exports(hf_rows, tmp_path_factory):
    """The same rows written by `datasets` every way it writes them."""
    d = tmp_path_factory.mktemp("hf")
    ds = datasets.Dataset.from_list(hf_rows)
    ds.save_to_disk(str(d / "saved"))
    datasets.DatasetDict({"train": ds.select(range(8)), "test": ds.select(range(8, 12))}
                         ).save_to_disk(str(d / "dict"))
    ds.to_csv(str(d / "rows.csv"))
    ds.to_parquet(str(d / "rows.parquet"))
    ds.to_json(str(d / "rows.jsonl"))
    return d


def test_every_datasets_export_gives_the_same_articles(exports, hf_rows):
    by_layout = {name: sorted(map(_key, _read(parse_input(str(exports / name)))))
                 for name in ("saved", "dict", "rows.csv", "rows.parquet", "rows.jsonl")}
    by_layout["arrow"] = sorted(map(_key, _read(parse_input(str(exports / "saved" / "*.arrow")))))
    first = by_layout["rows.csv"]
    assert len(first) == len(hf_rows) == 12
    assert sum(len(k[2]) for k in first) > 2 * len(first)   # highlights split on "\n"
    for name, got in by_layout.items():
        assert got == first, name


def test_a_datasets_folder_is_accepted_and_other_folders_still_refused(exports, tmp_path):
    listed = inputs.list_inputs([("%s" % (exports / "dict"), "")])
    names = [p.rsplit("/", 2)[-2] for p, _ in listed[0].files]
    assert names == ["train", "test"]        # dataset_dict.json's order
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError, match="is a folder: add a glob"):
        inputs.list_inputs([(str(tmp_path / "plain"), "")])


def test_arrow_is_read_batch_by_batch(exports):
    import fsspec

    from transforms.ingestion.arrow import record_batches
    ds = datasets.Dataset.from_list([{"id": str(i), "article": "A. " * 5, "highlights": "h"}
                                     for i in range(2500)])
    ds.save_to_disk(str(exports / "big"), max_shard_size="100MB")
    (path,) = [p for p, _ in inputs.expand(str(exports / "big"))]
    with fsspec.open(path, "rb") as f:
        sizes = [b.num_rows for b in record_batches(f)]
    assert sum(sizes) == 2500 and max(sizes) <= 1000    # datasets writes 1000-row batches


def test_pre_flight_totals_count_rows_not_lines(exports, tmp_path):
    """CSV highlights hold newlines: the total is rows (issue 21: 120 read of 403 shown)."""
    for name in ("rows.csv", "saved", "dict"):
        total, exact = inputs.estimate_records(inputs.list_inputs([(str(exports / name), "")]))
        assert (total, exact) == (12, True), name
    big = tmp_path / "big.csv"
    row = 'x{},"Body, one.\nBody two.","h1\nh2\nh3"\n'
    big.write_text("id,article,highlights\n" + "".join(row.format(i) for i in range(60_000)))
    total, exact = inputs.estimate_records(inputs.list_inputs([(str(big), "")]))
    assert not exact and abs(total - 60_000) < 600
    import gzip
    (tmp_path / "big.csv.gz").write_bytes(gzip.compress(big.read_bytes()))
    total, exact = inputs.estimate_records(inputs.list_inputs([(str(tmp_path / "big.csv.gz"),
                                                                "")]))
    assert not exact and abs(total - 60_000) < 3000


# -- per-input settings ----------------------------------------------------------------

def test_input_suffix_and_toml_table_give_the_same_spec():
    a = parse_input("data/*.csv::source=dailymail,text=story,summary=abstract,origin=crawled")
    b = from_toml({"path": "data/*.csv", "source": "dailymail", "origin": "crawled",
                   "columns": {"text": "story", "summary": "abstract"}}, "run.toml")
    assert a == b == InputSpec("data/*.csv", "crawled", "dailymail",
                               (("summary", "abstract"), ("text", "story")))
    assert parse_input(format_input(a)) == a
    assert parse_input("data/*.csv", "public") == InputSpec("data/*.csv", "public")
    # fsspec's own `::` chains stay paths
    assert parse_input("zip://*.csv::s3://bucket/a.zip").pattern == "zip://*.csv::s3://bucket/a.zip"
    with pytest.raises(SpecError, match="unknown setting 'colour'.*settings: source, origin"):
        parse_input("a.csv::colour=red")
    with pytest.raises(SpecError, match="unknown key"):
        from_toml({"path": "a.csv", "column": {}}, "run.toml")


def test_columns_publisher_and_title_from_the_input(tmp_path):
    path = tmp_path / "mail.csv"
    path.write_text('story_id,story,abstract,headline,link\n'
                    's1,"First para.\n\nSecond para.","One\nTwo",A title,http://x/1\n')
    (a,) = _read(parse_input(f"{path}::source=dailymail,id=story_id,text=story,"
                             "summary=abstract,title=headline,url=link"))
    assert (a.article_id, a.paragraphs, a.highlights) == ("s1", ("First para.", "Second para."),
                                                          ("One", "Two"))
    assert (a.source, a.title, a.url) == ("dailymail", "A title", "http://x/1")
    # without the publisher the source stays unknown to the reader (curation infers it)
    (b,) = _read(parse_input(f"{path}::id=story_id,text=story,summary=abstract"))
    assert b.source is None and b.title is None


def test_a_records_own_source_wins_over_the_inputs(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"id": "1", "article": "Body.", "highlights": ["h"],
                                "source": "cnn"}) + "\n" +
                    json.dumps({"id": "2", "article": "Body.", "highlights": ["h"]}) + "\n")
    got = _read(parse_input(f"{path}::source=dailymail"))
    assert [a.source for a in got] == ["cnn", "dailymail"]


def test_an_unknown_column_names_the_files_columns(tmp_path):
    path = tmp_path / "mail.csv"
    path.write_text("id,story,abstract\n1,Body.,h\n")
    with pytest.raises(InputError, match=r"text=body.*the file's columns: id, story, abstract"):
        inputs.list_inputs([parse_input(f"{path}::text=body")])
    # the job names it too (a later file of the same input)
    parts = plan_parts(str(path), "public", path.stat().st_size, 1 << 20,
                       columns=(("text", "body"),))
    out = [o.row for o in ReadPart(inputs.ReadConfig()).apply(parts[0]) if hasattr(o, "row")]
    assert [r["reason"] for r in out] == ["unknown_column"]
    assert "id, story, abstract" in out[0]["detail"]
    jsonl = tmp_path / "rows.jsonl"
    jsonl.write_text(json.dumps({"id": "1", "story": "Body.", "highlights": "h"}) + "\n")
    (rej,) = _read(parse_input(f"{jsonl}::text=body"))
    assert rej["reason"] == "missing_field:text" and "id, story, highlights" in rej["detail"]


def test_changed_mapping_changes_the_generate_fingerprint(tmp_path):
    from transforms.builder import input_listing, listing_changes
    from transforms.stages import BuildConfig, BuildPaths
    path = tmp_path / "a.csv"
    path.write_text("id,article,highlights\n1,Body.,h\n")

    def listing_of(spec):
        return input_listing(BuildConfig(BuildPaths((spec,), str(tmp_path / "run"))))
    plain = listing_of(parse_input(str(path)))
    assert len(plain[0]) == 4     # unchanged for inputs without settings
    assert listing_of(parse_input(f"{path}::text=article")) != plain
    cnn = listing_of(parse_input(f"{path}::source=cnn"))
    mail = listing_of(parse_input(f"{path}::source=dailymail"))
    assert cnn != mail
    assert listing_changes(cnn, mail) == (f"1 input file(s) read with other origin, source "
                                          f"or columns (e.g. {path})")


def test_build_config_input_tables_round_trip(tmp_path):
    from beam_pipelines import build
    toml = tmp_path / "run.toml"
    toml.write_text('output = "%s"\n\n[[input]]\npath = "a/*.csv"\nsource = "dailymail"\n'
                    'columns = { text = "story" }\n\n[[input]]\npath = "b/*.story"\n'
                    % (tmp_path / "out"))
    args, _ = build.common.parse(build.build_parser(), ["--config", str(toml)])
    config = build.config_from_args(args)
    assert config.paths.inputs == (InputSpec("a/*.csv", "", "dailymail", (("text", "story"),)),
                                   InputSpec("b/*.story"))
    again = tmp_path / "again.toml"
    again.write_text(build.to_toml(config))
    args, _ = build.common.parse(build.build_parser(), ["--config", str(again)])
    assert build.config_from_args(args).paths.inputs == config.paths.inputs


# -- the file list is fixed at the start ----------------------------------------------

def test_a_listed_file_gone_when_read_is_a_missing_file_row(tmp_path):
    import apache_beam as beam
    from apache_beam.testing.util import assert_that, equal_to

    from transforms.ingestion.read import ReadArticles
    for i in range(2):
        (tmp_path / f"s{i}.story").write_text(f"Body {i}.\n\n@highlight\n\nBullet\n")
    listed = inputs.list_inputs([(str(tmp_path / "*.story"), "")])
    files = listing.write(inputs.listed_files(listed), str(tmp_path / "run" / listing.FILE))
    (tmp_path / "s1.story").unlink()
    (tmp_path / "s2.story").write_text("Added after the start.\n\n@highlight\n\nB\n")
    with beam.Pipeline() as p:
        out = p | ReadArticles([(str(tmp_path / "*.story"), "")], inputs.ReadConfig(), files)
        assert_that(out["main"] | beam.Map(lambda a: a.article_id), equal_to(["s0"]),
                    label="OnlyTheListedFileThatRemains")
        assert_that(out["rejected"] | beam.Map(lambda r: (r["reason"], r["source_file"])),
                    equal_to([("missing_file", str(tmp_path / "s1.story"))]),
                    label="TheGoneFileIsNamed")


def test_generate_gives_identical_candidates_from_every_layout(exports, tmp_path):
    """Through the whole generate job: the same 3 real rows as a `datasets` folder, CSV,
    Parquet and JSON lines give byte-identical candidate rows."""
    import pyarrow.parquet as pq

    from beam_pipelines import generate
    small = datasets.load_from_disk(str(exports / "saved")).select(range(3))
    small.save_to_disk(str(tmp_path / "folder"))
    small.to_csv(str(tmp_path / "rows.csv"))
    small.to_parquet(str(tmp_path / "rows.parquet"))
    small.to_json(str(tmp_path / "rows.jsonl"))
    got = {}
    for name in ("folder", "rows.csv", "rows.parquet", "rows.jsonl"):
        out = tmp_path / f"out-{name}"
        generate.run(["--input", f"{tmp_path / name}::source=cnn", "--output", str(out),
                      "--workers", "1"])
        got[name] = sorted(pq.read_table(str(out / "candidates")).to_pylist(),
                           key=lambda r: r["id"])
        listed = [json.loads(line) for line in (out / listing.FILE).read_text().splitlines()]
        assert [f["source"] for f in listed] == ["cnn"]
    assert got["folder"] and {r["source"] for r in got["folder"]} == {"cnn"}
    for name, rows in got.items():
        assert rows == got["folder"], name


def test_the_examples_in_docs_ingest_parse(tmp_path):
    """Every TOML example and every --input of docs/ingest.md is read as documented."""
    import pathlib
    import re
    import shlex

    from beam_pipelines import build
    text = (pathlib.Path(__file__).parents[2] / "docs" / "ingest.md").read_text()
    tomls = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(tomls) >= 6
    for i, block in enumerate(tomls):
        path = tmp_path / f"{i}.toml"
        path.write_text(block if "output =" in block else f'output = "{tmp_path}"\n' + block)
        args, _ = build.common.parse(build.build_parser(), ["--config", str(path)])
        assert build.config_from_args(args).paths.inputs, block
    commands = re.findall(r"```sh\n(.*?)```", text, re.S)
    flags = [w for block in commands for w in shlex.split(block.replace("\\\n", " "))]
    given = [flags[i + 1] for i, w in enumerate(flags) if w == "--input"]
    assert any("::" in g for g in given)
    for g in given:
        parse_input(g)


def test_a_load_dataset_cache_folder_gives_its_arrow_files(exports, tmp_path):
    import shutil
    cache = tmp_path / "abisee___cnn_dailymail" / "3.0.0" / "0000"
    cache.mkdir(parents=True)
    shard = exports / "saved" / "data-00000-of-00001.arrow"
    shutil.copy(shard, cache / "cnn_dailymail-test.arrow")
    shutil.copy(shard, cache / "cache-1234.arrow")          # a map() result: not the data
    shutil.copy(exports / "saved" / "dataset_info.json", cache / "dataset_info.json")
    listed = inputs.list_inputs([(str(cache), "")])
    assert [p.rsplit("/", 1)[-1] for p, _ in listed[0].files] == ["cnn_dailymail-test.arrow"]
    assert len([a for a in _read(parse_input(str(cache))) if isinstance(a, Article)]) == 12


def test_a_file_deleted_after_the_start_is_in_the_funnel(corpus_dir, tmp_path, caplog):
    """Issue 22: a file deleted just after the run starts was absent from the funnel."""
    import shutil

    from beam_pipelines import generate
    from transforms.core.stage import Runtime
    from transforms.generation import stage
    stories = sorted((corpus_dir / "cnn_stories").glob("*.story"))[:2]
    for s in stories:
        shutil.copy(s, tmp_path / s.name)
    args, _ = generate.common.parse(generate.build_parser(), [
        "--input", str(tmp_path / "*.story"), "--output", str(tmp_path / "out")])
    config = generate.config_from_args(args)
    from transforms.stages import BY_NAME
    planned = BY_NAME["generate"].preflight(config)
    files, total = planned["files"], planned["total"]
    assert total == 2
    (tmp_path / stories[1].name).unlink()
    stats = stage.run(config, Runtime(workers=1), files, total)
    assert stats["stages"]["read"]["reasons"] == {"missing_file": 1}
    assert stats["stages"]["read"]["out"] == 1 and not stats["gaps"]
    assert "gone when read" in caplog.text


def test_many_compressed_files_are_sampled_then_scaled(tmp_path):
    import gzip
    row = json.dumps({"id": "x", "article": "Body. " * 40, "highlights": ["h"]}) + "\n"
    for i in range(40):
        (tmp_path / f"{i:02}.jsonl.gz").write_bytes(gzip.compress((row * (100 + i)).encode()))
    total, exact = inputs.estimate_records(inputs.list_inputs([(str(tmp_path / "*.gz"), "")]))
    assert not exact and abs(total - 4780) < 0.05 * 4780     # 4780 records in all
