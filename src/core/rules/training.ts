// Cross-field rules R1–R24 for training configurations (formats.md §5), each written once as a predicate on the
// normalized values. The checker places the hits on the file (rules/place.ts); the planner and the what-if call the
// same function on the configurations they build, so "the planner accepts" ⇔ "the checker reports no error".
import type { TrainingField, TrainingValues } from '../formats/fields.js';
import { releaseNote, severityFor, type ReleaseRange, type TargetRelease } from '../versions.js';
import type { TrainingFamily } from '../formats/training.js';
import { divisors, fmt, nearest, pos, type FixChoice, type RuleHit } from './hit.js';

export type TrainingHit = RuleHit<TrainingField>;

export interface TrainingRuleInput {
  v: TrainingValues;
  family: TrainingFamily;
  /** GPUs in the job: the file's trainer.devices × num_nodes, a modeline, a setting or the planner's count. */
  world?: number;
  /** Whether the file writes the key (for messages and for keys whose absence means "inherited"). Default: v has it. */
  written?: (f: TrainingField) => boolean;
  /** Keys the file writes but that are unusable here (an unresolved interpolation): the rules they feed say nothing. */
  unusable?: (f: TrainingField) => boolean;
  /** The keys the world size comes from (trainer.devices, num_nodes), shown beside the findings it feeds. */
  worldFrom?: TrainingField[];
  /** The release the file is checked against (rules that changed across releases). */
  target?: TargetRelease;
  /** Which rules hold for the format (its table's skipRules / onlyRules); default all. */
  applies?: (code: string) => boolean;
}

/** Megatron-Bridge recipes may set the pipeline layout in code after the YAML is applied (DeepSeek-V3's do). */
const BRIDGE_LAYOUT_NOTE =
  '; unless the recipe sets pipeline_model_parallel_layout (or uneven first/last stages) in code, as the DeepSeek-V3 recipes do (set_deepseek_v3_pipeline_model_parallel_layout)';

// R22: NeMo up to 2.3 passes pipeline_model_parallel_split_rank to megatron-core (nemo/lightning/megatron_init.py at
// 00fdee3, which has the 2.3 pipeline_model_parallel_comm_backend argument); newer NeMo asserts it is None.
const SPLIT_RANK: ReleaseRange = {
  framework: 'nemo',
  acceptedThrough: '2.3',
  source: 'nemo/lightning/megatron_init.py; formats.md R22',
};

// The conditions themselves, shared by the hits below and by the planner's enumeration (plan/space.ts).
// R1: WS % (TP·PP·CP) == 0 — NeMo megatron_init.py, Megatron-LM arguments.py, Bridge config.py.
export const worldDivisible = (world: number, tp: number, pp: number, cp: number) => world % (tp * pp * cp) === 0;
// R1b: with EP, WS % (ETP·EP·PP) == 0 — NeMo megatron_init.py.
export const expertWorldDivisible = (world: number, etp: number, ep: number, pp: number) => ep === 1 || world % (etp * ep * pp) === 0;
// R2: GBS % (MBS·DP) == 0 — megatron/core/num_microbatches_calculator.py.
export const batchDivisible = (gbs: number, mbs: number, dp: number) => gbs % (mbs * dp) === 0;
// R3: S % (2·CP) == 0 when CP > 1 — Megatron-LM arguments.py, Bridge config.py.
export const seqDivisible = (seq: number, cp: number) => cp === 1 || seq % (2 * cp) === 0;
// R4: (L + embedding + loss in the split) % PP == 0 — Megatron-LM arguments.py.
export const layersDivisible = (layers: number, pp: number, extra = 0) => (layers + extra) % pp === 0;
// R5: (L / PP) % VPP == 0 — NeMo megatron_base_model.py, Megatron-LM arguments.py.
export const vppDivisible = (layers: number, pp: number, vpp: number) => Math.floor(layers / pp) % vpp === 0;
// R5b: VPP needs PP > 2, or PP > 1 with overlap_p2p_comm — Megatron-LM arguments.py.
export const vppPpOk = (pp: number, overlapP2p: boolean) => pp > (overlapP2p ? 1 : 2);
// R7: heads % TP == 0 — megatron-core transformer_config.py.
export const headsDivisible = (heads: number, tp: number) => heads % tp === 0;
// R8: query groups a multiple or a divisor of TP — megatron-core transformer_config.py.
export const groupsCompatible = (groups: number, tp: number) => groups % tp === 0 || tp % groups === 0;
// R23: experts % EP == 0 — megatron/core/transformer/moe/moe_layer.py (local experts = num_moe_experts / EP).
export const expertsDivisible = (experts: number, ep: number) => ep === 1 || experts % ep === 0;
// R24: interleaving needs num_microbatches % PP == 0 — megatron/core/pipeline_parallel/schedules.py (older releases).
export const interleavedMicrobatches = (microbatches: number, pp: number) => microbatches % pp === 0;

