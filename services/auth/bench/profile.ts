import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/** Runs `fn` under the V8 CPU profiler (this process's main thread) and writes `<dir>/<name>.cpuprofile`. */
export async function profiled<T>(dir: string | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    const file = path.join(dir, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile: ${file}`);
    session.disconnect();
  }
}
