import pytest

from transforms.curation.coref import RuleBasedResolver
from transforms.curation.name_match import initials, normalise_name, trailing_names

pytestmark = pytest.mark.fast   # unit tests: `python -m pytest -q -m fast`


def clusters(*mentions):
    return RuleBasedResolver().clusters(list(mentions))


def test_normalise_name_strips_titles_possessives_and_the():
    assert normalise_name("Sen. Jeff Flake's") == "jeff flake"
    assert normalise_name("Mr Brown") == "brown"
    assert normalise_name("the White House") == "white house"
    assert normalise_name("Morgan’s") == "morgan"
    assert normalise_name("Lt. Col. Jean-Marc Menichini") == "jean-marc menichini"
    assert normalise_name("Zoë") == "zoe"


def test_surname_and_given_name_link_to_the_full_name():
    # the real SuperGLUE sample: "Morgan" answers for "Tracy Morgan"
    c = clusters(("Tracy Morgan", "PERSON"), ("Morgan", "PERSON"), ("Tracy", "PERSON"),
                 ("Morgan's", "PERSON"))
    assert len(set(c)) == 1


def test_surname_does_not_link_to_non_person_names():
    c = clusters(("Morgan Stanley", "ORG"), ("Morgan", "PERSON"))
    assert c[0] != c[1]
    # nor does a nationality that happens to be the first word of a person's span
    c = clusters(("Kenyan Daniel Rono", "PERSON"), ("Kenyan", "NORP"))
    assert c[0] != c[1]


def test_acronym_of_a_name_with_a_possessive():
    c = clusters(("Children's Heart Trust", "ORG"), ("CHT", "ORG"))
    assert normalise_name("Children's Heart Trust") == "children heart trust"
    assert c[0] == c[1]


def test_ambiguous_alias_links_to_neither():
    c = clusters(("Jeff Flake", "PERSON"), ("Jeff DeWit", "PERSON"), ("Jeff", "PERSON"),
                 ("Flake", "PERSON"))
    assert c[2] not in (c[0], c[1]) and c[0] != c[1]
    assert c[3] == c[0]


def test_acronyms_link_both_ways():
    assert initials("national basketball association") == "nba"
    assert initials("bureau of investigation") == "bi"
    c = clusters(("NBA", "ORG"), ("the National Basketball Association", "ORG"))
    assert c[0] == c[1]


def test_exact_match_after_normalisation_and_determinism():
    mentions = [("the White House", "ORG"), ("White House", "FAC"), ("Iraq", "GPE"),
                ("Iraq", "GPE"), ("Vietnam", "GPE")]
    c = clusters(*mentions)
    assert c[0] == c[1] and c[2] == c[3] and len(set(c)) == 3
    assert c == clusters(*mentions)


# ---- what ReCoRD links (issue 12) ------------------------------------------------------
def test_normalise_name_bugs_are_fixed():
    assert normalise_name("Miss King") == "king"            # was "" (both words titles)
    assert normalise_name("General Motors") == "general motors"   # was "motors"
    assert normalise_name("General Motors", "ORG") == "general motors"
    assert normalise_name("Pope") == "pope"                 # was ""
    assert normalise_name("O'Donnell") == "o'donnell"       # was two words
    assert normalise_name("Gen. David Petraeus", "PERSON") == "david petraeus"
    assert normalise_name("Prime Minister David Cameron", "PERSON") == "david cameron"
    assert normalise_name("Duchess of Cambridge", "PERSON") == "duchess of cambridge"
    assert normalise_name("Liverpool FC", "ORG") == "liverpool"
    assert normalise_name("U.S.", "GPE") == "us"


def test_general_motors_links_to_gm():
    c = clusters(("General Motors", "ORG"), ("GM", "ORG"))
    assert c[0] == c[1]


def test_demonyms_and_country_aliases_are_one_entity():
    # the real SuperGLUE sample: Venezuela, Venezuelans and Venezuelan answer together
    c = clusters(("Venezuela", "GPE"), ("Venezuelans", "NORP"), ("Venezuelan", "NORP"),
                 ("Russia", "GPE"), ("Russian", "NORP"), ("U.S.", "GPE"),
                 ("United States", "GPE"), ("America", "GPE"), ("Americans", "NORP"),
                 ("Britain", "GPE"), ("British", "NORP"), ("UK", "GPE"), ("English", "NORP"))
    assert len({c[0], c[1], c[2]}) == 1
    assert c[3] == c[4] and c[3] != c[0]
    assert len({c[5], c[6], c[7], c[8]}) == 1
    assert len({c[9], c[10], c[11]}) == 1
    assert c[12] != c[9]                     # English is not British
    assert clusters(("Jordan", "PERSON"), ("Jordan", "GPE"))[0] != \
        clusters(("Jordan", "GPE"))[0]       # a person named Jordan is no country


def test_title_used_alone_links_to_the_titled_name():
    c = clusters(("Pope Francis", "PERSON"), ("Pope", "PERSON"), ("Francis", "PERSON"))
    assert len(set(c)) == 1
    c = clusters(("Duchess of Cambridge", "PERSON"), ("Duchess", "PERSON"))
    assert c[0] == c[1]
    # two queens: the lone title is ambiguous and links to neither
    c = clusters(("Queen Elizabeth", "PERSON"), ("Queen Rania", "PERSON"), ("Queen", "PERSON"))
    assert c[2] not in (c[0], c[1])


