// Format detection by weighing evidence across every format (formats.md §0): each format scores the keys that are
// distinctive to its schema and their nesting, files that look like something else (speech, diffusion, Kubernetes,
// data curation) score as "no recipe", and the best reading wins only with a clear margin. A wrong guess is worse
// than none: a file no format explains well gets no diagnostics, and the reason is kept for the status-bar hover.
import { SCHEMAS } from './schemaNav.js';
import { childNode as child, isMapNode as isMap, type MapNode, type TreeNode } from './tree.js';
import { FORMAT_LABELS, type FormatId, type PathSeg } from './types.js';

export interface Detection {
  /** The recipe format, or null when the file is none (or too unlike any to guess). */
  format: FormatId | null;
  /** Where the recipe body starts: [] for the root, ['ConfigContainer'] in a Megatron-Bridge performance config. */
  base: PathSeg[];
  /** Why, for people: "keys model.tensor_model_parallel_size, trainer.devices". */
  evidence: string[];
  /** When the file is no recipe Recipe Lens reads: what it looks like instead. */
  notRecipe?: string;
  /** Readings that lost, best first (format and score), for the hover. */
  others: { format: FormatId; score: number }[];
  score: number;
}

interface Reading {
  format: FormatId;
  score: number;
  evidence: string[];
  base?: PathSeg[];
}

/** A reading wins with at least this score … */
const MIN_SCORE = 3;
/** … and this much more than the best reading of another kind (recipe or no recipe). */
const MARGIN = 1.5;
/** `_target_` values read per file: enough to classify, bounded for huge files. */
const MAX_TARGETS = 256;

const IDENTIFIER = /^[A-Za-z_][\w.-]*$/;
const keys = (n: TreeNode | undefined) => (isMap(n) ? n.entries.map((e) => e.key) : []);
const has = (n: TreeNode | undefined, k: string) => child(n, k) !== undefined;
const str = (n: TreeNode | undefined) => (n?.kind === 'scalar' && typeof n.value === 'string' ? n.value : undefined);

const schemaKeys = (f: FormatId) => new Set(Object.keys(SCHEMAS[f].properties ?? {}));

/** Top-level fields of Megatron-Bridge's ConfigContainer (megatron/bridge/training/config.py; formats.md §4). */
export const BRIDGE_TOP_LEVEL = schemaKeys('megatron-bridge');
/** Top-level fields of TensorRT-LLM's LlmArgs (all backends, every release the schema was read from). */
const LLM_ARGS = schemaKeys('trtllm-options');
/** Older or CLI spellings of LlmArgs keys that real files still carry (the schema's x-aliases). */
const LLM_ARG_ALIASES = new Set(Object.keys((SCHEMAS['trtllm-options']['x-aliases'] as Record<string, string> | undefined) ?? {}));
/** LlmArgs names too common to tell a TensorRT-LLM file by (many YAML files say `model:` or `backend:`). */
const GENERIC_LLM_ARGS = new Set([
  'model',
  'tokenizer',
  'backend',
  'dtype',
  'revision',
  'device',
  'mode',
  'runtime',
  'workspace',
  'world_size',
  'transforms',
  'trust_remote_code',
  'gpus_per_node',
  'load_format',
  'skip_loading_weights',
]);

