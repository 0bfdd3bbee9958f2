import { unchanged } from './unchanged';

describe('unchanged', () => {
  it('an untouched field of any kind is no change; a real edit is one', () => {
    expect(unchanged('a', 'a')).toBe(true);
    expect(unchanged(null, undefined)).toBe(true);
    expect(unchanged(false, null)).toBe(true);
    expect(unchanged('2026-01-02T10:30', '2026-01-02T10:30:00.000Z')).toBe(true);
    expect(unchanged({ a: 1 }, { a: 1 })).toBe(true);
    expect(unchanged('b', 'a')).toBe(false);
    expect(unchanged(true, null)).toBe(false);
    expect(unchanged('2026-01-02T10:31', '2026-01-02T10:30:00.000Z')).toBe(false);
  });
});