def test_short_forms_of_organisations():
    c = clusters(("Manchester United", "ORG"), ("United", "ORG"), ("Manchester", "GPE"))
    assert c[0] == c[1] and c[2] != c[0]     # the city is not the club
    c = clusters(("Harvard University", "ORG"), ("University", "ORG"))
    assert c[0] == c[1]                      # an institution's head noun, written alone
    c = clusters(("New York Times", "ORG"), ("Times", "ORG"), ("City", "ORG"),
                 ("Manchester City", "ORG"))
    assert len(set(c)) == 3 and c[2] == c[3]  # other generic words stand for nothing; a
    # club's last word alone is the club (round 13: fresh12 readers called "City" without
    # "Manchester City" an incomplete answer set)
    c = clusters(("Kilmarnock FC", "ORG"), ("Kilmarnock", "ORG"))
    assert c[0] == c[1]


def test_misspelled_variants_link():
    # real corpus: "Everardo Custodio" in the body, "Everado Custodio" in a highlight
    c = clusters(("Everardo Custodio", "PERSON"), ("Everado Custodio", "PERSON"),
                 ("Custodio", "PERSON"))
    assert len(set(c)) == 1
    c = clusters(("Kenneth Stancil", "PERSON"), ("Stancill", "PERSON"))
    assert c[0] == c[1]                      # a surname of six or more letters
    # two people one short edit apart stay two
    assert len(set(clusters(("Mark Kelly", "PERSON"), ("Mary Kelly", "PERSON")))) == 2
    assert len(set(clusters(("Jon Smith", "PERSON"), ("Jan Smith", "PERSON")))) == 2
    assert len(set(clusters(("Mason", "PERSON"), ("Magon", "PERSON")))) == 2


def test_a_name_links_to_the_name_it_ends_with():
    # a place is not the place its name ends with (issue 32: no partial name across
    # distinct entities), though ReCoRD's gold of a real SuperGLUE train sample answers
    # "Gran Colombia" ("In 1819, Bolivar founded @placeholder, a federation") by "Colombia"
    c = clusters(("Colombia", "GPE"), ("Gran Colombia", "FAC"), ("Venezuela", "GPE"))
    assert len(set(c)) == 3
    # a name with a word before it (an NER span error: "Trainwreck Amy Schumer")
    c = clusters(("Amy Schumer", "PERSON"), ("Trainwreck Amy Schumer", "PERSON"),
                 ("Schumer", "PERSON"))
    assert len(set(c)) == 1
    # a team's short form, tagged a person by a small model
    c = clusters(("Pittsburgh Steelers", "ORG"), ("Steelers", "PERSON"))
    assert c[0] == c[1]
    # a place and a non-place stay apart: the club is not the city
    c = clusters(("Real Madrid", "ORG"), ("Madrid", "GPE"))
    assert c[0] != c[1]
    # a surname alone is left to the name-part rule: two Smiths stay two
    c = clusters(("Jane Smith", "PERSON"), ("John Smith", "PERSON"), ("Smith", "PERSON"))
    assert len(set(c)) == 3
    # a tail two names end with links to neither
    c = clusters(("Gran Colombia", "GPE"), ("Nueva Colombia", "GPE"), ("Colombia", "GPE"))
    assert len(set(c)) == 3
    assert trailing_names("trainwreck amy schumer") == ["amy schumer", "schumer"]
    # what follows "of" or "for" is part of the name, not a name it ends with
    assert trailing_names("recording industry of america") == ["industry of america"]
    c = clusters(("Women for Hillary", "ORG"), ("Hillary", "PERSON"))
    assert c[0] != c[1]


def test_a_group_with_a_nationality_before_it_is_not_the_bare_group():
    # BBC News 2004 (../shared/corpus/bbc_news): "A British Muslim group has criticised
    # the new series of US drama 24" beside "portrayal of Muslims in this series"
    c = clusters(("Muslim", "NORP"), ("Muslims", "NORP"), ("British Muslim", "NORP"),
                 ("UK", "GPE"), ("British", "NORP"))
    assert c[0] == c[1] != c[2]
    assert c[3] == c[4] != c[2]            # "British" alone stays the UK's (docs/rules.md)
    c = clusters(("Kurds", "NORP"), ("Iraqi Kurds", "NORP"), ("Iraq", "GPE"))
    assert len(set(c)) == 3
    c = clusters(("American Jews", "NORP"), ("Jews", "NORP"))
    assert c[0] != c[1]
    # not a nationality before it, or no group: the trailing-name link stays
    c = clusters(("Pittsburgh Steelers", "ORG"), ("Steelers", "ORG"))
    assert c[0] == c[1]
    c = clusters(("Scottish Labour", "ORG"), ("Labour", "ORG"))
    assert c[0] == c[1]


def test_a_place_opening_a_persons_name_is_no_given_name():
    r = RuleBasedResolver()
    # a church the small model tags PERSON, named after its town: two entities
    assert len(set(r.clusters([("Boston Stump", "PERSON"), ("Boston", "GPE")]))) == 2
    assert len(set(r.clusters([("Chelsea Clinton", "PERSON"), ("Chelsea", "GPE")]))) == 2
    # a place that ends a full name is the surname; a person-tagged first word joins
    assert len(set(r.clusters([("Louis Jordan", "PERSON"), ("Jordan", "GPE")]))) == 1
    assert len(set(r.clusters([("Boston Stump", "PERSON"), ("Boston", "PERSON")]))) == 1


def test_a_given_name_the_model_tags_loc_or_fac_keeps_its_person():
    # ReCoRD calibration (CNN): "her first over Venus in 11 meetings", "Venus" tagged FAC
    r = RuleBasedResolver()
    assert len(set(r.clusters([("Venus Williams", "PERSON"), ("Venus", "FAC")]))) == 1
