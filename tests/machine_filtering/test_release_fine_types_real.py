"""The fine-type layer of `only_compatible_entity` on a real BBC News article
(../shared/corpus/bbc_news/sport/235.txt) tagged by the job's own spaCy pipeline."""
import pytest

from transforms.machine_filtering import fine_types
from transforms.machine_filtering.release_rules import check_row


def _row(passage: str, query: str, answer: str, nlp) -> dict:
    ents = [{"start": e.start_char, "end": e.end_char, "text": e.text, "label": e.label_}
            for e in nlp(passage).ents]
    return {"id": "p1-003-00", "passage_id": "p1", "article_id": "a1", "passage": passage,
            "query": query, "entities": ents,
            "answers": [{"start": e["start"], "end": e["end"], "text": e["text"]}
                        for e in ents if e["text"].removeprefix("The ") == answer]}


def test_only_newspaper_of_a_real_article(corpus_dir, annotator):
    path = corpus_dir / "bbc_news" / "sport" / "235.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent (real BBC News corpus)")
    text = path.read_text(encoding="utf-8", errors="replace")
    passage = text.split("\n\n")[2]        # "The pair's long-running row ... The Independent"
    assert "The Independent newspaper" in passage
    query = ("But later on Saturday, according to The @placeholder, Wenger spoke to a "
             "smaller group of reporters and expanded on his reaction.")
    row = _row(passage, query, "Independent", annotator.nlp)
    assert row["answers"], "spaCy no longer tags The Independent"
    labels = {e["label"] for e in row["entities"]}
    fine = fine_types.entity_fine_types(row)
    assert fine_types.NEWS in fine["@answer"]
    assert [k for k, v in fine.items() if fine_types.NEWS in v] == ["@answer"]
    why = check_row(row)
    assert why is not None and why.reason == "only_compatible_entity", (labels, why)
    assert "news_source" in why.detail
