// Differential test against the real loaders: every file of ../shared/corpus, ../shared/corpus-wild and the project's
// upstream corpus (test/data/upstream) is loaded by
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
import { CORPUS, rel, REPO, SHARED, yamlFiles } from '../helpers.js';

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
  // Dynamo recipes: a ConfigMap and a DynamoGraphDeployment in one file.
  'upstream/dynamo/examples/backends/trtllm/deploy/snapshot/glm-5.3.yaml': { pyyaml: 'ComposerError', omegaconf: 'ComposerError' },
  'upstream/dynamo/recipes/deepseek-v32-fp4/trtllm/disagg-kv-router/deploy.yaml': {
    pyyaml: 'ComposerError',
    omegaconf: 'ComposerError',
  },
  'upstream/dynamo/recipes/gpt-oss-120b/trtllm/agg/deploy.yaml': { pyyaml: 'ComposerError', omegaconf: 'ComposerError' },
  'upstream/dynamo/recipes/kimi-k2.5/trtllm/agg-eagle-kv-router/deploy.yaml': { pyyaml: 'ComposerError', omegaconf: 'ComposerError' },
  'upstream/dynamo/recipes/qwen3-235b-a22b-fp8/trtllm/disagg/deploy.yaml': { pyyaml: 'ComposerError', omegaconf: 'ComposerError' },
  // A GitHub Actions workflow: `${{ matrix.… }}` is no OmegaConf interpolation (the grammar refuses `{` after `${`).
  'upstream/dynamo/.github/workflows/kimi-k25-nightly.yml': { omegaconf: 'GrammarParseError' },
  // num_query_groups written twice under ConfigContainer.model.
  'upstream/Megatron-Bridge/scripts/moe_model_zoo/model_configs/Qwen3-235B-A22B.yaml': { omegaconf: 'ConstructorError' },
};

/**
 * Megatron-LM functional-test configs of the project's upstream corpus that repeat a key (a flag written twice under
 * MODEL_ARGS): OmegaConf refuses them (ConstructorError: found duplicate key), PyYAML keeps the last value, and
 * Megatron-LM's test harness reads them with yq and PyYAML. RL-DUPLICATE-KEY warns on each.
 */
const UPSTREAM_DUPLICATE_KEYS = [
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_disable/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_enable/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_persistent_1/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_persistent_1_1node/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_persistent_2/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_reshard/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_resume/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_reruns_transient/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp2_pp1_gdn/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp2_pp1_gdn_1node/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp2_pp1_gdn_no_nvrx_async/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp2_pp1_gdn_no_nvrx_async_mcore/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt3_mcore_te_tp2_pp1_gdn_no_nvrx_sync/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt_grpo_tp1tp2_pp1_dp8_583m_throughputtest/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/gpt/gpt_grpo_tp1tp2_pp1_dp8_583m_throughputtest_github/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_dynamic_inference_tp1_pp1_dp8_2b_async_sched_async/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_dynamic_inference_tp1_pp1_dp8_583m/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_dynamic_inference_tp1_pp1_dp8_583m_chunked_prefill/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_dynamic_inference_tp1_pp1_dp8_583m_flashinfer/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_dynamic_inference_tp1_pp1_dp8_583m_mamba_bf16_states/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_static_inference_tp1_pp1_2B_cudagraphs/model_config.yaml',
  'Megatron-LM/tests/functional_tests/test_cases/hybrid/hybrid_static_inference_tp1_pp1_2B_logitsmatch/model_config.yaml',
];
for (const f of UPSTREAM_DUPLICATE_KEYS) REJECTED[`upstream/${f}`] = { omegaconf: 'ConstructorError' };

const UPSTREAM_DIR = join(REPO, 'test', 'data', 'upstream');
const files = [...yamlFiles(CORPUS), ...yamlFiles(join(SHARED, 'corpus-wild')), ...yamlFiles(UPSTREAM_DIR)];

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
    const name = d.file.startsWith(UPSTREAM_DIR) ? `upstream/${rel(UPSTREAM_DIR, d.file)}` : rel(SHARED, d.file);
    const text = readFileSync(d.file, 'utf8');
    for (const loader of LOADERS) {
      const py = d[loader];
      // The file's own documents (an engine config embedded in a ConfigMap is a string to Python).
      const parsed = { docs: parseFile(text).docs.filter((doc) => !doc.embedded) };
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
