/** What a process's start function hands back: how to log and how to stop (drain) everything it started. */
export interface StartedProcess {
  logger: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Stop in order: stop accepting, finish work in hand, close connections. */
  stop(): Promise<void>;
}

export interface RunProcessOptions {
  /** After a first SIGINT/SIGTERM, exit anyway after this long (ms). Default 20 s. */
  graceMs?: number;
  /** For tests: what "exit" means. */
  exit?: (code: number) => void;
  signals?: NodeJS.EventEmitter;
}

/**
 * The main of a service process: start it; on SIGTERM or SIGINT stop it once and exit 0 (a second signal, or
 * a drain longer than graceMs, exits 1); a failed start prints the error and exits 1.
 */
export function runProcess(start: () => Promise<StartedProcess>, opts: RunProcessOptions = {}): Promise<void> {
  const { graceMs = 20_000, exit = (code: number) => process.exit(code), signals = process } = opts;
  return start().then(
    (started) => {
      let stopping = false;
      const shutdown = async (signal: string) => {
        if (stopping) {
          started.logger.error({ signal }, 'second signal: exiting now');
          return exit(1);
        }
        stopping = true;
        started.logger.info({ signal }, 'stopping');
        const force = setTimeout(() => {
          started.logger.error({ graceMs }, 'stopping took too long: exiting');
          exit(1);
        }, graceMs);
        force.unref();
        try {
          await started.stop();
          clearTimeout(force);
          started.logger.info({ signal }, 'stopped');
          exit(0);
        } catch (err) {
          started.logger.error({ err }, 'stopping failed');
          exit(1);
        }
      };
      signals.on('SIGTERM', () => void shutdown('SIGTERM'));
      signals.on('SIGINT', () => void shutdown('SIGINT'));
    },
    (err) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      exit(1);
    },
  );
}
