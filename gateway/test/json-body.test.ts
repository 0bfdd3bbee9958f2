import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type RequestHandler } from 'express';
import { JsonBody } from '../src/front/json-body';

// The front door's JSON body (front/json-body.ts) against express.json itself: the same body or the same error for
// every request, the parser's machinery run only for what is not the plain case (or does not parse).

const LIMIT = 200;
let parserCalls = 0;
const parser = express.json({ limit: LIMIT, type: ['application/json', 'application/graphql-response+json'] });
const counted: RequestHandler = (req, res, next) => {
  parserCalls++;
  return parser(req, res, next);
};
const light = new JsonBody(counted, LIMIT);
const servers: http.Server[] = [];
const bases: string[] = [];

/** Answers what the body step gave: the body, or the error's status, type and message. */
function answer(res: http.ServerResponse, req: http.IncomingMessage, err?: unknown): void {
  const e = err as { status?: number; type?: string; message?: string } | undefined;
  res.writeHead(e ? (e.status ?? 500) : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(e ? { type: e.type, message: e.message } : { body: (req as Request).body ?? null }));
}

beforeAll(async () => {
  const handlers = [
    (req: http.IncomingMessage, res: http.ServerResponse) => light.read(req, res, (err) => answer(res, req, err)),
    (req: http.IncomingMessage, res: http.ServerResponse) => void parser(req as Request, res as never, (err?: unknown) => answer(res, req, err)),
  ];
  for (const h of handlers) {
    const s = http.createServer(h);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    bases.push(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

function post(base: string, body: string, headers: Record<string, string>, chunked = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const h = chunked ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
    const req = http.request(`${base}/`, { method: 'POST', headers: h, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (chunked) req.write(body.slice(0, 3));
    req.end(chunked ? body.slice(3) : body);
  });
}

const json = { 'content-type': 'application/json' };
const cases: [string, string, Record<string, string>, boolean, number][] = [
  // name, body, headers, chunked, parser calls by the light reader
  ['a plain object', ' {"query":"{ a }","variables":{"n":1}}', json, false, 0],
  ['charset utf-8, an array', '[1,"é"]', { 'content-type': 'application/json; charset=utf-8' }, false, 0],
  ['an empty body', '', json, false, 0],
  ['malformed JSON', '{"query": ', json, false, 1],
  ['JSON that is not an object (strict)', '42', json, false, 1],
  ['a byte order mark', '\uFEFF{"a":1}', json, false, 1],
  ['another charset', '{"a":1}', { 'content-type': 'application/json; charset=latin1' }, false, 1],
  ['over the limit (declared)', JSON.stringify({ a: 'x'.repeat(LIMIT) }), json, false, 1],
  ['a chunked body', '{"a":1}', json, true, 1],
  ['another media type', '{"a":1}', { 'content-type': 'application/graphql-response+json' }, false, 1],
  ['text', '{"a":1}', { 'content-type': 'text/plain' }, false, 1],
];

describe('JsonBody', () => {
  it.each(cases)('%s: as express.json', async (_name, body, headers, chunked, calls) => {
    const before = parserCalls;
    const a = await post(bases[0]!, body, headers, chunked);
    expect(parserCalls - before).toBe(calls);
    const b = await post(bases[1]!, body, headers, chunked);
    expect(a).toEqual(b);
  });
});
