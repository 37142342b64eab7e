"""Names as BBC News writes them (issue 32, round 18: held-out XSum stories, fresh26's
readers): a short form defined in brackets from the starts of the name's words
("Ecowas"), a company's initialism spelled by the capitals of its joined name ("GSK" /
"GlaxoSmithKline", tagged PERSON by the small model), a person's surname NER tagged a
place ("Kardashian West" of "Kim Kardashian West"), a body's head noun after a place name
("Des Moines Police said") kept in its sentence. Pure rules, no Beam, no model."""
import pytest

from transforms.curation.aliases import bracketed_aliases, is_bracketed_short_form
from transforms.curation.annotation import Mention
from transforms.curation.boundaries import fix_starts
from transforms.curation.coref import RuleBasedResolver
from transforms.curation.coref_links import tail_names_a_place
from transforms.curation.initialisms import spells_prefixes
from transforms.curation.variants import spells_camel_capitals

pytestmark = pytest.mark.fast


def clusters(*mentions, same=()):
    return RuleBasedResolver().clusters(list(mentions), list(same))


@pytest.mark.parametrize("short, name", [
    ("ecowas", "economic community of west african states"),
    ("camra", "campaign for real ale"), ("hmrc", "hm revenue and customs"),
    ("ukip", "uk independence party"), ("unhcr", "un high commissioner for refugees")])
def test_a_short_form_may_take_the_starts_of_the_name_s_words(short, name):
    assert spells_prefixes(short, name)


@pytest.mark.parametrize("short, name", [
    ("nhs", "nhs scotland"),                 # a word of the name, not its short form
    ("isis", "islamic state"),               # a letter no word gives
    ("fifa", "federation internationale de football association"),
    ("nice", "national institute for health and care excellence"),   # not in order
    ("west", "west ham"),                    # one content word
    ("e", "economic community")])            # too short
def test_no_short_form_where_the_word_starts_do_not_spell_it(short, name):
    assert not spells_prefixes(short, name)


def test_a_bracket_definition_by_word_starts_joins_the_two():
    text = ("The Economic Community of West African States (Ecowas) is acting as a mediator. "
            "Ecowas leaders meet on Friday.")
    name = "Economic Community of West African States"
    mentions = [Mention(text.index(name), text.index(name) + len(name), name, "ORG"),
                Mention(text.index("Ecowas"), text.index("Ecowas") + 6, "Ecowas", "ORG")]
    assert bracketed_aliases(text, mentions) == [((name, "ORG"), ("Ecowas", "ORG"))]
    assert is_bracketed_short_form(name, "Ecowas")
    assert not is_bracketed_short_form(name, "Ecowa")      # a letter short of a word start
    # a player's team code after his name is no short form of it (a review's cases)
    text = "1 Sam Cook (Sco) 2 Ben Lewis (Bel) 3 John Smith (Sco)"
    people = [Mention(text.index(n), text.index(n) + len(n), n, "PERSON")
              for n in ("Sam Cook", "Ben Lewis", "John Smith")]
    assert bracketed_aliases(text, people) == []


def test_a_company_s_initialism_joins_its_joined_name_whatever_its_label():
    assert spells_camel_capitals("gsk", {"GlaxoSmithKline's"})
    assert not spells_camel_capitals("md", {"McDonald"})          # a surname: two capitals
    assert not spells_camel_capitals("ibm", {"IBM"})              # the initialism itself
    keys = clusters(("GlaxoSmithKline", "PERSON"), ("GSK", "ORG"),
                    ("ViiV Healthcare", "ORG"))
    assert keys[0] == keys[1] and keys[2] != keys[0]
    # a publisher's initials are its own, whatever a joined name spells
    keys = clusters(("BlaBlaCar", "ORG"), ("BBC", "ORG"))
    assert keys[0] != keys[1]
    # a person's name with two capitals stays a person
    keys = clusters(("DeShawn", "PERSON"), ("DS", "ORG"))
    assert keys[0] != keys[1]


def test_a_person_s_surname_tagged_a_place_joins_the_full_name():
    assert not tail_names_a_place("kardashian west", "GPE", "PERSON")
    assert tail_names_a_place("new york", "GPE", "PERSON")        # a known place
    assert tail_names_a_place("kardashian west", "GPE", "ORG")    # only a person's name
    keys = clusters(("Kim Kardashian West", "PERSON"), ("Kardashian West", "GPE"),
                    ("Kanye West", "PERSON"))
    assert keys[0] == keys[1] and keys[2] != keys[0]
    keys = clusters(("Central America", "LOC"), ("America", "GPE"))
    assert keys[0] != keys[1]                                      # places stay apart


def _sentences(text):
    import re
    toks = [(m.group(), text[m.end():m.end() + 1] == " ")
            for m in re.finditer(r"\w+(?:'\w+)?|[^\w\s]", text)]
    proposed = [i for i in range(1, len(toks)) if toks[i - 1][0] in ".!?"]
    proposed.append(next(i for i, t in enumerate(toks) if t[0] == "Police"))
    starts = fix_starts(toks, sorted(set(proposed)))
    return [" ".join(t for t, _ in toks[s:e]) for s, e in zip(starts, starts[1:] + [len(toks)])]


def test_the_splitter_s_cut_before_a_body_s_head_noun_is_not_taken():
    # fresh26 (BBC): spaCy cut "... of Des Moines | Police said", ending a passage there
    text = ('Sergeant Paul Parizek of Des Moines Police said the suspect was armed. '
            'He was caught later.')
    assert len(_sentences(text)) == 2 and "Des Moines Police said" in _sentences(text)[0]
    # a caption's cut before an ordinary word is still taken
    text = "A view of Jane Smith Police said the road was shut. It is open."
    assert len(_sentences(text)) == 3
    # only police and councils go on with a place: "in Paris | State media said" is a cut
    from transforms.curation.boundaries import place_body
    toks = [(w, True) for w in "gathered in Paris State media said".split()]
    assert not place_body(toks, 3)
    toks = [(w, True) for w in "in Leeds City Council said".split()]
    assert not place_body(toks, 3) and place_body([("Leeds", True), ("Council", True)], 1)
