"""Closed word lists the sentence-boundary, fragment and line-wrap rules read
(boundaries.py, fragments.py, wraps.py): which capitalised words open a sentence, which
words carry a sentence on past a capitalised word, which verbs attribute speech, which
words a line broken mid-sentence ends with. Each list is evidence from the real CNN/Daily
Mail text in ../shared/corpus (docs/pipeline.md, "Annotate") or, for the line wraps, from
the Hugging Face loader's layout (docs/pipeline.md, "Clean")."""

# capitalised words that open a sentence and rarely start a name or a title
SENTENCE_OPENERS = frozenset({
    "The", "A", "An", "But", "However", "He", "She", "It", "They", "We", "His", "Her",
    "Their", "Its", "This", "These", "Those", "There", "After", "When", "While", "Although",
    "And", "Some", "Many", "Meanwhile", "Now", "Earlier", "Later", "Yesterday", "Today",
    "Both", "Police", "Officials", "Experts", "Researchers", "Scientists", "According",
    "Speaking", "Despite", "During", "Since", "Following", "If", "Pictured", "Last",
    "Yet", "So", "Instead", "Other", "Others", "Most", "Several", "Another", "One",
    "That", "What", "Then", "Once", "Even", "Still", "Also", "Only", "Two", "Three", "Every",
    "Each", "Neither", "Nor", "Though", "Because", "Before", "Under", "Over", "Among", "All",
    "Here", "As",
    "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen",
    "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen", "Twenty",
})
# months and weekdays: capitalised words that name no one
CALENDAR_WORDS = frozenset({
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday",
    "Friday", "Saturday", "Sunday"})
# openers that end a name after a capitalised word other than a month or weekday: outlets
# and programmes ("USA Today", "India Today", "Midlands Today", "HBO Now", "Equality Now");
# in the held-out news here every "<Capitalised> Today" is such a name (40 of 40), and 8
# of 9 "<Capitalised> Now" (not "DEREK RANDALL Now a commentator", a glued list heading)
NAME_TAILS = frozenset({"Today", "Now"})
NUMBER_WORDS = frozenset({
    "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven",
    "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen",
    "Nineteen", "Twenty"})
# words after which a capitalised "The"/"A" is a title's first word, not a sentence start
TITLE_INTRODUCERS = frozenset({
    "told", "tells", "in", "of", "by", "to", "for", "on", "at", "from", "with", "the", "and",
    "or", "called", "named", "titled", "entitled", "read", "reads", "wrote", "starred",
    "film", "movie", "book", "novel", "song", "single", "album", "show", "series", "play",
    "newspaper", "paper", "magazine", "programme", "program", "musical", "hit", "track",
    "about", "as", "like", "into", "than", "said", "says", "via", "featuring", "feat",
})
SPEECH_VERBS = frozenset({
    "said", "says", "say", "told", "added", "adds", "explained", "insisted", "claimed",
    "wrote", "writes", "admitted", "tweeted", "warned", "stated", "that", "saying", "declared",
    "replied", "asked", "shouted", "joked", "posted", "reads", "read", "calling", "called",
    "dubbed", "as", "of", "with", "the", "a", "an", "and", "or", "but", "was", "is", "be",
})
ATTRIBUTION_VERBS = frozenset({
    "said", "says", "added", "adds", "told", "explained", "insisted", "admitted", "wrote",
    "tweeted", "claimed", "warned", "replied", "asked", "joked", "continued", "recalled"})
