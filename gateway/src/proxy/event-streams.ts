import type { IncomingMessage, ServerResponse } from 'node:http';

/** What EventSource sends: the request of a server-sent event stream. */
export const wantsEventStream = (req: IncomingMessage): boolean => (req.headers.accept ?? '').includes('text/event-stream');

/**
 * The event streams the gateway is passing on (they never finish by themselves): a stopping gateway cuts them, so its
 * drain does not wait for them, and their clients reconnect (with Last-Event-ID) to another gateway.
 */
export class EventStreams {
  private readonly open = new Set<ServerResponse>();

  track(req: IncomingMessage, res: ServerResponse): void {
    if (!wantsEventStream(req)) return;
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
  }

  get size(): number {
    return this.open.size;
  }

  /** Cuts every open stream (the upstream call of each is aborted by its proxy when its caller goes). */
  cutAll(): void {
    for (const res of [...this.open]) res.destroy();
  }
}
