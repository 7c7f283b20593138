/**
 * Items sent together, as a database groups commits: the first item sent starts a batch at once (after the I/O of
 * the same moment has been read, so the items that arrived with it go too); the items sent while a batch runs wait
 * for it and go together in the next one. Nothing waits for a timer: an item after a quiet moment goes alone, and
 * under load a batch holds what arrived during the one before. One batch runs at a time per GroupCommit.
 *
 * Two items with the same key are never in flight together (the later one waits for the next batch after the
 * earlier one settled), so a statement that locks a row per item never meets its own row twice. A batch that fails
 * with an error `alone` accepts (a fault that may be one item's: a row that breaks a constraint, a lock that one
 * item waited for too long) has its items sent again one by one, one after another, beside the batches that follow:
 * each gets its own outcome. Any other error (the database away) fails the whole batch at once.
 */
export interface GroupCommit<T, R> {
  /** The item's result, from the batch that took it. */
  send(item: T): Promise<R>;
  /** Resolves when an item sent now would start its batch at the earliest: after the batch running now, if any. */
  turn(): Promise<void>;
  /** Items waiting for a batch (tests). */
  waiting(): number;
}

export interface GroupCommitOptions<T, R> {
  /** Items in one batch at most. */
  maxItems: number;
  keyOf: (item: T) => string;
  /** Sends a batch: one result per item, in the items' order. */
  sendBatch: (items: readonly T[]) => Promise<R[]>;
  /** Whether a failed batch's items are sent again one by one. */
  alone: (error: unknown) => boolean;
  /** Called with each batch's size (a metric). */
  onBatch?: (size: number) => void;
  /** Called with the number of items of a failed batch sent again one by one (a metric). */
  onAlone?: (count: number) => void;
}

interface Entry<T, R> {
  item: T;
  key: string;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export function groupCommit<T, R>(options: GroupCommitOptions<T, R>): GroupCommit<T, R> {
  let queue: Array<Entry<T, R>> = [];
  /** The keys of the items sent and not settled yet. */
  const inFlight = new Set<string>();
  let running = false;
  /** The batch running now (settled: its outcome handled). */
  let current: Promise<void> | null = null;

  /** The next batch: the first items in order whose key is not in flight, one per key, at most maxItems; the rest stay in order. */
  function take(): Array<Entry<T, R>> {
    const batch: Array<Entry<T, R>> = [];
    const rest: Array<Entry<T, R>> = [];
    for (const entry of queue) {
      if (batch.length < options.maxItems && !inFlight.has(entry.key)) {
        inFlight.add(entry.key);
        batch.push(entry);
      } else rest.push(entry);
    }
    queue = rest;
    return batch;
  }

  async function sendEach(batch: Array<Entry<T, R>>, retry: boolean) {
    if (!retry) options.onBatch?.(batch.length);
    const results = await options.sendBatch(batch.map((entry) => entry.item));
    if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} items had ${results.length} results`);
    batch.forEach((entry, index) => entry.resolve(results[index]));
  }

  function settled(entry: Entry<T, R>) {
    inFlight.delete(entry.key);
  }

  async function run(batch: Array<Entry<T, R>>) {
    try {
      await sendEach(batch, false);
      batch.forEach(settled);
    } catch (error) {
      if (!options.alone(error)) {
        for (const entry of batch) {
          settled(entry);
          entry.reject(error);
        }
        return;
      }
      // Not awaited: the next batch goes meanwhile. One after another: a batch's worth of statements at once would
      // take the pool's every connection, and the driver would queue some behind one that waits for a lock.
      options.onAlone?.(batch.length);
      void (async () => {
        for (const entry of batch) {
          try {
            await sendEach([entry], true);
          } catch (own) {
            entry.reject(own);
          } finally {
            settled(entry);
            start();
          }
        }
      })();
    }
  }

  async function runBatches() {
    try {
      for (let batch = take(); batch.length > 0; batch = take()) {
        current = run(batch);
        await current;
      }
    } finally {
      running = false;
      current = null;
    }
  }

  /** Starts the batches unless they run (an item that waits for a key in flight is taken once it settles). */
  function start() {
    if (running || queue.length === 0) return;
    running = true;
    setImmediate(() => void runBatches());
  }

  return {
    send(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, key: options.keyOf(item), resolve, reject });
        start();
      });
    },
    turn: () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => current ?? undefined),
    waiting: () => queue.length,
  };
}
