"""Release rules: no trivial item in a release (issue 32). Applied in the
adversarial_filter stage after the adversary's verdict (`Decide`), so `generate`'s
candidates stay ReCoRD's recipe; one named rule per condition, in a table (the
transforms/core/rules.py convention: check(row, context, config)), then one query per
source sentence. Order, and why:

1. `answer_in_query`: an answer alias (a mention text of the answer set, title-stripped,
   a person's surname or given name, the country in another form; `quality/aliases.py`),
   or a short form of an ORG/FAC/GPE name ("City" of "Manchester City";
   `short_forms.py`) is written elsewhere in the query: the query gives its own answer
   away. First: the surest giveaway, and a query both rules reject is counted under the
   plainer reason.
1b. `publisher_answer`: the answer is the article's own publisher ("The documents
   provided to @placeholder" in a CNN story; `publisher.py`): its dateline, credits and
   stock phrases give it away.
1c. `dateline_answer`: every answer mention lies in the opening dateline ("WASHINGTON
   (CNN) --"; `publisher.py`): where the story was filed, not what it says.
2. `list_line`: the query is a list line, not a sentence ("@placeholder (2), Samoa (7),
   France, Italy, Georgia, Chinese Taipei."), or a fixture or results line ("France v
   Switzerland; @placeholder v Republic of Ireland."; `lexical.py`): an artefact.
2b. `incomplete_answers`: a passage mention left out of the answer set names the answer
   too, as far as words show: its name words are a subset or superset of an answer
   mention's (`quality.flags.incomplete_answers`: "Cape Verde Islands" beside "Cape
   Verde", "Scooter Braun" beside "Braun"). The answer set may be wrong, so the item is
   not released.
2c. `answer_form`: no answer has the form (number, demonym class) of the removed mention
   (`mention`): "the @placeholder church" (Armenian) answered by "Armenians" alone.
3. `copied_context`: the nearest content word beside the placeholder (with the function
   words between) is written beside an answer mention and beside no other entity in the
   passage, the word or its stem, or the placeholder is paired ("X and @placeholder")
   with an entity the passage pairs with the answer alone (`quality/neighbours.py`):
   matched, not read.
4. `only_compatible_entity`: a word of the query fixes the answer's type ("Mr
   @placeholder": a person; "the @placeholder club"; "the city of @placeholder"; "a copy
   of @placeholder"; "if @placeholder wins"; `quality/cues.py` and
   `entity_types.ROLE_CUES`) and the answer is the only passage entity (alias cluster) of
   that type the query does not name itself, each entity's type by its mentions' votes,
   not NER's label alone (`entity_types.py`: "in Austria" is a place though tagged
   PERSON); or, with no such cue, a role word of the query ("captained") is written
   before the answer alone ("Captain Jeremy Bates"), or the placeholder is coordinated
   with or set against an entity the query names and the answer is the only other of its
   kind ("between @placeholder and the UK"), or the query names the answer's manager
   ("Guardiola's side"; `entity_types.only_linked_entity`), or a place cue fixes a fine
   place type the answer alone has ("@placeholder Gov.": a US state; `place_types.py`),
   or the slot's own syntax does ("the @placeholder army", "@placeholder-owned";
   `slot_syntax.py`), or a kind noun beside it ("the @placeholder region", "the town of
   @placeholder"; `kind_nouns.py`): no reading needed.
5. `article_agreement`: "a"/"an" before the placeholder fits the answer's name and no
   other passage entity of its kind; or "the @placeholder" heads its phrase and the
   answer alone takes "the" ("the @placeholder and Iran": the U.S. among people and
   cities; `neighbours.definite_agreement`).
6. `shared_role_word`: a role word beside the placeholder ("manager") stands beside the
   answer alone in the passage.
7. `restates_words`: one passage or highlight sentence holding the answer shares most of
   the query's content lemmas (spaCy lemmas, no encoder), more than any sentence without
   it (`lexical.py`): a restatement a reader aligns, on by default.
7b. `neighbour_word`: a content word beside the placeholder, either side ("a pundit on
   @placeholder"), stands beside the answer in the passage ("The Sky Sports pundit") and
   beside no other entity (`lexical.neighbour_word`): aligned by one word, not read.
7c. `capital_rival`: the answer is a country and the passage also names its capital, or
   the reverse (`metonymy.py`): a capital names its government in the news, so both fit.
7d. `only_entity_of_label`: the answer is the only passage entity of its NER
   label (`quality.flags`): blind readers called four in five such items not good.
7d'. `only_country`: the answer is a country and no other passage entity is one but those
   the query names (`query_names.only_country`): only_entity_of_label's finer label.
7d''. `only_of_kind`: the same for a party, a named storm, an ethnic group, a sports
   competition, a school or (where the query asks for a state) a US state, whatever NER's
   label ("Democrats" when the query names the Republicans; `closed_kinds.py`).
7d'''. `only_real_person`: the answer is the passage's only real person (a titled or
   free-standing person's name) the query does not name, whatever else NER tagged PERSON
   ("Boragaon", a place; `real_person.py`).
7e. `place_rival`: the slot is locative ("protests throughout @placeholder") and the
   answer is a country or US state the passage also names a city or state in (India,
   Jaipur; `places.py`, GeoNames): both places fit.
7f. `coordinated_rival`: every passage mention of the answer stands in a list ("Thierry
   Henry, Graeme Souness and Jamie Redknapp") with another entity of its label the query
   does not name or tell apart by gender (`coordination.py`): both fit.
8. `restates_passage` (opt-in): one passage or highlight sentence holding the answer says what
   the query says (frozen MiniLM cosine, the answer masked in both, and a lead over the
   sentences without it; `restatement.py`): a paraphrase copied_context cannot see. Last
   of the row rules: the only one that needs an encoder, and its count is what it adds.
9. `sibling_query` (`SIBLING_RULES`): of the queries one sentence gave (query id
   `<passage>-<sentence>-<mention>`, or the same sentence written twice in the article)
   that pass 1 to 8, at most `max_queries_per_sentence` are released: in each, another
   sibling's answer is written, so a reader who sees both gets it free. Last, so that it
   chooses among queries that will be released. The hardest are kept: fewest
   item flags (only entity of its label, copied context, incomplete answers), then most
   passage entities of the answer's label (distractors), then a salted stable hash of the
   id: deterministic whatever the order rows arrive in.
"""
import re
from typing import NamedTuple, Optional

