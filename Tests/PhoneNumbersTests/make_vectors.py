#!/usr/bin/env python3
"""Writes data/vectors/phone-format.json: 50 phone cases with expected answers from oracle.py
(PyPI phonenumbers==9.0.35). Run from the package root: python3 Tests/PhoneNumbersTests/make_vectors.py"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

# (number as written, defaultRegion or None, the number's region, another viewer region)
NUMBERS = [
    ("06 12345678", "NL", "NL", "BE"),
    ("+31 20 123 4567", None, "NL", "DE"),
    ("0800 1234", "NL", "NL", "GB"),
    ("+31 85 123 4567", None, "NL", "US"),
    ("+31 6 123", None, "NL", "BE"),
    ("+32 2 555 12 34", None, "BE", "NL"),
    ("0470 12 34 56", "BE", "BE", "DE"),
    ("0800 12 345", "BE", "BE", "GB"),
    ("+32 9 123 45 67", None, "BE", "US"),
    ("0032 78 15 12 34", "NL", "BE", "NL"),
    ("+49 30 1234567", None, "DE", "NL"),
    ("030 12345678", "DE", "DE", "BE"),
    ("0151 23456789", "DE", "DE", "GB"),
    ("+49 171 12345678", None, "DE", "US"),
    ("0800 1234567", "DE", "DE", "NL"),
    ("+44 20 7946 0958", None, "GB", "NL"),
    ("07911 123456", "GB", "GB", "DE"),
    ("020 7946 0958 ext. 42", "GB", "GB", "US"),
    ("0800 1111", "GB", "GB", "BE"),
    ("011 44 161 496 0000", "US", "GB", "US"),
    ("(650) 253-0000", "US", "US", "NL"),
    ("+1 324 555 1234", None, "US", "GB"),
    ("1-800-FLOWERS", "US", "US", "DE"),
    ("tel:+1-650-253-0000;ext=123", None, "US", "BE"),
    ("+1 201 555 0123", None, "US", "NL"),
]


def main():
    cases = []
    for number, default_region, own, other in NUMBERS:
        for viewer in (own, other):
            case = {"number": number, "viewerRegion": viewer}
            if default_region is not None:
                case["defaultRegion"] = default_region
            answer = oracle.answer(case)
            if not answer.pop("ok"):
                sys.exit("vector %r does not parse: %s" % (number, answer["reason"]))
            answer["possible"] = answer["possibleReason"] in ("IS_POSSIBLE", "IS_POSSIBLE_LOCAL_ONLY")
            cases.append({"input": case, "expected": answer})
    assert len(cases) == 50, len(cases)
    document = {
        "description": "Phone formatting vectors; expected values from libphonenumber via PyPI phonenumbers==%s"
                       % oracle.EXPECTED_VERSION,
        "oracle": "phonenumbers==%s" % oracle.EXPECTED_VERSION,
        "cases": cases,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "vectors", "phone-format.json")
    with open(os.path.normpath(path), "w", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
