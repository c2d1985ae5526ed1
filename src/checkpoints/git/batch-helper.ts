import { converseWithGit, type GitSetup } from '../../infra/git.js';
import type { Conversation } from '../../infra/process.js';

/**
 * One git batch command (`mktree --batch`, `hash-object --stdin-paths`,
 * `update-ref --stdin`), asked one request after another: each request is
 * answered by a fixed number of lines on stdout, in order. When git stops
 * (a request it refuses makes it exit), every open request fails with what
 * git said, and so does every later one.
 */

interface Waiting {
  lines: number;
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
}

export class GitBatchError extends Error {
  override name = 'GitBatchError';
}

export class BatchHelper {
  private readonly waiting: Waiting[] = [];
  private readonly got: string[] = [];
  private partial = '';
  private failure: Error | undefined;

  private constructor(
    private readonly what: string,
    private readonly conversation: Conversation,
  ) {
    void conversation.ended.then((outcome) => {
      const said = outcome.failure ?? (outcome.stderr.toString('utf8').trim() || `exit code ${outcome.exitCode ?? outcome.signal ?? '?'}`);
      this.fail(new GitBatchError(`git ${this.what} failed: ${said}`));
    });
  }

  /** Starts `git <args>` in `cwd` with the sanitized setup of every git call. */
  static async start(args: readonly string[], call: GitSetup & { cwd: string }): Promise<BatchHelper> {
    let helper: BatchHelper | undefined;
    const early: Buffer[] = [];
    const conversation = await converseWithGit(args, {
      ...call,
      onStdout: (bytes) => (helper ? helper.take(bytes) : early.push(bytes)),
    });
    helper = new BatchHelper(args[0] ?? 'git', conversation);
    for (const bytes of early) helper.take(bytes);
    return helper;
  }

  /** True once git stopped answering. */
  get broken(): boolean {
    return this.failure !== undefined;
  }

  /** Sends `request` and resolves with the `lines` lines that answer it. */
  ask(request: Buffer | string, lines = 1): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ lines, resolve, reject });
      this.conversation.write(request);
    });
  }

  /** Ends the conversation (stdin closed, exit awaited); what was not answered fails. */
  async finish(): Promise<void> {
    await this.conversation.finish();
  }

  private take(bytes: Buffer): void {
    const text = this.partial + bytes.toString('latin1');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    this.got.push(...parts);
    for (let next = this.waiting[0]; next && this.got.length >= next.lines; next = this.waiting[0]) {
      this.waiting.shift();
      next.resolve(this.got.splice(0, next.lines));
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.waiting.splice(0)) waiting.reject(this.failure);
  }
}