from transforms.core.components import index_groups
from transforms.core.hashing import stable_hash
from transforms.core.rules import Rule, first_rejection
from transforms.machine_filtering import (
    closed_kinds,
    coordination,
    lexical,
    metonymy,
    places,
    publisher,
    query_names,
)
from transforms.machine_filtering.answer_form import answer_form
from transforms.machine_filtering.entity_types import (
    compatible_entities,
    named_in_query,
    only_linked_entity,
    query_type_cue,
    role_holder,
)
from transforms.machine_filtering.fine_types import only_fine_entity
from transforms.machine_filtering.kind_nouns import only_kind_entity
from transforms.machine_filtering.lexical import Lemmas
from transforms.machine_filtering.place_types import only_place_entity
from transforms.machine_filtering.real_person import only_real_person
from transforms.machine_filtering.release_config import ReleaseConfig
from transforms.machine_filtering.restatement import Restatement, restates
from transforms.machine_filtering.short_forms import short_form_in_query
from transforms.machine_filtering.slot_syntax import only_slot_entity
from transforms.quality import flags, neighbours
from transforms.quality.aliases import alias_in_query, clusters, plain

STAGE = "release"
SIBLING = "sibling_query"
_QUERY_ID = re.compile(r"^(?P<sentence>.+-\d{3})-\d{2}$")


