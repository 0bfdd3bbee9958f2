import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadMessagingSettings, loadOptionalMessagingSettings } from './index';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadMessagingSettings(env, { name: 'auth' });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('loadMessagingSettings (one loader for every process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nats-cfg-'));
  const file = (name: string, content: string) => (writeFileSync(join(dir, name), content), join(dir, name));

  it('requires NATS_URL: no silent default to localhost', () => {
    expect(problems({})).toEqual(['NATS_URL: is required']);
    expect(() => loadMessagingSettings({ NATS_URL: '' }, { name: 'auth' })).toThrow(/NATS_URL: is required/);
  });

  it('reads the URL list, the prefix and the connection name (default: the process)', () => {
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222, tls://b:4222' }, { name: 'items' })).toEqual({
      servers: 'nats://a:4222, tls://b:4222',
      prefix: '',
      name: 'items',
    });
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_PREFIX: 'tenant_1', NATS_NAME: 'items-7' }, { name: 'items' })).toMatchObject({
      prefix: 'tenant_1',
      name: 'items-7',
    });
  });

  it('rejects a URL that is not NATS and a prefix that cannot be a subject token', () => {
    expect(problems({ NATS_URL: 'http://a:4222' })).toEqual([expect.stringMatching(/^NATS_URL: must be nats:\/\//)]);
    expect(problems({ NATS_URL: 'nats://a:4222,nonsense' })).toEqual([expect.stringMatching(/^NATS_URL: /)]);
    expect(problems({ NATS_URL: 'nats://a:4222', NATS_PREFIX: 'a.b' })).toEqual([expect.stringMatching(/^NATS_PREFIX: /)]);
  });

  it('NATS_REPLICAS: copies of each stream and bucket, 1 to 5 (unset: not passed, the server decides)', () => {
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_REPLICAS: '3' }, { name: 'x' })).toMatchObject({ replicas: 3 });
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222' }, { name: 'x' })).not.toHaveProperty('replicas');
    for (const bad of ['0', '6', '2.5', 'three'])
      expect(problems({ NATS_URL: 'nats://a:4222', NATS_REPLICAS: bad })).toEqual([expect.stringMatching(/^NATS_REPLICAS: /)]);
  });

  it('user + password (the password also from NATS_PASSWORD_FILE), token, or a credentials file', () => {
    const secret = file('password', 's3cret\n');
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_USER: 'u', NATS_PASSWORD_FILE: secret }, { name: 'x' })).toMatchObject({
      user: 'u',
      password: 's3cret',
    });
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_TOKEN: 't' }, { name: 'x' })).toMatchObject({ token: 't' });
    const creds = file('user.creds', '-----BEGIN NATS USER JWT-----\n');
    expect(loadMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_CREDS_FILE: creds }, { name: 'x' })).toMatchObject({ credsFile: creds });
    expect(problems({ NATS_URL: 'nats://a:4222', NATS_USER: 'u' })).toEqual(['NATS_PASSWORD: is required with NATS_USER']);
    expect(problems({ NATS_URL: 'nats://a:4222', NATS_PASSWORD: 'p' })).toEqual(['NATS_USER: is required with NATS_PASSWORD']);
    expect(problems({ NATS_URL: 'nats://a:4222', NATS_USER: 'u', NATS_PASSWORD: 'p', NATS_TOKEN: 't' })).toEqual([
      'NATS_USER, NATS_TOKEN: choose one way to authenticate',
    ]);
  });

  it('TLS files must be readable; a client certificate needs its key', () => {
    const ca = file('ca.pem', 'CA');
    expect(loadMessagingSettings({ NATS_URL: 'tls://a:4222', NATS_TLS_CA_FILE: ca }, { name: 'x' }).tls).toEqual({ caFile: ca });
    const cert = file('cert.pem', 'C');
    const key = file('key.pem', 'K');
    expect(loadMessagingSettings({ NATS_URL: 'tls://a:4222', NATS_TLS_CERT_FILE: cert, NATS_TLS_KEY_FILE: key }, { name: 'x' }).tls).toEqual({
      certFile: cert,
      keyFile: key,
    });
    expect(problems({ NATS_URL: 'tls://a:4222', NATS_TLS_CERT_FILE: cert })).toEqual([
      'NATS_TLS_CERT_FILE, NATS_TLS_KEY_FILE: a client certificate needs both',
    ]);
    expect(problems({ NATS_URL: 'tls://a:4222', NATS_TLS_CA_FILE: join(dir, 'missing.pem') })).toEqual([
      expect.stringMatching(/^NATS_TLS_CA_FILE: cannot read ".*missing\.pem"/),
    ]);
  });

  it('optional variant: undefined without NATS_URL, the same checks with it', () => {
    expect(loadOptionalMessagingSettings({}, { name: 'gateway' })).toBeUndefined();
    expect(loadOptionalMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_PREFIX: 'p' }, { name: 'gateway' })).toMatchObject({ prefix: 'p', name: 'gateway' });
    expect(() => loadOptionalMessagingSettings({ NATS_URL: 'nats://a:4222', NATS_PREFIX: 'a b' }, { name: 'gateway' })).toThrow(ConfigError);
  });
});
