"""The release's browsing aids: the lm-evaluation-harness task (loaded by lm-eval's own
TaskManager, no model run) and the static explorer page (opened from file:// in Debian's
headless Chromium, nothing else reachable)."""
import os
import pathlib

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.finalize.test_finalize import (
    ANSWERED,
    fixture_rows,
    run_finalize,
    write_filtered,
)
from transforms.core.schema import REJECTED_SCHEMA, SCORED_SCHEMA

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ANSWERED_ID = "answered-q0"
PREDICTION = "Maria Lopez"


def _adversary_outputs(filtered: pathlib.Path, row: dict) -> None:
    """One query the adversary answered (scored/ and rejected/), as the filter writes them,
    and one sentence generate rejected (DIR/rejected)."""
    ids = [f"answered-q{i}" for i in range(ANSWERED)]   # as many as the filter's funnel says
    scored = [dict({k: v for k, v in row.items() if k != "split"}, id=i, article_id="answered",
                   fold=1, adversary_prediction=PREDICTION, adversary_correct=True) for i in ids]
    for name, schema, rows in (
            ("scored", SCORED_SCHEMA, scored),
            ("rejected", REJECTED_SCHEMA, [{
                "stage": "adversary", "reason": "answered_by_adversary", "article_id": "answered",
                "record_id": i, "source_file": None,
                "detail": f"fold 1 reader answered {PREDICTION!r}"} for i in ids])):
        (filtered / name).mkdir()
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), filtered / name / "part-0.parquet")
    (filtered.parent / "rejected").mkdir()
    pq.write_table(pa.Table.from_pylist([{
        "stage": "sentence", "reason": "question", "article_id": "art001", "record_id": None,
        "source_file": "art001.story", "detail": "Who will pay for the <b>harbour</b>?"}],
        schema=REJECTED_SCHEMA), filtered.parent / "rejected" / "rejected-0.parquet")


@pytest.fixture(scope="module")
def release(record_format_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("aids")
    rows = fixture_rows(record_format_dir)
    filtered = write_filtered(root, rows)
    _adversary_outputs(filtered, rows[0])
    return run_finalize(filtered, root / "dataset", "--lm_eval_task", "record_test_release")


def test_lm_eval_loads_the_task_and_renders_a_document(release):
    lm_eval = pytest.importorskip("lm_eval", reason="lm-eval is not installed")
    from lm_eval.tasks import TaskManager
    manager = TaskManager(include_path=str(release / "lm_eval"))
    assert "record_test_release" in manager.all_tasks
    task = manager.load("record_test_release")["tasks"]["record_test_release"]
    docs = list(task.validation_docs())
    dev = pq.read_table(sorted(release.glob("dev-*.parquet"))).to_pylist()
    assert len(docs) == len(dev) > 0
    doc = next(d for d in docs if d["query"] == dev[0]["query"])
    row = dev[0]
    text = task.doc_to_text(doc)
    assert text.startswith(row["passage"].split("\n@highlight\n")[0])
    assert "  - " in text                                       # highlights as a list
    choices = task.doc_to_choice(doc)
    assert len(choices) == len({e["text"] for e in row["entities"]})
    gold = task.doc_to_target(doc)
    assert gold in choices and "@placeholder" not in gold
    right = choices.index(gold)
    scores = [(0.0 if i == right else -5.0, False) for i in range(len(choices))]
    assert task.process_results(doc, scores) == {"f1": 1.0, "em": 1.0}
    assert lm_eval.__version__


def test_lm_eval_task_names_are_checked():
    from transforms.finalize.config import FinalizeSettings
    for bad in ("record", "Record Release", "1task", ""):
        with pytest.raises(ValueError):
            FinalizeSettings(lm_eval_task=bad)


def test_lm_eval_yaml_leaves_out_empty_splits():
    from transforms.finalize.exports.lm_eval_export import task_yaml
    text = task_yaml("t", {"train": 3, "dev": 0, "test": 2})
    assert "validation_split" not in text and "training_split: train" in text
    assert "test_split: test" in text and "task: t\n" in text


def test_explorer_sample_is_bounded_and_deterministic(release, tmp_path):
    from transforms.finalize.report.explorer import explorer_data
    data = explorer_data(str(release), str(release.parent), str(release.parent / "filtered"), 2, 1)
    assert all(len(q) <= 2 for q in data["queries"].values())
    for split, queries in data["queries"].items():
        ids = sorted(r["id"] for r in pq.read_table(sorted(release.glob(f"{split}-*.parquet"))).to_pylist())
        assert [q["id"] for q in queries] == ids[:2]
    reasons = {(g["stage"], g["reason"]): g for g in data["drops"]}
    assert reasons[("adversary", "answered_by_adversary")]["rows"][0]["record_id"] == ANSWERED_ID
    assert reasons[("sentence", "question")]["total"] == 1
    finalize_drops = pq.read_table(sorted((release / "rejected").glob("*.parquet"))).to_pylist()
    for row in finalize_drops:       # finalize's own drops (the duplicate query) are there too
        assert reasons[(row["stage"], row["reason"])]["total"] >= 1
    assert finalize_drops
    assert data["answered"][ANSWERED_ID]["prediction"] == PREDICTION
    again = explorer_data(str(release), str(release.parent), str(release.parent / "filtered"), 2, 1)
    assert again == data


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} not found: apt-get install chromium")
def test_explorer_shows_a_released_query_and_a_dropped_querys_reason(release):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    page_url = (release / "explorer" / "index.html").as_uri()
    dev = sorted(pq.read_table(sorted(release.glob("dev-*.parquet"))).to_pylist(), key=lambda r: r["id"])
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        outside, errors = [], []
        page.route("**/*", lambda route: (outside.append(route.request.url), route.abort())
                   if not route.request.url.startswith("file://") else route.continue_())
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(page_url)
        page.select_option("#split", "dev")
        assert page.locator(".query-item").count() == min(len(dev), 300)
        page.locator(f".query-item[data-id='{dev[0]['id']}']").click()
        assert page.locator("#query-text").inner_text() == dev[0]["query"]
        assert "null" not in page.locator("#detail").inner_text().split()
        answers = {a["text"] for a in dev[0]["answers"]}
        assert page.locator("#answers").inner_text() == " / ".join(sorted(answers, key=lambda t: [
            a["text"] for a in dev[0]["answers"]].index(t)))
        marked = page.locator("mark.answer").all_inner_texts()
        assert marked and set(marked) <= answers
        assert page.locator("mark.entity").count() > 0
        page.click("#tab-drops")
        page.select_option("#reason", "answered_by_adversary")
        page.locator(".drop-item").first.click()
        assert page.locator("#drop-reason").inner_text() == "answered_by_adversary"
        assert page.locator("#adversary-answer").inner_text() == PREDICTION
        page.select_option("#reason", "question")
        page.locator(".drop-item").first.click()
        assert "<b>harbour</b>" in page.locator("#detail").inner_text()   # text, not markup
        assert page.locator("#detail b").count() == 0
        page.screenshot(path=str(release.parent / "explorer.png"))
        browser.close()
    assert not errors and not outside


