#!/usr/bin/env python3
"""Reference answers for the phone engine's differential test, from PyPI phonenumbers==9.0.35.

Reads a JSON array of cases ({"number", "defaultRegion"?, "viewerRegion"?}) on stdin and writes a JSON array of
answers in the same order: {"ok": true, valid, e164, region, type, national, international, rfc3966, display,
extension} or {"ok": false, "reason": <upstream error name>}.

With --text, reads a JSON array of strings and answers, for each, upstream's viability test and extension split
(the private helpers parse uses): {"viable": bool, "extension": digits or null, "before": text before it or null}.

The answers also carry "possibleReason" (upstream's is_possible_number_with_reason) and "dialFrom"
(format_out_of_country_calling_number from viewerRegion).

With --match, reads a JSON array of {"a", "b", "defaultRegion"?, "kind"} and answers upstream's is_number_match:
kind "SS" on the two strings (no default region), "OS" on a parsed in defaultRegion and the string b, "OO" on both
parsed in defaultRegion: {"match": "EXACT_MATCH" | "NSN_MATCH" | "SHORT_NSN_MATCH" | "NO_MATCH" | "NOT_A_NUMBER",
"side": "a" | "b" (OS and OO: the side whose parse failed), "reason": its error name}.

With --dial, reads a JSON array of {"number", "defaultRegion"?, "viewers": [region or null, ...]} and answers, for
each, format_out_of_country_calling_number from each viewer in order: {"ok": true, "dial": [...]} or {"ok": false}.

With --example, reads a JSON array of {"region", "type", "viewerRegion"?} and answers example_number_for_type:
{"found": false} or {"found": true} with the members of a number's answer.

With --pattern, reads a JSON array of {"pattern", "text"} and answers with Python's re, the leftmost-first engine
the metadata's patterns are written for: {"whole": bool, "end": end of the match at the start or null, "groups":
[[start, end] or null, ...]}.
"""
import json
import sys

EXPECTED_VERSION = "9.0.35"

try:
    import phonenumbers
    from phonenumbers import NumberParseException, PhoneNumberFormat, PhoneNumberType
except ImportError:
    sys.stderr.write("oracle: the Python package phonenumbers is missing; "
                     "install it with: python3 -m pip install phonenumbers==%s\n" % EXPECTED_VERSION)
    sys.exit(3)

if phonenumbers.__version__ != EXPECTED_VERSION:
    sys.stderr.write("oracle: phonenumbers %s found, %s required; "
                     "install it with: python3 -m pip install phonenumbers==%s\n"
                     % (phonenumbers.__version__, EXPECTED_VERSION, EXPECTED_VERSION))
    sys.exit(3)

TYPES = {
    PhoneNumberType.FIXED_LINE: "fixedLine",
    PhoneNumberType.MOBILE: "mobile",
    PhoneNumberType.FIXED_LINE_OR_MOBILE: "fixedLineOrMobile",
    PhoneNumberType.TOLL_FREE: "tollFree",
    PhoneNumberType.PREMIUM_RATE: "premiumRate",
    PhoneNumberType.SHARED_COST: "sharedCost",
    PhoneNumberType.VOIP: "voip",
    PhoneNumberType.PERSONAL_NUMBER: "personalNumber",
    PhoneNumberType.PAGER: "pager",
    PhoneNumberType.UAN: "uan",
    PhoneNumberType.VOICEMAIL: "voicemail",
    PhoneNumberType.UNKNOWN: "unknown",
}

REASONS = {
    NumberParseException.INVALID_COUNTRY_CODE: "INVALID_COUNTRY_CODE",
    NumberParseException.NOT_A_NUMBER: "NOT_A_NUMBER",
    NumberParseException.TOO_SHORT_AFTER_IDD: "TOO_SHORT_AFTER_IDD",
    NumberParseException.TOO_SHORT_NSN: "TOO_SHORT_NSN",
    NumberParseException.TOO_LONG: "TOO_LONG",
}


