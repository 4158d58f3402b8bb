// The planning panel's message protocol: every message between the extension host (src/vscode/panel.ts) and the
// webview (webview/app.ts), as valibot schemas with their TypeScript types inferred from them, so the type and the
// runtime check are one definition (vscode-codeql's interface-types.ts pattern, made checkable). One module,
// imported by both sides; it imports the view models from the core, never the reverse.
// Every message carries the protocol version `v`. Each side validates what it receives: the host every webview
// message (parseWebviewMessage: the webview is an untrusted peer), the webview every host message
// (parseHostMessage: versions can skew, and a malformed update must not be drawn).
import * as v from 'valibot';
import { FORMAT_IDS } from './core/types.js';
import {
  bool,
  CandidateIndex,
  CompareLogVMSchema,
  KvReuseVMSchema,
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

/**
 * 2: the Layouts (planner) section, `plan` and `applyCandidate`, EP / ETP / SP what-if values.
 * 3: the KV reuse and Compare sections, `kvReuse`, `pickTrace` and `compareLog`.
 */
export const PROTOCOL_VERSION = 3;
const V = v.literal(PROTOCOL_VERSION, `must be protocol version ${PROTOCOL_VERSION}`);

// ---------------------------------------------------------------------------------------------------------
// Host → webview.

/** A built-in workload's name (kvsim SYNTHETIC: lower-case words). */
const WorkloadName = v.pipe(str(32), v.regex(/^[a-z][a-z0-9-]*$/, 'is not a workload name'));

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
  /** Simulate KV reuse for `uri` on built-in workload `workload` (a name of the section's list). */
  v.strictObject({ v: V, type: v.literal('kvReuse'), uri: Uri, workload: WorkloadName }),
  /** Pick a trace (a workspace .jsonl) for the KV reuse section of `uri`, then simulate it. */
  v.strictObject({ v: V, type: v.literal('pickTrace'), uri: Uri }),
  /** Pick a training log and compare its measured peaks with the estimate of `uri`. */
  v.strictObject({ v: V, type: v.literal('compareLog'), uri: Uri }),
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

// ---------------------------------------------------------------------------------------------------------
// The language server's custom requests and notification (src/server/custom.ts answers them; the VS Code extension is
// one client, any LSP client may send them). Params are validated by the server at the boundary (parseLspParams: an
// invalid one is answered with InvalidParams and the reason); results by the client that reads them (parseLspResult).
// The panel's UI state lives in the client and travels with each request; the server computes every section.

export const LSP_METHODS = {
  /** Request: what the status bar, the commands and the panel show for one document (panel sections when `panel` is given). */
  analysis: 'recipeLens/analysis',
  /** Request: the panel with what-if values previewed, and whether Apply can write them. */
  whatIf: 'recipeLens/whatIf',
  /** Request: run the planner (Layouts section) for the document, then the panel. */
  plan: 'recipeLens/plan',
  /** Request: the WorkspaceEdit that writes the previewed what-if values or a planner row, for one document version. */
  apply: 'recipeLens/apply',
  /** Request: forget every analysis and settings, re-read them and re-validate every open document. */
  revalidate: 'recipeLens/revalidate',
  /** Notification (server → client): a document version was analysed; its status-bar summary. */
  didAnalyze: 'recipeLens/didAnalyze',
  /** Request: simulate KV block reuse for an options or retention file on a workload (the KV reuse section). */
  kvReuse: 'recipeLens/kvReuse',
  /** Request: compare a training log's measured memory with a training recipe's estimate (the Compare section). */
  compareLog: 'recipeLens/compareLog',
  /** Request: counters for tests and the benchmark (analyses computed, diagnostics published and pulled). */
  stats: 'recipeLens/debug/stats',
} as const;

const DocRef = strict({ uri: Uri });
const VersionedDocRef = strict({ uri: Uri, version: DocVersion });
const LayoutPage = v.union([int(0, LIMITS.page), v.literal('rank')], 'must be a page number or "rank"');

/** The panel's state as the client keeps it: the UI state, the rank grid's page, and whether a planner search is pending. */
export const PanelViewSchema = strict({
  ui: UiStateSchema,
  layoutPage: LayoutPage,
  /** A search was asked for and not finished: the Layouts section says "Searching…". */
  planRunning: v.optional(bool),
});
export type PanelView = v.InferOutput<typeof PanelViewSchema>;

export const AnalysisParamsSchema = strict({
  /** null: no editor is active (the panel shows its empty state). */
  textDocument: v.nullable(DocRef),
  panel: v.optional(PanelViewSchema),
});
export const WhatIfParamsSchema = strict({ textDocument: DocRef, panel: PanelViewSchema, values: WhatIfValuesSchema });
export const PlanParamsSchema = strict({ textDocument: DocRef, panel: PanelViewSchema, gpus: v.optional(int(1, LIMITS.size)) });
export const ApplyParamsSchema = strict({
  /** The version the preview was computed for: the server refuses any other. */
  textDocument: VersionedDocRef,
  panel: PanelViewSchema,
  target: v.variant('kind', [
    v.strictObject({ kind: v.literal('whatIf') }),
    v.strictObject({ kind: v.literal('candidate'), planId: PlanId, index: CandidateIndex }),
  ]),
});
export const EmptyParamsSchema = v.nullish(strict({}));
/** A file path on the server's machine (a trace, a log). */
const FilePath = v.pipe(str(LIMITS.uri), v.minLength(1, 'must not be empty'));
/** Pools of at most 2^22 blocks, as `recipe-lens simulate` (kvsim MAX_SIM_BLOCKS). */
const PoolSize = int(1, 1 << 22);
export const KvReuseParamsSchema = strict({
  textDocument: DocRef,
  /** A built-in workload, or a trace file: Mooncake (hash_ids), token trace (tokens) or KV cache events, told by content. */
  workload: v.variant('kind', [
    v.strictObject({ kind: v.literal('builtin'), name: WorkloadName }),
    v.strictObject({ kind: v.literal('file'), path: FilePath }),
  ]),
  /** Pool sizes in blocks (default: around the options file's pool, or spread over the workload). */
  poolSweep: v.optional(
    v.pipe(
      v.array(PoolSize, 'must be a list of pool sizes'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(64, 'must list at most 64 sizes'),
    ),
  ),
  /** The panel's GPU (the options file's pool is sized for it); default: the file's. */
  gpu: v.optional(v.nullable(GpuId)),
});
export const CompareLogParamsSchema = strict({ textDocument: DocRef, logPath: FilePath });
export type KvReuseParams = v.InferOutput<typeof KvReuseParamsSchema>;
export type CompareLogParams = v.InferOutput<typeof CompareLogParamsSchema>;

export type AnalysisParams = v.InferOutput<typeof AnalysisParamsSchema>;
export type WhatIfParams = v.InferOutput<typeof WhatIfParamsSchema>;
export type PlanParams = v.InferOutput<typeof PlanParamsSchema>;
export type ApplyParams = v.InferOutput<typeof ApplyParamsSchema>;

const LSP_PARAMS = {
  [LSP_METHODS.analysis]: AnalysisParamsSchema,
  [LSP_METHODS.whatIf]: WhatIfParamsSchema,
  [LSP_METHODS.plan]: PlanParamsSchema,
  [LSP_METHODS.apply]: ApplyParamsSchema,
  [LSP_METHODS.revalidate]: EmptyParamsSchema,
  [LSP_METHODS.stats]: EmptyParamsSchema,
  [LSP_METHODS.kvReuse]: KvReuseParamsSchema,
  [LSP_METHODS.compareLog]: CompareLogParamsSchema,
} as const;
export type LspRequestMethod = keyof typeof LSP_PARAMS;
export type LspParams<M extends LspRequestMethod> = v.InferOutput<(typeof LSP_PARAMS)[M]>;

/** The server's check of a custom request's params (the method names the schema). */
export const parseLspParams = <M extends LspRequestMethod>(method: M, raw: unknown): Parsed<LspParams<M>> =>
  parse(LSP_PARAMS[method], raw) as Parsed<LspParams<M>>;

// Results.

const whole = int(0, Number.MAX_SAFE_INTEGER);
const text = str(LIMITS.vmText);
const num = v.pipe(v.number('must be a finite number'), v.finite('must be a finite number'));
/** Bytes of an estimate (sums of products: not always whole). */
const bytes = v.pipe(
  v.number('must be a finite number ≥ 0'),
  v.finite('must be a finite number ≥ 0'),
  v.minValue(0, 'must be a finite number ≥ 0'),
);
const LspPosition = strict({ line: whole, character: whole });
const LspRange = strict({ start: LspPosition, end: LspPosition });

/** The status-bar item: the most-loaded rank against the GPU ("61.2 / 79.2 GiB"), with its verdict. */
export const StatusSchema = strict({ verdict: oneOf(['fits', 'tight', 'does-not-fit']), text: str(LIMITS.text), tooltip: text });
export type StatusVM = v.InferOutput<typeof StatusSchema>;

/** The estimate as the commands show it: its plain-text report (Show Memory Estimate), or why there is none. */
export const EstimateInfoSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('training'), totalBytes: bytes, report: text }),
  v.strictObject({ kind: oneOf(['serving', 'retention']), report: text }),
  v.strictObject({ kind: v.literal('none'), reason: text }),
]);

