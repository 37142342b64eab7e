"""The release rule `capital_rival` (transforms/machine_filtering/metonymy.py): a country
and its capital in one passage both fit a query answered by either. Rows built from real
BBC text (../shared/corpus/bbc_news/politics/150.txt, quoted)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.curation.countries import capital_country
from transforms.machine_filtering.metonymy import capital_rival, dateline_end
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

HASSAN = ("Mrs Hassan, 59, who led Care International operations in Iraq, was abducted in "
          "Baghdad on 19 October. Mr Galloway was expelled from the Labour party because of "
          "his staunch opposition to the war on Iraq. He denied an earlier report that he "
          "planned to make a direct appeal to the kidnappers via the Al-Jazeera Arabic "
          "television channel.\n@highlight\nGeorge Galloway appeals for aid worker's release")
ENTS = [("Hassan", "PERSON"), ("Care International", "ORG"), ("Iraq", "GPE"),
        ("Baghdad", "GPE"), ("Galloway", "PERSON"), ("George Galloway", "PERSON"),
        ("Labour", "ORG"), ("Al-Jazeera", "ORG"), ("Arabic", "NORP")]
QUERY = "She also urged Care International to close its office in @placeholder."
PASS = ReleaseConfig(only_country=False, answer_in_query=False, restates_words=False, neighbour_word=False,
                     only_entity_of_label=False, place_rival=False,
                     copied_context=False)


@pytest.mark.fast
@pytest.mark.parametrize("name, code", [("Tehran", "ir"), ("New Delhi", "in"),
                                        ("WASHINGTON", "us"), ("Manchester", None),
                                        ("Iran", None)])
def test_capitals_come_from_geonames(name, code):
    assert capital_country(name) == code


@pytest.mark.fast
@pytest.mark.parametrize("answer, rival", [("Iraq", "Baghdad"), ("Baghdad", "Iraq")])
def test_a_country_and_its_capital_in_one_passage_both_fit(answer, rival):
    r = row(HASSAN, QUERY, answer, ENTS)
    assert rival in capital_rival(r)
    rejected = check_row(r, PASS)
    assert rejected is not None and rejected.reason == "capital_rival"
    assert check_row(r, ReleaseConfig(**{**PASS.__dict__, "capital_rival": False})) is None


@pytest.mark.fast
def test_no_rival_without_the_capital_or_when_it_is_no_place():
    without = HASSAN.replace("Baghdad", "Basra")
    assert capital_rival(row(without, QUERY, "Iraq", ENTS + [("Basra", "GPE")])) is None
    as_org = [(t, "ORG" if t == "Baghdad" else lab) for t, lab in ENTS]
    assert capital_rival(row(HASSAN, QUERY, "Iraq", as_org)) is None
    assert capital_rival(row(HASSAN, QUERY, "Care International", ENTS)) is None


@pytest.mark.fast
def test_a_datelines_place_is_no_rival():
    filed = "BAGHDAD, Iraq (CNN) -- " + HASSAN.replace(" in Baghdad", " in the city")
    assert dateline_end(filed) == len("BAGHDAD, Iraq (CNN) --")
    assert capital_rival(row(filed, QUERY, "Iraq", ENTS + [("BAGHDAD", "GPE")])) is None
    assert dateline_end(HASSAN) == 0


@pytest.fixture(scope="module")
def nlp():
    from transforms.machine_filtering import lexical
    return lexical.load_lemmatizer(ReleaseConfig().lemma_model)


@pytest.mark.parametrize("query, answer, rival", [
    ("He urged the @placeholder government to act.", "Iraq", True),
    ("Talks with @placeholder broke down in the spring.", "Iraq", True),
    ("The @placeholder-based charity closed its office.", "Baghdad", True),
    ("@placeholder combat troops left the city in the spring.", "Iraq", False),
    ("The @placeholder-British talks broke down in the spring.", "Iraq", False),
    ("Nine @placeholder companies bid for the contract.", "Iraq", False),
])
def test_only_a_slot_a_state_fills(nlp, query, answer, rival):
    from transforms.machine_filtering import lexical
    r = row(HASSAN, query, answer, ENTS)
    tokens = lexical._tokens(nlp(query))
    assert (capital_rival(r, tokens) is not None) is rival


@pytest.mark.fast
def test_the_detail_names_the_same_answer_whatever_the_hash_seed(tmp_path):
    # a country and its demonym in one answer set: the detail must not follow set order
    # (workers of one job run with different hash seeds; the rejected rows are hashed)
    import json
    import os
    import subprocess
    import sys
    text = HASSAN.replace("the war on Iraq", "the Iraqi war")
    r = row(text, QUERY, "Iraq", ENTS + [("Iraqi", "NORP")], aliases=("Iraqi",))
    (tmp_path / "row.json").write_text(json.dumps(r))
    code = ("import json, sys; from transforms.machine_filtering.metonymy import capital_rival;"
            "print(capital_rival(json.load(open(sys.argv[1]))))")
    seen = {subprocess.run([sys.executable, "-c", code, str(tmp_path / "row.json")],
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}, check=True,
                           capture_output=True, text=True).stdout for seed in range(6)}
    assert len(seen) == 1 and "'Iraq''s capital" in seen.pop()
