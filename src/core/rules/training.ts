// Cross-field rules R1–R22 for training configs (formats.md §5). Each rule names its upstream source.
import type { Finding, FormatId } from '../types.js';
import { emit, fmt, type RuleContext } from './emit.js';
import type { Fact, Facts, TrainingField } from './facts.js';

const nemo1Like = (f: FormatId) => f === 'nemo1' || f === 'nemo-launcher';

/** World size and the facts it came from: trainer.devices × trainer.num_nodes, else the setting. */
export function worldSize(facts: Facts, ctx: RuleContext): { ws: number; from: (Fact | undefined)[] } | undefined {
  const devices = facts.int('devices');
  if (devices !== undefined && devices >= 1) {
    const nodes = facts.intOr('nodes', 1);
    if (nodes !== undefined && nodes >= 1) return { ws: devices * nodes, from: [facts.get('devices'), facts.get('nodes')] };
    return undefined;
  }
  if (facts.present('devices')) return undefined;
  return ctx.worldSize ? { ws: ctx.worldSize, from: [] } : undefined;
}

const pos = (n: number | undefined): n is number => n !== undefined && n >= 1;

export function trainingRules(facts: Facts, ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  const fmtId = facts.format;
  const soft = nemo1Like(fmtId); // NeMo 1.x resets some settings with a warning where core raises
  const tp = facts.intOr('tp', 1);
  const pp = facts.intOr('pp', 1);
  const cp = facts.intOr('cp', 1);
  const ep = facts.intOr('ep', 1);
  const vpp = facts.int('vpp');
  const L = facts.int('layers');
  const S = facts.int('seq');
  const g = (k: Parameters<Facts['get']>[0]) => facts.get(k);
  const world = worldSize(facts, ctx);
  // A Bridge override is merged onto its recipe: a size it leaves out is unknown there, not the core default.
  const written = (k: TrainingField) => fmtId !== 'megatron-bridge' || facts.present(k);

  // R1: WS % (TP·PP·CP) == 0 — NeMo megatron_init.py, Megatron-LM arguments.py, Bridge config.py.
  let dp: number | undefined;
  if (world && pos(tp) && pos(pp) && pos(cp)) {
    const model = tp * pp * cp;
    if (world.ws % model !== 0)
      // Placed on the parallel sizes in play (those > 1); the world-size keys are related locations.
      out.push(
        ...emit(
          'RL-R1',
          'error',
          `world size ${world.ws} is not divisible by TP·PP·CP = ${tp}·${pp}·${cp} = ${model}`,
          (['tp', 'pp', 'cp'] as const).filter((k) => (facts.int(k) ?? 1) > 1).map(g),
          undefined,
          [g('tp'), g('pp'), g('cp'), ...world.from],
        ),
      );
    else dp = world.ws / model;
  }
  // R1b: with EP, WS % (ETP·EP·PP) == 0, ETP defaults to TP — NeMo megatron_init.py.
  if (world && pos(ep) && ep > 1 && pos(pp)) {
    const etp = tp === undefined ? facts.int('etp') : facts.intOr('etp', tp);
    if (pos(etp) && world.ws % (etp * ep * pp) !== 0)
      out.push(
        ...emit(
          'RL-R1b',
          'error',
          `world size ${world.ws} is not divisible by ETP·EP·PP = ${etp}·${ep}·${pp} = ${etp * ep * pp}`,
          [g('ep')],
          undefined,
          [g('etp') ?? g('tp'), g('pp'), ...world.from],
        ),
      );
  }
  // R2: GBS % (MBS·DP) == 0 — megatron/core/num_microbatches_calculator.py.
  const mbs = facts.int('mbs');
  const gbs = facts.int('gbs');
  if (dp !== undefined && written('tp') && written('pp') && written('cp') && pos(mbs) && pos(gbs) && gbs % (mbs * dp) !== 0)
    out.push(
      ...emit(
        'RL-R2',
        'error',
        `global batch size ${gbs} is not divisible by micro batch size ${mbs} × data-parallel size ${dp} = ${mbs * dp}`,
        [g('gbs'), g('mbs')],
      ),
    );
  // R3: S % (2·CP) == 0 when CP > 1 — Megatron-LM arguments.py, Bridge config.py.
  if (pos(cp) && cp > 1 && pos(S) && S % (2 * cp) !== 0)
    out.push(
      ...emit(
        'RL-R3',
        'error',
        `seq ${S} is not a multiple of 2·CP = ${2 * cp} (context parallelism splits the sequence into 2·CP load-balanced chunks)`,
        [g('seq'), g('cp')],
      ),
    );
  // R4: (L + account_for_embedding + account_for_loss) % PP == 0 unless stages are uneven — Megatron-LM arguments.py (NeMo 1.x allows uneven stages: warning there).
  const flag = (k: 'embedInSplit' | 'lossInSplit') => (facts.present(k) && !g(k) ? undefined : facts.bool(k) === true);
  const embed = flag('embedInSplit');
  const loss = flag('lossInSplit');
  const uneven = (['firstStageLayers', 'lastStageLayers', 'ppLayout'] as const).some((k) => facts.present(k) && g(k)?.value !== null);
  if (pos(L) && embed !== undefined && loss !== undefined && !uneven && pos(pp) && pp > 1) {
    const extra = +embed + +loss;
    if ((L + extra) % pp !== 0)
      out.push(
        ...emit(
          'RL-R4',
          soft ? 'warning' : 'error',
          `num_layers ${L}${extra ? ` + ${extra} (embedding/loss counted in the pipeline split) = ${L + extra}` : ''} is not divisible by pipeline size PP = ${pp}`,
          [g('layers'), g('pp')],
          undefined,
          [embed ? g('embedInSplit') : undefined, loss ? g('lossInSplit') : undefined],
        ),
      );
  }
  // R5: (L/PP) % VPP == 0 — NeMo megatron_base_model.py (skipped when both account_for_* are set), NeMo 2.0 / Bridge GPT provider (skipped for any uneven split).
  const flexible = soft ? embed !== false && loss !== false : embed !== false || loss !== false || uneven;
  if (pos(L) && pos(pp) && written('pp') && !flexible && vpp !== undefined && vpp > 1 && Math.floor(L / pp) % vpp !== 0)
    out.push(
      ...emit(
        'RL-R5',
        'error',
        `layers per pipeline stage ${Math.floor(L / pp)} (= ${L}/${pp}) is not divisible by virtual pipeline size VPP = ${vpp}`,
        [g('vpp'), g('layers'), g('pp')],
      ),
    );
  // R5b: VPP needs PP > 2, or PP > 1 with overlap_p2p_comm — Megatron-LM arguments.py.
  if (vpp !== undefined && vpp > 1 && pos(pp) && written('pp')) {
    const overlap = facts.bool('overlapP2p') === true;
    const need = overlap ? 1 : 2;
    if (pp <= need)
      // Only Megatron-LM's arguments.py checks this; NeMo and Megatron-Bridge loaders do not (Bridge enables overlap_p2p_comm itself): warn.
      out.push(
        ...emit(
          'RL-R5b',
          'warning',
          `virtual pipeline size ${vpp} needs pipeline size PP > ${need}${overlap ? '' : ' (or > 1 with overlap_p2p_comm)'}, got PP = ${pp}`,
          [g('vpp'), g('pp')],
        ),
      );
  }
  // R5c: VPP == 1 is normalised to null — NeMo megatron_base_model.py.
  if (vpp === 1)
    out.push(
      ...emit('RL-R5c', 'info', 'virtual_pipeline_model_parallel_size 1 means no interleaving; NeMo rewrites it to null', [g('vpp')]),
    );
  // R6: sequence_parallel needs TP > 1 — NeMo resets it (warning); megatron-core raises.
  if (facts.bool('sp') === true && tp === 1 && written('tp')) {
    const sp = g('sp')!;
    out.push(
      ...emit(
        'RL-R6',
        soft ? 'warning' : 'error',
        soft
          ? 'sequence_parallel is true but tensor_model_parallel_size is 1; NeMo silently resets sequence_parallel to false'
          : 'sequence_parallel is true but tensor_model_parallel_size is 1; megatron-core requires TP > 1 ("Cannot use sequence parallelism without tensor parallelism")',
        [sp, g('tp')],
        [{ title: 'Set sequence_parallel: false', edits: [{ span: sp.valueSpan, newText: 'false' }] }],
      ),
    );
  }
  // R7: H % TP == 0 — megatron-core transformer_config.py.
  const H = facts.int('heads');
  if (pos(H) && pos(tp) && H % tp !== 0)
    out.push(
      ...emit('RL-R7', 'error', `num_attention_heads ${H} must be a multiple of tensor_model_parallel_size ${tp}`, [g('heads'), g('tp')]),
    );
  // R8: G % TP == 0 or TP % G == 0 — megatron-core transformer_config.py.
  const G = facts.int('groups') ?? (facts.present('groups') && g('groups')?.value !== null ? undefined : H);
  if (pos(G) && pos(tp) && G % tp !== 0 && tp % G !== 0)
    out.push(
      ...emit('RL-R8', 'error', `num_query_groups ${G} must be a multiple or a divisor of tensor_model_parallel_size ${tp}`, [
        g('groups') ?? g('heads'),
        g('tp'),
      ]),
    );
  // R9: TP communication overlap needs sequence_parallel — NeMo resets it; Megatron-LM raises.
  const spSet = facts.bool('sp');
  // An override file that leaves sequence_parallel out inherits it from its base recipe: unknown, not false.
  if (facts.bool('tpCommOverlap') === true && (spSet === false || (spSet === undefined && soft && !facts.present('sp'))))
    out.push(
      ...emit(
        'RL-R9',
        soft ? 'warning' : 'error',
        soft
          ? `ub_tp_comm_overlap is true but sequence_parallel is ${spSet === false ? 'false' : 'not set (NeMo default false)'}; NeMo turns the overlap off`
          : 'tp_comm_overlap is true but sequence_parallel is false; tensor-parallel communication overlap requires sequence_parallel: true',
        [g('tpCommOverlap'), g('sp')],
      ),
    );
  // R10: recompute settings — megatron-core transformer_config.py, Megatron-LM arguments.py.
  out.push(...recomputeRules(facts, pp, L));
  // R11: CPU offloading — megatron-core transformer_config.py.
  if (facts.bool('cpuOffloading') === true) {
    const n = facts.int('offloadLayers');
    if (n !== undefined && pos(L) && (n < 0 || n >= L))
      out.push(
        ...emit('RL-R11', 'error', `cpu_offloading_num_layers ${n} must be ≥ 0 and below num_layers ${L}`, [
          g('offloadLayers'),
          g('layers'),
        ]),
      );
    if (pos(pp) && pp > 1)
      out.push(
        ...emit('RL-R11', 'error', `CPU offloading does not support pipeline parallelism (PP = ${pp})`, [g('cpuOffloading'), g('pp')]),
      );
    const gran = facts.str('recomputeGranularity');
    if (gran)
      out.push(
        ...emit('RL-R11', 'error', `CPU offloading does not work when activation recomputation is enabled (${gran})`, [
          g('cpuOffloading'),
          g('recomputeGranularity'),
        ]),
      );
    // R11b: fine-grained offloading and cpu_offloading are mutually exclusive.
    if (facts.bool('fgOffload') === true)
      out.push(
        ...emit('RL-R11b', 'error', 'fine_grained_activation_offloading and cpu_offloading are mutually exclusive (both are true)', [
          g('fgOffload'),
          g('cpuOffloading'),
        ]),
      );
  }
  // R12: the model and data sequence lengths agree — Bridge config.py (error); NeMo interpolates them.
  const dataSeq = facts.int('dataSeq');
  if (pos(S) && pos(dataSeq) && S !== dataSeq)
    out.push(
      ...emit(
        'RL-R12',
        fmtId === 'megatron-bridge' ? 'error' : 'warning',
        `model sequence length ${S} differs from the dataset sequence length ${dataSeq}`,
        [g('seq'), g('dataSeq')],
      ),
    );
  // R13: hierarchical CP sizes and cp_comm_type — Bridge _validate_cp_comm_type, megatron-core.
  out.push(...cpCommRules(facts, written('cp') ? cp : undefined, L));
  // R14: finetuning with CP > 1 needs per-token loss — Bridge config.py.
  const peft = g('peft');
  if (
    fmtId === 'megatron-bridge' &&
    pos(cp) &&
    cp > 1 &&
    (facts.bool('finetune') === true || (peft !== undefined && peft.value !== null))
  ) {
    if (facts.bool('perTokenLoss') === false)
      out.push(
        ...emit('RL-R14', 'error', `finetuning with CP = ${cp} requires model.calculate_per_token_loss: true`, [
          g('perTokenLoss'),
          g('cp'),
        ]),
      );
    if (facts.bool('avgInCollective') === true)
      out.push(
        ...emit('RL-R14', 'error', `finetuning with CP = ${cp} requires ddp.average_in_collective: false`, [g('avgInCollective'), g('cp')]),
      );
  }
  // R15: PP > 1 needs pipeline_dtype — megatron-core model_parallel_config.py. Only an explicit null is known to be wrong.
  if (pos(pp) && pp > 1 && !nemo1Like(fmtId) && facts.present('pipelineDtype') && g('pipelineDtype')?.value === null)
    out.push(
      ...emit('RL-R15', 'error', `pipeline parallelism (PP = ${pp}) requires pipeline_dtype to be set (e.g. bf16)`, [
        g('pipelineDtype'),
        g('pp'),
      ]),
    );
  // R16: at most one of train_iters / train_samples / num_epochs — Bridge TrainingConfig.finalize.
  const budget = (['trainIters', 'trainSamples', 'numEpochs'] as const).filter((k) => g(k) && g(k)!.value !== null);
  if (budget.length > 1)
    out.push(
      ...emit(
        'RL-R16',
        'error',
        `set only one of train_iters, train_samples, num_epochs (found ${budget.map((k) => `${g(k)!.path.split('.').pop()} ${fmt(g(k)!.value)}`).join(', ')})`,
        budget.map((k) => g(k)),
      ),
    );
  // R17: fp16 and bf16 are exclusive — megatron-core transformer_config.py.
  if (facts.bool('fp16') === true && facts.bool('bf16') === true)
    out.push(...emit('RL-R17', 'error', 'fp16 and bf16 cannot both be true', [g('fp16'), g('bf16')]));
  if (soft) {
    const precision = g('precision')?.value;
    // R18: Torch FSDP does not support FP8 — NeMo megatron_base_model.py.
    if (facts.bool('fsdp') === true && facts.bool('fp8') === true)
      out.push(
        ...emit('RL-R18', 'error', 'Torch FSDP does not support FP8 (model.fsdp and model.fp8 are both true)', [g('fsdp'), g('fp8')]),
      );
    // R19: megatron_amp_O2 with fp16 — NeMo configure_optimizers: "fp16 training is not yet supported with O2".
    const fp16 = precision === 16 || (typeof precision === 'string' && ['16', '16-mixed'].includes(precision));
    if (facts.bool('ampO2') === true && fp16)
      out.push(
        ...emit('RL-R19', 'error', `fp16 training is not supported with megatron_amp_O2 (trainer.precision = ${fmt(precision)})`, [
          g('ampO2'),
          g('precision'),
        ]),
      );
    // R20: gradient_accumulation_fusion needs megatron_amp_O2, and a distributed optimizer when DP > 1 and PP == 1 — NeMo _validate_and_override_config turns it off.
    if (facts.bool('gradAccFusion') === true && facts.bool('ampO2') === false)
      out.push(
        ...emit('RL-R20', 'warning', 'gradient_accumulation_fusion is true but megatron_amp_O2 is false; NeMo turns the fusion off', [
          g('gradAccFusion'),
          g('ampO2'),
        ]),
      );
    const optim = facts.str('optimName');
    if (
      facts.bool('gradAccFusion') === true &&
      dp !== undefined &&
      dp > 1 &&
      pp === 1 &&
      optim !== undefined &&
      !['distributed_fused_adam', 'mcore_distributed_optim'].includes(optim)
    )
      out.push(
        ...emit(
          'RL-R20',
          'warning',
          `gradient_accumulation_fusion with data-parallel size ${dp} and PP = 1 needs a distributed optimizer, got optim.name ${optim}; NeMo turns the fusion off`,
          [g('gradAccFusion'), g('optimName')],
          undefined,
          [g('pp'), ...(world?.from ?? [])],
        ),
      );
    // R22: pipeline_model_parallel_split_rank is deprecated — NeMo megatron_init.py asserts it is None.
    const split = g('splitRank');
    if (split && split.value !== null)
      out.push(
        ...emit(
          'RL-R22',
          'error',
          `pipeline_model_parallel_split_rank is deprecated and must be null, got ${fmt(split.value)}`,
          [split],
          [{ title: 'Set pipeline_model_parallel_split_rank: null', edits: [{ span: split.valueSpan, newText: 'null' }] }],
        ),
      );
  }
  // R21: EP > 1 with TP > 1 needs sequence parallelism — megatron-core model_parallel_config.py.
  if (pos(ep) && ep > 1 && pos(tp) && tp > 1 && facts.bool('sp') === false)
    out.push(
      ...emit('RL-R21', 'warning', `expert parallelism (EP = ${ep}) with tensor parallelism (TP = ${tp}) needs sequence_parallel: true`, [
        g('sp'),
        g('ep'),
        g('tp'),
      ]),
    );
  return out;
}

