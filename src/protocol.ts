// The planning panel's message protocol: every message between the extension host (src/vscode/panel.ts) and the
// webview (webview/app.ts), as valibot schemas with their TypeScript types inferred from them, so the type and the
// runtime check are one definition (vscode-codeql's interface-types.ts pattern, made checkable). One module,
// imported by both sides; it imports the view models from the core, never the reverse.
// Every message carries the protocol version `v`. Each side validates what it receives: the host every webview
// message (parseWebviewMessage: the webview is an untrusted peer), the webview every host message
// (parseHostMessage: versions can skew, and a malformed update must not be drawn).
import * as v from 'valibot';
import {
  bool,
  CandidateIndex,
  DocVersion,
  GpuId,
  int,
  isPlainObject,
  LayoutViewStateSchema,
  LIMITS,
  notPlain,
  oneOf,
  PartialSectionsSchema,
  PlanId,
  SectionsSchema,
  str,
  strict,
  UiStateSchema,
  Uri,
  WhatIfValuesSchema,
  type UiState,
} from './core/panel/viewModels.js';

export * from './core/panel/viewModels.js';

/** 2: the Layouts (planner) section, `plan` and `applyCandidate`, EP / ETP / SP what-if values. */
export const PROTOCOL_VERSION = 2;
const V = v.literal(PROTOCOL_VERSION, `must be protocol version ${PROTOCOL_VERSION}`);

// ---------------------------------------------------------------------------------------------------------
// Host → webview.

const TO_WEBVIEW = [
  v.strictObject({ v: V, type: v.literal('init'), sections: SectionsSchema, ui: UiStateSchema }),
  v.strictObject({ v: V, type: v.literal('update'), sections: PartialSectionsSchema, ui: UiStateSchema }),
  v.strictObject({ v: V, type: v.literal('notice'), level: oneOf(['info', 'warning', 'error']), text: str(LIMITS.vmText) }),
  v.strictObject({ v: V, type: v.literal('error'), message: str(LIMITS.vmText) }),
] as const;

// ---------------------------------------------------------------------------------------------------------
// Webview → host.

const FROM_WEBVIEW = [
  /** The handshake: the webview loaded, with the UI state it kept through setState (null on a first load). */
  v.strictObject({ v: V, type: v.literal('ready'), ui: v.nullable(UiStateSchema) }),
  v.strictObject({ v: V, type: v.literal('selectGpu'), gpu: GpuId }),
  v.strictObject({ v: V, type: v.literal('preview'), values: WhatIfValuesSchema }),
  /** Write the previewed what-if values into `uri`, only at `docVersion`. */
  v.strictObject({ v: V, type: v.literal('apply'), uri: Uri, docVersion: DocVersion }),
  v.strictObject({ v: V, type: v.literal('selectRank'), rank: int(0, LIMITS.rank) }),
  v.strictObject({ v: V, type: v.literal('layoutView'), view: LayoutViewStateSchema }),
  /** Run the planner for the file shown: for `gpus` GPUs (also the layout section's count from then on), else the panel's count. */
  v.strictObject({ v: V, type: v.literal('plan'), gpus: v.optional(int(1, LIMITS.size)) }),
  /** Write candidate `index` of search `planId` into `uri`, only at `docVersion`. */
  v.strictObject({ v: V, type: v.literal('applyCandidate'), uri: Uri, planId: PlanId, index: CandidateIndex, docVersion: DocVersion }),
] as const;

/** A value in a reason: its JSON, cut at 20 characters (a BigInt or anything JSON cannot write: its type). */
function shown(x: unknown): string {
  try {
    return JSON.stringify(x)?.slice(0, 20) ?? typeof x;
  } catch {
    return typeof x;
  }
}

/**
 * A message: a plain object, then the protocol version (checked first: a skewed peer gets that reason, not a
 * complaint about a key it does not know), then the variant its `type` names, with exactly that variant's keys.
 */
