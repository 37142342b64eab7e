"""The adversarial_filter stage: every candidate scored by the reader of its own fold; the
queries it answers are dropped (paper section 3.3).

Writes DIR/filtered/{scored,kept,errors,rejected}/ and stats/adversarial_filter.json; the
funnel has one step, `adversary` (in: candidates, out: kept; rejected: answered by the
adversary, or failed to score). A fold model that cannot be loaded, or more failures than
`max_error_share`, fail the stage: nothing is dropped silently.
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
    from transforms.core.schema import REJECTED_SCHEMA, SCORED_SCHEMA
    from transforms.machine_filtering.decide import Decide, meta
    from transforms.machine_filtering.scoring import (ERROR_SCHEMA, ScoreWithAdversary,
                                                      assign_fold)
    paths, k = config.paths, len(metas)
    rows = (p
            | "ReadCandidates" >> beam.io.ReadFromParquet(parquet_pattern(paths.candidates),
                                                          validate=check_files)
            | "AssignFold" >> beam.Map(assign_fold, k))
    scored, errors = rows | "AdversarialFilter" >> ScoreWithAdversary(
        paths.adversary, config.settings, metas, device, hints)
    decided = accounted(scored, "Decide", Decide())

    def write(pcoll, name, schema):
        pcoll | f"Write{name.capitalize()}" >> beam.io.WriteToParquet(
            io_utils.join(paths.output, name, name), schema=schema, file_name_suffix=".parquet")

    write(scored, "scored", SCORED_SCHEMA)
    write(decided.main, "kept", SCORED_SCHEMA)
    write(errors, "errors", ERROR_SCHEMA)
    write(decided[REJECTED], "rejected", REJECTED_SCHEMA)
    decided[COUNTS] | "Funnel" >> WriteFunnel(
        io_utils.join(paths.output, STATS_FILE), STEPS, meta(metas, paths), summarise,
        first_in=first_in)
    return scored, errors


def summarise(accounts) -> dict:
    a = accounts["adversary"]
    dropped = a["reasons"].get("answered_by_adversary", 0)
    errors = a["reasons"].get("scoring_error", 0)
    scored = a["out"] + dropped
    return {"in": a["in"], "scored": scored, "kept": a["out"], "dropped": dropped,
            "errors": errors, "drop_share": dropped / scored if scored else None}


def check_models(adversary: str, metas: list) -> None:
    """Every fold's checkpoint loads, before any pipeline starts."""
    import torch
    from models.checkpoints import fold_dir
    for m in metas:
        path = io_utils.join(fold_dir(adversary, m["fold"]), m["checkpoint"])
        try:
            import fsspec
            with fsspec.open(path, "rb") as f:
                torch.load(f, map_location="cpu")
        except Exception as err:  # noqa: BLE001 - any load failure fails the stage
            raise StageFailed(f"adversarial_filter: fold {m['fold']} model {path} cannot be "
                              f"loaded ({type(err).__name__}: {str(err)[:200]}); rerun "
                              "train_folds") from None


def run(config: FilterConfig, runtime: Runtime = Runtime()) -> dict:
    """Check the input and the fold models, score, filter and write; returns the stats."""
    from models.checkpoints import load_adversary
    from transforms.core.progress import Display
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    paths = config.paths
    upstream = manifest.check(paths.candidates, "candidates")
    metas = load_adversary(paths.adversary)
    check_models(paths.adversary, metas)
    hints = runtime.hints()
    device = handler_device(config.settings.device, hints)
    log.info("adversarial_filter: %d-fold %s adversary on %s (%s) -> %s", len(metas),
             metas[0]["model"], paths.candidates, device, paths.output)
    display = Display(NAME, ("adversary", "queries", upstream["rows"]),
                      {"adversary": "kept"})
    seconds = run_pipeline(NAME, lambda p: graph(p, config, metas, device, hints,
                                                 first_in=upstream["rows"]),
                           runtime, display=display)
    for folder in OUTPUTS:
        manifest.write(io_utils.join(paths.output, folder))
    stats = io_utils.read_json(io_utils.join(paths.output, STATS_FILE))
    t = stats["summary"]
    log.info("adversarial_filter: done in %.1f s; %d in, %d scored, %d kept, %d dropped "
             "(%.1f%%), %d errors", seconds, t["in"], t["scored"], t["kept"], t["dropped"],
             100 * (t["drop_share"] or 0), t["errors"])
    if stats["gaps"]:
        raise StageFailed("adversarial_filter: " + "; ".join(stats["gaps"]))
    share = t["errors"] / t["in"] if t["in"] else 0.0
    if share > config.settings.max_error_share:
        first = _first_error(paths.output)
        raise StageFailed(f"adversarial_filter: {t['errors']} of {t['in']} candidates failed to "
                          f"score (share {share:.3f} > max_error_share "
                          f"{config.settings.max_error_share}); first: {first}; see "
                          f"{io_utils.join(paths.output, 'errors')}")
    return stats


def _first_error(output: str) -> str:
    try:
        table = io_utils.read_parquet(io_utils.join(output, "errors", "*.parquet"))
        errors = sorted(table.column("error").to_pylist())
        return errors[0][:200] if errors else "?"
    except Exception:  # noqa: BLE001
        return "?"
