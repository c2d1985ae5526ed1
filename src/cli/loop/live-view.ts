import type { AgentProgress } from '../../agent-result.js';
import { LiveTextRedactor } from '../../core/live-text-redactor.js';
import type { Redactor } from '../../core/secret-redactor.js';
import type { LoopEvent } from '../../engine/loop-events.js';
import { createLiveRenderer, type LiveRenderer } from '../../ui/live-renderer.js';

/** What the running call shows: its latest tool and line, and how many tools it used. */
export interface CallActivityFacts {
  /** "Bash: npm test"; null until the agent used a tool. */
  currentTool: string | null;
  /** The last line with words on it of what was shown; '' until there is one. */
  lastLine: string;
  toolUses: number;
}

/** A beat of the clock with what the call shows at that moment: the spinner redraws, progress.json follows. */
export interface CallBeat extends CallActivityFacts {
  type: 'call.beat';
  iteration: number;
  startedAt: number;
  now: number;
}

/** What the live view makes of the agent's progress, for the terminal and the run files. */
export type LiveViewEvent =
  /** Rendered, redacted text: --live shows it, live.log records it. */
  | { type: 'call.output'; text: string }
  /** A tool started, or a line was shown. */
  | { type: 'call.activity'; tool?: string; lastLine?: string }
  | CallBeat;

/** The events the terminal presenter and the run-files projector see: the loop's, and the live view's made of its progress facts and ticks. */
export type ShownEvent = LoopEvent | LiveViewEvent;

export interface LiveViewOptions {
  /** Print the command / path / pattern of each tool call. */
  showToolArgs: boolean;
  /** The user's secrets as the process knows them when a call starts. */
  redactor(): Redactor;
}

/** Display name of a tool call: the tool and the first line of its argument, clipped to stay one short line. */
function describeToolUse(event: Extract<AgentProgress, { kind: 'tool_use' }>): string {
  return event.argument === undefined ? event.tool : `${event.tool}: ${event.argument.split('\n', 1)[0]?.slice(0, 60)}`;
}

/** Whether a UTF-16 unit is white space as String.prototype.trim sees it. */
function isBlank(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(String.fromCharCode(c));
}

/**
 * The last line of `text` with more than spaces on it: the line holding its last character
 * that is not a space. This runs on every piece of --live output, so no line is copied, and
 * line ends are found forwards: a search forwards skips along the text many times faster
 * than one backwards, and most pieces hold one line.
 */
export function lastNonBlankLine(text: string): string | undefined {
  let last = text.length - 1;
  while (last >= 0 && isBlank(text.charCodeAt(last))) last -= 1;
  if (last < 0) return undefined;
  let start = 0;
  let newline = text.indexOf('\n');
  while (newline !== -1 && newline < last) {
    start = newline + 1;
    newline = text.indexOf('\n', start);
  }
  return text.slice(start, newline === -1 ? text.length : newline);
}

/** One call's view: its renderer and redactor (both keep state across the call's events) and its activity. */
class CallView {
  private readonly renderer: LiveRenderer;
  private readonly redactor: LiveTextRedactor;
  readonly activity: CallActivityFacts = { currentTool: null, lastLine: '', toolUses: 0 };

  constructor(options: LiveViewOptions) {
    this.renderer = createLiveRenderer({ showToolArgs: options.showToolArgs });
    this.redactor = new LiveTextRedactor(options.redactor());
  }

  push(event: AgentProgress, next: (event: LiveViewEvent) => void): void {
    const activity = this.activity;
    if (event.kind === 'tool_use') {
      const tool = describeToolUse(event);
      activity.currentTool = tool;
      activity.toolUses += 1;
      next({ type: 'call.activity', tool });
    }
    const text = this.redactor.write(this.renderer.pushParts(event));
    if (text === '') return;
    next({ type: 'call.output', text });
    // The line shown last, as shown (redacted): the spinner and progress.json say the same.
    activity.lastLine = lastNonBlankLine(text) ?? activity.lastLine;
    next({ type: 'call.activity', lastLine: activity.lastLine });
  }

  /** What the redactor still holds (text that could have been the start of a secret): the call ended. */
  end(): string {
    return this.redactor.end();
  }
}

/**
 * The one place the agent's progress becomes text: renders each progress fact once (with the
 * user's secrets redacted across the agent's messages) and hands the text, the call's activity
 * and a beat on each tick to `next`, which feeds both the terminal and the run files. Every
 * other event passes through unchanged, in its order.
 */
export function createLiveView(options: LiveViewOptions, next: (event: ShownEvent) => void): (event: LoopEvent) => void {
  let call: CallView | undefined;
  return (e) => {
    switch (e.type) {
      case 'call.running':
        call = new CallView(options);
        next(e);
        return;
      case 'call.progress':
        call ??= new CallView(options);
        call.push(e.event, next);
        return;
      case 'call.tick': {
        const activity = call?.activity ?? { currentTool: null, lastLine: '', toolUses: 0 };
        next({ type: 'call.beat', iteration: e.iteration, startedAt: e.startedAt, now: e.now, ...activity });
        return;
      }
      case 'call.end':
      // The reviewer's call (its progress comes with --live) is a call of its own: it starts and ends a view.
      case 'review.end': {
        const rest = call?.end() ?? '';
        call = undefined;
        if (rest !== '') next({ type: 'call.output', text: rest });
        next(e);
        return;
      }
      case 'review.start':
        call = new CallView(options);
        next(e);
        return;
      default:
        next(e);
    }
  };
}
