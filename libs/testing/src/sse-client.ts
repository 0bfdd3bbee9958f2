import http from 'node:http';

/** One server-sent event as EventSource would see it (`event` defaults to "message"). */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event so far, in order (comment lines, the heartbeats, are counted apart). */
  events: SseEvent[];
  comments: number;
  /** True once the server ended the stream or the connection broke. */
  ended: boolean;
  /** The body, when the answer was not an event stream (an error envelope). */
  body: string;
  /** Resolves once `test(events)` holds, checked on every event; rejects after `timeoutMs`. */
  until(test: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the stream ends. */
  closed(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Parses an event-stream body's complete blocks into `out`; returns what is left (an incomplete block). */
function parseBlocks(text: string, out: SseEvent[], comment: () => void): string {
  let rest = text;
  for (let i = rest.indexOf('\n\n'); i !== -1; i = rest.indexOf('\n\n')) {
    const block = rest.slice(0, i);
    rest = rest.slice(i + 2);
    let data: string[] | undefined;
    let id: string | undefined;
    let event = 'message';
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        comment();
        continue;
      }
      const c = line.indexOf(':');
      const name = c === -1 ? line : line.slice(0, c);
      const value = c === -1 ? '' : line.slice(c + 1).replace(/^ /, '');
      if (name === 'data') (data ??= []).push(value);
      else if (name === 'id') id = value;
      else if (name === 'event') event = value;
      else continue;
      any = true;
    }
    if (any && data) out.push({ ...(id !== undefined ? { id } : {}), event, data: data.join('\n') });
  }
  return rest;
}

/** GET `url` as an event stream (Accept: text/event-stream) with `headers`; resolves once the answer's head is in. */
export function openSse(url: string, headers: Record<string, string> = {}, onEvent?: (e: SseEvent) => void): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      let pending = '';
      const waiters = new Set<() => void>();
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: 0,
        ended: false,
        body: '',
        until(test, timeoutMs = 10_000) {
          return new Promise((ok, fail) => {
            const check = () => {
              if (test(stream.events)) {
                clearTimeout(timer);
                waiters.delete(check);
                ok(stream.events);
              } else if (stream.ended) {
                clearTimeout(timer);
                waiters.delete(check);
                fail(new Error(`the stream ended before the condition held (${stream.events.length} events)`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`timed out after ${timeoutMs} ms with ${stream.events.length} events`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        closed(timeoutMs = 10_000) {
          return new Promise((ok, fail) => {
            if (stream.ended) return ok();
            const timer = setTimeout(() => fail(new Error('the stream did not end')), timeoutMs);
            timer.unref();
            const check = () => {
              if (!stream.ended) return;
              clearTimeout(timer);
              waiters.delete(check);
              ok();
            };
            waiters.add(check);
          });
        },
        close: () => req.destroy(),
      };
      const notify = () => [...waiters].forEach((w) => w());
      const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (chunk: string) => {
        if (!isStream) {
          stream.body += chunk;
          return;
        }
        const had = stream.events.length;
        pending = parseBlocks(pending + chunk, stream.events, () => stream.comments++);
        if (onEvent) for (const e of stream.events.slice(had)) onEvent(e);
        notify();
      });
      const end = () => {
        stream.ended = true;
        notify();
      };
      res.once('end', end);
      res.once('close', end);
      res.once('error', end);
      resolve(stream);
    });
    req.once('error', reject);
  });
}

/** An event stream that reconnects as EventSource does (after `retryMs`, with Last-Event-ID), until `stop()`. */
export interface SseFollower {
  /** Every event of every connection, in arrival order. */
  events: SseEvent[];
  /** Connections opened after the first. */
  reconnects: number;
  /** One line per connection attempt: when, its status (or error), how long it lasted, the events it brought. */
  history: string[];
  until(test: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export function followSse(url: string, headers: Record<string, string> = {}, retryMs = 200): SseFollower {
  const events: SseEvent[] = [];
  let lastId: string | undefined;
  let current: SseStream | undefined;
  let stopped = false;
  const f: SseFollower = {
    events,
    reconnects: -1,
    history: [],
    async until(test, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (!test(events)) {
        if (Date.now() > end) throw new Error(`timed out with ${events.length} events, ${f.reconnects} reconnects`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop() {
      stopped = true;
      current?.close();
    },
  };
  void (async () => {
    while (!stopped) {
      f.reconnects++;
      const started = Date.now();
      const from = lastId;
      let outcome = '';
      try {
        current = await openSse(url, { ...headers, ...(lastId !== undefined ? { 'last-event-id': lastId } : {}) }, (e) => {
          events.push(e);
          if (e.id !== undefined) lastId = e.id;
        });
        outcome = `status ${current.status} after ${Date.now() - started} ms`;
        if (stopped)
          current.close(); // stopped while this connection was being opened
        else if (current.status === 200) await current.closed(24 * 3600_000);
        outcome += `, ${current.events.length} events, ended after ${Date.now() - started} ms${current.body ? `: ${current.body.slice(0, 200)}` : ''}`;
      } catch (err) {
        // refused or reset: try again
        outcome = `${(err as Error).message} after ${Date.now() - started} ms`;
      }
      f.history.push(`${new Date(started).toISOString()} since ${from ?? '-'}: ${outcome}`);
      await new Promise((r) => setTimeout(r, retryMs));
    }
  })();
  return f;
}
