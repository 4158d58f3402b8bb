// The model catalogue, config.json reading, tokenizer vocabularies and model reference resolution (pure: file access is
// injected; src/host/modelFiles.ts provides it with node:fs).
export { CATALOGUE, catalogueEntry, findCatalogueId, matchModelName, type NameMatch } from './catalogue.js';
export { hubCacheDirs, type ModelFileSystem } from './files.js';
export { fromHfConfig, parseJsonText, type HfConfigResult } from './hfConfig.js';
export { describeWeights, resolveModelRef, type ModelRefOrigin, type ModelResolution } from './resolve.js';
export {
  assumeVocab,
  DEFAULT_VOCAB,
  resolveTokenizerVocab,
  vocabFromTokenizer,
  type TokenizerRef,
  type TokenizerVocab,
} from './tokenizers.js';
export type {
  CatalogueEntry,
  Checkpoint,
  ConfigShape,
  PublishedParams,
  TokenizerFacts,
  WeightDtype,
  WeightFormat,
  WeightScope,
} from './types.js';
export { weightFormatFromConfig, weightFormatFromName } from './weights.js';
