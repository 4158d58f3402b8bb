#!/usr/bin/env python3
"""Derive schemas/megatron-lm.schema.json from Megatron-LM's command-line parser (megatron/training/arguments.py).

A Megatron-LM run config (the functional tests' model_config.yaml, and launch scripts written the same way) lists
the arguments of pretrain_gpt.py under MODEL_ARGS as `--flag: value`. Its runner
(tests/functional_tests/shell_test_utils/_run_training.sh) turns `--flag: true` into the bare switch and every other
value into `--flag <value>` (a list loses its brackets, a value with spaces is quoted), after envsubst has filled
`${VARS}`. So a value must be what argparse accepts after the text conversion: an integer for `type=int`, a number for
`type=float`, any scalar for `type=str`, `true` for a switch (`false` would reach argparse as a stray positional
argument, which it rejects), a list or a scalar for `nargs`, one of `choices`.

Read with `ast` (nothing is imported): every `add_argument(...)` call of arguments.py, and the flags that
`ArgumentGroupFactory(SomeConfig, exclude=[...]).build_group(...)` derives from a dataclass (megatron-core 0.16 on):
`--field-name`, a switch for a boolean (`--no-field-name` / `--disable-field-name` when it defaults to true), the
enum's member names, a Literal's values, `nargs='+'` for a list, and the field's `argparse_meta` over all of that
(megatron/training/argument_utils.py). The object stays open: a flag that no release has is passed to the script,
which may add its own arguments (extra_args_provider), so only a near miss of a real flag is reported.

Several releases are merged as for Megatron-Bridge (x-releases, x-releaseNotes, x-source); megatron-lm.overlay.json
adds the project's annotations and the run config's other sections. Python 3 standard library only; deterministic output.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate as g  # noqa: E402  (the Bridge generator: sources, classes, schema algebra, overlay)

trt = g.trt
NO_VALUE = g.NO_VALUE
_const = g._const
_name_of = g._name_of

SCHEMA_ID = 'https://recipe-lens.dev/schemas/megatron-lm.schema.json'
ARGUMENTS = 'megatron.training.arguments'

SCALAR = ['boolean', 'integer', 'number', 'string', 'null']
# The runner passes every value as text, so `1e-6` (a string to a YAML 1.1 reader) is a float to argparse.
INT_TEXT = r'^\s*[+-]?\d+\s*$'
FLOAT_TEXT = r'^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$'
# The value kinds, defined once and referenced by each flag.
DEFS = {
    'switch': {
        'enum': [True],
        'description': 'A switch: write `true` (or leave it out); `false` reaches argparse as a stray argument, which it rejects.',
    },
    'int': {'type': ['integer', 'string'], 'pattern': INT_TEXT, 'description': 'An integer (type=int); the text of one works too.'},
    'float': {'type': ['number', 'string'], 'pattern': FLOAT_TEXT, 'description': 'A number (type=float); the text of one works too.'},
    'text': {'type': SCALAR, 'description': 'Any scalar: it reaches argparse as text (type=str).'},
}
REF = {k: {'$ref': f'#/$defs/{k}'} for k in DEFS}
# Help texts are long and the flag names say much already: the sentences that fit here (the VSIX ships them thrice).
HELP_LIMIT = 120


def value_schema(kind: str, choices: Optional[List[Any]]) -> dict:
    """The YAML values that become a valid argument of this kind after the runner's text conversion."""
    if kind in ('int', 'float'):
        s: dict = dict(REF[kind])
    elif kind == 'str':
        s = dict(REF['text'])
    else:
        # A converter function (moe_freq_type, tuple_type, a lambda), or bool() which is true for any text.
        s = {}
    if choices:
        vals = [c for c in choices if trt._json_safe(c)]
        if kind == 'str':
            vals = [str(c) for c in vals]
        if vals:
            s = {'type': g._types_of(vals), 'enum': vals}
            if len(s['type']) == 1:
                s['type'] = s['type'][0]
    return s


