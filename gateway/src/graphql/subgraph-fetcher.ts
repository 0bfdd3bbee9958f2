import type { Fetcher } from '@apollo/utils.fetcher';
import { errors } from '@vellum/errors';
import type { LocalServices } from '@vellum/http';
import type { UpstreamPool } from '../proxy/upstream-pool';
import { localExchange, type LocalAnswer } from '../proxy/local-exchange';
import type { SubgraphAnswer } from './single-fetch-path';

const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Subgraph fetches go round-robin over the service's replicas (keep-alive pools of Node's fetch), bounded by
 * the timeout; a replica that refuses the connection is marked down and the fetch goes to another one once
 * (nothing was sent, so even a mutation is safe to resend). Down → 503-style SERVICE_UNAVAILABLE error. A replica
 * of this process (the embedded topology, `local`) is asked without a socket (fetchLocal), bounded the same way.
 */
export function subgraphFetcher(
  pool: UpstreamPool,
  timeoutMs: number,
  onError?: (service: string, reason: string) => void,
  local?: LocalServices,
  /** The in-process answer as a SubgraphAnswer (what the single-fetch path reads) rather than a whole fetch Response. */
  light = false,
): Fetcher {
  return (async (_url: string, init: RequestInit) => {
    const tried = new Set<ReturnType<UpstreamPool['pick']>>();
    for (;;) {
      const replica = pool.pick(tried as never);
      if (!replica) throw errors.serviceUnavailable(pool.service, 'no replica configured');
      tried.add(replica);
      const base = replica.url.pathname === '/' ? '' : replica.url.pathname;
      const inProcess = base === '' ? local?.get(replica.url.origin) : undefined;
      try {
        if (inProcess) {
          const answer = await fetchLocal(inProcess, replica.url.host, init, timeoutMs);
          return light ? new LightAnswer(answer) : asResponse(answer);
        }
        return await fetch(`${replica.url.origin}${base}/graphql`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        const code = (e as { cause?: { code?: string } }).cause?.code ?? '';
        onError?.(pool.service, (e as Error).name === 'TimeoutError' ? 'timeout' : code || 'error');
        if (CONNECT_CODES.has(code)) {
          pool.markDown(replica);
          if (tried.size < Math.min(2, pool.replicas.length)) continue;
        }
        const reason = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `upstream unreachable: ${code || (e as Error).message}`;
        throw errors.serviceUnavailable(pool.service, reason);
      }
    }
  }) as unknown as Fetcher;
}

/** Bodies up to this size go to an in-process subgraph already parsed (fetchLocal). */
const PARSED_MAX = 64 * 1024;

/**
 * The request headers Node's fetch adds when they are not given: the service sees them over HTTP too. Not
 * `accept-encoding` (fetch would decode a compressed answer; no service compresses, and this path reads bytes).
 */
const FETCH_DEFAULTS = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
] as const;

/**
 * A subgraph's POST /graphql to its replica in this process (the embedded topology), without a loopback socket
 * (proxy/local-exchange.ts): the same request head and body as over HTTP, the answer as a fetch Response. The
 * single-fetch path's request (headers as an object, `json`: the value its body is the text of) hands its body
 * over parsed when it is small (the service's own parser, and its limit, take the bigger ones).
 */
function fetchLocal(
  handler: Parameters<typeof localExchange>[0],
  host: string,
  init: RequestInit & { json?: object },
  timeoutMs: number,
): Promise<LocalAnswer> {
  const body = String(init.body ?? '');
  const list = ['Host', host];
  const h = init.headers;
  // a plain object (the single-fetch path's, lower-case names) as it is; anything else (Apollo's) through Headers
  const given = h && Object.getPrototypeOf(h) === Object.prototype ? (h as Record<string, string>) : Object.fromEntries(new Headers(h));
  for (const name in given) list.push(name, given[name]!);
  for (const [name, value] of FETCH_DEFAULTS) if (!Object.hasOwn(given, name)) list.push(name, value);
  const length = Buffer.byteLength(body);
  list.push('content-length', String(length));
  const parsed = init.json !== undefined && length <= PARSED_MAX ? init.json : undefined;
  return localExchange(handler, { method: init.method ?? 'POST', url: '/graphql', headers: list, body, parsed, timeoutMs });
}

/** What Apollo Gateway's data source reads: a fetch Response. */
function asResponse(answer: LocalAnswer): globalThis.Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, String(value));
  }
  return new Response(answer.body, { status: answer.status, headers });
}

/**
 * What the single-fetch path reads, without a Response's headers object and body stream (the body as it is). A
 * class: no closures named per answer (tsx's keepNames names each one with a call).
 */
class LightAnswer implements SubgraphAnswer {
  readonly status: number;
  readonly rawBody: string | Buffer;
  constructor(private readonly answer: LocalAnswer) {
    this.status = answer.status;
    this.rawBody = answer.body;
  }

  get headers(): SubgraphAnswer['headers'] {
    return this;
  }

  getSetCookie(): string[] {
    const cookies = this.answer.headers['set-cookie'];
    return cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [String(cookies)];
  }

  text(): Promise<string> {
    return Promise.resolve(this.rawBody.toString());
  }
}
