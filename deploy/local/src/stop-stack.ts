import type { Logger } from '@vellum/logger';

/** Something a topology started, and how to stop it. */
interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * What a topology starts, in order, stopped in reverse by `stopAll` (once: a second call finds nothing left); a stop
 * that fails is logged and the rest still stop. `starting(start)` runs a start that, when it throws, stops what it
 * had started before the error goes on.
 */
export class StopStack {
  private readonly items: Stoppable[] = [];

  constructor(private readonly logger: Logger) {}

  push(item: Stoppable): void {
    this.items.push(item);
  }

  readonly stopAll = async (): Promise<void> => {
    for (const s of this.items.splice(0).reverse()) await s.stop().catch((err) => this.logger.error({ err }, `stopping ${s.name} failed`));
  };

  async starting<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (err) {
      await this.stopAll();
      throw err;
    }
  }
}
