import net from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768–60999): a port the kernel hands out for an outgoing
 * connection or a `listen(0)` elsewhere cannot take it between this check and the caller's own listen — the race
 * a port from `listen(0)` loses now and then on a busy machine.
 */
const LOW = 20_000;
const HIGH = 32_767;
/** Ports this process has already handed out: two callers in one process never get the same one. */
const handedOut = new Set<number>();

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A TCP port free on 127.0.0.1 right now, outside the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (handedOut.has(port)) continue;
    if (await tryListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free TCP port found between ${LOW} and ${HIGH}`);
}
