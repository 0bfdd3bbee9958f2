import { AppError, errors } from '@vellum/errors';
import type { Queryable } from '../data/items-pool';
import { versionsRepository } from '../data/versions.repository';

/**
 * A promote's write refused for the item's version (412 from its own statement) as the 422 VERSION_HASH_MISMATCH of
 * a promote, with the item's hash now; any other error as it is. Used by `POST /versions/:id/promote` and the scheduler.
 */
export async function asHashMismatch(e: unknown, db: Queryable, collection: string, item: string): Promise<never> {
  if (!(e instanceof AppError) || e.code !== 'PRECONDITION_FAILED') throw e;
  const now = e.extensions.version;
  throw errors.versionHashMismatch(now === undefined ? await versionsRepository.mainHash(db, collection, item) : String(now));
}
