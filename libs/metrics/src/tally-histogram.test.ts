import { Histogram, Registry } from 'prom-client';
import { TallyHistogram } from './tally-histogram';

describe('TallyHistogram', () => {
  const buckets = [0.005, 0.01, 0.1, 1];
  const labelNames = ['service', 'route', 'status'];
  const observations: [Record<string, string>, number][] = [
    [{ service: 'a', route: '/x', status: '200' }, 0.005], // on a bound: counted in that bucket (le is inclusive)
    [{ service: 'a', route: '/x', status: '200' }, 0.0051],
    [{ service: 'a', route: '/x', status: '200' }, 0],
    [{ service: 'a', route: '/x', status: '500' }, 3], // above every bound: only +Inf
    [{ service: 'b', route: '/y "q"\\', status: '200' }, 0.25],
    [{ service: 'a', route: '/x', status: '200' }, 1],
  ];

  it('is exposed exactly as prom-client’s Histogram (lines, order, default labels, escaping)', async () => {
    const text = async (make: (r: Registry) => (labels: Record<string, string>, v: number) => void) => {
      const registry = new Registry();
      registry.setDefaultLabels({ pod: 'p-1' });
      const observe = make(registry);
      for (const [labels, v] of observations) observe(labels, v);
      return registry.metrics();
    };
    const ours = await text((r) => {
      const h = new TallyHistogram('t_seconds', 'help text', labelNames, buckets, r);
      return (labels, v) => h.series(labels).observe(v);
    });
    const theirs = await text((r) => {
      const h = new Histogram({ name: 't_seconds', help: 'help text', labelNames, buckets, registers: [r] });
      return (labels, v) => h.labels(labels).observe(v);
    });
    expect(ours).toBe(theirs);
    expect(ours).toContain('t_seconds_bucket{le="0.005",pod="p-1",service="a",route="/x",status="200"} 2');
  });

  it('a series found once keeps adding; a value that is not a finite number is left out, not thrown', async () => {
    const registry = new Registry();
    const h = new TallyHistogram('u_seconds', 'u', ['k'], buckets, registry);
    const s = h.series({ k: 'v' });
    s.observe(0.05);
    s.observe(Number.NaN);
    h.series({ k: 'v' }).observe(2);
    const text = await registry.metrics();
    expect(text).toContain('u_seconds_count{k="v"} 2');
    expect(text).toContain('u_seconds_sum{k="v"} 2.05');
    expect(text).toContain('u_seconds_bucket{le="0.1",k="v"} 1');
    h.reset();
    expect(await registry.metrics()).not.toContain('u_seconds_count');
  });
});
