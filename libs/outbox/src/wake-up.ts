/** Wake-up: what the relay loop waits on between batches — a wake() since the last pass, or a timeout. */
export class WakeUp {
  /** A wake() came since the loop last cleared it. */
  pending = false;
  private resolveWait: (() => void) | undefined;

  wake(): void {
    this.pending = true;
    this.resolveWait?.();
  }

  /** Resolves at the next wake() (at once when one is pending) or after `ms`. */
  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.pending) return resolve();
      const done = () => {
        clearTimeout(t);
        this.resolveWait = undefined;
        resolve();
      };
      const t = setTimeout(done, ms);
      this.resolveWait = done;
    });
  }
}
