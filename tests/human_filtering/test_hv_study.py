"""A whole validation study, rehearsed with simulated workers (issue 27): the real pipeline
on the 20 real CNN stories (generate -> train_folds -> adversarial_filter), HITs exported,
the real server on 127.0.0.1, simulated workers of known accuracy answering over HTTP
(three per query: two decide, the third measures, as ReCoRD), ingest, finalize. The
human performance the release reports is checked against the simulator's truth.

The truth is a property of the population, not of a seed: the simulator runs with
`exact_accuracy` (simulate.ExactSchedule), so at every answer position round(p x N) of the
N exported queries are answered right, and p of each pattern of earlier answers. Human
filtering keeps queries by their two deciding answers (each pattern's third answers are
still right p of the time); dedupe and the split rules drop queries by their article and
verdict, never by a third answer. So the n released third answers deviate from p as a
draw without replacement from the N, sd at most sqrt(p(1-p)/n x (N-n)/(N-1)), while the
reported interval is the binomial one, +/- 1.96 sqrt(p(1-p)/n): the truth leaves it only
beyond 1.96 / sqrt((N-n)/(N-1)) sd (4 to 8 sd here), whatever the seed and whichever
queries upstream stages release (400 seeds: `test_the_exact_schedule_keeps_the_truth_in_
the_interval_for_any_seed`). With drawn answers (n coin flips) one seed in 20 fails, and
picking a seed that passes would prove nothing. What still fails: the figure must be
exactly the third answers' share (one scored on another answer or against other golds
differs), and the interval as wide as a binomial 95% one (a narrower one fails
`test_..._within_the_ci_of_the_truth` even where it still holds p)."""
import itertools
import json
import math
import os
import pathlib
import sqlite3
import subprocess
import sys
import urllib.request

import pyarrow.parquet as pq
import pytest

from beam_pipelines import evaluate, finalize
from beam_pipelines import human_validation as hv
from transforms.core.record_metric import normalize_answer
from transforms.finalize.report import human_performance as HP
from transforms.human_filtering import simulate, tokens
from transforms.human_filtering.app import ServeConfig
from transforms.human_filtering.fields import UserError
from transforms.human_filtering.server import Server

REPO = pathlib.Path(__file__).resolve().parents[2]
SPLITS = ("train", "dev", "test")
WORKERS = ["sim-%02d" % i for i in range(1, 7)]
SEED = 1                # any seed: the exact schedule makes the checks hold for every one


@pytest.fixture(scope="module")
def filtered(corpus_dir, tmp_path_factory):
    from beam_pipelines import adversarial_filter, generate, train_folds
    root = tmp_path_factory.mktemp("study")
    generate.run(["--input", str(corpus_dir / "cnn_stories" / "*.story"), "--output",
                  str(root), "--workers", "1"])
    train_folds.run(["--candidates", str(root / "candidates"), "--output",
                     str(root / "adversary"), "--workers", "1"])
    adversarial_filter.run(["--candidates", str(root / "candidates"), "--adversary",
                            str(root / "adversary"), "--output", str(root / "filtered"),
                            "--workers", "1"])
    return root


def run_study(root, out, accuracy, loop, finalize_flags=()):
    """export -> serve -> simulated workers -> ingest -> finalize; returns (truth, out)."""
    hv.run(["export", "--filtered", str(root / "filtered"), "--output", str(out / "hits")])
    db = str(out / "a.sqlite")
    cfg = ServeConfig(assignments=3, show_model_answer=loop)
    server = Server(str(out / "hits"), db, cfg=cfg).start()
    try:
        truth = simulate.run_study(server.url, str(out / "hits"),
                                   dict(tokens.add(db, WORKERS)),
                                   simulate.SimConfig(accuracy=accuracy, seed=SEED,
                                                      exact_accuracy=True))
    finally:
        server.stop()
    hv.run(["ingest", "--results", db, "--output", str(out / "validated")])
    finalize.run(["--filtered", str(root / "filtered"), "--run_dir", str(root), "--validated",
                  str(out / "validated"), "--output", str(out / "dataset"), "--workers", "1",
                  *finalize_flags])
    return truth, out