export const PanelResultSchema = strict({
  sections: SectionsSchema,
  /** The UI state after the server placed the rank grid (page clamped, selected rank kept in range). */
  ui: UiStateSchema,
  layoutPage: LayoutPage,
});
export type PanelResult = v.InferOutput<typeof PanelResultSchema>;

export const AnalysisResultSchema = strict({
  uri: v.nullable(Uri),
  /** The document version analysed; null when the server does not have the document (not YAML, not open). */
  version: v.nullable(DocVersion),
  format: v.nullable(oneOf(FORMAT_IDS)),
  formatLabel: v.nullable(str(LIMITS.text)),
  /** What the file was read as and why, or why it is no recipe (describeDetection): the status bar's format tooltip. */
  detected: v.nullable(text),
  status: v.nullable(StatusSchema),
  estimate: v.nullable(EstimateInfoSchema),
  panel: v.optional(PanelResultSchema),
});
export type AnalysisResult = v.InferOutput<typeof AnalysisResultSchema>;

export const WhatIfResultSchema = strict({
  version: v.nullable(DocVersion),
  panel: PanelResultSchema,
  /** Keys the preview changes, and whether Apply would write them (false: conflicts, or nothing to write). */
  changes: whole,
  applicable: bool,
});
export type WhatIfResult = v.InferOutput<typeof WhatIfResultSchema>;

