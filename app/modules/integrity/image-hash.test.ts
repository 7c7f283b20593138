/**
 * The perceptual hash of images (docs/decisions/047-image-hashes.md): the same picture re-encoded (JPEG at quality
 * 60, resized to 90 %, WebP, a GIF) lands within IMAGE_DISTANCE bits; another picture, a blank page and a corrupt
 * or oversized file do not. Pictures are made from raw pixels (tests/support/pictures.ts).
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { picturePng as png, reencoded } from "../../../tests/support/pictures.ts";
import { imageHash, type ImageHashResult } from "./image-hash.server.ts";
import { hammingDistance, IMAGE_BANDS, IMAGE_DISTANCE, imageBandKeys } from "./image-hash.ts";

function hashOf(result: ImageHashResult): bigint {
  if (!("hash" in result)) throw new Error(`no hash: ${JSON.stringify(result)}`);
  return result.hash;
}

describe("image hashes", () => {
  it("finds the same picture re-encoded as JPEG at quality 60 and resized to 90 %, or as WebP or GIF", async () => {
    const original = await png(1);
    const jpeg = await reencoded(original);
    const webp = await sharp(original).webp({ quality: 50 }).toBuffer();
    const gif = await sharp(original).resize(240).gif().toBuffer();
    const a = hashOf(await imageHash(original));
    for (const copy of [jpeg, webp, gif]) expect(hammingDistance(a, hashOf(await imageHash(copy)))).toBeLessThanOrEqual(IMAGE_DISTANCE);
  });

  it("tells different pictures apart", async () => {
    const hashes = await Promise.all([1, 2, 3, 4, 5].map(async (seed) => hashOf(await imageHash(await png(seed)))));
    for (let i = 0; i < hashes.length; i++) for (let j = i + 1; j < hashes.length; j++) expect(hammingDistance(hashes[i], hashes[j])).toBeGreaterThan(IMAGE_DISTANCE);
  });

  it("skips a blank page, a corrupt file, a file that is no image and a picture declaring too many pixels, without throwing", async () => {
    const blank = await sharp({ create: { width: 200, height: 100, channels: 3, background: "#ffffff" } }).png().toBuffer();
    expect(await imageHash(blank)).toEqual({ skipped: "plain" });
    const truncated = (await png(2)).subarray(0, 400);
    expect(await imageHash(truncated)).toHaveProperty("failed");
    expect(await imageHash(Buffer.from("just some text, not a picture at all"))).toEqual({ skipped: "not-image" });
    // A small PNG whose header claims 50,000 × 50,000 pixels: refused before decoding.
    const huge = Buffer.from(await png(3));
    huge.writeUInt32BE(50_000, 16);
    huge.writeUInt32BE(50_000, 20);
    expect(await imageHash(huge)).toHaveProperty("failed");
  });

  it("band keys: two hashes within the threshold share at least one", () => {
    let state = 7;
    const rand = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    for (let round = 0; round < 500; round++) {
      const a = BigInt.asUintN(64, (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32)));
      let b = a;
      const bits = new Set<number>();
      while (bits.size < IMAGE_DISTANCE) bits.add(Math.floor(rand() * 64));
      for (const bit of bits) b ^= 1n << BigInt(bit);
      expect(hammingDistance(a, b)).toBe(IMAGE_DISTANCE);
      const keysA = imageBandKeys(a);
      expect(keysA).toHaveLength(IMAGE_BANDS);
      expect(imageBandKeys(b).some((key, band) => key === keysA[band])).toBe(true);
    }
  });
});
