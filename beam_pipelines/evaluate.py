"""Score predictions with the official ReCoRD metric (paper section 5.3).

    python -m beam_pipelines.evaluate --data DIR/dataset/record/dev.json --predictions PREDS.json
    python -m beam_pipelines.evaluate --data DIR/dataset/record/test.json --baseline random
    python -m beam_pipelines.evaluate --data DIR/dataset/record/dev.json --human DIR/validated \
        [--predictions PREDS.json | --baseline most_frequent]

Predictions are `{query_id: answer_text}`. `--data` may also be a SuperGLUE ReCoRD
`.jsonl` file, whose query ids are the `qas` `idx` values as strings. Prints one JSON
object: exact_match and f1 (x100), total, answered. A baseline's name means what it means
on the dataset card and in stats.json (models/baseline_catalog.py). A hidden-test release
has no test answers in `record/test.json`: score test predictions against the private
answer file finalize wrote beside the dataset (`DIR/dataset-private/test.json`). With `--human` (the validation answers:
DIR/validated, or a results file `human_validation ingest` reads) people and the model are
scored on the same queries, those with a human answer: `human`, `model` and their paired
difference, each with a 95% bootstrap CI (transforms/finalize/report/human_performance.compare).
"""
import json
import logging
import sys

import fsspec

from models.baseline_catalog import CATALOG, EVALUATE
from transforms.core import record_metric, safejson

BASELINES = EVALUATE


def read_entries(path: str) -> list:
    """The passages of an official ReCoRD JSON file, or SuperGLUE lines with their query
    ids (`qas` `idx` as strings), in one shape: [{passage, qas: [{id, answers}]}]."""
    with fsspec.open(path, "r", encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".jsonl"):
        lines = [safejson.loads(line) for line in text.splitlines() if line.strip()]
        return [dict(line, qas=[dict(qa, id=str(qa["idx"])) for qa in line["qas"]])
                for line in lines]
    obj = safejson.loads(text)
    if obj.get("version") != "1.0":
        logging.warning("expected ReCoRD JSON version 1.0, got %r", obj.get("version"))
    return obj["data"]


def load_data(path: str):
    """(gold, candidates) from an official ReCoRD JSON or SuperGLUE jsonl file."""
    entries = read_entries(path)
    obj = {"data": entries}
    return record_metric.gold_from_record_json(obj), record_metric.candidates_from_record_json(obj)


def most_frequent_predictions(entries: list) -> dict:
    """`most_frequent` (models.hardness.most_frequent_entity, as the hardness report and
    the card score it): one prediction per passage, for each of its queries."""
    from models.hardness import most_frequent_entity
    out = {}
    for entry in entries:
        text = entry["passage"]["text"]
        ents = [{"start": e["start"], "end": e["end"] + 1,
                 "text": text[e["start"]:e["end"] + 1], "label": ""}
                for e in entry["passage"]["entities"]]
        if not ents:
            continue
        prediction = most_frequent_entity({"passage": text, "entities": ents})
        for qa in entry["qas"]:
            out[qa["id"]] = prediction
    return out


def load_predictions(path: str) -> dict:
    with fsspec.open(path, "r", encoding="utf-8") as f:
        preds = safejson.load(f)
    if not isinstance(preds, dict) or not all(isinstance(v, str) for v in preds.values()):
        raise ValueError(f"{path}: predictions must be a JSON object {{query_id: answer_text}}")
    return preds


def baseline_predictions(name: str, candidates: dict, seed: int, entries=None) -> dict:
    if name == "random":
        return record_metric.random_entity_predictions(candidates, seed=seed)
    if name == "most_frequent":
        return most_frequent_predictions(entries)
    return record_metric.first_entity_predictions(candidates)


def _baseline_help() -> str:
    return "; ".join(f"{n}: {CATALOG[n].definition}" for n in EVALUATE).replace("%", "%%")


def run(argv=None) -> dict:
    from beam_pipelines.common import Parser
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="record/<split>.json (or SuperGLUE .jsonl)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--predictions", help="JSON {query_id: answer_text}")
    source.add_argument("--baseline", choices=BASELINES,
                        help="score a baseline instead (" + _baseline_help() + ")")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random baseline")
    parser.add_argument("--write_predictions", help="also write the scored predictions here")
    parser.add_argument("--human", help="score people too, on the same queries: DIR/validated "
                                        "(answers.jsonl) or a results file ingest reads")
    parser.add_argument("--human_answer", choices=("heldout", "first"), default="heldout",
                        help="a query's held-out answer (ReCoRD 5.2, default) or its first")
    parser.add_argument("--hits", help="DIR/hits, for a Label Studio export given to --human")
    args = parser.parse_args(argv)
    if not (args.predictions or args.baseline or args.human):
        parser.error("give --predictions, --baseline or --human")

    entries = read_entries(args.data)
    obj = {"data": entries}
    gold = record_metric.gold_from_record_json(obj)
    candidates = record_metric.candidates_from_record_json(obj)
    hidden = [qid for qid, golds in gold.items() if not golds]
    if hidden and len(hidden) == len(gold):
        raise ValueError(f"{args.data} holds no answers (a SuperGLUE test file, or the test "
                         "split of a hidden-test release): score against the private answer "
                         "file, e.g. --data DIR/dataset-private/test.json")
    predictions = None
    if args.predictions:
        predictions = load_predictions(args.predictions)
    elif args.baseline:
        predictions = baseline_predictions(args.baseline, candidates, args.seed, entries)
    if args.human:
        from transforms.finalize.report.human_performance import compare
        from transforms.human_filtering import answers
        result = compare(gold, answers.load(args.human, args.hits), predictions,
                         args.human_answer)
        if predictions is not None:
            result["model_all_queries"] = record_metric.evaluate(gold, predictions)
        return result
    missing = sum(1 for qid in gold if qid not in predictions)
    if missing:
        logging.warning("%d of %d queries have no prediction and score 0", missing, len(gold))
    result = record_metric.evaluate(gold, predictions)
    if args.baseline == "random":
        expected = record_metric.expected_random_scores(candidates, gold)
        result["expected_exact_match"] = expected["exact_match"]
        result["expected_f1"] = expected["f1"]
    if args.write_predictions:
        with fsspec.open(args.write_predictions, "w", encoding="utf-8") as f:
            json.dump(predictions, f, indent=1, sort_keys=True)
    return result


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    try:
        result = run()
    except (ValueError, KeyError, OSError, RecursionError) as e:   # bad input: one line
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(result, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
