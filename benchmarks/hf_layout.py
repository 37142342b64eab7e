"""The Hugging Face `cnn_dailymail` loader's transformation of an rc-data `.story` file,
written for the tests and the quality benchmark from reading the loading script (`_get_art_abs`,
`fix_missing_period`, END_TOKENS), so the tests can make rows in the layout most users
hold from `.story` text: each line stripped; " ." appended to a line whose last character
is none of `. ! ? ' ` " ’ ”` or `)` (an `@highlight` line and an empty line are left
alone); empty lines skipped; the lines after an `@highlight` marker are highlights, the
others the article; the article joined with single spaces, the highlights with newlines
(version 3.0.0). Exports keep the columns `article`, `highlights`, `id` (the story hash)."""
import csv
import pathlib
import random
import re

# the loader's "acceptable ways to end a sentence" (its "..." can never equal one character)
LOADER_END_CHARACTERS = set(".!?'`\"") | {"\u2019", "\u201d", ")"}


def add_missing_period(line: str) -> str:
    if "@highlight" in line or line == "" or line[-1] in LOADER_END_CHARACTERS:
        return line
    return line + " ."


def story_to_row(text: str, story_id: str) -> dict:
    """One .story text -> {"article", "highlights", "id"} as the loader yields it."""
    article, highlights, highlight_next = [], [], False
    for raw in text.splitlines():
        line = add_missing_period(raw.strip())
        if not line:
            continue
        if line.startswith("@highlight"):
            highlight_next = True
        elif highlight_next:
            highlights.append(line)
        else:
            article.append(line)
    return {"article": " ".join(article), "highlights": "\n".join(highlights), "id": story_id}


def write_csv(stories, path) -> pathlib.Path:
    """The .story files `stories` as a CSV export of the loader's rows."""
    path = pathlib.Path(path)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["article", "highlights", "id"])
        w.writeheader()
        for story in stories:
            story = pathlib.Path(story)
            w.writerow(story_to_row(story.read_text(encoding="utf-8"), story.stem))
    return path


# ------------------------------------------------------------- Daily Mail-style stories
# A Daily Mail page as rc-data keeps it: a byline over several lines, one or two sentences
# a line, some lines broken mid-sentence (around a picture), photo captions and video
# lines of their own. Made from real article text so the sentences are real; the breaks,
# captions and video lines are ours (seeded), so what must go is known.
_SENTENCE = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bDr)(?<!\bSt)(?<!\b[A-Z])(?<=[.!?])['\"’”]?\s+"
                       r"(?=[A-Z‘'\"“])")
_NAME = re.compile(r"(?<=[a-z,] )([A-Z][a-z]+ [A-Z][a-z]+)(?= [a-z])")
CAPTIONS = ("{name} at the launch in London last year", "{name} with his family",
            "{name} and friends on holiday in Spain", "The scene in the town on Tuesday",
            "{name}, pictured in 2012", "Tributes outside the family home",
            "{name} (left) with a friend at the event", "An aerial view of the site")
VIDEO_LINES = ("VIDEO Scroll down to watch", "Scroll down for video",
               "SCROLL DOWN FOR VIDEO", "VIDEO: Watch the moment it happened")


def sentences_of(text: str) -> list:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def dailymail_story(body: str, highlights, seed: int, break_share: float = 0.3,
                    caption_share: float = 0.15) -> tuple:
    """(.story text, [captions and video lines put in]) for a Daily Mail article body."""
    rng = random.Random(seed)
    names = _NAME.findall(body) or ["Local residents"]
    lines = ["By", "Daily Mail Reporter", "PUBLISHED:", "10:02 EST, 4 May 2014", "|",
             "UPDATED:", "12:15 EST, 4 May 2014"]
    inserted, sents = [], sentences_of(body)
    i = 0
    while i < len(sents):
        n = rng.choice((1, 2))
        para = " ".join(sents[i:i + n])
        i += n
        words = para.split()
        caption = None
        if rng.random() < caption_share:
            caption = (rng.choice(VIDEO_LINES) if rng.random() < 0.25 else
                       rng.choice(CAPTIONS).format(name=rng.choice(names)))
            inserted.append(caption)
        if len(words) > 8 and rng.random() < break_share:
            cut = rng.randrange(3, len(words) - 3)
            lines.append(" ".join(words[:cut]))
            if caption and rng.random() < 0.5:      # a caption inside the broken sentence
                lines.append(caption)
                caption = None
            lines.append(" ".join(words[cut:]))
        else:
            lines.append(para)
        if caption:
            lines.append(caption)
    for h in highlights:
        lines += ["@highlight", h]
    return "\n\n".join(lines) + "\n", inserted


