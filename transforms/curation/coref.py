"""Coreference of entity mentions (paper section 3.1).

No neural coreference model installs offline, so the default resolver is a deterministic
mention-clustering one. It sits behind `CoreferenceResolver`, so a neural resolver can
replace it: anything that maps a list of mentions to one cluster key per mention.

`RuleBasedResolver` links what ReCoRD's clusters link (docs/pipeline.md, "Coreference"):
- normalised exact match (case, accents, titles such as "Mr" or "Sen.", possessive "'s",
  a leading "the", an organisation's legal or club suffix: "Liverpool FC" = "Liverpool");
- a country, its aliases and its demonyms ("Russia", "Russian", "Russians"; "U.S.",
  "United States", "America", "American"), from `countries.py`;
- a person's surname or given name links to the full name ("Morgan" -> "Tracy Morgan"),
  unless it is tagged as a nationality or group ("Kenyan" never links to a person);
- a title used alone links to the titled name ("the Pope" -> "Pope Francis");
- an acronym links to the name it abbreviates ("NBA" -> "National Basketball Association");
  where no name has its exact initials, an initialism links to the one name it spells
  with function words optional and the last word abbreviated ("UVA" -> "University of
  Virginia", "DfES"; a country's name of two words or more too: "NI" -> "Northern
  Ireland"; never a person's: `initialisms.spells_initials`); a name plus a
  model code is another entity ("Navy MH-60R" is not "Navy": `initialisms.adds_model_code`);
- an organisation's one-word short form links to its name ("United" -> "Manchester
  United"; a club's last word tagged ORG, "City", to the club whatever label its whole
  name got: "Manchester City" tagged GPE; a first word only of a name of two words:
  "Hillsborough" is not "Hillsborough Family Support Group", though such a name makes the word ambiguous: "Detroit" beside
  "Detroit Tigers" and "Detroit Red Wings"), never a generic word ("University"), but an
  institution's head noun written alone with a capital links to the one name of the
  article it ends ("the Commission" -> "European Commission"); a name written with
  abbreviated words links to the name ("Man Utd" -> "Manchester United"); a club is
  called by the name after its abbreviation ("Milan" -> "AC Milan", whatever label NER
  gave "Milan");
- a misspelled variant links to the name (Levenshtein distance 1, rapidfuzz;
  `name_match.is_typo_of`, with the normal form and the name-part tests): names of two
  or more words where the edit falls in a word of five or more letters ("Everado Custodio"
  / "Everardo Custodio", but not "Mark Kelly" / "Mary Kelly"), or surnames of six or
  more letters;
- an alias that fits two different entities links to neither, and its cluster key says so
  (`variants.is_ambiguous`: no answer set can be exactly its entity);
- name forms (`variants.py`): middle names left out ("Julianne Di Palma" / "Julianne
  Michelle Di Palma"), a hyphenated given name's first part ("Ava" -> "Ava-Jayne
  Corless"), an acronym of a name with its suffix ("EWG" -> "Environmental Working
  Group"), never an acronym as a longer name's short form ("IPTV" / "IPTV World Forum"),
  a country's name that ends a person's full name is a surname ("Jordan" -> "Louis
  Jordan"), a first name NER tagged a place that is no city is the one full name it opens
  ("Margot" -> "Margot Frank"); spellings equal but for apostrophes, hyphens and accents
  are one name ("King's Cross" / "Kings Cross", `spelling.join_spelling_keys`);
- a party's nickname ("Tories" -> "Conservatives"), a short form defined in brackets
  ("Yuganskneftegas (Yugansk)"), a renamed company ("MCI, formerly known as Worldcom"), never a name's maker as a short form of a name made of
  two names ("Microsoft" / "Microsoft IPTV" beside "IPTV"): `aliases.py`;
- never across genders (`gender.py`): a mention may carry a cue (a third item, "m" or "f",
  from the title or kinship noun before it: "Mrs Phillips", "his wife June"); a lone
  surname with a cue is its own node ("phillips#f"), and no link joins a name whose
  known gender (cues, or a given name used for one sex) differs from the other's: "Mrs
  Phillips" never joins "Ronald Phillips", "Mr Kelly" never "Mary Kelly".
"""
import collections
from typing import Protocol, Sequence

