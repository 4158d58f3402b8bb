// A recipe document read into its normalized form: logical fields with the loader's defaults, and where each
// field is written. Rules, the estimate, hovers, the panel and Apply work on this, never on paths.
import type { RecipeDoc } from './document.js';
import {
  RETENTION_FIELDS,
  RETENTION_RANGE_FIELDS,
  SERVING_FIELDS,
  TRAINING_FIELDS,
  type RetentionField,
  type RetentionRangeField,
  type RetentionRangeValues,
  type RetentionValues,
  type ServingField,
  type ServingValues,
  type TrainingField,
  type TrainingValues,
} from './formats/fields.js';
import { isServingFormat, TRAINING_TABLES } from './formats/index.js';
import { KV_RETENTION, RETENTION_RANGE } from './formats/kvRetention.js';
import { fieldAt, readTable, type FieldLoc, type ReadFields, type Table } from './formats/table.js';
import { DISAGG_ROLES, roleBases, WORKER_CONFIG, type DisaggLayout, type DisaggRole } from './formats/trtllmDisagg.js';
import { perfMatrixRuns, type PerfMatrixRun } from './formats/bridgePerfMatrix.js';
import { readAutomodel, type AutomodelRead } from './formats/automodel.js';
import { readNemoRl, type NemoRlRead } from './formats/nemoRl.js';
import { TRTLLM_OPTIONS } from './formats/trtllmOptions.js';
import {
  PERF_FILE,
  PERF_GPUS_PER_NODE,
  PERF_MODEL_DIRS,
  PERF_SERVER,
  PERF_SERVER_NAME,
  PERF_SERVERS,
  PERF_SUPPORTED_GPUS,
  perfServerBase,
} from './formats/trtllmPerf.js';
import type { TrainingFamily, TrainingTable } from './formats/training.js';
import { lookup } from './tree.js';
import { targetRelease, type TargetRelease, type Versions } from './versions.js';
import type { FormatId, KeyPath } from './types.js';

export type Locs<F extends string> = Partial<Record<F, FieldLoc>>;

/** Where the world size came from: the file's trainer.devices × num_nodes, a modeline, or a setting / --world-size. */
export interface WorldSize {
  size: number;
  source: 'file' | 'modeline' | 'setting';
  /** How the file's GPUs become the training world when that is more than devices × nodes (NeMo-RL's generation split). */
  note?: string;
}

export interface TrainingRecipe {
  kind: 'training';
  format: FormatId;
  family: TrainingFamily;
  table: TrainingTable;
  /** Values as written (interpolations resolved); unusable values absent. */
  file: TrainingValues;
  /** `file` plus the loader's defaults for keys the file leaves out (absent = unknown). */
  values: TrainingValues;
  loc: Locs<TrainingField>;
  world?: WorldSize;
  /** Where the recipe body starts in the file ([] = the root); Apply writes missing keys under it. */
  base: KeyPath;
  /** The release the file is checked against (modeline, setting, or none named). */
  target: TargetRelease;
  /** NeMo-RL's own settings beyond the training fields (generation, reference model, teacher, batching). */
  rl?: NemoRlRead;
  /** NeMo Automodel's own settings (strategy, data-parallel sizes, optimizer, LoRA patterns). */
  automodel?: AutomodelRead;
  /** A Megatron-Bridge performance config's runs (perf_matrix): the estimate picks one. */
  perfMatrix?: PerfMatrixRun[];
}

export interface ServingRole {
  /** '' for an options file, the disaggregated role, or a perf-sanity server's name (`server_configs[i]` when it has no unique one). */
  role: ServingRoleName;
  bases: KeyPath[];
  values: ServingValues;
  loc: Locs<ServingField>;
  /** A perf-sanity `model_name` as written, when the harness's model table turned it into `values.model`. */
  modelAlias?: string;
  /** Values the file does not set that the Dynamo worker mounting it sets on its command line, and where (formats/dynamoDeploy.ts). */
  launched?: Partial<Record<ServingField, string>>;
}

export interface ServingRecipe {
  kind: 'serving';
  format: FormatId;
  /**
   * `servers` (context_servers / generation_servers), `worker_config` (wide-EP SLURM benchmark), `server_configs` (a
   * perf-sanity server list); '' for an options file.
   */
  layout: ServingLayout;
  roles: ServingRole[];
  /** `hardware.gpus_per_node` of the wide-EP and perf-sanity layouts. */
  gpusPerNode?: number;
  /** A perf-sanity file's `metadata.supported_gpus`, as written. */
  supportedGpus?: string[];
}

export type ServingLayout = DisaggLayout | 'server_configs' | '';
/** '' for an options file, the disaggregated role, or a perf-sanity server's name. */
export type ServingRoleName = DisaggRole | '' | (string & {});

export interface RetentionRangeRead {
  index: number;
  values: RetentionRangeValues;
  loc: Locs<RetentionRangeField>;
}

export interface RetentionRecipe {
  kind: 'retention';
  format: FormatId;
  values: RetentionValues;
  loc: Locs<RetentionField>;
  ranges: RetentionRangeRead[];
}

export type Recipe = TrainingRecipe | ServingRecipe | RetentionRecipe;

export interface RecipeContext {
  /** World size from a setting or the CLI, for files that state none. */
  worldSize?: number;
  /** The file's `# recipe-lens:` modeline values. */
  modeline?: Record<string, string>;
  /** Target releases from the setting or --versions (a modeline's win). */
  versions?: Versions;
}

export function readRecipe(doc: RecipeDoc, ctx: RecipeContext = {}): Recipe | undefined {
  const format = doc.format;
  if (!format || !doc.root) return undefined;
  const table = TRAINING_TABLES[format];
  if (table) return readTraining(doc, format, table, ctx);
  if (isServingFormat(format)) return readServing(doc, format);
  if (format === 'kv-retention') return readRetention(doc, format);
  return undefined;
}

export function readTraining(doc: RecipeDoc, format: FormatId, variants: TrainingTable, ctx: RecipeContext = {}): TrainingRecipe {
  const table = variants.select?.(doc) ?? variants;
  const base = doc.detection.base;
  const read = readTable(doc, table, TRAINING_FIELDS, [base]);
  const file: TrainingValues = { ...read.values, ...table.derive?.(doc) };
  const { loc } = read;
  const perfMatrix = table.family === 'bridge' ? perfMatrixRuns(doc.root) : [];
  return {
    kind: 'training',
    format,
    family: table.family,
    table,
    file,
    values: withDefaults(file, loc, table),
    loc,
    world: worldFrom(table, doc, file, loc, ctx),
    base,
    target: targetRelease(format, ctx.modeline ?? {}, ctx.versions),
    ...(format === 'nemo-rl' ? { rl: readNemoRl(doc) } : {}),
    ...(format === 'automodel' ? { automodel: readAutomodel(doc) } : {}),
    ...(perfMatrix.length ? { perfMatrix } : {}),
  };
}

/** The table's world where it has its own reading (undefined from it: the file does not fix one), else devices × nodes. */
function worldFrom(table: TrainingTable, doc: RecipeDoc, file: TrainingValues, loc: Locs<TrainingField>, ctx: RecipeContext) {
  const w = table.world?.(doc, file);
  if (w === undefined) return worldOf(file, loc, ctx);
  return w ? { size: w.size, source: 'file' as const, ...(w.note ? { note: w.note } : {}) } : undefined;
}

/** The file's values plus the loader's defaults for what it leaves out; used again when a what-if or a fix changes a value. */
export function withDefaults(file: TrainingValues, loc: Locs<TrainingField>, table: TrainingTable): TrainingValues {
  const values: TrainingValues = { ...file };
  const set = values as Record<string, unknown>;
  for (const [k, v] of Object.entries(table.defaults)) if (!(k in loc) && !(k in file)) set[k] = v;
  // megatron-core: expert_tensor_parallel_size defaults to TP (model_parallel_config.py); a Bridge override inherits it.
  if (!('etp' in loc) && !('etp' in file) && table.family !== 'bridge' && typeof values.tp === 'number') values.etp = values.tp;
  // NeMo 1.x picks the distributed optimizer by name (megatron_base_model.py: distributed_fused_adam, mcore_distributed_optim).
  if (table.family === 'nemo1' && values.distOpt === undefined && typeof values.optimName === 'string')
    values.distOpt = /distributed/.test(values.optimName);
  return values;
}

