/**
 * An image's perceptual hash, decoded by sharp (libvips; docs/decisions/047-image-hashes.md) in the integrity
 * worker only, loaded on first use (the web process never loads it). An upload is hostile until decoded: only
 * bytes that begin as PNG, JPEG, GIF or WebP are decoded, at most IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS and
 * IMAGE_TIMEOUT_SECONDS each, the first frame only; whatever fails is null (the caller logs it and moves on).
 */
import type { Sharp, SharpOptions } from "sharp";
import { fileView } from "../submissions/file-view.ts";
import { comparableImage, dHash } from "./image-hash.ts";

/** The largest image file hashed (bigger ones are compared by their bytes only). */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** The most pixels an image may declare (libvips refuses more before decoding: a small file claiming 100,000² pixels). */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** The longest one decoding may take. */
export const IMAGE_TIMEOUT_SECONDS = 10;

let loaded: Promise<(input: Uint8Array, options: SharpOptions) => Sharp> | null = null;

function sharpOnce() {
  loaded ??= import("sharp").then(({ default: sharp }) => {
    // One thread per decoding and no cache of decoded images: the worker does other jobs beside.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

/** Whether the bytes begin as an image we hash (by their magic bytes, never a name or a claimed type). */
export function isHashableImage(start: Uint8Array): boolean {
  return fileView(start).kind === "image";
}

export type ImageHashResult = { hash: bigint } | { skipped: "not-image" | "too-big" | "plain" } | { failed: string };

/** The 64-bit dHash of an image's bytes: grey, flattened on white, upright (EXIF), resized to 9 × 8. */
export async function imageHash(bytes: Uint8Array): Promise<ImageHashResult> {
  if (!isHashableImage(bytes)) return { skipped: "not-image" };
  if (bytes.length > IMAGE_MAX_BYTES) return { skipped: "too-big" };
  try {
    const sharp = await sharpOnce();
    const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: "error", animated: false, sequentialRead: true })
      .timeout({ seconds: IMAGE_TIMEOUT_SECONDS })
      .rotate()
      .flatten({ background: "#ffffff" })
      .greyscale()
      .resize(9, 8, { fit: "fill" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const grey = new Uint8Array(72);
    for (let i = 0; i < 72; i++) grey[i] = data[i * info.channels];
    const hash = dHash(grey);
    return comparableImage(hash) ? { hash } : { skipped: "plain" };
  } catch (error) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
}
