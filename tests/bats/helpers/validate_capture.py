#!/usr/bin/python3
"""Validates a dbtrace capture against docs/capture.schema.json.
Run with Debian's python3 (python3-jsonschema); prints one line per error."""
import json
import pathlib
import sys

import jsonschema

schema_path = pathlib.Path(__file__).resolve().parents[3] / "docs" / "capture.schema.json"
schema = json.loads(schema_path.read_text())
doc = json.loads(pathlib.Path(sys.argv[1]).read_text())
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors:
    print("/".join(str(p) for p in e.path) + ": " + e.message)
sys.exit(1 if errors else 0)