/** Keys of a NeMo 1.x / Launcher `model:` section that Megatron models have (megatron_gpt_config.yaml). */
const MEGATRON_MODEL_KEYS = [
  'encoder_seq_length',
  'tensor_model_parallel_size',
  'pipeline_model_parallel_size',
  'micro_batch_size',
  'global_batch_size',
  'num_layers',
  'hidden_size',
  'num_attention_heads',
  'max_position_embeddings',
  'ffn_hidden_size',
  'make_vocab_size_divisible_by',
];
/** Keys of NeMo-RL's top level (nemo_rl/algorithms/*.py MasterConfig TypedDicts). */
const NEMO_RL_SECTIONS = [
  'policy',
  'cluster',
  'grpo',
  'sft',
  'dpo',
  'rm',
  'distillation',
  'teacher',
  'loss_fn',
  'checkpointing',
  'logger',
  'data',
  'env',
  'data_plane',
  'value',
];
/** Keys of NeMo-RL's `policy` (nemo_rl/models/policy/__init__.py PolicyConfig). */
const NEMO_RL_POLICY = [
  'model_name',
  'megatron_cfg',
  'dtensor_cfg',
  'generation',
  'train_global_batch_size',
  'train_micro_batch_size',
  'max_total_sequence_length',
  'sequence_packing',
  'precision',
  'tokenizer',
  'dynamic_batching',
];
/** Model keys of diffusion and vision providers that no LLM provider has (Megatron-Bridge diffusion recipes, NeMo diffusion). */
const NON_LLM_MODEL_KEYS = [
  'crossattn_emb_size',
  'in_channels',
  'out_channels',
  'patch_spatial',
  'patch_temporal',
  'z_dim',
  'vae',
  'unet_config',
];

/** Where `_target_` classes come from, and what that says about the file. */
const TARGET_KINDS: [RegExp, 'nemo2' | 'megatron-bridge' | 'none', string][] = [
  [/^megatron\.bridge\.(models|training|recipes|peft|data)\b/, 'megatron-bridge', 'Megatron-Bridge'],
  [/^megatron\.bridge\.diffusion\b/, 'none', 'a Megatron-Bridge diffusion config'],
  [/^nemo\.collections\.(llm|nlp\.models\.language_modeling)\b|^nemo\.lightning\b/, 'nemo2', 'NeMo 2'],
  [/^nemo\.collections\.(asr|speechlm2?|audio)\b/, 'none', 'a NeMo speech-recognition (ASR) model config'],
  [/^nemo\.collections\.tts\b/, 'none', 'a NeMo text-to-speech (TTS) model config'],
  [/^nemo\.collections\.(diffusion|multimodal|vision|vlm|avlm)\b/, 'none', 'a NeMo multimodal or diffusion config'],
  [/^nemo_curator\b/, 'none', 'a NeMo Curator data-curation config'],
];

interface Targets {
  nemo2: string[];
  'megatron-bridge': string[];
  none: Map<string, string[]>;
  all: number;
}

/** Classifies the `_target_` values of the tree (the first MAX_TARGETS). */
function readTargets(root: TreeNode): Targets {
  const out: Targets = { nemo2: [], 'megatron-bridge': [], none: new Map(), all: 0 };
  const stack: TreeNode[] = [root];
  while (stack.length && out.all < MAX_TARGETS) {
    const n = stack.pop()!;
    if (n.kind === 'seq') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]!);
    else if (n.kind === 'map')
      for (let i = n.entries.length - 1; i >= 0; i--) {
        const e = n.entries[i]!;
        const t = e.key === '_target_' ? str(e.value) : undefined;
        if (t !== undefined) {
          out.all++;
          const kind = TARGET_KINDS.find(([re]) => re.test(t));
          if (kind?.[1] === 'none') out.none.set(kind[2], [...(out.none.get(kind[2]) ?? []), t]);
          else if (kind) out[kind[1]].push(t);
        } else stack.push(e.value);
      }
  }
  return out;
}

const list = (xs: string[], n = 4) => xs.slice(0, n).join(', ') + (xs.length > n ? `, … (${xs.length})` : '');

/** TensorRT-LLM LlmArgs at `node`: its keys that LlmArgs has (or once had: the schema's x-aliases), weighing generic names half. */
function llmArgsScore(node: TreeNode | undefined): { score: number; known: string[]; total: number } {
  // Keys that are no identifiers (conflict markers, prose) say nothing about the format either way.
  const ks = keys(node).filter((k) => IDENTIFIER.test(k));
  const known = ks.filter((k) => LLM_ARGS.has(k) || LLM_ARG_ALIASES.has(k));
  const score = known.reduce((s, k) => s + (GENERIC_LLM_ARGS.has(k) ? 0.5 : 1), 0);
  return { score, known, total: ks.length };
}