class Context(NamedTuple):
    """Beside the row: its restatement evidence (`restatement.py`; None: not measured,
    or no sentence holds the answer) and its passage's lemmas (`lexical.py`; None: not
    measured)."""
    restatement: Optional[Restatement] = None
    lemmas: Optional[Lemmas] = None


def answer_not_in_query(row: dict, config: ReleaseConfig):
    if not config.answer_in_query:
        return True
    hit = alias_in_query(row)
    if hit is None and (short := short_form_in_query(row)):
        hit = short, "short form"
    return True if hit is None else (False, f"{hit[1]} {hit[0]!r} is written in the query")


def not_only_compatible_entity(row: dict, config: ReleaseConfig):
    if not config.only_compatible_entity:
        return True
    cue = query_type_cue(row.get("query") or "")
    answer_fits, rivals = compatible_entities(row, cue.labels) if cue else (False, ())
    if not answer_fits or rivals:    # no cue, it points elsewhere, or a rival fits it
        held, fine = role_holder(row), (only_fine_entity(row) or only_slot_entity(row)
                                         or only_kind_entity(row))
        if fine is not None and held is None:
            return False, fine
        linked = (only_linked_entity(row) or only_place_entity(row)) if held is None else None
        if linked is not None:
            return False, linked
        return True if held is None else (False, (
            f"role {held[0]!r} (query: {held[1]!r}) is written before the answer alone in "
            f"the passage"))
    words = cue.pattern.search(plain(row["query"])).group(0)
    n = len(set(k for k, _ in clusters(row)))
    return False, (f"cue {cue.name} {words!r} -> {'/'.join(sorted(cue.labels))}; the answer "
                   f"is the only such entity of {n} in the passage (types by mention votes)")


def not_restating(row: dict, ctx: Context, config: ReleaseConfig):
    ev = ctx.restatement if ctx is not None else None
    if not config.restates_passage or not restates(ev, config.restatement_similarity,
                                                  config.restatement_margin):
        return True
    return False, (f"cosine {ev.similarity:.2f} (lead {ev.margin:.2f}) with the answer "
                   f"sentence {ev.sentence[:160]!r}")


def not_list_line(row: dict, ctx: Context, config: ReleaseConfig):
    if not config.list_line:
        return True
    query = row.get("query") or ""
    lemmas = ctx.lemmas if ctx is not None else None
    tokens = lemmas.queries.get(query) if lemmas is not None else None
    return _unless(True, lexical.list_line(query, tokens)
                   or lexical.fixture_line(query, tokens))


def not_restating_words(row: dict, ctx: Context, config: ReleaseConfig):
    if not config.restates_words:
        return True
    ev = lexical.overlap(row, ctx.lemmas if ctx is not None else None)
    return _unless(True, lexical.restates_words(ev, config.restatement_lemmas,
                                                config.restatement_lemma_share,
                                                config.restatement_lemma_lead))


def _query_tokens(row: dict, ctx: Context):
    lemmas = ctx.lemmas if ctx is not None else None
    return lemmas.queries.get(row.get("query") or "") if lemmas is not None else None


def _unless(enabled: bool, detail):
    return True if not enabled or not detail else (False, detail)


