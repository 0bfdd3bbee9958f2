import { accessSync, constants } from 'node:fs';
import { z } from 'zod';
import { ConfigError, loadConfig, type Env } from './load-config';

/** How a process connects to NATS: the same variables, defaults and checks in every process. */
export interface MessagingSettings {
  /** NATS_URL: one URL or a comma-separated list. */
  servers: string;
  /** NATS_PREFIX: prepended to stream/bucket names and subjects ('' = none). */
  prefix: string;
  /** NATS_NAME, default the process's name: the connection name the server shows. */
  name: string;
  /** NATS_REPLICAS: copies of each stream and bucket in a JetStream cluster (unset: the server's default, 1). */
  replicas?: number;
  user?: string;
  password?: string;
  token?: string;
  /** A NATS credentials file (JWT + nkey seed; decentralised auth). */
  credsFile?: string;
  /** TLS: the CA that signed the server's certificate, and a client certificate for mutual TLS. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

/** Every variable the loader reads (each secret also as `<NAME>_FILE`). */
export const MESSAGING_VARIABLES = [
  'NATS_URL',
  'NATS_PREFIX',
  'NATS_NAME',
  'NATS_REPLICAS',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
  'NATS_CREDS_FILE',
  'NATS_TLS_CA_FILE',
  'NATS_TLS_CERT_FILE',
  'NATS_TLS_KEY_FILE',
] as const;

const SCHEMES = ['nats:', 'tls:', 'ws:', 'wss:'];

const shape = {
  NATS_URL: z.string().refine(
    (v) =>
      v.split(',').every((u) => {
        try {
          return SCHEMES.includes(new URL(u.trim()).protocol);
        } catch {
          return false;
        }
      }),
    { message: 'must be nats://host:port (or tls://, ws://, wss://), several separated by commas' },
  ),
  NATS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, 'only letters, digits, "_" and "-"')
    .default(''),
  NATS_NAME: z.string().optional(),
  NATS_REPLICAS: z.coerce.number().int().min(1).max(5).optional(),
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  NATS_TOKEN: z.string().optional(),
  NATS_CREDS_FILE: z.string().optional(),
  NATS_TLS_CA_FILE: z.string().optional(),
  NATS_TLS_CERT_FILE: z.string().optional(),
  NATS_TLS_KEY_FILE: z.string().optional(),
};

/**
 * The messaging settings of a process of the distributed topology. NATS_URL is required (no silent default to
 * localhost); at most one way to authenticate (user + password, token, or credentials file); files must be
 * readable; every problem is reported at once, naming its variable.
 */
export function loadMessagingSettings(env: Env, defaults: { name: string }): MessagingSettings {
  const c = loadConfig(shape, env);
  const problems: string[] = [];
  if (c.NATS_PASSWORD !== undefined && c.NATS_USER === undefined) problems.push('NATS_USER: is required with NATS_PASSWORD');
  if (c.NATS_USER !== undefined && c.NATS_PASSWORD === undefined) problems.push('NATS_PASSWORD: is required with NATS_USER');
  const methods = [c.NATS_USER !== undefined && 'NATS_USER', c.NATS_TOKEN !== undefined && 'NATS_TOKEN', c.NATS_CREDS_FILE !== undefined && 'NATS_CREDS_FILE'];
  if (methods.filter(Boolean).length > 1) problems.push(`${methods.filter(Boolean).join(', ')}: choose one way to authenticate`);
  if ((c.NATS_TLS_CERT_FILE === undefined) !== (c.NATS_TLS_KEY_FILE === undefined)) {
    problems.push('NATS_TLS_CERT_FILE, NATS_TLS_KEY_FILE: a client certificate needs both');
  }
  for (const key of ['NATS_CREDS_FILE', 'NATS_TLS_CA_FILE', 'NATS_TLS_CERT_FILE', 'NATS_TLS_KEY_FILE'] as const) {
    const file = c[key];
    if (file === undefined) continue;
    try {
      accessSync(file, constants.R_OK);
    } catch (e) {
      problems.push(`${key}: cannot read "${file}" (${(e as Error).message})`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  const tls =
    c.NATS_TLS_CA_FILE || c.NATS_TLS_CERT_FILE ? { caFile: c.NATS_TLS_CA_FILE, certFile: c.NATS_TLS_CERT_FILE, keyFile: c.NATS_TLS_KEY_FILE } : undefined;
  return {
    servers: c.NATS_URL,
    prefix: c.NATS_PREFIX,
    name: c.NATS_NAME ?? defaults.name,
    ...(c.NATS_REPLICAS !== undefined && { replicas: c.NATS_REPLICAS }),
    ...(c.NATS_USER !== undefined && { user: c.NATS_USER, password: c.NATS_PASSWORD }),
    ...(c.NATS_TOKEN !== undefined && { token: c.NATS_TOKEN }),
    ...(c.NATS_CREDS_FILE !== undefined && { credsFile: c.NATS_CREDS_FILE }),
    ...(tls && { tls }),
  };
}

/** The same, or undefined when NATS_URL is unset (processes that run without NATS: the gateway, `npm start`). */
export function loadOptionalMessagingSettings(env: Env, defaults: { name: string }): MessagingSettings | undefined {
  return env.NATS_URL ? loadMessagingSettings(env, defaults) : undefined;
}
