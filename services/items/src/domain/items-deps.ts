import type { Pool } from 'pg';
import type { AccessRules } from './access-rules';

export interface ItemsDeps {
  pool: Pool;
  rules: AccessRules;
  now: () => Date;
  limits: { limitDefault: number; limitMax?: number };
}
