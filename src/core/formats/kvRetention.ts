// KvCacheRetentionConfig (executor.h, kvCacheRetentionConfig.cpp; Dynamo's JSON mirror; formats.md §7).
import type { RetentionField, RetentionRangeField } from './fields.js';
import type { Table } from './table.js';

export const KV_RETENTION: Table<RetentionField> = {
  paths: {
    ranges: ['token_range_retention_configs'],
    decodePriority: ['decode_retention_priority'],
    decodeDurationMs: ['decode_duration_ms'],
  },
};

/** Each item of `token_range_retention_configs`. */
export const RETENTION_RANGE: Table<RetentionRangeField> = {
  paths: { start: ['token_start'], end: ['token_end'], priority: ['priority'], durationMs: ['duration_ms'] },
};