@pytest.fixture(scope="module")
def study90(filtered, tmp_path_factory):
    return run_study(filtered, tmp_path_factory.mktemp("s90"), 0.9, loop=True,
                     finalize_flags=("--no-hardness_reader",))


@pytest.fixture(scope="module")
def study60(filtered, tmp_path_factory):
    return run_study(filtered, tmp_path_factory.mktemp("s60"), 0.6, loop=False,
                     finalize_flags=("--no-hardness_reader",))


def released(dataset):
    return {r["id"]: s for s in SPLITS for r in pq.read_table(
        sorted(dataset.glob(f"{s}-*.parquet")), columns=["id"]).to_pylist()}


def by_query(truth):
    out = {}
    for t in truth:                                   # posting order = submission order
        out.setdefault(t["query_id"], []).append(t)
    return out


def human(out):
    return json.loads((out / "dataset" / "stats.json").read_text())["human_performance"]


@pytest.mark.parametrize("accuracy", [0.9, 0.6])
def test_reported_human_em_lands_within_the_ci_of_the_truth(accuracy, study90, study60):
    truth, out = study90 if accuracy == 0.9 else study60
    h, split_of, answers = human(out), released(out / "dataset"), by_query(truth)
    assert h["measured"] and h["workers"] == len(WORKERS) and h["answers"] == len(truth)
    assert all(len(a) == 3 for a in answers.values())           # two decide, one measures
    for split in SPLITS + ("overall",):
        mine = [q for q, s in split_of.items() if split in (s, "overall")]
        got = h["splits"][split]["released"]
        assert got["queries"] == got["n"] == len(mine)
        if mine:       # exactly the third answers of the released queries, scored
            third = [answers[q][2]["right"] for q in mine]
            assert got["exact_match"] == round(100 * sum(third) / len(third), 2)
    # the truth is the population's: at each answer position, round(p x N) right
    for k in range(3):
        got = sum(a[k]["right"] for a in answers.values())
        assert abs(got - accuracy * len(answers)) < 1, (k, got, len(answers))
    overall = h["splits"]["overall"]
    lo, hi = overall["released"]["exact_match_ci"]
    assert lo <= 100 * accuracy <= hi                            # the truth, in the CI
    assert not lo <= 100 * (1.5 - accuracy) <= hi                # and the other one not
    # ... and the interval is as wide as n answers allow: a 95% binomial interval
    n, em = overall["released"]["n"], overall["released"]["exact_match"] / 100
    binomial = 100 * 1.96 * math.sqrt(em * (1 - em) / n)
    assert 0.75 <= (hi - lo) / 2 / binomial <= 1.33, (lo, hi, binomial)
    first = [a[0]["right"] for a in answers.values()]           # before human filtering
    assert overall["validated"]["exact_match"] == round(100 * sum(first) / len(first), 2)
    assert overall["validated"]["n"] == len(answers) and overall["validated"]["workers"] == 6
    pairs = [(x, y) for a in answers.values() for i, x in enumerate(a) for y in a[i + 1:]]
    same = sum((x["right"] and y["right"]) or
               normalize_answer(x["answer"]) == normalize_answer(y["answer"]) for x, y in pairs)
    assert overall["agreement"]["pairs"] == len(pairs)
    assert overall["agreement"]["share"] == round(same / len(pairs), 4)
    # dropped: both deciding answers wrong (verdict none), never released
    none = [q for q, a in answers.items() if not a[0]["right"] and not a[1]["right"]]
    assert overall["dropped"]["queries"] == len(none) and not set(none) & set(split_of)


def released_by(schedule, ids, rng):
    """The queries a study releases, as its stages choose them, none seeing a third answer:
    human filtering (a dev/test query needs both deciding answers right, a train query one;
    ~30% of the queries in dev/test articles), then about 5% lost to dedupe and the
    split rules."""
    out = []
    for q in ids:
        first, second = schedule.right(0, q), schedule.right(1, q)
        if (first and second) or ((first or second) and rng.random() < 0.7):
            if rng.random() >= 0.05:
                out.append(q)
    return out


