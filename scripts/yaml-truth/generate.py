#!/usr/bin/python3
"""Write test/data/yaml-scalars.json: how the real Python loaders read several hundred YAML scalars and documents.

The truth for src/core/yaml/scalars.ts. Two loaders, as the consuming programs call them:

- pyyaml:    `yaml.safe_load(text)` (TensorRT-LLM options, disaggregated and KV-retention files).
- omegaconf: `OmegaConf.to_container(OmegaConf.create(text), resolve=False)` (NeMo, the Launcher, Hydra,
             Megatron-Bridge overrides, NeMo-RL): OmegaConf's own loader, interpolations left unresolved.

Rows:
- "scalars": one scalar per row, as a mapping value (`x: SCALAR`, `where: "value"`) or as the only key of a mapping
  (`SCALAR: x`, `where: "key"`). Each loader's answer is {"type", "value", "repr"}: the Python type name, the value as
  JSON (non-finite floats as the strings "inf", "-inf", "nan"; dates and datetimes as isoformat(); a key as json.dumps
  names it, dates as isoformat()), and Python's repr(); or {"error": "ExceptionClass: message"} when the loader
  raises.
- "documents": whole documents (merge keys, colliding keys, aliases, flow collections, top-level scalars); each
  loader's answer is {"nodes": [[path, type, value], ...]} (scripts/yaml-truth/dump.py's node list) or {"error"}.

Rerun (Debian: apt-get install -y python3-yaml python3-omegaconf), from the repository root:
    /usr/bin/python3 scripts/yaml-truth/generate.py && npx prettier --write test/data/yaml-scalars.json
The table records the versions it was made with; review the diff before committing it.
"""
import json
import math
import os
import sys

import omegaconf
import yaml
from omegaconf import OmegaConf

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump import err, key_text, nodes, scalar  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "data", "yaml-scalars.json")


def words(*ws):
    """Every case spelling that matters: lower, Capitalised, UPPER, and two mixed ones."""
    out = []
    for w in ws:
        for v in (w.lower(), w.capitalize(), w.upper(), w[0].lower() + w[1:].upper(), w[:-1] + w[-1].upper()):
            if v not in out:
                out.append(v)
    return out


