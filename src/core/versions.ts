// Target releases: which release of each framework a file is checked against. A rule that changed across releases
// carries the range where it holds; the user names the release with a modeline (`# recipe-lens: nemo=2.3
// trtllm=1.1`), the `recipeLens.versions` setting or `--versions nemo=2.3,trtllm=1.1`. Without one the latest
// release is assumed, and a rule that releases disagree on warns instead of failing (the user may run an older one).
import { compareReleases } from './trtllmReleases.js';
import type { FormatId, Severity } from './types.js';

/** The frameworks whose release changes what a file may say, with the modeline / setting key that names each. */
export const FRAMEWORKS = ['nemo', 'bridge', 'mcore', 'trtllm', 'nemo_rl', 'automodel'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export const FRAMEWORK_LABELS: Record<Framework, string> = {
  nemo: 'NeMo',
  bridge: 'Megatron-Bridge',
  mcore: 'Megatron-LM (megatron-core)',
  trtllm: 'TensorRT-LLM',
  nemo_rl: 'NeMo-RL',
  automodel: 'NeMo Automodel',
};

/** Which framework reads a format. */
export const FRAMEWORK_OF: Record<FormatId, Framework> = {
  nemo1: 'nemo',
  'nemo-launcher': 'nemo',
  'nemo-launcher-main': 'nemo',
  nemo2: 'nemo',
  'megatron-bridge': 'bridge',
  'megatron-lm': 'mcore',
  'nemo-rl': 'nemo_rl',
  automodel: 'automodel',
  'trtllm-options': 'trtllm',
  'trtllm-disagg': 'trtllm',
  'trtllm-perf': 'trtllm',
  'kv-retention': 'trtllm',
};

export type Versions = Partial<Record<Framework, string>>;

/** The release a file is checked against and who named it; `default` means nobody did (the latest is assumed). */
export interface TargetRelease {
  framework: Framework;
  release: string | undefined;
  source: 'modeline' | 'setting' | 'default';
}

const RELEASE = /^\d+(\.\d+){0,3}([a-z]+\d*)?$/i;

export const isFramework = (k: string): k is Framework => (FRAMEWORKS as readonly string[]).includes(k);
export const isRelease = (v: string) => RELEASE.test(v);

/**
 * Reads `nemo=2.3,trtllm=1.1` (the CLI's --versions) or the same pairs separated by spaces. Unknown frameworks and
 * malformed releases come back in `bad` for the caller to report.
 */
export function parseVersions(text: string): { versions: Versions; bad: string[] } {
  const versions: Versions = {};
  const bad: string[] = [];
  for (const tok of text.split(/[\s,]+/).filter(Boolean)) {
    const eq = tok.indexOf('=');
    const k = eq > 0 ? tok.slice(0, eq).replace('-', '_') : tok;
    const v = eq > 0 ? tok.slice(eq + 1) : '';
    if (isFramework(k) && isRelease(v)) versions[k] = v;
    else bad.push(tok);
  }
  return { versions, bad };
}

/** The target release for `format`: the modeline's, else the setting's, else none (latest assumed). */
export function targetRelease(format: FormatId, modeline: Record<string, string>, setting: Versions | undefined): TargetRelease {
  const framework = FRAMEWORK_OF[format];
  const ml = modeline[framework];
  if (ml && isRelease(ml)) return { framework, release: ml, source: 'modeline' };
  const s = setting?.[framework];
  if (s && isRelease(s)) return { framework, release: s, source: 'setting' };
  return { framework, release: undefined, source: 'default' };
}

/** Where a rule holds across releases, with the source that shows each bound. */
export interface ReleaseRange {
  framework: Framework;
  /** The first release known to enforce the rule; absent when that release is not known. */
  holdsFrom?: string;
  /** The last release known to accept what the rule forbids. */
  acceptedThrough?: string;
  /** Where the bounds come from (repository path at a commit, release notes). */
  source: string;
}

/**
 * The severity a versioned rule reports at for a target: its own where the target is known to enforce it, none where
 * the target is known to accept the value, and a warning where the target is unknown or falls between the bounds.
 */
export function severityFor(range: ReleaseRange, target: TargetRelease | undefined, declared: Severity): Severity | null {
  const r = target?.framework === range.framework ? target.release : undefined;
  if (r !== undefined) {
    if (range.acceptedThrough !== undefined && compareReleases(r, range.acceptedThrough) <= 0) return null;
    if (range.holdsFrom !== undefined && compareReleases(r, range.holdsFrom) >= 0) return declared;
  }
  return declared === 'error' ? 'warning' : declared;
}

/**
 * For the rules of one file: an error rule's severity under a release range (severityFor), and the note its message
 * ends with where the range leaves it a warning (releaseNote).
 */
export function releaseGate(target: TargetRelease | undefined) {
  const versioned = (range: ReleaseRange) => severityFor(range, target, 'error');
  const note = (range: ReleaseRange) => (versioned(range) === 'error' ? '' : `; ${releaseNote(range, target)}`);
  return { versioned, note };
}

/** The sentence a versioned finding ends with: which releases disagree and how to name yours. */
export function releaseNote(range: ReleaseRange, target: TargetRelease | undefined): string {
  const name = FRAMEWORK_LABELS[range.framework];
  const accepted = range.acceptedThrough ? `${name} ${range.acceptedThrough} and older accept it` : '';
  const holds = range.holdsFrom ? `${name} ${range.holdsFrom} and newer reject it` : `newer ${name} releases reject it`;
  const which =
    target?.release !== undefined
      ? `checked against ${name} ${target.release} (${target.source})`
      : `no ${name} release named; add \`# recipe-lens: ${range.framework}=X.Y\` or set recipeLens.versions`;
  return `${[holds, accepted].filter(Boolean).join('; ')} (${range.source}); ${which}`;
}
