"""A common English word the small NER model tags as a name only because its position
capitalised it (issue 32, trivial items: a fake distractor beside the one real person of
a passage), and such a word glued to the front of a person's name. Pure functions on
real sentences reshaped (names changed): the held-out sheet of fresh11 (f11-b1-audit)
and BBC News / CNN-Daily Mail text of ../shared/corpus; no model."""
import pytest

from transforms.curation.common_words import (
    capitalised_by_position,
    cut_descriptors,
    descriptor_end,
    in_dictionary,
    is_common_word_capitalised,
    mid_sentence_capitals,
)
from transforms.curation.consistency import consistent_mentions

pytestmark = pytest.mark.fast


def at(text, word):
    start = text.index(word)
    return start, start + len(word)


def test_a_capital_is_explained_by_a_start_a_colon_or_a_title_case_headline():
    text = "Criminal complaint: Cop used his role to help cocaine traffickers"
    assert capitalised_by_position(text, 0)
    assert capitalised_by_position(text, text.index("Cop"))          # after a colon
    text = "They both nurse her. Dubbed 'co-nursing', the practice is rare."
    assert capitalised_by_position(text, text.index("Dubbed"))       # a sentence start
    assert not capitalised_by_position("shares in Apple rose", 10)   # mid-sentence
    assert capitalised_by_position("Who Put The Marmite In The Fridge", 27)   # title case


def test_the_dictionary_knows_words_and_their_inflections_not_names():
    for word in ("Cop", "Software", "Dubbed", "Buses", "Adventurer", "Fisherman"):
        assert in_dictionary(word), word
    for name in ("Claudia", "Morton", "Tesco", "Furmanek"):   # capitalised or absent there
        assert not in_dictionary(name), name


def test_a_common_word_capitalised_only_by_its_position_is_no_name():
    # f11-b1-audit, df06df79...: PERSON "Cop" beside the one real person, Mata
    texts = ["Criminal complaint: Cop used his role to help cocaine traffickers",
             "A police officer allegedly helped a group get guns, the complaint says. "
             "Officer Luis Mata was arrested on Tuesday."]
    mid = mid_sentence_capitals(texts)
    assert is_common_word_capitalised("Cop", "PERSON", mid)
    # e887d9cf...: "Dubbed 'the Dehumaniser', it can ..." PERSON "Dubbed"; a highlight's
    # "Software was created by ..." ORG "Software"
    texts = ["Dubbed 'the Dehumaniser', it can transform actors' voices into monsters",
             "Software was created by Ollie Bates, 27, at the University of Edinburgh"]
    mid = mid_sentence_capitals(texts)
    assert is_common_word_capitalised("Dubbed", "PERSON", mid)
    assert is_common_word_capitalised("Software", "ORG", mid)
    # BBC entertainment: a live feed's "Attempt saved." opens sentences only
    text = "Corner, Hearts. Attempt saved. Sam Nichols (Hearts) right footed shot."
    assert is_common_word_capitalised("Attempt", "ORG", mid_sentence_capitals([text]))


def test_a_name_that_is_also_a_word_stays_where_the_article_capitalises_it_mid_sentence():
    texts = ["Apple unveils its watch", "Shares in Apple fell as the news of the deal came out.",
             "Bush said the war was right. He met President George W. Bush there.",
             "Will Smith stars. The film, with Will Smith, opens today.",
             "Hope Solo was dropped. The goalkeeper Hope Solo said so."]
    mid = mid_sentence_capitals(texts)
    for word in ("Apple", "Bush", "Will", "Hope"):
        assert not is_common_word_capitalised(word, "ORG", mid), word


def test_given_names_places_groups_and_possessives_keep_their_tags():
    texts = ["Rose said she was happy. Labour's shadow minister said: 'We will act.'",
             "Christian leaders met. Mediterranean islands were hit."]
    mid = mid_sentence_capitals(texts)
    assert not is_common_word_capitalised("Rose", "PERSON", mid)        # a given name
    assert not is_common_word_capitalised("Labour", "ORG", mid)         # a possessive
    assert not is_common_word_capitalised("Christian", "NORP", mid)     # a group
    assert not is_common_word_capitalised("Mediterranean", "LOC", mid)  # a place


def test_a_descriptor_capitalised_by_position_is_cut_off_a_full_name():
    # f11-b1-audit 720a56cb...: "Adventurer Tomasz Furmanek photographs Norwegian fjords"
    text = "Adventurer Tomek Furman photographs Norwegian fjords from a kayak"
    mid = mid_sentence_capitals([text])
    s, e = at(text, "Adventurer Tomek Furman")
    assert text[descriptor_end(text, s, e, "PERSON", mid):e] == "Tomek Furman"
    # BBC entertainment 114-style openings: "Singer Pete Doherty will have to spend ..."
    text = "It was a long night. Singer Peter Dobson will spend the weekend in jail."
    s, e = at(text, "Singer Peter Dobson")
    assert text[descriptor_end(text, s, e, "PERSON", set()):e] == "Peter Dobson"


def test_no_descriptor_is_cut_from_a_given_name_two_words_or_mid_sentence():
    for text, span in (("Claudia Yanira Hernandez, 25, started fighting", "Claudia Yanira "
                        "Hernandez"),                         # a name, not a dictionary word
                       ("Will Smith stars in the film", "Will Smith"),   # two words
                       ("Lana Del Rey sang", "Lana Del Rey"),
                       ("the singer Pete Doherty Jones said", "Pete Doherty Jones")):
        s, e = at(text, span)
        assert descriptor_end(text, s, e, "PERSON", mid_sentence_capitals([text])) == s, span
    text = ("Singer Peter Dobson said so. When asked about the tour, the band's Singer "
            "Peter Dobson agreed with every word of their statement.")
    s, e = at(text, "Singer Peter Dobson")
    assert descriptor_end(text, s, e, "PERSON", mid_sentence_capitals([text])) == s
    s, e = at(text, "Singer Peter Dobson")
    assert descriptor_end(text, s, e, "ORG", set()) == s            # a person's name only


def test_consistency_drops_the_false_names_and_cuts_descriptors():
    texts = ["Criminal complaint: Cop used his role to help cocaine traffickers",
             "Adventurer Tomek Furman photographs fjords. Officer Luis Mata was arrested."]
    mentions = [[at(texts[0], "Cop") + ("PERSON",)],
                [at(texts[1], "Adventurer Tomek Furman") + ("PERSON",),
                 at(texts[1], "Luis Mata") + ("PERSON",)]]
    got = consistent_mentions(texts, mentions)
    assert got[0] == []
    assert [texts[1][s:e] for s, e, _ in got[1]] == ["Tomek Furman", "Luis Mata"]
    assert cut_descriptors(texts, [[], []], set()) == [[], []]


def test_a_highlight_full_of_names_is_no_title_case_heading():
    # real SuperGLUE ReCoRD test passage (../shared/corpus/record_format): "Kelli Ward" ends
    # a name-heavy highlight and "Ward" opens the next; Ward stays a name
    texts = ["Sources say President Donald Trump did not endorse Kelli Ward",
             "Ward is a Republican primary challenger to Sen. Jeff Flake"]
    assert not is_common_word_capitalised("Ward", "PERSON", mid_sentence_capitals(texts))
    assert not is_common_word_capitalised(
        "Trump", "PERSON", mid_sentence_capitals(["Kelli Ward met Trump on Twitter."]))
