// RecordsReader.parse: a frozen input (the lane's cached req.query) is parsed once; anything else each time.
import type { Pool } from 'pg';
import { RecordsReader } from '../src/domain/records-reader';
import type { AccessRules } from '../src/domain/visibility';

const reader = new RecordsReader({} as Pool, {} as AccessRules, { limitDefault: 100 });

describe('RecordsReader.parse', () => {
  it('keeps the query parsed from a frozen input, and parses a fresh object again', () => {
    const frozen = Object.freeze({ limit: '25', sort: '-id' });
    const first = reader.parse(frozen);
    expect(first).toMatchObject({ limit: 25, sort: [expect.objectContaining({ desc: true })] });
    expect(reader.parse(frozen)).toBe(first);
    const fresh = { limit: '25', sort: '-id' };
    expect(reader.parse(fresh)).not.toBe(reader.parse(fresh));
    expect(reader.parse(fresh)).toEqual(first);
  });

  it('refuses an invalid frozen input every time (nothing kept)', () => {
    const bad = Object.freeze({ limit: 'x' });
    expect(() => reader.parse(bad)).toThrow(/integer/);
    expect(() => reader.parse(bad)).toThrow(/integer/);
  });
});
