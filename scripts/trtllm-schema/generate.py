#!/usr/bin/env python3
"""Derive the TensorRT-LLM JSON Schemas from TensorRT-LLM's own pydantic models, one release at a time.

Reads the Python source of TensorRT-LLM checkouts with `ast` (TensorRT-LLM is never imported, so no GPU,
torch or pip install is needed) and writes JSON Schema 2020-12:

  schemas/trtllm-options.schema.json   LlmArgs (TorchLlmArgs + TrtLlmArgs + AutoDeploy's LlmArgs)
  schemas/trtllm-disagg.schema.json    the `trtllm-serve disaggregated -c` config, reusing the LlmArgs
                                       definitions for the context and generation server roles
  schemas/trtllm-perf.schema.json      a perf-sanity server list (tests/scripts/perf-sanity/aggregated),
                                       each server an LlmArgs plus the harness's own keys

Several releases are merged into one schema per format: every property lists the releases that have it
(`x-releases`), a per-release difference in type, enum or default is kept under `x-releaseNotes`, and the
root records the commit each release was read from (`x-source`). One validator then serves every release,
and `src/core/trtllmReleases.ts` answers "added in 1.2", "removed after 1.0" from the same data.

Project knowledge that is not in the pydantic source (rule ids `x-rule`, documented case-insensitive values,
renamed keys that TensorRT-LLM rewrites or rejects with a message, CLI-flag aliases) lives in overlay.json
beside this script and is merged last; the output is never edited by hand.

Rerun (see README.md beside this script):

  git clone --depth 1 --branch v1.2.0 https://github.com/NVIDIA/TensorRT-LLM /tmp/trtllm-1.2
  ...one checkout per release...
  python3 scripts/trtllm-schema/generate.py \
      --src /tmp/trtllm-1.1 --release 1.1 --commit <sha> \
      --src /tmp/trtllm-1.2 --release 1.2 --commit <sha> \
      --overlay scripts/trtllm-schema/overlay.json --out schemas

Releases are given oldest first. Only the Python standard library is used; the output is deterministic
(same sources give the same bytes).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

# The files that hold the models, relative to the checkout. A file missing from a release is skipped.
SOURCE_FILES = [
    'tensorrt_llm/llmapi/utils.py',
    'tensorrt_llm/llmapi/llm_args.py',
    'tensorrt_llm/llmapi/disagg_utils.py',
    'tensorrt_llm/_torch/auto_deploy/llm_args.py',
    'tensorrt_llm/_torch/auto_deploy/utils/_config.py',
    'tensorrt_llm/_torch/peft/lora/config.py',
    'tensorrt_llm/lora_helper.py',
    'tensorrt_llm/lora_manager.py',
    'tensorrt_llm/llmapi/kv_cache_type.py',
    'tensorrt_llm/usage/config.py',
    'tensorrt_llm/mapping.py',
]

# The classes whose fields a YAML options file may set, per backend (`backend:` key).
LLM_ARGS_CLASSES = [
    ('pytorch', 'tensorrt_llm/llmapi/llm_args.py', 'TorchLlmArgs'),
    ('tensorrt', 'tensorrt_llm/llmapi/llm_args.py', 'TrtLlmArgs'),
    ('_autodeploy', 'tensorrt_llm/_torch/auto_deploy/llm_args.py', 'LlmArgs'),
]

OPTIONS_ID = 'https://recipe-lens.dev/schemas/trtllm-options.schema.json'
DISAGG_ID = 'https://recipe-lens.dev/schemas/trtllm-disagg.schema.json'
PERF_ID = 'https://recipe-lens.dev/schemas/trtllm-perf.schema.json'

PYDANTIC_ROOTS = {'BaseModel', 'BaseSettings', 'RootModel'}
ENUM_ROOTS = {'Enum', 'StrEnum', 'IntEnum', 'IntFlag', 'Flag'}

SIMPLE_TYPES = {
    'int': {'type': 'integer'},
    'float': {'type': 'number'},
    'str': {'type': 'string'},
    'bool': {'type': 'boolean'},
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
    'PositiveInt': {'type': 'integer', 'minimum': 1},
    'NonNegativeInt': {'type': 'integer', 'minimum': 0},
    'NegativeInt': {'type': 'integer', 'exclusiveMaximum': 0},
    'PositiveFloat': {'type': 'number', 'exclusiveMinimum': 0},
    'NonNegativeFloat': {'type': 'number', 'minimum': 0},
    # pydantic's strict types: no lax-mode conversion ('8' is no StrictInt); x-strict tells the checker so.
    'StrictInt': {'type': 'integer', 'x-strict': True},
    'StrictStr': {'type': 'string', 'x-strict': True},
    'StrictBool': {'type': 'boolean', 'x-strict': True},
    'StrictFloat': {'type': 'number', 'x-strict': True},
}
ANY_TYPES = {'Any', 'object', 'Callable', 'Type', 'type'}


# ---------------------------------------------------------------------------------------------
# Reading the source


class Module:
    def __init__(self, path: str, tree: ast.Module):
        self.path = path
        self.classes: Dict[str, ast.ClassDef] = {}
        self.functions: Dict[str, ast.FunctionDef] = {}
        self.aliases: Dict[str, ast.expr] = {}
        self.imports: Dict[str, Tuple[str, str]] = {}
        for node in tree.body:
            self._collect(node)
        # A class nested in a model's body (`GuidedDecodingConfig.GuidedDecodingBackend`) is what the model's own
        # annotations name; module-level classes keep precedence.
        for cls in list(self.classes.values()):
            for sub in cls.body:
                if isinstance(sub, ast.ClassDef):
                    self.classes.setdefault(sub.name, sub)

    def _collect(self, node: ast.stmt) -> None:
        if isinstance(node, ast.ClassDef):
            self.classes[node.name] = node
        elif isinstance(node, ast.FunctionDef):
            self.functions[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.aliases[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            # `SpeculativeConfig: TypeAlias = Union[...]`
            if _name_of(node.annotation) == 'TypeAlias':
                self.aliases[node.target.id] = node.value
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                self.imports[a.asname or a.name] = ('.' * node.level + (node.module or ''), a.name)
        elif isinstance(node, ast.If):
            # `if TYPE_CHECKING:` / version switches: take both branches.
            for sub in node.body + node.orelse:
                self._collect(sub)
        elif isinstance(node, ast.Try):
            for sub in node.body:
                self._collect(sub)


def _name_of(node: Optional[ast.AST]) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name_of(node.value)
    if isinstance(node, ast.Call):
        return _name_of(node.func)
    return ''


def _const(node: Optional[ast.AST]) -> Any:
    """A literal value, or the sentinel NO_VALUE when the expression is not a plain literal."""
    if node is None:
        return NO_VALUE
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


class _NoValue:
    pass


NO_VALUE = _NoValue()


def _string_concat(node: Optional[ast.AST]) -> Optional[str]:
    """Description strings: literals, implicit concatenation, `+`, and f-strings without placeholders."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _string_concat(node.left), _string_concat(node.right)
        return a + b if a is not None and b is not None else None
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return ''.join(str(v.value) for v in node.values)  # type: ignore[attr-defined]
    return None


