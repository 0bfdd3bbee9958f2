import { loadLocalConfig, trustBehindGateway } from '../src/config';

describe('embedded topology: the services trust the in-process gateway and what it trusts', () => {
  it('nothing in front of the gateway (default): the services trust loopback (the gateway) only', () => {
    expect(loadLocalConfig({}).servicesTrustProxy).toBe('loopback');
  });

  it('a proxy in front of the gateway: one hop more, or its addresses besides loopback', () => {
    expect(trustBehindGateway(1)).toBe('2');
    expect(trustBehindGateway(['10.0.0.7', '192.168.0.0/16'])).toBe('loopback,10.0.0.7,192.168.0.0/16');
    expect(trustBehindGateway(true)).toBe('true');
    expect(loadLocalConfig({ TRUST_PROXY: '10.0.0.7' }).servicesTrustProxy).toBe('loopback,10.0.0.7');
  });
});
