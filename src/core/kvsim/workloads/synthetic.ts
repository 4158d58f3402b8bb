// Built-in synthetic workloads, deterministic for a seed: what shares a prefix is modelled exactly (a shared system
// prompt is one token stream; a conversation's next turn sends back its history and the previous reply), sizes are
// uniform in [mean/2, 3·mean/2], arrivals are Poisson. Parameters: `NAME:key=value,…` (e.g. chat:system=2048,user=128).
import { RunList } from '../content.js';
import { Prng } from '../prng.js';
import type { SimRequest, Workload } from '../types.js';
import { blankRequest } from './request.js';

interface ParamDef {
  default: number;
  help: string;
  min: number;
  max: number;
}

const P = (d: number, help: string, min = 1, max = 1 << 24): ParamDef => ({ default: d, help, min, max });
const RATE = P(10, 'arrivals per second (Poisson)', 1e-6, 1e9);

export const SYNTHETIC: Record<string, { help: string; params: Record<string, ParamDef> }> = {
  chat: {
    help: 'single-turn chats that share a system prompt, each with its own user message',
    params: {
      system: P(1024, 'system prompt tokens'),
      prompts: P(1, 'distinct system prompts (requests pick one at random)', 1, 1 << 16),
      user: P(256, 'mean user-message tokens'),
      output: P(128, 'mean generated tokens'),
      rate: RATE,
    },
  },
  multiturn: {
    help: 'conversations: each turn sends the system prompt, the history and a new message; the reply joins the history',
    params: {
      system: P(1024, 'system prompt tokens'),
      user: P(256, 'mean user-message tokens'),
      output: P(256, 'mean reply tokens'),
      turns: P(4, 'mean turns per conversation', 1, 4096),
      sessions: P(16, 'conversations open at once (each request picks one at random)', 1, 1 << 16),
      rate: RATE,
    },
  },
  agentic: {
    help: 'agent loops: system prompt and tool definitions, then each step appends the action and the tool result',
    params: {
      system: P(4096, 'system prompt and tool definition tokens'),
      task: P(256, 'mean task tokens'),
      result: P(512, 'mean tool-result tokens per step'),
      output: P(128, 'mean action tokens per step'),
      steps: P(8, 'mean steps per task', 1, 4096),
      sessions: P(8, 'tasks running at once', 1, 1 << 16),
      rate: RATE,
    },
  },
  rag: {
    help: 'retrieval-augmented prompts: system prompt, k documents from a shared set (Zipf popularity), a question',
    params: {
      system: P(512, 'system prompt tokens'),
      docs: P(1000, 'documents in the set', 1, 1 << 20),
      doc: P(1024, 'tokens per document'),
      k: P(4, 'documents per prompt', 1, 256),
      zipf: P(1, 'Zipf exponent of document popularity', 0, 10),
      question: P(64, 'mean question tokens'),
      output: P(128, 'mean generated tokens'),
      rate: RATE,
    },
  },
  mix: {
    help: 'chats that share a system prompt, mixed with long one-off documents (summaries, batch jobs)',
    params: {
      system: P(2048, 'system prompt tokens'),
      user: P(256, 'mean user-message tokens'),
      output: P(128, 'mean generated tokens'),
      docs: P(0.2, 'fraction of requests that are one-off documents', 0, 1),
      doc: P(16384, 'mean document tokens'),
      rate: RATE,
    },
  },
};

export interface WorkloadSpec {
  name: string;
  params: Record<string, number>;
}

/** Parses `NAME` or `NAME:key=value,…`; an error names what is wrong. */
export function parseWorkloadSpec(text: string): WorkloadSpec | { error: string } {
  const [name, rest] = text.split(/:(.*)/s, 2) as [string, string | undefined];
  const def = Object.hasOwn(SYNTHETIC, name) ? SYNTHETIC[name] : undefined;
  if (!def) return { error: `unknown workload "${name}" (${Object.keys(SYNTHETIC).join(', ')}, or a .jsonl trace)` };
  const params: Record<string, number> = {};
  for (const [k, d] of Object.entries(def.params)) params[k] = d.default;
  for (const part of rest ? rest.split(',') : []) {
    const m = /^\s*([a-z]+)\s*=\s*([^\s]+)\s*$/.exec(part);
    if (!m) return { error: `workload parameter "${part}" is not key=value` };
    const d = Object.hasOwn(def.params, m[1]!) ? def.params[m[1]!] : undefined;
    if (!d) return { error: `${name} has no parameter "${m[1]}" (${Object.keys(def.params).join(', ')})` };
    const v = Number(m[2]);
    if (!Number.isFinite(v) || v < d.min || v > d.max) return { error: `${name}:${m[1]} must be a number in ${d.min}..${d.max}` };
    params[m[1]!] = d.min >= 1 && m[1] !== 'rate' ? Math.round(v) : v;
  }
  return { name, params };
}

