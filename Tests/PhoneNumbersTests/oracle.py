#!/usr/bin/env python3
"""Reference answers for the phone engine's differential test, from PyPI phonenumbers==9.0.35.

Reads a JSON array of cases ({"number", "defaultRegion"?, "viewerRegion"?}) on stdin and writes a JSON array of
answers in the same order: {"ok": true, valid, e164, region, type, national, international, rfc3966, display,
extension} or {"ok": false, "reason": <upstream error name>}.

With --text, reads a JSON array of strings and answers, for each, upstream's viability test and extension split
(the private helpers parse uses): {"viable": bool, "extension": digits or null, "before": text before it or null}.

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


def answer(case):
    try:
        number = phonenumbers.parse(case["number"], case.get("defaultRegion"))
    except NumberParseException as error:
        return {"ok": False, "reason": REASONS[error.error_type]}
    region = phonenumbers.region_code_for_number(number)
    national = phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL)
    international = phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL)
    viewer = case.get("viewerRegion")
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
    }


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
    modes = {"--text": text_answer, "--pattern": pattern_answer}
    respond = modes.get(sys.argv[1] if len(sys.argv) > 1 else "", answer)
    json.dump([respond(case) for case in cases], sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
