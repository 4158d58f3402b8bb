#!/usr/bin/python3
"""Load YAML files the way their consuming programs do and print every node as JSON.

Used by test/core/yamlLoaders.test.ts (the differential test against the project's own reading). For each file:

- pyyaml:    `yaml.safe_load` (TensorRT-LLM's options, disaggregated and retention files).
- omegaconf: `OmegaConf.load` then `OmegaConf.to_container(cfg, resolve=False)` (NeMo, the Launcher, Hydra,
             Megatron-Bridge overrides, NeMo-RL): interpolations stay unresolved.

When the real entry point rejects a file (several documents, OmegaConf's duplicate-key check, a key type OmegaConf
refuses), `accepted` is false with the error, and the documents are still read with the same loader class through
`yaml.load_all` (for OmegaConf: its loader without the duplicate-key check), so that their scalars can be compared.

Every node becomes [path, type, value]: path segments are mapping keys (named as json.dumps names a dict key) and
sequence indices; type is the Python type name ('dict' and 'list' for collections, with their length as value);
values are JSON, non-finite floats as the strings 'inf', '-inf', 'nan', dates and datetimes as isoformat().

Run: /usr/bin/python3 scripts/yaml-truth/dump.py FILE... > out.json
Needs Debian's python3-yaml and python3-omegaconf (apt-get install -y python3-yaml python3-omegaconf).
"""
import datetime
import json
import math
import sys

try:
    import yaml
    from omegaconf import OmegaConf
    from omegaconf._utils import get_yaml_loader
except ImportError as e:  # the test reports this with the install command
    print(json.dumps({"missing": e.name}))
    sys.exit(3)


def key_text(k):
    """A dict key as json.dumps names it (dates, which json.dumps refuses, as isoformat())."""
    if isinstance(k, str):
        return k
    if isinstance(k, (datetime.date, datetime.datetime)):
        return k.isoformat()
    if isinstance(k, bytes):
        return k.decode("latin-1")
    return next(iter(json.loads(json.dumps({k: 0}))))


def scalar(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if v != v else ("inf" if v > 0 else "-inf")
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return v


def nodes(v, path, out):
    if isinstance(v, dict):
        out.append([path, "dict", len(v)])
        for k, x in v.items():
            nodes(x, path + [key_text(k)], out)
    elif isinstance(v, list):
        out.append([path, "list", len(v)])
        for i, x in enumerate(v):
            nodes(x, path + [i], out)
    else:
        out.append([path, type(v).__name__, scalar(v)])
    return out


def lenient_omegaconf_loader():
    """OmegaConf's resolvers without its duplicate-key check, to read a file OmegaConf itself rejects."""
    base = get_yaml_loader()

    class Lenient(base):
        def construct_mapping(self, node, deep=False):
            return yaml.SafeLoader.construct_mapping(self, node, deep=deep)

    return Lenient


def err(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".strip()


def read(path, text, loader):
    r = {"accepted": True}
    try:
        if loader == "pyyaml":
            docs = [yaml.safe_load(text)]
        else:
            docs = [OmegaConf.to_container(OmegaConf.load(path), resolve=False)]
    except Exception as e:  # noqa: BLE001 - any rejection is data here
        r = {"accepted": False, "error": err(e)}
        cls = yaml.SafeLoader if loader == "pyyaml" else lenient_omegaconf_loader()
        try:
            docs = list(yaml.load_all(text, Loader=cls))
        except Exception as e2:  # noqa: BLE001
            r["fallbackError"] = err(e2)
            docs = None
    r["docs"] = None if docs is None else [nodes(d, [], []) for d in docs]
    return r


def main():
    out = []
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        out.append({"file": path, "pyyaml": read(path, text, "pyyaml"), "omegaconf": read(path, text, "omegaconf")})
    json.dump({"files": out}, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
