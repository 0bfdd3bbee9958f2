import { matchTemplate, templateOf, templatesOverlap } from './fast-route-paths';

describe('fast route templates', () => {
  it('reads literal and :name segments; an exact path has no template; what express says more is refused', () => {
    expect(templateOf('/items/:collection/:id')).toEqual(['items', ':collection', ':id']);
    expect(templateOf('/revisions')).toBeUndefined();
    for (const p of ['/items/:id?', '/files/*rest', '/a/{:b}', '/a//:b', '/a/:b-c']) expect(() => templateOf(p)).toThrow(/only literal/);
  });

  it('matches one non-empty segment per parameter and the literals exactly; leaves the rest to express', () => {
    const t = templateOf('/items/:collection/:id')!;
    expect(matchTemplate(t, '/items/articles/12')).toEqual({ collection: 'articles', id: '12' });
    expect(matchTemplate(t, '/items/articles')).toBeUndefined(); // fewer segments
    expect(matchTemplate(t, '/items/articles/12/x')).toBeUndefined(); // more
    expect(matchTemplate(t, '/items/articles/12/')).toBeUndefined(); // a trailing slash
    expect(matchTemplate(t, '/items//12')).toBeUndefined(); // an empty segment
    expect(matchTemplate(t, '/items/a%20b/12')).toBeUndefined(); // express decodes it
    expect(matchTemplate(t, '/Items/articles/12')).toBeUndefined(); // another letter case
    expect(matchTemplate(t, '/other/articles/12')).toBeUndefined();
    expect(matchTemplate(templateOf('/revisions/:id/restore')!, '/revisions/7/restore')).toEqual({ id: '7' });
    expect(matchTemplate(templateOf('/revisions/:id/restore')!, '/revisions/7/other')).toBeUndefined();
  });

  it('finds a route that could answer the same paths (express compares literals without case)', () => {
    const t = templateOf('/items/:collection/:id')!;
    expect(templatesOverlap(t, '/items/:a/:b')).toBe(true);
    expect(templatesOverlap(t, '/ITEMS/x/:b')).toBe(true);
    expect(templatesOverlap(t, '/items/x/*rest')).toBe(true);
    expect(templatesOverlap(t, '/items/:a')).toBe(false);
    expect(templatesOverlap(t, '/fields/:a/:b')).toBe(false);
  });
});