INTS = [
    "0", "-0", "+0", "1", "-1", "+1", "12", "1_000", "1__0", "_1", "1_", "-_1", "+_1", "1__",
    "0b101", "-0b101", "+0b1_0", "0b", "0b_", "0b2", "0B1", "0b0",
    "0x1F", "0x1f", "-0x1F", "+0x1F", "0X1F", "0x_1", "0x_", "0x", "0xG", "0x1_F",
    "0o17", "0o", "0O17", "017", "-017", "+017", "0_17", "08", "09", "018", "0_7", "00", "000", "0_", "0__",
    "1:30", "1:30:00", "-1:30", "+1:30", "01:30", "04:00:00", "4:00:00", "00:30", "0:30", "1:60", "1:59",
    "1:7", "1:07:30", "10:00", "23:59:59", "190:20:30", "1_0:30", "1:3_0", "1::30", "1:30:", ":30", "1:2:3:4:5",
    "12345678901234567890", "9007199254740993", "-9223372036854775809", "0x7fffffffffffffff",
    "0xFFFFFFFFFFFFFFFFFFFF", "0b" + "1" * 70, "0" + "7" * 30, "9" * 400, "1" * 4300, "1" * 4301,
]
FLOATS = [
    "1.0", "-1.0", "+1.0", "1.", "-1.", "+1.", ".5", "-.5", "+.5", "0.5", "00.5", "007.5", "3.14", "0.1", "0.0",
    "-0.0", "+0.0", "0.", "-0.", "1e5", "1E5", "1e+5", "1e-5", "-1e5", "+1e5", "1e05", "1e+05", "0e0", "1.0e5",
    "1.0e+5", "1.0e-5", "1.0E5", "1.0E+5", "1.0E-5", "1.e5", "1.e+5", "0.e0", ".5e5", ".5e+5", ".5e-5", ".5E+5",
    "1_000.5", "1_000.5_0", "1_0e5", "1__0.0", "1_e5", "1e1_0", "6.02e23", "6.02e+23", "1e308", "1e309",
    "1.0e+309", "-1e309", "1.0e-400", "2.5e-324", "5e-324", "1.7976931348623157e+308", "0.30000000000000004",
    "123456789012345678901234567890.0", "1e16", "1.0e+16", "1e-4", "1.0e-5",
    "2e-4", "3e-5", "1e-8", "6e-4", "9e-7", "1.5e+3", "1.5e3", "-2.5E-3",
    "1:30.5", "1:30.", "-1:30.5", "+1:30.5", "01:30.5", "1:60.5", "190:20:30.15", "1:30.5e5", "1_0:30.5",
    ".inf", ".Inf", ".INF", "-.inf", "+.inf", "-.Inf", "+.INF", "-.INF", ".iNf", "inf", "Inf", "Infinity", "-inf",
    "+inf", "infinity", ".infinity",
    ".nan", ".NaN", ".NAN", "-.nan", "+.nan", ".Nan", "nan", "NaN", "NAN",
    "._", "._5", ".__", ".e5", "._e+5", "._1e-5", ".5_", "1e", "1e+", "e5", "E5", "1.0e", "1.0e+", "1.5.5", "1,5",
    "3.", "1.2.3", "0.1.2", "10.0.0.1",
]
BOOLS = words("yes", "no", "true", "false", "on", "off", "y", "n") + ["yEs", "tRUE", "oN", "YeS"]
NULLS = ["~", "null", "Null", "NULL", "nULL", "NuLL", "nulL", "None", "none", "NONE", "~~", "nil", "Nil", "NIL"]
TIMESTAMPS = [
    "2024-01-02", "2024-1-2", "2024-01-2", "2024-1-02", "2002-12-14", "20240102", "2024/01/02", "24-01-02",
    "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "2001-12-14 21:59:43.10", "2001-12-15T02:59:43.1Z", "2001-12-15 2:59:43.10", "2024-1-2 3:04:05",
    "2024-13-01", "2024-00-10", "2024-02-30", "2024-02-29", "2023-02-29", "1900-02-29", "2000-02-29", "0000-01-01",
    "0001-01-01", "9999-12-31", "2024-04-31",
    "2024-01-02T25:00:00", "2024-01-02T24:00:00", "2024-01-02T10:60:00", "2024-01-02T10:00:60",
    "2024-01-02 10:00:00 +24", "2024-01-02 10:00:00 +23:59", "2024-01-02 10:00:00 -23:59",
    "2024-01-02T10:00:00.1234567", "2024-01-02T10:00:00.", "2024-01-02T10:00:00.000000",
    "2024-01-02T10:00:00Z", "2024-01-02T10:00:00 Z", "2024-01-02 10:00:00+05:30", "2024-01-02t10:00:00z",
    "2024-01-02T10:00", "2024-01-02T10:00:00+5", "2024-01-02T10:00:00-00:30", "2024-01-02T10:00:00+99",
    "2024-01-02\t10:00:00", "2024-01-02  10:00:00", "2024-01-02T1:00:00",
]
STRINGS = [
    "1-2", "v1", "1st", "0xZZ", "1 000", "1,000", "$1", "1%", "50%", "12h", "1:2:3:4", "2:3", "1:2.3.4",
    "192.168.1.1:8080", "localhost:8000", "http://x:80/y", "+", "-", ".", "..", "-.", "+.", "-_", "1e1e1",
    "None", "True", "yes please", "on-off", "onx", "true1", "nullx", "~x", "=", "==", "=x", "<<", "<", "<<<",
    "???", "${a.b}", "${oc.env:HOME}", "\\${x}", "a b", "a#b", "a: b",
    "bf16", "fp8", "auto", "O2", "O0", "1B", "8x7B", "3e", "0e", "-0e5", "0x", "deadbeef", "0deadbeef",
    "1_000_000", "1__000__000", "16-mixed", "bf16-mixed", "32-true", "Qwen/Qwen3-4B", "10.5B",
    "éé", "１２", "٣", "1\u00a0000",
]
QUOTED = ["1", "1e5", "yes", "y", "null", "~", "", "04:00:00", ".inf", "2024-01-02", "0x10", "True", "1.0", "<<", "="]
TAGGED = [
    "!!str 1", "!!str yes", "!!str ~", "!!str 2024-01-02", "!!int '0x10'", "!!int 1.5", '!!int " 12 "', "!!int ''",
    "!!int 1_000", "!!int '0o17'", "!!int '--5'", "!!float 1", "!!float '1e5'", "!!float inf", "!!float '1_000'",
    "!!float '.5'", "!!float nan", "!!float ''", "!!bool yes", "!!bool y", "!!bool TrUe", "!!bool 1", "!!null foo",
    "!!null ''", "!!timestamp 2024-01-02", "!!timestamp '2024-01-02 10:00:00'", "!!timestamp foo",
    "!!binary aGVsbG8=", "!foo bar", "! 12", "! '12'", "! yes", "!!python/tuple x", "!<tag:yaml.org,2002:int> 7",
]
KEYS = [
    "1", "-1", "0", "0x10", "010", "1_000", "1:30", "04:00:00", "1.5", "1.0", "-0.0", "1e5", "1.0e+5", "1e16",
    ".inf", "-.inf", ".nan", "yes", "no", "true", "True", "on", "OFF", "y", "n", "null", "~", "Null", "None",
    "2024-01-02", "2024-01-02 10:00:00", "2024-01-02T10:00:00Z", "=", "'1'", '"true"', "''", "12345678901234567890",
    "a b", "_target_", "${x}", "1e400",
]
DOCUMENTS = [
    # Merge keys (yaml.constructor.SafeConstructor.flatten_mapping).
    "base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  c: 3\n",
    "base: &b {a: 1, b: 2}\nx:\n  c: 3\n  <<: *b\n  a: 9\n",
    "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nm:\n  <<: [*a, *b]\n",
    "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nm:\n  <<: *a\n  <<: *b\n",
    "a: &a {x: 1}\nb: &b\n  <<: *a\n  y: 2\nc:\n  <<: *b\n  z: 3\n",
    "a: &a {x: 1}\nm:\n  <<: {y: 2}\n  w: 0\n",
    "a: &a {x: 1}\nm:\n  '<<': *a\n",
    "m:\n  <<: 1\n",
    "m:\n  <<: [1]\n",
    "a: &a [1]\nm:\n  <<: *a\n",
    "a: &a {x: 1e5, t: 2024-01-02}\nm:\n  <<: *a\n  x: 04:00:00\n",
    "=: 1\n",
    "x: =\n",
    "x: <<\n",
    # Keys that are the same Python dict key, and keys one loader merges and the other does not.
    "1: a\ntrue: b\n",
    "1: a\n1.0: b\n",
    "0: a\nfalse: b\nno: c\n",
    ".nan: a\n.nan: b\n",
    ".nan: a\n!!float nan : b\n",
    "1e5: a\n100000.0: b\n",
    "2024-01-02 00:00:00: a\n2024-01-02T00:00:00: b\n",
    "2024-01-02 10:00:00 +01:00: a\n2024-01-02T09:00:00Z: b\n",
    "2024-01-02: a\n2024-01-02 00:00:00: b\n",
    "a: 1\na: 2\n",
    "'1': a\n1: b\n",
    "yes: a\n'true': b\ntrue: c\n",
    "~: a\nnull: b\n",
    # Aliases, flow collections, multi-line and block scalars.
    "a: &x 1e5\nb: *x\n",
    "a: &x 04:00:00\nb: [*x, *x]\n",
    "&k 1e5 : a\nb: *k\n",
    "x: [1e5, yes, ~, 0x10, 04:00:00, '1', 2024-01-02, y, .5, 1_000]\n",
    "x: {a: 1e5, yes: no, 1: on, ~: n}\n",
    "x: 1\n  2\n",
    "x: 1\n\n  2\n",
    "x: 1\n  e5\n",
    "x: 2024-01-02\n  10:00:00\n",
    "x: |\n  12\n",
    "x: >-\n  1e5\n",
    "x: |-\n  yes\n",
    "x:\n- 1\n-\n- ~\n",
    "x:\n",
    "? x\n: 1e5\n",
    "? [1, 2]\n: x\n",
    "- 1e5\n- 04:00:00\n",
    "1e5\n",
    "04:00:00\n",
    "",
    "x: 1\n---\ny: 2\n",
    "time_limit: 04:00:00\nlr: 1e-4\nmin_lr: 1.0e-5\neps: 1e-08\nwd: 0.1\nseed: 1234\nprecision: bf16-mixed\n",
]


