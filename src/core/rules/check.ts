// The checker: every cross-field rule of a recipe, placed on the file. Rule logic lives in training.ts, kvcache.ts
// and retention.ts; this module only feeds them the normalized recipe and places what they return.
import type { TrainingField, TrainingValues } from '../formats/fields.js';
import { writePath } from '../formats/table.js';
import { TRTLLM_OPTIONS } from '../formats/trtllmOptions.js';
import { withChanges, type Recipe, type RetentionRecipe, type ServingRecipe, type TrainingRecipe } from '../recipe.js';
import type { Finding } from '../types.js';
import type { FixChoice, Ref } from './hit.js';
import { disaggRules, kvCacheRules, type ServingHit } from './kvcache.js';
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
  };
}

export function checkRecipe(recipe: Recipe, ctx: CheckContext): Finding[] {
  if (recipe.kind === 'training') return checkTraining(recipe, ctx);
  if (recipe.kind === 'serving') return checkServing(recipe, ctx);
  return checkRetention(recipe, ctx);
}

function checkTraining(r: TrainingRecipe, ctx: CheckContext): Finding[] {
  const input = trainingInput(r);
  const hits = trainingRules(input).map((h) => ({ ...h, fixes: (h.fixes ?? []).filter((f) => fixHolds(r, h, f)) }));
  return placeHits<TrainingField>(hits, {
    text: ctx.text,
    docIndex: ctx.docIndex,
    locate: (ref) => r.loc[typeof ref === 'string' ? ref : ref.field],
    writePath: (ref) => writePath(r.table, r.loc, typeof ref === 'string' ? ref : ref.field, r.base),
    value: (ref) => r.values[typeof ref === 'string' ? ref : ref.field],
    lastEdited: ctx.lastEdited,
  });
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
    writePath: (ref) => writePath(TRTLLM_OPTIONS, role(ref).loc, field(ref), role(ref).bases[0]),
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
