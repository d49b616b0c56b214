#!/usr/bin/env python3
"""Records fmtd's response bytes for every request of data/vectors/*.json, every request line written in the
tests, and the edge cases below, into responses.jsonl (one {"request","response"} object a line, ASCII).

ResponseBytesTests replays each request and compares the bytes, so a change to how responses are written
(the response writer, the field reader) is proved byte-identical. Re-record only for an intended wire change:

    swift build --product fmtd && Tests/Fixtures/response-bytes/record.py .build/debug/fmtd
"""
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
HERE = pathlib.Path(__file__).resolve().parent

# Edge cases per field: absent, null, each wrong type, odd spellings, duplicates, nesting.
EDGES = [
    '{"op":"phone"}',
    '{"op":"phone","number":5,"viewerRegion":"NL"}',
    '{"op":"phone","number":"+31 20 123 4567"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":null}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":7}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"N"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"NLD"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"nl"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"N1"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"NL","defaultRegion":true}',
    '{"op":"phone","number":"020 123 4567","viewerRegion":"NL","defaultRegion":"nl"}',
    '{"op":"phone","number":"020 123 4567","viewerRegion":"NL","defaultRegion":"XX"}',
    '{"op":"phone","number":"abc","viewerRegion":"NL"}',
    '{"op":"phone","number":"+31 20 123 4567","viewerRegion":"NL","viewerRegion":"BE"}',
    '{"op":"phone","number":"+31 20 123 4567 ext. 12","viewerRegion":"NL"}',
    '{"op":"phoneMatch","a":"+31 6 12345678","b":"06-12345678","defaultRegion":"NL"}',
    '{"op":"phoneMatch","a":"+31 6 12345678","b":["06-12345678","+32 6 12345678","abc"]}',
    '{"op":"phoneMatch","a":"+31 6 12345678","b":[]}',
    '{"op":"phoneMatch","a":"hello","b":"06-12345678"}',
    '{"op":"phoneMatch","a":"+31 6 12345678","b":null}',
    '{"op":"phoneExample","region":"NL","type":"mobile"}',
    '{"op":"phoneExample","region":"NL","type":"Mobile"}',
    '{"op":"phoneExample","region":"AQ"}',
    '{"op":"address"}',
    '{"op":"address","address":null}',
    '{"op":"address","address":"NL"}',
    '{"op":"address","address":{}}',
    '{"op":"address","address":{"country":5}}',
    '{"op":"address","address":{"country":"nl","city":7}}',
    '{"op":"address","address":{"country":"NL","street":["a"]}}',
    '{"op":"address","address":{"country":"XQ"}}',
    '{"op":"address","address":{"country":"NLD"}}',
    '{"op":"address","address":{"country":"NL","city":"  Delft  ","city":"Leiden"}}',
    '{"op":"address","address":{"country":"NL","city":"Delft","unknown":1}}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"viewerRegion":5}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"viewerRegion":"Q"}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"viewerRegion":"nl"}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"locale":5}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"locale":"x-"}',
    '{"op":"address","address":{"country":"NL","city":"Delft"},"locale":"nl-BE"}',
    '{"op":"address","address":{"country":"GB","city":"London","postalCode":"SW1A 1AA"},"locale":"de"}',
    '{"op":"address","address":{"country":"NL","postalCode":"12345678901234567890123456789012345"}}',
    '{"op":"address","address":{"country":"NL","name":"A\\"B\\\\C\\u0001"}}',
    '{"op":"addressFormat"}',
    '{"op":"addressFormat","country":null}',
    '{"op":"addressFormat","country":1}',
    '{"op":"addressFormat","country":"zz"}',
    '{"op":"addressFormat","country":"de","locale":"nl"}',
    '{"op":"addressFormat","country":"US","viewerRegion":"us"}',
    '{"op":"addressFormat","country":"JP","locale":"de-CH"}',
    '{"op":"date"}',
    '{"op":"date","date":5}',
    '{"op":"date","date":"1990-13-01"}',
    '{"op":"date","date":"1990-11-29","yearShared":"yes"}',
    '{"op":"date","date":"1990-11-29","yearShared":null}',
    '{"op":"date","date":"1990-11-29","style":5}',
    '{"op":"date","date":"1990-11-29","style":"full"}',
    '{"op":"date","date":"1990-11-29","style":"LONG"}',
    '{"op":"date","date":"1990-11-29","style":null}',
    '{"op":"date","date":"1990-11-29","locale":"fr-FR"}',
    '{"op":"sort"}',
    '{"op":"sort","names":"a"}',
    '{"op":"sort","names":["b",1]}',
    '{"op":"sort","names":[]}',
    '{"op":"sort","names":["b","a","\\u00e9"],"locale":"de"}',
    '{"op":"sort","names":["b","a"],"locale":7}',
    '{"op":"sortKey"}',
    '{"op":"sortKey","name":"a","names":["b"]}',
    '{"op":"sortKey","name":5}',
    '{"op":"sortKey","names":[true]}',
    '{"op":"sortKey","name":"a","locale":"sv"}',
    '{"op":"sortKey","names":["a","b"]}',
    '{"op":"language"}',
    '{"op":"language","tag":5}',
    '{"op":"language","tag":"nl-BE"}',
    '{"op":"language","tag":"--"}',
    '{"op":"plural"}',
    '{"op":"plural","count":1}',
    '{"op":"plural","count":"1.0","locale":"nl"}',
    '{"op":"plural","count":"x"}',
    '{"op":"plural","count":true}',
    '{"op":"plural","count":1e999}',
    '{"op":"plural","count":null}',
    '{"op":"message"}',
    '{"op":"message","key":5}',
    '{"op":"message","key":"nope"}',
    '{"op":"message","key":"nope","args":[]}',
    '{"op":"message","key":"nope","args":5}',
    '{"op":"ping","id":[1,{"a":null}]}',
    '{"op":"nope","id":"x"}',
    '{"op":5}',
    '{"id":1}',
    '[1]',
    '{"op":"phone"',
]


