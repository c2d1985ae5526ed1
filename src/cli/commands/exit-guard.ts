/**
 * Work that an impatient Ctrl+C must not cut in half: a rollback writing the
 * user's files back. While such work runs, a forced exit waits for it, so the
 * tree is either before or after, never in between.
 */
export class ExitGuard {
  private readonly running = new Set<{ label: string; done: Promise<unknown> }>();

  /** Runs `work`, marked as not to be interrupted by a forced exit. */
  async protect<T>(label: string, work: () => Promise<T>): Promise<T> {
    const done = work();
    const entry = { label, done };
    this.running.add(entry);
    try {
      return await done;
    } finally {
      this.running.delete(entry);
    }
  }

  /** What is in progress, or undefined when nothing is. */
  busy(): string | undefined {
    const [first] = this.running;
    return first?.label;
  }

  /** Resolves once no protected work is left (also when it failed). */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running].map((e) => e.done));
    }
  }
}
