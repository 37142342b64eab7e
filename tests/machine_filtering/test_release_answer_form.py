"""The release rule `answer_form`: no accepted answer has the form of the mention the
placeholder replaced (the candidates' `mention` column), so no answer reads in the slot.
Rows built from real BBC text (../shared/corpus/bbc_news/politics/035.txt and 018.txt,
quoted); the queries reshape their sentences. Query tags from the real spaCy pipeline
(tagger and lemmatizer only), loaded once for the module."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering import answer_form as af
from transforms.machine_filtering import lexical
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

TURKEY = ("Some are concerned that a change of government could lead to Turkey reneging on "
          "key human rights reforms it has recently enacted. And many in France would prefer "
          "Turkey to admit that World War I-era killing of Armenians constituted genocide. "
          "But Mr Blair and the Labour government have been the staunchest backers of "
          "Turkish accession.")
TURKEY_ENTS = [("Turkey", "GPE"), ("France", "GPE"), ("World War I", "EVENT"),
               ("Armenians", "NORP"), ("Blair", "PERSON"), ("Labour", "ORG"),
               ("Turkish", "NORP")]
AUSCHWITZ = ("The prince, 20, apologised, but critics have called for him to go to Auschwitz "
             "for the commemoration of the Soviet liberation of the camp. Prince Harry "
             "should see for himself the results of the hated symbol, Rabbi Marvin Hier, "
             "founder of the Simon Wiesenthal Center said.")
AUSCHWITZ_ENTS = [("Auschwitz", "GPE"), ("Soviet", "NORP"), ("Prince Harry", "PERSON"),
                  ("Marvin Hier", "PERSON"), ("Simon Wiesenthal Center", "ORG")]
ONLY = ReleaseConfig(answer_in_query=False, list_line=False, incomplete_answers=False,
                     copied_context=False, only_compatible_entity=False,
                     article_agreement=False, shared_role_word=False, restates_words=False,
                     neighbour_word=False, capital_rival=False, only_entity_of_label=False,
                     max_queries_per_sentence=0)


@pytest.fixture(scope="module")
def nlp():
    return lexical.load_lemmatizer(ONLY.lemma_model)


def _row(text, query, answer, ents, mention):
    return dict(row(text, query, answer, ents), mention=mention)


def _check(nlp, r, config=ONLY):
    return check_row(r, config, lemmas=lexical.lemmatize(nlp, [r]))


def test_an_adjective_slot_answered_only_by_a_people_is_rejected(nlp):
    r = _row(TURKEY, "The head of the @placeholder church in Istanbul backed the talks.",
             "Armenians", TURKEY_ENTS, "Armenian")
    rejected = _check(nlp, r)
    assert rejected is not None and rejected.reason == "answer_form"
    assert "'Armenian'" in rejected.detail and "'Armenians'" in rejected.detail
    # the same query, had the sentence said the people, passes
    assert _check(nlp, dict(r, query="Many @placeholder marched.", mention="Armenians")) is None


def test_a_plural_slot_answered_only_by_the_singular_is_rejected(nlp):
    r = _row(AUSCHWITZ, "Millions were killed by the @placeholder in the war.", "Soviet",
             AUSCHWITZ_ENTS, "Soviets")
    assert _check(nlp, r).reason == "answer_form"
    assert _check(nlp, dict(r, query="There were @placeholder aplenty in the camp.")
                  ).reason == "answer_form"
    # possessive endings and case do not count: "Soviets'" is the plural
    assert _check(nlp, dict(r, mention="SOVIET's")) is None
    assert af.form_key("Soviets'") == "soviets" and af.form_key("Soviet’s") == "soviet"


def test_a_plural_before_a_noun_modifies_it_and_any_form_fits(nlp):
    # "If Burkitts lymphoma is in the chest": "Burkitt lymphoma" reads as well
    r = _row(AUSCHWITZ, "The @placeholder liberation of the camp was marked.", "Soviet",
             AUSCHWITZ_ENTS, "Soviets")
    assert _check(nlp, r) is None
    assert _check(nlp, dict(r, query="The @placeholder swift advance freed the camp.")) is None
    # without tags a plural mention is not judged; a singular one still is
    assert check_row(r, ONLY) is None
    assert check_row(dict(r, mention="Soviet", answers=[dict(a, text="Soviets") for a in
                                                        r["answers"]]), ONLY) is not None
    # a singular mention before a noun needs the singular: "@placeholder shrines"
    t = _row(TURKEY, "ISIS has destroyed churches and @placeholder shrines in the country.",
             "Armenians", TURKEY_ENTS, "Armenian")
    assert _check(nlp, t).reason == "answer_form"


def test_one_answer_of_the_mention_form_is_enough():
    text = TURKEY.replace("Turkish accession", "Armenian demands")
    r = _row(text, "The head of the @placeholder church backed the talks.", "Armenians",
             TURKEY_ENTS + [("Armenian", "NORP")], "Armenian")
    assert {a["text"] for a in r["answers"]} == {"Armenians"}
    r["answers"] = r["answers"] + [a for a in (
        {"start": e["start"], "end": e["end"], "text": e["text"]} for e in r["entities"])
        if a["text"] == "Armenian"]
    assert check_row(r, ONLY) is None


def test_names_that_differ_otherwise_fit_the_slot():
    # a surname for a full name, a country's initialism before a noun ("the UK economy")
    assert af.fits("Blair", "Tony Blair") and af.fits("Mr Blair", "Blair")
    assert af.fits("British", "UK") and af.fits("American", "U.S.")
    # a country's full name is no adjective: "the Austria company" (a held-out CNN
    # reader marked it wrong), "the Turkey economy"
    assert not af.fits("Turkish", "Turkey") and not af.fits("Austrian", "Austria")
    assert not af.fits("Turks", "Turkey")            # a people is not the country
    assert not af.fits("British", "Britons") and af.fits("Britons", "Brits")
    assert not af.fits("Tories", "Tory") and not af.fits("Lost Rivers", "Lost River")
    assert not af.fits("Swiss", "Switzerland") and not af.fits("Chinese", "China")
    assert af.fits("Chinese", "Chinese")


def test_an_answer_set_accepting_the_name_for_an_adjective_accepts_too_much():
    # "The design was then submitted to the @placeholder chancellor and the Queen"
    why = af.name_for_adjective("British", ["Britain", "British", "United Kingdom"])
    assert "'Britain', 'United Kingdom'" in why
    assert af.name_for_adjective("British", ["British", "UK"]) is None   # an initialism reads
    assert af.name_for_adjective("Britons", ["Britons", "Britain"]) is None   # a people
    assert af.name_for_adjective("Turkey", ["Turkey", "Turkish"]) is None    # a name


def test_no_mention_column_or_the_rule_off_lets_it_pass():
    r = _row(TURKEY, "The head of the @placeholder church backed the talks.", "Armenians",
             TURKEY_ENTS, "Armenian")
    assert check_row(dict(r, mention=None), ONLY) is None
    r.pop("mention")
    assert check_row(r, ONLY) is None
    off = ReleaseConfig(**{**ONLY.__dict__, "answer_form": False})
    assert check_row(dict(r, mention="Armenian"), off) is None
    assert ReleaseConfig().answer_form is True


def test_an_adjective_accepted_for_a_countrys_name_as_a_noun_is_rejected(nlp):
    # "a welcome here in @placeholder" (Scotland) answered by "Scotland", "Scottish": the
    # answer set accepts "in Scottish"; rejected by default (`answer_form_adjectives`)
    r = dict(row(TURKEY, "Some fear that reforms will stall in @placeholder.", "Turkey",
                 TURKEY_ENTS, aliases=("Turkish",)), mention="Turkey")
    assert ReleaseConfig().answer_form_adjectives is True
    off = ReleaseConfig(**{**ONLY.__dict__, "answer_form_adjectives": False})
    assert _check(nlp, r, off) is None
    rejected = _check(nlp, r)
    assert rejected.reason == "answer_form" and "'Turkish'" in rejected.detail
    assert af.adjective_for_name("Turkey", ["Turkey", "Turkish"],
                                 "@placeholder has a long tradition of reform.", False)
    # without tags a lower-case word after the slot may be a noun: not judged
    assert af.adjective_for_name("Turkey", ["Turkey", "Turkish"],
                                 "@placeholder has a long tradition of reform.") is None
    # before a noun the adjective reads ("the @placeholder government"); without it, or
    # for a people nothing is over-accepted; for a demonym mention the name is
    assert _check(nlp, dict(r, query="Mr Blair backed the @placeholder government."),
                  ) is None
    assert _check(nlp, dict(r, query="Mr Blair backed @placeholder reforms.")) is None
    assert "name 'Turkey'" in _check(nlp, dict(r, mention="Turkish",
                                            query="Mr Blair backed @placeholder accession.")).detail
    assert af.adjective_for_name("Turkey", ["Turkey"], "They stayed in @placeholder.") is None
    assert af.adjective_for_name("US", ["US", "Americans"], "Aid from @placeholder.") is None
    assert af.adjective_for_name("the UK", ["UK", "British"],
                                 "It will not make the @placeholder richer.") is None


def test_a_slot_inside_a_name_every_answer_repeats_is_rejected():
    # fresh19 (Daily Mail): NER took "United" for the mention; filled, the query would read
    # "the Manchester Manchester United channel"
    text = ("Louis van Gaal met the fan at the Aon Training Complex. Manchester United "
            "posted the video. Manchester is his home.")
    ents = [("Louis van Gaal", "PERSON"), ("Aon Training Complex", "FAC"),
            ("Manchester United", "ORG"), ("Manchester", "GPE")]
    q = "the dossier seen in a video posted on the Manchester @placeholder channel."
    r = {**row(text, q, "Manchester United", ents), "mention": "United"}
    assert "'Manchester'" in af.answer_form(r)
    why = check_row(r)
    assert why is not None and why.reason == "answer_form"
    # an answer that is the slot's own part fits
    assert af.repeats_neighbour(q, ["Manchester United", "United"]) is None
    assert af.repeats_neighbour("Sen. John @placeholder said.", ["John McCain"]) == "John"
    assert af.repeats_neighbour("He joined @placeholder in May.", ["Arsenal"]) is None


def test_a_hashtag_slot_and_a_family_for_one_person_are_rejected():
    # fresh30 (CNN 2015): "#@placeholder" (mention "MemoriesPizza") answered "Memories
    # Pizza"; "the @placeholder were" (mention "Tsarnaevs") answered by one brother's name
    text = ("Memories Pizza closed its doors. Crystal O'Connor runs Memories Pizza. "
            "Dzhokhar Tsarnaev was convicted. Tamerlan Tsarnaev died in 2013.")
    ents = [("Memories Pizza", "ORG"), ("Crystal O'Connor", "PERSON"),
            ("Dzhokhar Tsarnaev", "PERSON"), ("Tamerlan Tsarnaev", "PERSON")]
    r = {**row(text, '"What is happening to #@placeholder is a lynch mob," she tweeted.',
               "Memories Pizza", ents), "mention": "MemoriesPizza"}
    assert "hashtag" in af.answer_form(r) and check_row(r).reason == "answer_form"
    r = {**row(text, "But the @placeholder were not on the minds of most people.",
               "Dzhokhar Tsarnaev", ents), "mention": "Tsarnaevs"}
    assert "family" in af.answer_form(r) and check_row(r).reason == "answer_form"
    assert af.answer_form(dict(r, mention="Tsarnaev")) is None        # one person: fits
    assert not af.family_for_person("Tsarnaevs", ["Dzhokhar Tsarnaev"], person=False)
    assert not af.family_for_person("Rangers", ["Queens Park Rangers"], person=True)
    assert af.answer_form(dict(r, query="He wrote @placeholder.", mention="Tsarnaev")) is None
    # a hashtag written as an answer is written fits; a surname ending in s is no family
    r = {**row("Ferguson erupted. Michael Brown died in Ferguson.",
               "Thousands tweeted #@placeholder overnight.", "Ferguson",
               [("Ferguson", "GPE"), ("Michael Brown", "PERSON")]), "mention": "Ferguson"}
    assert af.answer_form(r) is None
    assert not af.family_for_person("Evans", ["Chris Evan", "Chris Evans"], person=True)
    assert not af.family_for_person("Williams", ["Serena Williams"], person=True)