from transforms.curation.aliases import is_maker_prefix, same_entity_pairs
from transforms.curation.coref_links import (
    keep_suffix_off_people,
    place_as_given_name,
    same_surname,
    trailing_targets,
)
from transforms.curation.countries import country_of
from transforms.curation.gender import agreed, compatible, given_name_gender
from transforms.curation.initialisms import (
    adds_model_code,
    is_initialism,
    spells_initials,
)
from transforms.curation.name_match import (
    GROUP_LABELS,
    MIN_SURNAME_FOR_TYPO,
    ORG_LABELS,
    PERSON_LABELS,
    acronym_of_any,
    is_club_word_alias,
    is_name_part,
    is_short_form,
    is_typo_of,
    name_words,
    normalise_name,
    opens_longer_name,
)
from transforms.curation.names import ROYAL_TITLES, TITLE_NOUNS
from transforms.curation.person_cues import coreference_labels
from transforms.curation.spelling import (
    is_syllable_acronym,
    join_spelling_forms,
    join_spelling_keys,
    spelling_keys,
)
from transforms.curation.variants import (
    AMBIGUOUS,
    given_name_parts,
    is_abbreviated_name,
    is_contracted_acronym,
    is_institution_head,
    is_middle_name_variant,
    is_unplaced_first_name,
    join_plurals,
    person_surnames,
    possessive_owner,
    spells_camel_capitals,
    written_as_acronym,
)


class CoreferenceResolver(Protocol):
    def clusters(self, mentions: Sequence[tuple], same: Sequence[tuple] = ()) -> list:
        """`mentions` are (text, label) pairs, (text, label, gender cue) triples, or
        those and a person cue;
        `same` optional pairs of them known to be one entity; returns one hashable
        cluster key per mention."""


class _Union:
    def __init__(self, items):
        self.parent = {i: i for i in items}

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            keep, drop = sorted((ra, rb), key=_rank)
            self.parent[drop] = keep


def _rank(name: str):
    """The cluster key: the longest name (most words), then alphabetical."""
    return (-len(name.split()), -len(name), name)