def flag_schema(kind: str, action: Optional[str], nargs: Any, choices: Optional[List[Any]], default: Any, help_text: str) -> dict:
    if action in ('store_true', 'store_false', 'store_const', 'count', 'BooleanOptionalAction'):
        s: dict = dict(REF['switch'])
        desc = help_text
    else:
        item = value_schema(kind, choices)
        if nargs is not None or action == 'append':
            # One value, a list, or the values in one string.
            alts = [item, {'type': 'array', 'items': item}]
            if item != REF['text']:
                alts.append({'type': 'string'})
            s = {'anyOf': alts} if item else {}
        else:
            s = item
        desc = help_text
        if default is not NO_VALUE and default is not None and trt._json_safe(default) and not isinstance(default, (dict, list)):
            s['default'] = default
    if desc:
        s['description'] = g._paragraph(desc, HELP_LIMIT)
    if re.match(r'^\W*deprecated\b', help_text, re.I):
        # Help texts say what the flag did, then what happens now: keep all of it.
        note = re.sub(r'^\W*deprecated\W*', '', help_text, flags=re.I)
        s['deprecated'] = True
        s['x-deprecatedMessage'] = re.sub(r'(?<=[a-z][.!?])(?=[A-Z])', ' ', note).strip() or 'deprecated'
    return s


def _help(node: Optional[ast.expr], default: Any = NO_VALUE) -> str:
    """The help text on one line, `%(default)s` filled in as argparse would (the deprecation test reads it whole)."""
    text = trt._string_concat(node) if node is not None else None
    if not text:
        return ''
    text = ' '.join(text.split())
    if '%(default)s' in text:
        text = text.replace('%(default)s', str(default) if default is not NO_VALUE else 'None')
    return text.replace('%%', '%')


