// The fixed-size recurrent state hybrid models keep per request instead of a KV cache: Mamba-2 layers (Nemotron-H) and
// Gated DeltaNet layers (Qwen3-Next / Qwen3.5). TensorRT-LLM allocates it for max_batch_size requests beside the KV pool
// (tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager.py: a conv state and an SSM / recurrent state per
// layer and request). Shapes follow the mixers: Mamba-2 conv (d_inner + 2·groups·d_state) × (d_conv − 1) and SSM
// heads × head_dim × d_state (Megatron ssm/mamba_mixer.py); Gated DeltaNet conv (2·k_heads·d_k + v_heads·d_v) × (d_conv − 1)
// and state v_heads × d_k × d_v (HF Qwen3NextGatedDeltaNet). Heads split over TP (TP 1 under attention DP).
import { countKinds, hybridLayers, mambaInner } from './params.js';
import type { Assumption, ModelShape } from './types.js';

export interface RecurrentState {
  bytes: number;
  /** Requests the state is allocated for. */
  requests: number;
  layers: number;
  assumptions: Assumption[];
}

/** TensorRT-LLM BaseLlmArgs `max_batch_size` default. */
export const DEFAULT_MAX_BATCH_SIZE = 2048;

const SSM_BYTES: Record<string, number> = { float32: 4, fp32: 4, float16: 2, fp16: 2, bfloat16: 2, bf16: 2 };

export function recurrentState(
  shape: ModelShape,
  opts: { tp?: number; attentionDp?: boolean; maxBatchSize?: number; ssmDtype?: string } = {},
): RecurrentState | undefined {
  const tp = opts.attentionDp ? 1 : Math.max(1, opts.tp ?? 1);
  let conv = 0;
  let ssm = 0;
  let layers = 0;
  const m = shape.mamba;
  if (m && shape.hybridPattern) {
    const n = [...hybridLayers(shape.hybridPattern)].filter((c) => c === 'M').length;
    layers += n;
    conv += n * (mambaInner(shape) + 2 * m.groups * m.stateDim) * (m.convKernel - 1);
    ssm += n * m.numHeads * m.headDim * m.stateDim;
  }
  const la = shape.linearAttention;
  if (la) {
    const k = countKinds(shape, 0, shape.layers);
    const n = k.gdn + k['gdn-moe'];
    layers += n;
    conv += n * (2 * la.keyHeads * la.keyHeadDim + la.valueHeads * la.valueHeadDim) * (la.convKernel - 1);
    ssm += n * la.valueHeads * la.keyHeadDim * la.valueHeadDim;
  }
  if (!layers) return undefined;
  const requests = opts.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  const dtype = opts.ssmDtype?.toLowerCase();
  const ssmBytes = dtype && Object.hasOwn(SSM_BYTES, dtype) ? SSM_BYTES[dtype]! : 2;
  const bytes = Math.ceil((requests * (conv * 2 + ssm * ssmBytes)) / tp);
  const assumptions: Assumption[] = [
    {
      what: `recurrent state of ${layers} Mamba / linear-attention layers for ${requests} requests`,
      source: `${opts.maxBatchSize ? 'max_batch_size' : `max_batch_size not in the file: the TensorRT-LLM default ${DEFAULT_MAX_BATCH_SIZE}`}; conv state 2 B, SSM state ${ssmBytes} B (${dtype ? `mamba_ssm_cache_dtype ${dtype}` : 'the model dtype, assumed'}) per element, split over TP ${tp}`,
      provenance: opts.maxBatchSize && dtype ? 'file' : 'default',
    },
  ];
  return { bytes, requests, layers, assumptions };
}
