/**
 * Which rows of a prediction challenge's labels are public (docs/domain.md "Prediction challenges"): exactly
 * round(rows × percent / 100) of them, drawn by a Fisher–Yates shuffle whose random numbers are AES-128-CTR's key
 * stream under the challenge's secret seed. The same labels and seed give the same rows in every process and every
 * run; without the seed (never sent to a participant) they cannot be told from the other rows.
 */
import { createCipheriv } from "node:crypto";

/** The number of public rows of `rows` labels at `percent` (0 to 100). */
export function publicCount(rows: number, percent: number): number {
  return Math.round((rows * percent) / 100);
}

/**
 * A byte per row: 1 public, 0 private. `seedHex`: 32 bytes as hex (16 are the key, 16 the counter's start).
 * Cost: one key stream of 4 bytes a row and a partial shuffle (a million rows in a few milliseconds).
 */
export function publicRows(rows: number, percent: number, seedHex: string): Uint8Array {
  const seed = Buffer.from(seedHex, "hex");
  if (seed.length < 32) throw new Error("the split's seed must be 32 bytes");
  const take = publicCount(rows, percent);
  const marks = new Uint8Array(rows);
  if (take === 0) return marks;
  if (take === rows) return marks.fill(1);
  const cipher = createCipheriv("aes-128-ctr", seed.subarray(0, 16), seed.subarray(16, 32));
  const stream = cipher.update(Buffer.alloc(take * 4));
  const random = new Uint32Array(stream.buffer, stream.byteOffset, take);
  const order = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) order[i] = i;
  // The first `take` places of a shuffle: place i gets a row drawn from those not yet placed (i .. rows-1). The draw's
  // bias (2^32 mod the range, over 2^32) is below one in four thousand for a million rows: no row is notably likelier.
  for (let i = 0; i < take; i++) {
    const j = i + (random[i] % (rows - i));
    const row = order[j];
    order[j] = order[i];
    order[i] = row;
    marks[row] = 1;
  }
  return marks;
}

/** The complement of a split's public marks: the private rows. */
export function privateRows(publicMarks: Uint8Array): Uint8Array {
  const marks = new Uint8Array(publicMarks.length);
  for (let i = 0; i < publicMarks.length; i++) marks[i] = publicMarks[i] === 1 ? 0 : 1;
  return marks;
}