/** DP = WS / (TP·PP·CP) and micro-batches per step GBS / (MBS·DP), where they are known and whole. */
export function derivedSizes(v: TrainingValues, world: number | undefined): { dp?: number; microbatches?: number } {
  const { tp, pp, cp, mbs, gbs } = v;
  if (!world || !pos(tp) || !pos(pp) || !pos(cp) || !worldDivisible(world, tp, pp, cp)) return {};
  const dp = world / (tp * pp * cp);
  const microbatches = pos(mbs) && pos(gbs) && batchDivisible(gbs, mbs, dp) ? gbs / (mbs * dp) : undefined;
  return { dp, microbatches };
}

const SIZES = ['tp', 'pp', 'cp'] as const;

export function trainingRules(input: TrainingRuleInput): TrainingHit[] {
  const out: TrainingHit[] = [];
  const { v, family, world } = input;
  const written = input.written ?? ((f: TrainingField) => v[f] !== undefined);
  const unusable = input.unusable ?? (() => false);
  const worldFrom = input.worldFrom ?? [];
  const soft = family === 'nemo1'; // NeMo 1.x resets some settings with a warning where megatron-core raises
  const hit = (
    code: string,
    severity: TrainingHit['severity'],
    message: string,
    fields: TrainingField[],
    rest: Partial<TrainingHit> = {},
  ) => out.push({ code, severity, message, fields, ...rest });
  const { tp, pp, cp, ep, vpp, layers: L, seq: S, mbs, gbs } = v;

  // R1 — placed on the sizes whose own value does not divide the world first (CP 3 of 64 GPUs).
  let dp: number | undefined;
  if (world && pos(tp) && pos(pp) && pos(cp)) {
    if (!worldDivisible(world, tp, pp, cp)) {
      const inPlay = SIZES.filter((k) => (v[k] as number) > 1);
      const culprit = (k: (typeof SIZES)[number]) => world % (v[k] as number) !== 0;
      const fields = [...inPlay.filter(culprit), ...inPlay.filter((k) => !culprit(k))];
      const fixes: FixChoice<TrainingField>[] = [];
      for (const k of fields) {
        const others = (tp * pp * cp) / (v[k] as number);
        if (world % others === 0) for (const x of nearest(divisors(world / others), v[k] as number)) fixes.push({ set: { [k]: x } });
      }
      hit('RL-R1', 'error', `world size ${world} is not divisible by TP·PP·CP = ${tp}·${pp}·${cp} = ${tp * pp * cp}`, fields, {
        context: ['tp', 'pp', 'cp', ...worldFrom],
        fixes,
      });
    } else dp = world / (tp * pp * cp);
  } else if (world && SIZES.some((k) => pos(v[k]))) {
    // Sizes the file leaves to its recipe (a Bridge override) or cannot resolve are some integers ≥ 1: the sizes it does
    // give must still divide the world, whatever the others are.
    const known = SIZES.filter((k) => pos(v[k]));
    const product = known.reduce((a, k) => a * (v[k] as number), 1);
    if (world % product !== 0) {
      const unknown = SIZES.filter((k) => !pos(v[k])).map((k) => k.toUpperCase());
      hit(
        'RL-R1',
        'error',
        `world size ${world} is not divisible by ${known.map((k) => k.toUpperCase()).join('·')} = ${known.map((k) => v[k]).join('·')} = ${product}, whatever ${unknown.join(' and ')} the recipe sets`,
        known.filter((k) => world % (v[k] as number) !== 0).concat(known.filter((k) => world % (v[k] as number) === 0)),
        { context: [...known, ...worldFrom] },
      );
    }
  }
  // R1b — NeMo megatron_init.py.
  const etp = v.etp;
  if (world && pos(ep) && ep > 1 && pos(pp) && pos(etp) && !expertWorldDivisible(world, etp, ep, pp))
    hit('RL-R1b', 'error', `world size ${world} is not divisible by ETP·EP·PP = ${etp}·${ep}·${pp} = ${etp * ep * pp}`, ['ep'], {
      context: ['etp', 'tp', 'pp', ...worldFrom],
      fixes: world % (etp * pp) === 0 ? nearest(divisors(world / (etp * pp)), ep).map((x) => ({ set: { ep: x } })) : [],
    });
  // R2 — megatron/core/num_microbatches_calculator.py.
  if (dp !== undefined && pos(mbs) && pos(gbs) && !batchDivisible(gbs, mbs, dp)) {
    const step = mbs * dp;
    const gbsChoices = [Math.floor(gbs / step) * step, Math.ceil(gbs / step) * step].filter((x) => x >= step && x !== gbs);
    hit(
      'RL-R2',
      'error',
      `global batch size ${gbs} is not divisible by micro batch size ${mbs} × data-parallel size ${dp} = ${step}`,
      ['gbs', 'mbs'],
      {
        fixes: [
          ...[...new Set(gbsChoices)].map((x) => ({ set: { gbs: x } })),
          ...(gbs % dp === 0 ? nearest(divisors(gbs / dp), mbs).map((x) => ({ set: { mbs: x } })) : []),
        ],
      },
    );
  }
  // R3 — Megatron-LM arguments.py, Bridge config.py.
  if (pos(cp) && cp > 1 && pos(S) && !seqDivisible(S, cp))
    hit(
      'RL-R3',
      'error',
      `seq ${S} is not a multiple of 2·CP = ${2 * cp} (context parallelism splits the sequence into 2·CP load-balanced chunks)`,
      ['cp', 'seq'],
      {
        fixes: S % 2 === 0 ? nearest(divisors(S / 2), cp).map((x) => ({ set: { cp: x } })) : [],
      },
    );
  // R4 — Megatron-LM arguments.py; NeMo 1.x allows uneven stages (warning there). A flag the file leaves to its recipe
  // (a Bridge override) may be either value: the rule fires only when no possible value makes the split even.
  const embed = v.embedInSplit;
  const loss = v.lossInSplit;
  const uneven = (['firstStageLayers', 'lastStageLayers', 'ppLayout'] as const).some((k) => written(k) && v[k] !== null);
  const flagValues = (f: boolean | null | undefined, k: TrainingField) => (typeof f === 'boolean' ? [+f] : unusable(k) ? [] : [0, 1]);
  const extras = flagValues(embed, 'embedInSplit').flatMap((e) => flagValues(loss, 'lossInSplit').map((l) => e + l));
  if (pos(L) && extras.length && !uneven && pos(pp) && pp > 1 && extras.every((x) => !layersDivisible(L, pp, x))) {
    const extra = typeof embed === 'boolean' && typeof loss === 'boolean' ? +embed + +loss : 0;
    const flagsKnown = typeof embed === 'boolean' && typeof loss === 'boolean';
    hit(
      'RL-R4',
      soft || family === 'bridge' ? 'warning' : 'error',
      `num_layers ${L}${extra ? ` + ${extra} (embedding/loss counted in the pipeline split) = ${L + extra}` : ''} is not divisible by pipeline size PP = ${pp}${flagsKnown ? '' : ', whether or not the recipe counts the embedding and loss stages'}${family === 'bridge' ? BRIDGE_LAYOUT_NOTE : ''}`,
      ['pp', 'layers'],
      {
        context: [...(embed ? (['embedInSplit'] as const) : []), ...(loss ? (['lossInSplit'] as const) : [])],
        // More pipeline stages than layers is never a repair.
        fixes: nearest(
          divisors(L + extra).filter((x) => x <= L),
          pp,
        ).map((x) => ({ set: { pp: x } })),
      },
    );
  }
  // R5 — NeMo megatron_base_model.py (skipped when both account_for_* are set), NeMo 2.0 / Bridge (skipped for any uneven split).
  const flexible = soft ? embed !== false && loss !== false : embed !== false || loss !== false || uneven;
  if (pos(L) && pos(pp) && !flexible && pos(vpp) && vpp > 1 && !vppDivisible(L, pp, vpp)) {
    const perStage = Math.floor(L / pp);
    hit(
      'RL-R5',
      family === 'bridge' ? 'warning' : 'error',
      `layers per pipeline stage ${perStage} (= ${L}/${pp}) is not divisible by virtual pipeline size VPP = ${vpp}${family === 'bridge' ? BRIDGE_LAYOUT_NOTE : ''}`,
      ['vpp', 'layers', 'pp'],
      {
        fixes: [...nearest(divisors(perStage), vpp).filter((x) => x > 1), null].map((x) => ({ set: { vpp: x } })),
      },
    );
  }
  // R5b — only Megatron-LM's arguments.py checks this; NeMo and Bridge loaders do not (Bridge enables overlap_p2p_comm itself): warn.
  if (pos(vpp) && vpp > 1 && pos(pp)) {
    const overlap = v.overlapP2p === true;
    if (!vppPpOk(pp, overlap))
      hit(
        'RL-R5b',
        'warning',
        `virtual pipeline size ${vpp} needs pipeline size PP > ${overlap ? 1 : 2}${overlap ? '' : ' (or > 1 with overlap_p2p_comm)'}, got PP = ${pp}`,
        ['vpp', 'pp'],
        { context: ['overlapP2p'], fixes: [{ set: { vpp: null } }] },
      );
  }
  // R5c — NeMo megatron_base_model.py rewrites VPP 1 to null.
  if (vpp === 1)
    hit('RL-R5c', 'info', 'virtual_pipeline_model_parallel_size 1 means no interleaving; NeMo rewrites it to null', ['vpp'], {
      fixes: [{ set: { vpp: null } }],
    });
  // R6 — every loader in front of megatron-core turns sequence_parallel off with TP 1: NeMo 1.x (megatron_base_model.py),
  // NeMo 2 (llm/api.py _validate_config), Megatron-LM (arguments.py validate_args), Megatron-Bridge's
  // TransformerConfig.finalize (newer releases; older ones stop in config validation, as NeMo-RL may through Bridge).
  // megatron-core itself raises (model_parallel_config.py): a warning, never an error.
  if (v.sp === true && tp === 1)
    hit(
      'RL-R6',
      'warning',
      soft
        ? 'sequence_parallel is true but tensor_model_parallel_size is 1; NeMo silently resets sequence_parallel to false'
        : family === 'bridge' || family === 'mcore'
          ? 'sequence_parallel is true but tensor_model_parallel_size is 1; newer Megatron-Bridge releases turn it off, older ones (and megatron-core on its own) stop with "Cannot use sequence parallelism without tensor parallelism"'
          : `sequence_parallel is true but tensor_model_parallel_size is 1; ${family === 'megatron-lm' ? 'Megatron-LM' : 'NeMo'} turns sequence parallelism off ("Disabling sequence parallelism because tensor model parallelism is disabled")`,
      ['sp', 'tp'],
      { fixes: [{ set: { sp: false } }] },
    );
  // R7 — megatron-core transformer_config.py.
  const H = v.heads;
  if (pos(H) && pos(tp) && !headsDivisible(H, tp))
    hit('RL-R7', 'error', `num_attention_heads ${H} must be a multiple of tensor_model_parallel_size ${tp}`, ['tp', 'heads'], {
      fixes: nearest(divisors(H), tp).map((x) => ({ set: { tp: x } })),
    });
  // R8 — megatron-core transformer_config.py; an absent or null num_query_groups means MHA (groups = heads).
  const G = typeof v.groups === 'number' ? v.groups : unusable('groups') ? undefined : H;
  if (pos(G) && pos(tp) && !groupsCompatible(G, tp)) {
    const ok = [...new Set([...divisors(G), ...[2, 4, 8, 16, 32, 64].map((k) => G * k)])].sort((a, b) => a - b);
    hit(
      'RL-R8',
      'error',
      `num_query_groups ${G} must be a multiple or a divisor of tensor_model_parallel_size ${tp}`,
      ['tp', typeof v.groups === 'number' ? 'groups' : 'heads'],
      {
        fixes: nearest(ok, tp).map((x) => ({ set: { tp: x } })),
      },
    );
  }
  // R9 — NeMo resets ub_tp_comm_overlap (warning), so does Megatron-Bridge (comm_overlap.py: "Disabling tensor parallel
  // communication overlap due to sequence_parallel=False"); Megatron-LM arguments.py raises.
  if (v.tpCommOverlap === true && v.sp === false)
    hit(
      'RL-R9',
      soft || family === 'bridge' ? 'warning' : 'error',
      soft
        ? `ub_tp_comm_overlap is true but sequence_parallel is ${written('sp') ? 'false' : 'not set (NeMo default false)'}; NeMo turns the overlap off`
        : family === 'bridge'
          ? 'tp_comm_overlap is true but sequence_parallel is false; Megatron-Bridge turns the overlap off ("Disabling tensor parallel communication overlap due to sequence_parallel=False")'
          : 'tp_comm_overlap is true but sequence_parallel is false; tensor-parallel communication overlap requires sequence_parallel: true',
      ['tpCommOverlap', 'sp'],
      { fixes: [{ set: { tpCommOverlap: false } }, ...(pos(tp) && tp > 1 ? [{ set: { sp: true } }] : [])] },
    );
  recomputeRules(input, written, out);
  // R11 — megatron-core transformer_config.py.
  if (v.cpuOffloading === true) {
    const n = v.offloadLayers;
    if (typeof n === 'number' && pos(L) && (n < 0 || n >= L))
      hit('RL-R11', 'error', `cpu_offloading_num_layers ${n} must be ≥ 0 and below num_layers ${L}`, ['offloadLayers', 'layers'], {
        fixes: [{ set: { offloadLayers: L - 1 } }],
      });
    if (pos(pp) && pp > 1)
      hit('RL-R11', 'error', `CPU offloading does not support pipeline parallelism (PP = ${pp})`, ['cpuOffloading', 'pp'], {
        fixes: [{ set: { cpuOffloading: false } }],
      });
    const gran = v.recomputeGranularity;
    if (typeof gran === 'string' && gran)
      hit(
        'RL-R11',
        'error',
        `CPU offloading does not work when activation recomputation is enabled (${gran})`,
        ['cpuOffloading', 'recomputeGranularity'],
        {
          fixes: [{ set: { cpuOffloading: false } }, { set: { recomputeGranularity: null } }],
        },
      );
    // R11b — megatron-core transformer_config.py.
    if (v.fgOffload === true)
      hit(
        'RL-R11b',
        'error',
        'fine_grained_activation_offloading and cpu_offloading are mutually exclusive (both are true)',
        ['fgOffload', 'cpuOffloading'],
        {
          fixes: [{ set: { cpuOffloading: false } }],
        },
      );
  }
  // R12 — Bridge config.py (error); NeMo interpolates them (warning).
  const dataSeq = v.dataSeq;
  if (pos(S) && pos(dataSeq) && S !== dataSeq)
    hit(
      'RL-R12',
      family === 'bridge' ? 'error' : 'warning',
      `model sequence length ${S} differs from the dataset sequence length ${dataSeq}`,
      ['dataSeq', 'seq'],
      {
        fixes: [{ set: { dataSeq: S } }],
      },
    );
  cpCommRules(v, out);
  // R14 — Bridge config.py: finetuning with CP > 1.
  const peft = v.peft;
  if (family === 'bridge' && pos(cp) && cp > 1 && (v.finetune === true || (peft !== undefined && peft !== null))) {
    if (v.perTokenLoss === false)
      hit('RL-R14', 'error', `finetuning with CP = ${cp} requires model.calculate_per_token_loss: true`, ['perTokenLoss', 'cp'], {
        fixes: [{ set: { perTokenLoss: true } }],
      });
    if (v.avgInCollective === true)
      hit('RL-R14', 'error', `finetuning with CP = ${cp} requires ddp.average_in_collective: false`, ['avgInCollective', 'cp'], {
        fixes: [{ set: { avgInCollective: false } }],
      });
  }
  // R15 — megatron-core model_parallel_config.py. Only an explicit null is known to be wrong; Megatron-Bridge fills it
  // from params_dtype when PP > 1 (TransformerConfig.finalize).
  if (pos(pp) && pp > 1 && !soft && family !== 'bridge' && written('pipelineDtype') && v.pipelineDtype === null)
    hit('RL-R15', 'error', `pipeline parallelism (PP = ${pp}) requires pipeline_dtype to be set (e.g. bf16)`, ['pipelineDtype', 'pp']);
  // R16 — Bridge TrainingConfig.finalize.
  const budget = (['trainIters', 'trainSamples', 'numEpochs'] as const).filter((k) => v[k] !== undefined && v[k] !== null);
  if (budget.length > 1)
    hit(
      'RL-R16',
      'error',
      `set only one of train_iters, train_samples, num_epochs (found ${budget.map((k) => `${BUDGET_KEY[k]} ${fmt(v[k])}`).join(', ')})`,
      [...budget],
    );
  // R17 — megatron-core transformer_config.py.
  if (v.fp16 === true && v.bf16 === true) hit('RL-R17', 'error', 'fp16 and bf16 cannot both be true', ['fp16', 'bf16']);
  if (soft) {
    const precision = v.precision;
    // R18 — NeMo megatron_base_model.py: "Torch FSDP does not support FP8."
    if (v.fsdp === true && v.fp8 === true)
      hit('RL-R18', 'error', 'Torch FSDP does not support FP8 (model.fsdp and model.fp8 are both true)', ['fsdp', 'fp8']);
    // R19 — NeMo configure_optimizers: "fp16 training is not yet supported with O2". Only a file that trains reaches
    // configure_optimizers: one without model.optim (PTQ, export and inference configs restore a model) does not.
    const fp16 = precision === 16 || (typeof precision === 'string' && ['16', '16-mixed'].includes(precision));
    if (v.ampO2 === true && fp16 && written('optimName'))
      hit(
        'RL-R19',
        'error',
        `fp16 training is not supported with megatron_amp_O2 (trainer.precision = ${fmt(precision)})`,
        ['ampO2', 'precision'],
        {
          fixes: [{ set: { ampO2: false } }],
        },
      );
    // R20 — NeMo _validate_and_override_config turns gradient_accumulation_fusion off.
    if (v.gradAccFusion === true && v.ampO2 === false)
      hit('RL-R20', 'warning', 'gradient_accumulation_fusion is true but megatron_amp_O2 is false; NeMo turns the fusion off', [
        'gradAccFusion',
        'ampO2',
      ]);
    const optim = v.optimName;
    if (
      v.gradAccFusion === true &&
      dp !== undefined &&
      dp > 1 &&
      pp === 1 &&
      typeof optim === 'string' &&
      !['distributed_fused_adam', 'mcore_distributed_optim'].includes(optim)
    )
      hit(
        'RL-R20',
        'warning',
        `gradient_accumulation_fusion with data-parallel size ${dp} and PP = 1 needs a distributed optimizer, got optim.name ${optim}; NeMo turns the fusion off`,
        ['gradAccFusion', 'optimName'],
        { context: ['pp', ...worldFrom] },
      );
    // R22 — versioned (SPLIT_RANK): an error only against a NeMo release known to assert it is None. NeMo 1.x
    // encoder–decoder models (T5, BART, UL2, T0) need the split rank (where the decoder starts): their loader,
    // MegatronLMEncoderDecoderModel, passes it, so a release that rejects it does not run them at all.
    const splitSeverity =
      v.splitRank !== undefined && v.splitRank !== null && !encoderDecoder(v) ? severityFor(SPLIT_RANK, input.target, 'error') : null;
    if (splitSeverity)
      hit(
        'RL-R22',
        splitSeverity,
        `pipeline_model_parallel_split_rank is ${fmt(v.splitRank)}: ${releaseNote(SPLIT_RANK, input.target)}`,
        ['splitRank'],
        { fixes: [{ set: { splitRank: null } }] },
      );
  }
  // R21 — megatron-core model_parallel_config.py.
  if (pos(ep) && ep > 1 && pos(tp) && tp > 1 && v.sp === false)
    hit(
      'RL-R21',
      'warning',
      `expert parallelism (EP = ${ep}) with tensor parallelism (TP = ${tp}) needs sequence_parallel: true`,
      ['sp', 'ep', 'tp'],
      {
        fixes: [{ set: { sp: true } }],
      },
    );
  // R23 — megatron/core/transformer/moe/moe_layer.py.
  const E = v.experts;
  if (pos(E) && pos(ep) && !expertsDivisible(E, ep))
    hit('RL-R23', 'error', `num_moe_experts ${E} is not divisible by expert_model_parallel_size ${ep}`, ['ep', 'experts'], {
      fixes: nearest(divisors(E), ep).map((x) => ({ set: { ep: x } })),
    });
  // R24 — interleaved 1F1B in older megatron-core releases (schedules.py); newer ones group micro-batches instead: warn.
  const { microbatches } = derivedSizes(v, world);
  if (pos(vpp) && vpp > 1 && pos(pp) && pp > 1 && microbatches !== undefined && !interleavedMicrobatches(microbatches, pp))
    hit(
      'RL-R24',
      'warning',
      `the interleaved schedule runs ${microbatches} micro-batches (GBS / (MBS·DP)), not a multiple of PP = ${pp}; megatron-core releases before the micro-batch grouping reject it`,
      ['gbs', 'vpp'],
      { context: ['mbs', 'pp'] },
    );
  return input.applies ? out.filter((h) => input.applies!(h.code)) : out;
}