class Source:
    """All modules of one release, with name resolution across them."""

    def __init__(self, root: str):
        self.root = root
        self.modules: Dict[str, Module] = {}
        for rel in SOURCE_FILES:
            p = os.path.join(root, rel)
            if os.path.isfile(p):
                with open(p, encoding='utf-8') as f:
                    self.modules[rel] = Module(rel, ast.parse(f.read(), filename=rel))
        if 'tensorrt_llm/llmapi/llm_args.py' not in self.modules:
            raise SystemExit(f'{root}: tensorrt_llm/llmapi/llm_args.py not found (is --src a TensorRT-LLM checkout?)')

    def _module_for_import(self, frm: Module, target: str) -> Optional[Module]:
        dots = len(target) - len(target.lstrip('.'))
        name = target[dots:]
        if dots:
            base = frm.path.split('/')[:-dots]
            parts = base + (name.split('.') if name else [])
        else:
            parts = name.split('.')
        rel = '/'.join(parts) + '.py'
        return self.modules.get(rel)

    def resolve(self, mod: Module, name: str, depth: int = 0) -> Tuple[Optional[Module], Optional[str], str]:
        """(module, class name, kind) where kind is 'class', 'alias' or '' (unknown)."""
        if depth > 8:
            return None, None, ''
        if name in mod.classes:
            return mod, name, 'class'
        if name in mod.aliases:
            return mod, name, 'alias'
        if name in mod.imports:
            target, orig = mod.imports[name]
            m = self._module_for_import(mod, target)
            if m is not None:
                return self.resolve(m, orig, depth + 1)
            name = orig
        # Fall back to a unique definition anywhere in the release (re-exports through __init__).
        found = [(m, name) for m in self.modules.values() if name in m.classes]
        if len(found) == 1:
            return found[0][0], name, 'class'
        return None, None, ''


# ---------------------------------------------------------------------------------------------
# Classes: pydantic models and enums


class ModelInfo:
    def __init__(self, key: str, module: Module, node: ast.ClassDef):
        self.key = key
        self.module = module
        self.node = node
        self.kind = ''  # 'model' | 'enum' | 'dataclass' | ''
        self.extra: Optional[str] = None
        self.fields: Dict[str, dict] = {}
        self.discriminator: Optional[Tuple[str, str]] = None
        # Fields whose annotation is a one-value Literal (inherited too): the values a discriminated union selects on
        # (`decoding_type: Literal["MTP"]`, `algorithm: Literal["dsa"]`, `mode: Literal["decode"]`).
        self.literals: Dict[str, Any] = {}
        self.doc = ast.get_docstring(node) or ''