function recomputeRules(facts: Facts, pp: number | undefined, L: number | undefined): Finding[] {
  const out: Finding[] = [];
  const g = (k: Parameters<Facts['get']>[0]) => facts.get(k);
  const gran = facts.str('recomputeGranularity');
  const method = g('recomputeMethod')?.value;
  const n = g('recomputeLayers')?.value;
  if (gran === 'full') {
    if (method === null || method === undefined)
      out.push(
        ...emit('RL-R10', 'error', `full recompute needs a recompute method (uniform or block), got ${method === null ? 'null' : 'none'}`, [
          g('recomputeGranularity'),
          g('recomputeMethod'),
        ]),
      );
    if (n === null || n === undefined)
      out.push(
        ...emit(
          'RL-R10',
          'error',
          `full recompute needs the number of layers to recompute (activations_checkpoint_num_layers / recompute_num_layers), got ${n === null ? 'null' : 'none'}`,
          [g('recomputeGranularity'), g('recomputeLayers')],
        ),
      );
    else if (typeof n === 'number' && L !== undefined && pp !== undefined && pp >= 1) {
      const perStage = Math.floor(L / pp);
      if (n < 1 || n > perStage)
        out.push(
          ...emit(
            'RL-R10',
            'error',
            `recompute layers ${n} must be between 1 and the layers per pipeline stage ${perStage} (= ${L}/${pp})`,
            [g('recomputeLayers'), g('layers'), g('pp')],
          ),
        );
    }
  } else if (gran === 'selective') {
    if (typeof n === 'number')
      out.push(
        ...emit('RL-R10', 'error', `selective recompute takes no layer count (got ${n}); set it to null`, [
          g('recomputeLayers'),
          g('recomputeGranularity'),
        ]),
      );
    if (typeof method === 'string')
      out.push(
        ...emit('RL-R10', 'warning', `selective recompute ignores the recompute method (${method}); Megatron-LM requires it to be null`, [
          g('recomputeMethod'),
          g('recomputeGranularity'),
        ]),
      );
  }
  return out;
}

