"""`export`: the kept triples as HITs for every route a research team uses.

    DIR/hits/hits.csv                MTurk batch input (also what `serve` serves)
    DIR/hits/mturk_template.html     the HIT page (MTurk layout, `${var}` placeholders)
    DIR/hits/preview.html            the first HIT rendered
    DIR/hits/labelstudio_tasks.json  Label Studio span-selection tasks
    DIR/hits/labelstudio_config.xml  the Label Studio labeling config
    DIR/hits/manifest.json           counts, gold share, Prolific completion code
    DIR/hits/model_answers.json      the adversary's answer per query (serve --show_model_answer)

Gold questions: a share of the triples (or the ids listed in a file) become gold HITs of
their own, marked `gold` = 1 in hits.csv; their reference answers are taken as known.
"""
import json
import logging

import fsspec

from transforms.core import io_utils
from transforms.core.hashing import stable_hash
from transforms.human_filtering import hits as H
from transforms.human_filtering import labelstudio, model_loop, mturk, prolific
from transforms.human_filtering.fields import UserError

LOG = logging.getLogger(__name__)
_COLUMNS = ["id", "passage_id", "passage", "entities", "query", "answers"]


def _input_pattern(filtered: str) -> str:
    kept = io_utils.join(filtered, "kept", "*.parquet")
    return kept if io_utils.glob(kept) else io_utils.join(filtered, "*.parquet")


def _gold_ids(rows, share: float, gold_file: str | None) -> set:
    if gold_file:
        with fsspec.open(gold_file, "r", encoding="utf-8") as f:
            wanted = {line.strip() for line in f if line.strip()}
        ids = {r["id"] for r in rows}
        missing = sorted(wanted - ids)
        if missing:
            raise UserError("%d gold id(s) are not among the exported triples, e.g. %s"
                            % (len(missing), missing[0]))
        return wanted
    if not 0.0 <= share < 1.0:
        raise UserError("--gold_share must be in [0, 1), got %s" % share)
    ranked = sorted((stable_hash(r["id"], salt="gold"), r["id"]) for r in rows)
    return {qid for _, qid in ranked[:round(share * len(rows))]}


def read_rows(filtered: str, limit: int | None = None) -> tuple:
    """(query rows that can become HITs, in a stable order; {skip reason: count})."""
    pattern = _input_pattern(filtered)
    if not io_utils.glob(pattern):
        raise FileNotFoundError("no triples to export: nothing matches %s" % pattern)
    rows, skipped, seen = [], {}, set()
    for row in io_utils.read_parquet(pattern, columns=_COLUMNS).to_pylist():
        problem = H.row_problem(row) or ("duplicate_id" if row["id"] in seen else None)
        if problem:
            skipped[problem] = skipped.get(problem, 0) + 1
            continue
        seen.add(row["id"])
        rows.append(row)
    rows.sort(key=lambda r: (stable_hash(r["id"], salt="hits"), r["id"]))
    return (rows[:limit] if limit else rows), skipped


def export(filtered: str, output: str, per_hit: int = 1, limit: int | None = None,
           gold_share: float = 0.0, gold_file: str | None = None,
           completion_code: str | None = None) -> dict:
    if per_hit < 1:
        raise UserError("--per_hit must be >= 1")
    completion_code = prolific.check_code(completion_code)
    rows, skipped = read_rows(filtered, limit)
    gold = _gold_ids(rows, gold_share, gold_file)
    hit_rows = list(H.hit_rows([r for r in rows if r["id"] not in gold], per_hit))
    hit_rows += H.hit_rows([r for r in rows if r["id"] in gold], per_hit, gold=True)
    template = H.page_template(per_hit)
    fs, root = fsspec.core.url_to_fs(output)
    fs.makedirs(root, exist_ok=True)
    mturk.write_batch(fs, io_utils.join(root, "hits.csv"), hit_rows, per_hit)
    with fs.open(io_utils.join(root, "mturk_template.html"), "w", encoding="utf-8") as f:
        f.write(template)
    if hit_rows:
        with fs.open(io_utils.join(root, "preview.html"), "w", encoding="utf-8") as f:
            f.write(H.substitute(template, hit_rows[0]))
    hit_of = {h["query_id" + s]: h["hit_ref"] for h in hit_rows for s in H.slot_suffixes(per_hit)}
    with fs.open(io_utils.join(root, "labelstudio_tasks.json"), "w", encoding="utf-8") as f:
        json.dump([labelstudio.task(r, hit_of[r["id"]]) for r in rows], f, ensure_ascii=False)
    with fs.open(io_utils.join(root, "labelstudio_config.xml"), "w", encoding="utf-8") as f:
        f.write(labelstudio.CONFIG)
    answers = model_loop.model_answers(_input_pattern(filtered), hit_of)   # serve's option
    model_loop.write_model_answers(fs, root, answers)
    manifest = {"input": _input_pattern(filtered), "per_hit": per_hit, "hits": len(hit_rows),
                "gold_hits": sum(h["gold"] == "1" for h in hit_rows), "queries": len(rows),
                "gold_queries": len(gold), "gold_share": gold_share, "skipped": skipped,
                "prolific_completion_code": completion_code, "model_answers": len(answers),
                "template_variables": sorted(H.template_variables(template))}
    io_utils.write_json(io_utils.join(output, "manifest.json"), manifest)
    LOG.info("exported %d queries in %d HITs (%d gold) to %s (skipped %s)", len(rows),
             len(hit_rows), manifest["gold_hits"], output, skipped)
    return manifest


def read_hits(hits_dir: str) -> tuple:
    """(batch CSV rows, manifest, page template) of an export directory."""
    manifest_path = io_utils.join(hits_dir, "manifest.json")
    if not io_utils.glob(manifest_path):
        raise FileNotFoundError("no HIT export at %s (manifest.json missing): run "
                                "`human_validation export` first" % hits_dir)
    manifest = io_utils.read_json(manifest_path)
    rows = mturk.read_batch(io_utils.join(hits_dir, "hits.csv"))
    with fsspec.open(io_utils.join(hits_dir, "mturk_template.html"), "r",
                     encoding="utf-8") as f:
        template = f.read()
    return rows, manifest, template


def hits_index(hits_dir: str) -> dict:
    """{query_id: (hit_ref, reference_answers, clickable spans, gold)} of an export."""
    rows, manifest, _ = read_hits(hits_dir)
    out = {}
    for row in rows:
        for sfx in H.slot_suffixes(manifest["per_hit"]):
            out.setdefault(row["query_id" + sfx], (
                row["hit_ref"], json.loads(row["reference_answers" + sfx]),
                H.entity_spans(row["passage_html" + sfx]), row.get("gold") == "1"))
    return out