class Extractor:
    def __init__(self, src: Source):
        self.src = src
        self.infos: Dict[Tuple[str, str], ModelInfo] = {}
        self.defs: Dict[str, dict] = {}
        self.def_names: Dict[Tuple[str, str], str] = {}
        self.building: set = set()

    # -- class facts ------------------------------------------------------------------------

    def info(self, mod: Module, name: str) -> ModelInfo:
        key = (mod.path, name)
        if key in self.infos:
            return self.infos[key]
        node = mod.classes[name]
        info = ModelInfo(name, mod, node)
        self.infos[key] = info
        bases = self.bases(info)
        base_names = {_name_of(b) for b in node.bases}
        is_dataclass = any(_name_of(d) == 'dataclass' for d in node.decorator_list)
        if base_names & ENUM_ROOTS or any(b.kind == 'enum' for b in bases):
            info.kind = 'enum'
        elif base_names & PYDANTIC_ROOTS or any(b.kind == 'model' for b in bases):
            info.kind = 'model'
        elif is_dataclass:
            info.kind = 'dataclass'
        if info.kind == '':
            # A plain mix-in (AutoDeploy's DynamicYamlMixInForSettings): pydantic collects the annotations of every
            # class along a model's MRO, so its annotated fields become fields of the models that list it as a base.
            self.own_fields(info)
        if info.kind in ('model', 'dataclass'):
            for b in reversed(bases):
                if b.kind in ('model', 'dataclass', ''):
                    for k, v in b.fields.items():
                        info.fields[k] = v
                    info.literals.update(b.literals)
            for b in bases:
                if b.extra is not None:
                    info.extra = b.extra
                    break
            own_extra = self.own_extra(mod, node)
            if own_extra is not None:
                info.extra = own_extra
            self.own_fields(info)
        return info

    def bases(self, info: ModelInfo) -> List[ModelInfo]:
        out = []
        for b in info.node.bases:
            m, n, kind = self.src.resolve(info.module, _name_of(b))
            if kind == 'class' and m is not None and n is not None and (m.path, n) != (info.module.path, info.node.name):
                out.append(self.info(m, n))
        return out

    def own_extra(self, mod: Module, node: ast.ClassDef) -> Optional[str]:
        for kw in node.keywords:
            if kw.arg == 'extra':
                v = _const(kw.value)
                return v if isinstance(v, str) else None
        for stmt in node.body:
            # pydantic's v1-style inner `class Config: extra = "forbid"` (still honoured by pydantic 2).
            if isinstance(stmt, ast.ClassDef) and stmt.name == 'Config':
                for sub in stmt.body:
                    if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == 'extra' for t in sub.targets):
                        v = _const(sub.value)
                        return v if isinstance(v, str) else None
        for stmt in node.body:
            target = None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign):
                target, value = stmt.target, stmt.value
            if not (isinstance(target, ast.Name) and target.id == 'model_config' and value is not None):
                continue
            return self.config_extra(mod, value)
        return None

    def config_extra(self, mod: Module, value: ast.expr) -> Optional[str]:
        if isinstance(value, ast.Dict):
            for k, v in zip(value.keys, value.values):
                if _const(k) == 'extra':
                    c = _const(v)
                    return c if isinstance(c, str) else None
            return None
        if isinstance(value, ast.Call):
            for kw in value.keywords:
                if kw.arg == 'extra':
                    c = _const(kw.value)
                    return c if isinstance(c, str) else None
            # `model_config = _get_config_dict()`: read the returned ConfigDict.
            fn = mod.functions.get(_name_of(value.func))
            if fn is not None:
                for sub in ast.walk(fn):
                    if isinstance(sub, ast.Return) and sub.value is not None and sub.value is not value:
                        return self.config_extra(mod, sub.value)
        return None

    def is_field(self, mod: Module, node: Optional[ast.AST]) -> bool:
        """A call of pydantic's Field, under any name it is imported as (`from pydantic import Field as PydanticField`),
        or of a module's own `Field` wrapper (TensorRT-LLM's adds `status=` and `telemetry=`)."""
        if not isinstance(node, ast.Call):
            return False
        name = _name_of(node.func)
        return name == 'Field' or mod.imports.get(name, ('', ''))[1] == 'Field'

    def own_fields(self, info: ModelInfo) -> None:
        mod = info.module
        for stmt in info.node.body:
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            name = stmt.target.id
            ann = stmt.annotation
            if _name_of(ann) == 'ClassVar':
                lit = _const(stmt.value)
                if isinstance(lit, str):
                    info.discriminator = (name, lit)
                continue
            if name.startswith('_') or name == 'model_config':
                continue
            if isinstance(stmt.value, ast.Call) and _name_of(stmt.value.func) == 'PrivateAttr':
                continue
            f = {'module': mod, 'annotation': ann, 'value': stmt.value, 'owner': info.node.name}
            aliases = self.field_aliases(mod, stmt.value)
            if aliases:
                f['aliases'] = aliases
            info.fields[name] = f
            if _name_of(ann) == 'Literal':
                vals = self.literal_values(ann)
                if len(vals) == 1:
                    info.literals[name] = vals[0]
                    if name == 'decoding_type' and isinstance(vals[0], str):
                        info.discriminator = (name, vals[0])
        # A `mode="before"` / `"plain"` / `"wrap"` field validator sees the raw value before (or instead of) the
        # annotation's validation, so the annotation no longer says what the YAML may hold (`eagle_choices` parses a
        # string, `cp_type` upper-cases one). Only validators of the class that declares the field relax it; one a
        # subclass adds to an inherited field narrows it (AutoDeploy rejects non-default parallel sizes) and is left out.
        own = {n for n, f in info.fields.items() if f.get('owner') == info.node.name}
        for stmt in info.node.body:
            if not isinstance(stmt, ast.FunctionDef):
                continue
            for dec in stmt.decorator_list:
                if not (isinstance(dec, ast.Call) and _name_of(dec.func) == 'field_validator'):
                    continue
                mode = next((_const(k.value) for k in dec.keywords if k.arg == 'mode'), 'after')
                if mode not in ('before', 'plain', 'wrap'):
                    continue
                for a in dec.args:
                    n = _const(a)
                    if isinstance(n, str) and n in own:
                        info.fields[n] = dict(info.fields[n], validator=mode)

    def field_aliases(self, mod: Module, value: Optional[ast.expr]) -> List[str]:
        """The other input names of a field: `alias="x"` and `validation_alias=AliasChoices("a", "b")`."""
        if not self.is_field(mod, value):
            return []
        out: List[str] = []
        for kw in value.keywords:  # type: ignore[union-attr]
            if kw.arg not in ('alias', 'validation_alias'):
                continue
            v = kw.value
            names = [_const(a) for a in v.args] if isinstance(v, ast.Call) and _name_of(v.func) == 'AliasChoices' else [_const(v)]
            out += [n for n in names if isinstance(n, str) and n not in out]
        return out

    def field_props(self, fields: Dict[str, dict]) -> Dict[str, dict]:
        """The properties of a set of fields, with a property for each alias a field also accepts."""
        props: Dict[str, dict] = {}
        for name, f in fields.items():
            props[name] = self.field_schema(f)
        for name, f in fields.items():
            for a in f.get('aliases', []):
                if a != name and a not in props:
                    s = copy.deepcopy(props[name])
                    s['description'] = f'Another name of `{name}` (pydantic alias). ' + s.get('description', '')
                    s['description'] = s['description'].strip()
                    props[a] = s
        return props

    @staticmethod
    def literal_values(ann: ast.expr) -> List[Any]:
        sl = ann.slice if isinstance(ann, ast.Subscript) else None
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl] if sl is not None else []
        return [v for v in (_const(i) for i in items) if v is not NO_VALUE]

    def enum_values(self, info: ModelInfo) -> List[Any]:
        vals = []
        for stmt in info.node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                if stmt.targets[0].id.startswith('_'):
                    continue
                v = _const(stmt.value)
                if v is not NO_VALUE and not isinstance(v, (dict, list, tuple)):
                    vals.append(v)
        return vals

    # -- schemas ---------------------------------------------------------------------------------

    def def_name(self, info: ModelInfo) -> str:
        key = (info.module.path, info.node.name)
        if key not in self.def_names:
            name = info.node.name
            taken = set(self.def_names.values())
            if name in taken:
                prefix = 'AutoDeploy' if 'auto_deploy' in info.module.path else info.module.path.split('/')[-1][:-3]
                name = prefix + name[0].upper() + name[1:]
            self.def_names[key] = name
        return self.def_names[key]

    def model_ref(self, info: ModelInfo) -> dict:
        name = self.def_name(info)
        if name not in self.defs and name not in self.building:
            self.building.add(name)
            self.defs[name] = self.model_schema(info)
            self.building.discard(name)
        return {'$ref': f'#/$defs/{name}'}

    def model_schema(self, info: ModelInfo) -> dict:
        # No `type` here: each use site says `{"type": "object", "$ref": …}` (or ["object", "null"] where the field is
        # Optional), so a null is judged at the field, never by a second union branch that only adds noise.
        s: dict = {}
        doc = _first_paragraph(info.doc)
        if doc:
            s['description'] = doc
        s.update(self.fields_schema(info))
        if info.discriminator:
            key, val = info.discriminator
            s['properties'].setdefault(key, {'const': val})
        if info.extra == 'forbid':
            s['additionalProperties'] = False
        return s

    def fields_schema(self, info: ModelInfo) -> dict:
        """`properties` of a model's fields. A model whose pydantic base has fields of its own refers to that base's
        fields (`allOf` of `$defs/<Base>Fields`, listing the inherited names so that the set can still be closed):
        the twelve speculative-decoding configs share DecodingBaseConfig's fields instead of each compiling them
        again. A subclass that narrows or widens an inherited field's type keeps every field inline."""
        parent = next((b for b in self.bases(info) if b.kind == 'model' and b.fields), None)
        if parent is not None:
            own = {n: f for n, f in info.fields.items() if n not in parent.fields or f is not parent.fields[n]}
            same = all(
                _validation(self.field_schema(f)) == _validation(self.field_schema(parent.fields[n]))
                for n, f in own.items()
                if n in parent.fields
            )
            if same:
                props = self.field_props(own)
                for n, f in parent.fields.items():
                    for name in [n, *f.get('aliases', [])]:
                        props.setdefault(name, {})
                return {'allOf': [{'$ref': f'#/$defs/{self.fields_ref(parent)}'}], 'properties': props}
        return {'properties': self.field_props(info.fields)}

    def fields_ref(self, info: ModelInfo) -> str:
        """The def holding a base model's fields, open (the subclass closes the set), built once."""
        name = self.def_name(info) + 'Fields'
        if name not in self.defs and name not in self.building:
            self.building.add(name)
            self.defs[name] = self.fields_schema(info)
            self.building.discard(name)
        return name

    def field_schema(self, f: dict) -> dict:
        mod: Module = f['module']
        value = f['value']
        schema = self.ann(mod, f['annotation'])
        kwargs: Dict[str, ast.expr] = {}
        default: Any = NO_VALUE
        if self.is_field(mod, value):
            kwargs = {kw.arg: kw.value for kw in value.keywords if kw.arg}
            if value.args:
                default = _const(value.args[0])
            if 'default' in kwargs:
                default = _const(kwargs['default'])
            if 'default_factory' in kwargs:
                default = _factory_default(kwargs['default_factory'])
        elif value is not None:
            default = _const(value)
            if default is NO_VALUE:
                default = self.enum_member_value(mod, value)
        if default is Ellipsis:
            default = NO_VALUE
        if 'default' in kwargs and default is NO_VALUE:
            default = self.enum_member_value(mod, kwargs['default'])
        schema = copy.deepcopy(schema)
        _apply_constraints(schema, kwargs)
        desc = _string_concat(kwargs.get('description'))
        if desc:
            schema['description'] = ' '.join(desc.split())
        if default is not NO_VALUE and _json_safe(default):
            schema['default'] = default
        status = _const(kwargs.get('status')) if 'status' in kwargs else NO_VALUE
        extra = _const(kwargs.get('json_schema_extra')) if 'json_schema_extra' in kwargs else NO_VALUE
        if isinstance(extra, dict) and status is NO_VALUE:
            status = extra.get('status', NO_VALUE)
        if status == 'deprecated' or 'deprecated' in kwargs and _const(kwargs['deprecated']) not in (False, None):
            schema['deprecated'] = True
            note = _const(kwargs.get('deprecated')) if 'deprecated' in kwargs else None
            msg = note if isinstance(note, str) else desc
            if msg:
                schema['x-deprecatedMessage'] = ' '.join(msg.split())
        elif isinstance(status, str) and status in ('prototype', 'beta'):
            schema['x-status'] = status
        # `telemetry=TelemetryField.categorical("auto", "float16", …)`: the values TensorRT-LLM recognises for a
        # free-form string field, shown as examples (never enforced: the field is a str).
        tel = kwargs.get('telemetry')
        if isinstance(tel, ast.Call) and _name_of(tel.func) == 'categorical' and 'enum' not in schema:
            vals = [v for v in (_const(a) for a in tel.args) if isinstance(v, str)]
            if vals:
                schema['examples'] = vals
        if f.get('validator'):
            schema = _relaxed(schema, f['validator'])
        return schema

    def enum_member_value(self, mod: Module, node: ast.expr) -> Any:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            m, n, kind = self.src.resolve(mod, node.value.id)
            if kind == 'class' and m is not None and n is not None:
                info = self.info(m, n)
                if info.kind == 'enum':
                    for stmt in info.node.body:
                        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.attr for t in stmt.targets):
                            # A str enum's member is its value in YAML; an int-valued Enum's (LoadFormat.AUTO = 0) is
                            # no spelling a file uses, so it is no default worth showing.
                            v = _const(stmt.value)
                            return v if isinstance(v, str) else NO_VALUE
        return NO_VALUE

    def ann(self, mod: Module, node: Optional[ast.expr], depth: int = 0) -> dict:
        if node is None or depth > 20:
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
                vals = self.literal_values(node)
                s = {'enum': vals}
                types = sorted({_json_type(v) for v in vals})
                s = {'type': types[0] if len(types) == 1 else types, 'enum': vals}
                return s
            if head in ('List', 'list', 'Sequence', 'Set', 'set', 'FrozenSet', 'frozenset', 'Iterable'):
                item = self.ann(mod, args[0], depth + 1)
                return {'type': 'array', 'items': item} if item else {'type': 'array'}
            if head in ('Tuple', 'tuple'):
                if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
                    item = self.ann(mod, args[0], depth + 1)
                    return {'type': 'array', 'items': item} if item else {'type': 'array'}
                # A fixed-length tuple: exactly len(args) items (pydantic rejects more or fewer).
                items = [self.ann(mod, a, depth + 1) for a in args]
                return {'type': 'array', 'prefixItems': items, 'minItems': len(args), 'maxItems': len(args)}
            if head in ('Dict', 'dict', 'Mapping', 'MutableMapping', 'DefaultDict'):
                s: dict = {'type': 'object'}
                if len(args) == 2:
                    v = self.ann(mod, args[1], depth + 1)
                    if v:
                        s['additionalProperties'] = v
                return s
            if head == 'Annotated':
                metas = [{kw.arg: kw.value for kw in m.keywords if kw.arg} for m in args[1:] if self.is_field(mod, m)]
                key = next((_const(m['discriminator']) for m in metas if 'discriminator' in m), None)
                members = self.union_members(mod, args[0]) if isinstance(key, str) else []
                if members:
                    # `Annotated[Union[A, B], Field(discriminator="mode")]`: chosen by each variant's Literal `mode`.
                    return self.union(mod, members, depth, key)
                base = copy.deepcopy(self.ann(mod, args[0], depth + 1))
                for m in metas:
                    _apply_constraints(base, m)
                return base
            if head in ('ClassVar', 'Final', 'Required', 'NotRequired'):
                return self.ann(mod, args[0], depth + 1)
            if head in ('Type', 'type', 'Callable'):
                return {}
            return self.ann(mod, node.value, depth + 1)
        name = _name_of(node)
        if isinstance(node, ast.Attribute) and _name_of(node.value) == 'torch':
            return {'type': 'string'}
        if name in ('None', 'NoneType'):
            return {'type': 'null'}
        m, n, kind = self.src.resolve(mod, name)
        if kind == 'alias' and m is not None and n is not None:
            return self.ann(m, m.aliases[n], depth + 1)
        if kind == 'class' and m is not None and n is not None:
            info = self.info(m, n)
            if info.kind == 'enum':
                vals = self.enum_values(info)
                if vals:
                    types = sorted({_json_type(v) for v in vals})
                    return {'type': types[0] if len(types) == 1 else types, 'enum': vals}
                return {}
            if info.kind in ('model', 'dataclass'):
                return {'type': 'object', **self.model_ref(info)}
            return {}
        if name in SIMPLE_TYPES:
            return dict(SIMPLE_TYPES[name])
        return {}

    def union_members(self, mod: Module, node: ast.expr, depth: int = 0) -> List[ast.expr]:
        """The members of a union annotation (`Union[...]`, `Optional[...]`, `A | B`, or an alias of one)."""
        if depth > 8:
            return []
        if isinstance(node, ast.Subscript) and _name_of(node.value) in ('Union', 'Optional'):
            sl = node.slice
            items = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            return items + ([ast.Constant(value=None)] if _name_of(node.value) == 'Optional' else [])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return [m for side in (node.left, node.right) for m in (self.union_members(mod, side, depth + 1) or [side])]
        if isinstance(node, ast.Name):
            m, n, kind = self.src.resolve(mod, node.id)
            if kind == 'alias' and m is not None and n is not None:
                return self.union_members(m, m.aliases[n], depth + 1)
        return []

    def disc_value(self, info: ModelInfo, key: Optional[str]) -> Any:
        """The value that selects `info` in a union discriminated by `key` (its one-value Literal field, or a
        `ClassVar[str]` of that name); without a key, the legacy `decoding_type` ClassVar."""
        if key is None:
            return info.discriminator[1] if info.discriminator else None
        if key in info.literals:
            return info.literals[key]
        return info.discriminator[1] if info.discriminator and info.discriminator[0] == key else None

    def union(self, mod: Module, members: List[ast.expr], depth: int, key: Optional[str] = None) -> dict:
        variants: List[ModelInfo] = []
        schemas: List[dict] = []
        nullable = False
        for a in members:
            if isinstance(a, ast.Constant) and a.value is None or _name_of(a) in ('None', 'NoneType'):
                nullable = True
                continue
            m, n, kind = self.src.resolve(mod, _name_of(a)) if isinstance(a, (ast.Name, ast.Attribute)) else (None, None, '')
            if kind == 'class' and m is not None and n is not None:
                info = self.info(m, n)
                if info.kind == 'model' and isinstance(self.disc_value(info, key), str):
                    variants.append(info)
            s = self.ann(mod, a, depth + 1)
            if s.get('anyOf') and len(s) == 1:
                schemas.extend(s['anyOf'])
            elif s.get('type') == 'null' and len(s) == 1:
                nullable = True
            else:
                schemas.append(s)
        if len(variants) >= 2 and len(variants) == len(schemas):
            out = self.discriminated(variants, key or variants[0].discriminator[0])  # type: ignore[index]
            if nullable:
                out['type'] = ['object', 'null']
            return out
        return _union_of(schemas, nullable)

    def dispatch_names(self, variants: List[ModelInfo]) -> Dict[str, List[str]]:
        """Extra discriminator spellings: a `from_dict` that maps strings to the variant classes
        (`{"Eagle3": Eagle3DecodingConfig, "Draft_Target": DraftTargetDecodingConfig, ...}`) on any base class."""
        names = {v.node.name for v in variants}
        out: Dict[str, List[str]] = {}
        seen = set()
        for v in variants:
            for b in self.bases(v):
                if (b.module.path, b.node.name) in seen:
                    continue
                seen.add((b.module.path, b.node.name))
                for stmt in b.node.body:
                    if not (isinstance(stmt, ast.FunctionDef) and stmt.name == 'from_dict'):
                        continue
                    for sub in ast.walk(stmt):
                        if isinstance(sub, ast.Dict):
                            for k, val in zip(sub.keys, sub.values):
                                key = _const(k)
                                if isinstance(key, str) and _name_of(val) in names:
                                    out.setdefault(_name_of(val), [])
                                    if key not in out[_name_of(val)]:
                                        out[_name_of(val)].append(key)
        return out

    def discriminated(self, variants: List[ModelInfo], key: str) -> dict:
        spellings = self.dispatch_names(variants)
        props: Dict[str, dict] = {}
        branches = []
        values: List[str] = []
        for v in variants:
            ref = self.model_ref(v)
            vals = [self.disc_value(v, key)]
            vals += [x for x in spellings.get(v.node.name, []) if x not in vals]
            values += [x for x in vals if x not in values]
            cond = {'const': vals[0]} if len(vals) == 1 else {'enum': vals}
            branches.append({'if': {'properties': {key: cond}, 'required': [key]}, 'then': ref})
            # Every field of the variant, inherited ones included (its def may list those by name only).
            full = self.field_props(v.fields)
            if v.discriminator:
                full.setdefault(v.discriminator[0], {'const': v.discriminator[1]})
            for pname, ps in full.items():
                if pname == key:
                    continue
                # The choice-independent view (hover, completion): every variant's key, widened over the variants,
                # deprecated only where every variant that has it deprecates it.
                if pname in props:
                    w = _widen(props[pname], ps)
                    if not ps.get('deprecated'):
                        w.pop('deprecated', None)
                        w.pop('x-deprecatedMessage', None)
                    props[pname] = w
                else:
                    props[pname] = copy.deepcopy(ps)
        out = {
            'type': 'object',
            'description': f'Selected by `{key}`; each choice accepts only its own keys.',
            'properties': {key: {'type': 'string', 'enum': values}, **{k: _view(props[k]) for k in sorted(props)}},
            'allOf': branches,
        }
        # Every choice strict: a key that no choice declares is rejected whatever `key` says, or when it is absent
        # (`cuda_graph_config` without `mode`, which a before-validator infers).
        if all(self.defs[self.def_name(v)].get('additionalProperties') is False for v in variants):
            out['additionalProperties'] = False
        return out