EMOJI = ("\U0001F600", "\U0001F30D", "\U0001F680", "\U0001D400")   # astral: 2 UTF-16 units


def with_emoji(row: dict, n: int) -> dict:
    """`row` with an astral character after every ". " of its passage (and one first), its
    spans moved to match: real text reshaped, as a passage with emoji arrives."""
    text, moved, out = row["passage"], [], []
    for i, ch in enumerate(text):
        if i == 0 or text[i - 2:i] == ". ":
            out.append(EMOJI[(n + len(out)) % len(EMOJI)])
        moved.append(len(out))
        out.append(ch)
    moved.append(len(out))
    new = "".join(out)

    def shift(spans):
        return [dict(s, start=moved[s["start"]], end=moved[s["end"] - 1] + 1) for s in spans]
    return dict(row, passage=new, entities=shift(row["entities"]), answers=shift(row["answers"]))


@pytest.mark.fast
def test_explorer_offsets_count_utf16_units():
    from transforms.finalize.report.explorer import utf16_offsets
    text = "a\U0001F600b\U0001F30Dc"
    at = utf16_offsets(text)
    assert [at(i) for i in range(len(text) + 1)] == [0, 1, 3, 4, 6, 7]
    assert utf16_offsets("plain")(4) == 4
    js = text.encode("utf-16-le")
    assert js[2 * at(2):2 * at(3)].decode("utf-16-le") == text[2:3] == "b"


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} not found: apt-get install chromium")
def test_explorer_marks_the_answers_after_emoji_in_chromium(record_format_dir, tmp_path):
    """Issue 28: with an emoji per passage every shown query marked the wrong text."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from tests.finalize.test_finalize import real_rows
    from transforms.core.schema import DATASET_SCHEMA
    from transforms.finalize.report.explorer import write_explorer
    rows = [dict(with_emoji(r, n), split="dev") for n, r in enumerate(real_rows(record_format_dir))]
    for r in rows:                                    # the reshaped rows still hold the contract
        assert all(r["passage"][s["start"]:s["end"]] == s["text"] for s in r["entities"] + r["answers"])
    assert sum(ord(c) > 0xFFFF for r in rows for c in r["passage"]) > 3 * len(rows)
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=DATASET_SCHEMA),
                   dataset / "dev-00000-of-00001.parquet")
    write_explorer(str(dataset), str(tmp_path), str(tmp_path / "filtered"), 300, 5)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto((dataset / "explorer" / "index.html").as_uri())
        wrong = []
        for row in rows:
            page.locator(f".query-item[data-id='{row['id']}']").click()
            answers = [a["text"] for a in row["answers"]]
            marked = page.locator("mark.answer").all_inner_texts()
            entities = page.locator("mark.entity").all_inner_texts()
            shown = page.locator("#answers").inner_text()
            if (not marked or not set(marked) <= set(answers)
                    or not set(entities) <= {e["text"] for e in row["entities"]}
                    or shown != " / ".join(dict.fromkeys(answers))):
                wrong.append((row["id"], marked, shown, answers))
        browser.close()
    assert not errors
    assert wrong == [], f"{len(wrong)} of {len(rows)} queries mark the wrong text: {wrong[:2]}"


# --- issue 28: the lm-eval task reads only the release it came with ---------------------------

def _utils(folder: pathlib.Path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"release_utils_{abs(hash(folder))}",
                                                  folder / "utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _refusal(folder: pathlib.Path) -> str:
    with pytest.raises(SystemExit) as stopped:
        _utils(folder).load_release()
    return str(stopped.value)


def test_lm_eval_refuses_foreign_extra_or_moved_shards_with_one_line(release, tmp_path):
    import shutil
    copy = shutil.copytree(release, tmp_path / "copy")
    (dev,) = copy.glob("dev-*.parquet")
    shutil.copy(dev, copy / "dev-00001-of-00001.parquet")          # an extra shard dropped in
    assert _refusal(copy / "lm_eval") == (f"error: {copy / 'dev-00001-of-00001.parquet'} is "
                                          "not a shard of this release (extra or foreign file)")
    (copy / "dev-00001-of-00001.parquet").unlink()
    moved = shutil.move(str(copy / "lm_eval"), str(tmp_path / "elsewhere"))
    assert _refusal(pathlib.Path(moved)).startswith(
        f"error: no readable _MANIFEST.json beside this lm_eval folder ({tmp_path})")
    # the folder copied beside another release (one with other shards)
    other = shutil.copytree(release, tmp_path / "other")
    shutil.copytree(moved, other / "lm_eval_a")
    assert "lm_eval_a/" in _refusal(other / "lm_eval_a")
    shutil.rmtree(other / "lm_eval")
    shutil.copytree(moved, other / "lm_eval")     # same bytes: this release's own task
    assert sorted(_utils(other / "lm_eval").load_release()) == ["test", "train", "validation"]
    tamper = sorted(other.glob("train-*.parquet"))[0]
    from tests.finalize.test_release import tamper_one_query
    tamper_one_query(tamper)
    assert _refusal(other / "lm_eval") == (f"error: {tamper} differs from the shard released "
                                           "with this task (sha256)")
    assert _refusal(REPO_TEMPLATES).startswith("error: ")          # the template itself


REPO_TEMPLATES = pathlib.Path(__file__).resolve().parents[2] / "transforms" / "finalize" / "exports" / "templates" / "lm_eval"


def test_lm_eval_through_the_harness_refuses_an_extra_shard(release, tmp_path):
    pytest.importorskip("lm_eval", reason="lm-eval is not installed")
    import shutil

    from lm_eval.tasks import TaskManager
    copy = shutil.copytree(release, tmp_path / "copy")
    (dev,) = copy.glob("dev-*.parquet")
    shutil.copy(dev, copy / "dev-00009-of-00010.parquet")
    manager = TaskManager(include_path=str(copy / "lm_eval"))
    with pytest.raises(SystemExit, match="is not a shard of this release"):
        manager.load("record_test_release")


def test_lm_eval_rows_without_answers_are_left_out_not_an_index_error(release):
    import datasets
    utils = _utils(release / "lm_eval")
    rows = pq.read_table(sorted(release.glob("dev-*.parquet"))).to_pylist()[:3]
    rows[1]["answers"] = []
    docs = utils.process_docs(datasets.Dataset.from_list(rows))
    assert len(docs) == 2 and all(d["answers"] for d in docs)
    empty = dict(docs[0], answers=[])
    assert utils.doc_to_target(empty).startswith("  - ")
    assert utils.process_results(empty, [(0.0, False)]) == {"f1": 0.0, "em": 0.0}
