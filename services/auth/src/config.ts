import {
  loadConfig,
  processVariables,
  databaseServiceVariables,
  queryLimitVariables,
  rateLimiterVariables,
  sessionCookieVariables,
  loadMessagingSettings,
  z,
  duration,
  int,
  list,
  type Env,
  type MessagingSettings,
} from '@vellum/config';
import { loadOAuthProviders, type OAuthProviderConfig } from './oauth-config';

const shape = {
  ...processVariables,
  ...databaseServiceVariables,
  ACCESS_TOKEN_TTL: duration('15m'),
  REFRESH_TOKEN_TTL: duration('7d'),
  SESSION_COOKIE_TTL: duration('1d'),
  SESSION_MAX_LIFETIME: duration('30d'),
  REFRESH_TOKEN_REUSE_INTERVAL: duration('10s'),
  REFRESH_TOKEN_COOKIE_NAME: z.string().default('vellum_refresh_token'),
  ...sessionCookieVariables,
  /** Unset = on when PUBLIC_URL is https. */
  COOKIE_SECURE: z.enum(['true', 'false', '1', '0']).optional(),
  COOKIE_DOMAIN: z.string().optional(),

  /** The longest expiry an API token may be created with (`POST /users/me/tokens`). */
  API_TOKEN_MAX_TTL: duration('365d'),

  LOGIN_STALL_TIME: duration('500'),
  /**
   * Failed logins per account bucket (docs/api.md "Login protection"): past AUTH_LOGIN_ATTEMPTS failures in a window
   * of AUTH_LOGIN_ATTEMPTS_WINDOW the bucket refuses logins until the window ends. One bucket per trusted device
   * (a device cookie), one shared by every untrusted client of the account.
   */
  AUTH_LOGIN_ATTEMPTS: int(10, { min: 1 }),
  AUTH_LOGIN_ATTEMPTS_WINDOW: duration('1h'),
  /** Wrong TOTP codes per account (all devices together) and their window. */
  AUTH_OTP_ATTEMPTS: int(5, { min: 1 }),
  AUTH_OTP_ATTEMPTS_WINDOW: duration('5m'),
  /** Untrusted failures per minute across all accounts that switch on proof of work (0 = never). */
  AUTH_SPRAY_THRESHOLD: int(100, { min: 0 }),
  /** How long proof of work stays required once switched on, and its difficulty (leading zero bits of SHA-256). */
  AUTH_POW_DURATION: duration('15m'),
  AUTH_POW_DIFFICULTY: int(16, { min: 1, max: 32 }),
  /** The device cookie (signed, HttpOnly) that marks a browser or client a user has logged in from. */
  DEVICE_COOKIE_NAME: z.string().default('vellum_device'),
  DEVICE_COOKIE_TTL: duration('365d'),
  /**
   * Failed logins counted per client address, and per (address, account), in a window from the first failure;
   * past either budget a login answers 429 REQUESTS_EXCEEDED until the window ends (0 = that limit off).
   * A successful login forgets the (address, account) count.
   */
  AUTH_LOGIN_FAILURES_PER_ADDRESS: int(50, { min: 0 }),
  AUTH_LOGIN_FAILURES_PER_ACCOUNT: int(10, { min: 0 }),
  AUTH_LOGIN_FAILURE_WINDOW: duration('15m'),
  /** Where the failures are counted: redis (every auth replica, the default when REDIS_URL is set) or memory. */
  AUTH_LOGIN_LIMIT_STORE: z.enum(['memory', 'redis']).optional(),
  REDIS_URL: z.string().optional(),
  AUTH_PASSWORD_POLICY: z.string().optional(),
  PASSWORD_RESET_TOKEN_TTL: duration('1h'),
  PASSWORD_RESET_URL_ALLOW_LIST: list(),

  /** Lists (`/users`, `/roles`, `/permissions`). */
  ...queryLimitVariables,
  ...rateLimiterVariables(true),

  /** argon2id parameters (OWASP minimum: m = 19 MiB, t = 2, p = 1). */
  ARGON2_MEMORY_KIB: int(19456, { min: 19456 }),
  ARGON2_ITERATIONS: int(2, { min: 2 }),
  ARGON2_PARALLELISM: int(1, { min: 1 }),
  /** Hashes computed at once (default: the number of CPUs) and waiting at most; beyond → 503. */
  HASH_CONCURRENCY: int(0, { min: 0 }),
  HASH_QUEUE_LIMIT: int(0, { min: 0 }),

  /** ES256 private key (PEM); AUTH_PRIVATE_KEY_FILE works too. */
  AUTH_PRIVATE_KEY: z.string().optional(),
  AUTH_KEY_ID: z.string().optional(),
  /** JSON: a JWKS `{"keys":[…]}` or an array of JWKs with `kid` — old keys still accepted for verification. */
  AUTH_PREVIOUS_PUBLIC_KEYS: z.string().optional(),
  /** Without AUTH_PRIVATE_KEY: a key pair is generated once into this directory (e.g. ./data/keys). */
  AUTH_KEYS_DIR: z.string().optional(),

  /** 32 bytes (hex or base64) encrypting TOTP secrets at rest; AUTH_TFA_ENCRYPTION_KEY_FILE works too. */
  AUTH_TFA_ENCRYPTION_KEY: z.string().optional(),
  /** The issuer shown in authenticator apps and the project named in invitation mails. */
  PROJECT_NAME: z.string().default('Vellum'),
  USER_INVITE_TOKEN_TTL: duration('7d'),
  USER_INVITE_URL_ALLOW_LIST: list(),

  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().optional(),
};

export type AuthConfig = Omit<ReturnType<typeof loadConfig<typeof shape>>, 'COOKIE_SECURE'> & {
  COOKIE_SECURE: boolean;
  /** AUTH_PROVIDERS and their AUTH_<NAME>_* settings. */
  providers: OAuthProviderConfig[];
};

export function loadAuthConfig(env: Env = process.env): AuthConfig {
  const c = loadConfig(shape, env);
  const secure = c.COOKIE_SECURE === undefined ? c.PUBLIC_URL.startsWith('https:') : ['true', '1'].includes(c.COOKIE_SECURE);
  return { ...c, COOKIE_SECURE: secure, providers: loadOAuthProviders(env) };
}

/** NATS settings (@vellum/config's one loader: NATS_URL required, NATS_PREFIX, credentials, TLS), read by main.ts only. */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings => loadMessagingSettings(env, { name: 'auth' });

/** The process environment, for the admin CLI (configuration is read from it only through this file). */
export const processEnv = (): Env => process.env;