def requests():
    lines = []
    for path in sorted((ROOT / "data" / "vectors").glob("*.json")):
        document = json.loads(path.read_text())
        op = {"address-format.json": None, "address-countries.json": None, "address-validation.json": None,
              "date-format.json": "date", "phone-format.json": "phone", "names-search.json": None,
              "phone-spoken.json": "phone"}[path.name]
        for case in document["cases"]:
            request = dict(case.get("request") or case.get("input"))
            if op and "op" not in request:
                request = {"op": op, **request}
            lines.append(json.dumps(request, ensure_ascii=False, separators=(",", ":")))
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        for literal in re.findall(r'#"(\{"op":.*?)"#', path.read_text()):
            try:
                json.loads(literal)
            except ValueError:
                continue
            lines.append(literal)
    lines += EDGES
    seen = set()
    unique = []
    for line in lines:
        if line not in seen and '"reload"' not in line and '"stats"' not in line and '"info"' not in line:
            seen.add(line)
            unique.append(line)
    return unique


def main():
    fmtd = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "debug" / "fmtd")
    lines = requests()
    with tempfile.TemporaryDirectory(prefix="fmtd-rec-") as directory:
        path = directory + "/s"
        daemon = subprocess.Popen(
            [fmtd, "--socket", path, "--config-dir", directory + "/etc", "--data-dir", str(ROOT / "data")],
            stderr=subprocess.DEVNULL)
        try:
            for _ in range(200):
                if os.path.exists(path):
                    break
                time.sleep(0.05)
            client = socket.socket(socket.AF_UNIX)
            client.connect(path)
            reader = client.makefile("rb")
            records = []
            for line in lines:
                client.sendall(line.encode() + b"\n")
                response = reader.readline()
                assert response.endswith(b"\n"), line
                records.append({"request": line, "response": response[:-1].decode()})
        finally:
            daemon.terminate()
            daemon.wait()
    with open(HERE / "responses.jsonl", "w") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=True, separators=(",", ":")) + "\n")
    print(f"{len(records)} responses recorded")


if __name__ == "__main__":
    main()