const message = <const T extends v.VariantOptions<'type'>>(options: T) =>
  v.pipe(
    v.custom<unknown>(isPlainObject, notPlain),
    v.check(
      (o) => (o as Record<string, unknown>).v === PROTOCOL_VERSION,
      (i) => `unsupported protocol version ${shown((i.input as Record<string, unknown>).v)} (expected ${PROTOCOL_VERSION})`,
    ),
    v.variant(
      'type',
      options,
      (i) => `unknown message type ${typeof i.input === 'string' ? JSON.stringify(i.input.slice(0, 40)) : typeof i.input}`,
    ),
  );

export const ToWebviewSchema = message(TO_WEBVIEW);
export const FromWebviewSchema = message(FROM_WEBVIEW);
export type ToWebview = v.InferOutput<typeof ToWebviewSchema>;
export type FromWebview = v.InferOutput<typeof FromWebviewSchema>;
export type FromWebviewType = FromWebview['type'];

// ---------------------------------------------------------------------------------------------------------
// Validation with reasons a person can act on: the path of the first offending value and what it must be.

export type Parsed<T> = { ok: true; msg: T } | { ok: false; error: string };

const short = (key: unknown) => JSON.stringify(String(key).slice(0, 40));

/**
 * "values.cp must be an integer in 1…1048576", `ready: missing "ui"`, `ui: unexpected key "extra"`: the path of the value,
 * or for a key missing from the message itself or unexpected in it, the message's type (`root`).
 */
export function describeIssue(issue: v.BaseIssue<unknown>, root: string): string {
  // Checks and variants state the whole reason (the version, the message type).
  if (issue.type === 'check' || issue.type === 'variant') return issue.message;
  const path = issue.path ?? [];
  const last = path.at(-1);
  const name = (items: readonly v.IssuePathItem[], whole = 'message') =>
    items.length
      ? items.map((p, i) => (typeof p.key === 'number' ? `[${p.key}]` : `${i ? '.' : ''}${String(p.key).slice(0, 40)}`)).join('')
      : whole;
  if (issue.type === 'strict_object' && last?.origin === 'key') {
    const where = name(path.slice(0, -1), root);
    return issue.expected === 'never' ? `${where}: unexpected key ${short(last.key)}` : `${where}: missing ${short(last.key)}`;
  }
  return `${name(path)} ${issue.message}`;
}

function parse<S extends v.GenericSchema>(schema: S, raw: unknown): Parsed<v.InferOutput<S>> {
  const r = v.safeParse(schema, raw, { abortEarly: true });
  if (r.success) return { ok: true, msg: r.output };
  const o = raw as Record<string, unknown> | null;
  const root = typeof o === 'object' && o !== null && typeof o.type === 'string' ? o.type.slice(0, 40) : 'message';
  return { ok: false, error: describeIssue(r.issues[0], root) };
}

/** The host's check of a webview message: wrong versions, unknown types, missing or extra keys, out-of-range values are refused. */
export const parseWebviewMessage = (raw: unknown): Parsed<FromWebview> => parse(FromWebviewSchema, raw);

/** The webview's check of a host message: a malformed one is refused (and the reason shown), never drawn. */
export const parseHostMessage = (raw: unknown): Parsed<ToWebview> => parse(ToWebviewSchema, raw);

// ---------------------------------------------------------------------------------------------------------
// What the webview keeps through setState while it is hidden (checked when it loads again: an older build's state
// is dropped, not drawn).

export const WebviewStateSchema = strict({
  v: V,
  ui: UiStateSchema,
  /** Open (true) or folded sections, by section id. */
  open: v.pipe(v.record(str(64), bool), v.maxEntries(64, 'must have at most 64 entries')),
  /** The last sections drawn, for an instant first paint. */
  sections: PartialSectionsSchema,
});
export type WebviewState = v.InferOutput<typeof WebviewStateSchema>;
export const parseWebviewState = (raw: unknown): Parsed<WebviewState> => parse(WebviewStateSchema, raw);

export const DEFAULT_UI: UiState = { uri: null, gpu: null, whatIf: {}, rank: 0, layout: { worldSize: null, mode: 'all', page: 0 } };