const BUDGET_KEY = { trainIters: 'train_iters', trainSamples: 'train_samples', numEpochs: 'num_epochs' } as const;

/** A NeMo 1.x encoder–decoder recipe, by the name NeMo's example configs give it (megatron_t5, megatron_bart, t5_220m, …). */
const encoderDecoder = (v: TrainingValues) => typeof v.modelName === 'string' && /(^|_)(t5|bart|ul2|t0)(_|$)/i.test(v.modelName);

/** R10 — megatron-core transformer_config.py, Megatron-LM arguments.py. */
function recomputeRules(input: TrainingRuleInput, written: (f: TrainingField) => boolean, out: TrainingHit[]): void {
  const { v, family } = input;
  const gran = v.recomputeGranularity;
  // An override that leaves a recompute key out inherits it from its recipe: unknown, not absent.
  const inherited = (f: TrainingField) => family === 'bridge' && !written(f);
  const method = v.recomputeMethod;
  const n = v.recomputeLayers;
  const L = v.layers;
  const pp = v.pp;
  if (gran === 'full') {
    if ((method === null || method === undefined) && !inherited('recomputeMethod') && !input.unusable?.('recomputeMethod'))
      out.push({
        code: 'RL-R10',
        severity: 'error',
        message: `full recompute needs a recompute method (uniform or block), got ${method === null ? 'null' : 'none'}`,
        fields: ['recomputeMethod', 'recomputeGranularity'],
        fixes: [{ set: { recomputeMethod: 'uniform' } }, { set: { recomputeMethod: 'block' } }],
      });
    if ((n === null || n === undefined) && !inherited('recomputeLayers') && !input.unusable?.('recomputeLayers'))
      out.push({
        code: 'RL-R10',
        severity: 'error',
        message: `full recompute needs the number of layers to recompute (activations_checkpoint_num_layers / recompute_num_layers), got ${n === null ? 'null' : 'none'}`,
        fields: ['recomputeLayers', 'recomputeGranularity'],
        fixes: [{ set: { recomputeLayers: 1 } }],
      });
    else if (typeof n === 'number' && pos(L) && (pos(pp) || (inherited('pp') && (n < 1 || n > L)))) {
      // PP left to a Bridge recipe: a count above num_layers is too many whatever the stages hold.
      const perStage = pos(pp) ? Math.floor(L / pp) : L;
      if (!pos(pp))
        out.push({
          code: 'RL-R10',
          severity: 'error',
          message: `recompute layers ${n} must be between 1 and the layers per pipeline stage (at most num_layers ${L})`,
          fields: ['recomputeLayers', 'layers'],
          fixes: [{ set: { recomputeLayers: Math.max(1, Math.min(L, n)) } }],
        });
      else if (n < 1 || n > perStage)
        out.push({
          code: 'RL-R10',
          severity: 'error',
          message: `recompute layers ${n} must be between 1 and the layers per pipeline stage ${perStage} (= ${L}/${pp})`,
          fields: ['recomputeLayers', 'layers', 'pp'],
          fixes: [{ set: { recomputeLayers: Math.max(1, Math.min(perStage, n)) } }],
        });
    }
  } else if (gran === 'selective') {
    if (typeof n === 'number')
      out.push({
        code: 'RL-R10',
        severity: 'error',
        message: `selective recompute takes no layer count (got ${n}); set it to null`,
        fields: ['recomputeLayers', 'recomputeGranularity'],
        fixes: [{ set: { recomputeLayers: null } }],
      });
    if (typeof method === 'string')
      out.push({
        code: 'RL-R10',
        severity: 'warning',
        message: `selective recompute ignores the recompute method (${method}); Megatron-LM requires it to be null`,
        fields: ['recomputeMethod', 'recomputeGranularity'],
        fixes: [{ set: { recomputeMethod: null } }],
      });
  }
}

