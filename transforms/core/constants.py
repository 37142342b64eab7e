"""Names every room shares: the cloze placeholder, the rc-data highlight mark, the
release's split names and the adversary's rejection reason."""

PLACEHOLDER = "@placeholder"          # ReCoRD's mark for the missing entity in a query
HIGHLIGHT_SEP = "\n@highlight\n"      # between a passage's text and each highlight (rc-data)
SPLITS = ("train", "dev", "test")     # the release's splits, in order (ReCoRD's names)
OVERALL = "overall"                   # the figures over all splits together
ANSWERED = "answered_by_adversary"    # the rejection reason of a query the adversary answered
PERSON = "PERSON"                     # spaCy's entity label of people
