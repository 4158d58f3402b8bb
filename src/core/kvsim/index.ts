// KV-cache reuse simulator: TensorRT-LLM's block reuse, priorities and host tier, run over a workload.
export { BlockKeys, GENERATED_STREAM_BASE, literalStream, RunList } from './content.js';
export { BlockPool, ORIGIN_DECODE, ORIGIN_DEFAULT, ORIGIN_OWN, type PoolConfig } from './pool.js';
export { Prng } from './prng.js';
export { eventsJson, eventsText, policyJson, simulationJson, simulationText, type RunInfo } from './report.js';
export { MAX_PRIORITY, MIN_PRIORITY, NO_RETENTION, perBlockRetention, retentionFromObject } from './retention.js';
export type { RetentionRange, RetentionSpec } from './retention.js';
export { MAX_SIM_BLOCKS, originIndex, simulate, Simulator, sweep, workloadBlocks, type SimConfig, type SweepPoint } from './simulate.js';
export type { OccupancySample, Policy, PolicyStats, SimOptions, SimRequest, Workload } from './types.js';
export { isKvEvent, parseEventJson, replayKvEvents, type EventPool, type EventReplay } from './workloads/events.js';
export { forEachJsonLine, splitLines, type LineError } from './workloads/lines.js';
export { mooncakeWorkload, readMooncake, type MooncakeTrace } from './workloads/mooncake.js';
export { openTrace, type OpenedTrace } from './workloads/open.js';
export { parseWorkloadSpec, SYNTHETIC, syntheticWorkload, type WorkloadSpec } from './workloads/synthetic.js';
export { readTokenTrace, saltId, tokenTraceWorkload, type TokenTrace } from './workloads/tokenTrace.js';