/** R13 — Bridge _validate_cp_comm_type, megatron-core transformer_config.py. */
function cpCommRules(v: TrainingValues, out: TrainingHit[]): void {
  const hcp = v.hcp;
  const types = v.cpCommType;
  if (Array.isArray(hcp) && hcp.every((x) => typeof x === 'number') && pos(v.cp)) {
    const prod = (hcp as number[]).reduce((a, b) => a * b, 1);
    if (prod !== v.cp)
      out.push({
        code: 'RL-R13',
        severity: 'error',
        message: `product of hierarchical_context_parallel_sizes ${fmt(hcp)} is ${prod}, not context_parallel_size ${v.cp}`,
        fields: ['hcp', 'cp'],
      });
  }
  const list = typeof types === 'string' ? [types] : Array.isArray(types) ? types : [];
  if (list.includes('a2a+p2p') && !Array.isArray(hcp))
    out.push({
      code: 'RL-R13',
      severity: 'error',
      message: 'cp_comm_type a2a+p2p requires hierarchical_context_parallel_sizes',
      fields: ['cpCommType', 'hcp'],
    });
  if (Array.isArray(types) && pos(v.layers) && types.length !== v.layers)
    out.push({
      code: 'RL-R13',
      severity: 'error',
      message: `cp_comm_type lists ${types.length} entries but num_layers is ${v.layers}`,
      fields: ['cpCommType', 'layers'],
    });
}

/** Whether the hits hold an error: the launcher would refuse the configuration. */
export const hasError = (hits: readonly { severity: string }[]) => hits.some((h) => h.severity === 'error');
