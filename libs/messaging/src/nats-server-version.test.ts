import { assertSupportedServer, compareVersions } from './nats-server-version';

describe('nats-server version check', () => {
  it('compares major.minor.patch numerically', () => {
    expect(compareVersions('2.9.10', '2.9.0')).toBeGreaterThan(0);
    expect(compareVersions('2.10.0', '2.9.25')).toBeGreaterThan(0);
    expect(compareVersions('2.8.4', '2.9.0')).toBeLessThan(0);
    expect(compareVersions('v2.9.0', '2.9.0')).toBe(0);
    expect(compareVersions('2.11.0-beta.1', '2.9.0')).toBeGreaterThan(0);
  });

  it('accepts 2.9 and newer with JetStream', () => {
    expect(() => assertSupportedServer({ version: '2.9.10', jetstream: true }, 'nats://x:4222')).not.toThrow();
    expect(() => assertSupportedServer({ version: '2.12.1', jetstream: true }, 'nats://x:4222')).not.toThrow();
  });

  it('refuses older servers, unknown versions and servers without JetStream with a clear message', () => {
    expect(() => assertSupportedServer({ version: '2.8.4', jetstream: true }, 'nats://x:4222')).toThrow(
      'nats-server 2.8.4 at nats://x:4222 is not supported: Vellum needs nats-server 2.9.0 or newer',
    );
    expect(() => assertSupportedServer({}, 'nats://x:4222')).toThrow('nats-server unknown at nats://x:4222 is not supported');
    expect(() => assertSupportedServer({ version: '2.10.0', jetstream: false }, 'nats://x:4222')).toThrow('runs without JetStream: start it with -js');
  });
});
