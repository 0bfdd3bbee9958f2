import { fixedClock } from '../src';

test('fixedClock stands still until advanced or set', () => {
  const clock = fixedClock('2024-05-01T10:00:00.000Z');
  expect(clock.now().toISOString()).toBe('2024-05-01T10:00:00.000Z');
  expect(clock.now().toISOString()).toBe('2024-05-01T10:00:00.000Z');
  clock.advance(90_000);
  expect(clock.now().toISOString()).toBe('2024-05-01T10:01:30.000Z');
  clock.set(new Date('2030-01-01T00:00:00Z'));
  expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
});

test('fixedClock returns copies and rejects invalid dates', () => {
  const start = new Date('2024-05-01T10:00:00Z');
  const clock = fixedClock(start);
  start.setFullYear(1999);
  const d = clock.now();
  d.setFullYear(2000);
  expect(clock.now().toISOString()).toBe('2024-05-01T10:00:00.000Z');
  expect(() => fixedClock('not a date')).toThrow(RangeError);
});