# ------------------------------------------------------------- issue 32's patterns
# Daily Mail page furniture a new user met in released queries (issue 32), put into real
# Daily Mail text so that what must go is known; each kind has its own needles (the text
# that must reach no passage) and the clean reason expected to count it.
LABELS = ("Happy days", "Defiant", "All smiles", "Under fire", "Scene of the crash")
PATTERN_REASONS = {
    "caption_sentence": ("caption", "wrap_caption"),
    "caption_label": ("caption_label", "caption", "wrap_caption"),
    "repeated_lead": ("repeated_lead", "caption"),
    "position_note": ("position_note",),
    "promotion": ("promotion",),
    "highlight_promotion": ("highlight_promotion",),
    "broken_highlight": ("highlight_rejoined",),
}


def dailymail_patterns_story(body: str, highlights, seed: int) -> tuple:
    """(.story text, {kind: [needles]}) for a Daily Mail article body with one of each of
    issue 32's patterns put in: a caption sentence on a line of its own ("X is pictured
    here ..."), a labelled caption ("Defiant: X arrives ..."), the lead repeated as a
    caption just before a sentence, a photo note between commas (", pictured left,"),
    promotions in the body and in the highlights, and the first highlight broken into
    bullets of one or two words. The byline and the line breaks are as
    `dailymail_story` writes them."""
    rng = random.Random(seed)
    names = _NAME.findall(body) or ["Local residents"]
    name = rng.choice(names)
    sents = sentences_of(body)
    needles = {k: [] for k in PATTERN_REASONS}
    lines = ["By", "Daily Mail Reporter", "PUBLISHED:", "10:02 EST, 4 May 2014", "|",
             "UPDATED:", "12:15 EST, 4 May 2014"]
    lead = sents[0] if sents else ""
    for i, s in enumerate(sents):
        m = _NAME.search(s) if i >= 1 and not needles["position_note"] else None
        if m and s[m.end():m.end() + 1] == " ":
            s = s[:m.end()] + ", pictured left," + s[m.end():]
            needles["position_note"].append("pictured left")
        lines.append(s)
        if i == 0:
            caption = f"{name} is pictured here at the launch of the campaign in London"
            lines.append(caption)
            needles["caption_sentence"].append(caption)
        elif i == 2:
            label, caption = rng.choice(LABELS), f"{name} arrives at the court on Tuesday"
            lines.append(f"{label}: {caption}")
            needles["caption_label"] += [label + ":", caption]
        elif i == 3 and len(lead.split()) >= 8:
            lines.append(lead.rstrip(".!?'\"’”"))
            needles["repeated_lead"].append(lead.rstrip(".!?'\"’”"))
        elif i == 4:
            promo = rng.choice(("CLICK HERE for all the latest news from the courts",
                                "Follow us on Twitter @MailOnline for the latest",
                                "Vote now in our poll below", "Share this article with a friend"))
            lines.append(promo)
            needles["promotion"].append(promo)
    highlights = list(highlights)
    if highlights and len(highlights[0].split()) >= 4:
        words = highlights[0].split()
        bullets = [" ".join(words[j:j + 2]) for j in range(0, len(words), 2)]
        highlights = bullets + highlights[1:]
        needles["broken_highlight"] += bullets[:1]
    promos = [f"READ: {name} speaks out about the case", "CLICK HERE for more pictures"]
    highlights += promos
    needles["highlight_promotion"] += promos
    for h in highlights:
        lines += ["@highlight", h]
    return "\n\n".join(lines) + "\n", needles


def story_to_jsonl_row(text: str, story_id: str) -> dict:
    """One .story text -> a JSON-lines row as cnndm_test250 has them: `article` the body's
    lines joined by spaces (no paragraph breaks, no wrap dots), `highlights` a list."""
    body, highlights, highlight_next = [], [], False
    for line in (ln.strip() for ln in text.splitlines()):
        if not line:
            continue
        if line.startswith("@highlight"):
            highlight_next = True
        elif highlight_next:
            highlights.append(line)
        else:
            body.append(line)
    if body[:1] == ["By"]:
        body = body[7:]          # JSON-lines exports carry no byline
    return {"id": story_id, "source": "dailymail", "article": " ".join(body),
            "highlights": highlights}
