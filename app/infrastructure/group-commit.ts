/**
 * Items sent together, as a database groups commits: the first item sent starts a batch at once (after the I/O of
 * the same moment has been read, so the items that arrived with it go too); the items sent while a batch runs wait
 * for it and go together in the next one. Nothing waits for a timer: an item after a quiet moment goes alone, and
 * under load a batch holds what arrived during the one before. One batch runs at a time per GroupCommit; one that
 * has not ended after `stallMs` is left to end on its own (its items wait for it) and the next one goes.
 *
 * Two items with the same key are never in flight together (the later one waits for the next batch after the
 * earlier one settled), so a statement that locks a row per item never meets its own row twice. A batch that fails
 * with an error `alone` accepts (a fault that may be one item's: a row that breaks a constraint, a lock that one
 * item waited for too long) has its items sent again one by one: one queue of such items per GroupCommit, sent one
 * after another beside the batches that follow, so each gets its own outcome and they never take more than one
 * connection. Any other error (the database away) fails the whole batch at once, and every item waiting to be sent
 * again with it.
 */
export interface GroupCommit<T, R> {
  /** The item's result, from the batch that took it. */
  send(item: T): Promise<R>;
  /** Resolves when an item sent now would start its batch at the earliest: after the batch running now, if any (`stallMs` at most). */
  turn(): Promise<void>;
  /** Items waiting for a batch (tests). */
  waiting(): number;
}

export interface GroupCommitOptions<T, R> {
  /** Items in one batch at most. */
  maxItems: number;
  /** How long a batch holds up the next one at most. */
  stallMs: number;
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

/** Resolves once `promise` (which never rejects) has, or after `ms`. */
async function atMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A callback's answer, or `fallback` if it throws: the batches must go on whatever a metric does. */
function safely<V>(call: () => V, fallback: V): V {
  try {
    return call();
  } catch {
    return fallback;
  }
}

export function groupCommit<T, R>(options: GroupCommitOptions<T, R>): GroupCommit<T, R> {
  let queue: Array<Entry<T, R>> = [];
  /** The keys of the items sent and not settled yet. */
  const inFlight = new Set<string>();
  let running = false;
  /** The batch the loop waits for now (never rejects). */
  let current: Promise<void> | null = null;
  /** A failed batch's items, to be sent again one by one. */
  const again: Array<Entry<T, R>> = [];
  let sendingAgain = false;

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

  function settle(entry: Entry<T, R>, outcome: { result: R } | { error: unknown }) {
    inFlight.delete(entry.key);
    if ("result" in outcome) entry.resolve(outcome.result);
    else entry.reject(outcome.error);
  }

  async function sendNow(batch: Array<Entry<T, R>>): Promise<R[]> {
    const results = await options.sendBatch(batch.map((entry) => entry.item));
    if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} items had ${results.length} results`);
    return results;
  }

  /** Sends a batch; settles its items, or hands them to be sent again. Never rejects. */
  async function run(batch: Array<Entry<T, R>>): Promise<void> {
    safely(() => options.onBatch?.(batch.length), undefined);
    try {
      const results = await sendNow(batch);
      batch.forEach((entry, index) => settle(entry, { result: results[index] }));
    } catch (error) {
      if (!safely(() => options.alone(error), false)) {
        for (const entry of batch) settle(entry, { error });
      } else {
        safely(() => options.onAlone?.(batch.length), undefined);
        again.push(...batch);
        void sendAgain();
      }
    } finally {
      start();
    }
  }

  /** The items to send again, one after another, until none is left. Never rejects. */
  async function sendAgain() {
    if (sendingAgain) return;
    sendingAgain = true;
    try {
      for (let entry = again.shift(); entry; entry = again.shift()) {
        try {
          const [result] = await sendNow([entry]);
          settle(entry, { result });
        } catch (error) {
          settle(entry, { error });
          // Not one item's fault: the rest would fail alike, one after another.
          if (!safely(() => options.alone(error), false)) for (const rest of again.splice(0)) settle(rest, { error });
        }
        start();
      }
    } finally {
      sendingAgain = false;
    }
  }

  async function runBatches() {
    try {
      for (let batch = take(); batch.length > 0; batch = take()) {
        const sent = run(batch);
        current = sent;
        await atMost(sent, options.stallMs);
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
    turn: () => new Promise<void>((resolve) => setImmediate(resolve)).then(() => (current ? atMost(current, options.stallMs) : undefined)),
    waiting: () => queue.length,
  };
}
