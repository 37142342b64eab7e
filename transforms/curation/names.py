"""Word tables for entity spans and coreference: titles, organisation suffixes.

Titles follow the CoNLL-2003 / OntoNotes convention ReCoRD's NER was trained on: a title
("Mr", "Sen.", "President") is not part of a person's name. In ~2,000 real ReCoRD spans
none starts with Mr, Mrs or Dr; the SuperGLUE samples mark "Hugo Chavez" in "President
Hugo Chavez", "Jeff Flake" in "Sen. Jeff Flake", "Henry Kissinger" in "U.S. Secretary of
State Henry Kissinger". Royal and noble titles (Prince, Queen, Pope, Sir, Lord) stay in a
span ("Prince Harry", "Pope Francis"): they are used as names, not as roles.
"""

# Abbreviated titles: a title whatever the entity label (they never start the name of an
# organisation or a place).
TITLE_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "mx", "messrs", "dr", "prof", "sen", "sens", "rep", "reps", "gov",
    "gen", "col", "lt", "sgt", "capt", "cpl", "pte", "pvt", "maj", "adm", "cmdr", "det",
    "insp", "supt", "rev", "revd", "atty", "cllr", "brig", "lieut",
})
# Roles and honours written as capitals after a name ("Facebook CEO", "Labour MP",
# "Jane Smith OBE"): no part of it (spans.product_suffix_end).
ROLE_ACRONYMS = frozenset({"ceo", "cfo", "coo", "cto", "mp", "mps", "mep", "msp", "qc",
                           "pm", "vp", "md", "gm", "hq", "obe", "mbe", "cbe", "kbe"})
# Whole-word titles: stripped from a person's span only (never from "General Motors").
TITLE_NOUNS = frozenset({
    "miss", "doctor", "professor", "president", "senator", "representative", "congressman",
    "congresswoman", "governor", "mayor", "minister", "chancellor", "secretary", "judge",
    "justice", "general", "colonel", "lieutenant", "sergeant", "captain", "major", "admiral",
    "commander", "officer", "detective", "inspector", "constable", "superintendent",
    "chief", "coach", "manager", "boss", "reverend", "father", "pastor", "rabbi", "imam",
    "bishop", "archbishop", "cardinal", "sheriff", "deputy", "agent", "trooper", "corporal",
    "private", "commissioner", "ambassador", "councillor", "councilman", "councilwoman",
    "chairman", "chairwoman", "spokesman", "spokeswoman", "striker", "midfielder",
    "defender", "goalkeeper", "winger", "forward", "skipper", "actress", "actor", "singer",
    "star", "rapper", "model", "presenter", "host", "designer", "vet", "veterinarian",
    "lawyer", "attorney", "solicitor", "barrister", "nurse", "midwife", "pilot", "pc", "dc",
    "ds", "di", "dci", "fr", "hon", "pres", "amb", "comm",
})
# Police ranks written as capitals only ("DI Jane Smith", "PC Lee"): the same letters
# written as a word open a name ("Roberto Di Matteo", "Julianne Di Palma").
CAPITALS_ONLY_TITLES = frozenset({"pc", "dc", "ds", "di", "dci", "dcs", "dsu"})
# Words a multi-word title is made of ("Prime Minister", "Vice President", "Secretary of
# State", "Attorney General", "Home Secretary").
TITLE_PARTS = frozenset({
    "prime", "vice", "deputy", "first", "lady", "attorney", "home", "foreign", "defence",
    "defense", "health", "state", "of", "former", "acting", "interim", "assistant",
    "lance", "staff", "master", "chief", "executive", "head", "shadow", "junior", "senior",
    "police", "fire", "army", "navy", "detective", "district", "supreme", "high", "court",
    "circuit", "superior", "u.s.", "us", "then",
})
# Royal and noble titles: part of a name in a span, but dropped when names are compared,
# and a lone one ("the Pope", "the Queen") refers to the titled name of the article.
ROYAL_TITLES = frozenset({
    "king", "queen", "prince", "princess", "duke", "duchess", "earl", "countess", "lord",
    "lady", "sir", "dame", "baron", "baroness", "pope", "emperor", "empress", "sheikh",
    "sultan", "tsar", "czar", "saint", "st",
})
# Titles that are roles, never names: stripped from the start of a person's span.
ROLE_TITLES = TITLE_ABBREVIATIONS | TITLE_NOUNS
# Honorifics and offices: what a reader calls a title in "Mr Docherty", "Sen. Flake",
# "President Chavez" (the quality benchmark counts answers that start with one).
OFFICE_TITLES = TITLE_ABBREVIATIONS | frozenset({
    "miss", "doctor", "professor", "president", "senator", "representative", "congressman",
    "congresswoman", "governor", "mayor", "minister", "chancellor", "secretary", "judge",
    "justice", "general", "colonel", "lieutenant", "sergeant", "captain", "major", "admiral",
    "commander", "officer", "detective", "inspector", "constable", "reverend", "father",
    "pastor", "rabbi", "bishop", "archbishop", "cardinal", "sheriff", "prime", "vice",
})
# Every word a person's name may start with that is not a name (for comparing names).
TITLE_WORDS = ROLE_TITLES | ROYAL_TITLES