/** Uniform integer in [mean/2, 3·mean/2], at least 1. */
const around = (rng: Prng, mean: number) => Math.max(1, rng.int(Math.ceil(mean / 2), Math.floor((3 * mean) / 2)));

/** The workload of a spec with `requests` requests. */
export function syntheticWorkload(spec: WorkloadSpec, requests: number, seed: number): Workload {
  const p = spec.params;
  const label = Object.entries(p)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return { name: `${spec.name}:${label} (${requests} requests, seed ${seed})`, requests: () => generate(spec.name, p, requests, seed) };
}

function* generate(name: string, p: Record<string, number>, count: number, seed: number): Generator<SimRequest> {
  const rng = new Prng(seed);
  const req = blankRequest();
  const runs = req.runs;
  // Streams 0 .. 2^24 are the fixed shared content (system prompts, documents); fresh content counts up from there.
  let fresh = 1 << 24;
  let clock = 0;
  const meanGapMs = 1000 / p.rate!;
  const histories: RunList[] = [];
  const left: number[] = [];
  const sessions = p.sessions ?? 0;
  for (let s = 0; s < sessions; s++) {
    histories.push(new RunList());
    left.push(0);
  }
  // Zipf popularity for rag: cumulative weights 1/rank^s.
  let cdf: Float64Array | undefined;
  if (name === 'rag') {
    cdf = new Float64Array(p.docs!);
    let acc = 0;
    for (let i = 0; i < cdf.length; i++) cdf[i] = acc += 1 / Math.pow(i + 1, p.zipf!);
  }
  const pickDoc = (): number => {
    const x = rng.float() * cdf![cdf!.length - 1]!;
    let lo = 0;
    let hi = cdf!.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf![mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  for (let r = 0; r < count; r++) {
    clock += rng.exp(meanGapMs);
    req.arrivalMs = clock;
    runs.reset();
    req.outputIncluded = false;
    if (name === 'chat') {
      runs.push(rng.int(0, p.prompts! - 1), 0, p.system!);
      runs.push(fresh++, 0, around(rng, p.user!));
      req.outputTokens = around(rng, p.output!);
    } else if (name === 'mix') {
      if (rng.float() < p.docs!) runs.push(fresh++, 0, around(rng, p.doc!));
      else {
        runs.push(0, 0, p.system!);
        runs.push(fresh++, 0, around(rng, p.user!));
      }
      req.outputTokens = around(rng, p.output!);
    } else if (name === 'rag') {
      runs.push(1 << 23, 0, p.system!);
      for (let i = 0; i < p.k!; i++) runs.push(pickDoc(), 0, p.doc!);
      runs.push(fresh++, 0, around(rng, p.question!));
      req.outputTokens = around(rng, p.output!);
    } else {
      // multiturn / agentic: a session sends its history plus a new message; its reply is named so the next turn reuses it.
      const s = rng.int(0, sessions - 1);
      const h = histories[s]!;
      if (left[s]! <= 0) {
        h.reset();
        h.push(0, 0, p.system!);
        if (name === 'agentic') h.push(fresh++, 0, around(rng, p.task!));
        left[s] = rng.int(1, 2 * (name === 'agentic' ? p.steps! : p.turns!) - 1);
      }
      left[s]!--;
      const add = around(rng, name === 'agentic' ? p.result! : p.user!);
      const newStream = fresh++;
      h.push(newStream, 0, add);
      runs.pushPrefix(h, h.tokens);
      const out = around(rng, p.output!);
      const reply = fresh++;
      runs.push(reply, 0, out);
      h.push(reply, 0, out);
      req.outputTokens = out;
      req.outputIncluded = true;
      req.promptTokens = runs.tokens - out;
      yield req;
      continue;
    }
    req.promptTokens = runs.tokens;
    yield req;
  }
}
