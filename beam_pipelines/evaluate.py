"""Score predictions with the official ReCoRD metric (paper section 5.3).

    python -m beam_pipelines.evaluate --data DIR/dataset/record/dev.json --predictions PREDS.json
    python -m beam_pipelines.evaluate --data DIR/dataset/record/test.json --baseline random
    python -m beam_pipelines.evaluate --data DIR/dataset/record/dev.json --human DIR/validated \
        [--predictions PREDS.json | --baseline most_frequent]

Predictions are `{query_id: answer_text}`. `--data` may also be a SuperGLUE ReCoRD
`.jsonl` file, whose query ids are the `qas` `idx` values as strings. Prints one JSON
object: exact_match and f1 (x100), total, answered. With `--human` (the validation answers:
DIR/validated, or a results file `human_validation ingest` reads) people and the model are
scored on the same queries, those with a human answer: `human`, `model` and their paired
difference, each with a 95% bootstrap CI (transforms/finalize/human_performance.compare).
"""
import json
import logging
import sys

import fsspec

from transforms.core import safejson
from transforms.finalize import record_metric

BASELINES = ("random", "most_frequent", "first_entity")


def load_data(path: str):
    """(gold, candidates) from an official ReCoRD JSON or SuperGLUE jsonl file."""
    with fsspec.open(path, "r", encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".jsonl"):
        lines = [safejson.loads(line) for line in text.splitlines() if line.strip()]
        return record_metric.gold_from_superglue(lines), record_metric.candidates_from_superglue(lines)
    obj = safejson.loads(text)
    if obj.get("version") != "1.0":
        logging.warning("expected ReCoRD JSON version 1.0, got %r", obj.get("version"))
    return record_metric.gold_from_record_json(obj), record_metric.candidates_from_record_json(obj)


def load_predictions(path: str) -> dict:
    with fsspec.open(path, "r", encoding="utf-8") as f:
        preds = safejson.load(f)
    if not isinstance(preds, dict) or not all(isinstance(v, str) for v in preds.values()):
        raise ValueError(f"{path}: predictions must be a JSON object {{query_id: answer_text}}")
    return preds


def baseline_predictions(name: str, candidates: dict, seed: int) -> dict:
    if name == "random":
        return record_metric.random_entity_predictions(candidates, seed=seed)
    if name == "most_frequent":
        return record_metric.most_frequent_entity_predictions(candidates)
    return record_metric.first_entity_predictions(candidates)


def run(argv=None) -> dict:
    from beam_pipelines.common import Parser
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="record/<split>.json (or SuperGLUE .jsonl)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--predictions", help="JSON {query_id: answer_text}")
    source.add_argument("--baseline", choices=BASELINES, help="score a baseline instead")
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

    gold, candidates = load_data(args.data)
    predictions = None
    if args.predictions:
        predictions = load_predictions(args.predictions)
    elif args.baseline:
        predictions = baseline_predictions(args.baseline, candidates, args.seed)
    if args.human:
        from transforms.finalize.human_performance import compare
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
