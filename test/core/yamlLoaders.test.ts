// Differential test against the real loaders: every file of ../shared/corpus and ../shared/corpus-wild is loaded by
// /usr/bin/python3 with PyYAML's safe_load and with OmegaConf.load (interpolations unresolved), through
// scripts/yaml-truth/dump.py, and every node (path, Python type, value, in dict order) must be what our tree gives
// under the same loader. CI installs Debian's python3-yaml and python3-omegaconf (.ci/run).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseFile } from '../../src/core/document.js';
import type { Duplicate } from '../../src/core/yaml/build.js';
import { applyLoader, loadErrors, toPyNodes, type PyNode } from '../../src/core/yaml/loader.js';
import type { Loader } from '../../src/core/yaml/scalars.js';
import { CORPUS, rel, SHARED, yamlFiles } from '../helpers.js';

const PYTHON = '/usr/bin/python3';
const INSTALL = 'apt-get install -y python3-yaml python3-omegaconf';
const LOADERS: Loader[] = ['pyyaml', 'omegaconf'];

interface Reading {
  accepted: boolean;
  error?: string;
  fallbackError?: string;
  docs: PyNode[][] | null;
}
interface Dumped {
  file: string;
  pyyaml: Reading;
  omegaconf: Reading;
}

/**
 * Files a real loader refuses, by loader, with the exception class: listed here so that none is skipped unseen. Their
 * documents are still compared (dump.py reads them with the same loader class through yaml.load_all).
 */
const REJECTED: Record<string, Partial<Record<Loader, string>>> = {
  // Three Kubernetes documents in one file: safe_load and OmegaConf.load read exactly one.
  'corpus-wild/dynamo/deploy.yaml': { pyyaml: 'ComposerError', omegaconf: 'ComposerError' },
};

const files = [...yamlFiles(CORPUS), ...yamlFiles(join(SHARED, 'corpus-wild'))];

function dump(): Dumped[] {
  assert.ok(existsSync(PYTHON), `${PYTHON} is missing: this test needs Debian's python3 with ${INSTALL}`);
  const r = spawnSync(PYTHON, ['scripts/yaml-truth/dump.py', ...files], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status === 3) assert.fail(`python module ${JSON.parse(r.stdout).missing} is missing for ${PYTHON}: ${INSTALL}`);
  assert.equal(r.status, 0, `dump.py failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { files: Dumped[] }).files;
}

/** The first row where two node lists differ, for a readable failure. */
function firstDifference(ours: PyNode[], theirs: PyNode[]): string | undefined {
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = JSON.stringify(ours[i]);
    const b = JSON.stringify(theirs[i]);
    if (a !== b) return `node ${i}: ours ${a}, Python ${b}`;
  }
  return undefined;
}

test('every corpus file reads as PyYAML and OmegaConf read it: every node, its Python type and value', () => {
  assert.ok(files.length >= 150, `${files.length} corpus files`);
  const dumped = dump();
  assert.equal(dumped.length, files.length);
  let scalars = 0;
  const rejected: Record<string, Partial<Record<Loader, string>>> = {};
  for (const d of dumped) {
    const name = rel(SHARED, d.file);
    const text = readFileSync(d.file, 'utf8');
    for (const loader of LOADERS) {
      const py = d[loader];
      const parsed = parseFile(text);
      if (!py.accepted) {
        (rejected[name] ??= {})[loader] = py.error!.split(':')[0];
        // We must see the same refusal: several documents, or a load error in one of them.
        const ours =
          parsed.docs.length > 1
            ? ['ComposerError']
            : parsed.docs.flatMap((doc) => (applyLoader(doc.root, loader), loadErrors(doc.root, doc.duplicateKeys as Duplicate[], loader)));
        assert.ok(ours.length > 0, `${name} (${loader}): Python refuses it (${py.error}), we do not see why`);
      }
      assert.ok(py.docs, `${name} (${loader}): Python could not read it at all: ${py.fallbackError}`);
      assert.equal(parsed.docs.length, py.docs.length, `${name} (${loader}): documents`);
      parsed.docs.forEach((doc, i) => {
        applyLoader(doc.root, loader);
        // A file the program loads must not be one we predict it refuses.
        if (py.accepted) assert.deepEqual(loadErrors(doc.root, doc.duplicateKeys as Duplicate[], loader), [], `${name} (${loader})`);
        const ours = toPyNodes(doc.root, py.accepted ? loader : 'pyyaml');
        const theirs = py.docs![i]!;
        assert.equal(firstDifference(ours, theirs), undefined, `${name} (${loader}) document ${i}`);
        scalars += theirs.filter((n) => n[1] !== 'dict' && n[1] !== 'list').length;
      });
    }
  }
  assert.deepEqual(rejected, REJECTED, 'the files the real loaders refuse');
  // 157 files, both loaders: every scalar compared (31,200 when this test was written).
  assert.ok(scalars >= 31_000, `${scalars} scalars compared`);
});
