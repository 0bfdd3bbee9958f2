import { itemChangeEventSchema, mailJobSchema, allowedFields, allowedCollections, type RoleAccess } from './index';

const editor: RoleAccess = {
  role: 'r1',
  admin: false,
  app: true,
  permissions: { articles: { read: ['*'], update: ['title'] }, notes: { read: ['id', 'body'] } },
  updated_at: '2026-01-01T00:00:00Z',
};

describe('contracts', () => {
  it('accepts a well-formed item-change event and rejects other versions', () => {
    const ok = {
      v: 1,
      id: 'e1',
      collection: 'articles',
      item: '1',
      action: 'update',
      data: { id: 1, title: 'x' },
      actor: { user: null },
      timestamp: '2026-11-23T10:00:00.000Z',
    };
    expect(itemChangeEventSchema.parse(ok)).toMatchObject(ok);
    expect(itemChangeEventSchema.safeParse({ ...ok, v: 2 }).success).toBe(false);
    expect(itemChangeEventSchema.safeParse({ ...ok, action: 'upsert' }).success).toBe(false);
  });

  it('validates mail jobs', () => {
    const job = { v: 1, id: 'j', template: 'password-reset', to: 'a@b.co', data: { url: 'http://x/y?token=1' }, created_at: '2026-11-23T10:00:00Z' };
    expect(mailJobSchema.safeParse(job).success).toBe(true);
    expect(mailJobSchema.safeParse({ ...job, to: 'nope' }).success).toBe(false);
  });

  it('answers field and collection permissions', () => {
    expect(allowedFields(editor, 'articles', 'read')).toBe('*');
    expect(allowedFields(editor, 'articles', 'update')).toEqual(['title']);
    expect(allowedFields(editor, 'articles', 'delete')).toBeNull();
    expect(allowedFields(editor, 'secret', 'read')).toBeNull();
    expect(allowedFields(undefined, 'articles', 'read')).toBeNull();
    expect(allowedFields({ ...editor, admin: true }, 'secret', 'delete')).toBe('*');
    expect(allowedCollections(editor, 'read')).toEqual(['articles', 'notes']);
    expect(allowedCollections({ ...editor, admin: true }, 'read')).toBe('*');
  });
});
