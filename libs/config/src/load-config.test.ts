import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z, loadConfig, ConfigError, duration, bool, int, list, parseDuration } from './index';

const shape = {
  PORT: int(8055),
  SECRET: z.string().min(8),
  TTL: duration('15m'),
  COOKIE_SECURE: bool(false),
  ALLOW: list(),
};

describe('loadConfig', () => {
  it('parses values and applies defaults', () => {
    const c = loadConfig(shape, { SECRET: 'abcdefgh', ALLOW: 'a, b ,c', COOKIE_SECURE: 'true' });
    expect(c).toEqual({ PORT: 8055, SECRET: 'abcdefgh', TTL: 900_000, COOKIE_SECURE: true, ALLOW: ['a', 'b', 'c'] });
  });

  it('reads NAME_FILE when NAME is unset', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    writeFileSync(join(dir, 's'), 'from-a-file\n');
    expect(loadConfig(shape, { SECRET_FILE: join(dir, 's') }).SECRET).toBe('from-a-file');
  });

  it('fails fast naming every bad variable', () => {
    try {
      loadConfig(shape, { PORT: 'abc', TTL: 'soon' });
      throw new Error('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toMatch(/PORT/);
      expect(msg).toMatch(/SECRET: is required/);
      expect(msg).toMatch(/TTL: "soon" is not a duration/);
    }
  });

  it('reports an unreadable _FILE', () => {
    expect(() => loadConfig(shape, { SECRET_FILE: '/nonexistent/x' })).toThrow(/SECRET_FILE: cannot read/);
  });

  it('parses durations', () => {
    expect(parseDuration('500')).toBe(500);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('x')).toBeUndefined();
  });
});
