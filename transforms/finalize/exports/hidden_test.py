"""The hidden-test release (`--hide_test_answers`): the published test split carries no
answers; they go to a private file outside the released folder.

- `DIR/dataset/test-*.parquet`: every row with `answers` empty (the schema is unchanged,
  so `datasets.load_dataset(DIR/dataset)` still gives train / validation / test);
- `DIR/dataset/record/test.json`: no answers; `superglue/test.jsonl` never has them;
- `DIR/dataset-private/test.json` (`private_folder`): the test split in the official
  ReCoRD JSON layout WITH answers, and its `_MANIFEST.json`; `publish` uploads only
  `DIR/dataset`, and `evaluate --data DIR/dataset-private/test.json --predictions P`
  scores test predictions;
- the lm-evaluation-harness task leaves test out (it cannot be scored without answers).
Aggregate figures (Table 1, the hardness report) still cover test: they hold no answer.
"""
PRIVATE_SUFFIX = "-private"
PRIVATE_FILE = "test.json"


def private_folder(output: str) -> str:
    """Where a hidden-test release keeps its test answers: a sibling of the output."""
    return output.rstrip("/") + PRIVATE_SUFFIX


def public_row(row: dict) -> dict:
    """The row as the hidden-test release publishes it (test rows lose their answers)."""
    return dict(row, answers=[]) if row.get("split") == "test" else row


def row_problems(row: dict, problems) -> list:
    """validate's problems for a row of a hidden-test release's test split: no answers is
    expected there, an answer is a leak."""
    out = [p for p in problems if not p.endswith(": no answers")]
    if row.get("answers"):
        out.append(f"test row {row.get('id')!r} carries answers in a hidden-test release")
    return out


def hidden(stats: dict) -> bool:
    """Whether stats.json records a hidden-test release."""
    return bool(((stats.get("config") or {}).get("settings") or {}).get("hide_test_answers"))
