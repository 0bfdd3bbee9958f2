import { primaryKeyValue, validateWrite } from './validate-write';
import { notes, posts, thrown } from '../../test/domain-fixtures';

describe('validateWrite', () => {
  it('coerces every sent value into column values', () => {
    expect(validateWrite(posts, { title: 'Hi', views: '3', published: true }, '*', 'create')).toEqual({ title: 'Hi', views: 3, published: true });
  });

  it('checks in order: unknown field (400), then permission (403), then types (400)', () => {
    // an unknown field wins over a forbidden one and a bad value
    expect(thrown(() => validateWrite(posts, { views: 'x', body: 'b', nope: 1 }, ['title'], 'update'))).toMatchObject({
      status: 400,
      code: 'INVALID_PAYLOAD',
      extensions: { reason: 'Field "nope" does not exist in collection "posts"' },
    });
    // a forbidden field wins over a bad value
    expect(thrown(() => validateWrite(posts, { views: 'x', body: 'b' }, ['views'], 'update'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(thrown(() => validateWrite(posts, { views: 'x' }, ['views'], 'update'))).toMatchObject({
      status: 400,
      code: 'FAILED_VALIDATION',
      extensions: { field: 'views', type: 'integer' },
    });
  });

  it('on create, requires the non-nullable fields without a default; the key and defaulted fields are not required', () => {
    expect(thrown(() => validateWrite(posts, { body: 'b' }, '*', 'create')).extensions).toEqual({ field: 'title', type: 'required' });
    expect(validateWrite(posts, { title: 't' }, '*', 'create')).toEqual({ title: 't' });
  });

  it('on update, nothing is required', () => {
    expect(validateWrite(posts, { body: 'b' }, ['body'], 'update')).toEqual({ body: 'b' });
    expect(validateWrite(posts, {}, [], 'update')).toEqual({});
  });

  it('a null key on create means "generate it" and is left out; elsewhere a null in a non-nullable field is refused', () => {
    expect(validateWrite(posts, { id: null, title: 't' }, '*', 'create')).toEqual({ title: 't' });
    expect(thrown(() => validateWrite(posts, { id: null }, '*', 'update')).extensions).toEqual({ field: 'id', type: 'nnull' });
    expect(thrown(() => validateWrite(posts, { title: null }, '*', 'create')).extensions).toEqual({ field: 'title', type: 'nnull' });
  });
});

describe('primaryKeyValue', () => {
  it('reads a key from a URL segment or a body value as the key field types it', () => {
    expect(primaryKeyValue(posts, '12')).toBe(12);
    expect(primaryKeyValue(posts, ' 12 ')).toBe(12);
    expect(primaryKeyValue(posts, 12)).toBe(12);
    expect(primaryKeyValue(notes, 'ABCDEF01-2345-4678-9abc-def012345678')).toBe('abcdef01-2345-4678-9abc-def012345678');
  });

  it('is undefined for anything that cannot be a key (never throws)', () => {
    for (const bad of ['abc', '1.5', '', null, undefined, true, {}, '99999999999']) expect([bad, primaryKeyValue(posts, bad)]).toEqual([bad, undefined]);
    expect(primaryKeyValue(notes, '12')).toBeUndefined();
  });
});
