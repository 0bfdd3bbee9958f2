import { composeSupergraph } from './compose-supergraph';
import { singleFetchPath, type SubgraphRequest } from './single-fetch-path';

// The single-fetch path over a fake subgraph fetch: what it passes on, and how.

const SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { hello: String }
`;
const supergraphSdl = composeSupergraph([{ name: 'one', sdl: SDL }]);

describe('singleFetchPath', () => {
  it('passes an in-process answer’s bytes on as they are (never decoded), with its cookies', async () => {
    const bytes = Buffer.from('{"data":{"hello":"é"}}');
    const asked: SubgraphRequest[] = [];
    const single = singleFetchPath({
      supergraphSdl,
      fetchers: {
        one: async (_url, init) => {
          asked.push(init);
          return { status: 200, headers: { getSetCookie: () => ['a=1'] }, text: () => Promise.reject(new Error('not decoded')), rawBody: bytes };
        },
      },
    });
    const a = await single({ query: '{ hello }' }, { authorization: 'Bearer t' }, () => undefined);
    expect(a).toEqual({ body: bytes, cookies: ['a=1'] });
    expect(a!.body).toBe(bytes);
    // the request: the client's operation as JSON text, the same value beside it, the headers given
    expect(asked[0]).toMatchObject({
      method: 'POST',
      body: '{"query":"{ hello }"}',
      json: { query: '{ hello }' },
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    });
  });

  it('leaves an answer with errors, and one read as text, to be judged by its first bytes', async () => {
    const answer = (body: string, raw: boolean) => ({
      status: 200,
      headers: { getSetCookie: () => [] },
      text: async () => body,
      rawBody: raw ? Buffer.from(body) : undefined,
    });
    for (const raw of [true, false]) {
      const errors = singleFetchPath({ supergraphSdl, fetchers: { one: async () => answer('{"errors":[],"data":null}', raw) } });
      expect(await errors({ query: '{ hello }' }, {}, () => undefined)).toBeUndefined();
      const data = singleFetchPath({ supergraphSdl, fetchers: { one: async () => answer('{"data":{"hello":null}}', raw) } });
      expect((await data({ query: '{ hello }' }, {}, () => undefined))!.body.toString()).toBe('{"data":{"hello":null}}');
    }
  });
});
