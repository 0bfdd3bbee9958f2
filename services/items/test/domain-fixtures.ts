import { AppError } from '@vellum/errors';
import type { CollectionDef, FieldDef, FieldType } from '../src/domain/collection';

/** A field as parseCollection leaves it (schema keys only where the test sets them). */
export const field = (name: string, type: FieldType, schema: FieldDef['schema'] = {}): FieldDef => ({ field: name, type, schema, meta: null });

/** A posts collection: integer key, a required title, an optional body, a count with a default, a flag. */
export const posts: CollectionDef = {
  collection: 'posts',
  primaryKey: 'id',
  fields: [
    field('id', 'integer', { is_primary_key: true, has_auto_increment: true, is_nullable: false }),
    field('title', 'string', { is_nullable: false, max_length: 20 }),
    field('body', 'text'),
    field('views', 'integer', { is_nullable: false, default_value: 0 }),
    field('published', 'boolean'),
  ],
  meta: null,
  schema: null,
  relations: [],
};

/** A collection keyed by a generated uuid. */
export const notes: CollectionDef = {
  collection: 'notes',
  primaryKey: 'uid',
  fields: [field('uid', 'uuid', { is_primary_key: true, is_nullable: false }), field('text', 'text')],
  meta: null,
  schema: null,
  relations: [],
};

/** What a call threw, as the API would answer it: status, code and extensions (fails the test when nothing was thrown). */
export function thrown(fn: () => unknown): { status: number; code: string; extensions: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { status: e.status, code: e.code, extensions: { ...e.extensions } };
  }
  throw new Error('expected an error, nothing was thrown');
}
