import { historyServiceFor } from './history-routes';

const route = (method: string, url: string) => {
  const q = url.indexOf('?');
  return historyServiceFor(method, q === -1 ? url : url.slice(0, q), url, q);
};

describe('historyServiceFor: the history routes owned by another service than their prefix', () => {
  it('sends reads of items as they were to the revisions service', () => {
    expect(route('GET', '/items/articles/7?at=2026-12-01T00:00:00Z')).toBe('revisions');
    expect(route('GET', '/items/articles?fields=id&at=2026-12-01')).toBe('revisions');
    expect(route('HEAD', '/items/articles/7?at_revision=12')).toBe('revisions');
  });

  it('leaves the live items, writes and look-alike parameters to the prefix', () => {
    expect(route('GET', '/items/articles/7')).toBeUndefined();
    expect(route('GET', '/items/articles?filter[at][_eq]=1')).toBeUndefined();
    expect(route('GET', '/items/articles?format=x')).toBeUndefined();
    expect(route('PATCH', '/items/articles/7?at=2026-12-01')).toBeUndefined();
    expect(route('GET', '/revisions?at=2026-12-01')).toBeUndefined();
  });

  it('sends a restore, a write of the item, to the items service', () => {
    expect(route('POST', '/revisions/12/restore')).toBe('items');
    expect(route('POST', '/revisions/12/restore?dry_run=true')).toBe('items');
    expect(route('GET', '/revisions/12/restore')).toBeUndefined();
    expect(route('POST', '/revisions/12')).toBeUndefined();
  });
});
