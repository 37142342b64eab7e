"""Rows in the release's layout built from real news text (CNN and Daily Mail stories of
../shared/corpus, quoted), for the pure release-rule and item-flag tests."""
import re


def spans(text: str, name: str) -> list:
    return [(m.start(), m.end()) for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)",
                                                      text)]


def row(passage: str, query: str, answer: str, entities, qid="p1-003-00", aliases=()):
    """`entities`: [(text, label)] marked at every whole-word occurrence (longest first,
    never inside a longer one); the answers are every mention of `answer` and `aliases`."""
    marked = []
    for text, label in sorted(entities, key=lambda e: -len(e[0])):
        for s, e in spans(passage, text):
            if not any(a <= s < b or a < e <= b for a, b, _, _ in marked):
                marked.append((s, e, text, label))
    marked.sort()
    names = {answer, *aliases}
    return {"id": qid, "passage_id": qid.rsplit("-", 2)[0], "article_id": "a1",
            "passage": passage, "query": query,
            "entities": [{"start": s, "end": e, "text": t, "label": lab}
                         for s, e, t, lab in marked],
            "answers": [{"start": s, "end": e, "text": t} for s, e, t, _ in marked
                        if t in names]}


SNOOKER = ("Ronnie O'Sullivan found himself in more bother at the Betfred World Championship "
           "after making a rude gesture during his second-round match against Matthew "
           "Stevens. But O'Sullivan was also spoken to by the referee Olivier Marteel towards "
           "the end of the afternoon session - and warned about his behaviour.")
SNOOKER_ENTS = [("Ronnie O'Sullivan", "PERSON"), ("O'Sullivan", "PERSON"),
                ("Betfred World Championship", "EVENT"), ("Matthew Stevens", "PERSON"),
                ("Olivier Marteel", "PERSON")]
NEIGHBOUR = ("When Emma Jackson, 28, moved into a quiet cul-de-sac in Hull just over a year "
             "ago, she thought she had found the perfect place to call home. Unable to sleep "
             "because of the racket, the photography student asked her neighbour to turn it "
             "down.\n@highlight\nMs Jackson says constant noise left her unable to sleep")
NEIGHBOUR_ENTS = [("Emma Jackson", "PERSON"), ("Jackson", "PERSON"), ("Hull", "GPE")]
