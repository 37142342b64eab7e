"""A paragraph break always ends a sentence (transforms/curation/boundaries.py `breaks`,
annotation.py `line_starts`): XSum's BBC text keeps one paragraph a line, and a quote's
closing mark then a new line ('... be here today."\\nMr Ebbers could face ...') is
missed by the splitter. Real BBC News text (../shared/corpus/bbc_news) reshaped into
that layout; Daily Mail / CNN text has no line break and is untouched."""
import json
import re

import pytest

from transforms.curation.annotation import line_starts
from transforms.curation.boundaries import fix_starts

QUOTE = ('"He\'s never told me he made an entry that wasn\'t right. If he had, we wouldn\'t '
         'be here today."')
NEXT = ("Mr Ebbers could face a jail sentence of up to 85 years if convicted of all the "
        "charges he is facing.")


def tokens(text):
    """(token, space after) pairs and each token's offset, as annotation.py gives them."""
    found = list(re.finditer(r"\w+(?:'\w+)?|[^\w\s]", text))
    pairs = [(m.group(), text[m.end():m.end() + 1].isspace()) for m in found]
    return pairs, [m.start() for m in found], [m.group() for m in found]


def sentences(text, proposed_after=".!?"):
    """The sentences fix_starts draws when the splitter cut only after an end mark that
    no quote follows (it misses '."\\nMr')."""
    pairs, idx, words = tokens(text)
    proposed = [i for i in range(1, len(pairs)) if pairs[i - 1][0] in proposed_after
                and pairs[i][0] != '"']
    starts = fix_starts(pairs, proposed, line_starts(text, idx, words))
    ends = starts[1:] + [len(pairs)]
    return [text[idx[s]:idx[e - 1] + len(words[e - 1])] for s, e in zip(starts, ends)]


@pytest.mark.fast
def test_a_closing_quote_then_a_line_break_ends_the_sentence():
    text = QUOTE + "\n" + NEXT
    assert sentences(text) == [
        '"He\'s never told me he made an entry that wasn\'t right.',
        'If he had, we wouldn\'t be here today."', NEXT]


@pytest.mark.fast
def test_without_the_break_the_splitters_miss_stands_as_before():
    # the same words on one line (a Daily Mail / CNN paragraph): no break, no new cut;
    # the rules alone do not cut before "Mr" (spaCy's own cut there is kept when it
    # proposes one)
    text = QUOTE + " " + NEXT
    pairs, idx, words = tokens(text)
    assert line_starts(text, idx, words) == []
    assert len(sentences(text)) == 2


@pytest.mark.fast
def test_line_starts_are_the_tokens_after_a_newline():
    text = "Numbers\nIs he worth 100m euros?\n\n  He said so."
    pairs, idx, words = tokens(text)
    assert [words[k] for k in line_starts(text, idx, words)] == ["Is", "He"]


@pytest.mark.fast
def test_a_break_inside_what_the_rules_would_join_still_cuts():
    # a line with no end mark (a sub-heading that cleaning kept) never runs into the next
    text = "The report made key recommendations\nA Scottish government spokeswoman said so."
    assert sentences(text) == ["The report made key recommendations",
                               "A Scottish government spokeswoman said so."]


@pytest.mark.fast
def test_no_sentence_of_real_bbc_text_laid_out_by_lines_crosses_a_line(corpus_dir):
    files = sorted((corpus_dir / "bbc_news" / "business").glob("*.txt"))[:80]
    crossing, lines_seen = [], 0
    for f in files:
        body = [ln.strip() for ln in f.read_text(encoding="latin-1").split("\n")[1:]
                if ln.strip()]
        text = "\n".join(body)
        lines_seen += len(body)
        crossing += [s for s in sentences(text) if "\n" in s]
    assert lines_seen > 300 and crossing == []


def test_the_annotator_ends_a_sentence_at_every_line_break(corpus_dir, annotator):
    """The real spaCy pipeline on BBC text in XSum's layout, and on Daily Mail text with
    no break: every sentence of the first stays in one line; the second is split as by
    fix_starts without breaks."""
    files = sorted((corpus_dir / "bbc_news" / "business").glob("*.txt"))[:30]
    texts = ["\n".join(ln.strip() for ln in f.read_text(encoding="latin-1").split("\n")[1:]
                       if ln.strip()) for f in files]
    docs = list(annotator.nlp.pipe(texts))
    from transforms.curation.annotation import _draft_from_doc
    for text, doc in zip(texts, docs):
        draft = _draft_from_doc(doc, annotator.config.entity_labels, text)
        assert all("\n" not in text[s:e] for s, e, *_ in draft.sentences)
    dm = [json.loads(line)["article"] for line in open(corpus_dir / "cnndm_test250.jsonl")][:20]
    assert all("\n" not in t for t in dm)
