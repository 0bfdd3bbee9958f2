import { Gauge, type Registry } from 'prom-client';
import { singleMetric } from './registry';

type Labels = Record<string, string>;
/** Reads the current value(s) at scrape time: one number, or one number per extra label set. */
export type Sample = () => number | Promise<number>;

interface Source {
  labels: Labels;
  sample: Sample;
}

const sources = new WeakMap<Gauge, Source[]>();

/**
 * A gauge read at scrape time from any number of sources (a pool, an outbox, a consumer), each with its own
 * labels. Registering the same labels again replaces the source; the returned function removes it. A source
 * that throws is skipped for that scrape (its series disappears rather than lying).
 */
export function sampledGauge(registry: Registry, name: string, help: string, labelNames: string[]): (labels: Labels, sample: Sample) => () => void {
  const gauge = singleMetric(registry, name, () => {
    const list: Source[] = [];
    const g: Gauge = new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        g.reset();
        const values = await Promise.all(
          list.map((s) =>
            Promise.resolve()
              .then(s.sample)
              .catch(() => undefined),
          ),
        );
        values.forEach((v, i) => {
          if (typeof v === 'number' && Number.isFinite(v)) g.set(list[i].labels, v);
        });
      },
    });
    sources.set(g, list);
    return g;
  });
  const list = sources.get(gauge)!;
  return (labels, sample) => {
    const key = JSON.stringify(labels);
    const i = list.findIndex((s) => JSON.stringify(s.labels) === key);
    const source = { labels, sample };
    if (i >= 0) list[i] = source;
    else list.push(source);
    return () => {
      const at = list.indexOf(source);
      if (at >= 0) list.splice(at, 1);
    };
  };
}
