"""Human validation stage: the page, the export (MTurk batch, Label Studio tasks, gold HITs),
and a round trip through a fabricated MTurk results CSV (paper section 3.4). The server is
tested in test_hv_server.py, ingest's defences in test_hv_ingest.py."""
import csv
import html
import html.parser
import json
import pathlib
import random
import re
import shutil
import subprocess
import sys
from xml.etree import ElementTree

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from beam_pipelines import human_validation as hv
from transforms.core.record_metric import normalize_answer
from transforms.core.schema import CANDIDATE_SCHEMA
from transforms.human_filtering import hits as H
from transforms.human_filtering import mturk

REPO = pathlib.Path(__file__).resolve().parents[2]


# --- real candidates --------------------------------------------------------------------

def write_record_candidates(record_format_dir: pathlib.Path, out_dir: pathlib.Path) -> list:
    """The real ReCoRD passages of the SuperGLUE sample as CANDIDATE_SCHEMA rows
    (inclusive ends made exclusive), written to out_dir/candidates-00000.parquet."""
    rows = []
    for split in ("train", "val"):
        for line in (record_format_dir / "superglue_jsonl" / f"{split}.jsonl").open():
            item = json.loads(line)
            text = item["passage"]["text"]
            pid = "%s-%d" % (split, item["idx"])
            ents = [{"start": e["start"], "end": e["end"] + 1,
                     "text": text[e["start"]:e["end"] + 1], "label": ""}
                    for e in item["passage"]["entities"]]
            for qa in item["qas"]:
                rows.append({
                    "id": "%s-%d" % (pid, qa["idx"]), "passage_id": pid, "article_id": pid,
                    "source": "dailymail", "origin": "public", "url": None, "passage": text,
                    "entities": ents, "query": qa["query"], "fold": 0,
                    "answers": [{"start": a["start"], "end": a["end"] + 1, "text": a["text"]}
                                for a in qa["answers"]]})
    out_dir.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=CANDIDATE_SCHEMA),
                   out_dir / "candidates-00000.parquet")
    return rows


@pytest.fixture(scope="module")
def record_candidates(tmp_path_factory, record_format_dir):
    out = tmp_path_factory.mktemp("record") / "candidates"
    return out, write_record_candidates(record_format_dir, out)


