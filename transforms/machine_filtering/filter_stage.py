"""The adversarial_filter stage: every candidate scored by the reader of its own fold; the
queries it answers are dropped (paper section 3.3).

Writes DIR/filtered/{scored,kept,errors,rejected}/ and stats/adversarial_filter.json; the
funnel has one step, `adversary` (in: candidates, out: kept; rejected: answered by the
adversary, or failed to score), with `max_group` (the largest RunInference batch) and
`max_rows_in_memory`.

Failure policy (nothing is dropped silently): every fold model is loaded before the
pipeline starts, and one that does not load fails the stage with one line, before
anything is written; a candidate that fails to featurize or score is in scored/ (null
prediction) and in errors/ with its reason, and is counted; when the errors' share of
the candidates exceeds `max_error_share` (default 0) the stage fails, naming the first
error (smallest query id), and writes no manifest, so no later stage reads its output.
"""
import logging
import os

from transforms.core import io_utils, manifest
from transforms.core.funnel import Step
from transforms.core.stage import Runtime, StageFailed, run_pipeline
from transforms.machine_filtering.config import FilterConfig, parquet_pattern

log = logging.getLogger("adversarial_filter")
NAME = "adversarial_filter"
OUTPUTS = ("scored", "kept", "errors", "rejected", "stats")
STATS_FILE = "stats/adversarial_filter.json"
STEPS = (Step("adversary", "query"),)


def handler_device(device: str, hints: dict) -> str:
    """Beam's PyTorch handlers take 'GPU' or 'CPU' (GPU falls back to CPU when absent)."""
    if device == "auto":
        import torch
        return "GPU" if "accelerator" in hints or torch.cuda.is_available() else "CPU"
    return "GPU" if device.lower() in ("gpu", "cuda") else "CPU"


def graph(p, config: FilterConfig, metas: list, device: str, hints=None, check_files=True,
          first_in=None):
    import apache_beam as beam
    from transforms.core.accounting import COUNTS, REJECTED, WriteFunnel, accounted
    from transforms.core.schema import REJECTED_SCHEMA, ROW_GROUP, SCORED_SCHEMA
    from transforms.machine_filtering.balance import BalancePlan
    from transforms.machine_filtering.decide import Decide, meta
    from transforms.machine_filtering.scoring import (ERROR_SCHEMA, ScoreWithAdversary,
                                                      assign_fold)
    paths, k = config.paths, len(metas)
    rows = (p
            | "ReadCandidates" >> beam.io.ReadFromParquet(parquet_pattern(paths.candidates),
                                                          validate=check_files)
            | "AssignFold" >> beam.Map(assign_fold, k))
    scored, errors, batch_counts = rows | "AdversarialFilter" >> ScoreWithAdversary(
        paths.adversary, config.settings, metas, device, hints)
    plan = scored | "BalancePlan" >> BalancePlan(config.settings)
    untrained = untrained_folds(metas)
    decided = accounted(scored, "Decide", Decide(config.settings.balance_salt, untrained),
                        beam.pvalue.AsSingleton(plan))

    def write(pcoll, name, schema):
        pcoll | f"Write{name.capitalize()}" >> beam.io.WriteToParquet(
            io_utils.join(paths.output, name, name), schema=schema, file_name_suffix=".parquet",
            **ROW_GROUP)

    write(scored, "scored", SCORED_SCHEMA)
    write(decided.main, "kept", SCORED_SCHEMA)
    write(errors, "errors", ERROR_SCHEMA)
    write(decided[REJECTED], "rejected", REJECTED_SCHEMA)
    (decided[COUNTS], batch_counts) | "AllCounts" >> beam.Flatten() | "Funnel" >> WriteFunnel(
        io_utils.join(paths.output, STATS_FILE), STEPS, meta(metas, paths), summarise,
        first_in=first_in)
    return scored, errors


def summarise(accounts) -> dict:
    a = accounts["adversary"]
    balance = a["reasons"].get("dropped_for_balance", 0)
    dropped = a["reasons"].get("answered_by_adversary", 0) + balance
    errors = a["reasons"].get("scoring_error", 0)
    scored = a["out"] + dropped
    return {"in": a["in"], "scored": scored, "kept": a["out"], "dropped": dropped,
            "errors": errors, "drop_share": dropped / scored if scored else None,
            "readmitted": sum(v for k, v in a.items() if k.startswith("readmitted.")),
            "dropped_for_balance": balance,
            "most_frequent_share": shares(a),
            "max_rows_in_memory": a.get("max_rows_in_memory", 0),
            "max_group": {"batch": a.get("max_group", 0)}}


