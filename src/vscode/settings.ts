// Reads the recipeLens.* settings for one document.
import * as vscode from 'vscode';
import type { AnalysisSettings } from '../core/analysis.js';
import type { EstimateOptions } from '../core/memory/estimate.js';
import { isFormatId, type FormatId } from '../core/types.js';
import { isFramework, isRelease, type Versions } from '../core/versions.js';
import { cachedSourceReader } from '../host/sourceFiles.js';

export interface DocSettings {
  enable: boolean;
  forcedFormat?: FormatId | 'none';
  worldSize?: number;
  debounceMs: number;
  maxLength: number;
  /** Memory-model settings; undefined when memory warnings are off. */
  memory: EstimateOptions;
  memoryWarnings: boolean;
  /** What the analysis of this document depends on (its fingerprint keys the cache). */
  analysis: AnalysisSettings;
}

/** The recipeLens.versions object, keeping the well-formed FRAMEWORK: RELEASE pairs (undefined when none). */
function versionsSetting(raw: Record<string, unknown> | undefined): Versions | undefined {
  const out: Versions = {};
  for (const [k, v] of Object.entries(raw ?? {})) if (isFramework(k) && typeof v === 'string' && isRelease(v)) out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

/** Reads the files a document names (NeMo-RL `defaults:` parents): an open editor's text first, else the disk. */
const sourceReader = cachedSourceReader((path) => {
  const norm = (p: string) => p.replace(/\\/g, '/');
  const want = norm(path);
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && norm(d.uri.fsPath) === want)?.getText();
});

/** The value a user (or workspace) set, not the contributed default. */
function userValue<T>(i: { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined): T | undefined {
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

export function settingsFor(doc: vscode.TextDocument): DocSettings {
  const c = vscode.workspace.getConfiguration('recipeLens', doc.uri);
  const assoc = c.get<Record<string, string>>('formatAssociations', {}) ?? {};
  let forcedFormat: DocSettings['forcedFormat'];
  for (const [glob, fmt] of Object.entries(assoc)) {
    if ((fmt === 'none' || isFormatId(fmt)) && vscode.languages.match({ pattern: glob }, doc) > 0) {
      forcedFormat = fmt;
      break;
    }
  }
  const ws = c.get<number | null>('worldSize', null);
  const out: Omit<DocSettings, 'analysis'> = {
    enable: c.get<boolean>('enable', true),
    forcedFormat,
    worldSize: typeof ws === 'number' && ws >= 1 ? ws : undefined,
    debounceMs: c.get<number>('debounceMs', 150),
    maxLength: c.get<number>('maxFileSizeKb', 5120) * 1024,
    memory: {
      // Only a GPU the user chose: the built-in default leaves room for the GPU a file's path names.
      gpu: userValue(c.inspect<string>('gpu')) || undefined,
      model: c.get<string>('model', '') || undefined,
      profile: c.get<string>('profile', 'megatron') === 'hf' ? 'hf' : 'megatron',
      attention: c.get<string>('attention', 'flash') === 'eager' ? 'eager' : 'flash',
    },
    memoryWarnings: c.get<boolean>('memoryWarnings', true),
  };
  const analysis: AnalysisSettings = {
    ...out.memory,
    forcedFormat: out.forcedFormat,
    worldSize: out.worldSize,
    maxLength: out.maxLength,
    memoryWarnings: out.memoryWarnings,
    versions: versionsSetting(c.get<Record<string, unknown>>('versions', {})),
    ...(doc.uri.scheme === 'file' ? { documentPath: doc.uri.fsPath, readFile: sourceReader } : {}),
  };
  return { ...out, analysis };
}