RELEASE_RULES = (
    Rule("answer_in_query", "answer_in_query", lambda r, ctx, c: answer_not_in_query(r, c)),
    Rule("publisher_answer", "publisher_answer",
         lambda r, ctx, c: _unless(c.publisher_answer, publisher.publisher_answer(r))),
    Rule("dateline_answer", "dateline_answer",
         lambda r, ctx, c: _unless(c.dateline_answer, publisher.dateline_answer(r))),
    Rule("list_line", "list_line", not_list_line),
    Rule("incomplete_answers", "incomplete_answers",
         lambda r, ctx, c: _unless(c.incomplete_answers, flags.left_out_detail(r))),
    Rule("answer_form", "answer_form",
         lambda r, ctx, c: _unless(c.answer_form, answer_form(
             r, _query_tokens(r, ctx), c.answer_form_adjectives))),
    Rule("copied_context", "copied_context",
         lambda r, ctx, c: _unless(c.copied_context, neighbours.copied_neighbour(r)
                                   or neighbours.coordinated_partner(r))),
    Rule("only_compatible_entity", "only_compatible_entity",
         lambda r, ctx, c: not_only_compatible_entity(r, c)),
    Rule("article_agreement", "article_agreement",
         lambda r, ctx, c: _unless(c.article_agreement, neighbours.article_agreement(r)
                                   or neighbours.definite_agreement(r, named_in_query(r)))),
    Rule("shared_role_word", "shared_role_word",
         lambda r, ctx, c: _unless(c.shared_role_word, neighbours.shared_role_word(r))),
    Rule("restates_words", "restates_words", not_restating_words),
    Rule("neighbour_word", "neighbour_word", lambda r, ctx, c: _unless(
        c.neighbour_word, lexical.neighbour_word(r, ctx.lemmas if ctx is not None else None))),
    Rule("capital_rival", "capital_rival",
         lambda r, ctx, c: _unless(c.capital_rival, metonymy.capital_rival(r, _query_tokens(
             r, ctx)))),
    Rule("only_entity_of_label", "only_entity_of_label",
         lambda r, ctx, c: _unless(c.only_entity_of_label, flags.lone_label_detail(r))),
    Rule("only_country", "only_country",
         lambda r, ctx, c: _unless(c.only_country, query_names.only_country(r))),
    Rule("only_of_kind", "only_of_kind",
         lambda r, ctx, c: _unless(c.only_of_kind, closed_kinds.only_of_kind(r))),
    Rule("only_real_person", "only_real_person",
         lambda r, ctx, c: _unless(c.only_real_person, only_real_person(r))),
    Rule("place_rival", "place_rival",
         lambda r, ctx, c: _unless(c.place_rival, places.place_rival(r))),
    Rule("coordinated_rival", "coordinated_rival",
         lambda r, ctx, c: _unless(c.coordinated_rival, coordination.coordinated_rival(r))),
    Rule("restates_passage", "restates_passage", not_restating),
)


def check_row(row: dict, config: ReleaseConfig = ReleaseConfig(), restatement=None,
              lemmas=None):
    """None when the row passes the row rules, else the first Reject."""
    return first_rejection(RELEASE_RULES, row, Context(restatement, lemmas), config)


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
    """A query among those of its source sentence that pass rules 1 to 8."""
    ranked: tuple       # their ids, the hardest first (`hardness_order`)
    rank: int           # the query's place in `ranked`


def _sibling_detail(ctx: Siblings, limit: int) -> str:
    return (f"its sentence gave {len(ctx.ranked)} queries that pass the rules; released: "
            f"{', '.join(ctx.ranked[:limit])} (the hardest)")


SIBLING_RULES = (
    Rule(SIBLING, SIBLING, lambda r, ctx, c: ctx.rank < c.max_queries_per_sentence
         or (False, _sibling_detail(ctx, c.max_queries_per_sentence))),
)


def release_passage(rows, config: ReleaseConfig = ReleaseConfig(), evidence=None,
                    lemmas=None):
    """The queries one passage kept -> (released rows, [(row, Reject)]), each list in id
    order: `RELEASE_RULES` on each row, then (`max_queries_per_sentence` > 0)
    `SIBLING_RULES` on each row in its sentence group. `evidence`: {id: Restatement};
    `lemmas`: the passage's `lexical.Lemmas`."""
    rejected, passed = [], []
    for row in sorted(rows, key=lambda r: r["id"]):
        why = check_row(row, config, (evidence or {}).get(row["id"]), lemmas)
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
