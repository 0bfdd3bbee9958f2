import type { Pool } from 'pg';
import type { Logger } from '@vellum/logger';
import type { AuthConfig } from '../config';
import type { Db } from '../data/prisma';
import type { SigningKeys } from '../data/signing-keys';
import type { Clock } from './clock';
import type { DeviceCookieSealer } from './device-cookie';
import type { LoginBuckets } from './login-buckets';
import type { LoginThrottle } from './login-throttle';
import type { ProofOfWork } from './proof-of-work';
import type { PasswordHasher } from './password-hasher';
import type { OAuthClients } from './oauth-client';
import type { OAuthStateSealer } from './oauth-state';
import type { SecretBox } from './secret-box';
import type { TokenIssuer } from './token-issuer';

/** Everything a use case needs. */
export interface AuthContext {
  db: Db;
  /** The `pg` pool under `db` (the same connections): plain SQL for the login hot path. */
  pg: Pool;
  config: AuthConfig;
  clock: Clock;
  keys: SigningKeys;
  tokens: TokenIssuer;
  hasher: PasswordHasher;
  /** Failed logins per address and per (address, account): 429 past the budget. */
  loginThrottle: LoginThrottle;
  /** Failed logins per account bucket (per trusted device, one untrusted), TOTP budget, spray detection. */
  buckets: LoginBuckets;
  /** Signs and opens device cookies. */
  devices: DeviceCookieSealer;
  /** Challenges untrusted logins during a password spray. */
  pow: ProofOfWork;
  /** Seals secrets at rest (TOTP). */
  secrets: SecretBox;
  /** OAuth/OpenID providers' client configurations and the state-cookie sealer. */
  oauth: { clients: OAuthClients; states: OAuthStateSealer };
  logger: Logger;
  /** Counts a login attempt by outcome (metrics). */
  countLogin?: (outcome: string) => void;
  /**
   * Resolves once what this process has committed so far is published (bounded: then it resolves anyway): a new
   * API token's entry is in the tokens bucket before its creation is answered, so it works at once everywhere.
   */
  published?: () => Promise<void>;
}

export type { AuthMode as Mode } from '@vellum/contracts';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
}