def answer(text, where, loader):
    """One loader's reading of a one-scalar document: the value at x, or the only key."""
    try:
        data = yaml.safe_load(text) if loader == "pyyaml" else OmegaConf.to_container(OmegaConf.create(text), resolve=False)
    except Exception as e:  # noqa: BLE001 - the rejection is the data
        return {"error": err(e)}
    if where == "value":
        v = data["x"]
        return {"type": type(v).__name__, "value": scalar(v), "repr": repr(v)}
    (k,) = data.keys()
    return {"type": type(k).__name__, "value": scalar(k), "key": key_text(k), "repr": repr(k)}


def document(text, loader):
    try:
        if loader == "pyyaml":
            data = yaml.safe_load(text)
        else:
            data = OmegaConf.to_container(OmegaConf.create(text), resolve=False)
    except Exception as e:  # noqa: BLE001
        return {"error": err(e)}
    return {"nodes": nodes(data, [], [])}


def main():
    rows = []

    def add(source, style, where, text):
        rows.append(
            {
                "source": source,
                "style": style,
                "where": where,
                "yaml": text,
                "pyyaml": answer(text, where, "pyyaml"),
                "omegaconf": answer(text, where, "omegaconf"),
            }
        )

    for s in INTS + FLOATS + BOOLS + NULLS + TIMESTAMPS + STRINGS + [""]:
        add(s, "plain", "value", f"x: {s}\n")
    for s in QUOTED:
        add(s, "single", "value", f"x: '{s}'\n")
        add(s, "double", "value", f'x: "{s}"\n')
    for s in TAGGED:
        add(s, "tagged", "value", f"x: {s}\n")
    for s in KEYS:
        style = "single" if s.startswith("'") else "double" if s.startswith('"') else "plain"
        add(s, style, "key", f"{s}: v\n")
    docs = [{"yaml": t, "pyyaml": document(t, "pyyaml"), "omegaconf": document(t, "omegaconf")} for t in DOCUMENTS]
    table = {
        "generator": "scripts/yaml-truth/generate.py",
        "versions": {"python": sys.version.split()[0], "pyyaml": yaml.__version__, "omegaconf": omegaconf.__version__},
        "scalars": rows,
        "documents": docs,
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=2, ensure_ascii=False, allow_nan=False)
        f.write("\n")
    print(f"{len(rows)} scalars, {len(docs)} documents -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