@pytest.mark.fast
@pytest.mark.parametrize("accuracy", [0.9, 0.6])
def test_the_exact_schedule_keeps_the_truth_in_the_interval_for_any_seed(accuracy):
    """Why the study test does not depend on its seed: over 400 seeds (and released
    subsets chosen as the stages choose them), the reported 95% interval of the third
    answers holds the truth every time with the exact schedule, and about 95% of the time
    with drawn answers (the interval's own coverage: one seed in 20 fails)."""
    import random
    ids = ["q%03d" % i for i in range(78)]                    # the study's 78 HIT queries
    exact = drawn = 0
    for seed in range(400):
        cfg = simulate.SimConfig(accuracy=accuracy, seed=seed, exact_accuracy=True)
        schedule = simulate.ExactSchedule(cfg, ids)
        for k in range(3):                    # exact over the population, even over prefixes
            rights = [schedule.right(k, q) for q in ids]
            rights = [r for _, r in sorted(zip((schedule.ranks[k][q] for q in ids), rights))]
            assert all(abs(sum(rights[:m]) - accuracy * m) < 1 for m in range(1, 79))
        for pattern in itertools.product((False, True), repeat=2):   # and per earlier answers
            mine = [schedule.right(2, q) for q in ids
                    if (schedule.right(0, q), schedule.right(1, q)) == pattern]
            assert abs(sum(mine) - accuracy * len(mine)) < 2
        rng = random.Random(seed)
        mine = released_by(schedule, ids, rng)
        got = HP.scores([(float(schedule.right(2, q)),) * 2 for q in mine], HP.HumanConfig())
        exact += got["exact_match_ci"][0] <= 100 * accuracy <= got["exact_match_ci"][1]
        coin = [(float(rng.random() < accuracy),) * 2 for _ in mine]
        got = HP.scores(coin, HP.HumanConfig())
        drawn += got["exact_match_ci"][0] <= 100 * accuracy <= got["exact_match_ci"][1]
    assert exact == 400
    assert 0.90 <= drawn / 400 <= 0.98


def test_the_card_stats_and_explorer_show_human_performance_per_split(study90):
    truth, out = study90
    dataset = out / "dataset"
    h, card = human(out), (dataset / "README.md").read_text()
    assert "## Human performance" in card and "**Which answers count**" in card
    assert "after the 2 answers that decided its verdict" in card
    for split in SPLITS:
        r = h["splits"][split]["released"]
        if r["n"]:
            assert f"| **Human performance** | {split} | {r['exact_match']:.1f} [" in card
            assert f"| {r['n']:,} of {r['queries']:,} | {r['workers']:,} |" in card
            assert r["exact_match_ci"][0] <= r["exact_match"] <= r["exact_match_ci"][1]
    assert "| ReCoRD human (Table 4) | dev | 91.28 | 91.64 |" in card
    assert "| ReCoRD | 244k |" in card and "### Human filtering (before release)" in card
    data = (dataset / "explorer" / "data.js").read_text()
    data = json.loads(data[data.index("=") + 1:].strip().rstrip(";"))
    assert data["human"]["summary"]["measured"]
    shown = [q["id"] for qs in data["queries"].values() for q in qs]
    assert sorted(data["human"]["answers"]) == sorted(shown)
    assert all(len(a) == 3 for a in data["human"]["answers"].values())
    assert not any(w in json.dumps(data["human"]) for w in WORKERS)   # no worker id released


