// The planning panel's message protocol: every message between the extension host (src/vscode/panel.ts)
// and the webview (webview/main.ts), and the per-section view models the host sends. One module, imported
// by both sides (vscode-codeql's interface-types.ts pattern); the webview only draws what is in here.
// Every message carries the protocol version `v`; the host accepts only what parseWebviewMessage lets through.

/** 2: the Layouts (planner) section, `plan` and `applyCandidate`, EP / ETP / SP what-if values. */
export const PROTOCOL_VERSION = 2;

import {
  LAYOUT_MODES,
  PRECISION_CHOICES,
  RECOMPUTE_CHOICES,
  WHAT_IF_KEYS,
  type LayoutViewState,
  type Sections,
  type UiState,
  type WhatIfValues,
} from './core/panel/viewModels.js';

export * from './core/panel/viewModels.js';

// ---------------------------------------------------------------------------------------------------------
// Messages.

export type ToWebview =
  | { v: typeof PROTOCOL_VERSION; type: 'init'; sections: Sections; ui: UiState }
  | { v: typeof PROTOCOL_VERSION; type: 'update'; sections: Partial<Sections>; ui: UiState }
  | { v: typeof PROTOCOL_VERSION; type: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  | { v: typeof PROTOCOL_VERSION; type: 'error'; message: string };

export type FromWebview =
  | { v: typeof PROTOCOL_VERSION; type: 'ready'; ui: UiState | null }
  | { v: typeof PROTOCOL_VERSION; type: 'selectGpu'; gpu: string }
  | { v: typeof PROTOCOL_VERSION; type: 'preview'; values: WhatIfValues }
  | { v: typeof PROTOCOL_VERSION; type: 'apply'; uri: string; docVersion: number }
  | { v: typeof PROTOCOL_VERSION; type: 'selectRank'; rank: number }
  | { v: typeof PROTOCOL_VERSION; type: 'layoutView'; view: LayoutViewState }
  /** Run the planner for the file shown: for `gpus` GPUs (also the layout section's count from then on), else the panel's count. */
  | { v: typeof PROTOCOL_VERSION; type: 'plan'; gpus?: number }
  /** Write candidate `index` of search `planId` into `uri`, only at `docVersion`. */
  | { v: typeof PROTOCOL_VERSION; type: 'applyCandidate'; uri: string; planId: number; index: number; docVersion: number };

export type FromWebviewType = FromWebview['type'];

// ---------------------------------------------------------------------------------------------------------
// Runtime validation of what the webview sends: the webview is an untrusted peer. Exact key sets, no extra
// nesting, bounded numbers and strings; anything else is rejected with a reason the host logs.

export type Parsed<T> = { ok: true; msg: T } | { ok: false; error: string };

/** Upper bounds: sizes and counts up to 2^20 (a million GPUs), sequence lengths up to 2^26 tokens. */
export const LIMITS = { size: 1 << 20, seq: 1 << 26, rank: 1 << 24, page: 1 << 24, text: 256, candidates: 64 } as const;

class Invalid extends Error {}
const fail = (why: string): never => {
  throw new Invalid(why);
};

function record(x: unknown, what: string): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) fail(`${what} is not an object`);
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) fail(`${what} is not a plain object`);
  return x as Record<string, unknown>;
}

function keys(o: Record<string, unknown>, required: readonly string[], optional: readonly string[], what: string): void {
  for (const k of required) if (!Object.hasOwn(o, k)) fail(`${what}: missing "${k}"`);
  for (const k of Object.keys(o)) if (!required.includes(k) && !optional.includes(k)) fail(`${what}: unexpected key "${k}"`);
}

function int(x: unknown, min: number, max: number, what: string): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min || x > max) fail(`${what} must be an integer in ${min}…${max}`);
  return x as number;
}

function str(x: unknown, what: string, max: number = LIMITS.text): string {
  if (typeof x !== 'string' || x.length > max) fail(`${what} must be a string of at most ${max} characters`);
  return x as string;
}

function bool(x: unknown, what: string): boolean {
  if (typeof x !== 'boolean') fail(`${what} must be true or false`);
  return x as boolean;
}

function oneOf<T extends string>(x: unknown, allowed: readonly T[], what: string): T {
  if (typeof x !== 'string' || !(allowed as readonly string[]).includes(x)) fail(`${what} must be one of ${allowed.join(', ')}`);
  return x as T;
}

/** GPU ids as gpus.ts and the settings write them: `h100`, `a100-80gb`, `custom:96`. */
const GPU_ID = /^(?:[a-z0-9][a-z0-9-]{0,31}|custom:\d{1,5}(?:\.\d{1,3})?)$/;

