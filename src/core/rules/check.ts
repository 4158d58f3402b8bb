// The checker: every cross-field rule of a recipe, placed on the file. Rule logic lives in training.ts, kvcache.ts
// and retention.ts; this module only feeds them the normalized recipe and places what they return.
import { AUTOMODEL_FIELDS, AUTOMODEL_TABLE, type AutomodelRead } from '../formats/automodel.js';
import type { TrainingField, TrainingValues } from '../formats/fields.js';
import { NEMO_RL_FIELDS, NEMO_RL_TABLE, type NemoRlRead } from '../formats/nemoRl.js';
import { writePath, type FieldLoc, type Table } from '../formats/table.js';
import { servingTable, withChanges, type Recipe, type RetentionRecipe, type ServingRecipe, type TrainingRecipe } from '../recipe.js';
import type { Finding } from '../types.js';
import { refField, type FixChoice, type Ref, type RuleHit } from './hit.js';
import { automodelRules } from './automodel.js';
import { disaggRules, kvCacheRules, type ServingHit } from './kvcache.js';
import { nemoRlRules } from './nemoRl.js';
import { placeHits } from './place.js';
import { retentionRules, type RetentionHitField } from './retention.js';
import { trainingRules, type TrainingHit, type TrainingRuleInput } from './training.js';

export interface CheckContext {
  text: string;
  docIndex: number;
  /** Fields whose value the last edit changed: a rule's finding goes on the one the user just edited. */
  lastEdited?: readonly TrainingField[];
}

/** The rule input of a training recipe. */
export function trainingInput(r: TrainingRecipe): TrainingRuleInput {
  return {
    v: r.values,
    family: r.family,
    world: r.world?.size,
    written: (f) => f in r.loc,
    unusable: (f) => f in r.loc && r.file[f] === undefined,
    worldFrom: r.world?.source === 'file' ? ['devices', 'nodes'] : [],
    target: r.target,
    ...(r.table.skipRules || r.table.onlyRules ? { applies: (code: string) => rulesApply(r.table, code) } : {}),
  };
}

/** Whether a rule of rules/training.ts holds for a table (its skipRules and onlyRules). */
export const rulesApply = (t: TrainingRecipe['table'], code: string): boolean =>
  !(t.skipRules && code in t.skipRules) && (!t.onlyRules || t.onlyRules.includes(code));

export function checkRecipe(recipe: Recipe, ctx: CheckContext): Finding[] {
  if (recipe.kind === 'training') return checkTraining(recipe, ctx);
  if (recipe.kind === 'serving') return checkServing(recipe, ctx);
  return checkRetention(recipe, ctx);
}

/** Model-shape fields a format may fill from the model catalogue rather than write (NeMo-RL's policy.model_name). */
const SHAPE_FIELDS = new Set<TrainingField>(['layers', 'heads', 'groups', 'experts']);

function checkTraining(r: TrainingRecipe, ctx: CheckContext): Finding[] {
  const input = trainingInput(r);
  // A shape the file does not write came from the model it names: say so where a rule used it.
  const shapeNote =
    r.format === 'nemo-rl' && typeof r.values.modelName === 'string' ? ` (the shape of ${r.values.modelName} in the model catalogue)` : '';
  const hits = trainingRules(input).map((h) => ({
    ...h,
    message: shapeNote && h.fields.some((f) => SHAPE_FIELDS.has(refField(f)) && !r.loc[refField(f)]) ? h.message + shapeNote : h.message,
    fixes: (h.fixes ?? []).filter((f) => fixHolds(r, h, f)),
  }));
  const findings = placeHits<TrainingField>(hits, {
    text: ctx.text,
    docIndex: ctx.docIndex,
    locate: (ref) => r.loc[typeof ref === 'string' ? ref : ref.field],
    writePath: (ref) => writePath(r.table, r.loc, typeof ref === 'string' ? ref : ref.field, r.base),
    value: (ref) => r.values[typeof ref === 'string' ? ref : ref.field],
    lastEdited: ctx.lastEdited,
  });
  if (r.rl) findings.push(...checkNemoRl(r, r.rl, ctx));
  if (r.automodel) findings.push(...checkAutomodel(r, r.automodel, ctx));
  return findings;
}

/** A format's own settings beside the training fields: their kinds, where each lives, and what the file holds. */
interface OwnFields<F extends string> {
  kinds: Readonly<Record<F, unknown>>;
  table: Table<F>;
  loc: Partial<Record<F, FieldLoc>>;
  values: Partial<Record<F, unknown>>;
}

