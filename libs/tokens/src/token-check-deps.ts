import type { ApiTokenEntry } from '@vellum/contracts';
import type { ApiTokenSource } from './api-tokens';
import type { RevocationCheck } from './revocation';
import type { TokenVerifier } from './token-verifier';

/** How a service that serves end users (items, revisions) checks their tokens: wired from this library's watchers. */
export interface TokenCheckDeps {
  verifier: TokenVerifier;
  /** Session-mode tokens die at once on logout. */
  isSessionRevoked?: RevocationCheck;
  /** The API-tokens map (watched from messaging): API tokens are verified against it, with no call to auth. */
  apiTokens?: ApiTokenSource;
  onTokenUse?: (entry: ApiTokenEntry) => void;
  now?: () => Date;
}
