"""The adversarial_filter stage: every candidate scored by the reader of its own fold
and/or by AFLite (`adversary_kind`: kfold, aflite, kfold+aflite, the default); the
queries an adversary answers are dropped and never kept (paper section 3.3; the drop
sampler, last, only drops, unless `balance` readmit is asked for).

Writes DIR/filtered/{scored,kept,errors,rejected}/ and stats/adversarial_filter.json; the
funnel has three steps: `adversary` (in: candidates, out: the queries it leaves; rejected:
answered by the adversary, or failed to score, and with `balance` readmit dropped for
balance), with `max_group` (the largest RunInference batch) and `max_rows_in_memory`;
`release` (in: the adversary's out; rejected: the release rules of `release_rules.py`, by
reason); then `balance` (in: the release's out, out: kept; rejected: `dropped_for_balance`
by the drop sampler, `balance` drop, so the kept most-frequent share is in its window;
with readmit or none it passes everything on).

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
STEPS = (Step("adversary", "query"), Step("release", "query"), Step("balance", "query"))


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
    from transforms.machine_filtering.balance import BalancePlan, step_mode
    from transforms.machine_filtering.decide import Balance, Decide, meta
    from transforms.machine_filtering.release import release_step
    from transforms.machine_filtering.scoring import ERROR_SCHEMA, assign_fold
    paths, k = config.paths, len(metas)
    rows = p | "ReadCandidates" >> beam.io.ReadFromParquet(parquet_pattern(paths.candidates),
                                                          validate=check_files)
    if k:      # the fold of the k-fold readers; without them, the generate job's column
        rows = rows | "AssignFold" >> beam.Map(assign_fold, k)
    scored, errors, batch_counts = adversaries(rows, config, metas, device, hints)
    s = config.settings
    plan = scored | "BalancePlan" >> BalancePlan(s, step_mode(s, "adversary"))
    untrained = untrained_folds(metas)
    decided = accounted(scored, "Decide", Decide(s.balance_salt, untrained),
                        beam.pvalue.AsSingleton(plan))
    released = release_step(decided.main, s.release)
    # the drop sampler last, on what the release rules keep (balance.py)
    last_plan = released.main | "DropSamplerPlan" >> BalancePlan(
        s, step_mode(s, "balance"), all_kept=True)
    balanced = accounted(released.main, "DropSampler", Balance(s.balance_salt),
                         beam.pvalue.AsSingleton(last_plan))

    def write(pcoll, name, schema):
        pcoll | f"Write{name.capitalize()}" >> beam.io.WriteToParquet(
            io_utils.join(paths.output, name, name), schema=schema, file_name_suffix=".parquet",
            **ROW_GROUP)

    write(scored, "scored", SCORED_SCHEMA)
    write(balanced.main, "kept", SCORED_SCHEMA)
    write(errors, "errors", ERROR_SCHEMA)
    write((decided[REJECTED], released[REJECTED], balanced[REJECTED])
          | "AllRejected" >> beam.Flatten(), "rejected", REJECTED_SCHEMA)
    ((decided[COUNTS], released[COUNTS], balanced[COUNTS], batch_counts)
     | "AllCounts" >> beam.Flatten()
     | "Funnel" >> WriteFunnel(
        io_utils.join(paths.output, STATS_FILE), STEPS, meta(metas, paths, config.settings), summarise,
        first_in=first_in))
    return scored, errors


def adversaries(rows, config: FilterConfig, metas: list, device: str, hints=None):
    """(scored rows, error rows, counts): the k-fold readers' verdicts (RunInference),
    AFLite's, or both merged (`adversary` setting: a query is answered when either
    answers it)."""
    import apache_beam as beam

    from transforms.machine_filtering.scoring import (
        ScoreWithAdversary,
        error_row,
        unscored_row,
    )
    s, parts_errors, parts_counts = config.settings, [], []
    scored = rows
    if s.uses_kfold():
        scored, errors, counts = rows | "AdversarialFilter" >> ScoreWithAdversary(
            config.paths.adversary, s, metas, device, hints)
        parts_errors.append(errors)
        parts_counts.append(counts)
    if s.uses_aflite():
        from transforms.machine_filtering.aflite import AfliteVerdicts, store_folder
        verdicts, failures, counts = scored | "AFLite" >> AfliteVerdicts(
            s.aflite(), store_folder(config.paths.output))
        unscored = failures | "AfliteUnscored" >> beam.Map(unscored_row)
        scored = (verdicts, unscored) | "AfliteScored" >> beam.Flatten()
        parts_errors.append(failures | "AfliteErrorRows" >> beam.Map(error_row))
        parts_counts.append(counts)
    return (scored, tuple(parts_errors) | "AllErrors" >> beam.Flatten(),
            tuple(parts_counts) | "AdversaryCounts" >> beam.Flatten())


def summarise(accounts) -> dict:
    """`kept`: the queries in kept/ (the balance step's out); `adversary_kept`: those the
    adversary left; `dropped`: those the adversary step dropped; `release`: what the
    release rules dropped, by reason; `dropped_for_balance`: the drop sampler's drops
    (the balance step's, or Decide's with `readmit`)."""
    a = accounts["adversary"]
    r = accounts.get("release") or {"out": a["out"], "rejected": 0, "reasons": {}}
    b = accounts.get("balance") or {"out": r["out"], "rejected": 0, "reasons": {}}
    early = a["reasons"].get("dropped_for_balance", 0)
    balance = early + b["reasons"].get("dropped_for_balance", 0)
    dropped = a["reasons"].get("answered_by_adversary", 0) + early
    errors = a["reasons"].get("scoring_error", 0)
    scored = a["out"] + dropped
    readmitted = sum(v for k, v in a.items() if k.startswith("readmitted."))
    answered = a["reasons"].get("answered_by_adversary", 0) + readmitted
    return {"in": a["in"], "scored": scored, "dropped": dropped,
            "release_rejected": r["rejected"], "release_kept": r["out"], "kept": b["out"],
            "errors": errors,
            "drop_share": dropped / scored if scored else None, "adversary_kept": a["out"],
            "release": {"rejected": r["rejected"], "reasons": r["reasons"]},
            "answered": answered, "answered_share": answered / scored if scored else None,
            "readmitted": readmitted, "kept_answered": readmitted,
            "dropped_for_balance": balance,
            "balance_drop_share": balance / scored if scored else None,
            "most_frequent_share": shares(a, accounts.get("balance")),
            "max_rows_in_memory": a.get("max_rows_in_memory", 0),
            "max_group": {"batch": a.get("max_group", 0)}}


def release_reasons(summary: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in summary["release"]["reasons"].items()) or "none"


def shares(account: dict, balance=None) -> dict:
    """Share of answers that are the passage's most frequent entity among the scored
    candidates, the queries the adversary step dropped and left (`Decide`'s stratum
    counts), those the balance step dropped and the kept queries (its counts; without
    a balance account, what the adversary left)."""
    from models.hardness import MOST_FREQUENT as MF
    from models.hardness import OTHER
    n = {(w, s): account.get(f"{w}.{s}", 0) for w in ("kept", "dropped") for s in (MF, OTHER)}
    b = {(w, s): (balance or {}).get(f"{w}.{s}", 0) for w in ("kept", "dropped")
         for s in (MF, OTHER)}

    def share(mf, other):
        return round(mf / (mf + other), 4) if mf + other else None
    left = share(n["kept", MF], n["kept", OTHER])
    return {"candidates": share(n["kept", MF] + n["dropped", MF],
                                n["kept", OTHER] + n["dropped", OTHER]),
            "dropped": share(n["dropped", MF], n["dropped", OTHER]),
            "adversary_kept": left,
            "balance_dropped": share(b["dropped", MF], b["dropped", OTHER]),
            "kept": share(b["kept", MF], b["kept", OTHER]) if balance else left}


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
    metas = load_metas(paths.adversary) if s.uses_kfold() else []
    check_models(paths.adversary, metas)
    hints = runtime.hints()
    device = handler_device(s.device, hints)
    log.info("adversarial_filter: %s adversary (%s) on %s (%s) -> %s", s.adversary_kind,
             f"{len(metas)}-fold {metas[0]['model']}" if metas else "no fold readers",
             paths.candidates, device, paths.output)
    display = Display(NAME, ("adversary", "queries", upstream["rows"]),
                      {"adversary": "left by the adversary", "release": "left by the release "
                       "rules", "balance": "kept"})
    from transforms.machine_filtering.aflite import remove_store
    remove_store(paths.output)                # AFLite's feature store: never a previous run's
    try:
        seconds = run_pipeline(NAME, lambda p: graph(p, config, metas, device, hints,
                                                     first_in=upstream["rows"]),
                               runtime, display=display, size=upstream["rows"],
                               model=metas[0]["model"] if metas else "")
    finally:
        remove_store(paths.output)
    stats = io_utils.read_json(io_utils.join(paths.output, STATS_FILE))
    t = stats["summary"]
    log.info("adversarial_filter: done in %.1f s; %d in, %d scored, %d dropped by the "
             "adversary (%.1f%%), %d errors; release rules dropped %d of %d (%s); %d dropped "
             "for balance; %d kept; batches of at most %d queries", seconds, t["in"],
             t["scored"], t["dropped"], 100 * (t["drop_share"] or 0), t["errors"],
             t["release"]["rejected"], t["adversary_kept"], release_reasons(t),
             t["dropped_for_balance"], t["kept"], t["max_group"]["batch"])
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
