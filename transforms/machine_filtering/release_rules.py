"""Release rules: no trivial item in a release (issue 32). Applied in the
adversarial_filter stage after the adversary's verdict (`Decide`), so `generate`'s
candidates stay ReCoRD's recipe; one named rule per condition, in a table (the
transforms/core/rules.py convention: check(row, context, config)), then one query per
source sentence. Order, and why:

1. `answer_in_query`: an answer alias (a mention text of the answer set, title-stripped,
   a person's surname or given name) is written elsewhere in the query: the query gives
   its own answer away. First: the surest giveaway, and a query both rules reject is
   counted under the plainer reason.
2. `copied_context`: the nearest content word beside the placeholder (with the function
   words between) is written beside an answer mention and beside no other entity in the
   passage, the word or its stem (`quality/neighbours.py`): matched, not read.
3. `only_compatible_entity`: a word of the query fixes the answer's type ("Mr
   @placeholder": a person; "the @placeholder club"; "the city of @placeholder";
   `quality/cues.py`) and the answer is the only passage entity (alias cluster) of that
   type: no reading needed.
4. `article_agreement`: "a"/"an" before the placeholder fits the answer's name and no
   other passage entity of its kind.
5. `shared_role_word`: a role word beside the placeholder ("manager") stands beside the
   answer alone in the passage.
6. `sibling_query` (`SIBLING_RULES`): of the queries one sentence gave (query id
   `<passage>-<sentence>-<mention>`, or the same sentence written twice in the article)
   that pass 1 to 5, at most `max_queries_per_sentence` are released: in each, another
   sibling's answer is written, so a reader who sees both gets it free. Last, so that it
   chooses among queries that will be released. The hardest are kept: fewest
   item flags (only entity of its label, copied context, incomplete answers), then most
   passage entities of the answer's label (distractors), then a salted stable hash of the
   id: deterministic whatever the order rows arrive in.
"""
import re
from dataclasses import dataclass
from typing import NamedTuple

from transforms.core.components import index_groups
from transforms.core.config import setting
from transforms.core.hashing import stable_hash
from transforms.core.rules import Rule, first_rejection
from transforms.quality import flags, neighbours
from transforms.quality.aliases import alias_in_query, cluster_labels, plain
from transforms.quality.cues import query_cue

STAGE = "release"
SIBLING = "sibling_query"
_QUERY_ID = re.compile(r"^(?P<sentence>.+-\d{3})-\d{2}$")


@dataclass(frozen=True)
class ReleaseConfig:
    answer_in_query: bool = setting(
        True, "release rule: reject a query whose answer (a mention text, title-stripped, a "
              "person's surname or given name) is written elsewhere in it",
        flag="reject_answer_in_query")
    copied_context: bool = setting(
        True, "release rule: reject a query whose words beside the placeholder are copied "
              "from beside an answer mention and beside no other entity",
        flag="reject_copied_context")
    only_compatible_entity: bool = setting(
        True, "release rule: reject a query whose words fix the answer's type (Mr, the club, "
              "the city of ...) when the answer is the only passage entity of that type",
        flag="reject_only_compatible_entity")
    article_agreement: bool = setting(
        True, "release rule: reject a query whose 'a'/'an' before the placeholder fits the "
              "answer's name and no other passage entity of its kind",
        flag="reject_article_agreement")
    shared_role_word: bool = setting(
        True, "release rule: reject a query with a role word beside the placeholder "
              "(manager, president) that the passage writes beside the answer alone",
        flag="reject_shared_role_word")
    max_queries_per_sentence: int = setting(
        1, "release rule: queries released per source sentence, the hardest first (0: no "
           "limit; ReCoRD released 1.4-1.5 queries per passage)")
    sibling_salt: str = setting("release", "release rule: salt of the id hash that breaks "
                                           "ties between sibling queries")

    def problems(self) -> list:
        if self.max_queries_per_sentence < 0:
            return [f"max_queries_per_sentence must be at least 0, got "
                    f"{self.max_queries_per_sentence}"]
        return []


class Context(NamedTuple):
    """Nothing beyond the row: the rules read its passage, entities, query and answers."""


def answer_not_in_query(row: dict, config: ReleaseConfig):
    if not config.answer_in_query:
        return True
    hit = alias_in_query(row)
    return True if hit is None else (False, f"{hit[1]} {hit[0]!r} is written in the query")


