import { RevisionStream, type StreamSink } from '../src/domain/revision-stream';
import { createStreamHarness, access, idsOf, revisionsOf, type StreamHarness } from './stream-support';
import { itemEvent, signToken } from './helpers';

const bearer = (id: string, role: string, admin = false) => `Bearer ${signToken({ id, role, ...(admin ? { admin_access: true } : {}) })}`;
const change = (item: string, data: Record<string, unknown>) =>
  itemEvent({ collection: 'articles', item, action: 'create', data, at: new Date().toISOString() });

let h: StreamHarness;
beforeAll(async () => {
  h = await createStreamHarness();
  await h.setRules('r-title', access('r-title', { articles: { read: ['id', 'title'] } }));
  await h.setRules('r-full', access('r-full', { articles: { read: ['*'] } }));
  await h.setRules('r-other', access('r-other', { notes: { read: ['*'] } }));
});
afterAll(() => h.close());

/** A sink that keeps what each live write hands it (the Buffer objects themselves). */
function recordingSink() {
  const chunks: Buffer[] = [];
  const sink: StreamSink = {
    revision: () => true,
    text: (chunk) => void chunks.push(chunk),
    reset: () => undefined,
    drained: async () => undefined,
    closed: false,
  };
  return { sink, chunks };
}

describe('the live events of a batch are encoded once per stream kind', () => {
  it('streams of one read rule write the same bytes, of another rule other bytes; one serialization per shape', async () => {
    const deps = { feed: h.app.feed, reader: h.app.reader, rules: h.rules, pool: h.pool };
    const query = h.app.reader.parse({});
    const streams = [
      ...['u1', 'u2', 'u3'].map((u) => ({
        role: 'title',
        s: new RevisionStream(deps, { user: u, role: 'r-title', admin: false, app: true }, query, undefined),
      })),
      ...['u4', 'u5'].map((u) => ({ role: 'full', s: new RevisionStream(deps, { user: u, role: 'r-full', admin: false, app: true }, query, undefined) })),
    ].map((x) => ({ ...x, rec: recordingSink() }));
    for (const x of streams) await x.s.run(await x.s.open(), x.rec.sink);
    const before = { ...h.app.feed.stats };
    await h.writer.write([change('e1', { id: 'e1', title: 'one', body: 'secret' }), change('e2', { id: 'e2', title: 'two', body: 'b' })]);
    for (let i = 0; i < 200 && streams.some((x) => x.rec.chunks.length === 0); i++) await new Promise((r) => setTimeout(r, 10));
    for (const x of streams) x.s.close();

    const [t1, t2, t3, f1, f2] = streams.map((x) => x.rec.chunks);
    expect(t1!.length).toBeGreaterThan(0);
    // one kind: the very same Buffer for every stream of it, not a copy per subscriber
    t1!.forEach((b, i) => expect(t2![i]).toBe(b));
    t1!.forEach((b, i) => expect(t3![i]).toBe(b));
    f1!.forEach((b, i) => expect(f2![i]).toBe(b));
    const text = (c: Buffer[]) => Buffer.concat(c).toString('utf8');
    expect(text(t1!)).not.toBe(text(f1!));
    expect(text(t1!)).toContain('"title":"one"');
    expect(text(t1!)).not.toContain('secret');
    expect(text(f1!)).toContain('secret');
    // two revisions × two shapes, for five subscribers; one encoded text per batch and kind
    const stats = h.app.feed.stats;
    expect(stats.encoded - before.encoded).toBe(2 * 2);
    expect(stats.texts - before.texts).toBe(t1!.length + f1!.length);
  });

  it('over HTTP, subscribers of one role get byte-equal events, and a role that cannot read the collection none', async () => {
    const title = await Promise.all(['a', 'b'].map((u) => h.stream('/revisions/stream', { authorization: bearer(u, 'r-title') })));
    const full = await h.stream('/revisions/stream', { authorization: bearer('c', 'r-full') });
    const none = await h.stream('/revisions/stream', { authorization: bearer('d', 'r-other') });
    const admin = await h.stream('/revisions/stream', { authorization: bearer('e', 'r-admin', true) });
    const before = { ...h.app.feed.stats };
    await h.writer.write([change('h1', { id: 'h1', title: 'x', body: 'y' })]);
    const [ta, tb, fu, ad] = await Promise.all([...title, full, admin].map((s) => s.until((e) => idsOf(e).length >= 1)));
    await h.writer.write([change('h2', { id: 'h2', title: 'z', body: 'w' })]);
    await admin.until((e) => idsOf(e).length >= 2);
    const nothing = await none.until(() => true);
    for (const s of [...title, full, none, admin]) s.close();
    expect(revisionsOf(ta!)).toEqual(revisionsOf(tb!));
    expect(revisionsOf(ta!)[0]!.data).toEqual({ id: 'h1', title: 'x' });
    expect(revisionsOf(fu!)[0]!.data).toEqual({ id: 'h1', title: 'x', body: 'y' });
    expect(revisionsOf(ad!)[0]!.data).toEqual({ id: 'h1', title: 'x', body: 'y' });
    expect(idsOf(nothing)).toEqual([]);
    // three shapes (title, full, admin's) for six streams, two revisions
    expect(h.app.feed.stats.encoded - before.encoded).toBe(3 * 2);
  });
});
