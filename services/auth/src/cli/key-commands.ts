import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadAuthConfig } from '../config';
import { loadSigningKeys } from '../data/signing-keys';
import { derivedTfaKey, parseTfaKey } from '../data/tfa-key';
import { reencryptTfaSecrets } from '../domain/reencrypt-tfa-secrets';
import { SecretBox } from '../domain/secret-box';
import { withAuthContext } from './auth-context';
import { CliError, type Command, type Values } from './command';

const generateTfaKey: Command = {
  name: 'generate-tfa-key',
  summary: 'print a new random TFA encryption key (64 hex digits) for AUTH_TFA_ENCRYPTION_KEY',
  usage: '',
  help: 'Nothing is changed. To move enrolled secrets to it, see rotate-tfa-key.',
  options: {},
  async run(_values, io) {
    io.out(randomBytes(32).toString('hex'));
    return 0;
  },
};

/** The key the secrets are sealed with today, from exactly one of the three flags. */
function oldKey(values: Values, env: Record<string, string | undefined>): Buffer {
  const given = ['old-key', 'old-key-file', 'old-from-signing-key'].filter((k) => values[k] !== undefined && values[k] !== false);
  if (given.length !== 1) throw new CliError('give exactly one of --old-key, --old-key-file, --old-from-signing-key', 2);
  try {
    if (values['old-key']) return parseTfaKey(String(values['old-key']));
    if (values['old-key-file']) return parseTfaKey(readFileSync(String(values['old-key-file']), 'utf8'));
    const config = loadAuthConfig(env);
    if (!config.AUTH_PRIVATE_KEY && !config.AUTH_KEYS_DIR) throw new Error('--old-from-signing-key needs AUTH_PRIVATE_KEY (or AUTH_KEYS_DIR)');
    return derivedTfaKey(loadSigningKeys(config).privateKey);
  } catch (e) {
    throw new CliError(`old key: ${(e as Error).message.replace(/\s*\n\s*/g, ' ')}`);
  }
}

const rotateTfaKey: Command = {
  name: 'rotate-tfa-key',
  summary: 'move every enrolled TFA secret from the old encryption key to AUTH_TFA_ENCRYPTION_KEY',
  usage: '(--old-key <key> | --old-key-file <file> | --old-from-signing-key) [--force]',
  help:
    'Set AUTH_TFA_ENCRYPTION_KEY (or _FILE) to the NEW key, name the old one, run this, then deploy the new key.\n' +
    'One transaction: every secret moves or none does. Re-running is safe (secrets already under the new key are\n' +
    'skipped). --old-from-signing-key: the old key was derived from AUTH_PRIVATE_KEY (deployments that did not set\n' +
    'AUTH_TFA_ENCRYPTION_KEY). Secrets that open with neither key abort the rotation unless --force.',
  options: { 'old-key': { type: 'string' }, 'old-key-file': { type: 'string' }, 'old-from-signing-key': { type: 'boolean' }, force: { type: 'boolean' } },
  async run(values, io) {
    const from = new SecretBox(oldKey(values, io.env));
    if (!io.env.AUTH_TFA_ENCRYPTION_KEY && !io.env.AUTH_TFA_ENCRYPTION_KEY_FILE)
      throw new CliError('set AUTH_TFA_ENCRYPTION_KEY (or AUTH_TFA_ENCRYPTION_KEY_FILE) to the new key first', 2);
    return withAuthContext(io.env, async (ctx) => {
      const r = await reencryptTfaSecrets(ctx.pg, from, ctx.secrets, values.force === true);
      if (r.unreadable > 0 && values.force !== true)
        throw new CliError(`${r.unreadable} TFA secret(s) open with neither key: nothing changed (check the old key, or --force)`);
      io.out(`re-encrypted ${r.reencrypted}, already under the new key ${r.alreadyNew}, unreadable ${r.unreadable}`);
      return 0;
    });
  },
};

const rotateSigningKey: Command = {
  name: 'rotate-signing-key',
  summary: 'write a new ES256 signing key and print AUTH_PREVIOUS_PUBLIC_KEYS keeping the current one valid',
  usage: '--out <file for the new private key>',
  help:
    'Reads the current key from AUTH_PRIVATE_KEY (or _FILE, or AUTH_KEYS_DIR). Writes the new key (PEM, mode 0600)\n' +
    'and prints the JSON to set as AUTH_PREVIOUS_PUBLIC_KEYS beside the new AUTH_PRIVATE_KEY: tokens signed with the\n' +
    'old key keep verifying (JWKS) until they expire — drop it from the list after ACCESS_TOKEN_TTL.\n' +
    'Set AUTH_TFA_ENCRYPTION_KEY before rotating: without it the TFA key is derived from the signing key.',
  options: { out: { type: 'string' } },
  async run(values, io) {
    if (typeof values.out !== 'string' || !values.out) throw new CliError('--out is required', 2);
    let current;
    try {
      const config = loadAuthConfig(io.env);
      if (!config.AUTH_PRIVATE_KEY && !config.AUTH_KEYS_DIR) throw new Error('no current key: set AUTH_PRIVATE_KEY (or AUTH_KEYS_DIR)');
      current = loadSigningKeys(config);
    } catch (e) {
      throw new CliError((e as Error).message.replace(/\s*\n\s*/g, ' '));
    }
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    try {
      writeFileSync(values.out, pem, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      throw new CliError(`cannot write ${values.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    io.out(JSON.stringify({ keys: current.jwks.keys }));
    return 0;
  },
};

export const keyCommands: Command[] = [generateTfaKey, rotateTfaKey, rotateSigningKey];
