#!/usr/bin/env python3
"""Derive schemas/megatron-bridge.schema.json from the dataclasses Megatron-Bridge loads a YAML config into.

Reads the Python source of Megatron-Bridge releases and of the Megatron-LM commit each release pins (its
3rdparty/Megatron-LM submodule) with `ast`; nothing is imported, so no GPU, torch or pip install is needed.

What a YAML file may say is what `ConfigContainer` holds: one section per field (`model`, `train`, `optimizer`,
`ddp`, `dataset`, `scheduler`, `checkpoint`, `logger`, `comm_overlap`, `mixed_precision`, `peft`, ...). A section
accepts the fields of every class that field may hold: the classes its annotation names and their subclasses in
Megatron-Bridge (every model provider for `model`, every dataset provider for `dataset`, every PEFT method for
`peft`), with the fields they inherit from megatron-core (TransformerConfig, ModelParallelConfig, OptimizerConfig,
DistributedDataParallelConfig, GPTDatasetConfig, ...) and megatron.training (TrainingConfig, SchedulerConfig, ...).

Types come from the annotations (Optional -> null allowed, Union, Literal -> enum, enums, List/Tuple, Dict, nested
dataclasses as $defs); annotations that YAML cannot spell or that Python never checks (Callable, torch.dtype,
ModuleSpec, other classes) accept anything. Defaults and descriptions (attribute docstrings, else the comment above
the field) come from the same source. Every object stays open: both loaders drop an unknown key with a warning
(apply_overrides: "Key ... not found in config object ... Skipping"; ConfigContainer.from_yaml's lenient
instantiate: "Dropping unexpected config keys").

Several releases are merged into one schema: a property lists the releases that have it (`x-releases`; none: all
of them), per-release differences of type, enum or default are kept in `x-releaseNotes`, the values accepted are
the union over the releases, and the root records each release's commits (`x-source`).

Project knowledge that is not in the source (rule ids, descriptions citing formats.md rules, deprecations with
their replacement, aliases) lives in overlay.json beside this script and is merged last (JSON pointers, as for
scripts/trtllm-schema/). The output is never edited by hand and is deterministic.

Only the Python 3 standard library is used. See README.md beside this script for the pinned commits and how to rerun.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import json
import os
import re
import sys
from typing import Any, Dict, Iterable, List, Optional, Tuple

# The TensorRT-LLM generator's helpers for literals, overlays and output are shared, not copied.
_TRT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'trtllm-schema', 'generate.py')
_spec = importlib.util.spec_from_file_location('trtllm_schema_generate', _TRT_PATH)
assert _spec is not None and _spec.loader is not None
trt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(trt)

NO_VALUE = trt.NO_VALUE
_const = trt._const
_name_of = trt._name_of

SCHEMA_ID = 'https://recipe-lens.dev/schemas/megatron-bridge.schema.json'

# Dotted package -> directory inside a checkout. Megatron-Bridge's own tree, and the two Megatron-LM packages it
# builds on (megatron.training.config exists from the Megatron-LM commits Bridge 0.4 pins).
BRIDGE_PACKAGES = [('megatron.bridge', ('src', 'megatron', 'bridge'))]
MCORE_PACKAGES = [('megatron.core', ('megatron', 'core')), ('megatron.training', ('megatron', 'training'))]

CONTAINER_MODULE = 'megatron.bridge.training.config'
CONTAINER_CLASS = 'ConfigContainer'

# String values a ConfigContainer field accepts because Megatron-Bridge looks them up in a registry of functions
# (get_mixed_precision_config(name): MIXED_PRECISION_RECIPES, filled by the @register decorator, which also
# registers the hyphenated spelling).
REGISTRIES = {'mixed_precision': ('megatron.bridge.training.mixed_precision', 'register')}

ENUM_ROOTS = {'Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag'}
PERMISSIVE_NAMES = {'Any', 'object', 'Callable', 'Type', 'type', 'TypeVar', 'Generic', 'Protocol'}
SEQUENCE_HEADS = {'List', 'list', 'Sequence', 'MutableSequence', 'Set', 'set', 'FrozenSet', 'frozenset', 'Iterable'}
MAPPING_HEADS = {'Dict', 'dict', 'Mapping', 'MutableMapping', 'DefaultDict', 'OrderedDict'}

# Python never checks a dataclass field's type. Megatron tests booleans for truth (`if args.manual_gc_eval:`), so an
# integer works, and NVIDIA's own performance configs write `manual_gc_eval: 100`; None is false there too. Options
# that are strings are compared (`fp8_recipe == "mxfp8"`), so None reads as "not this one": NVIDIA's NVFP4
# performance configs write `fp8_recipe: null` beside `fp8: null`.
BOOL = {'type': ['boolean', 'integer', 'null']}
SIMPLE = {
    'int': {'type': 'integer'},
    'float': {'type': 'number'},
    'complex': {'type': 'number'},
    'bool': BOOL,
    'str': {'type': ['string', 'null']},
    'bytes': {'type': 'string'},
    'Path': {'type': 'string'},
    'PathLike': {'type': 'string'},
    'dict': {'type': 'object'},
    'Dict': {'type': 'object'},
    'Mapping': {'type': 'object'},
    'list': {'type': 'array'},
    'List': {'type': 'array'},
    'Sequence': {'type': 'array'},
    'tuple': {'type': 'array'},
    'Tuple': {'type': 'array'},
    'set': {'type': 'array'},
    'Set': {'type': 'array'},
}

# A serialized object (ConfigContainer.to_yaml): a dataclass, an enum member, a dtype or a function, named by
# `_target_`; `_call_: false` keeps the named object itself, `_args_` are positional arguments, `_partial_`
# makes a functools.partial (megatron/training/config/instantiate_utils.py, yaml_utils.py).
TARGET_NODE = {
    'type': 'object',
    'description': 'A serialized object: `_target_` names the class, enum or function; `_call_: false` keeps it uncalled, `_args_` are positional arguments, `_partial_: true` makes a partial.',
    'properties': {
        '_target_': {'type': 'string', 'description': 'Import path of the class, enum or function this mapping is instantiated as.'},
        '_call_': {'type': 'boolean', 'description': 'false: use the named object itself instead of calling it.'},
        '_partial_': {'type': 'boolean', 'description': 'true: a functools.partial of the target with the other keys as arguments.'},
        '_args_': {'type': 'array', 'description': 'Positional arguments of the call.'},
        '_name_': {'type': 'string', 'description': 'The enum member name (informational).'},
    },
    'required': ['_target_'],
}
# Every class's `_target_` key, defined once.
TARGET_NAME = {
    'type': 'string',
    'description': 'Import path of the class this mapping is instantiated as (fully serialized configs, ConfigContainer.to_yaml). A class the schema does not know is accepted; its keys are checked as this section\'s.',
}
TARGET_PROPERTY = {'$ref': '#/$defs/_target_name'}


# ---------------------------------------------------------------------------------------------
# Reading the source


class Module:
    def __init__(self, name: str, path: str, is_package: bool, text: str, tree: ast.Module):
        self.name = name
        self.path = path
        self.package = name if is_package else name.rpartition('.')[0]
        self.lines = text.split('\n')
        self.classes: Dict[str, ast.ClassDef] = {}
        self.functions: Dict[str, ast.FunctionDef] = {}
        self.aliases: Dict[str, ast.expr] = {}
        # local name -> (absolute module, attribute or None for `import a.b as c`)
        self.imports: Dict[str, Tuple[str, Optional[str]]] = {}
        for node in tree.body:
            self._collect(node)

    def _collect(self, node: ast.stmt) -> None:
        if isinstance(node, ast.ClassDef):
            self.classes[node.name] = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[node.name] = node  # type: ignore[assignment]
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.aliases.setdefault(node.targets[0].id, node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            if _name_of(node.annotation) == 'TypeAlias':
                self.aliases[node.target.id] = node.value
        elif isinstance(node, ast.ImportFrom):
            base = self._absolute(node.module or '', node.level)
            for a in node.names:
                if a.name != '*':
                    self.imports.setdefault(a.asname or a.name, (base, a.name))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    self.imports.setdefault(a.asname, (a.name, None))
                else:
                    top = a.name.split('.')[0]
                    self.imports.setdefault(top, (top, None))
        elif isinstance(node, ast.If):
            # `if TYPE_CHECKING:` and feature switches: both branches.
            for sub in node.body + node.orelse:
                self._collect(sub)
        elif isinstance(node, ast.Try):
            for sub in node.body + [s for h in node.handlers for s in h.body] + node.orelse:
                self._collect(sub)

    def _absolute(self, module: str, level: int) -> str:
        if level == 0:
            return module
        parts = self.package.split('.') if self.package else []
        if level > 1:
            parts = parts[: len(parts) - (level - 1)]
        return '.'.join(parts + ([module] if module else []))


class Source:
    """The modules of one release, parsed when first needed: `roots` maps dotted packages to directories, the first
    being the tree the subclass scan walks (Megatron-Bridge, then the Megatron-LM packages)."""

    def __init__(self, roots: List[Tuple[str, str]]):
        self.roots = roots
        self.cache: Dict[str, Optional[Module]] = {}
        self.skipped: List[str] = []

    @classmethod
    def bridge(cls, bridge_root: str, mcore_root: str) -> 'Source':
        roots = [(pkg, os.path.join(bridge_root, *rel)) for pkg, rel in BRIDGE_PACKAGES]
        roots += [(pkg, os.path.join(mcore_root, *rel)) for pkg, rel in MCORE_PACKAGES]
        src = cls(roots)
        container = src.module(CONTAINER_MODULE)
        if container is None or CONTAINER_CLASS not in container.classes:
            raise SystemExit(f'{bridge_root}: {CONTAINER_MODULE}.{CONTAINER_CLASS} not found (is --bridge a Megatron-Bridge checkout?)')
        return src

    def file_of(self, name: str) -> Optional[Tuple[str, bool]]:
        for pkg, root in self.roots:
            if name == pkg or name.startswith(pkg + '.'):
                rest = name[len(pkg) :].lstrip('.').split('.') if name != pkg else []
                base = os.path.join(root, *rest)
                if os.path.isfile(base + '.py'):
                    return base + '.py', False
                if os.path.isfile(os.path.join(base, '__init__.py')):
                    return os.path.join(base, '__init__.py'), True
        return None

    def module(self, name: str) -> Optional[Module]:
        if name in self.cache:
            return self.cache[name]
        self.cache[name] = None
        found = self.file_of(name)
        if found is None:
            return None
        path, is_package = found
        with open(path, encoding='utf-8') as f:
            text = f.read()
        try:
            tree = ast.parse(text, filename=path)
        except SyntaxError as e:
            self.skipped.append(f'{name}: {e.msg}')
            return None
        mod = Module(name, path, is_package, text, tree)
        self.cache[name] = mod
        return mod

    def bridge_modules(self) -> Iterable[str]:
        """Every module of the Megatron-Bridge tree, sorted (for the subclass scan)."""
        pkg, root = self.roots[0]
        names = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            rel = os.path.relpath(dirpath, root)
            parts = [] if rel == '.' else rel.split(os.sep)
            for fn in sorted(filenames):
                if not fn.endswith('.py'):
                    continue
                mod_parts = parts if fn == '__init__.py' else parts + [fn[:-3]]
                names.append('.'.join([pkg] + mod_parts))
        return sorted(names)

    def resolve(self, mod: Module, dotted: str, depth: int = 0) -> Tuple[Optional[Module], str, str]:
        """(module, name, kind) for a name used in `mod`: kind 'class', 'alias', 'function', 'module' or '' with
        the dotted external name (`torch.dtype`) when it leads outside the checkouts."""
        if depth > 12:
            return None, dotted, ''
        head, _, rest = dotted.partition('.')
        if not rest:
            if head in mod.classes:
                return mod, head, 'class'
            if head in mod.aliases:
                return mod, head, 'alias'
            if head in mod.functions:
                return mod, head, 'function'
        if head in mod.imports:
            target, attr = mod.imports[head]
            if attr is None:
                full = target + ('.' + rest if rest else '')
                return self._resolve_absolute(full, depth + 1)
            sub = self.module(target + '.' + attr)
            if sub is not None:
                # `from pkg import submodule`
                return self.resolve(sub, rest, depth + 1) if rest else (sub, '', 'module')
            src = self.module(target)
            if src is None:
                return None, target + '.' + attr + ('.' + rest if rest else ''), ''
            return self.resolve(src, attr + ('.' + rest if rest else ''), depth + 1)
        if rest and head in mod.classes:
            return mod, dotted, 'attribute'
        return None, dotted, ''

    def _resolve_absolute(self, full: str, depth: int) -> Tuple[Optional[Module], str, str]:
        parts = full.split('.')
        for i in range(len(parts), 0, -1):
            m = self.module('.'.join(parts[:i]))
            if m is not None:
                rest = '.'.join(parts[i:])
                return self.resolve(m, rest, depth + 1) if rest else (m, '', 'module')
        return None, full, ''


# ---------------------------------------------------------------------------------------------
# Classes


class ClassInfo:
    def __init__(self, module: Module, node: ast.ClassDef):
        self.module = module
        self.node = node
        self.name = node.name
        self.qualname = f'{module.name}.{node.name}'
        self.bases: List['ClassInfo'] = []
        self.base_names: List[str] = []
        self.kind = ''  # 'dataclass' | 'enum' | ''
        self.own: Dict[str, dict] = {}
        self.doc = ast.get_docstring(node) or ''


def _is_dataclass_decorator(d: ast.expr) -> bool:
    return _name_of(d) == 'dataclass'


class Extractor:
    def __init__(self, src: Source):
        self.src = src
        self.classes: Dict[str, ClassInfo] = {}
        self.def_names: Dict[str, str] = {}
        self.defs: Dict[str, dict] = {}
        self.building: set = set()
        self.mros: Dict[str, List[ClassInfo]] = {}

    def info(self, mod: Module, name: str) -> ClassInfo:
        key = f'{mod.name}.{name}'
        if key in self.classes:
            return self.classes[key]
        node = mod.classes[name]
        ci = ClassInfo(mod, node)
        self.classes[key] = ci
        for b in node.bases:
            bn = _dotted(b)
            ci.base_names.append(bn.rsplit('.', 1)[-1])
            m, n, kind = self.src.resolve(mod, bn)
            if kind == 'class' and m is not None and f'{m.name}.{n}' != key:
                ci.bases.append(self.info(m, n))
        if set(ci.base_names) & ENUM_ROOTS or any(b.kind == 'enum' for b in ci.bases):
            ci.kind = 'enum'
        elif any(_is_dataclass_decorator(d) for d in node.decorator_list) or any(b.kind == 'dataclass' for b in ci.bases):
            # A subclass of a dataclass without the decorator adds class attributes, which both loaders set too.
            ci.kind = 'dataclass'
        if ci.kind == 'dataclass':
            self.own_fields(ci)
        return ci

    def lookup(self, mod: Module, dotted: str) -> Optional[ClassInfo]:
        m, n, kind = self.src.resolve(mod, dotted)
        if kind == 'class' and m is not None:
            return self.info(m, n)
        return None

    def mro(self, ci: ClassInfo) -> List[ClassInfo]:
        """C3 linearization over the classes found in the checkouts."""
        if ci.qualname in self.mros:
            return self.mros[ci.qualname]
        self.mros[ci.qualname] = [ci]
        seqs = [self.mro(b) for b in ci.bases] + [list(ci.bases)]
        out = [ci]
        seqs = [list(s) for s in seqs if s]
        while seqs:
            for s in seqs:
                head = s[0]
                if not any(head in t[1:] for t in seqs):
                    break
            else:
                # Inconsistent hierarchy: fall back to depth-first order.
                head = seqs[0][0]
            out.append(head)
            seqs = [[c for c in s if c is not head] for s in seqs]
            seqs = [s for s in seqs if s]
        self.mros[ci.qualname] = out
        return out

    def fields(self, ci: ClassInfo) -> Dict[str, dict]:
        """Fields in dataclass order: base classes first (reverse MRO), a redeclaration keeps the first position."""
        out: Dict[str, dict] = {}
        for c in reversed(self.mro(ci)):
            if c.kind != 'dataclass':
                continue
            for k, f in c.own.items():
                if k in out:
                    # Redeclared: the subclass's annotation and default, the base's description when it has none.
                    merged = dict(f)
                    merged['doc'] = f['doc'] or out[k]['doc']
                    merged['decls'] = out[k]['decls'] + [f]
                    out[k] = merged
                else:
                    out[k] = dict(f, decls=[f])
        return out

    def own_fields(self, ci: ClassInfo) -> None:
        body = ci.node.body
        for i, stmt in enumerate(body):
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            name = stmt.target.id
            head = _name_of(stmt.annotation)
            if head in ('ClassVar', 'InitVar') or name.startswith('_'):
                continue
            nxt = body[i + 1] if i + 1 < len(body) else None
            doc = ''
            if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str):
                doc = nxt.value.value
            if not doc:
                doc = self.comment_above(ci.module, stmt)
            ci.own[name] = {'module': ci.module, 'annotation': stmt.annotation, 'value': stmt.value, 'owner': ci, 'doc': doc}
        # A dataclass with its own __init__ (Bridge's GPTDatasetConfig) takes keyword parameters that are no fields
        # (`skip_getting_attention_mask_from_dataset`): instantiate passes them, apply_overrides finds the attribute.
        init = next((b for b in body if isinstance(b, ast.FunctionDef) and b.name == '__init__'), None)
        if init is not None:
            args = init.args
            named = args.args[1:] + args.kwonlyargs
            defaults = [None] * (len(args.args) - 1 - len(args.defaults)) + list(args.defaults) + list(args.kw_defaults)
            docs = _arg_docs(ast.get_docstring(init) or '')
            for a, d in zip(named, defaults):
                if a.arg.startswith('_') or a.arg in ci.own:
                    continue
                ci.own[a.arg] = {'module': ci.module, 'annotation': a.annotation, 'value': d, 'owner': ci, 'doc': docs.get(a.arg, ''), 'init_only': True}

    @staticmethod
    def comment_above(mod: Module, stmt: ast.stmt) -> str:
        """The comment block directly above a field, or the comment at the end of its line."""
        lines = mod.lines
        out: List[str] = []
        i = stmt.lineno - 2
        while i >= 0:
            s = lines[i].strip()
            if not s.startswith('#'):
                break
            out.append(s.lstrip('#').strip())
            i -= 1
        text = ' '.join(reversed([x for x in out if x and not set(x) <= set('#=-')]))
        if not text and stmt.end_lineno == stmt.lineno:
            line = lines[stmt.lineno - 1]
            m = re.search(r'#\s*(.+)$', line)
            if m and "'" not in line[m.start() :] and '"' not in line[m.start() :]:
                text = m.group(1).strip()
        if re.match(r'^(TODO|FIXME|NOTE:?\s*$|type:|noqa|pylint)', text, re.I):
            return ''
        return text

    def enum_members(self, ci: ClassInfo) -> List[Tuple[str, Any]]:
        out = []
        for c in reversed(self.mro(ci)):
            if c.kind != 'enum':
                continue
            for stmt in c.node.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    n = stmt.targets[0].id
                    if n.startswith('_'):
                        continue
                    v = _const(stmt.value)
                    out.append((n, v))
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    out.append((stmt.target.id, _const(stmt.value)))
        return out

    # -- schemas ---------------------------------------------------------------------------------

    def class_ref(self, ci: ClassInfo) -> dict:
        """A reference to the class's definition, built once. Definitions are named by qualified name while
        reading and get their short names in `finish()`."""
        if ci.qualname not in self.defs and ci.qualname not in self.building:
            self.building.add(ci.qualname)
            self.defs[ci.qualname] = self.class_schema(ci)
            self.building.discard(ci.qualname)
        return {'$ref': f'#/$defs/{ci.qualname}'}

    def class_schema(self, ci: ClassInfo) -> dict:
        """One class: its dataclass bases by reference (allOf) and the fields it declares itself. A field it
        redeclares with the type its base gives only changes the default and stays with the base; a redeclaration
        that changes the type is kept here, and `widen_holders` later makes both accept either."""
        bases = [b for b in ci.bases if b.kind == 'dataclass']
        refs = [self.class_ref(b) for b in bases]
        inherited = {}
        for b in bases:
            for name, f in self.fields(b).items():
                inherited.setdefault(name, f)
        props: Dict[str, dict] = {}
        if not bases:
            props['_target_'] = dict(TARGET_PROPERTY)
        for name, f in ci.own.items():
            s = self.field_schema(f)
            if name in inherited:
                base = self.field_schema(inherited[name])
                if _canon(_strip(base)) == _canon(_strip(s)) and bool(s.get('deprecated')) == bool(base.get('deprecated')):
                    continue
            props[name] = s
        out: dict = {'type': 'object'}
        doc = _paragraph(ci.doc)
        if doc:
            out['description'] = doc
        if refs:
            out['allOf'] = refs
        out['properties'] = props
        return out

    def field_schema(self, f: dict) -> dict:
        schema = copy.deepcopy(self.ann(f['module'], f['annotation']))
        default = self.default_of(f['module'], f['value'])
        if default is None and schema:
            # `bucket_size: int = None`: the default is a value the field holds (PEP 484's implicit Optional).
            schema = _widen(schema, {'type': 'null'})
        if default is not NO_VALUE and trt._json_safe(default) and _accepts(schema, default):
            schema['default'] = default
        doc = f['doc']
        desc = _paragraph(doc)
        if desc:
            schema['description'] = desc
        note = _deprecation(doc)
        if note:
            schema['deprecated'] = True
            schema['x-deprecatedMessage'] = note
        return schema

    def default_of(self, mod: Module, value: Optional[ast.expr]) -> Any:
        if value is None:
            return NO_VALUE
        if isinstance(value, ast.Call) and _name_of(value.func) == 'field':
            kw = {k.arg: k.value for k in value.keywords if k.arg}
            if 'default' in kw:
                return self.default_of(mod, kw['default'])
            if 'default_factory' in kw:
                fac = kw['default_factory']
                if isinstance(fac, ast.Lambda):
                    return self.default_of(mod, fac.body)
                n = _name_of(fac)
                if n in ('list', 'List', 'tuple'):
                    return []
                if n in ('dict', 'Dict'):
                    return {}
            return NO_VALUE
        v = _const(value)
        if v is not NO_VALUE:
            return list(v) if isinstance(v, tuple) else v
        if isinstance(value, ast.Attribute):
            # An enum member: its name, the spelling a YAML file uses.
            ci = self.lookup(mod, _dotted(value.value))
            if ci is not None and ci.kind == 'enum':
                return value.attr
        return NO_VALUE

    def ann(self, mod: Module, node: Optional[ast.expr], depth: int = 0) -> dict:
        if node is None or depth > 24:
            return {}
        if isinstance(node, ast.Constant):
            if node.value is None:
                return {'type': 'null'}
            if isinstance(node.value, str):
                try:
                    return self.ann(mod, ast.parse(node.value, mode='eval').body, depth + 1)
                except SyntaxError:
                    return {}
            return {}
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.union(mod, [node.left, node.right], depth)
        if isinstance(node, ast.Subscript):
            head = _name_of(node.value)
            sl = node.slice
            args = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            if head == 'Optional':
                return self.union(mod, [args[0], ast.Constant(value=None)], depth)
            if head == 'Union':
                return self.union(mod, args, depth)
            if head == 'Literal':
                vals = [v for v in (_const(a) for a in args) if v is not NO_VALUE]
                if not vals:
                    return {}
                types = _types_of(vals)
                return {'type': types[0] if len(types) == 1 else types, 'enum': vals}
            if head in SEQUENCE_HEADS:
                item = self.ann(mod, args[0], depth + 1)
                return {'type': 'array', 'items': item} if item else {'type': 'array'}
            if head in ('Tuple', 'tuple'):
                if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
                    item = self.ann(mod, args[0], depth + 1)
                    return {'type': 'array', 'items': item} if item else {'type': 'array'}
                items = [self.ann(mod, a, depth + 1) for a in args]
                if all(not i for i in items):
                    return {'type': 'array', 'minItems': len(args), 'maxItems': len(args)}
                return {'type': 'array', 'prefixItems': items, 'minItems': len(args), 'maxItems': len(args)}
            if head in MAPPING_HEADS:
                out: dict = {'type': 'object'}
                if len(args) == 2:
                    v = self.ann(mod, args[1], depth + 1)
                    if v:
                        out['additionalProperties'] = v
                return out
            if head in ('Annotated', 'ClassVar', 'Final', 'InitVar', 'Required', 'NotRequired'):
                return self.ann(mod, args[0], depth + 1)
            if head in PERMISSIVE_NAMES:
                return {}
            # A generic class (`ModelProviderMixin[T]`): the class itself.
            return self.ann(mod, node.value, depth + 1)
        if not isinstance(node, (ast.Name, ast.Attribute)):
            return {}
        dotted = _dotted(node)
        if dotted in ('None', 'NoneType'):
            return {'type': 'null'}
        m, n, kind = self.src.resolve(mod, dotted)
        if kind == 'alias' and m is not None:
            return self.ann(m, m.aliases[n], depth + 1)
        if kind == 'class' and m is not None:
            ci = self.info(m, n)
            if ci.kind == 'enum':
                return self.enum_schema(ci)
            if ci.kind == 'dataclass':
                return self.class_ref(ci)
            return {}
        if kind:
            return {}
        last = dotted.rsplit('.', 1)[-1]
        if '.' not in dotted and last in SIMPLE:
            return copy.deepcopy(SIMPLE[last])
        if dotted in ('pathlib.Path', 'os.PathLike'):
            return {'type': 'string'}
        # torch.dtype, typing.Any, Callable, classes of other packages: anything.
        return {}

    def enum_schema(self, ci: ClassInfo) -> dict:
        """An enum field accepts the member names (what the launchers convert: `AttnBackend[name]`), the values
        where they compare equal to the member (a `str` or `int` mixin: `Fp8Recipe.delayed == "delayed"`), null
        (NVIDIA's serialized configs write `attention_backend: null`, and Megatron compares members with ==) and
        the serialized member (`_target_` + `_args_`)."""
        mixins = set()
        for c in self.mro(ci):
            mixins |= set(c.base_names)
        value_types = (str,) if mixins & {'str', 'StrEnum'} else (int,) if mixins & {'int', 'IntEnum', 'IntFlag'} else ()
        vals: List[Any] = []
        for n, v in self.enum_members(ci):
            if n not in vals:
                vals.append(n)
            if isinstance(v, value_types) and not isinstance(v, bool) and v not in vals:
                vals.append(v)
        if not vals:
            return {}
        vals.append(None)
        types = _types_of(vals)
        return {'anyOf': [{'type': types, 'enum': vals}, {'$ref': '#/$defs/_target_'}]}

    def union(self, mod: Module, members: List[ast.expr], depth: int) -> dict:
        parts: List[dict] = []
        for a in members:
            s = self.ann(mod, a, depth + 1)
            if not s:
                return {}
            parts.append(s)
        out = parts[0]
        for s in parts[1:]:
            out = _widen(out, s)
        return out


# ---------------------------------------------------------------------------------------------
# Schema algebra: a schema that accepts what either of two schemas accepts


_TYPE_KEYS = {'type', 'enum', 'items', 'prefixItems', 'maxItems', 'additionalProperties'}
_META_KEYS = ('description', 'default', 'deprecated', 'x-deprecatedMessage', 'x-releases', 'x-releaseNotes')


def _canon(s: Any) -> str:
    return json.dumps(s, sort_keys=True)


def _types(s: dict) -> List[str]:
    t = s.get('type')
    return [] if t is None else (t if isinstance(t, list) else [t])


def _alternatives(s: dict) -> List[dict]:
    core = {k: v for k, v in s.items() if k not in _META_KEYS}
    if set(core) == {'anyOf'}:
        return [copy.deepcopy(a) for a in core['anyOf']]
    return [core]


def _widen(a: dict, b: dict) -> dict:
    """Accepts what `a` or `b` accepts. `{}` (anything) absorbs everything; plain type lists merge; an enum merges
    with an enum; the rest becomes anyOf."""
    meta = {k: a[k] for k in _META_KEYS if k in a}
    ca = {k: v for k, v in a.items() if k not in _META_KEYS}
    cb = {k: v for k, v in b.items() if k not in _META_KEYS}
    if not ca or not cb:
        return meta
    if _canon(ca) == _canon(cb):
        return dict(ca, **meta)
    alts: List[dict] = []
    for alt in _alternatives(ca) + _alternatives(cb):
        _add_alternative(alts, alt)
    if len(alts) == 1:
        return dict(alts[0], **meta)
    return dict({'anyOf': alts}, **meta)


def _add_alternative(alts: List[dict], alt: dict) -> None:
    for i, cur in enumerate(alts):
        merged = _merge_simple(cur, alt)
        if merged is not None:
            alts[i] = merged
            return
    alts.append(alt)


def _merge_simple(a: dict, b: dict) -> Optional[dict]:
    """Merge two alternatives into one when that accepts exactly their union (or is only looser in bounds)."""
    if _canon(a) == _canon(b):
        return a
    ka, kb = set(a), set(b)
    # Plain types: {'type': ...} with nothing else.
    if ka == {'type'} and kb == {'type'}:
        return {'type': _type_union(_types(a), _types(b))}
    # The same constraints over different types (`list[int]` and `list[int] | None`).
    if 'type' in a and 'type' in b and 'enum' not in a and 'enum' not in b:
        if _canon({k: v for k, v in a.items() if k != 'type'}) == _canon({k: v for k, v in b.items() if k != 'type'}):
            return dict(a, type=_type_union(_types(a), _types(b)))
    # A null alternative folds into a typed one.
    if kb == {'type'} and _types(b) == ['null'] and 'type' in a and '$ref' not in a:
        out = dict(a, type=_type_union(_types(a), ['null']))
        if 'enum' in out and None not in out['enum']:
            out['enum'] = out['enum'] + [None]
        return out
    if ka == {'type'} and _types(a) == ['null']:
        return _merge_simple(b, a)
    # Two enums.
    if ka == {'type', 'enum'} and kb == {'type', 'enum'}:
        return {'type': _type_union(_types(a), _types(b)), 'enum': a['enum'] + [v for v in b['enum'] if v not in a['enum']]}
    # An enum inside a plain type of the same kind: the plain type.
    if ka == {'type', 'enum'} and kb == {'type'} and set(_types(a)) <= set(_types(b)) | {'null'}:
        return {'type': _type_union(_types(b), ['null'] if None in a['enum'] else [])}
    if kb == {'type', 'enum'} and ka == {'type'}:
        return _merge_simple(b, a)
    # Arrays: items widened.
    if _types(a) == ['array'] and _types(b) == ['array'] and ka <= {'type', 'items'} and kb <= {'type', 'items'}:
        if 'items' not in a or 'items' not in b:
            return {'type': 'array'}
        w = _widen(a['items'], b['items'])
        return {'type': 'array', 'items': w} if w else {'type': 'array'}
    # Mappings: values widened.
    if _types(a) == ['object'] and _types(b) == ['object'] and ka <= {'type', 'additionalProperties'} and kb <= {'type', 'additionalProperties'}:
        if 'additionalProperties' not in a or 'additionalProperties' not in b:
            return {'type': 'object'}
        w = _widen(a['additionalProperties'], b['additionalProperties'])
        return {'type': 'object', 'additionalProperties': w} if w else {'type': 'object'}
    return None


def _type_union(a: List[str], b: List[str]) -> Any:
    u = a + [t for t in b if t not in a]
    if 'number' in u and 'integer' in u:
        u.remove('integer')
    order = ['boolean', 'integer', 'number', 'string', 'array', 'object', 'null']
    u = sorted(u, key=lambda t: order.index(t) if t in order else len(order))
    return u[0] if len(u) == 1 else u


def _widen_keep_doc(a: dict, b: dict) -> dict:
    """Two classes of one section declare the same field: the types of both, the first description and default,
    deprecated only if both say so."""
    out = _widen(a, b)
    for k in ('description', 'default'):
        if k not in out and k in b:
            out[k] = b[k]
    if a.get('deprecated') and not b.get('deprecated'):
        out.pop('deprecated', None)
        out.pop('x-deprecatedMessage', None)
    return out


def _types_of(vals: List[Any]) -> List[str]:
    out: List[str] = []
    for v in vals:
        t = trt._json_type(v)
        if t not in out:
            out.append(t)
    order = ['boolean', 'integer', 'number', 'string', 'null']
    if 'number' in out and 'integer' in out:
        out.remove('integer')
    return sorted(out, key=order.index)


def _accepts(schema: dict, v: Any) -> bool:
    """A default is shown only when the field's own type accepts it (`fp8_buf: bool = (False,)` is not)."""
    if not schema or '$ref' in schema:
        return v is None or not isinstance(v, (dict, list))
    if 'anyOf' in schema:
        return any(_accepts(a, v) for a in schema['anyOf'])
    if 'enum' in schema and v not in schema['enum']:
        return False
    t = _types(schema)
    if not t:
        return True
    jt = trt._json_type(v) if not isinstance(v, (list, dict)) else ('array' if isinstance(v, list) else 'object')
    return jt in t or (jt == 'integer' and 'number' in t)


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f'{inner}.{node.attr}' if inner else node.attr
    if isinstance(node, ast.Subscript):
        return _dotted(node.value)
    return ''


def _arg_docs(doc: str) -> Dict[str, str]:
    """`name (type): text` entries of a Google-style `Args:` section."""
    out: Dict[str, str] = {}
    m = re.search(r'^\s*Args:\s*$', doc, re.M)
    if not m:
        return out
    cur = ''
    for line in doc[m.end() :].split('\n'):
        if re.match(r'^\S', line) and line.strip():
            break  # the next section
        e = re.match(r'^\s{2,8}(\w+)\s*(\([^)]*\))?:\s*(.*)$', line)
        if e:
            cur = e.group(1)
            out[cur] = e.group(3).strip()
        elif cur and line.strip():
            out[cur] += ' ' + line.strip()
    return out


# Descriptions ship three times in the VSIX (the schema file and both bundles) and are most of its size: the
# sentences of the first paragraph that fit here, which say what the field is; hover links nothing longer anyway.
DESCRIPTION_LIMIT = 130


def _paragraph(doc: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """The first paragraph of a docstring, on one line, cut after the last sentence that fits in `limit`."""
    text = (doc or '').strip()
    if not text:
        return ''
    para = ' '.join(re.split(r'\n\s*\n', text)[0].split())
    if len(para) <= limit:
        return para
    out = ''
    for sentence in re.split(r'(?<=[a-z0-9)\]"\'`][.!?])\s+(?=[A-Z(`"\'])', para):
        if out and len(out) + 1 + len(sentence) > limit:
            break
        out = f'{out} {sentence}'.strip()
    if len(out) > limit:
        out = out[:limit].rsplit(' ', 1)[0].rstrip(',;:') + '…'
    return out


_DEPRECATED = re.compile(r'(?:^|(?<=[.!?:])\s+)deprecated\b[\s.:,-]*', re.I)


def _deprecation(doc: str) -> str:
    """A sentence of the docstring that starts with "Deprecated" (`DEPRECATED: use X.`, `... Deprecated in favor of
    ValidationConfig.`): what follows it in its paragraph, on one line."""
    for para in re.split(r'\n\s*\n', (doc or '').strip()):
        text = ' '.join(para.split())
        m = _DEPRECATED.search(text)
        if not m:
            continue
        note = re.sub(r'^(and|but)\s+', '', text[m.end() :])
        # The first sentence says what replaces it (a short second one, "This flag is ignored.", too); the rest is history.
        sentences = re.split(r'(?<=[.!?])\s+', note)
        keep = sentences[:2] if len(sentences) > 1 and len(sentences[1]) <= 40 else sentences[:1]
        note = ' '.join(keep).rstrip('.')
        return note or 'deprecated'
    return ''


# ---------------------------------------------------------------------------------------------
# One release


def registry_names(src: Source, module: str, decorator: str) -> List[str]:
    """Names of the functions a module registers with `@decorator` (and their hyphenated spellings when the
    decorator registers those too)."""
    mod = src.module(module)
    if mod is None or decorator not in mod.functions:
        return []
    reg = mod.functions[decorator]
    hyphens = any(isinstance(n, ast.Constant) and n.value == '-' for n in ast.walk(reg))
    out: List[str] = []
    for name, fn in mod.functions.items():
        if any(_name_of(d) == decorator for d in fn.decorator_list):
            out.append(name)
            if hyphens and '_' in name:
                out.append(name.replace('_', '-'))
    return out


def extract_release(bridge_root: str, mcore_root: str) -> dict:
    """{'sections': {name: schema}, 'defs': {...}} for one Megatron-Bridge release."""
    src = Source.bridge(bridge_root, mcore_root)
    ex = Extractor(src)
    container_mod = src.module(CONTAINER_MODULE)
    assert container_mod is not None
    container = ex.info(container_mod, CONTAINER_CLASS)
    # Every dataclass of the Bridge tree, for the subclass scan.
    bridge_classes: List[ClassInfo] = []
    for name in src.bridge_modules():
        mod = src.module(name)
        if mod is None:
            continue
        for cname in mod.classes:
            ci = ex.info(mod, cname)
            if ci.kind == 'dataclass':
                bridge_classes.append(ci)
    sections: Dict[str, dict] = {}
    for fname, f in ex.fields(container).items():
        roots, rest = section_classes(ex, f)
        classes = list(roots)
        for ci in bridge_classes:
            mro = ex.mro(ci)
            if ci not in classes and any(r in mro for r in roots):
                classes.append(ci)
        parts: List[dict] = []
        if classes:
            # One definition per section: every class the field may hold, by reference.
            ex.defs[fname] = {'type': 'object', 'allOf': [ex.class_ref(c) for c in classes]}
            parts.append({'$ref': f'#/$defs/{fname}'})
        parts.extend(rest)
        if fname in REGISTRIES:
            names = registry_names(src, *REGISTRIES[fname])
            if names:
                parts = [{'type': 'string', 'enum': names} if 'string' in _types(p) and set(p) == {'type'} else p for p in parts]
        schema: dict = parts[0] if parts else {}
        for p in parts[1:]:
            schema = _widen(schema, p)
        desc = _paragraph(f['doc'])
        if not desc and fname in REGISTRIES and classes:
            module, decorator = REGISTRIES[fname]
            desc = f'A {classes[0].name}, or the name of a recipe registered with @{decorator} in {module}.'
        if desc:
            schema['description'] = desc
        default = ex.default_of(f['module'], f['value'])
        if default is not NO_VALUE and trt._json_safe(default) and not isinstance(default, (dict, list)):
            schema['default'] = default
        sections[fname] = schema
    # Definitions stay keyed by qualified name here; build() names them over every release at once.
    return {'sections': sections, 'defs': ex.defs, 'skipped': src.skipped}


def short_names(qualnames: List[str]) -> Dict[str, str]:
    """Definition names: the class name, or where two classes share it, the shortest module suffix that tells
    them apart (`core.transformer.transformer_config.TransformerConfig` / `models.transformer_config...`)."""
    by_name: Dict[str, List[str]] = {}
    for q in qualnames:
        by_name.setdefault(q.rsplit('.', 1)[-1], []).append(q)
    out: Dict[str, str] = {}
    for name, qs in by_name.items():
        if len(qs) == 1:
            out[qs[0]] = name
            continue
        parts = {q: q.split('.') for q in qs}
        for n in range(2, max(len(p) for p in parts.values()) + 1):
            cand = {q: '.'.join(p[-n:]) for q, p in parts.items()}
            if len(set(cand.values())) == len(qs):
                out.update(cand)
                break
    return out


def _rename(node: Any, names: Dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            if k == '$ref' and isinstance(v, str) and v.startswith('#/$defs/'):
                q = v[len('#/$defs/') :]
                out[k] = '#/$defs/' + names.get(q, q)
            else:
                out[k] = _rename(v, names)
        return out
    if isinstance(node, list):
        return [_rename(v, names) for v in node]
    return node


def section_classes(ex: Extractor, f: dict) -> Tuple[List[ClassInfo], List[dict]]:
    """The dataclasses a ConfigContainer field's annotation names, and the other alternatives (null, str, ...)."""
    classes: List[ClassInfo] = []
    rest: List[dict] = []

    def walk(mod: Module, node: ast.expr) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            walk(mod, node.left)
            walk(mod, node.right)
            return
        if isinstance(node, ast.Subscript) and _name_of(node.value) in ('Optional', 'Union'):
            sl = node.slice
            for a in list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]:
                walk(mod, a)
            if _name_of(node.value) == 'Optional':
                rest.append({'type': 'null'})
            return
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                walk(mod, ast.parse(node.value, mode='eval').body)
            except SyntaxError:
                rest.append({})
            return
        ci = ex.lookup(mod, _dotted(node)) if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) else None
        if ci is not None and ci.kind == 'dataclass':
            if ci not in classes:
                classes.append(ci)
            return
        rest.append(ex.ann(mod, node))

    walk(f['module'], f['annotation'])
    return classes, rest


# ---------------------------------------------------------------------------------------------
# Merging releases


DIFF_KEYS = ('type', 'enum', 'default')


def merge_property(per_release: List[Tuple[str, dict]], all_releases: List[str], diff_keys: Tuple[str, ...] = DIFF_KEYS) -> dict:
    """One property over the releases that have it: the newest release's description and default, the values of
    every release accepted, `x-releases` when not every release has it, the per-release differences."""
    newest = per_release[-1][1]
    merged = copy.deepcopy(newest)
    for _, s in per_release[:-1]:
        w = _widen(merged, s)
        for k in _META_KEYS:
            if k in merged:
                w[k] = merged[k]
        merged = w
    rels = [r for r, _ in per_release]
    if rels != all_releases:
        merged['x-releases'] = rels
    notes = {}
    for rel, s in per_release[:-1]:
        diff = {}
        for k in diff_keys:
            if _canon(s.get(k)) != _canon(newest.get(k)):
                diff[k] = s.get(k)
        if set(s) - set(_META_KEYS) != set(newest) - set(_META_KEYS) and 'type' not in diff and _canon(_strip(s)) != _canon(_strip(newest)):
            diff['type'] = _summary(s)
        if diff:
            notes[rel] = diff
    if notes:
        merged['x-releaseNotes'] = notes
    return merged


def _strip(s: dict) -> dict:
    return {k: v for k, v in s.items() if k not in _META_KEYS}


def _summary(s: dict) -> Any:
    if '$ref' in s:
        return s['$ref'].rsplit('/', 1)[-1]
    if 'anyOf' in s:
        return [_summary(a) for a in s['anyOf']]
    return s.get('type')


def merge_objects(present: List[Tuple[str, dict]], all_releases: List[str]) -> dict:
    newest = copy.deepcopy(present[-1][1])
    names: List[str] = []
    for _, d in present:
        for p in d.get('properties', {}):
            if p not in names:
                names.append(p)
    rels = [r for r, _ in present]
    props = {}
    for p in names:
        pr = [(rel, d['properties'][p]) for rel, d in present if p in d.get('properties', {})]
        props[p] = merge_property(pr, rels)
    if props:
        newest['properties'] = props
    else:
        newest.pop('properties', None)
    refs: List[dict] = []
    for _, d in present:
        for r in d.get('allOf', []):
            if r not in refs:
                refs.append(r)
    if refs:
        newest['allOf'] = refs
    if rels != all_releases:
        newest['x-releases'] = rels
    return newest


def _reach(defs: Dict[str, dict], name: str) -> List[str]:
    """A definition and every definition its `allOf` references lead to, in order."""
    seen: List[str] = []
    stack = [name]
    while stack:
        n = stack.pop(0)
        if n in seen or n not in defs:
            continue
        seen.append(n)
        for r in defs[n].get('allOf', []):
            ref = r.get('$ref', '')
            if ref.startswith('#/$defs/'):
                stack.append(ref[len('#/$defs/') :])
    return seen


def widen_holders(defs: Dict[str, dict]) -> None:
    """Where one object is checked against several definitions at once (a section's classes, a class and its bases,
    the classes of every release) and two of them declare the same field with different types, each must accept
    what the other does: Python never intersects them."""

    changed = True
    while changed:
        changed = False
        for name in sorted(defs):
            holders: Dict[str, List[str]] = {}
            for d in _reach(defs, name):
                for p in defs[d].get('properties', {}):
                    holders.setdefault(p, []).append(d)
            for p, hs in holders.items():
                if len(hs) < 2:
                    continue
                schemas = [defs[h]['properties'][p] for h in hs]
                if len({_canon(_strip(x)) for x in schemas}) == 1:
                    continue
                union = _strip(schemas[0])
                for x in schemas[1:]:
                    union = _widen(union, _strip(x))
                for h in hs:
                    cur = defs[h]['properties'][p]
                    new = dict(union, **{k: cur[k] for k in _META_KEYS if k in cur})
                    if _canon(new) != _canon(cur):
                        defs[h]['properties'][p] = new
                        changed = True


def drop_inherited(defs: Dict[str, dict]) -> None:
    """A field a class redeclares (a narrower type, another default) that, widened, is the type a base class already
    gives: the base's declaration serves, the copy goes."""

    for name in sorted(defs):
        d = defs[name]
        if not d.get('allOf') or not d.get('properties'):
            continue
        above = _reach(defs, name)[1:]
        for p in list(d['properties']):
            if p == '_target_':
                continue
            mine = d['properties'][p]
            if any(
                p in defs[a].get('properties', {})
                and _canon(_strip(defs[a]['properties'][p])) == _canon(_strip(mine))
                and bool(defs[a]['properties'][p].get('deprecated')) >= bool(mine.get('deprecated'))
                for a in above
            ):
                del d['properties'][p]


def collapse_empty(defs: Dict[str, dict], sections: set) -> None:
    """A class that declares no field of its own (a provider that only changes defaults: Llama2ModelProvider7B) adds
    nothing to check or to complete: every reference to it becomes a reference to its bases."""
    def empty(n: str) -> bool:
        d = defs[n]
        return n not in sections and not n.startswith('_') and bool(d.get('allOf')) and not [p for p in d.get('properties', {}) if p != '_target_']

    changed = True
    while changed:
        changed = False
        for name in sorted(defs):
            d = defs[name]
            refs = d.get('allOf')
            if not refs:
                continue
            out: List[dict] = []
            for r in refs:
                target = r.get('$ref', '')[len('#/$defs/') :]
                repl = defs[target]['allOf'] if target in defs and empty(target) and target != name else [r]
                for x in repl:
                    if x not in out and x.get('$ref') != f'#/$defs/{name}':
                        out.append(x)
            if out != refs:
                d['allOf'] = out
                changed = True


def build(releases: List[Tuple[str, dict, dict]], overlay: dict) -> dict:
    order = [r for r, _, _ in releases]
    qualnames = sorted({q for _, _, d in releases for q in d['defs'] if '.' in q})
    names = short_names(qualnames)
    data = [(r, {'sections': _rename(d['sections'], names), 'defs': {names.get(q, q): _rename(x, names) for q, x in d['defs'].items()}}) for r, _, d in releases]
    def_names: List[str] = []
    for _, d in data:
        for n in d['defs']:
            if n not in def_names:
                def_names.append(n)
    defs: Dict[str, dict] = {'_target_': copy.deepcopy(TARGET_NODE), '_target_name': copy.deepcopy(TARGET_NAME)}
    for n in sorted(def_names):
        defs[n] = merge_objects([(r, d['defs'][n]) for r, d in data if n in d['defs']], order)
    widen_holders(defs)
    drop_inherited(defs)
    mark_moved(data, order, defs)
    collapse_empty(defs, set(sec for _, d in data for sec in d['sections']))
    sec_names: List[str] = []
    for _, d in data:
        for n in d['sections']:
            if n not in sec_names:
                sec_names.append(n)
    props = {}
    for n in sec_names:
        props[n] = merge_property([(r, d['sections'][n]) for r, d in data if n in d['sections']], order)
    schema: dict = {
        '$schema': 'https://json-schema.org/draft/2020-12/schema',
        '$id': SCHEMA_ID,
        'title': 'Megatron-Bridge ConfigContainer',
        'description': '',
        'type': 'object',
        'x-releases': order,
        'x-source': {r: src for r, src, _ in releases},
        'properties': props,
        '$defs': defs,
    }
    apply_overlay(schema, overlay)
    trt.prune_defs(schema)
    return schema


TYPE_KEYWORDS = {'type', 'enum', 'const', 'anyOf', 'oneOf', 'items', 'prefixItems', 'minItems', 'maxItems', '$ref', 'additionalProperties'}


def apply_overlay(schema: dict, overlay: dict) -> None:
    """Overlay entries are JSON pointers into the generated schema, each mapped to keywords merged into that node
    (`null` removes a keyword). A patch that states a type replaces the generated one; `"description+"` appends to
    the generated description instead of replacing it. A pointer the generated schema lacks is an error: the overlay
    never invents a field, and a field that upstream renamed shows up here when regenerating."""
    missing = []
    for ptr, patch in sorted(overlay.items()):
        if ptr.startswith('$'):
            continue
        patch = dict(patch)
        # `"x-create": true` adds a node upstream does not describe (a section of the run config around the parsed
        # arguments); anything else must already be there.
        create = patch.pop('x-create', False)
        node: Any = schema
        for part in [p.replace('~1', '/').replace('~0', '~') for p in ptr.split('/')[1:]] if ptr else []:
            if create and isinstance(node, dict) and part not in node:
                node[part] = {}
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            missing.append(ptr)
            continue
        extra = patch.pop('description+', None)
        if TYPE_KEYWORDS & set(patch):
            for k in TYPE_KEYWORDS:
                node.pop(k, None)
        trt._deep_merge(node, patch)
        if extra:
            node['description'] = f"{node.get('description', '').rstrip()} {extra}".strip()
    if missing:
        raise SystemExit('overlay pointers not in the generated schema:\n  ' + '\n  '.join(missing))


def _section_fields(d: dict) -> Dict[str, set]:
    return {s: {p for n in _reach(d['defs'], s) for p in d['defs'][n].get('properties', {}) if p != '_target_'} for s in d['sections'] if s in d['defs']}


def mark_moved(data: List[Tuple[str, dict]], order: List[str], defs: Dict[str, dict]) -> None:
    """A field that a section had in older releases and another section has in the newest (train.eval_iters ->
    validation.eval_iters) is deprecated where it was: the newest loader skips it there with a warning."""
    per = [(r, _section_fields(d)) for r, d in data]
    newest_rel, newest = per[-1]
    for sec in sorted({s for _, f in per for s in f}):
        old = set().union(*(f.get(sec, set()) for _, f in per[:-1])) if len(per) > 1 else set()
        for field in sorted(old - newest.get(sec, set())):
            targets = [t for t in sorted(newest) if t != sec and field in newest[t]]
            if len(targets) != 1:
                continue
            gone = next((r for r, f in per if r != order[0] and field not in f.get(sec, set()) and any(field in g.get(sec, set()) for rr, g in per if order.index(rr) < order.index(r))), newest_rel)
            note = f'moved to `{targets[0]}.{field}`; Megatron-Bridge {gone} and later skip it here with a warning'
            for h in _reach(defs, sec):
                prop = defs[h].get('properties', {}).get(field)
                if prop is None:
                    continue
                rels = set(defs[h].get('x-releases', order)) & set(prop.get('x-releases', order))
                if newest_rel not in rels:
                    prop['deprecated'] = True
                    prop['x-deprecatedMessage'] = note
    # A field deprecated in one section that another section holds undeprecated: name the replacement
    # (train.eval_iters, "Deprecated in favor of ValidationConfig" -> `validation.eval_iters`).
    live = {t: {p for n in _reach(defs, t) for p, ps in defs[n].get('properties', {}).items() if not ps.get('deprecated')} for t in newest if t in defs}
    for sec in sorted(live):
        for n in _reach(defs, sec):
            for field, prop in defs[n].get('properties', {}).items():
                if not prop.get('deprecated') or field == '_target_' or 'moved to' in prop.get('x-deprecatedMessage', ''):
                    continue
                targets = [t for t in sorted(live) if t != sec and field in live[t]]
                if len(targets) == 1 and f'`{targets[0]}.{field}`' not in prop.get('x-deprecatedMessage', ''):
                    prop['x-deprecatedMessage'] = f"{prop.get('x-deprecatedMessage', 'deprecated')}; use `{targets[0]}.{field}`"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--bridge', action='append', required=True, help='Megatron-Bridge checkout (repeat, oldest release first)')
    ap.add_argument('--mcore', action='append', required=True, help='the Megatron-LM checkout that release pins (same position)')
    ap.add_argument('--release', action='append', required=True, help='release name for the --bridge at the same position')
    ap.add_argument('--commit', action='append', default=[], help='"<bridge sha> <megatron-lm sha>" for the same position (x-source)')
    ap.add_argument('--overlay', help='project annotations merged into the output (overlay.json)')
    ap.add_argument('--out', required=True, help='path of megatron-bridge.schema.json to write')
    args = ap.parse_args(argv)
    if not (len(args.bridge) == len(args.mcore) == len(args.release)) or (args.commit and len(args.commit) != len(args.bridge)):
        ap.error('give one --mcore, --release (and --commit, if any) per --bridge, in the same order')
    releases = []
    for i, (b, m, rel) in enumerate(zip(args.bridge, args.mcore, args.release)):
        data = extract_release(b, m)
        for s in data['skipped']:
            print(f'{rel}: skipped {s}', file=sys.stderr)
        commits = args.commit[i].split() if args.commit else []
        source = {'megatron-bridge': commits[0], 'megatron-lm': commits[1]} if len(commits) == 2 else {}
        releases.append((rel, source, data))
    overlay = {}
    if args.overlay:
        with open(args.overlay, encoding='utf-8') as f:
            overlay = json.load(f)
    schema = build(releases, overlay)
    with open(args.out, 'w', encoding='utf-8') as f:
        f.write(trt.dump(schema))
    print(f'wrote {args.out}: {len(schema["properties"])} sections, {len(schema["$defs"])} definitions, releases {", ".join(r for r, _, _ in releases)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
