import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

/**
 * The processes a test starts, each one's output kept under its name: `keep(name, spawn(…))`, and `waitFor` a URL
 * to answer 2xx (polling every `stepMs`), failing with every process's output.
 */
export function serviceChildren(stepMs: number) {
  const children: ChildProcess[] = [];
  const logs: Record<string, string> = {};
  const keep = (name: string, child: ChildProcess) => {
    logs[name] = '';
    child.stdout?.on('data', (d) => (logs[name] += d));
    child.stderr?.on('data', (d) => (logs[name] += d));
    children.push(child);
    return child;
  };
  const waitFor = async (url: string, ms: number) => {
    const t = Date.now();
    while (Date.now() - t < ms) {
      if (
        await fetch(url).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, stepMs));
    }
    throw new Error(`${url} did not answer within ${ms} ms:\n${JSON.stringify(logs, null, 1)}`);
  };
  return { children, logs, keep, waitFor };
}
