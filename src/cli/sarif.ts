// SARIF 2.1.0 output for code scanning (GitHub, Azure DevOps).
import type { Diagnostic } from '../core/types.js';
import { RULES } from '../core/ruleCatalog.js';

export interface FileReport {
  path: string;
  format: string | null;
  /** What the file was read as and why (or why it was not), for people. */
  detected?: string;
  diagnostics: Diagnostic[];
}

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

export function toSarif(files: FileReport[], version: string): object {
  const used = new Set(files.flatMap((f) => f.diagnostics.map((d) => d.code)));
  const rules = [...used].sort().map((id) => ({
    id,
    shortDescription: { text: RULES[id]?.title ?? id },
    ...(RULES[id]?.source ? { fullDescription: { text: `Source: ${RULES[id]!.source}` } } : {}),
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'recipe-lens', version, informationUri: 'https://github.com/recipe-lens/recipe-lens', rules } },
        results: files.flatMap((f) =>
          f.diagnostics.map((d) => ({
            ruleId: d.code,
            level: LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: f.path.split('\\').join('/') },
                  // SARIF is 1-based.
                  region: {
                    startLine: d.range.start.line + 1,
                    startColumn: d.range.start.character + 1,
                    endLine: d.range.end.line + 1,
                    endColumn: d.range.end.character + 1,
                  },
                },
                ...(d.path ? { logicalLocations: [{ fullyQualifiedName: d.path }] } : {}),
              },
            ],
          })),
        ),
      },
    ],
  };
}
