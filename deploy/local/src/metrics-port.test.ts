import net from 'node:net';
import { chooseMetricsPort } from './metrics-port';

describe('chooseMetricsPort', () => {
  it('the default port when free; a free one (0) with a warning when taken; an explicit METRICS_PORT as is', async () => {
    const held = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => held.once('listening', r));
    const taken = (held.address() as net.AddressInfo).port;
    const warnings: string[] = [];
    const logger = { warn: (_o: object, m?: string) => void warnings.push(m ?? '') };
    expect(await chooseMetricsPort({ port: taken, explicit: false, host: '127.0.0.1' }, logger)).toBe(0);
    expect(warnings).toEqual([expect.stringContaining(`metrics port ${taken} is taken`)]);
    expect(await chooseMetricsPort({ port: taken, explicit: true, host: '127.0.0.1' }, logger)).toBe(taken);
    await new Promise((r) => held.close(r));
    expect(await chooseMetricsPort({ port: taken, explicit: false, host: '127.0.0.1' }, logger)).toBe(taken);
    expect(warnings).toHaveLength(1);
  });
});