/** The recipe with some fields changed (a what-if, a fix, a planner row): defaults that follow them follow. */
export function withChanges(r: TrainingRecipe, changes: TrainingValues): TrainingRecipe {
  const file = { ...r.file, ...changes };
  return { ...r, file, values: withDefaults(file, r.loc, r.table) };
}

/** trainer.devices × trainer.num_nodes, else the modeline's world_size, else the setting. */
function worldOf(file: TrainingValues, loc: Locs<TrainingField>, ctx: RecipeContext): WorldSize | undefined {
  if (loc.devices) {
    const d = file.devices;
    const n = loc.nodes ? file.nodes : 1;
    // A device count the file writes but that is no positive integer (-1, auto, an interpolation) is unknown.
    return typeof d === 'number' && d >= 1 && typeof n === 'number' && n >= 1 ? { size: d * n, source: 'file' } : undefined;
  }
  const ml = Number(ctx.modeline?.world_size);
  if (Number.isInteger(ml) && ml >= 1) return { size: ml, source: 'modeline' };
  return ctx.worldSize ? { size: ctx.worldSize, source: 'setting' } : undefined;
}

function readServing(doc: RecipeDoc, format: FormatId): ServingRecipe {
  if (format === 'trtllm-perf') return readPerfServers(doc, format);
  const roles: ServingRole[] = [];
  let layout: DisaggLayout | '' = '';
  let names: (DisaggRole | '')[] = [''];
  if (format === 'trtllm-disagg') {
    layout = DISAGG_ROLES.some((r) => lookup(doc.root, [r]))
      ? 'servers'
      : lookup(doc.root, ['worker_config'])
        ? 'worker_config'
        : 'servers';
    names = DISAGG_ROLES.filter((r) => lookup(doc.root, layout === 'worker_config' ? ['worker_config', WORKER_CONFIG[r].key] : [r]));
  }
  const fileWide = layout === 'worker_config' ? readTable(doc, PERF_FILE, SERVING_FIELDS) : undefined;
  for (const role of names) {
    const bases = roleBases(role, layout || 'servers');
    const { values, loc } = readTable(doc, TRTLLM_OPTIONS, SERVING_FIELDS, bases);
    if (role && layout === 'worker_config' && values.instances === undefined) {
      const n = integerAt(doc, ['hardware', WORKER_CONFIG[role].count]);
      if (n !== undefined) values.instances = n;
    }
    // The perf-sanity disaggregated configs are this layout with the harness's `metadata` (model_name, supported_gpus).
    const modelAlias = fileWide ? harnessModel(fileWide, values, loc) : undefined;
    const launched = layout === '' ? fromLaunch(doc, values) : undefined;
    roles.push({ role, bases, values, loc, ...(modelAlias ? { modelAlias } : {}), ...(launched ? { launched } : {}) });
  }
  const gpusPerNode = layout === 'worker_config' ? integerAt(doc, PERF_GPUS_PER_NODE) : undefined;
  const supportedGpus = layout === 'worker_config' ? supportedGpusOf(doc) : [];
  return {
    kind: 'serving',
    format,
    layout,
    roles,
    ...(gpusPerNode ? { gpusPerNode } : {}),
    ...(supportedGpus.length ? { supportedGpus } : {}),
  };
}

/** An embedded engine-args file: what its Dynamo worker's command line sets that the file does not (the file wins). */
function fromLaunch(doc: RecipeDoc, values: ServingValues): Partial<Record<ServingField, string>> | undefined {
  const launch = doc.embedded?.launch;
  if (!launch) return undefined;
  const out: Partial<Record<ServingField, string>> = {};
  for (const [f, v] of Object.entries(launch.values) as [ServingField, unknown][])
    if (values[f] === undefined && launch.where[f]) {
      (values as Record<string, unknown>)[f] = v;
      out[f] = launch.where[f];
    }
  return Object.keys(out).length ? out : undefined;
}

/**
 * A perf-sanity server's model: its own `model_name`, else `metadata.model_name`; the harness's sanity aliases become the
 * checkpoint directory they load. Returns the name as written when the alias table changed it.
 */
function harnessModel(
  fileWide: ReadFields<ServingField, ServingValues>,
  values: ServingValues,
  loc: Locs<ServingField>,
): string | undefined {
  if (!loc.model) {
    if (fileWide.loc.model) loc.model = fileWide.loc.model;
    if (fileWide.values.model !== undefined) values.model = fileWide.values.model;
  }
  const written = values.model;
  if (typeof written !== 'string' || !PERF_MODEL_DIRS[written]) return undefined;
  values.model = PERF_MODEL_DIRS[written];
  return written;
}