class RuleBasedResolver:
    """Deterministic clustering: the same mentions always give the same clusters."""

    def clusters(self, mentions: Sequence[tuple], same: Sequence[tuple] = ()) -> list:
        """`same`: ((text, label), (text, label)) pairs known to be one entity
        (aliases.bracketed_aliases); a fourth item, a person cue, reads a name a person's
        whatever its label (`person_cues.coreference_labels`)."""
        mentions, apart = coreference_labels(mentions)
        labels = collections.defaultdict(collections.Counter)
        raw_first = collections.defaultdict(set)    # name -> first raw words (titles)
        cues = collections.defaultdict(list)        # name -> gender cues of its mentions
        names = []
        surnames = person_surnames(normalise_name(m[0], m[1]) for m in mentions
                                   if m[1] in PERSON_LABELS)
        unsuffixed = collections.defaultdict(set)   # name -> its forms with the suffix
        acronym = collections.defaultdict(bool)     # name -> written in capitals
        initialism = collections.defaultdict(bool)  # name -> written as one ("UVa")
        written = collections.defaultdict(set)      # name -> its raw last words
        owners = collections.defaultdict(set)       # name -> its possessive openers
        for mention in mentions:
            text, label = mention[0], mention[1]
            cue = mention[2] if len(mention) > 2 else None
            name = normalise_name(text, label)
            code = country_of(text) if label not in PERSON_LABELS else None
            if code and name and name not in surnames:
                name = "country:" + code
            elif name and cue and " " not in name and label not in GROUP_LABELS:
                name = f"{name}#{cue}"            # "Mrs Phillips": not "Mr Phillips"
            names.append(name)
            if name:
                unsuffixed[name].add(normalise_name(text, label, suffixes=False))
                acronym[name] |= written_as_acronym(text)
                initialism[name] |= is_initialism(text)
                written[name].add(text.split()[-1] if text.split() else "")
                owner = possessive_owner(text)
                if owner:
                    owners[name].add(normalise_name(owner, label))
                labels[name][label] += 1
                cues[name].append(cue)
                first = name_words(text)
                if first and first[0] != "the":
                    raw_first[name].add(first[0])
        names = keep_suffix_off_people(mentions, names, labels, cues, raw_first)
        apart = {names[i] for i in apart}     # "in Charleston" beside "Kevone Charleston" ORG
        distinct = sorted(n for n in set(names) if n)
        person = {n: labels[n]["PERSON"] > 0 or "#" in n for n in distinct}
        group = {n: all(lab in GROUP_LABELS for lab in labels[n]) for n in distinct}
        org = {n: sum(labels[n][lab] for lab in ORG_LABELS) * 2 >= sum(labels[n].values())
               for n in distinct}
        top = {n: labels[n].most_common(1)[0][0] for n in distinct}
        gender = {n: agreed(cues[n] + [given_name_gender(n) if person[n] else None])
                  for n in distinct}
        uf = _Union(distinct)
        plain = [n for n in distinct if not n.startswith("country:")]
        base = {n: n.split("#")[0] for n in plain}
        pairs = [tuple(normalise_name(*m) for m in p) for p in same]
        for a, b in same_entity_pairs(plain, pairs):
            uf.union(a, b)          # a party's nickname, a short form defined in brackets
        defined = {b for a, b in pairs if a in uf.parent and b in uf.parent and a != b}
        # misspelled variants of one name
        for i, a in enumerate(plain):
            for b in plain[i + 1:]:
                if (person[a] or person[b]) and compatible(gender[a], gender[b]) \
                        and is_typo_of(base[a], base[b]):
                    uf.union(a, b)
        multi = [n for n in plain if " " in n]
        for name in multi:          # middle names left out: one person
            longer = [b for b in multi if person[name] and person[b]
                      and is_middle_name_variant(base[name], base[b])
                      and compatible(gender[name], gender[b])]
            if len(longer) == 1:
                uf.union(name, longer[0])
        join_plurals(plain, person, uf.union)
        join_spelling_forms(plain, person, group, org, uf.union)   # "Juve", "Hezbolllah"
        join_spelling_keys(plain, spelling_keys(mentions, names), person, group, gender,
                           top, uf.union)                          # "King's Cross"
        for name in multi:          # before the aliases, so they see one entity
            for target in trailing_targets(name, distinct, top, uf.find):
                if compatible(gender[name], gender.get(target)):
                    uf.union(name, target)
        surnames = {}
        for full in multi:
            if person[full]:
                surnames.setdefault(full.split()[-1], set()).add(uf.find(full))
        ambiguous = set()
        for name in plain:
            alias = base[name]
            targets, rivals = set(), set()
            if name in defined:
                continue              # its definition says which name it is
            for full in multi:
                if full == name or adds_model_code(alias, full):
                    continue          # "Navy MH-60R" (a helicopter) is not "Navy"
                if alias in owners[full]:
                    continue          # "Gateshead" is not "Gateshead's Sage Centre"
                if org[name] and org[full] and not person[full] and not acronym[name] \
                        and opens_longer_name(alias, full):
                    rivals.add(uf.find(full))     # "Detroit" / "Detroit Red Wings"
                if acronym_of_any(alias, unsuffixed[full] | {full}) or (
                        person[full] and not group[name]
                        and (is_name_part(alias, full) or alias in given_name_parts(full))
                        and (not place_as_given_name(alias, full, labels[name])
                             or is_unplaced_first_name(alias, full, [
                                 m for m in multi if uf.find(m) != uf.find(full)]))
                        and name not in apart
                        and compatible(gender[name], gender[full])) or (
                        org[name] and org[full] and not person[full] and not acronym[name]
                        and (is_short_form(alias, full) and not is_maker_prefix(alias, full, plain)
                             or is_institution_head(alias, full, written[name]))) or (
                        not group[name] and compatible(gender[name], gender[full])
                        and is_abbreviated_name(alias, full)) or (
                        top[name] == "ORG" and not person[full]
                        and is_club_word_alias(alias, full)):
                    targets.add(uf.find(full))
            if acronym[name] and not person[name]:      # "VW" -> "Volkswagen"
                targets |= {uf.find(w) for w in plain if " " not in w and w != name
                            and ((org[w] and not person[w] and is_contracted_acronym(alias, w))
                                 or spells_camel_capitals(alias, written[w]))}
                targets |= {uf.find(f) for f in multi if not person[f]      # "NORAD"
                            and is_syllable_acronym(alias, f)}
            if not targets and initialism[name] and not person[name]:   # "UVA", "DoD"
                targets |= {uf.find(f) for f in multi if not person[f]
                            and any(spells_initials(alias, u) for u in unsuffixed[f] | {f})}
                targets |= {uf.find(f) for f in distinct if f.startswith("country:")
                            and any(" " in u and spells_initials(alias, u)   # "NI"
                                    for u in unsuffixed[f])}
            if " " not in alias and alias in ROYAL_TITLES | TITLE_NOUNS:
                targets |= {uf.find(n) for n in plain if n != name and alias in raw_first[n]}
            if not targets and person[name] and " " not in alias \
                    and len(alias) >= MIN_SURNAME_FOR_TYPO:
                targets |= {r for s, roots in surnames.items() if is_typo_of(alias, s)
                            for r in roots}
            if not targets and alias != name:
                targets |= same_surname(name, alias, plain, gender, uf)
            targets.discard(uf.find(name))
            if targets and rivals - targets:
                ambiguous.add(name)       # a longer name it opens is another candidate
            # exactly one antecedent: link; none or several (ambiguous): stand alone
            elif len(targets) == 1:
                uf.union(name, targets.pop())
            elif len(targets) > 1:
                ambiguous.add(name)
        unclear = {uf.find(n) for n in ambiguous}
        return [(AMBIGUOUS * (uf.find(n) in unclear) + uf.find(n)) if n else f"#empty{i}"
                for i, n in enumerate(names)]
