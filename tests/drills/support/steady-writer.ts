/**
 * A user who keeps saving things through a fault: each item is posted until the server acknowledges it.
 * A clear refusal (the server says "try again") puts the item back in line, as a person would retry it;
 * anything else (a 500, a hang, a dropped connection) is recorded as unexpected, and the drill fails on it.
 */
export type Outcome = { kind: "saved" } | { kind: "refused"; status: number } | { kind: "unexpected"; detail: string };

export class SteadyWriter<T> {
  readonly saved: T[] = [];
  readonly refusals: Array<{ at: number; status: number }> = [];
  readonly unexpected: string[] = [];
  /** Wall-clock time of each acknowledgement, to find the first one after a fault. */
  readonly savedAt: number[] = [];
  private readonly queue: T[];
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    items: readonly T[],
    private readonly attempt: (item: T) => Promise<Outcome>,
    private readonly pauseMs: number,
  ) {
    this.queue = [...items];
  }

  get pending(): number {
    return this.queue.length;
  }

  start() {
    this.running = this.loop();
    return this;
  }

  /** Lets the writer finish every item (retrying refusals), then resolves; throws after `timeoutMs`. */
  async finish(timeoutMs: number) {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`writer still had ${this.queue.length} items after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.running, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async loop() {
    for (;;) {
      const item = this.queue.shift();
      if (item === undefined) {
        if (this.stopping) return;
        await pause(this.pauseMs);
        continue;
      }
      const outcome = await this.attempt(item).catch((error: unknown): Outcome => ({ kind: "unexpected", detail: String(error) }));
      if (outcome.kind === "saved") {
        this.saved.push(item);
        this.savedAt.push(Date.now());
      } else {
        if (outcome.kind === "refused") this.refusals.push({ at: Date.now(), status: outcome.status });
        else this.unexpected.push(outcome.detail);
        this.queue.push(item);
      }
      await pause(this.pauseMs);
    }
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
