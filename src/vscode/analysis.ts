// One validation per document version, shared by diagnostics, hover, completion and quick fixes.
import * as vscode from 'vscode';
import type { RecipeDoc } from '../core/document.js';
import { estimateDoc, type DocEstimate } from '../core/memory/estimate.js';
import { sortFindings, toDiagnostics, validateText, type ValidationResult } from '../core/validate.js';
import type { Diagnostic } from '../core/types.js';
import { settingsFor, type DocSettings } from './settings.js';

export interface Analysis {
  version: number;
  result: ValidationResult;
  diagnostics: Diagnostic[];
  settings: DocSettings;
  /** Memory estimates per document index, computed on first use. */
  estimates: Map<number, DocEstimate>;
}

/** The estimate of one YAML document of an analysed file (cached with the analysis). */
export function estimateOf(a: Analysis, doc: RecipeDoc): DocEstimate {
  let e = a.estimates.get(doc.index);
  if (!e) {
    e = estimateDoc(doc, a.result.parsed.modeline?.values ?? {}, { ...a.settings.memory, worldSize: a.settings.worldSize });
    a.estimates.set(doc.index, e);
  }
  return e;
}

export class AnalysisCache {
  private readonly byUri = new Map<string, Analysis>();

  get(doc: vscode.TextDocument): Analysis | undefined {
    const key = doc.uri.toString();
    const hit = this.byUri.get(key);
    if (hit && hit.version === doc.version) return hit;
    const s = settingsFor(doc);
    if (!s.enable || doc.languageId !== 'yaml') {
      this.byUri.delete(key);
      return undefined;
    }
    let result: ValidationResult;
    try {
      result = validateText(doc.getText(), {
        forcedFormat: s.forcedFormat,
        worldSize: s.worldSize,
        maxLength: s.maxLength,
        memory: s.memoryWarnings ? s.memory : undefined,
      });
    } catch (e) {
      // The core is meant never to throw; if it does, this file gets no diagnostics, the editor keeps working.
      console.error(`recipe-lens: validation failed for ${doc.uri.fsPath}:`, e);
      return undefined;
    }
    const a: Analysis = {
      version: doc.version,
      result,
      diagnostics: toDiagnostics(result.parsed, sortFindings(result.findings)),
      settings: s,
      estimates: new Map(),
    };
    this.byUri.set(key, a);
    return a;
  }

  delete(uri: vscode.Uri): void {
    this.byUri.delete(uri.toString());
  }
  clear(): void {
    this.byUri.clear();
  }
}