# words after which a capitalised word goes on the sentence: function words, speech and
# thought ("said Smith was", "believe Smith was", "the younger Jordan was")
CONTINUING_WORDS = TITLE_INTRODUCERS | SPEECH_VERBS | frozenset({
    "a", "an", "his", "her", "their", "its", "my", "our", "your", "this", "these", "those",
    "if", "when", "while", "where", "because", "but", "so", "then", "not", "here", "there",
    "now", "today", "yesterday", "tonight", "also", "even", "just", "only", "every", "each",
    "were", "are", "been", "has", "have", "had", "will", "would", "can", "could", "should",
    "tell", "believe", "believes", "believed", "think", "thinks", "thought", "know", "knows",
    "knew", "hope", "hopes", "hoped", "fear", "fears", "feared", "feel", "feels", "felt",
    "found", "find", "finds", "claims", "argue", "argues", "argued", "suggest", "suggests",
    "suggested", "show", "shows", "showed", "confirm", "confirms", "confirmed", "admits",
    "reveal", "reveals", "revealed", "learned", "realized", "realised", "noted", "announced",
    "guess", "guessed", "hear", "heard", "saw", "see", "sees", "whether", "why", "how",
    "what", "who", "whom", "whose", "which", "younger", "elder", "older", "little", "young",
    "late", "former", "new", "old", "big", "fellow", "beat", "beating", "against", "v", "vs",
}) | frozenset({   # nouns a name stands beside ("Head coach John Carver said")
    "coach", "boss", "manager", "chairman", "captain", "striker", "forward", "midfielder",
    "defender", "goalkeeper", "keeper", "winger", "international", "star", "player",
    "team-mate", "teammate", "legend", "veteran", "chief", "president", "director",
    "spokesman", "spokeswoman", "spokesperson", "officer", "lawyer", "attorney",
    "prosecutor", "judge", "actor", "actress", "singer", "rapper", "model", "presenter",
    "host", "pundit", "promoter", "trainer", "jockey", "owner", "founder", "colleague",
    "friend", "partner", "boyfriend", "girlfriend", "husband", "wife", "son", "daughter",
    "brother", "sister", "mother", "father", "mum", "dad", "uncle", "aunt", "cousin",
    "nephew", "niece", "grandson", "granddaughter", "grandmother", "grandfather", "fiance",
    "fiancee", "victim", "suspect", "survivor", "pilot", "co-pilot", "driver", "reporter",
    "analyst", "expert", "minister", "secretary", "senator", "governor", "mayor", "leader",
})
# the verbs a sentence about a person opens with ("O'Neill told Betfred", "Aliesha was n't")
OPENING_VERBS = frozenset({
    "said", "says", "told", "tells", "is", "was", "has", "had", "will", "would", "could",
    "can", "did", "does", "added", "admitted", "explained", "insisted", "revealed", "wrote",
    "posted", "tweeted", "wo", "ca",
})

# ---------------------------------------------------------------- line wraps (wraps.py)
# words a sentence cannot end with: the line goes on past its wrap dot
JOINING_WORDS = frozenset({
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into",
    "onto", "about", "as", "than", "and", "or", "but", "nor", "his", "her", "their", "its",
    "my", "our", "your", "this", "these", "those", "who", "whom", "whose", "which", "when",
    "while", "where", "whether", "because", "if", "although", "though", "is", "was", "are",
    "were", "be", "been", "being", "has", "have", "had", "will", "would", "can", "could",
    "should", "may", "might", "must", "shall", "do", "does", "did", "not", "said", "says",
    "told", "tells", "added", "explained", "revealed", "very", "so", "such", "more", "most",
    "after", "before", "during", "over", "under", "between", "against", "without", "like",
    "mr", "mrs", "ms", "dr", "miss", "prof", "sir", "st", "that",
})
# words a sentence opens with before its subject: a verbless run after one is unfinished
SENTENCE_HEADS = frozenset({
    "In", "On", "At", "After", "Before", "When", "While", "As", "During", "Since", "Until",
    "Although", "Though", "Despite", "Following", "According", "If", "Because", "Unlike",
    "Like", "Earlier", "Later", "Last", "Yesterday", "Today", "But", "And", "So", "However",
    "Meanwhile", "Instead", "Under", "Over", "Among", "Amid", "Without", "With", "From",
})
# a finite verb or a subject pronoun makes a line a sentence, not a caption
CAPTION_FINITE = frozenset({
    "is", "was", "are", "were", "am", "has", "have", "had", "will", "would", "can", "could",
    "should", "may", "might", "must", "shall", "do", "does", "did", "said", "says", "say",
    "told", "tells", "i", "he", "she", "we", "they", "you", "it",
})
# past tenses: "bought the farm in 2009" is a sentence; "pictured", "dressed" make captions
PAST_TENSES = frozenset({
    "began", "became", "bought", "brought", "built", "came", "caught", "chose", "drove",
    "fell", "felt", "found", "fought", "flew", "gave", "got", "grew", "heard", "held", "kept",
    "knew", "led", "lost", "made", "met", "paid", "ran", "rose", "sat", "saw", "sent", "sold",
    "spent", "spoke", "stood", "struck", "took", "thought", "told", "went", "won", "wrote",
    "broke", "drew", "threw", "taught", "understood", "died",
})
CAPTION_PARTICIPLES = frozenset({
    "pictured", "photographed", "snapped", "filmed", "captured", "dressed", "seated",
    "surrounded", "flanked", "joined", "accompanied", "shown", "seen", "wearing", "posed",
    "beloved", "retired", "married", "armed", "masked", "injured", "unveiled", "dubbed",
    "named", "nicknamed", "aged", "based",
})
