// The embedded PostgreSQL server process (the postmaster), started in a process group of its own.
//
// A terminal's Ctrl-C sends SIGINT to its whole foreground process group. Were PostgreSQL in Node's group, it would
// begin a fast shutdown — terminating every connection — while the services are still draining on the same signal
// ("Connection terminated unexpectedly"). In its own group it hears nothing until Node stops it, last. A Node
// process killed outright leaves it running; the next start stops it (recoverPreviousRun).
import { execFileSync, spawn } from 'node:child_process';

interface PostmasterOptions {
  binary: string;
  dataDir: string;
  port: number;
  flags: string[];
  onLog(line: string): void;
}

export interface Postmaster {
  pid: number;
  /** Fast shutdown (SIGINT), escalating to immediate (SIGQUIT) and SIGKILL if it does not exit in time. */
  stop(): Promise<void>;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: as root, run it as the `postgres` user (created with the cluster). */
function runAs(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Starts the postmaster and resolves once it accepts connections; rejects with its output if it exits first. */
export function startPostmaster(opts: PostmasterOptions): Promise<Postmaster> {
  // lc_messages=C: the readiness line below is matched in English.
  const args = ['-D', opts.dataDir, '-p', String(opts.port), '-c', 'lc_messages=C', ...opts.flags];
  const child = spawn(opts.binary, args, { ...runAs(), detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    for (const [signal, ms] of [
      ['SIGINT', 15_000],
      ['SIGQUIT', 5_000],
      ['SIGKILL', 5_000],
    ] as const) {
      if (!alive()) return;
      child.kill(signal);
      if (await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(r, ms, false).unref())])) return;
    }
  };
  return new Promise((resolve, reject) => {
    let ready = false;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      for (const line of text.split('\n')) if (line.trim()) opts.onLog(line);
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true;
        resolve({ pid: child.pid!, stop });
      }
    });
    child.once('error', reject);
    void exited.then(() => {
      if (!ready) reject(new Error(`postgres exited (${child.exitCode ?? child.signalCode}) before accepting connections`));
    });
  });
}