function whatIfValues(x: unknown): WhatIfValues {
  const o = record(x, 'values');
  keys(o, [], WHAT_IF_KEYS, 'values');
  const out: WhatIfValues = {};
  for (const k of ['cp', 'tp', 'pp', 'vpp', 'ep', 'etp', 'microBatch', 'offloadLayers'] as const)
    if (o[k] !== undefined) out[k] = int(o[k], k === 'offloadLayers' ? 0 : 1, LIMITS.size, `values.${k}`);
  if (o.seq !== undefined) out.seq = int(o.seq, 1, LIMITS.seq, 'values.seq');
  if (o.sp !== undefined) out.sp = bool(o.sp, 'values.sp');
  if (o.recompute !== undefined) out.recompute = oneOf(o.recompute, RECOMPUTE_CHOICES, 'values.recompute');
  if (o.precision !== undefined) out.precision = oneOf(o.precision, PRECISION_CHOICES, 'values.precision');
  return out;
}

function layoutView(x: unknown): LayoutViewState {
  const o = record(x, 'view');
  keys(o, ['worldSize', 'mode', 'page'], [], 'view');
  return {
    worldSize: o.worldSize === null ? null : int(o.worldSize, 1, LIMITS.size, 'view.worldSize'),
    mode: oneOf(o.mode, LAYOUT_MODES, 'view.mode'),
    page: int(o.page, 0, LIMITS.page, 'view.page'),
  };
}

function uiState(x: unknown): UiState {
  const o = record(x, 'ui');
  keys(o, ['uri', 'gpu', 'whatIf', 'rank', 'layout'], [], 'ui');
  return {
    uri: o.uri === null ? null : str(o.uri, 'ui.uri', 4096),
    gpu: o.gpu === null ? null : gpuId(o.gpu, 'ui.gpu'),
    whatIf: whatIfValues(o.whatIf),
    rank: int(o.rank, 0, LIMITS.rank, 'ui.rank'),
    layout: layoutView(o.layout),
  };
}

function gpuId(x: unknown, what: string): string {
  const s = str(x, what, 48);
  if (!GPU_ID.test(s)) fail(`${what} is not a GPU id`);
  return s;
}

/** Validates a message from the webview; rejects wrong versions, unknown types, missing or extra keys. */
export function parseWebviewMessage(raw: unknown): Parsed<FromWebview> {
  try {
    const o = record(raw, 'message');
    if (o.v !== PROTOCOL_VERSION) fail(`unsupported protocol version ${JSON.stringify(o.v)?.slice(0, 20)} (expected ${PROTOCOL_VERSION})`);
    const type = typeof o.type === 'string' ? o.type.slice(0, 40) : typeof o.type;
    const v = PROTOCOL_VERSION;
    switch (o.type) {
      case 'ready':
        keys(o, ['v', 'type', 'ui'], [], 'ready');
        return { ok: true, msg: { v, type: 'ready', ui: o.ui === null ? null : uiState(o.ui) } };
      case 'selectGpu':
        keys(o, ['v', 'type', 'gpu'], [], 'selectGpu');
        return { ok: true, msg: { v, type: 'selectGpu', gpu: gpuId(o.gpu, 'gpu') } };
      case 'preview':
        keys(o, ['v', 'type', 'values'], [], 'preview');
        return { ok: true, msg: { v, type: 'preview', values: whatIfValues(o.values) } };
      case 'apply':
        keys(o, ['v', 'type', 'uri', 'docVersion'], [], 'apply');
        return {
          ok: true,
          msg: { v, type: 'apply', uri: str(o.uri, 'uri', 4096), docVersion: int(o.docVersion, 0, Number.MAX_SAFE_INTEGER, 'docVersion') },
        };
      case 'selectRank':
        keys(o, ['v', 'type', 'rank'], [], 'selectRank');
        return { ok: true, msg: { v, type: 'selectRank', rank: int(o.rank, 0, LIMITS.rank, 'rank') } };
      case 'layoutView':
        keys(o, ['v', 'type', 'view'], [], 'layoutView');
        return { ok: true, msg: { v, type: 'layoutView', view: layoutView(o.view) } };
      case 'plan':
        keys(o, ['v', 'type'], ['gpus'], 'plan');
        return {
          ok: true,
          msg: o.gpus === undefined ? { v, type: 'plan' } : { v, type: 'plan', gpus: int(o.gpus, 1, LIMITS.size, 'gpus') },
        };
      case 'applyCandidate':
        keys(o, ['v', 'type', 'uri', 'planId', 'index', 'docVersion'], [], 'applyCandidate');
        return {
          ok: true,
          msg: {
            v,
            type: 'applyCandidate',
            uri: str(o.uri, 'uri', 4096),
            planId: int(o.planId, 0, Number.MAX_SAFE_INTEGER, 'planId'),
            index: int(o.index, 0, LIMITS.candidates - 1, 'index'),
            docVersion: int(o.docVersion, 0, Number.MAX_SAFE_INTEGER, 'docVersion'),
          },
        };
      default:
        return fail(`unknown message type ${JSON.stringify(type)}`);
    }
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}

/** The webview's check of what the host sends: the version and a known type (the host is trusted, but versions can skew). */
export function isHostMessage(raw: unknown): raw is ToWebview {
  if (typeof raw !== 'object' || raw === null) return false;
  const o = raw as Record<string, unknown>;
  return o.v === PROTOCOL_VERSION && (o.type === 'init' || o.type === 'update' || o.type === 'notice' || o.type === 'error');
}

export const DEFAULT_UI: UiState = { uri: null, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } };
