import { loadConfig, ConfigError, trustProxy } from './index';

const parse = (v?: string) => loadConfig({ TRUST_PROXY: trustProxy() }, v === undefined ? {} : { TRUST_PROXY: v }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('trusts nobody by default', () => {
    expect(parse()).toBe(false);
    expect(parse('')).toBe(false);
    expect(parse('false')).toBe(false);
  });

  it('reads a hop count, true, and lists of addresses, subnets and presets', () => {
    expect(parse('1')).toBe(1);
    expect(parse('true')).toBe(true);
    expect(parse(' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,loopback,192.168.0.0/255.255.0.0, ::1')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
      '192.168.0.0/255.255.0.0',
      '::1',
    ]);
  });

  it('fails at start on an entry that is not an address, subnet or preset', () => {
    for (const bad of ['ingress', '10.0.0.0/33', '10.0.0.1/8/2', 'fd00::/129', '300.1.1.1', 'fd00::/255.0.0.0']) {
      expect(() => parse(bad)).toThrow(ConfigError);
    }
    expect(() => parse('loopback, nginx')).toThrow(/"nginx"/);
  });
});