# What the choice-independent view of a discriminated union keeps of each key: what hover, completion and the lax-mode
# conversion read. The chosen variant (`then`) validates the value in full; a second full copy here only doubled the
# compiled validator.
_VIEW_KEEP = ('type', 'enum', 'examples', 'description', 'default', 'deprecated', 'x-deprecatedMessage', 'x-status', 'x-strict', 'x-validator', 'x-releases')


def _validation(schema: dict) -> str:
    """A field schema without its annotations: what it accepts, for comparing an override with the field it shadows."""
    return _canon({k: v for k, v in schema.items() if k not in ('description', 'default', 'x-status', 'deprecated', 'x-deprecatedMessage', 'examples')})


def _view(schema: dict) -> dict:
    out = {k: copy.deepcopy(v) for k, v in schema.items() if k in _VIEW_KEEP}
    if 'type' not in out and ('$ref' in schema or 'allOf' in schema):
        out['type'] = 'object'
    return out


def _views_follow_variants(props: Dict[str, dict], defs: Dict[str, dict]) -> None:
    """After the overlay: a discriminated union's choice-independent view marks a key deprecated where every variant
    that has the key says so (the overlay annotates the variants' defs, e.g. MTPDecodingConfig's num_nextn_predict_layers)."""

    def field(name: str, key: str) -> Optional[dict]:
        d = defs.get(name, {})
        f = d.get('properties', {}).get(key)
        if f:
            return f
        for br in d.get('allOf', []):
            ref = br.get('$ref', '')
            if ref.startswith('#/$defs/'):
                got = field(ref[len('#/$defs/') :], key)
                if got:
                    return got
        return f

    for view in props.values():
        refs = [b.get('then', {}).get('$ref', '') for b in view.get('allOf', []) if 'if' in b]
        names = [r[len('#/$defs/') :] for r in refs if r.startswith('#/$defs/')]
        if not names:
            continue
        for key, p in view.get('properties', {}).items():
            fs = [f for f in (field(n, key) for n in names) if f is not None]
            if fs and all(f.get('deprecated') for f in fs) and not p.get('deprecated'):
                p['deprecated'] = True
                msg = next((f['x-deprecatedMessage'] for f in fs if f.get('x-deprecatedMessage')), None)
                if msg:
                    p['x-deprecatedMessage'] = msg


