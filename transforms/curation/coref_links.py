"""The link tests `coref.RuleBasedResolver` applies beyond exact and alias matches: a
name's tail ("Pittsburgh Steelers" -> "Steelers"; never across places), a place that is
no person's given name, a company named after a person keeping its suffix, and a gendered
surname's plain form. Pure functions over names and their labels; no Beam, no model."""

from transforms.curation.countries import REGIONS, country_of, is_known_place
from transforms.curation.gender import compatible, given_name_gender
from transforms.curation.initialisms import (
    adds_model_code,
)
from transforms.curation.name_match import (
    PERSON_LABELS,
    normalise_name,
    trailing_names,
)
from transforms.curation.spelling import (
    is_facility_tail,
)
from transforms.curation.variants import (
    club_tail,
    is_city,
    is_qualified_group,
)

PLACE_LABELS = {"GPE", "LOC", "FAC"}   # one kind: small models mix them ("Gran Colombia" FAC)


def is_place(label) -> bool:
    return label in PLACE_LABELS


def names_a_place(name: str, label) -> bool:
    """A place by its label, or by its name: a country or a continent or region
    (`countries.py`), however NER tagged it."""
    return is_place(label) or bool(country_of(name)) or name.lower() in REGIONS


def tail_names_a_place(tail: str, label, whole_label) -> bool:
    """`names_a_place` for the tail of a name; a person's name ends in a place only where
    the tail's words name one (a known place or city), not by its label: "Kardashian West"
    of "Kim Kardashian West", tagged GPE, is her surname."""
    if whole_label in PERSON_LABELS:
        return names_a_place(tail, None) or is_known_place(tail) or is_city(tail)
    return names_a_place(tail, label)


def trailing_targets(name: str, distinct, top: dict, root=lambda n: n) -> set:
    """A name links to the longest other name of the article it ends with ("Pittsburgh
    Steelers" -> "Steelers", even where a small model tags the short form a person;
    "Trainwreck Amy Schumer", an NER span, -> "Amy Schumer"), never a place nor to a
    place: "Central America" is not "America" (the US), "New York" not "York", "Gran
    Colombia" not "Colombia" (issue 32: no partial name across distinct entities, though
    ReCoRD's gold joins the last), "Real Madrid" (ORG) not "Madrid" (GPE), "Tisch Asia"
    not "Asia" whatever NER tagged it (`names_a_place`; a person's tail by its words
    only, `tail_names_a_place`); a club's name
    after its abbreviation stays ("AC Milan" -> "Milan"); a person's lone surname is left
    to the name-part rule, a tail that ends two names links to neither, and a group
    never links to itself with a nationality before it ("British Muslim" / "Muslim":
    `variants.is_qualified_group`)."""
    known = set(distinct)
    for tail in trailing_names(name):
        if top[name] in PERSON_LABELS and " " not in tail:
            continue      # a surname: the name-part rule links it, or finds it ambiguous
        if any(root(n) != root(name) and n.endswith(" " + tail) for n in known):
            continue      # two names end with it ("Jane Smith", "John Smith"): neither
        if is_qualified_group(name, tail, (top[name], top.get(tail))):
            continue      # "British Muslim" is not "Muslim"
        if adds_model_code(tail, name):
            continue      # "Airbus A380 Jet" is not "Jet"
        code = country_of(tail)
        key = "country:" + code if code and "country:" + code in known else tail
        if key in known and ((not tail_names_a_place(tail, top.get(key), top[name])
                              and not is_place(top[name]))
                             or tail == club_tail(name)
                             or is_facility_tail(tail, top.get(key), top[name])):
            return {key}
    return set()


def place_as_given_name(alias: str, full: str, labels) -> bool:
    """A name tagged only GPE (a town, a state, a country) is no given name of a
    person's full name it opens, unless the given-name lists know it: "Boston" (GPE) is not "Boston Stump" (a church
    the small model tagged PERSON; a held-out reader found the two in one answer set),
    while "Paris" stays Paris Hilton's and a place that ends a full name stays the
    person's surname ("Jordan" / "Louis Jordan"). A name tagged LOC or FAC keeps its
    link: the small model tags "Venus" of "Venus Williams" FAC (a ReCoRD calibration
    query lost "Venus" from its answers when this rule read every place label)."""
    words = full.split()
    return (len(words) >= 2 and alias == words[0] and bool(labels)
            and all(lab == "GPE" for lab in labels)
            and given_name_gender(f"{alias} x") is None)


def keep_suffix_off_people(mentions, names, labels, cues, raw_first) -> list:
    """A company named after a person is not that person: "Ilitch Holdings" keeps its
    suffix when "Ilitch" is a person's name in the article (the first or last word of a
    PERSON name, or a name tagged PERSON). And a titled name the model tagged otherwise
    is the person's ("President Obama" tagged ORG, with "Barack Obama" in the article).
    Each moved mention's label count moves with it."""
    people = {w for n in labels if labels[n]["PERSON"]
              for w in (n.split()[0], n.split()[-1])}
    out = list(names)
    for i, mention in enumerate(mentions):
        text, label = mention[0], mention[1]
        name = names[i]
        if not name or label in PERSON_LABELS or name not in people:
            continue
        whole = normalise_name(text, label, suffixes=False)
        if whole == name:
            continue
        out[i] = whole
        labels[name][label] -= 1
        labels[whole][label] += 1
        cues[whole].append(None)
        raw_first[whole] |= raw_first[name]
    for i, mention in enumerate(mentions):     # "President Obama" tagged ORG
        text, label = mention[0], mention[1]
        if label in PERSON_LABELS or not names[i] or " " not in names[i]:
            continue
        untitled = normalise_name(text, "PERSON")
        if untitled != names[i] and (untitled in people or labels[untitled]["PERSON"]):
            out[i] = untitled
            labels[names[i]][label] -= 1
            labels[untitled][label] += 1
            cues[untitled].append(None)
    for name in {n for n in names if n and n not in out}:
        labels.pop(name, None)      # every mention of it moved
    return out


def same_surname(name: str, alias: str, plain, gender: dict, uf) -> set:
    """A surname with a gender cue and no full name to join: the same surname written
    without a cue, unless the article also has it with the other cue ("Mrs Phillips"
    and "Phillips", but not when "Mr Phillips" is there too, nor when that "Phillips" is
    already a man's full name's: "Ronald Phillips")."""
    others = [n for n in plain if n != name and n.split("#")[0] == alias]
    if any("#" in n and not compatible(gender[n], gender[name]) for n in others):
        return set()
    return {uf.find(n) for n in others if compatible(gender[name], gender.get(uf.find(n)))}
