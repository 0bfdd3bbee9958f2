import type { Pool } from 'pg';
import { withTransaction } from '@vellum/db';
import type { SecretBox } from './secret-box';

export interface ReencryptResult {
  /** Values sealed again under the new key. */
  reencrypted: number;
  /** Values that already open with the new key (a re-run after a partial rotation, or nothing to do). */
  alreadyNew: number;
  /** Values that open with neither key (nothing was changed when there are any and `force` is off). */
  unreadable: number;
}

const COLUMNS = ['tfa_secret', 'tfa_pending_secret'] as const;
/** The additional data binding a sealed TFA secret to its user (as tfa.use-case.ts seals it). */
const aad = (userId: string) => `tfa:${userId}`;

/**
 * Re-encrypts every TOTP secret (enabled and pending) from `from` to `to` in one transaction, rows locked: either
 * every value moves to the new key or nothing changes. Idempotent: a value that already opens with `to` is left
 * alone. Values that open with neither key abort the rotation unless `force` (they are then left as they are; those
 * users must enrol TFA again).
 */
export async function reencryptTfaSecrets(pg: Pool, from: SecretBox, to: SecretBox, force = false): Promise<ReencryptResult> {
  return withTransaction(pg, async (client) => {
    const result: ReencryptResult = { reencrypted: 0, alreadyNew: 0, unreadable: 0 };
    const { rows } = await client.query<{ id: string; tfa_secret: string | null; tfa_pending_secret: string | null }>(
      'SELECT id, tfa_secret, tfa_pending_secret FROM users WHERE tfa_secret IS NOT NULL OR tfa_pending_secret IS NOT NULL FOR UPDATE',
    );
    const updates: { id: string; column: (typeof COLUMNS)[number]; value: string }[] = [];
    for (const row of rows) {
      for (const column of COLUMNS) {
        const sealed = row[column];
        if (!sealed) continue;
        if (to.open(sealed, aad(row.id)) !== undefined) {
          result.alreadyNew++;
          continue;
        }
        const plain = from.open(sealed, aad(row.id));
        if (plain === undefined) result.unreadable++;
        else updates.push({ id: row.id, column, value: to.seal(plain, aad(row.id)) });
      }
    }
    // nothing is written before this point: committing here changes nothing (and releases the row locks)
    if (result.unreadable > 0 && !force) return result;
    for (const u of updates) await client.query(`UPDATE users SET ${u.column} = $2 WHERE id = $1`, [u.id, u.value]);
    result.reencrypted = updates.length;
    return result;
  });
}
