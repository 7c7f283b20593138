/**
 * Images that are the same picture re-encoded (docs/domain.md "Integrity signals", docs/decisions/047-image-hashes.md):
 * a 64-bit difference hash (dHash) of a grey 9 × 8 copy, compared by Hamming distance, and the band keys that find
 * every stored hash within the threshold by index. Pure: the decoding is image-hash.server.ts's.
 */

/** Two hashes at most this many bits apart (of 64) are the same picture. */
export const IMAGE_DISTANCE = 6;
/**
 * The hash is cut into IMAGE_DISTANCE + 1 bands: two hashes differing in at most IMAGE_DISTANCE bits leave at least
 * one band untouched (pigeonhole), so the candidates sharing a band key include every near duplicate.
 */
export const IMAGE_BANDS = IMAGE_DISTANCE + 1;
/** A hash with fewer set (or unset) bits than this is a plain picture (a blank page, one colour): never compared. */
export const MIN_IMAGE_BITS = 8;

/** The bands' widths: 64 bits in IMAGE_BANDS nearly equal parts (9 × 6 + 10 at a distance of 6). */
const widths = Array.from({ length: IMAGE_BANDS }, (_, band) => Math.floor(64 / IMAGE_BANDS) + (band >= IMAGE_BANDS - (64 % IMAGE_BANDS) ? 1 : 0));
const BAND_SPAN = 1 << Math.max(...widths);

/** The dHash of a grey 9 × 8 picture (72 values, row by row): bit i is set when a pixel is darker than its right neighbour. */
export function dHash(grey: Uint8Array | readonly number[]): bigint {
  if (grey.length !== 72) throw new Error("dHash needs 9 × 8 grey values");
  let hash = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) hash = (hash << 1n) | (grey[y * 9 + x] < grey[y * 9 + x + 1] ? 1n : 0n);
  return hash;
}

/** How many of the 64 bits differ. */
export function hammingDistance(a: bigint, b: bigint): number {
  let diff = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (diff) {
    diff &= diff - 1n;
    count++;
  }
  return count;
}

/** Whether a hash carries enough of a picture to be compared (not blank, not one colour). */
export function comparableImage(hash: bigint): boolean {
  const ones = hammingDistance(hash, 0n);
  return ones >= MIN_IMAGE_BITS && 64 - ones >= MIN_IMAGE_BITS;
}

/** The hash's band keys: band number × span + the band's bits, one per band (integers, indexed as print_bands' are). */
export function imageBandKeys(hash: bigint): number[] {
  const unsigned = BigInt.asUintN(64, hash);
  const keys: number[] = [];
  let shift = 0;
  widths.forEach((width, band) => {
    keys.push(band * BAND_SPAN + Number((unsigned >> BigInt(shift)) & ((1n << BigInt(width)) - 1n)));
    shift += width;
  });
  return keys;
}

/** The similarity a distance stands for, in percent: 1 − d/64. */
export const imageSimilarity = (distance: number) => Math.round((1 - distance / 64) * 100);

/** The hash as Postgres keeps it (a signed bigint), and back. */
export const toStoredHash = (hash: bigint) => BigInt.asIntN(64, hash);
export const fromStoredHash = (stored: bigint) => BigInt.asUintN(64, stored);