function trtllm(root: MapNode): Reading[] {
  const out: Reading[] = [];
  const ctx = child(root, 'context_servers');
  const gen = child(root, 'generation_servers');
  if (isMap(ctx) || isMap(gen))
    out.push({
      format: 'trtllm-disagg',
      // Server pools are the disaggregated config's own keys: whatever LlmArgs keys sit beside them.
      score: 30,
      evidence: [`keys ${[isMap(ctx) && 'context_servers', isMap(gen) && 'generation_servers'].filter(Boolean).join(', ')}`],
    });
  // The wide-EP SLURM benchmark config: worker_config.{ctx,gen} each an LlmArgs (examples/wide_ep/slurm_scripts).
  const wc = child(root, 'worker_config');
  if (isMap(wc) && (isMap(child(wc, 'ctx')) || isMap(child(wc, 'gen')))) {
    const s = Math.max(llmArgsScore(child(wc, 'ctx')).score, llmArgsScore(child(wc, 'gen')).score);
    if (s >= 2) out.push({ format: 'trtllm-disagg', score: 6 + Math.min(s, 4), evidence: ['keys worker_config.ctx, worker_config.gen'] });
  }
  // A perf-sanity server list (tests/scripts/perf-sanity/aggregated): `server_configs` items, each an LlmArgs with the
  // benchmark clients run against it (tests/integration/defs/perf/test_perf_sanity.py).
  const servers = child(root, 'server_configs');
  if (servers?.kind === 'seq') {
    const items = servers.items.filter(isMap);
    const s = Math.max(0, ...items.map((m) => llmArgsScore(m).score));
    const clients = items.some((m) => child(m, 'client_configs')?.kind === 'seq');
    if (s >= 2 || (clients && s >= 1))
      out.push({
        format: 'trtllm-perf',
        score: 6 + Math.min(s, 4) + (clients ? 2 : 0),
        evidence: [
          `server_configs: ${items.length} LlmArgs server${items.length === 1 ? '' : 's'}${clients ? ' with client_configs' : ''}`,
        ],
      });
  }
  if (has(root, 'token_range_retention_configs'))
    out.push({ format: 'kv-retention', score: 10, evidence: ['key token_range_retention_configs'] });
  const { score, known, total } = llmArgsScore(root);
  // At least half the top-level keys must be LlmArgs fields: a file with `model:` and twenty other keys is not an options file.
  if (known.length && known.length >= total * 0.5)
    out.push({ format: 'trtllm-options', score: score * 3, evidence: [`LlmArgs keys ${list(known)}`] });
  return out;
}

/** A NeMo 1.x / Launcher Megatron model config: `model:` with Megatron keys, `trainer:` beside it. */
function nemo1(root: MapNode, targets: Targets): Reading[] {
  const out: Reading[] = [];
  // Launcher RLHF stages hold one model config per role (actor, critic): the actor is the trained policy.
  const bases: PathSeg[][] = [[], ['actor'], ['critic']];
  for (const base of bases) {
    const at = base.length ? child(root, base[0] as string) : root;
    const model = child(at, 'model');
    if (!isMap(model)) continue;
    const mk = MEGATRON_MODEL_KEYS.filter((k) => has(model, k));
    const trainer = child(at, 'trainer');
    const tk = ['devices', 'num_nodes', 'precision', 'max_steps'].filter((k) => has(trainer, k));
    let score = mk.length + (isMap(trainer) ? 1 + tk.length / 2 : 0) + (has(at, 'exp_manager') ? 1 : 0);
    if (has(model, 'encoder_seq_length')) score += 2;
    // Speech and vision NeMo 1.x configs have model + trainer too; their classes say what they are.
    if (targets.none.size && mk.length < 3) score = 0;
    if (score === 0 || mk.length === 0) continue;
    const p = base.length ? `${base[0]}.` : '';
    const evidence = [
      `keys ${list(
        mk.map((k) => `${p}model.${k}`),
        3,
      )}${tk.length ? `, ${p}trainer.${tk[0]}` : ''}`,
    ];
    const run = child(root, 'run');
    if (isMap(run)) {
      out.push({ format: 'nemo-launcher', score: score + 2, evidence: [...evidence, 'a launcher `run:` section'], base });
    } else out.push({ format: 'nemo1', score, evidence, base });
    break;
  }
  return out;
}

