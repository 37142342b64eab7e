"""ReCoRD-scale projection on Dataflow from a build_cost report (docs/scaling.md).

    python -m benchmarks.projection cpu.json [--articles 170000] [--workers 10]

Reads the CPU seconds per 1,000 articles of each stage from the largest in-process run of a
`benchmarks.build_cost --workers 1` report and prints, for the lexical adversary on CPU, the
transformer adversary on CPU and the transformer adversary on T4 GPUs: vCPU-hours, GPU-hours,
wall time and cost at the list prices below. Every assumption is a named constant here.
A projection, not a measurement.
"""
import argparse
import json
import pathlib

# Dataflow batch list prices, us-central1 (cloud.google.com/dataflow/pricing, 2024-2025)
VCPU_H, GB_H, SHUFFLE_GB, PD_GB_H, T4_H = 0.056, 0.003557, 0.011, 0.000054, 0.35
MACHINE_VCPU, MACHINE_GB, DISK_GB = 4, 15, 25          # n1-standard-4, default batch disk
RUNNER_OVERHEAD = 1.3      # portable-runner serialization and Dataflow shuffle encoding
UTILISATION = 0.7          # share of billed vCPU time doing work while a stage runs
STARTUP_H = 3.5 / 60       # a Dataflow job's start-up (VMs, containers), per stage
SHUFFLE_TOTAL_GB = 35      # articles ~6 KB x 3 shuffles, rows ~4 KB x ~10 (757k rows)
QUERIES_PER_ARTICLE = 4.45
FOLDS, TRAIN_SHARE = 5, 0.8
ABOVE_BUFFER = 1.6         # fold sides over the shuffle buffer re-read shards per epoch (4x: 1.58)
READER_CAP_CANDIDATES, READER_TEXTS, READER_S_PER_TEXT = 4000, 11, 0.010
# transformer adversary on CPU: benchmarks/adversary_training.py run B (1 thread)
TF_TRAIN_CPU_S, TF_SCORE_CPU_S, TF_FEATURIZE_CPU_S = 0.45, 0.11, 0.005
# transformer adversary on a T4 (projected from FLOPs, fp32): queries per second
T4_TRAIN_QPS, T4_SCORE_QPS = (130, 220), (400, 650)


def per_1k(report: dict) -> dict:
    runs = [r for r in report["runs"] if str(r["workers"]) == "1" and r["run"] != "sample"]
    run = max(runs, key=lambda r: r["rows"]["articles"])
    k = run["rows"]["articles"] / 1000
    out = {s["stage"]: s["cpu_s"] / k for s in run["stages"]}
    out["_run"] = run["run"]
    out["_reader_share"] = _reader_share(run)
    return out


def _reader_share(run) -> float:
    """The reader's share of finalize's step seconds (its CPU is not split by step)."""
    fin = next(s for s in run["stages"] if s["stage"] == "finalize")
    steps = fin["steps_s"]
    total = sum(steps.values())
    return steps.get("hardness_reader", 0.0) / total if total else 0.0


def project(rates: dict, articles: int = 170_000, workers: int = 10) -> dict:
    k = articles / 1000
    queries = articles * QUERIES_PER_ARTICLE
    fin = rates["finalize"] * (1 - rates["_reader_share"])
    cpu_h = {"generate": rates["generate"] * k / 3600,
             "train_folds": rates["train_folds"] * ABOVE_BUFFER * k / 3600,
             "adversarial_filter": rates["adversarial_filter"] * k / 3600,
             "finalize": (fin * k + READER_CAP_CANDIDATES * READER_TEXTS * READER_S_PER_TEXT)
             / 3600}
    vcpus = workers * MACHINE_VCPU

    def cpu_cost(work_h, n_vcpu):
        billed = work_h * RUNNER_OVERHEAD / UTILISATION + 4 * STARTUP_H * n_vcpu / 2
        mem = billed / MACHINE_VCPU * MACHINE_GB
        wall = work_h * RUNNER_OVERHEAD / (n_vcpu * UTILISATION) + 4 * STARTUP_H
        disk = billed / MACHINE_VCPU * DISK_GB
        return billed, wall, billed * VCPU_H + mem * GB_H + disk * PD_GB_H
    lexical_h = sum(cpu_h.values())
    billed, wall, cost = cpu_cost(lexical_h, vcpus)
    out = {"articles": articles, "candidates": round(queries), "rates_from": rates["_run"],
           "cpu_hours": {s: round(v, 2) for s, v in cpu_h.items()},
           "lexical": {"work_vcpu_h": round(lexical_h * RUNNER_OVERHEAD, 1),
                       "billed_vcpu_h": round(billed, 1), "workers": workers,
                       "wall_h": round(wall, 2),
                       "cost_usd": round(cost + SHUFFLE_TOTAL_GB * SHUFFLE_GB, 2)}}
    steps = FOLDS * TRAIN_SHARE * queries
    tf_h = (steps * TF_TRAIN_CPU_S + queries * (TF_SCORE_CPU_S + 2 * TF_FEATURIZE_CPU_S)) / 3600
    other_h = cpu_h["generate"] + cpu_h["finalize"]
    billed_tf = (tf_h + other_h * RUNNER_OVERHEAD / UTILISATION)
    out["transformer_cpu"] = {
        "work_vcpu_h": round(tf_h + other_h * RUNNER_OVERHEAD, 1),
        "cost_usd": round(billed_tf * (VCPU_H + MACHINE_GB / MACHINE_VCPU * GB_H)
                          + SHUFFLE_TOTAL_GB * SHUFFLE_GB, 2),
        "fold_training_h_one_thread": round(steps / FOLDS * TF_TRAIN_CPU_S / 3600, 1)}
    gpu = {}
    for name, i in (("fast", 1), ("slow", 0)):
        train_h = steps / T4_TRAIN_QPS[i] / 3600          # over 5 GPU workers, one per fold
        score_h = queries / T4_SCORE_QPS[i] / 3600
        gpu_h = train_h + score_h
        host = MACHINE_VCPU * VCPU_H + MACHINE_GB * GB_H
        b, w, c = cpu_cost(other_h + queries * 2 * TF_FEATURIZE_CPU_S / 3600, vcpus)
        gpu[name] = {"gpu_h": round(gpu_h, 1),
                     "wall_h": round(w + train_h / FOLDS + score_h / FOLDS + 2 * STARTUP_H, 2),
                     "cost_usd": round(c + gpu_h * (T4_H + host) + SHUFFLE_TOTAL_GB * SHUFFLE_GB,
                                       2)}
    out["transformer_t4"] = gpu
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("report")
    p.add_argument("--articles", type=int, default=170_000)
    p.add_argument("--workers", type=int, default=10)
    args = p.parse_args(argv)
    rates = per_1k(json.loads(pathlib.Path(args.report).read_text()))
    print(json.dumps({"cpu_s_per_1k_articles": {k: round(v, 1) for k, v in rates.items()
                                                if not k.startswith("_")},
                      "reader_share_of_finalize": round(rates["_reader_share"], 3),
                      **project(rates, args.articles, args.workers)}, indent=1))


if __name__ == "__main__":
    main()
