"""Photo captions written as sentences (issue 32, item 1): a Daily Mail caption keeps its
full stop where a page's text was flattened (the Hugging Face `cnn_dailymail` rows, whose
lines are joined with " . "), so "no end mark" (`sentences.is_caption`) no longer finds
it. What still gives it away is its grammar: a subject, then a verb in the present tense
that describes what the picture shows ("Leonardo Jardim addresses his players at training
ahead of ...", "The Monaco squad warm up for training ...", "AP McCoy celebrates after
winning ...", "Frankie Dettori reacts to his win ..."), where the story's own sentences
narrate in the past tense.

Two blind readers of fresh18 (100 Daily Mail test stories in that layout) called 5 of 40
released items such captions. The verbs are a closed list of poses and gestures
(`SCENE_VERBS`), with the words that make them one where the bare verb is news too
("looks on", not "looks set to"; "waves to", not "waves" the noun; "celebrates after",
not "Yahoo celebrates a decade online"; "poses for", not "poses as"). A subject is one to
five capitalised words or "The"/"A"/"An" and up to four words, never a pronoun, a modal
or a past-tense verb ("The case could pose a test", "The threat it poses" are news), and
no auxiliary after the verb ("The original pose has been ..."). CNN's pages keep no
captions in their text, and a CNN story tells a courtroom in the present tense ("Shaneah
Jenkins sits next to Lloyd's mother"), and BBC headlines are written so ("Berlin
celebrates European cinema"): the rule reads Daily Mail pages and pages of no known
publisher only (`sentences.STORY_RULES`). A quotation or a speech verb
makes it a sentence of the story. Pure functions; no Beam, no model.
"""
import re

SCENE_VERBS = (
    r"celebrates? (?:after|with|as|his|her|their|its|scoring|winning|victory|on|in front|"
    r"during|at)|smiles|poses?(?! as\b)|waves (?:to|at|goodbye)|gestures?|grimaces|"
    r"applauds? (?:the|his|her|their) (?:fans|crowd|supporters)|"
    r"salutes|hugs|embraces?|kisses|cuddles|jogs|sprints|stretches|warms? up|"
    r"arrives? (?:for|at|on|in|ahead)|reacts?|sprays|laughs|sits|wears?|chats|leaps|dives|"
    r"kneels?|greets|wipes|clutches|strolls? (?:along|through|down|past|on|in)|relaxes|"
    r"looks (?:on|to the sky|dejected|up at|down at)|"
    r"addresses (?:his|her|the) (?:players|squad|team|troops|media|crowd|fans)|"
    r"walks (?:out|off|onto|on to|past)|(?:is|are) (?:pictured|seen(?! as\b)|carried off|"
    r"helped off|led away|mobbed|consoled|congratulated|given out|sent off)")
# words no caption's subject holds: pronouns, modals, auxiliaries, a past-tense verb
_NOT_SUBJECT = re.compile(
    r"^(?:I|We|They|He|She|It|You|Their|His|Her|Its|Our|My|Your|This|That|These|Those|"
    r"i|we|they|he|she|it|you|their|his|her|its|our|my|your|who|which|that|"
    r"could|would|will|may|might|can|should|must|to|has|have|had|is|was|were|are|do|does|"
    r"did|[a-z]\w*ed)$")
_SUBJECT = r"(?P<subject>(?:(?:The|A|An)\s+(?:[\w'’-]+\s+){0,4}?|(?:[A-Z][\w'’.-]*\s+){1,5}?))"
# a verb's base form is a noun too ("The original pose has been imposed"): no auxiliary
# may follow it
_SCENE = re.compile(r"^" + _SUBJECT + r"(?:\([a-z ]+\)\s+)?(?:" + SCENE_VERBS + r")\b"
                    r"(?!\s+(?:has|have|had|is|was|are|were|will|would|could|can)\b)")
_SPEECH = re.compile(r"[\"“”‘]|\b(?:said|says|told|tells|insists|claims|believes|admits)\b")


def is_scene_caption(text: str) -> bool:
    """A photo caption written as a sentence: a subject (module docstring) and a verb of
    `SCENE_VERBS` in the present tense, no quotation and no speech verb."""
    text = text.strip()
    m = _SCENE.match(text)
    if m is None or _SPEECH.search(text):
        return False
    return not any(_NOT_SUBJECT.match(w) for w in m.group("subject").split())
