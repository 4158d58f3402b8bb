// Shared types of the pure core. No `vscode` import anywhere under src/core.

export const FORMAT_IDS = [
  'nemo1',
  'nemo-launcher',
  'nemo-launcher-main',
  'nemo2',
  'megatron-bridge',
  'megatron-lm',
  'nemo-rl',
  'automodel',
  'trtllm-options',
  'trtllm-disagg',
  'trtllm-perf',
  'kv-retention',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export function isFormatId(s: unknown): s is FormatId {
  return typeof s === 'string' && (FORMAT_IDS as readonly string[]).includes(s);
}

export const FORMAT_LABELS: Record<FormatId, string> = {
  nemo1: 'NeMo 1.x Hydra config',
  'nemo-launcher': 'NeMo-Framework-Launcher training recipe',
  'nemo-launcher-main': 'NeMo-Framework-Launcher main config',
  nemo2: 'NeMo 2.0 serialized config (_target_ tree)',
  'megatron-bridge': 'Megatron-Bridge config',
  'megatron-lm': 'Megatron-LM arguments (MODEL_ARGS)',
  'nemo-rl': 'NeMo-RL config',
  automodel: 'NeMo Automodel recipe',
  'trtllm-options': 'TensorRT-LLM LLM-API options',
  'trtllm-disagg': 'TensorRT-LLM disaggregated-server config',
  'trtllm-perf': 'TensorRT-LLM perf-sanity server configs',
  'kv-retention': 'TensorRT-LLM KV cache retention config',
};

export type Severity = 'error' | 'warning' | 'info';

/** 0-based LSP position. `character` counts UTF-16 code units, like VS Code. */
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}

/** Offsets into the text: [start, end). */
export type Span = readonly [number, number];

/** One path segment: a mapping key or a sequence index. */
export type PathSeg = string | number;
export type KeyPath = readonly PathSeg[];

export interface RelatedInfo {
  path: string;
  span: Span;
  message: string;
  /** Another file (a NeMo-RL `defaults:` parent): `span` is then an offset there and `range` its position. */
  file?: string;
  range?: Range;
}

/** A text replacement; `span` is in offsets of the document the finding came from. */
export interface TextEdit {
  span: Span;
  newText: string;
}
export interface Fix {
  title: string;
  edits: TextEdit[];
}

/** A finding of the core, before positions are computed. */
export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  /** Dotted path of the node the finding is placed on ('' for the whole file). */
  path: string;
  span: Span;
  related?: RelatedInfo[];
  fixes?: Fix[];
}

/** A finding with LSP positions, as the CLI and the VS Code adapter report it. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  path: string;
  range: Range;
  /** `file` is set when the location is in another file (a `defaults:` parent). */
  related?: { path: string; range: Range; message: string; file?: string }[];
  fixes?: { title: string; edits: { range: Range; newText: string }[] }[];
}
