import { behindHeader, parseMinVersion } from './min-version';

describe('X-Vellum-Min-Version', () => {
  it('takes what a write answered in X-Vellum-Version, one or several items', () => {
    expect(parseMinVersion('articles/7@6')).toEqual([{ collection: 'articles', item: '7', version: 6 }]);
    const uuid = '0a0eebc9-9c0b-4ef8-bb6d-6bb9bd380a11';
    expect(parseMinVersion(`articles/7@6, notes/${uuid}@1`)).toEqual([
      { collection: 'articles', item: '7', version: 6 },
      { collection: 'notes', item: uuid, version: 1 },
    ]);
    expect(behindHeader(parseMinVersion('articles/7@6, b/1@2'))).toBe('articles/7@6, b/1@2');
  });

  it('refuses anything else with 400 INVALID_QUERY', () => {
    for (const bad of ['', 'articles', 'articles/7', 'articles/7@x', 'Articles/7@1', 'a/7@1,,b/2@1', Array.from({ length: 21 }, () => 'a/1@1').join(',')]) {
      expect(() => parseMinVersion(bad)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    }
  });
});
