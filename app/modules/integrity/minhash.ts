/**
 * MinHash signatures and locality-sensitive hashing bands (docs/decisions/045-integrity-signals.md): an answer's
 * shingles become 128 minimums of seeded 32-bit hashes; two signatures agree on a position with probability
 * equal to the two sets' Jaccard similarity. The 128 positions are cut into 32 bands of 4: two answers share a
 * band key (and are compared) when one band agrees whole, which happens for nearly every pair at 0.6 and
 * seldom below 0.3. Pure and dependency-free: the worker, the bench and the tests use the same.
 */

export const SIGNATURE_SIZE = 128;
export const BANDS = 32;
export const ROWS_PER_BAND = SIGNATURE_SIZE / BANDS;

/** MurmurHash3's 32-bit finaliser: every input bit moves every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A string's 32-bit hash: FNV-1a over its UTF-16 units, then fmix32 (well spread, stable across processes). */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** The 128 seeds: a fixed SplitMix32-style sequence, so signatures stored yesterday compare with today's. */
const SEEDS: Uint32Array = (() => {
  const seeds = new Uint32Array(SIGNATURE_SIZE);
  let state = 0x9e3779b9;
  for (let i = 0; i < SIGNATURE_SIZE; i++) {
    state = (state + 0x9e3779b9) >>> 0;
    seeds[i] = fmix32(state);
  }
  return seeds;
})();

/** The hashes of a set of shingles (what a starter's shingles are subtracted as). */
export function shingleHashes(shingles: Iterable<string>): Set<number> {
  const hashes = new Set<number>();
  for (const shingle of shingles) hashes.add(hashString(shingle));
  return hashes;
}

/** The signature of a set of shingle hashes (not empty): per seed, the minimum of fmix32(hash ^ seed). */
export function minhash(hashes: Iterable<number>): Uint32Array {
  const signature = new Uint32Array(SIGNATURE_SIZE).fill(0xffffffff);
  for (const hash of hashes) {
    for (let i = 0; i < SIGNATURE_SIZE; i++) {
      const value = fmix32((hash ^ SEEDS[i]) >>> 0);
      if (value < signature[i]) signature[i] = value;
    }
  }
  return signature;
}

/** The share of positions two signatures agree on: an estimate of the Jaccard similarity of their sets. */
export function estimatedSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let same = 0;
  for (let i = 0; i < SIGNATURE_SIZE; i++) if (a[i] >>> 0 === b[i] >>> 0) same++;
  return same / SIGNATURE_SIZE;
}

/** A signature's band keys: per band, a signed 32-bit hash of the band's number and its 4 values (as Postgres stores an integer). */
export function bandKeys(signature: ArrayLike<number>): number[] {
  const keys: number[] = [];
  for (let band = 0; band < BANDS; band++) {
    let h = fmix32((band + 1) * 0x27d4eb2d);
    for (let row = 0; row < ROWS_PER_BAND; row++) h = fmix32((h ^ (signature[band * ROWS_PER_BAND + row] >>> 0)) >>> 0) ^ Math.imul(h, 31);
    keys.push(h | 0);
  }
  return keys;
}

/** The exact Jaccard similarity of two sets (the evidence a judge reads is computed with it). */
export function jaccard<T>(a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A signature as Postgres's int4[] holds it (signed), and back. */
export const toStored = (signature: Uint32Array): number[] => Array.from(signature, (value) => value | 0);
export const fromStored = (stored: number[]): Uint32Array => Uint32Array.from(stored, (value) => value >>> 0);