class Reader:
    def __init__(self, root: str):
        self.src = g.Source([(pkg, os.path.join(root, *rel)) for pkg, rel in g.MCORE_PACKAGES])
        self.ex = g.Extractor(self.src)
        mod = self.src.module(ARGUMENTS)
        if mod is None:
            raise SystemExit(f'{root}: megatron/training/arguments.py not found (is --src a Megatron-LM checkout?)')
        self.mod = mod
        self.flags: Dict[str, dict] = {}

    def add(self, names: List[str], schema: dict) -> None:
        """The first name holds the schema, the other spellings (`--disable-x` beside `--no-x`) refer to it."""
        names = [n for n in names if n.startswith('--')]
        first = next((n for n in names if n not in self.flags), None)
        if first is None:
            return
        self.flags[first] = schema
        for n in names:
            if n not in self.flags:
                self.flags[n] = {'$ref': f'#/properties/MODEL_ARGS/properties/{first}'}

    def read(self) -> Dict[str, dict]:
        for fn in self.mod.functions.values():
            if not isinstance(fn, ast.FunctionDef):
                continue
            local = {}
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    local[node.targets[0].id] = node.value
                elif isinstance(node, ast.ImportFrom):
                    # `from megatron.training.config import TokenizerConfig` inside the function.
                    base = self.mod._absolute(node.module or '', node.level)
                    for a in node.names:
                        self.mod.imports.setdefault(a.asname or a.name, (base, a.name))
            calls = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
            for call in calls:
                if not isinstance(call.func, ast.Attribute):
                    continue
                if call.func.attr == 'add_argument':
                    self.add_argument(call)
                elif call.func.attr == 'build_group':
                    factory = call.func.value
                    if isinstance(factory, ast.Name):
                        factory = local.get(factory.id)
                    if isinstance(factory, ast.Call) and _name_of(factory.func).endswith('ArgumentGroupFactory'):
                        self.factory(factory, local)
        return self.flags

    def enum_names(self, node: ast.expr) -> Optional[List[Any]]:
        """`choices=list(AttnBackend)` / `choices=[...]`."""
        lit = _const(node)
        if isinstance(lit, (list, tuple)):
            return list(lit)
        inner = node.args[0] if isinstance(node, ast.Call) and node.args and _name_of(node.func) == 'list' else node
        ci = self.ex.lookup(self.mod, g._dotted(inner)) if isinstance(inner, (ast.Name, ast.Attribute)) else None
        if ci is not None and ci.kind == 'enum':
            return [n for n, _ in self.ex.enum_members(ci)]
        return None

    def add_argument(self, call: ast.Call) -> None:
        names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith('-')]
        if not names:
            return
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        action = _const(kw['action']) if 'action' in kw else None
        if 'action' in kw and _name_of(kw['action']) == 'BooleanOptionalAction':
            action = 'BooleanOptionalAction'
            names = names + ['--no-' + n[2:] for n in names if n.startswith('--')]
        kind = _name_of(kw['type']) if 'type' in kw else ('str' if action not in ('store_true', 'store_false', 'store_const', 'count') else '')
        if kind not in ('int', 'float', 'str'):
            kind = 'custom' if kind else 'str'
        choices = self.enum_names(kw['choices']) if 'choices' in kw else None
        nargs = _const(kw['nargs']) if 'nargs' in kw else None
        default = _const(kw['default']) if 'default' in kw else NO_VALUE
        self.add(names, flag_schema(kind, action if isinstance(action, str) else None, nargs, choices, default, _help(kw.get('help'), default)))

    def factory(self, call: ast.Call, local: Dict[str, ast.expr]) -> None:
        """The flags ArgumentGroupFactory(Config, exclude=[...]) derives from the dataclass's fields."""
        if not call.args:
            return
        ci = self.ex.lookup(self.mod, g._dotted(call.args[0]))
        if ci is None:
            return
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        exclude_node = kw.get('exclude') or (call.args[1] if len(call.args) > 1 else None)
        if isinstance(exclude_node, ast.Name):
            exclude_node = local.get(exclude_node.id)
        exclude = _const(exclude_node) if exclude_node is not None else []
        exclude = set(exclude) if isinstance(exclude, (list, tuple, set)) else set()
        for name, f in self.ex.fields(ci).items():
            if name in exclude or f.get('init_only'):
                continue
            value = f['value']
            fkw = {k.arg: k.value for k in value.keywords if k.arg} if isinstance(value, ast.Call) and _name_of(value.func) == 'field' else {}
            if _const(fkw.get('init')) is False:
                continue
            meta: dict = {}
            md = fkw.get('metadata')
            if isinstance(md, ast.Dict):
                for k, v in zip(md.keys, md.values):
                    if _const(k) == 'argparse_meta' and isinstance(v, ast.Dict):
                        meta = {_const(mk): mv for mk, mv in zip(v.keys, v.values) if isinstance(_const(mk), str)}
            default = self.ex.default_of(f['module'], value)
            if 'default' in meta:
                default = _const(meta['default'])
            kind, choices, nargs, action = self.infer(f['module'], f['annotation'], default)
            if 'type' in meta:
                t = _name_of(meta['type'])
                kind = t if t in ('int', 'float', 'str') else 'custom'
                if t == 'bool' and 'action' not in meta:
                    action = None
            if 'choices' in meta:
                choices = self.enum_names(meta['choices'])
            if 'nargs' in meta:
                nargs = _const(meta['nargs'])
            if 'action' in meta:
                action = _const(meta['action']) if not _name_of(meta['action']) == 'BooleanOptionalAction' else 'BooleanOptionalAction'
            if 'arg_names' in meta and isinstance(_const(meta['arg_names']), (list, tuple)):
                names = list(_const(meta['arg_names']))
            elif action == 'store_false':
                names = ['--no-' + name.replace('_', '-'), '--disable-' + name.replace('_', '-')]
            else:
                names = ['--' + name.replace('_', '-')]
            if action == 'BooleanOptionalAction':
                names = names + ['--no-' + n[2:] for n in names if n.startswith('--')]
            self.add(names, flag_schema(kind, action, nargs, choices, default, g._paragraph(f['doc'], 10**6)))

    def infer(self, mod: g.Module, ann: ast.expr, default: Any) -> Tuple[str, Optional[List[Any]], Any, Optional[str]]:
        """ArgumentGroupFactory._extract_type: (kind, choices, nargs, action)."""
        head = _name_of(ann) if isinstance(ann, ast.Subscript) else ''
        if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
            parts = [ann.left, ann.right]
            non_none = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None) and _name_of(p) != 'None']
            if len(non_none) == 1:
                return self.infer(mod, non_none[0], default)
            return 'custom', None, None, None
        if head == 'Optional':
            return self.infer(mod, ann.slice, default)  # type: ignore[attr-defined]
        if head == 'Union':
            sl = ann.slice  # type: ignore[attr-defined]
            elts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            non_none = [e for e in elts if not (isinstance(e, ast.Constant) and e.value is None) and _name_of(e) != 'None']
            if len(non_none) == 1:
                return self.infer(mod, non_none[0], default)
            return 'custom', None, None, None
        if head in ('list', 'List'):
            kind, choices, _, _ = self.infer(mod, ann.slice, NO_VALUE)  # type: ignore[attr-defined]
            return kind, choices, '+', None
        if head == 'Literal':
            sl = ann.slice  # type: ignore[attr-defined]
            vals = [v for v in (_const(e) for e in (sl.elts if isinstance(sl, ast.Tuple) else [sl])) if v is not NO_VALUE]
            kind = 'int' if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals) else 'str'
            return kind, vals, None, None
        name = g._dotted(ann)
        if name == 'bool':
            return '', None, None, 'store_true' if default is False else 'store_false'
        if name in ('int', 'float', 'str'):
            return name, None, None, None
        ci = self.ex.lookup(mod, name) if name else None
        if ci is not None and ci.kind == 'enum':
            return 'str', [n for n, _ in self.ex.enum_members(ci)], None, None
        return 'custom', None, None, None


