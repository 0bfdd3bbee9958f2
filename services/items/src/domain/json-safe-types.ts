import type { FieldType } from './collection';

/**
 * Types whose JSON form from PostgreSQL (`to_json`, `to_jsonb`) parses to what the items pool's text parsers give
 * (items-pool.ts): a value of another type is read by the pool, not built as JSON in SQL.
 */
export const JSON_SAFE = new Set<FieldType>(['integer', 'string', 'text', 'boolean', 'uuid', 'json']);

/**
 * Types whose JSON from PostgreSQL (`row_to_json`, `to_json`) is byte for byte what JSON.stringify writes of the
 * pool's value: JSON fields are not (jsonb's text has its own spacing; json keeps the text as sent).
 */
export const TEXT_SAFE = new Set<FieldType>(['integer', 'string', 'text', 'boolean', 'uuid']);
