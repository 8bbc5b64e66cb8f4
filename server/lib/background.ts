// Work a request starts but does not wait for (the e-mail-change notice, the password-reset link), so the answer does
// not depend on the mail server. Each task is tracked until it ends, so tests (and a graceful shutdown, later) can
// wait for it instead of sleeping, and a failure is logged instead of lost.

export class BackgroundWork {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly logError: (error: unknown, message: string) => void) {}

  /** Starts `work` now without making the caller wait; a failure is logged with `failure` as the message. */
  run(failure: string, work: () => Promise<unknown>): void {
    const task = (async () => {
      try {
        await work();
      } catch (error) {
        this.logError(error, failure);
      }
    })();
    this.#pending.add(task);
    void task.finally(() => this.#pending.delete(task));
  }

  /** Resolves once every task started so far (and any task those started) has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