def _first_paragraph(doc: str) -> str:
    para = doc.strip().split('\n\n')[0]
    return ' '.join(para.split())


def _json_type(v: Any) -> str:
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'boolean'
    if isinstance(v, int):
        return 'integer'
    if isinstance(v, float):
        return 'number'
    return 'string'


def _json_safe(v: Any) -> bool:
    try:
        json.dumps(v, allow_nan=False)
        return True
    except (TypeError, ValueError):
        return False


def _factory_default(node: ast.expr) -> Any:
    n = _name_of(node)
    if n in ('dict', 'Dict'):
        return {}
    if n in ('list', 'List'):
        return []
    # `default_factory=lambda: [1, 1, 4]`: a literal body is the default.
    if isinstance(node, ast.Lambda) and not node.args.args:
        return _const(node.body)
    return NO_VALUE


# What survives of a field's schema when a before/plain/wrap validator sees the raw value first.
_RELAXED_KEEP = ('description', 'default', 'examples', 'deprecated', 'x-deprecatedMessage', 'x-status')


def _relaxed(schema: dict, mode: str) -> dict:
    """A field validated by a `mode="before"` (or plain, wrap) validator: a nested model keeps its schema (the
    validator normalises the mapping, e.g. infers `mode`) and also takes null; any other type takes any value."""
    model = '$ref' in schema or 'allOf' in schema or any('$ref' in b for b in schema.get('anyOf', []))
    if model and mode == 'before':
        out = copy.deepcopy(schema)
        if 'anyOf' in out and {'type': 'null'} not in out['anyOf']:
            out['anyOf'] = out['anyOf'] + [{'type': 'null'}]
        elif 'type' in out and 'null' not in (out['type'] if isinstance(out['type'], list) else [out['type']]):
            out['type'] = (out['type'] if isinstance(out['type'], list) else [out['type']]) + ['null']
    else:
        out = {k: copy.deepcopy(v) for k, v in schema.items() if k in _RELAXED_KEEP}
    out['x-validator'] = mode
    return out


