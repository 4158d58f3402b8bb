// PyTorch optimizers as FSDP2 trainers (NeMo-RL's DTensor policy, NeMo Automodel) configure them: which Adam kernel steps.
import type { TrainingConfig } from './config.js';
import type { Assumption } from './types.js';

/**
 * The kernel torch.optim.Adam / AdamW steps with: fused=True steps in place, foreach=False one parameter at a time, and
 * otherwise torch picks its foreach path on CUDA (torch/optim/optimizer.py _default_to_fused_or_foreach), whose step
 * holds one temporary per element. `where` names the keyword arguments' section for the assumption.
 */
export function torchAdamKernel(
  name: unknown,
  foreach: unknown,
  fused: unknown,
  where: string,
  assumptions: Assumption[],
): Pick<TrainingConfig, 'adamKernel'> {
  if (typeof name !== 'string' || !/^torch\.optim\.AdamW?$/.test(name)) return {};
  if (fused === true) return { adamKernel: 'fused' };
  if (foreach === false) return { adamKernel: 'for-loop' };
  if (foreach !== true)
    assumptions.push({
      what: `${name} takes its foreach path (one temporary per stepped element while it steps)`,
      source: `${where} sets neither foreach nor fused: torch/optim/optimizer.py _default_to_fused_or_foreach`,
      provenance: 'default',
    });
  return { adamKernel: 'foreach' };
}