@pytest.fixture(scope="module")
def generated_candidates(tmp_path_factory, corpus_dir):
    """The generator's candidates from the 20 real CNN stories (about 10 s)."""
    out = tmp_path_factory.mktemp("generated")
    cmd = [sys.executable, "-m", "beam_pipelines.generate", "--workers", "1",
           "--input", str(corpus_dir / "cnn_stories" / "*.story"), "--output", str(out)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    table = pq.read_table(out / "candidates")
    assert table.num_rows >= 40, "too few real candidates for a round trip"
    return out / "candidates", table.to_pylist()


# --- the page ---------------------------------------------------------------------------

class _Spans(html.parser.HTMLParser):
    """Collects the clickable entity spans and the visible text of rendered HTML."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.spans, self.text, self.items, self._open = [], [], 0, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.items += tag == "li"
        if tag == "span" and attrs.get("class") == "entity":
            self._open = [int(attrs["data-start"]), int(attrs["data-end"]), ""]

    def handle_endtag(self, tag):
        if tag == "span" and self._open:
            self.spans.append(tuple(self._open))
            self._open = None

    def handle_data(self, data):
        self.text.append(data)
        if self._open:
            self._open[2] += data


def test_passage_html_makes_every_real_entity_clickable(record_candidates):
    _, rows = record_candidates
    for row in rows:
        parsed = _Spans()
        parsed.feed(H.render_passage_html(row["passage"], row["entities"]))
        spans = {(e["start"], e["end"], e["text"]) for e in row["entities"]}
        assert set(parsed.spans) == spans
        assert parsed.items == row["passage"].count(H.HIGHLIGHT)
        assert "".join(parsed.text) == row["passage"].replace(H.HIGHLIGHT, "")
        query = H.render_query_html(row["query"])
        assert query.count('class="placeholder"') == 1 and "@placeholder" in query


def test_markup_in_the_text_is_escaped_and_overlaps_are_skipped():
    passage = "<b>Smith</b> & Jones met Smith Jones\n@highlight\nJones ${won}"
    ents = [{"start": 3, "end": 8, "text": "Smith"}, {"start": 15, "end": 20, "text": "Jones"},
            {"start": 25, "end": 36, "text": "Smith Jones"},
            {"start": 31, "end": 36, "text": "Jones"},      # inside the previous mention
            {"start": 49, "end": 54, "text": "Jones"}]
    out = H.render_passage_html(passage, ents)
    assert "<b>" not in out and "&lt;b&gt;" in out and "&amp;" in out
    assert out.count('class="entity"') == 4
    assert H.substitute("x ${v} y", {"v": out}) == "x %s y" % out   # no second pass
    with pytest.raises(KeyError):
        H.substitute("${a} ${b}", {"a": 1})


def test_row_problems_are_reported():
    row = {"passage": "Ann met Bob.", "query": "@placeholder smiled.",
           "entities": [{"start": 0, "end": 3, "text": "Ann"},
                        {"start": 8, "end": 11, "text": "Bob"}],
           "answers": [{"start": 8, "end": 11, "text": "Bob"}]}
    assert H.row_problem(row) is None
    assert H.row_problem({**row, "query": "Bob smiled."}) == "placeholder_count"
    assert H.row_problem({**row, "answers": []}) == "no_answers"
    assert H.row_problem({**row, "answers": [{"start": 8, "end": 10, "text": "Bo"}]}) \
        == "answer_not_entity"
    assert H.row_problem({**row, "answers": [{"start": 7, "end": 10, "text": "Bob"}]}) \
        == "span_text_mismatch"


# --- export -----------------------------------------------------------------------------

def _read_csv(path):
    csv.field_size_limit(1 << 30)
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_export_writes_an_mturk_batch_and_a_self_contained_page(generated_candidates, tmp_path):
    cand_dir, rows = generated_candidates
    filtered = tmp_path / "filtered"          # the filter's layout: DIR/filtered/kept/*.parquet
    shutil.copytree(cand_dir, filtered / "kept")
    manifest = hv.run(["export", "--filtered", str(filtered), "--output",
                       str(tmp_path / "hits"), "--per-hit", "3"])
    assert manifest["queries"] == len(rows) and manifest["skipped"] == {}
    hits = _read_csv(tmp_path / "hits" / "hits.csv")
    assert len(hits) == -(-len(rows) // 3) == manifest["hits"]
    template = (tmp_path / "hits" / "mturk_template.html").read_text()
    assert H.template_variables(template) <= set(hits[0])       # MTurk needs every ${var}
    assert "reference_answers" not in template                  # answers never reach workers
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", template)  # no CDN
    assert template.count('class="task"') == 3
    by_id = {r["id"]: r for r in rows}
    exported = [h["query_id" + s] for h in hits for s in ("_1", "_2", "_3")]
    assert set(exported) == set(by_id)
    for hit in hits:
        for sfx in ("_1", "_2", "_3"):
            row = by_id[hit["query_id" + sfx]]
            refs = json.loads(hit["reference_answers" + sfx])
            assert [(a["start"], a["end"], a["text"]) for a in refs] == \
                [(a["start"], a["end"], a["text"]) for a in row["answers"]]
            assert html.unescape(re.sub("<[^>]+>", "", hit["passage_html" + sfx])) == \
                row["passage"].replace(H.HIGHLIGHT, "")
    preview = (tmp_path / "hits" / "preview.html").read_text()
    assert "${" not in preview and hits[0]["query_id_1"] in preview
    assert {h["gold"] for h in hits} == {"0"}                  # no gold unless asked
    # same input, same batch
    hv.run(["export", "--filtered", str(cand_dir), "--output", str(tmp_path / "again"),
            "--per-hit", "3"])
    assert (tmp_path / "again" / "hits.csv").read_bytes() == \
        (tmp_path / "hits" / "hits.csv").read_bytes()


def test_export_mixes_in_gold_hits_and_writes_label_studio_tasks(record_candidates, tmp_path):
    cand_dir, rows = record_candidates
    manifest = hv.run(["export", "--filtered", str(cand_dir), "--output",
                       str(tmp_path / "hits"), "--gold_share", "0.2"])
    hits = _read_csv(tmp_path / "hits" / "hits.csv")
    gold = [h["query_id"] for h in hits if h["gold"] == "1"]
    assert len(gold) == manifest["gold_queries"] == round(0.2 * len(rows)) == 2
    assert [h["gold"] for h in hits] == ["0"] * 9 + ["1"] * 2   # gold HITs of their own
    hv.run(["export", "--filtered", str(cand_dir), "--output", str(tmp_path / "again"),
            "--gold_share", "0.2"])
    assert (tmp_path / "again" / "hits.csv").read_bytes() == \
        (tmp_path / "hits" / "hits.csv").read_bytes()
    chosen = sorted(r["id"] for r in rows)[:3]
    (tmp_path / "gold.txt").write_text("\n".join(chosen) + "\n")
    hv.run(["export", "--filtered", str(cand_dir), "--output", str(tmp_path / "listed"),
            "--gold_ids", str(tmp_path / "gold.txt")])
    listed = _read_csv(tmp_path / "listed" / "hits.csv")
    assert sorted(h["query_id"] for h in listed if h["gold"] == "1") == chosen
    (tmp_path / "bad.txt").write_text("no-such-query\n")
    with pytest.raises(ValueError, match="not among the exported triples"):
        hv.run(["export", "--filtered", str(cand_dir), "--output", str(tmp_path / "x"),
                "--gold_ids", str(tmp_path / "bad.txt")])

    # Label Studio: one span-selection task per triple, the page's entities as predictions
    tasks = json.loads((tmp_path / "hits" / "labelstudio_tasks.json").read_text())
    by_id, hit_of = {r["id"]: r for r in rows}, {h["query_id"]: h for h in hits}
    assert sorted(t["data"]["query_id"] for t in tasks) == sorted(by_id)
    for t in tasks:
        row, hit = by_id[t["data"]["query_id"]], hit_of[t["data"]["query_id"]]
        assert (t["data"]["text"], t["data"]["query"]) == (row["passage"], row["query"])
        regions = [r["value"] for r in t["predictions"][0]["result"]]
        assert [(v["start"], v["end"], v["text"]) for v in regions] == \
            [(e["start"], e["end"], e["text"]) for e in clickable(hit)]
        assert all(v["labels"] == ["Entity"] and row["passage"][v["start"]:v["end"]] == v["text"]
                   for v in regions)
        assert set(t["data"]) == {"text", "query", "query_id", "hit_ref"}   # no answers, no gold
    config = ElementTree.fromstring((tmp_path / "hits" / "labelstudio_config.xml").read_text())
    labels = config.find("Labels")
    assert (labels.get("name"), labels.get("toName")) == ("answer", "text")
    assert {lab.get("value") for lab in labels} == {"Answer", "Entity"}


def test_the_page_only_knows_mturks_two_submit_hosts():
    template = H.page_template(1)
    assert all(host in template for host in mturk.SUBMIT_HOSTS)
    assert "turkSubmitTo" in template and "externalSubmit" in template


# --- round trip through a fabricated MTurk results CSV ----------------------------------

def clickable(hit, sfx=""):
    """The entities the HIT's page lets a worker click."""
    return [{"start": s, "end": e, "text": t}
            for (s, e), t in sorted(H.entity_spans(hit["passage_html" + sfx]).items())]


def _pick(row, hit, correct, rng):
    """A click: an answer mention when `correct`, else an entity that is no answer."""
    spans = {(a["start"], a["end"]) for a in row["answers"]}
    texts = {normalize_answer(a["text"]) for a in row["answers"]}
    ents = clickable(hit)
    if correct:
        right = [e for e in ents if (e["start"], e["end"]) in spans]
        return right[rng.randrange(len(right))] if right else None
    wrong = [e for e in ents
             if normalize_answer(e["text"]) not in texts and (e["start"], e["end"]) not in spans]
    return rng.choice(wrong) if wrong else None


def _fabricate_results(hits, by_id, path):
    """MTurk batch results for per_hit=1 HITs, listed HIT by HIT with interleaved submit
    times. Workers: honest1/honest2 take the first pass (about 80% right), honest3 a second
    pass on half the HITs (the dev/test candidates); `spammer` answers two thirds of the HITs
    at random, right one time in ten (random clicks among ~10 distinct entities);
    `clicker` clicks a uniformly random distinct entity on the other third; one assignment
    is rejected. Returns the truth: [(worker, hit_id, query_id, right)]."""
    rng = random.Random(13)
    out, truth = [], []
    for i, hit in enumerate(hits):
        row, hit_id = by_id[hit["query_id"]], "HIT%04d" % i
        plan = [("honest%d" % (i % 2 + 1), i % 5 != 0)]
        if i % 2 == 0:
            plan.append(("honest3", i % 3 != 0))
        if i % 3:
            plan.append(("spammer", len([t for t in truth if t[0] == "spammer"]) % 10 == 0))
        for worker, right in plan:
            ent = _pick(row, hit, right, rng)
            if ent is not None:
                fb = "not obvious, I guessed" if i % 7 == 0 and worker == "honest1" else ""
                out.append((hit, hit_id, worker, "Approved", ent, fb))
                truth.append((worker, hit_id, hit["query_id"], right))
        if i % 3 == 0:
            ents = {normalize_answer(e["text"]): e for e in clickable(hit)}
            pick = rng.choice(sorted(ents))
            out.append((hit, hit_id, "clicker", "Submitted", ents[pick], ""))
            truth.append(("clicker", hit_id, hit["query_id"],
                          pick in {normalize_answer(a["text"]) for a in row["answers"]}))
        if i == 1:  # a rejected assignment never counts, even when right
            out.append((hit, hit_id, "rejected1", "Rejected", row["answers"][0], ""))
    records = []
    for n, (hit, hit_id, worker, status, ent, fb) in enumerate(out):
        second = n * 7919 % len(out)   # submissions interleave across HITs
        record = {"HITId": hit_id, "AssignmentId": "A%05d" % n, "WorkerId": worker,
                  "AssignmentStatus": status, "WorkTimeInSeconds": "42",
                  "SubmitTime": "Thu Oct 25 %02d:%02d:%02d PDT 2018" % (
                      8 + second // 3600, second // 60 % 60, second % 60)}
        record.update({"Input." + k: v for k, v in hit.items()})
        record.update({"Answer.query_id": hit["query_id"], "Answer.answer": ent["text"],
                       "Answer.answer_start": ent["start"], "Answer.answer_end": ent["end"],
                       "Answer.ambiguous": "on" if fb else "", "Answer.feedback": fb,
                       "Answer.time_spent_ms": "41000"})
        records.append(record)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    return truth


def _accuracy(truth, worker):
    mine = [t[3] for t in truth if t[0] == worker]
    return sum(mine) / len(mine)


def test_round_trip_blocks_the_spammer_and_keeps_the_right_triples(generated_candidates,
                                                                    tmp_path):
    cand_dir, rows = generated_candidates
    hv.run(["export", "--filtered", str(cand_dir), "--output", str(tmp_path / "hits")])
    hits = _read_csv(tmp_path / "hits" / "hits.csv")
    truth = _fabricate_results(hits, {r["id"]: r for r in rows}, tmp_path / "results.csv")
    summary = hv.run(["ingest", "--results", str(tmp_path / "results.csv"), "--hits",
                      str(tmp_path / "hits"), "--output", str(tmp_path / "validated"),
                      "--min-answers", "10"])
    out = tmp_path / "validated"
    workers = {w["worker_id"]: w for w in _read_csv(out / "workers.csv")}
    assert set(workers) == {"honest1", "honest2", "honest3", "spammer", "clicker"}
    for name, w in workers.items():
        assert float(w["accuracy"]) == round(_accuracy(truth, name), 4), name
    # uniformly random clicks score about 17% on these passages, close to the 20% bar:
    # the clicker is blocked exactly when its accuracy came out below it
    blocked = {"spammer"} | ({"clicker"} if _accuracy(truth, "clicker") < 0.2 else set())
    assert {w["worker_id"] for w in _read_csv(out / "block_workers.csv")} == blocked
    assert set(summary["blocked_workers"]) == blocked
    assert summary["rejected_assignments"] == 1
    republish = _read_csv(out / "republish_hits.csv")
    assert sorted((r["hit_id"], r["workers"]) for r in republish) == \
        sorted((t[1], t[0]) for t in truth if t[0] in blocked)

    verdicts = [json.loads(line) for line in (out / "validated.jsonl").open()]
    assert [v["id"] for v in verdicts] == sorted(r["id"] for r in rows)
    for v in verdicts:
        kept = [t[3] for t in truth if t[2] == v["id"] and t[0] not in blocked]
        n, c = len(kept), sum(kept)
        want = "dev_test" if c >= 2 and c == n else "train" if c >= 1 else "none"
        assert (v["n_answers"], v["n_correct"], v["valid_for"]) == (n, c, want), v["id"]
    assert {v["valid_for"] for v in verdicts} == {"train", "dev_test", "none"}
    ambiguous = [v for v in verdicts if v["ambiguous"]]
    assert ambiguous and all(v["feedback"] == ["not obvious, I guessed"] for v in ambiguous)
    assert summary["valid_for"] == {k: sum(v["valid_for"] == k for v in verdicts)
                                    for k in ("train", "dev_test", "none")}

    # checked every 40 submissions instead of once at the end: blocked at a checkpoint
    summary = hv.run(["ingest", "--results", str(tmp_path / "results.csv"), "--output",
                      str(tmp_path / "v40"), "--min-answers", "10", "--check-every", "40",
                      "--hits", str(tmp_path / "hits")])
    spam = {w["worker_id"]: w for w in _read_csv(tmp_path / "v40" / "workers.csv")}["spammer"]
    assert spam["blocked"] == "True" and int(spam["blocked_at_submission"]) % 40 == 0
    assert summary["checks"] == -(-summary["submissions"] // 40)

    # with too high a bar for blocking, nobody is blocked and every answer counts
    summary = hv.run(["ingest", "--results", str(tmp_path / "results.csv"), "--hits",
                      str(tmp_path / "hits"), "--output", str(tmp_path / "lenient"),
                      "--min-answers", "1000"])
    assert summary["blocked_workers"] == [] and summary["republish_hits"] == 0
    assert summary["submissions"] == len(truth)


def test_mturk_results_are_replayed_in_submit_time_order(tmp_path):
    assert mturk.submit_time("Thu Oct 25 07:22:41 PDT 2018") == 1540477361.0
    assert mturk.submit_time("Thu Oct 25 06:22:41 PST 2018") == 1540477361.0
    assert mturk.submit_time("") == 0.0
    refs = json.dumps([{"start": 0, "end": 3, "text": "Ann"}])
    rows = [("late", "Thu Oct 25 09:00:00 PDT 2018", "Ann"),
            ("early", "Thu Oct 25 08:00:00 PDT 2018", "Bob"),
            ("blank", "Thu Oct 25 08:30:00 PDT 2018", "")]
    with open(tmp_path / "r.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["HITId", "WorkerId", "AssignmentStatus", "SubmitTime", "Input.query_id",
                    "Input.reference_answers", "Answer.answer", "Answer.feedback"])
        for worker, when, answer in rows:
            w.writerow(["H1", worker, "Submitted", when, "q1", refs, answer, ""])
    subs, queries, counts = mturk.read_results(str(tmp_path / "r.csv"))
    assert [(s.worker_id, s.correct) for s in subs] == [("early", False), ("late", True)]
    assert queries == ["q1"] and counts["unanswered"] == 1


def test_flags_take_underscores_like_the_other_commands_and_dashes_still_work():
    parser = hv._parser()
    a = parser.parse_args(["ingest", "--results", "r.csv", "--output", "v",
                           "--min_answers", "5", "--check-every", "7", "--min_accuracy", "0.3",
                           "--min-gold-accuracy", "0.7"])
    assert (a.min_answers, a.check_every, a.min_accuracy) == (5, 7, 0.3)
    assert a.min_gold_accuracy == 0.7
    b = parser.parse_args(["export", "--filtered", "f", "--output", "h", "--per_hit", "2"])
    c = parser.parse_args(["export", "--filtered", "f", "--output", "h", "--per-hit", "2"])
    assert b.per_hit == c.per_hit == 2
