import { errors } from '@vellum/errors';

/** PostgreSQL constraint errors of a write → 400 FAILED_VALIDATION (anything else is rethrown as is). */
export function mapWriteError(e: unknown): never {
  const err = e as { code?: string; column?: string; detail?: string; constraint?: string };
  const fieldFromDetail = () => /Key \("?([a-z0-9_]+)"?\)=/.exec(err.detail ?? '')?.[1] ?? err.column ?? 'unknown';
  switch (err.code) {
    case '23505':
      throw errors.failedValidation(fieldFromDetail(), 'unique', `Value for field "${fieldFromDetail()}" has to be unique.`);
    case '23001': // restrict_violation: a delete of a row other rows hold with on_delete RESTRICT (PostgreSQL 18; 23503 before)
    case '23503': {
      // a key the related collection does not have, or (a delete) a row other rows still hold with on_delete RESTRICT / NO ACTION
      const table = /table "([a-z0-9_]+)"/.exec(err.detail ?? '')?.[1] ?? 'unknown';
      const held = err.code === '23001' || /(still )?referenced from table/.test(err.detail ?? '');
      throw errors.failedValidation(
        fieldFromDetail(),
        'relation',
        held ? `The item is still related to items of "${table}".` : `Value for field "${fieldFromDetail()}" has no related item in "${table}".`,
      );
    }
    case '23502':
      throw errors.failedValidation(err.column ?? 'unknown', 'nnull', `Value for field "${err.column}" can't be null.`);
    case '22003': // numeric out of range
    case '22P02': // invalid text representation
    case '22007': // invalid datetime format
    case '22008': // datetime out of range
    case '22001': // string too long
      throw errors.failedValidation(err.column ?? 'unknown', 'type', 'A value does not fit its field type.');
    default:
      throw e;
  }
}

/**
 * A delete's constraint errors: a row still held (on_delete RESTRICT / NO ACTION: 23503), or held by rows whose
 * key field the foreign key's SET NULL cannot empty (23502: a relation made before such fields were refused).
 */
export function mapDeleteError(e: unknown): never {
  const err = e as { code?: string; column?: string; table?: string };
  if (err.code === '23502') {
    const message = `The item is still related to items of "${err.table}", whose field "${err.column}" can't be null.`;
    throw errors.failedValidation(err.column ?? 'unknown', 'relation', message);
  }
  return mapWriteError(e);
}