def _apply_constraints(schema: dict, kwargs: Dict[str, ast.expr]) -> None:
    target = schema
    # `Optional[int] = Field(ge=1)`: constraints bind to the non-null type.
    num = {'ge': 'minimum', 'gt': 'exclusiveMinimum', 'le': 'maximum', 'lt': 'exclusiveMaximum'}
    for k, jk in num.items():
        if k in kwargs:
            v = _const(kwargs[k])
            if isinstance(v, (int, float)) and not isinstance(v, bool) and _json_safe(v):
                target[jk] = v
    types = target.get('type')
    tl = types if isinstance(types, list) else [types]
    for k, arr, st in (('min_length', 'minItems', 'minLength'), ('max_length', 'maxItems', 'maxLength')):
        if k in kwargs:
            v = _const(kwargs[k])
            if isinstance(v, int):
                target[arr if 'array' in tl else st] = v


def _union_of(schemas: List[dict], nullable: bool) -> dict:
    if any(not s for s in schemas):
        return {}
    simple = all(set(s) == {'type'} for s in schemas)
    if simple:
        types: List[str] = []
        for s in schemas:
            for t in s['type'] if isinstance(s['type'], list) else [s['type']]:
                if t not in types:
                    types.append(t)
        if 'number' in types and 'integer' in types:
            types.remove('integer')
        if nullable:
            types.append('null')
        return {'type': types[0] if len(types) == 1 else types}
    if len(schemas) == 1:
        s = copy.deepcopy(schemas[0])
        if not nullable:
            return s
        if 'type' in s:
            t = s['type'] if isinstance(s['type'], list) else [s['type']]
            s['type'] = t + ['null'] if 'null' not in t else t
            if 'enum' in s and None not in s['enum']:
                s['enum'] = s['enum'] + [None]
            return s
        return {'anyOf': [s, {'type': 'null'}]}
    out = [copy.deepcopy(s) for s in schemas]
    if nullable:
        out.append({'type': 'null'})
    return {'anyOf': out}


# ---------------------------------------------------------------------------------------------
# One release


def extract_release(root: str) -> dict:
    """{'options': {backend: {props, extra}}, 'defs': {...}, 'disagg': {...}} for one checkout."""
    src = Source(root)
    ex = Extractor(src)
    backends: Dict[str, dict] = {}
    for backend, path, cls in LLM_ARGS_CLASSES:
        mod = src.modules.get(path)
        if mod is None or cls not in mod.classes:
            continue
        info = ex.info(mod, cls)
        props = ex.field_props(info.fields)
        backends[backend] = {'properties': props, 'closed': info.extra == 'forbid'}
    disagg = extract_disagg(src, ex)
    return {'backends': backends, 'defs': ex.defs, 'disagg': disagg}


def extract_disagg(src: Source, ex: Extractor) -> dict:
    """Top-level keys of the disaggregated config: the keyword parameters of `extract_disagg_cfg`, and the
    router / server-pool dataclasses. `**kwargs` there means LlmArgs keys are accepted at the top and passed on
    to both pools."""
    mod = src.modules.get('tensorrt_llm/llmapi/disagg_utils.py')
    out: dict = {'top': {}, 'passes_llm_args': False, 'pool': {}}
    if mod is None:
        return out
    fn = mod.functions.get('extract_disagg_cfg')
    if fn is not None:
        a = fn.args
        pos = a.args[len(a.args) - len(a.defaults):] if a.defaults else []
        params = list(zip([p for p in a.args if p not in pos], [None] * len(a.args))) + list(zip(pos, a.defaults))
        params += list(zip(a.kwonlyargs, a.kw_defaults))
        for p, d in params:
            if p.arg in ('self', 'cls'):
                continue
            s = ex.ann(mod, p.annotation)
            dv = _const(d) if d is not None else NO_VALUE
            if dv is not NO_VALUE and dv is not None and _json_safe(dv):
                s = dict(s, default=dv)
            out['top'][p.arg] = s
        out['passes_llm_args'] = a.kwarg is not None
    return out


# ---------------------------------------------------------------------------------------------
# Merging releases


def _canon(s: Any) -> str:
    return json.dumps(s, sort_keys=True)