# Legal-form and club suffixes of organisation names: "Liverpool FC" is "Liverpool".
ORG_SUFFIXES = frozenset({
    "fc", "afc", "f.c.", "cf", "sc", "ac", "inc", "inc.", "ltd", "ltd.", "llc", "plc",
    "corp", "corp.", "co", "co.", "company", "corporation", "group", "holdings", "limited",
})
# Words too generic to stand for an organisation alone ("United" may stand for
# "Manchester United", "University" never stands for "Harvard University").
GENERIC_ORG_WORDS = frozenset({
    "university", "college", "school", "party", "council", "police", "department", "bank",
    "hospital", "court", "club", "association", "society", "institute", "foundation",
    "committee", "commission", "agency", "service", "services", "news", "times", "post",
    "daily", "international", "national", "group", "company", "church", "house", "office",
    "ministry", "army", "force", "forces", "city", "county", "state", "government",
    "centre", "center", "museum", "zoo", "airport", "airlines", "airways", "network",
    "channel", "radio", "tv", "television", "magazine", "press", "union", "league",
    "federation", "board", "trust", "authority", "fund", "organisation", "organization",
    "the", "of", "and", "for", "new", "royal", "first", "general", "world", "global", "team",
})
# Club abbreviations a club's name opens with ("AC Milan", "FC Porto", "SC Freiburg"): the
# club is called by the rest of its name, even where NER tags that rest a place ("Milan").
CLUB_PREFIXES = frozenset({"ac", "fc", "afc", "sc", "cf", "sv", "vfb", "vfl", "fk"})
# Head nouns of an institution's name that, written alone with a capital ("the
# Commission", "the Court"), stand for the one institution of the article with that head
# ("European Commission"); never a place's or a medium's head ("the City", "the Times").
INSTITUTION_HEADS = frozenset({
    "commission", "committee", "council", "court", "agency", "association", "federation",
    "foundation", "institute", "university", "college", "party", "ministry", "department",
    "authority", "board", "bank", "league", "assembly", "parliament", "congress",
    "tribunal", "bureau", "corporation", "museum", "hospital", "church", "academy",
    "organisation", "organization", "inquiry", "regulator",
})
# Words that end a club's name and no person's ("Manchester United", "Blackburn Rovers",
# "Glasgow Rangers"); alone, they stand for the club ("United", "Rangers").
CLUB_WORDS = frozenset({"united", "city", "town", "rovers", "athletic", "wanderers",
                        "albion", "rangers", "hotspur", "orient", "argyle", "villa"})