def not_only_compatible_entity(row: dict, config: ReleaseConfig):
    if not config.only_compatible_entity:
        return True
    cue = query_cue(row.get("query") or "")
    if cue is None:
        return True
    labels = cluster_labels(row)
    answer = labels.get("@answer")
    if answer not in cue.labels:
        return True              # the cue points elsewhere (or NER disagrees): no verdict
    compatible = [k for k, label in labels.items() if label in cue.labels]
    if len(compatible) > 1:
        return True
    words = cue.pattern.search(plain(row["query"])).group(0)
    return False, (f"cue {cue.name} {words!r} -> {'/'.join(sorted(cue.labels))}; the answer "
                   f"({answer}) is the only such entity of {len(labels)} in the passage")


def _unless(enabled: bool, detail):
    return True if not enabled or not detail else (False, detail)


RELEASE_RULES = (
    Rule("answer_in_query", "answer_in_query", lambda r, ctx, c: answer_not_in_query(r, c)),
    Rule("copied_context", "copied_context",
         lambda r, ctx, c: _unless(c.copied_context, neighbours.copied_neighbour(r))),
    Rule("only_compatible_entity", "only_compatible_entity",
         lambda r, ctx, c: not_only_compatible_entity(r, c)),
    Rule("article_agreement", "article_agreement",
         lambda r, ctx, c: _unless(c.article_agreement, neighbours.article_agreement(r))),
    Rule("shared_role_word", "shared_role_word",
         lambda r, ctx, c: _unless(c.shared_role_word, neighbours.shared_role_word(r))),
)


def check_row(row: dict, config: ReleaseConfig = ReleaseConfig()):
    """None when the row passes rules 1 to 5, else the first Reject."""
    return first_rejection(RELEASE_RULES, row, Context(), config)


def sentence_key(query_id: str) -> str:
    """'<passage_id>-<sentence>' of a generated query id; another id is its own key."""
    m = _QUERY_ID.match(query_id or "")
    return m.group("sentence") if m else query_id


def hardness_order(row: dict, salt: str) -> tuple:
    """Sort key of sibling queries, the hardest first (see the module docstring)."""
    raised = sum(1 for f in ("only_entity_of_label", "copied_context", "incomplete_answers")
                 if flags.ROW_FLAG_FNS[f](row))
    return raised, -flags.distractors(row), stable_hash(row["id"], salt), row["id"]


def sentence_groups(rows: list) -> list:
    """The rows (of one passage) grouped by source sentence: one sentence index, or one
    sentence written twice in the article (`flags.same_sentence`); each group in id order."""
    def joined(i, j):
        a, b = rows[i], rows[j]
        return (sentence_key(a["id"]) == sentence_key(b["id"])
                or flags.same_sentence(a["query"], b["query"]))
    return [[rows[i] for i in g] for g in index_groups(len(rows), joined)]


class Siblings(NamedTuple):
    """A query among those of its source sentence that pass rules 1 to 5."""
    ranked: tuple       # their ids, the hardest first (`hardness_order`)
    rank: int           # the query's place in `ranked`


def _sibling_detail(ctx: Siblings, limit: int) -> str:
    return (f"its sentence gave {len(ctx.ranked)} queries that pass the rules; released: "
            f"{', '.join(ctx.ranked[:limit])} (the hardest)")


SIBLING_RULES = (
    Rule(SIBLING, SIBLING, lambda r, ctx, c: ctx.rank < c.max_queries_per_sentence
         or (False, _sibling_detail(ctx, c.max_queries_per_sentence))),
)


def release_passage(rows, config: ReleaseConfig = ReleaseConfig()):
    """The queries one passage kept -> (released rows, [(row, Reject)]), each list in id
    order: `RELEASE_RULES` on each row, then (`max_queries_per_sentence` > 0)
    `SIBLING_RULES` on each row in its sentence group."""
    rejected, passed = [], []
    for row in sorted(rows, key=lambda r: r["id"]):
        why = check_row(row, config)
        (passed.append(row) if why is None else rejected.append((row, why)))
    if not config.max_queries_per_sentence:
        return passed, rejected
    released = []
    for group in sentence_groups(passed):
        ranked = sorted(group, key=lambda r: hardness_order(r, config.sibling_salt))
        ids = tuple(r["id"] for r in ranked)
        for rank, row in enumerate(ranked):
            why = first_rejection(SIBLING_RULES, row, Siblings(ids, rank), config)
            (released.append(row) if why is None else rejected.append((row, why)))
    return sorted(released, key=lambda r: r["id"]), sorted(rejected, key=lambda x: x[0]["id"])
