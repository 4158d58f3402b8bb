// The simulator settings the kvsim tests share: KvCacheConfig's reuse defaults as simConfigFrom gives them with no options
// file (partial reuse, copy on partial reuse, onboarding, secondary offload from priority 30), plain LRU, one request at a
// time, no host tier and no retention config. Each test states what it varies.
import { simConfigFrom } from '../src/core/kvsim/fromAnalysis.js';
import type { SimOptions } from '../src/core/kvsim/index.js';

export const simOptions = (over: Partial<SimOptions> & Pick<SimOptions, 'primaryBlocks' | 'tokensPerBlock'>): SimOptions => ({
  ...simConfigFrom(null, { tokensPerBlock: over.tokensPerBlock, secondaryBlocks: 0, retention: null, concurrency: 1 }),
  policy: 'lru',
  ...over,
});
