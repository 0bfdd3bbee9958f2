import { silentLogger } from '../src';

test('silentLogger is a logger with every level off, named as asked', () => {
  const log = silentLogger('items-test');
  expect(log.level).toBe('silent');
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace']) expect(log.isLevelEnabled(level)).toBe(false);
  expect(log.bindings()).toMatchObject({ service: 'items-test' });
  expect(silentLogger().bindings()).toMatchObject({ service: 'test' });
  expect(log.child({ a: 1 }).level).toBe('silent');
});