function nemo2(targets: Targets): Reading[] {
  const n = targets.nemo2.length;
  if (!n) return [];
  return [{ format: 'nemo2', score: 4 + Math.min(n, 6), evidence: [`_target_ ${list([...new Set(targets.nemo2)], 2)}`] }];
}

/** A Megatron-Bridge ConfigContainer (override file or full dump), at the root or under `ConfigContainer:`. */
function bridge(root: MapNode, targets: Targets): Reading[] {
  const out: Reading[] = [];
  for (const base of [[], ['ConfigContainer']] as PathSeg[][]) {
    const at = base.length ? child(root, 'ConfigContainer') : root;
    if (!isMap(at) || at.entries.length === 0) continue;
    const ks = keys(at);
    const fields = ks.filter((k) => BRIDGE_TOP_LEVEL.has(k));
    // (ENV_VARS beside the fields, the launch scripts' convention, is in the schema.)
    const foreign = ks.filter((k) => !BRIDGE_TOP_LEVEL.has(k) && k !== 'defaults');
    if (fields.length < 2 && !(fields.length === 1 && (fields[0] === 'train' || fields[0] === 'model'))) continue;
    if (foreign.length > fields.length / 3) continue;
    const model = child(at, 'model');
    let score = fields.length;
    if (isMap(child(at, 'train'))) score += 2;
    if (isMap(model) && (has(model, 'seq_length') || has(model, 'tensor_model_parallel_size'))) score += 2;
    if (isMap(child(at, 'dataset')) && has(child(at, 'dataset'), 'seq_length')) score += 1;
    score += Math.min(targets['megatron-bridge'].length, 4) * 2;
    const evidence = [`ConfigContainer fields ${list(fields.map((k) => (base.length ? `ConfigContainer.${k}` : k)))}`];
    if (targets['megatron-bridge'].length) evidence.push(`_target_ ${targets['megatron-bridge'][0]}`);
    if (base.length) {
      score += 4;
      if (has(root, 'perf_matrix')) evidence.push('a performance matrix (perf_matrix)');
    }
    out.push({ format: 'megatron-bridge', score, evidence, base });
  }
  return out;
}

/** A NeMo-RL config (examples/configs/*.yaml): policy and cluster sections, a `defaults:` parent file. */
function nemoRl(root: MapNode): Reading[] {
  const sections = NEMO_RL_SECTIONS.filter((k) => isMap(child(root, k)));
  const policy = child(root, 'policy');
  const pk = NEMO_RL_POLICY.filter((k) => has(policy, k));
  const defaults = child(root, 'defaults');
  // NeMo-RL names its parent by file (a string or a list of strings ending in .yaml), Hydra by group.
  const parent = str(defaults)?.endsWith('.yaml') || (defaults?.kind === 'seq' && defaults.items.some((i) => str(i)?.endsWith('.yaml')));
  const algos = ['grpo', 'sft', 'dpo', 'rm', 'distillation', 'ppo', 'eval'].filter((k) => isMap(child(root, k)));
  // A recipe that only overrides its parent (`defaults: ./grpo-….yaml` with checkpointing, logger, cluster, data_plane)
  // names no policy key: the parent file and a NeMo-RL section are the evidence (nemo_rl/utils/config.py load_config).
  if (!pk.length && !algos.length && !(parent && sections.length)) return [];
  const score = pk.length * 1.5 + sections.length + (parent ? 3 : 0) + (isMap(child(root, 'cluster')) ? 2 : 0);
  const named = [...pk.map((k) => `policy.${k}`), ...algos];
  const evidence = [named.length ? `keys ${list(named, 3)}` : `sections ${list(sections, 3)}`];
  if (parent) evidence.push('a `defaults:` parent file');
  return [{ format: 'nemo-rl', score, evidence }];
}

