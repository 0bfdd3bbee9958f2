import net from 'node:net';

/**
 * The metrics listener's port: METRICS_PORT when set; else the default (9464) when free, or — taken, say by a
 * second `npm start` with another PORT — any free port, said in the log (a busy default must not stop the start).
 */
export async function chooseMetricsPort(
  c: { port: number; explicit: boolean; host: string },
  logger: { warn(obj: object, msg?: string): void },
): Promise<number> {
  if (c.explicit || c.port === 0 || (await isFree(c.port, c.host))) return c.port;
  logger.warn({ port: c.port }, `metrics port ${c.port} is taken: metrics listen on a free port instead (set METRICS_PORT to choose one)`);
  return 0;
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}
