"""The release rule `publisher_answer` (transforms/machine_filtering/publisher.py): a query
answered by the article's own publisher. Rows built from real CNN text
(../shared/corpus/cnndm_test250.jsonl, the Louis Jordan rescue story, quoted)."""
import pytest

from tests.fixtures.item_rows import row
from transforms.machine_filtering.publisher import dateline_answer, publisher_answer
from transforms.machine_filtering.release_rules import ReleaseConfig, check_row

pytestmark = pytest.mark.fast

JORDAN = ("(CNN)The last time Frank Jordan spoke with his son, Louis Jordan was fishing on a "
          "sailboat a few miles off the South Carolina coast. \"I was utterly thankful and "
          "grateful to the people who rescued me,\" Jordan told CNN.\n@highlight\nFrank "
          "Jordan told CNN his son isn't an experienced sailor but has a strong will")
ENTS = [("CNN", "ORG"), ("Frank Jordan", "PERSON"), ("Louis Jordan", "PERSON"),
        ("Jordan", "PERSON"), ("South Carolina", "GPE")]
OFF = {name: False for name in ReleaseConfig.__dataclass_fields__
       if isinstance(getattr(ReleaseConfig(), name), bool)}
ONLY = ReleaseConfig(**{**OFF, "publisher_answer": True})
QUERY = "His father told @placeholder that the family never gave up hope."


def test_the_publisher_of_the_story_as_the_answer_is_rejected():
    r = dict(row(JORDAN, QUERY, "CNN", ENTS), source="cnn")
    assert "'CNN' is the publisher" in publisher_answer(r)
    why = check_row(r, ONLY)
    assert why is not None and why.reason == "publisher_answer"
    assert check_row(r, ReleaseConfig(**{**ONLY.__dict__, "publisher_answer": False})) is None
    assert ReleaseConfig().publisher_answer is True


def test_another_publisher_or_an_unknown_source_is_news():
    assert publisher_answer(dict(row(JORDAN, QUERY, "CNN", ENTS), source="bbc")) is None
    assert publisher_answer(dict(row(JORDAN, QUERY, "CNN", ENTS), source=None)) is None
    person = dict(row(JORDAN, "@placeholder was fishing off the coast.", "Louis Jordan",
                      ENTS), source="cnn")
    assert publisher_answer(person) is None


# cnn_stories/06352019...story, the Minneapolis bridge collapse, quoted and shortened
BRIDGE = ("MINNEAPOLIS, Minnesota (CNN) -- Drivers who were on the Minneapolis bridge when it "
          "collapsed told harrowing tales of survival. \"The whole bridge from one side of the "
          "Mississippi to the other just completely gave way,\" survivor Gary Babineau told "
          "CNN.\n@highlight\nSurvivor Gary Babineau says the bridge fell all the way down")
BRIDGE_ENTS = [("MINNEAPOLIS", "GPE"), ("Minnesota", "GPE"), ("CNN", "ORG"),
               ("Minneapolis", "GPE"), ("Mississippi", "LOC"), ("Gary Babineau", "PERSON")]


def test_an_answer_named_only_in_the_dateline_is_rejected():
    query = "Rescue divers searched the river near @placeholder's University Avenue all night."
    only = row(BRIDGE.replace("the Minneapolis bridge", "the bridge"), query, "MINNEAPOLIS",
               BRIDGE_ENTS)
    assert "only in the dateline 'MINNEAPOLIS, Minnesota (CNN) --'" in dateline_answer(only)
    why = check_row(only, ReleaseConfig(**{**OFF, "dateline_answer": True}))
    assert why is not None and why.reason == "dateline_answer"
    assert check_row(only, ReleaseConfig(**OFF)) is None
    # named in the story too ("the Minneapolis bridge"): the passage says it
    body = row(BRIDGE, query, "Minneapolis", BRIDGE_ENTS, aliases=("MINNEAPOLIS",))
    assert dateline_answer(body) is None
    # no dateline at all
    bare = BRIDGE.replace("MINNEAPOLIS, Minnesota (CNN) -- ", "")
    assert dateline_answer(row(bare, query, "Minneapolis", BRIDGE_ENTS)) is None
    # an answer span without an end is no dateline's
    odd = dict(only, answers=[{"start": 0, "text": "MINNEAPOLIS"}])
    assert dateline_answer(odd) is None