/** Hits on a format's own settings and on training fields, placed through the format's table or the training table. */
function placeOwn<F extends string>(
  r: TrainingRecipe,
  hits: RuleHit<F | TrainingField>[],
  own: OwnFields<F>,
  ctx: CheckContext,
): Finding[] {
  const isOwn = (f: F | TrainingField): f is F => Object.hasOwn(own.kinds, f);
  return placeHits<F | TrainingField>(hits, {
    text: ctx.text,
    docIndex: ctx.docIndex,
    locate: (ref) => {
      const f = refField(ref);
      return isOwn(f) ? own.loc[f] : r.loc[f];
    },
    writePath: (ref) => {
      const f = refField(ref);
      return isOwn(f) ? writePath(own.table, own.loc, f) : writePath(r.table, r.loc, f, r.base);
    },
    value: (ref) => {
      const f = refField(ref);
      return isOwn(f) ? own.values[f] : r.values[f];
    },
    lastEdited: ctx.lastEdited,
  });
}

/** NeMo Automodel's own checks (rules/automodel.ts). */
function checkAutomodel(r: TrainingRecipe, am: AutomodelRead, ctx: CheckContext): Finding[] {
  return placeOwn(r, automodelRules(r, am), { kinds: AUTOMODEL_FIELDS, table: AUTOMODEL_TABLE, loc: am.loc, values: am.values }, ctx);
}

/** NeMo-RL's own checks (rules/nemoRl.ts). */
function checkNemoRl(r: TrainingRecipe, rl: NemoRlRead, ctx: CheckContext): Finding[] {
  return placeOwn(r, nemoRlRules(r, rl), { kinds: NEMO_RL_FIELDS, table: NEMO_RL_TABLE, loc: rl.loc, values: rl.values }, ctx);
}

/** A repair is offered when, with it written, the rule no longer fires and no error appears that was not there before. */
export function fixHolds(r: TrainingRecipe, h: TrainingHit, f: FixChoice<TrainingField>): boolean {
  if (!f.set) return true;
  const before = trainingRules(trainingInput(r));
  const after = trainingRules(trainingInput(withChanges(r, f.set as TrainingValues)));
  if (after.some((x) => x.code === h.code && x.message === h.message)) return false;
  const had = new Set(before.filter((x) => x.severity === 'error').map((x) => x.code));
  return after.every((x) => x.severity !== 'error' || had.has(x.code));
}

function checkServing(r: ServingRecipe, ctx: CheckContext): Finding[] {
  const roles = r.roles.map((x) => ({ values: x.values, written: (f: keyof typeof x.loc) => f in x.loc }));
  const hits: ServingHit[] = roles.flatMap((role, i) => kvCacheRules(role, i));
  const ctxRole = r.roles.findIndex((x) => x.role === 'context_servers');
  const genRole = r.roles.findIndex((x) => x.role === 'generation_servers');
  if (ctxRole >= 0 && genRole >= 0) hits.push(...disaggRules(roles[ctxRole]!, roles[genRole]!, ctxRole, genRole));
  const role = (ref: Ref<string>) => r.roles[(typeof ref === 'string' ? undefined : ref.group) ?? 0]!;
  const field = <F extends string>(ref: Ref<F>) => (typeof ref === 'string' ? ref : ref.field);
  return placeHits(hits, {
    text: ctx.text,
    docIndex: ctx.docIndex,
    locate: (ref) => role(ref).loc[field(ref)],
    writePath: (ref) => writePath(servingTable(r), role(ref).loc, field(ref), role(ref).bases[0]),
    value: (ref) => role(ref).values[field(ref)],
  });
}

function checkRetention(r: RetentionRecipe, ctx: CheckContext): Finding[] {
  const locate = (ref: Ref<RetentionHitField>) => {
    if (typeof ref === 'object' && ref.group !== undefined) return r.ranges[ref.group]?.loc[ref.field as keyof (typeof r.ranges)[0]['loc']];
    return r.loc[(typeof ref === 'string' ? ref : ref.field) as keyof typeof r.loc];
  };
  const value = (ref: Ref<RetentionHitField>) => {
    if (typeof ref === 'object' && ref.group !== undefined)
      return r.ranges[ref.group]?.values[ref.field as keyof (typeof r.ranges)[0]['values']];
    return r.values[(typeof ref === 'string' ? ref : ref.field) as keyof typeof r.values];
  };
  return placeHits(retentionRules(r), { text: ctx.text, docIndex: ctx.docIndex, locate, writePath: () => undefined, value });
}