/** Keys of an Automodel `distributed:` section (nemo_automodel/recipes/_dist_utils.py parse_distributed_section). */
const AUTOMODEL_DISTRIBUTED = ['strategy', 'tp_size', 'cp_size', 'pp_size', 'ep_size', 'dp_size', 'dp_replicate_size'];

/**
 * A NeMo Automodel recipe: `recipe:` naming a recipe class (nemo_automodel/recipes), a `nemo_automodel` model factory
 * (`model._target_: nemo_automodel.NeMoAutoModelForCausalLM.from_pretrained`), step_scheduler batch sizes and a
 * `distributed:` section with Automodel's size names.
 */
function automodel(root: MapNode): Reading[] {
  const recipe = str(child(root, 'recipe')) ?? str(child(child(root, 'recipe'), '_target_'));
  const recipeClass = recipe !== undefined && /^(nemo_automodel\.recipes\.[\w.]+\.)?[A-Z]\w*Recipe\w*$/.test(recipe);
  const target = str(child(child(root, 'model'), '_target_'));
  const factory = target !== undefined && /^nemo_automodel\./.test(target);
  if (!recipeClass && !factory) return [];
  const ss = ['global_batch_size', 'local_batch_size'].filter((k) => has(child(root, 'step_scheduler'), k));
  const dist = AUTOMODEL_DISTRIBUTED.filter((k) => has(child(root, 'distributed'), k));
  const score = (recipeClass ? 4 : 0) + (factory ? 4 : 0) + ss.length + Math.min(dist.length, 3) + (has(root, 'dist_env') ? 1 : 0);
  const evidence = [
    [recipeClass && `recipe ${recipe}`, factory && `model._target_ ${target}`].filter(Boolean).join(', '),
    ...(ss.length || dist.length
      ? [`keys ${list([...ss.map((k) => `step_scheduler.${k}`), ...dist.map((k) => `distributed.${k}`)], 3)}`]
      : []),
  ];
  return [{ format: 'automodel', score, evidence }];
}

/** A Megatron-LM functional-test config: command-line arguments under MODEL_ARGS (tests/functional_tests). */
function megatronLm(root: MapNode): Reading[] {
  const args = child(root, 'MODEL_ARGS');
  const flags = keys(args).filter((k) => k.startsWith('--'));
  if (flags.length < 3) return [];
  return [{ format: 'megatron-lm', score: 6 + Math.min(flags.length, 10) / 2, evidence: [`MODEL_ARGS flags ${list(flags, 3)}`] }];
}

/** A NeMo-Framework-Launcher main config: Hydra `defaults` by stage group, `stages`, cluster settings. */
function launcherMain(root: MapNode): Reading[] {
  const defaults = child(root, 'defaults');
  const groups =
    defaults?.kind === 'seq'
      ? defaults.items.filter((i) => isMap(i) && i.entries.length === 1).map((i) => (i as MapNode).entries[0]!.key)
      : [];
  const stageGroups = groups.filter((g) =>
    /^(cluster|training|conversion|fine_tuning|evaluation|export|data_preparation|search_config)$/.test(g),
  );
  const settings = ['cluster_type', 'launcher_scripts_path', 'base_results_dir', 'container', 'auto_configurator_path'].filter((k) =>
    has(root, k),
  );
  const stages = child(root, 'stages')?.kind === 'seq';
  if (!stageGroups.length && settings.length < 2) return [];
  const score = stageGroups.length * 1.5 + settings.length + (stages ? 2 : 0) + (has(root, 'hydra') ? 1 : 0);
  const evidence = [`${[...stageGroups.map((g) => `defaults ${g}`), ...settings, ...(stages ? ['stages'] : [])].slice(0, 4).join(', ')}`];
  return [{ format: 'nemo-launcher-main', score, evidence }];
}