/** The integer written at `path`, if it is one. */
function integerAt(doc: RecipeDoc, path: KeyPath): number | undefined {
  const n = lookup(doc.root, path)?.node;
  return n?.kind === 'scalar' && typeof n.value === 'number' && Number.isInteger(n.value) ? n.value : undefined;
}

/** `metadata.supported_gpus` of a perf-sanity file, as written. */
function supportedGpusOf(doc: RecipeDoc): string[] {
  const gpus = lookup(doc.root, PERF_SUPPORTED_GPUS)?.node;
  return gpus?.kind === 'seq' ? gpus.items.flatMap((g) => (g.kind === 'scalar' && typeof g.value === 'string' ? [g.value] : [])) : [];
}

/** A perf-sanity server list: one role per server, named by its `name`; `metadata.model_name` is the default model. */
function readPerfServers(doc: RecipeDoc, format: FormatId): ServingRecipe {
  const list = lookup(doc.root, [PERF_SERVERS])?.node;
  const items = list?.kind === 'seq' ? list.items : [];
  const names = items.map((item) => {
    const n = item.kind === 'map' ? item.entries.find((e) => e.key === PERF_SERVER_NAME)?.value : undefined;
    return n?.kind === 'scalar' && typeof n.value === 'string' && n.value.trim() ? n.value.trim() : undefined;
  });
  const roles: ServingRole[] = [];
  const fileWide = readTable(doc, PERF_FILE, SERVING_FIELDS);
  items.forEach((item, index) => {
    if (item.kind !== 'map') return;
    const base = perfServerBase(index);
    const { values, loc } = readTable(doc, PERF_SERVER, SERVING_FIELDS, [base]);
    const modelAlias = harnessModel(fileWide, values, loc);
    const name = names[index];
    const unique = name !== undefined && names.indexOf(name) === names.lastIndexOf(name);
    roles.push({ role: unique ? name : `${PERF_SERVERS}[${index}]`, bases: [base], values, loc, ...(modelAlias ? { modelAlias } : {}) });
  });
  const supportedGpus = supportedGpusOf(doc);
  const perNode = integerAt(doc, PERF_GPUS_PER_NODE);
  const gpusPerNode = perNode !== undefined && perNode >= 1 ? perNode : undefined;
  return {
    kind: 'serving',
    format,
    layout: 'server_configs',
    roles,
    ...(gpusPerNode ? { gpusPerNode } : {}),
    ...(supportedGpus.length ? { supportedGpus } : {}),
  };
}

function readRetention(doc: RecipeDoc, format: FormatId): RetentionRecipe {
  const { values, loc } = readTable(doc, KV_RETENTION, RETENTION_FIELDS);
  const ranges: RetentionRangeRead[] = [];
  const list = loc.ranges ? lookup(doc.root, loc.ranges.path)?.node : undefined;
  if (list?.kind === 'seq')
    list.items.forEach((_, index) => {
      const r = readTable(doc, RETENTION_RANGE, RETENTION_RANGE_FIELDS, [[...loc.ranges!.path, index]]);
      ranges.push({ index, values: r.values, loc: r.loc });
    });
  return { kind: 'retention', format, values, loc, ranges };
}

/** The key-path table of a serving file's servers: a perf-sanity server names its model by `model_name`. */
export const servingTable = (r: ServingRecipe): Table<ServingField> => (r.layout === 'server_configs' ? PERF_SERVER : TRTLLM_OPTIONS);

/** Which field of the recipe a key path holds (and in which server role), for hovers. */
export function fieldAtPath(recipe: Recipe | undefined, path: KeyPath): { field: string; role?: ServingRoleName } | undefined {
  if (!recipe) return undefined;
  if (recipe.kind === 'training') {
    const field = fieldAt(recipe.table, recipe.loc, path);
    return field ? { field } : undefined;
  }
  if (recipe.kind === 'serving')
    for (const r of recipe.roles) {
      const field = fieldAt(servingTable(recipe), r.loc, path);
      if (field) return { field, role: r.role };
    }
  return undefined;
}
