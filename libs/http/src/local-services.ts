import type { IncomingMessage, ServerResponse } from 'node:http';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The services of one process (the embedded topology), by the base URL each listens on: the gateway hands a
 * request for one of them straight to its request handler instead of a loopback HTTP round trip. A service is
 * here from when it listens until it starts stopping; after that the gateway's HTTP path (and its retries and
 * 503s) takes over, as for any other replica.
 */
export class LocalServices {
  private readonly byOrigin = new Map<string, RequestListener>();

  /** Returns the unregister function. */
  register(url: string, handler: RequestListener): () => void {
    const origin = new URL(url).origin;
    this.byOrigin.set(origin, handler);
    return () => {
      if (this.byOrigin.get(origin) === handler) this.byOrigin.delete(origin);
    };
  }

  /** The handler listening at this origin (`http://127.0.0.1:41234`) in this process, if any. */
  get(origin: string): RequestListener | undefined {
    return this.byOrigin.get(origin);
  }
}