POSSIBILITY = {
    phonenumbers.ValidationResult.IS_POSSIBLE: "IS_POSSIBLE",
    phonenumbers.ValidationResult.IS_POSSIBLE_LOCAL_ONLY: "IS_POSSIBLE_LOCAL_ONLY",
    phonenumbers.ValidationResult.INVALID_COUNTRY_CODE: "INVALID_COUNTRY_CODE",
    phonenumbers.ValidationResult.TOO_SHORT: "TOO_SHORT",
    phonenumbers.ValidationResult.INVALID_LENGTH: "INVALID_LENGTH",
    phonenumbers.ValidationResult.TOO_LONG: "TOO_LONG",
}

MATCHES = {
    phonenumbers.MatchType.EXACT_MATCH: "EXACT_MATCH",
    phonenumbers.MatchType.NSN_MATCH: "NSN_MATCH",
    phonenumbers.MatchType.SHORT_NSN_MATCH: "SHORT_NSN_MATCH",
    phonenumbers.MatchType.NO_MATCH: "NO_MATCH",
    phonenumbers.MatchType.NOT_A_NUMBER: "NOT_A_NUMBER",
}


def answer(case):
    try:
        number = phonenumbers.parse(case["number"], case.get("defaultRegion"))
    except NumberParseException as error:
        return {"ok": False, "reason": REASONS[error.error_type]}
    return describe(number, case.get("viewerRegion"))


def describe(number, viewer):
    region = phonenumbers.region_code_for_number(number)
    national = phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL)
    international = phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL)
    return {
        "ok": True,
        "valid": phonenumbers.is_valid_number(number),
        "e164": phonenumbers.format_number(number, PhoneNumberFormat.E164),
        "region": region,
        "type": TYPES[phonenumbers.number_type(number)],
        "national": national,
        "international": international,
        "rfc3966": phonenumbers.format_number(number, PhoneNumberFormat.RFC3966),
        "display": national if region is not None and region == viewer else international,
        "extension": number.extension or None,
        "possibleReason": POSSIBILITY[phonenumbers.is_possible_number_with_reason(number)],
        "dialFrom": phonenumbers.format_out_of_country_calling_number(number, viewer),
    }


def match_answer(case):
    kind = case["kind"]
    if kind == "SS":
        return {"match": MATCHES[phonenumbers.is_number_match(case["a"], case["b"])]}
    region = case.get("defaultRegion")
    parsed = []
    for side in ("a", "b") if kind == "OO" else ("a",):
        try:
            parsed.append(phonenumbers.parse(case[side], region))
        except NumberParseException as error:
            return {"match": "NOT_A_NUMBER", "side": side, "reason": REASONS[error.error_type]}
    second = parsed[1] if kind == "OO" else case["b"]
    return {"match": MATCHES[phonenumbers.is_number_match(parsed[0], second)]}


def dial_answer(case):
    try:
        number = phonenumbers.parse(case["number"], case.get("defaultRegion"))
    except NumberParseException:
        return {"ok": False}
    return {"ok": True,
            "dial": [phonenumbers.format_out_of_country_calling_number(number, viewer) for viewer in case["viewers"]]}


NUMBER_TYPES = {name: value for value, name in TYPES.items()}


def example_answer(case):
    number = phonenumbers.example_number_for_type(case["region"], NUMBER_TYPES[case["type"]])
    if number is None:
        return {"found": False}
    result = describe(number, case.get("viewerRegion"))
    result["found"] = True
    return result


def text_answer(text):
    from phonenumbers import phonenumberutil
    extension, before = phonenumberutil._maybe_strip_extension(text)
    return {
        "viable": phonenumberutil._is_viable_phone_number(text),
        "extension": extension or None,
        "before": before if extension else None,
    }


def pattern_answer(case):
    import re
    compiled = re.compile(case["pattern"])
    match = compiled.match(case["text"])
    groups = None
    if match:
        groups = [None if match.span(g) == (-1, -1) else list(match.span(g)) for g in range(1, compiled.groups + 1)]
    return {
        "whole": compiled.fullmatch(case["text"]) is not None,
        "end": match.end() if match else None,
        "groups": groups,
    }


def main():
    cases = json.load(sys.stdin)
    modes = {"--text": text_answer, "--pattern": pattern_answer, "--match": match_answer, "--dial": dial_answer,
             "--example": example_answer}
    respond = modes.get(sys.argv[1] if len(sys.argv) > 1 else "", answer)
    json.dump([respond(case) for case in cases], sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
