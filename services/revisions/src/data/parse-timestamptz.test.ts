import pg from 'pg';
import { parseTimestamptz, timestamptzIsoText, TIMESTAMPTZ } from './parse-timestamptz';

const postgresDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** A timestamptz as PostgreSQL writes it in UTC: `YYYY-MM-DD HH:MM:SS[.f{1,6}]+00` (trailing zeros of the fraction dropped). */
function text(i: number): string {
  const year = 1000 + ((i * 7919) % 9000);
  const p = (v: number) => String(v).padStart(2, '0');
  const micros = (i * 104729) % 1_000_000;
  const fraction = i % 5 === 0 ? '' : `.${String(micros).padStart(6, '0')}`.replace(/0+$/, '').replace(/\.$/, '');
  return `${year}-${p(1 + (i % 12))}-${p(1 + (i % 28))} ${p(i % 24)}:${p((i * 7) % 60)}:${p((i * 13) % 60)}${fraction}+00`;
}

describe('parseTimestamptz', () => {
  it('gives what postgres-date gives for the UTC text PostgreSQL writes', () => {
    for (let i = 0; i < 20_000; i++) {
      const t = text(i);
      expect([t, (parseTimestamptz(t) as Date).getTime()]).toEqual([t, (postgresDate(t) as Date).getTime()]);
    }
    // fractions whose milliseconds are not exact in binary (1000 × 0.57 = 569.999…): postgres-date's 569
    for (const t of ['2026-11-27 08:00:00.57+00', '2026-01-01 00:00:00.7+00', '2026-01-01 00:00:00.000001+00', '2026-01-01 00:00:00.999999+00'])
      expect((parseTimestamptz(t) as Date).getTime()).toBe((postgresDate(t) as Date).getTime());
  });

  it('leaves every other text to postgres-date', () => {
    for (const t of ['2026-11-27 08:00:00+01', '2026-11-27 08:00:00.5-03:30', '0050-01-01 00:00:00+00', '0999-12-31 23:59:59+00', '2026-11-27 08:00:00+00 BC', 'infinity', '-infinity', '12026-01-01 00:00:00+00', '2026-11-27T08:00:00Z', '2026-11-27 08:00:00.+00']) {
      const a = parseTimestamptz(t);
      const b = postgresDate(t);
      expect([t, a instanceof Date ? a.getTime() : a]).toEqual([t, b instanceof Date ? b.getTime() : b]);
    }
  });
});

describe('timestamptzIsoText', () => {
  const iso = (t: string) => (parseTimestamptz(t) as Date).toISOString();

  it('writes the ISO text the Date would, for the UTC text PostgreSQL writes', () => {
    for (let i = 0; i < 20_000; i++) {
      const t = text(i);
      expect([t, timestamptzIsoText(t)]).toEqual([t, iso(t)]);
    }
    // every fraction of a second PostgreSQL can write (trailing zeros dropped): the Date's milliseconds
    for (let micros = 0; micros < 1_000_000; micros += 7) {
      const f = String(micros).padStart(6, '0').replace(/0+$/, '');
      const t = `2026-11-27 08:00:00${f ? `.${f}` : ''}+00`;
      if (timestamptzIsoText(t) !== iso(t)) expect([t, timestamptzIsoText(t)]).toEqual([t, iso(t)]);
    }
    expect(timestamptzIsoText('2026-11-27 08:00:00.57+00')).toBe('2026-11-27T08:00:00.570Z');
    expect(timestamptzIsoText('2026-11-27 08:00:00+00')).toBe('2026-11-27T08:00:00.000Z');
    expect(timestamptzIsoText('2026-11-27 08:00:00.999999+00')).toBe('2026-11-27T08:00:00.999Z');
  });

  it("gives parseTimestamptz's value for every other text", () => {
    for (const t of ['2026-11-27 08:00:00+01', '0999-12-31 23:59:59+00', '2026-11-27 08:00:00+00 BC', 'infinity', '-infinity', '2026-11-27 08:00:00.+00']) {
      const a = timestamptzIsoText(t);
      const b = parseTimestamptz(t);
      expect([t, a instanceof Date ? a.getTime() : a]).toEqual([t, b instanceof Date ? b.getTime() : b]);
    }
  });
});
