"""Names every room shares: the cloze placeholder and the release's split names."""

PLACEHOLDER = "@placeholder"          # ReCoRD's mark for the missing entity in a query
SPLITS = ("train", "dev", "test")     # the release's splits, in order (ReCoRD's names)
