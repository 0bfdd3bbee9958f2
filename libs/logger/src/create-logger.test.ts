import { Writable } from 'node:stream';
import { createLogger, serviceLogger, runWithRequestContext, requestIdFrom, propagationHeaders } from './index';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(chunk.toString()));
      cb();
    },
  });
  return { lines, destination };
}

describe('logger', () => {
  it('stamps the request id from the async context on every line', async () => {
    const { lines, destination } = capture();
    const log = createLogger({ name: 'test', destination });
    await runWithRequestContext({ requestId: 'req-1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info('inside');
    });
    log.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'req-1', service: 'test' });
    expect(lines[1].requestId).toBeUndefined();
  });

  it('redacts credentials', () => {
    const { lines, destination } = capture();
    createLogger({ name: 't', destination }).info(
      { password: 'hunter2', body: { refresh_token: 'abc' }, headers: { authorization: 'Bearer x', cookie: 'a=b' } },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    expect(text).not.toMatch(/hunter2|abc|Bearer x|a=b/);
  });

  it('accepts sane request ids and replaces others', () => {
    expect(requestIdFrom('abc-123')).toBe('abc-123');
    expect(requestIdFrom('bad id\n')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives propagation headers inside a context only', () => {
    expect(propagationHeaders()).toEqual({});
    runWithRequestContext({ requestId: 'r', traceparent: '00-a-b-01' }, () =>
      expect(propagationHeaders()).toEqual({ 'x-request-id': 'r', traceparent: '00-a-b-01' }),
    );
  });
});

describe('serviceLogger', () => {
  it('writes one service key per line, the service’s own, to the parent’s destination and level', () => {
    const raw: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        raw.push(chunk.toString());
        cb();
      },
    });
    const parent = createLogger({ name: 'vellum', level: 'warn', destination });
    const auth = serviceLogger(parent, 'auth');
    auth.info('dropped below the parent level');
    auth.warn({ password: 'hunter2' }, 'kept');
    expect(raw).toHaveLength(1);
    expect(raw[0].match(/"service":/g)).toHaveLength(1);
    expect(JSON.parse(raw[0])).toMatchObject({ service: 'auth', msg: 'kept', password: '[redacted]' });
  });
});