def test_model_in_the_loop_end_to_end(study90):
    truth, out = study90
    judged = [t for t in truth if t["needs_more_than_model"] is not None]
    assert 0 < len(judged) < len(truth)                        # half of the HITs (share 0.5)
    with sqlite3.connect(out / "a.sqlite") as con:
        rows = con.execute("SELECT j.worker_id, j.query_id, j.needs_more, j.model_answer, "
                           "j.submitted_at >= a.submitted_at FROM judgements j JOIN "
                           "annotations a USING (worker_id, query_id)").fetchall()
    want = {(t["worker"], t["query_id"]): t for t in judged}
    assert {(w, q) for w, q, *_ in rows} == set(want)
    for w, q, needs_more, model, after in rows:
        assert after and bool(needs_more) == want[(w, q)]["needs_more_than_model"]
        assert model == want[(w, q)]["model_answer"]
    verdicts = {v["id"]: v for v in map(json.loads, open(out / "validated" / "validated.jsonl"))}
    for q, ts in by_query(judged).items():
        yes = sum(t["needs_more_than_model"] for t in ts)
        assert verdicts[q]["model_judgements"] == len(ts)
        assert verdicts[q]["needs_more_than_model"] == (2 * yes > len(ts))
    m = human(out)["model_in_the_loop"]
    flagged = sum(bool(v["needs_more_than_model"]) for v in verdicts.values())
    assert (m["judgements"], m["needs_more"]) == (len(judged), flagged)
    card = (out / "dataset" / "README.md").read_text()
    assert f"saw the adversary's answer {len(judged):,} times and judged {flagged:,} of " \
        f"{len(by_query(judged)):,} queries to need more than the model used" in card


def test_evaluate_scores_people_and_a_model_on_the_same_queries(study90):
    _, out = study90
    h = human(out)
    split = max(SPLITS, key=lambda s: h["splits"][s]["released"]["n"])
    data = str(out / "dataset" / "record" / f"{split}.json")
    got = evaluate.run(["--data", data, "--human", str(out / "validated"),
                        "--baseline", "most_frequent"])
    card = h["splits"][split]["released"]
    assert got["same_queries"] == got["human"]["n"] == got["model"]["n"] == card["n"]
    assert got["human"]["exact_match"] == card["exact_match"]
    assert got["human_minus_model"]["exact_match"] == pytest.approx(
        got["human"]["exact_match"] - got["model"]["exact_match"], abs=0.02)
    assert got["model_all_queries"]["total"] == got["queries"]
    raw = evaluate.run(["--data", data, "--human", str(out / "a.sqlite")])   # the results file
    assert raw["human"] == got["human"] and "model" not in raw
    done = subprocess.run([sys.executable, "-m", "beam_pipelines.evaluate", "--data", data,
                           "--human", str(out / "nothing.csv")], cwd=REPO, text=True,
                          capture_output=True, timeout=120)
    assert done.returncode != 0 and done.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "Traceback" not in done.stderr


def test_the_rehearsal_commands_serve_and_simulate(filtered, tmp_path):
    """The CLI path of docs/human_validation.md: `serve` in its own process, `simulate`
    against it (127.0.0.1 only)."""
    hits, db = tmp_path / "hits", tmp_path / "a.sqlite"
    hv.run(["export", "--filtered", str(filtered / "filtered"), "--output", str(hits),
            "--limit", "8"])
    proc = subprocess.Popen([sys.executable, "-m", "beam_pipelines.human_validation", "serve",
                             "--hits", str(hits), "--db", str(db), "--port", "0",
                             "--assignments", "2", "--show_model_answer"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    try:
        line = proc.stdout.readline()
        url = line.split(" on ", 1)[1].split("/ ", 1)[0]
        assert url.startswith("http://127.0.0.1:")
        with pytest.raises(UserError, match="only to a server on 127.0.0.1"):
            hv.run(["simulate", "--hits", str(hits), "--db", str(db), "--url",
                    "http://example.org:80"])
        truth = hv.run(["simulate", "--hits", str(hits), "--db", str(db), "--workers", "3",
                        "--accuracy", "0.6", "--truth", str(tmp_path / "truth.jsonl")])
        assert len(truth) == 16 and len((tmp_path / "truth.jsonl").read_text().splitlines()) == 16
        assert urllib.request.urlopen(url + "/", timeout=10).status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    again = hv.run(["ingest", "--results", str(db), "--output", str(tmp_path / "v")])
    assert again["submissions"] == 16 and again["heldout_answers"] == 0   # 2 per query
