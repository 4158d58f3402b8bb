// Core ↔ VS Code type conversions (positions are 0-based UTF-16 on both sides).
import * as vscode from 'vscode';
import type { Diagnostic, Range, Severity } from '../core/types.js';

export const toRange = (r: Range) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toVsDiagnostic(d: Diagnostic, uri: vscode.Uri): vscode.Diagnostic {
  const out = new vscode.Diagnostic(toRange(d.range), d.message, SEVERITY[d.severity]);
  out.source = 'recipe-lens';
  out.code = d.code;
  if (d.related?.length)
    out.relatedInformation = d.related.map(
      // A location in another file: the `defaults:` parent that writes the value.
      (r) =>
        new vscode.DiagnosticRelatedInformation(new vscode.Location(r.file ? vscode.Uri.file(r.file) : uri, toRange(r.range)), r.message),
    );
  if (d.code === 'RL-DEPRECATED') out.tags = [vscode.DiagnosticTag.Deprecated];
  return out;
}