export const PlanResultSchema = strict({
  version: v.nullable(DocVersion),
  panel: PanelResultSchema,
  /** Layouts listed; null when the planner could not run (then `message` says why). */
  rows: v.nullable(whole),
  message: text,
});
export type PlanResultMsg = v.InferOutput<typeof PlanResultSchema>;

/** A WorkspaceEdit as the server writes it: one versioned TextDocumentEdit (the client refuses it for another version). */
export const WorkspaceEditSchema = strict({
  documentChanges: v.array(strict({ textDocument: VersionedDocRef, edits: v.array(strict({ range: LspRange, newText: v.string() })) })),
});
export const ApplyResultSchema = v.variant('ok', [
  v.strictObject({ ok: v.literal(true), edit: WorkspaceEditSchema, keys: whole }),
  v.strictObject({ ok: v.literal(false), reason: text }),
]);
export type ApplyResult = v.InferOutput<typeof ApplyResultSchema>;

export const DidAnalyzeSchema = strict({
  uri: Uri,
  version: DocVersion,
  format: v.nullable(oneOf(FORMAT_IDS)),
  formatLabel: v.nullable(str(LIMITS.text)),
  detected: v.nullable(text),
  status: v.nullable(StatusSchema),
});
export type DidAnalyze = v.InferOutput<typeof DidAnalyzeSchema>;

export const StatsSchema = strict({
  /** Analyses computed, on the main thread and in the worker. */
  analyses: whole,
  workerAnalyses: whole,
  /** textDocument/publishDiagnostics sent, textDocument/diagnostic answered. */
  published: whole,
  pulled: whole,
  /** Documents open, and those the worker thread analyses. */
  documents: whole,
  workerDocuments: whole,
});
export type Stats = v.InferOutput<typeof StatsSchema>;

const Refused = v.strictObject({ ok: v.literal(false), reason: text });

export const KvReuseResultSchema = v.variant('ok', [
  v.strictObject({
    ok: v.literal(true),
    version: v.nullable(DocVersion),
    /** What the workload was: a built-in one, or the trace's kind as its content told. */
    kind: oneOf(['synthetic', 'mooncake', 'tokens', 'events']),
    workload: text,
    /** What was read ("3,993 requests"; an event stream's events). */
    message: text,
    /** Hit rates per pool size, as `recipe-lens simulate --format json` gives them (empty for an event stream). */
    points: v.array(strict({ poolBlocks: whole, lru: num, retention: v.nullable(num) })),
    vm: KvReuseVMSchema,
  }),
  Refused,
]);
export type KvReuseResult = v.InferOutput<typeof KvReuseResultSchema>;

export const CompareLogResultSchema = v.variant('ok', [
  v.strictObject({ ok: v.literal(true), version: v.nullable(DocVersion), vm: CompareLogVMSchema }),
  Refused,
]);
export type CompareLogResult = v.InferOutput<typeof CompareLogResultSchema>;

const LSP_RESULTS = {
  [LSP_METHODS.analysis]: AnalysisResultSchema,
  [LSP_METHODS.whatIf]: WhatIfResultSchema,
  [LSP_METHODS.plan]: PlanResultSchema,
  [LSP_METHODS.apply]: ApplyResultSchema,
  [LSP_METHODS.didAnalyze]: DidAnalyzeSchema,
  [LSP_METHODS.stats]: StatsSchema,
  [LSP_METHODS.kvReuse]: KvReuseResultSchema,
  [LSP_METHODS.compareLog]: CompareLogResultSchema,
} as const;
export type LspResultMethod = keyof typeof LSP_RESULTS;

/** A client's check of what the server sent (a custom request's result, or the didAnalyze notification). */
export const parseLspResult = <M extends LspResultMethod>(method: M, raw: unknown): Parsed<v.InferOutput<(typeof LSP_RESULTS)[M]>> =>
  parse(LSP_RESULTS[method], raw) as Parsed<v.InferOutput<(typeof LSP_RESULTS)[M]>>;