function cpCommRules(facts: Facts, cp: number | undefined, L: number | undefined): Finding[] {
  const out: Finding[] = [];
  const g = (k: Parameters<Facts['get']>[0]) => facts.get(k);
  const hcp = g('hcp')?.value;
  const types = g('cpCommType')?.value;
  if (Array.isArray(hcp) && hcp.every((x) => typeof x === 'number') && pos(cp)) {
    const prod = (hcp as number[]).reduce((a, b) => a * b, 1);
    if (prod !== cp)
      out.push(
        ...emit(
          'RL-R13',
          'error',
          `product of hierarchical_context_parallel_sizes ${fmt(hcp)} is ${prod}, not context_parallel_size ${cp}`,
          [g('hcp'), g('cp')],
        ),
      );
  }
  const list = typeof types === 'string' ? [types] : Array.isArray(types) ? types : [];
  if (list.includes('a2a+p2p') && !Array.isArray(hcp))
    out.push(...emit('RL-R13', 'error', 'cp_comm_type a2a+p2p requires hierarchical_context_parallel_sizes', [g('cpCommType'), g('hcp')]));
  if (Array.isArray(types) && pos(L) && types.length !== L)
    out.push(
      ...emit('RL-R13', 'error', `cp_comm_type lists ${types.length} entries but num_layers is ${L}`, [g('cpCommType'), g('layers')]),
    );
  return out;
}