DIFF_KEYS = ('type', 'enum', 'const', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems')


def merge_property(per_release: List[Tuple[str, dict]], all_releases: List[str]) -> dict:
    """One property seen in several releases: the newest release's schema, widened so that every release's
    values are accepted, with `x-releases` and the per-release differences."""
    newest = copy.deepcopy(per_release[-1][1])
    merged = newest
    for rel, s in per_release[:-1]:
        merged = _widen(merged, s)
    rels = [r for r, _ in per_release]
    if rels != all_releases:
        merged['x-releases'] = rels
    notes = {}
    for rel, s in per_release:
        diff = {k: s[k] for k in DIFF_KEYS if k in s and _canon(s.get(k)) != _canon(newest.get(k))}
        for k in DIFF_KEYS:
            if k in newest and k not in s:
                diff[k] = None
        if diff:
            notes[rel] = diff
    if notes:
        merged['x-releaseNotes'] = notes
    deprecated_in = [r for r, s in per_release if s.get('deprecated')]
    if deprecated_in and not newest.get('deprecated'):
        merged.pop('deprecated', None)
        merged.pop('x-deprecatedMessage', None)
    return merged


def _widen(a: dict, b: dict) -> dict:
    """A schema accepting what `a` or `b` accepts (type lists and enums united, bounds loosened)."""
    if _canon(a) == _canon(b):
        return a
    out = copy.deepcopy(a)
    ta, tb = a.get('type'), b.get('type')
    if ta is not None and tb is not None:
        la = ta if isinstance(ta, list) else [ta]
        lb = tb if isinstance(tb, list) else [tb]
        u = la + [t for t in lb if t not in la]
        out['type'] = u[0] if len(u) == 1 else u
    elif ta is not None and tb is None and '$ref' not in b and 'anyOf' not in b:
        out.pop('type', None)
    if 'enum' in a:
        if 'enum' in b:
            out['enum'] = a['enum'] + [v for v in b['enum'] if v not in a['enum']]
        else:
            out.pop('enum', None)
    for k, lower in (('minimum', True), ('exclusiveMinimum', True), ('maximum', False), ('exclusiveMaximum', False)):
        if k in out:
            if k not in b:
                out.pop(k)
            else:
                out[k] = min(out[k], b[k]) if lower else max(out[k], b[k])
    for k in ('minItems', 'minLength'):
        if k in out and (k not in b or b[k] < out[k]):
            if k in b:
                out[k] = b[k]
            else:
                out.pop(k)
    if 'additionalProperties' in out and out['additionalProperties'] is False and b.get('additionalProperties') is not False:
        out.pop('additionalProperties')
    if 'properties' in a and 'properties' in b:
        props = copy.deepcopy(a['properties'])
        for k, v in b['properties'].items():
            props[k] = _widen(props[k], v) if k in props else v
        out['properties'] = props
    return out


def merge_defs(releases: List[Tuple[str, dict]], order: List[str]) -> Dict[str, dict]:
    names: List[str] = []
    for _, r in releases:
        for n in r['defs']:
            if n not in names:
                names.append(n)
    out = {}
    for n in sorted(names):
        present = [(rel, r['defs'][n]) for rel, r in releases if n in r['defs']]
        newest = copy.deepcopy(present[-1][1])
        prop_names: List[str] = []
        for _, d in present:
            for p in d.get('properties', {}):
                if p not in prop_names:
                    prop_names.append(p)
        props = {}
        for p in prop_names:
            pr = [(rel, d['properties'][p]) for rel, d in present if p in d.get('properties', {})]
            props[p] = merge_property(pr, [rel for rel, _ in present])
        newest['properties'] = props
        if any(d.get('additionalProperties') is not False for _, d in present):
            newest.pop('additionalProperties', None)
        if 'allOf' in newest:
            branches = []
            seen = set()
            for _, d in present:
                for br in d.get('allOf', []):
                    c = _canon(br)
                    if c not in seen:
                        seen.add(c)
                        branches.append(br)
            newest['allOf'] = branches
        rels = [rel for rel, _ in present]
        if rels != order:
            newest['x-releases'] = rels
        out[n] = newest
    return out


# ---------------------------------------------------------------------------------------------
# Output


def build(releases: List[Tuple[str, str, dict]], overlay: dict) -> Tuple[dict, dict, dict]:
    order = [r for r, _, _ in releases]
    data = [(r, d) for r, _, d in releases]
    defs = merge_defs(data, order)
    # Top-level LlmArgs: the union of the backends' fields; a field that only some backends have says which.
    names: List[str] = []
    for _, d in data:
        for b in d['backends'].values():
            for p in b['properties']:
                if p not in names:
                    names.append(p)
    props: Dict[str, dict] = {}
    for p in names:
        per_rel = []
        backends_with: List[str] = []
        for rel, d in data:
            schemas = [(bk, b['properties'][p]) for bk, b in d['backends'].items() if p in b['properties']]
            if not schemas:
                continue
            for bk, _ in schemas:
                if bk not in backends_with:
                    backends_with.append(bk)
            # Deprecated only where every backend that has it deprecates it (AutoDeploy's own
            # cuda_graph_batch_sizes is live while TorchLlmArgs may have dropped it).
            s = copy.deepcopy(schemas[0][1])
            for _, other in schemas[1:]:
                s = _widen(s, other)
                if not other.get('deprecated'):
                    s.pop('deprecated', None)
                    s.pop('x-deprecatedMessage', None)
                if 'description' not in s and 'description' in other:
                    s['description'] = other['description']
            per_rel.append((rel, s))
        merged = merge_property(per_rel, order)
        if backends_with and set(backends_with) != {'pytorch', 'tensorrt', '_autodeploy'} & set(
            bk for _, d in data for bk in d['backends']
        ):
            merged['x-backends'] = backends_with
        props[p] = merged
    options: dict = {
        '$schema': 'https://json-schema.org/draft/2020-12/schema',
        '$id': OPTIONS_ID,
        'title': 'TensorRT-LLM LLM-API options',
        'description': (
            'YAML passed to trtllm-serve --config / --extra_llm_api_options, trtllm-bench --extra_llm_api_options '
            'or Dynamo --extra-engine-args: LlmArgs fields (TorchLlmArgs, TrtLlmArgs and AutoDeploy\'s LlmArgs), '
            'generated from TensorRT-LLM\'s pydantic models by scripts/trtllm-schema/generate.py.'
        ),
        'type': 'object',
        'x-releases': order,
        'x-source': {r: c for r, c, _ in releases},
        'properties': props,
        'additionalProperties': False,
        '$defs': defs,
    }
    apply_overlay(options, overlay.get('options', {}))
    # The LlmArgs fields live in `$defs/LlmArgs`, validated once and shared with the disaggregated schema's pools (a
    # `$ref` per property there compiled every field a second time); the root keeps each name (detect.ts reads them)
    # with an empty schema, and closes the set.
    names = list(options['properties'])
    options['$defs']['LlmArgs'] = {
        'description': 'The fields of LlmArgs, shared by the options file and the disaggregated pools.',
        'properties': options['properties'],
    }
    _views_follow_variants(options['properties'], options['$defs'])
    options['$ref'] = '#/$defs/LlmArgs'
    options['properties'] = {n: {} for n in names}
    options = {k: options[k] for k in ('$schema', '$id', 'title', 'description', 'type', 'x-releases', 'x-source', 'x-aliases', '$ref', 'properties', 'additionalProperties', '$defs') if k in options}
    disagg = build_disagg(data, order, names)
    apply_overlay(disagg, overlay.get('disagg', {}))
    perf = build_perf(order, names)
    apply_overlay(perf, overlay.get('perf', {}))
    prune_defs(options)
    return options, disagg, perf


def build_disagg(data: List[Tuple[str, dict]], order: List[str], option_names: List[str]) -> dict:
    names: List[str] = []
    for _, d in data:
        for p in d['disagg']['top']:
            if p not in names:
                names.append(p)
    top = {}
    for p in names:
        per = [(rel, d['disagg']['top'][p]) for rel, d in data if p in d['disagg']['top']]
        top[p] = merge_property(per, order)
    for p in ('context_servers', 'generation_servers'):
        top[p] = {'$ref': '#/$defs/serverPool'}
    # Each pool is launched as a trtllm-serve instance with the pool's keys as LlmArgs, so every options key is a
    # pool key too; the pool's own keys (num_instances, urls, router) come from the overlay. Pools and a benchmark's
    # worker_config.{ctx,gen} are strict like the options file's top level: the LlmArgs fields (by reference) and
    # each name listed, so that the set can be closed.
    llm = {'$ref': 'trtllm-options.schema.json#/$defs/LlmArgs'}
    names_only = {p: {} for p in option_names}
    pool = {'type': ['object', 'null'], 'allOf': [dict(llm)], 'properties': dict(names_only), 'additionalProperties': False}
    worker = {'type': ['object', 'null'], 'allOf': [dict(llm)], 'properties': dict(names_only), 'additionalProperties': False}
    passes = any(d['disagg']['passes_llm_args'] for _, d in data)
    out = {
        '$schema': 'https://json-schema.org/draft/2020-12/schema',
        '$id': DISAGG_ID,
        'title': 'TensorRT-LLM disaggregated-server config',
        'description': (
            'Config for `trtllm-serve disaggregated -c`: the proxy settings and the context (prefill) and generation '
            '(decode) server pools. LlmArgs keys set at the top level are passed to both pools.'
        ),
        'type': 'object',
        'x-releases': order,
        'properties': dict(top),
        '$defs': {'serverPool': pool, 'workerArgs': worker},
    }
    # `**kwargs` of extract_disagg_cfg: LlmArgs keys at the top are passed on to both pools.
    if passes:
        out['allOf'] = [dict(llm)]
    return out


def build_perf(order: List[str], option_names: List[str]) -> dict:
    """The perf-sanity aggregated config (tests/integration/defs/perf/test_perf_sanity.py `_parse_aggr_config_file`):
    `server_configs` lists trtllm-serve servers. Each entry is written, less the harness's own keys
    (`ServerConfig.exclude_keys`, from the overlay), as the server's `--config` YAML, so every LlmArgs key is a server
    key and the set is closed like the options file's top level. `metadata` and `hardware` come from the overlay."""
    llm = {'$ref': 'trtllm-options.schema.json#/$defs/LlmArgs'}
    server = {
        'type': 'object',
        'allOf': [dict(llm)],
        'properties': {p: {} for p in option_names},
        'additionalProperties': False,
    }
    return {
        '$schema': 'https://json-schema.org/draft/2020-12/schema',
        '$id': PERF_ID,
        'title': 'TensorRT-LLM perf-sanity server configs',
        'description': (
            'A perf-sanity config (tests/scripts/perf-sanity/aggregated): trtllm-serve servers, each an LlmArgs plus the '
            'harness keys that name it, its model and its benchmark clients.'
        ),
        'type': 'object',
        'x-releases': order,
        'properties': {'server_configs': {'type': 'array', 'items': {'$ref': '#/$defs/perfServer'}}},
        '$defs': {'perfServer': server},
    }


def apply_overlay(schema: dict, overlay: dict) -> None:
    """Overlay entries are JSON pointers (`/properties/kv_cache_config`, `/$defs/KvCacheConfig/properties/dtype`)
    mapped to objects merged into the generated node (created when missing); a `null` value removes a key. A property
    the overlay creates is in no release's models: it gets `x-releases: []` (a legacy key that real files still carry)."""
    for ptr, patch in sorted(overlay.items()):
        if ptr.startswith('$'):
            continue
        node = schema
        parts = [p.replace('~1', '/').replace('~0', '~') for p in ptr.split('/')[1:]] if ptr else []
        created = False
        for part in parts:
            if part not in node or not isinstance(node[part], dict):
                node[part] = {}
                created = True
            node = node[part]
        # An explicit `"x-releases": []` marks a legacy-only note: it describes a key no release read has, and leaves
        # alone a key some release does have (AutoDeploy's live cuda_graph_batch_sizes in a release that still has it).
        if not created and patch.get('x-releases', None) == [] and 'x-releases' in patch:
            continue
        _deep_merge(node, patch)
        # A key the overlay creates is in no release's models: `x-releases: []` (a legacy key), unless the patch says
        # otherwise (`"x-releases": null`: a key every release's loader takes that is no model field, like `hf_revision`).
        if created and len(parts) >= 2 and parts[-2] == 'properties' and 'x-releases' in schema and 'x-releases' not in patch:
            node.setdefault('x-releases', [])
        # Values only older releases accept (`x-legacyValues`: value -> note) stay valid input: the enum takes them.
        legacy = node.get('x-legacyValues')
        if isinstance(legacy, dict) and isinstance(node.get('enum'), list):
            node['enum'] = node['enum'] + [v for v in legacy if v not in node['enum']]


def _deep_merge(node: dict, patch: dict) -> None:
    for k, v in patch.items():
        if v is None:
            node.pop(k, None)
        elif isinstance(v, dict) and isinstance(node.get(k), dict) and not k.startswith('$'):
            _deep_merge(node[k], v)
        else:
            node[k] = copy.deepcopy(v)


def prune_defs(schema: dict) -> None:
    """Drop $defs nothing refers to (models the generator met while resolving but no field uses)."""
    defs = schema.get('$defs', {})
    used: set = set()
    stack: List[Any] = [{k: v for k, v in schema.items() if k != '$defs'}]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get('$ref')
            if isinstance(ref, str) and ref.startswith('#/$defs/'):
                name = ref[len('#/$defs/') :].split('/')[0]
                if name not in used and name in defs:
                    used.add(name)
                    stack.append(defs[name])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    schema['$defs'] = {k: defs[k] for k in sorted(defs) if k in used}


def dump(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + '\n'


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--src', action='append', required=True, help='TensorRT-LLM checkout (repeat, oldest release first)')
    ap.add_argument('--release', action='append', required=True, help='release name for the --src at the same position')
    ap.add_argument('--commit', action='append', default=[], help='commit of the --src at the same position (x-source)')
    ap.add_argument('--overlay', help='project annotations merged into the output (overlay.json)')
    ap.add_argument('--out', required=True, help='directory for trtllm-options.schema.json, trtllm-disagg.schema.json and trtllm-perf.schema.json')
    args = ap.parse_args(argv)
    if len(args.src) != len(args.release) or (args.commit and len(args.commit) != len(args.src)):
        ap.error('give one --release (and one --commit, if any) per --src, in the same order')
    releases = []
    for i, (src, rel) in enumerate(zip(args.src, args.release)):
        commit = args.commit[i] if args.commit else 'unknown'
        releases.append((rel, commit, extract_release(src)))
    overlay = {}
    if args.overlay:
        with open(args.overlay, encoding='utf-8') as f:
            overlay = json.load(f)
    options, disagg, perf = build(releases, overlay)
    os.makedirs(args.out, exist_ok=True)
    for name, s in (('trtllm-options.schema.json', options), ('trtllm-disagg.schema.json', disagg), ('trtllm-perf.schema.json', perf)):
        with open(os.path.join(args.out, name), 'w', encoding='utf-8') as f:
            f.write(dump(s))
    print(f'wrote {len(options["properties"])} options keys, {len(options["$defs"])} models, releases {", ".join(r for r, _, _ in releases)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
