"""Cloze query generation (paper section 3.2, step 4): one query per entity mention of a
kept sentence, the mention replaced by `@placeholder`; its answers are every passage
mention coreferent with it. A mention coreference found ambiguous (a surname two full
names of the article end with: "Jordan" beside "Frank Jordan" and "Louis Jordan") gives
no query (`ambiguous_name`): no answer set would be exactly its entity; nor does a
country's name whose passage writes only its demonym (`answer_form_not_in_passage`,
`form_in_answers`); nor does a demonym used as a person ("the Ukrainian broke again":
`person_demonym`) or a mention inside a longer name no mention covers ("Wales" in "BBC
Wales Scrum V": `inside_longer_name`), which are in no answer set either
(split_names.py). The mention rules are `QUERY_RULES` (the transforms/core/rules.py
convention)."""
from dataclasses import dataclass
from typing import NamedTuple

from transforms.core.config import setting
from transforms.core.constants import PLACEHOLDER
from transforms.core.hashing import fold_of
from transforms.core.rules import Rule, first_rejection
from transforms.curation.countries import country_form
from transforms.curation.fragments import glued_around
from transforms.curation.variants import is_ambiguous
from transforms.generation.passages import CandidateSentence, Entity, Passage

STAGE = "query"


@dataclass(frozen=True)
class QueryConfig:
    folds: int = setting(5, "k of the k-fold adversarial filter (fold = stable_hash("
                            "article_id) % k; paper: five-fold)")


def query_id(passage_id: str, sentence_index: int, mention_index: int) -> str:
    return f"{passage_id}-{sentence_index:03d}-{mention_index:02d}"


def make_query(text: str, start: int, end: int) -> str:
    return text[:start] + PLACEHOLDER + text[end:]


def answers_for(passage: Passage, cluster: str) -> list:
    spans = sorted({(e.start, e.end, e.text) for e in passage.entities
                    if e.cluster == cluster and not e.not_answer})
    return [{"start": s, "end": e, "text": t} for s, e, t in spans]


def passage_row(passage: Passage, config: QueryConfig) -> dict:
    """Columns shared by every query of the passage."""
    a = passage.article
    return {
        "passage_id": passage.passage_id, "article_id": a.article_id,
        "source": a.source or "unknown", "origin": a.origin, "url": a.url,
        "passage": passage.text,
        "entities": [{"start": e.start, "end": e.end, "text": e.text, "label": e.label}
                     for e in passage.entities],
        "fold": fold_of(a.article_id, config.folds),
    }


class Mention(NamedTuple):
    """A mention of a kept sentence, as the query rules see it."""
    sentence: CandidateSentence
    entity: Entity
    answers: list          # the passage mentions coreferent with it (`answers_for`)
    glued: bool = False    # every answer mention sits in glued text (`fragments.glued_around`)


QUERY_RULES = (
    Rule("no_placeholder_in_text", "placeholder_in_text",
         lambda m, ctx, c: PLACEHOLDER not in m.sentence.text),
    Rule("unambiguous_name", "ambiguous_name",
         lambda m, ctx, c: not is_ambiguous(m.entity.cluster)),
    Rule("not_person_demonym", "person_demonym",
         lambda m, ctx, c: m.entity.not_answer != "person_demonym"),
    Rule("not_inside_longer_name", "inside_longer_name",
         lambda m, ctx, c: m.entity.not_answer != "inside_longer_name"),
    Rule("not_hyphenated_identity", "hyphenated_identity",
         lambda m, ctx, c: m.entity.not_answer != "hyphenated_identity"),
    Rule("answer_in_passage", "no_answer_in_passage", lambda m, ctx, c: bool(m.answers)),
    Rule("answer_not_in_glued_text", "answer_in_glued_text", lambda m, ctx, c: not m.glued),
    Rule("answer_form_in_passage", "answer_form_not_in_passage",
         lambda m, ctx, c: form_in_answers(m.entity.text, m.answers)),
)


def form_in_answers(mention: str, answers) -> bool:
    """The country/demonym policy: a country and its demonyms are one entity and answer
    together ("Russia", "Russian", "Russians": ReCoRD's gold holds both forms in 12 of
    13 calibration queries), but a placeholder that stood for a country's name needs the
    name among its answers: "@placeholder's largest copper miner" (Australia) is not
    answered by "Australian" alone, a people or an adjective, not the country; and a
    placeholder that stood for a people (a plural demonym) needs a demonym among them:
    "contemporary young @placeholder" (Americans) is not answered by "America" alone
    (held-out readers of 2026-11-26 called such answer sets wrong). A demonym before a
    noun may be answered by the country's name alone ("the @placeholder economy": UK,
    India; news English writes "UK economy", "England cricket")."""
    form = country_form(mention)
    if form == "demonym" and not _people(mention):
        return True
    return form is None or any(country_form(a["text"]) in (form, None) for a in answers)


def _people(demonym: str) -> bool:
    """A plural demonym, a people: "Americans", "Indians" (not "Swiss", "Chinese")."""
    word = demonym.strip().split()[-1] if demonym.strip() else ""
    return word.endswith("s") and not word.endswith("ss")


def queries_for_sentence(passage: Passage, sentence: CandidateSentence, shared: dict):
    """Yield (query id, row) for every mention of the sentence; the row is the Reject of
    the first rule of `QUERY_RULES` the mention fails (`rules.is_rejected`)."""
    for j, m in enumerate(sorted(sentence.mentions, key=lambda m: (m.start, m.end))):
        qid = query_id(passage.passage_id, sentence.index, j)
        answers = answers_for(passage, m.cluster)
        glued = bool(answers) and all(glued_around(passage.text, a["start"], a["end"])
                                      for a in answers)
        mention = Mention(sentence, m, answers, glued)
        why = first_rejection(QUERY_RULES, mention)
        yield qid, why if why is not None else dict(
            shared, id=qid, query=make_query(sentence.text, m.start, m.end),
            answers=mention.answers, mention=sentence.text[m.start:m.end])