def build(releases: List[Tuple[str, str, Dict[str, dict]]], overlay: dict) -> dict:
    order = [r for r, _, _ in releases]
    names: List[str] = []
    for _, _, flags in releases:
        for n in flags:
            if n not in names:
                names.append(n)
    props = {}
    for n in sorted(names):
        # Release notes keep the type and choices a release had; an old default is of no use to a command line.
        props[n] = g.merge_property([(r, f[n]) for r, _, f in releases if n in f], order, ('type', 'enum'))
    schema: dict = {
        '$schema': 'https://json-schema.org/draft/2020-12/schema',
        '$id': SCHEMA_ID,
        'title': 'Megatron-LM arguments (MODEL_ARGS)',
        'description': '',
        'type': 'object',
        'x-releases': order,
        'x-source': {r: c for r, c, _ in releases},
        'properties': {
            'MODEL_ARGS': {
                'type': 'object',
                'description': 'Arguments of pretrain_gpt.py (megatron/training/arguments.py), one `--flag: value` each.',
                'properties': props,
            }
        },
        '$defs': copy.deepcopy(DEFS),
    }
    g.apply_overlay(schema, overlay)
    return schema


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--src', action='append', required=True, help='Megatron-LM checkout (repeat, oldest release first)')
    ap.add_argument('--release', action='append', required=True, help='release name for the --src at the same position')
    ap.add_argument('--commit', action='append', default=[], help='commit of the --src at the same position (x-source)')
    ap.add_argument('--overlay', help='project annotations merged into the output (megatron-lm.overlay.json)')
    ap.add_argument('--out', required=True, help='path of megatron-lm.schema.json to write')
    args = ap.parse_args(argv)
    if len(args.src) != len(args.release) or (args.commit and len(args.commit) != len(args.src)):
        ap.error('give one --release (and one --commit, if any) per --src, in the same order')
    releases = []
    for i, (src, rel) in enumerate(zip(args.src, args.release)):
        reader = Reader(src)
        flags = reader.read()
        for s in reader.src.skipped:
            print(f'{rel}: skipped {s}', file=sys.stderr)
        releases.append((rel, args.commit[i] if args.commit else 'unknown', flags))
    overlay = {}
    if args.overlay:
        with open(args.overlay, encoding='utf-8') as f:
            overlay = json.load(f)
    schema = build(releases, overlay)
    with open(args.out, 'w', encoding='utf-8') as f:
        f.write(trt.dump(schema))
    n = len(schema['properties']['MODEL_ARGS']['properties'])
    print(f'wrote {args.out}: {n} flags, releases {", ".join(r for r, _, _ in releases)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
