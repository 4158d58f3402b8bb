// The one request object a workload fills in and yields again and again (the simulator copies what it keeps).
import { RunList } from '../content.js';
import type { SimRequest } from '../types.js';

/** A blank request: no tokens, no LoRA, no salt, the command line's retention, arrival at 0 ms. */
export function blankRequest(): SimRequest {
  return {
    runs: new RunList(),
    promptTokens: 0,
    outputTokens: 0,
    outputIncluded: false,
    loraId: 0,
    cacheSalt: 0,
    retention: undefined,
    arrivalMs: 0,
  };
}
