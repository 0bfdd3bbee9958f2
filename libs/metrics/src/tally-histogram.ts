import type { Registry } from 'prom-client';

/** One label set's tallies: a count per bucket (not cumulative), the sum and the count. */
export interface Tally {
  observe(value: number): void;
}

interface MetricValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
}

interface MetricData {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: MetricValue[];
}

interface Series {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * A histogram for hot paths, exposed through a prom-client registry exactly as prom-client's `Histogram` is (the same
 * `_bucket`/`_sum`/`_count` lines, default labels included). A label set is looked up once (`series`); observing
 * then adds to plain numbers, where prom-client's `labels(…).observe` validates and hashes the labels every time.
 */
export class TallyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The tallies of one label set (made on first use; every label of `labelNames` must be given). */
  series(labels: Record<string, string>): Tally {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let s = this.all.get(key);
    if (!s) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) own[n] = labels[n] ?? '';
      s = { labels: own, buckets: new Array<number>(this.upperBounds.length + 1).fill(0), sum: 0, count: 0 };
      this.all.set(key, s);
    }
    const series = s;
    const bounds = this.upperBounds;
    return {
      observe: (value) => {
        if (!Number.isFinite(value)) return;
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        series.buckets[i]!++;
        series.sum += value;
        series.count++;
      },
    };
  }

  /**
   * What the registry writes, in prom-client's shape: per series its cumulative bucket lines, +Inf, `_sum`,
   * `_count`, the series' labels as `sharedLabels` (the registry puts them after `le` and its default labels).
   */
  getForPromString(): MetricData {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all.values()) {
      let acc = 0;
      this.upperBounds.forEach((le, i) => {
        acc += s.buckets[i]!;
        values.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** The same as JSON (`registry.getMetricsAsJSON`): each value's labels in one object. */
  get(): MetricData {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, ...v }) => ({ ...v, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    this.all.clear();
  }
}