def shares(account: dict) -> dict:
    """Share of answers that are the passage's most frequent entity among the scored
    candidates, the dropped and the kept queries (`Decide`'s stratum counts)."""
    from models.hardness import MOST_FREQUENT, OTHER
    n = {(w, s): account.get(f"{w}.{s}", 0) for w in ("kept", "dropped")
         for s in (MOST_FREQUENT, OTHER)}

    def share(mf, other):
        return round(mf / (mf + other), 4) if mf + other else None
    return {"candidates": share(n["kept", MOST_FREQUENT] + n["dropped", MOST_FREQUENT],
                                n["kept", OTHER] + n["dropped", OTHER]),
            "dropped": share(n["dropped", MOST_FREQUENT], n["dropped", OTHER]),
            "kept": share(n["kept", MOST_FREQUENT], n["kept", OTHER])}


def untrained_folds(metas: list) -> frozenset:
    """Folds whose reader took no training step (train_folds warned of them): their
    answers drop nothing."""
    return frozenset(m["fold"] for m in metas if not (m.get("training") or {}).get("steps"))


def load_metas(adversary: str) -> list:
    """Every fold's metadata, or one line saying what is missing or broken."""
    from models.checkpoints import load_adversary
    try:
        return load_adversary(adversary)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise StageFailed(f"adversarial_filter: the adversary {adversary} is incomplete or "
                          f"damaged ({type(err).__name__}: {str(err)[:200]}); rerun "
                          "train_folds") from None


def check_models(adversary: str, metas: list) -> None:
    """Every fold's checkpoint loads into its reader, before any pipeline starts."""
    from models.checkpoints import fold_dir, load_fold_model
    for m in metas:
        path = io_utils.join(fold_dir(adversary, m["fold"]), m.get("checkpoint", "model.pt"))
        try:
            load_fold_model(adversary, m)
        except Exception as err:  # noqa: BLE001 - any load failure fails the stage
            detail = " ".join(str(err).split())[:200]
            raise StageFailed(f"adversarial_filter: fold {m['fold']} model {path} cannot be "
                              f"loaded ({type(err).__name__}: {detail}); rerun "
                              "train_folds") from None


def run(config: FilterConfig, runtime: Runtime = Runtime()) -> dict:
    """Check the input and the fold models, score, filter and write; returns the stats."""
    from transforms.core.preflight import InputError
    from transforms.core.progress import Display
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    paths, s = config.paths, config.settings
    problems = s.problems()
    if problems:
        raise InputError("adversarial_filter: " + "; ".join(problems))
    upstream = manifest.check(paths.candidates, "candidates")
    metas = load_metas(paths.adversary)
    check_models(paths.adversary, metas)
    hints = runtime.hints()
    device = handler_device(s.device, hints)
    log.info("adversarial_filter: %d-fold %s adversary on %s (%s) -> %s", len(metas),
             metas[0]["model"], paths.candidates, device, paths.output)
    display = Display(NAME, ("adversary", "queries", upstream["rows"]),
                      {"adversary": "kept"})
    seconds = run_pipeline(NAME, lambda p: graph(p, config, metas, device, hints,
                                                 first_in=upstream["rows"]),
                           runtime, display=display, size=upstream["rows"],
                           model=metas[0]["model"])
    stats = io_utils.read_json(io_utils.join(paths.output, STATS_FILE))
    t = stats["summary"]
    log.info("adversarial_filter: done in %.1f s; %d in, %d scored, %d kept, %d dropped "
             "(%.1f%%), %d errors; batches of at most %d queries", seconds, t["in"],
             t["scored"], t["kept"], t["dropped"], 100 * (t["drop_share"] or 0), t["errors"],
             t["max_group"]["batch"])
    if stats["gaps"]:
        raise StageFailed("adversarial_filter: " + "; ".join(stats["gaps"]))
    share = t["errors"] / t["in"] if t["in"] else 0.0
    if share > s.max_error_share:
        query_id, error = first_error(io_utils.join(paths.output, "errors"))
        raise StageFailed(f"adversarial_filter: {t['errors']} of {t['in']} candidates failed to "
                          f"score (share {share:.4f} > max_error_share {s.max_error_share}); "
                          f"first: {query_id}: {error}; all in "
                          f"{io_utils.join(paths.output, 'errors')}")
    for folder in OUTPUTS:
        manifest.write(io_utils.join(paths.output, folder))
    return stats


def first_error(folder: str) -> tuple:
    """(query id, reason) of the error row with the smallest id, read batch by batch."""
    import fsspec
    import pyarrow.parquet as pq
    best = None
    for url in io_utils.glob(io_utils.join(folder, "*.parquet")):
        with fsspec.open(url, "rb") as f:
            for batch in pq.ParquetFile(f).iter_batches(columns=["id", "error"]):
                for r in batch.to_pylist():
                    if best is None or (r["id"] or "") < (best[0] or ""):
                        best = (r["id"], " ".join(str(r["error"]).split())[:200])
    return best or ("?", "?")
