// A multimodal encoder worker (TensorRT-LLM MultimodalEncoder: mm_encoder_only; Dynamo's encode worker, whose engine
// args are `encode.yaml`) loads the vision encoder only and holds no KV cache: it gets no language-model estimate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze, type AnalysisSettings } from '../../src/core/analysis.js';
import { estimateText } from '../../src/core/memory/report.js';
import { REPO } from '../helpers.js';

const ENGINE_CONFIGS = join(REPO, 'test', 'data', 'upstream', 'dynamo', 'examples', 'backends', 'trtllm', 'engine_configs');
const upstream = (rel: string) => readFileSync(join(ENGINE_CONFIGS, rel), 'utf8');
const estimate = (text: string, s: AnalysisSettings) => analyze(text, s).main?.estimate;

test("Dynamo's encode.yaml is the encode worker's engine args: no KV pool is sized for it, and the reason says why", () => {
  const path = 'examples/backends/trtllm/engine_configs/qwen2-vl-7b-instruct/encode.yaml';
  const e = estimate(upstream('qwen2-vl-7b-instruct/encode.yaml'), { documentPath: path });
  assert.equal(e?.kind, 'none');
  assert.equal(
    e?.kind === 'none' && e.reason,
    `"encode.yaml" is the engine args of Dynamo's encode worker, which runs TensorRT-LLM's MultimodalEncoder (the vision ` +
      `encoder only; of these options it passes model, max_batch_size, trust_remote_code, tensor_parallel_size and ` +
      `model_kwargs, so kv_cache_config and the rest are not used); Recipe Lens sizes the language model and its KV ` +
      `cache, and has no memory model for a vision encoder`,
  );
  // The same options under another name are a language-model server of the model the path names.
  const agg = estimate(upstream('qwen2-vl-7b-instruct/encode.yaml'), { documentPath: path.replace('encode.yaml', 'agg.yaml') });
  assert.equal(agg?.kind, 'serving');
  assert.equal(agg?.kind === 'serving' && agg.model.name, 'qwen2-vl-7b');
});

test('mm_encoder_only: true in any options file is the encoder only; false is a server', () => {
  const text = (flag: boolean) => `model: Qwen/Qwen2.5-VL-7B-Instruct\ntensor_parallel_size: 1\nmm_encoder_only: ${flag}\n`;
  const e = estimate(text(true), { documentPath: 'configs/vl.yaml' });
  assert.equal(e?.kind, 'none');
  assert.match(
    e?.kind === 'none' ? e.reason : '',
    /^mm_encoder_only: true runs the multimodal encoder only \(TensorRT-LLM MultimodalEncoder: no language model, no KV cache\)/,
  );
  const s = estimate(text(false), { documentPath: 'configs/vl.yaml' });
  assert.equal(s?.kind, 'serving');
  assert.equal(s?.kind === 'serving' && s.model.name, 'qwen2.5-vl-7b');
});

test('the encode worker is read from the file name only: encoder.yaml, an encode directory and disaggregated roles are servers', () => {
  const text = upstream('qwen3-vl-30b-a3b-instruct/agg_colocated.yaml');
  for (const path of [
    'qwen3-vl-30b-a3b-instruct/encoder.yaml',
    'qwen3-vl-30b-a3b-instruct/encode/agg.yaml',
    'qwen3-vl-30b-a3b-instruct/decode.yaml',
  ])
    assert.equal(estimate(text, { documentPath: path })?.kind, 'serving', path);
  assert.equal(estimate(text, { documentPath: 'qwen3-vl-30b-a3b-instruct/encode_tp2.yaml' })?.kind, 'none');
});

test('the text report names a model read from a path segment once', () => {
  const e = estimate(upstream('qwen3-vl-30b-a3b-instruct/agg_colocated.yaml'), {
    documentPath: 'examples/backends/trtllm/engine_configs/qwen3-vl-30b-a3b-instruct/agg_colocated.yaml',
  });
  assert.ok(e && e.kind === 'serving');
  const second = estimateText(e).split('\n')[1]!;
  assert.match(second, /^model from the path segment "qwen3-vl-30b-a3b-instruct"; weights BF16 \(/);
});
