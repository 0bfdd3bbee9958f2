import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** One nats-server process a test starts (until its port listens) and SIGKILLs, as often as it likes. */
export function natsProcess(binary: string, port: number, args: string[]): { start(): Promise<void>; stop(): Promise<void> } {
  let child: ChildProcess | undefined;
  return {
    async start() {
      const c = spawn(binary, args, { stdio: 'ignore' });
      child = c;
      const deadline = Date.now() + 10_000;
      while (!(await listening(port))) {
        if (c.exitCode !== null) throw new Error(`nats-server exited (${c.exitCode}) on port ${port}`);
        if (Date.now() > deadline) throw new Error(`nats-server did not listen on port ${port} within 10 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
  };
}
