"""The release rules on the words beside the placeholder (issue 32, third round):
copied context, the a/an article, role words, the party cue; pure functions on rows built
from real BBC News text (files 150-209 of a topic, the calibration range)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row
from transforms.quality import cues, neighbours

pytestmark = pytest.mark.fast

REYES = ("The Spaniard believed he was talking to Real Madrid sporting director Emilio "
         "Butragueno when he allegedly berated his team-mates. The striker joined the Gunners "
         "from Seville for £17m, the 21-year-old told Cadena Cope.\n@highlight\nJose Antonio Reyes has added to speculation "
         "linking him with a move from Arsenal to Real Madrid after a radio prank.")
REYES_ENTS = [("Real Madrid", "ORG"), ("Emilio Butragueno", "PERSON"), ("Seville", "GPE"),
              ("Jose Antonio Reyes", "PERSON"), ("Arsenal", "ORG"), ("Cadena Cope", "ORG")]
GALLAS = ('"You need to be good," he told BBC Sport. "Manchester United picked up so many '
          'points," added Gallas. Gallas has been given extra confidence by the impact '
          "manager Jose Mourinho has had since taking over.\n@highlight\nChelsea's William "
          "Gallas believes they will battle it out with Arsenal.")
GALLAS_ENTS = [("BBC Sport", "ORG"), ("Manchester United", "ORG"), ("Gallas", "PERSON"),
               ("Jose Mourinho", "PERSON"), ("Chelsea", "ORG"), ("William Gallas", "PERSON"),
               ("Arsenal", "ORG")]
HEDGE = ("The Sunday Times reported that hedge funds TCI and Atticus were planning to demand "
         "the removal of the group's chairman. But Deutsche Boerse told news agency Reuters "
         "such a move would have to wait.")
HEDGE_ENTS = [("Sunday Times", "ORG"), ("TCI", "ORG"), ("Atticus", "ORG"),
              ("Deutsche Boerse", "ORG"), ("Reuters", "ORG")]
BOWL = ("It will be her first performance at the Super Bowl, which will be watched by millions "
        "in the US. Sir Paul McCartney will provide the half-time entertainment in the slot "
        "filled by Janet Jackson last year. A National Football League spokesman said they "
        "were comfortable.")
BOWL_ENTS = [("Super Bowl", "EVENT"), ("US", "GPE"), ("Paul McCartney", "PERSON"),
             ("Janet Jackson", "PERSON"), ("National Football League", "ORG")]


@pytest.mark.parametrize("name,article", [
    ("Arsenal", "an"), ("Real Madrid", "a"), ("Emilio", "an"), ("FBI", "an"), ("BBC", "a"),
    ("UN", "a"), ("US", "a"), ("MP", "an"), ("Europe", "a"), ("One Direction", "a"),
    ("Iraq", "an"), ("Honda", "a"), ("NATO", None), ("Uber", None), ("8", None),
])
def test_the_article_a_reader_writes_before_a_name(name, article):
    assert neighbours.article_for(name) == article


def test_an_article_that_fits_the_answer_alone_is_rejected():
    q = row(REYES, '"He is an @placeholder player and we have to be respectful.', "Arsenal",
            REYES_ENTS)
    why = check_row(q)
    assert why.reason == "article_agreement" and "'an Arsenal'" in why.detail
    a = row(REYES, '"He is a @placeholder player and we have to be respectful.',
            "Real Madrid", REYES_ENTS)
    assert check_row(a) is None              # "a" fits Real Madrid and Cadena Cope
    alone = row("Arsenal won. Reyes scored.", "He is an @placeholder player.", "Arsenal",
                [("Arsenal", "ORG"), ("Reyes", "PERSON")])
    assert neighbours.article_agreement(alone) is None    # no rival of its kind to rule out
    assert check_row(q, ReleaseConfig(article_agreement=False)) is None


def test_a_role_word_beside_the_answer_alone_is_rejected():
    q = row(GALLAS, "The finishing touch at Chelsea is a fantastic manager like @placeholder, "
            "he said.", "Jose Mourinho", GALLAS_ENTS)
    why = check_row(q)
    assert why.reason == "shared_role_word" and "'manager'" in why.detail
    no_role = row(GALLAS, "It would not worry me if I had to pit my wits against "
                  "@placeholder.", "Jose Mourinho", GALLAS_ENTS)
    assert check_row(no_role) is None
    assert check_row(q, ReleaseConfig(shared_role_word=False)) is None


def test_copied_context_and_a_copied_stem_are_rejected():
    q = row(HEDGE, "@placeholder and Atticus have opposed the LSE bid for some time.", "TCI",
            HEDGE_ENTS)
    why = check_row(q)
    assert why.reason == "copied_context" and "'and atticus' after" in why.detail
    stem = row(BOWL, 'Sir Paul said: "There is nothing bigger than being asked to perform at '
               'the @placeholder.', "Super Bowl", BOWL_ENTS)
    why = check_row(stem)
    assert why.reason == "copied_context" and "'perform at the'" in why.detail
    other = row(BOWL, "The @placeholder star will sing for millions.", "Paul McCartney",
                BOWL_ENTS)
    assert check_row(other) is None
    assert check_row(q, ReleaseConfig(copied_context=False)) is None


def test_a_word_beside_two_entities_is_no_giveaway():
    passage = ("Labour MPs voted against the plan, and Tory MPs abstained. Mr Howard "
               "said the vote was lost.")
    ents = [("Labour", "ORG"), ("Tory", "NORP"), ("Howard", "PERSON")]
    q = row(passage, "Many @placeholder MPs now want a new vote.", "Labour", ents)
    assert neighbours.copied_neighbour(q) is None


def test_neighbourhoods_stop_at_sentence_marks_and_keep_an_apposition():
    text = 'He said. "Jose Mourinho, the Chelsea manager, smiled'
    s = text.index("Jose")
    before, after = neighbours.neighbourhood(text, s, s + len("Jose Mourinho"))
    assert before == [] and after == ["the", "chelsea", "manager"]


@pytest.mark.parametrize("query", ["But he is under pressure from the @placeholder parties.",
                                   "The @placeholder party won the vote."])
def test_party_cue(query):
    assert cues.query_cue(query).name == "party_after"


DERBY = ("His first in the dugout was as assistant to Ruud Gullit in August, 1999, when on a "
         "sodden night at St James' Park the Dutchman left out Alan Shearer and Duncan "
         "Ferguson and paid for his selection with his job after a 2-1 defeat. John Carver "
         "is now fighting to win the head coach position.")
DERBY_ENTS = [("Ruud Gullit", "PERSON"), ("St James' Park", "FAC"), ("Dutchman", "NORP"),
              ("Alan Shearer", "PERSON"), ("Duncan Ferguson", "PERSON"),
              ("John Carver", "PERSON")]


def test_a_partner_the_passage_pairs_with_the_answer_alone_is_copied():
    q = row(DERBY, "'He said he was going to leave out Alan and @placeholder.", "Duncan Ferguson",
            DERBY_ENTS)
    why = check_row(q)
    assert neighbours.copied_neighbour(q) is None           # "Shearer" is beside the answer
    assert why.reason == "copied_context" and "'Alan'" in why.detail
    before = row(DERBY, "@placeholder and Shearer were left out.", "Duncan Ferguson",
                 DERBY_ENTS)
    assert "'Shearer'" in neighbours.coordinated_partner(before)


def test_a_partner_paired_with_two_entities_or_with_none_gives_nothing_away():
    two = DERBY + " Later Gullit picked Alan Shearer and John Carver."
    q = row(two, "He left out Alan and @placeholder.", "Duncan Ferguson", DERBY_ENTS)
    assert neighbours.coordinated_partner(q) is None        # Shearer paired with two
    q = row(DERBY, "He left out Carver and @placeholder.", "Duncan Ferguson", DERBY_ENTS)
    assert neighbours.coordinated_partner(q) is None        # Carver paired with nobody
    q = row(DERBY, "He left out @placeholder on the night.", "Duncan Ferguson", DERBY_ENTS)
    assert neighbours.coordinated_partner(q) is None


LAUSANNE = ("Lausanne, Switzerland (CNN) Negotiators face a Tuesday deadline. Iran wants "
            "sanctions lifted at once, while U.S. officials want them phased. Secretary of "
            "State John Kerry met his counterpart in Lausanne, CNN reported.")
LAUSANNE_ENTS = [("Lausanne", "GPE"), ("Switzerland", "GPE"), ("CNN", "ORG"), ("Iran", "GPE"),
                 ("U.S.", "GPE"), ("John Kerry", "PERSON")]


def test_the_only_entity_that_takes_the_is_rejected():
    q = {**row(LAUSANNE, "It is unclear what form it would take, and the @placeholder and "
               "Iran have varying needs.", "U.S.", LAUSANNE_ENTS, qid="p1-005-00"),
         "source": "cnn"}      # the article's own publisher is no rival
    assert "takes 'the'" in neighbours.definite_agreement(q, {"country:ir"})
    # Iran unnamed by the query is a place that never takes "the": still no rival
    assert neighbours.definite_agreement(q) is not None
    why = check_row(q, ReleaseConfig(only_country=False, capital_rival=False))
    assert why is not None and why.reason == "article_agreement" and "'the" in why.detail
    # "the" before a noun the placeholder modifies: any country fits
    mod = row(LAUSANNE, "The @placeholder economy would gain from a deal with Iran.", "U.S.",
              LAUSANNE_ENTS)
    assert neighbours.definite_agreement(mod) is None
    # an organisation may take "the" too ("the IAEA"): a rival, so no verdict
    rival = row(LAUSANNE + " The IAEA said inspections would go on.", q["query"], "U.S.",
                LAUSANNE_ENTS + [("IAEA", "ORG")])
    assert neighbours.definite_agreement({**rival, "source": "cnn"}) is None
    # from an unknown publisher, CNN is an organisation like any other: a rival
    assert neighbours.definite_agreement({**q, "source": ""}) is None


@pytest.mark.parametrize("after,expected", [
    (" and its allies", True), (" economy grew", False), ("'s envoy", False), (".", True),
    (" said", True), ("", True),
])
def test_a_name_heads_its_phrase(after, expected):
    assert neighbours.heads_its_phrase(after) is expected


# cnndm_test250.jsonl, the Armenian genocide story (CNN), quoted and shortened
ARMENIA = ("On the 2008 campaign trail, Obama promised to use the word \"genocide\" to "
           "describe the 1915 massacre by Turks of Armenians. In 2006, after the U.S. "
           "Ambassador to Armenia was asked to resign for using the term, then-Sen. Obama "
           "hammered the Bush administration for not taking a stand. Pope Francis and actor "
           "George Clooney have used the word.")
ARMENIA_ENTS = [("Obama", "PERSON"), ("Turks", "NORP"), ("Armenians", "NORP"),
                ("U.S.", "GPE"), ("Armenia", "GPE"), ("Bush", "PERSON"),
                ("Pope Francis", "PERSON"), ("George Clooney", "PERSON")]


def test_a_titles_abbreviation_is_the_title():
    q = row(ARMENIA, "As a senator, Senator @placeholder wrote to the secretary of state.",
            "Obama", ARMENIA_ENTS)
    assert neighbours.shared_role_word(q) == ("'senator' is written beside the answer alone "
                                              "in the passage")
    # "Sen." before another name as well: no longer the answer's alone
    two = row(ARMENIA.replace("Pope Francis and", "Sen. Bob Menendez, Pope Francis and"),
              q["query"], "Obama", ARMENIA_ENTS + [("Bob Menendez", "PERSON")])
    assert neighbours.shared_role_word(two) is None
    # the abbreviation in the query too
    short = row(ARMENIA, "Sen. @placeholder wrote to the secretary of state.", "Obama",
                ARMENIA_ENTS)
    assert "'senator'" in neighbours.shared_role_word(short)