/** Readings that say the file is something else, with what. */
function notRecipes(root: MapNode, targets: Targets): { what: string; score: number; evidence: string }[] {
  const out: { what: string; score: number; evidence: string }[] = [];
  for (const [what, ts] of targets.none) out.push({ what, score: 4 + ts.length * 2, evidence: `_target_ ${ts[0]}` });
  if (has(root, 'apiVersion') && has(root, 'kind'))
    out.push({ what: `a Kubernetes ${str(child(root, 'kind')) ?? 'manifest'}`, score: 20, evidence: 'keys apiVersion, kind' });
  // The Launcher's conversion stage (conf/conversion*/…: run.nemo_file_name, the checkpoint it writes) converts a checkpoint
  // with a model config beside it; it trains nothing, so the training rules do not apply. (run.convert_name alone says
  // nothing: fine-tuning and PEFT stages name the conversion that follows them.)
  if (has(child(root, 'run'), 'nemo_file_name'))
    out.push({ what: 'a NeMo-Framework-Launcher checkpoint conversion config', score: 20, evidence: 'key run.nemo_file_name' });
  const model = child(root, 'model') ?? child(child(root, 'ConfigContainer'), 'model');
  const nonLlm = NON_LLM_MODEL_KEYS.filter((k) => has(model, k));
  if (nonLlm.length)
    out.push({ what: 'a diffusion or vision model config', score: 6 + nonLlm.length * 3, evidence: `model keys ${list(nonLlm, 2)}` });
  // NeMo Curator pipelines: stage names listed under `stages` that are top-level lists of steps.
  const stages = child(root, 'stages');
  if (stages?.kind === 'seq' && stages.items.some((i) => child(root, str(i) ?? '')?.kind === 'seq'))
    out.push({ what: 'a data-curation pipeline config', score: 8, evidence: 'stages listing top-level step lists' });
  return out;
}

const NONE: Detection = { format: null, base: [], evidence: [], others: [], score: 0 };

/** Which format a document's root is, with the evidence; `format: null` when it is none. */
export function detect(root: TreeNode | undefined): Detection {
  if (!isMap(root)) return NONE;
  const targets = readTargets(root);
  const readings = [
    ...trtllm(root),
    ...nemo1(root, targets),
    ...nemo2(targets),
    ...bridge(root, targets),
    ...nemoRl(root),
    ...automodel(root),
    ...megatronLm(root),
    ...launcherMain(root),
  ].sort((a, b) => b.score - a.score);
  const best = readings[0];
  const others = readings.slice(1).map((r) => ({ format: r.format, score: r.score }));
  const against = notRecipes(root, targets).sort((a, b) => b.score - a.score)[0];
  if (against && (!best || against.score + MARGIN > best.score))
    return {
      format: null,
      base: [],
      evidence: [against.evidence],
      notRecipe: against.what,
      others: readings.map((r) => ({ format: r.format, score: r.score })),
      score: against.score,
    };
  if (!best || best.score < MIN_SCORE) return { ...NONE, others };
  const rival = readings.find((r) => r.format !== best.format);
  if (rival && best.score - rival.score < MARGIN)
    return {
      ...NONE,
      evidence: [...best.evidence, ...rival.evidence],
      notRecipe: `ambiguous: reads as ${best.format} or ${rival.format}`,
      others: readings.map((r) => ({ format: r.format, score: r.score })),
    };
  return { format: best.format, base: best.base ?? [], evidence: best.evidence, others, score: best.score };
}

/** One line for people: what the file was read as and why, or why it was not ("no recipe: a Kubernetes ConfigMap (keys apiVersion, kind)"). */
export function describeDetection(d: Detection): string {
  const why = d.evidence.length ? ` (${d.evidence.join('; ')})` : '';
  if (d.format) return `${FORMAT_LABELS[d.format]}${d.base.length ? ` under \`${d.base.join('.')}\`` : ''}${why}`;
  if (d.notRecipe) return `no recipe: ${d.notRecipe}${why}`;
  return 'no recipe: no format Recipe Lens reads fits its keys';
}

/** The format of a document's root, or null (detect() without the evidence). */
export function detectFormat(root: TreeNode | undefined): FormatId | null {
  return detect(root).format;
}
