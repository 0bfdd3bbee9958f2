import type { Pool } from 'pg';
import type { CatalogueSource } from '../data/catalogue-cache';
import type { AccessRules } from './access-rules';
import type { HistoryBackPressure } from './history-back-pressure';

export interface ItemsDeps {
  pool: Pool;
  rules: AccessRules;
  now: () => Date;
  limits: { limitDefault: number; limitMax?: number };
  /** Holds or refuses writes while the history is too far behind (none: never). */
  history?: Pick<HistoryBackPressure, 'admit'>;
  /** Nested rows one write may change (MAX_BATCH_MUTATION; default 1,000): 400 beyond. */
  maxBatchMutation?: number;
  /** Collection definitions for reads (CatalogueCache); none: read from the database each time. */
  catalogue?: CatalogueSource;
  /** How deep a read may follow relations (MAX_RELATIONAL_DEPTH; default 10). */
  maxRelationalDepth?: number;
}
