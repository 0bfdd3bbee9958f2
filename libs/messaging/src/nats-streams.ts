import { JetStreamApiError, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream';

const streamNotFound = 10059;
const streamNameExists = 10058;

export function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

/**
 * Creates the stream, or checks the existing one: same retention; missing subjects, a new max age or number of
 * copies are applied.
 * Safe when several processes ensure the same stream at once.
 */
export async function ensureStream(jsm: JetStreamManager, cfg: Partial<StreamConfig> & Pick<StreamConfig, 'name' | 'subjects' | 'retention'>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const info = await jsm.streams.info(cfg.name);
      if (info.config.retention !== cfg.retention)
        throw new Error(`stream ${cfg.name} exists with ${info.config.retention} retention, expected ${cfg.retention}`);
      const missing = cfg.subjects.filter((s) => !info.config.subjects.includes(s));
      const ageChanged = cfg.max_age !== undefined && cfg.max_age !== info.config.max_age;
      const replicasChanged = cfg.num_replicas !== undefined && cfg.num_replicas !== info.config.num_replicas;
      if (missing.length > 0 || ageChanged || replicasChanged)
        await jsm.streams.update(cfg.name, {
          subjects: [...info.config.subjects, ...missing],
          ...(ageChanged ? { max_age: cfg.max_age } : {}),
          ...(replicasChanged ? { num_replicas: cfg.num_replicas } : {}),
        });
      return;
    } catch (err) {
      if (!isApiError(err, streamNotFound) || attempt > 2) throw err;
    }
    try {
      await jsm.streams.add(cfg);
      return;
    } catch (err) {
      if (!isApiError(err, streamNameExists) || attempt > 2) throw err; // created concurrently: check it again
    }
  }
}
