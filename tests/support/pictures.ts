/**
 * Pictures made from raw pixels for the image-hash tests (no binary fixtures): soft blobs of colour placed by a
 * seeded generator on a gradient of its own, textured as a photo or a diagram is; and the same picture re-encoded.
 */
import sharp from "sharp";

export const PICTURE_WIDTH = 320;
export const PICTURE_HEIGHT = 240;

/** The raw RGB pixels of picture number `seed`. */
export function picturePixels(seed: number, width = PICTURE_WIDTH, height = PICTURE_HEIGHT): Buffer {
  let state = seed >>> 0;
  const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const blobs = Array.from({ length: 16 }, () => ({ x: rand() * width, y: rand() * height, r: (20 + rand() * 70) * (width / 320), c: [rand() * 255, rand() * 255, rand() * 255] }));
  // A background of its own: each picture's colours and their slopes differ.
  const ground = [rand() * 128, rand() * 128, rand() * 128];
  const slope = [rand() * 60 - 30, rand() * 60 - 30, rand() * 60 - 30];
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const rgb = [ground[0] + (x / width) * slope[0], ground[1] + (y / height) * slope[1], ground[2] + ((x + y) / (width + height)) * slope[2]];
      for (const blob of blobs) {
        const weight = Math.max(0, 1 - Math.hypot(x - blob.x, y - blob.y) / blob.r);
        for (let c = 0; c < 3; c++) rgb[c] = rgb[c] * (1 - weight) + blob.c[c] * weight;
      }
      for (let c = 0; c < 3; c++) pixels[(y * width + x) * 3 + c] = Math.round(rgb[c]);
    }
  return pixels;
}

/** Picture number `seed` as a PNG. */
export function picturePng(seed: number, width = PICTURE_WIDTH, height = PICTURE_HEIGHT): Promise<Buffer> {
  return sharp(picturePixels(seed, width, height), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A copier's re-encoding: resized to 90 % and saved as JPEG at quality 60. */
export async function reencoded(image: Buffer): Promise<Buffer> {
  const { width } = await sharp(image).metadata();
  return sharp(image)
    .resize(Math.round((width ?? PICTURE_WIDTH) * 0.9))
    .jpeg({ quality: 60 })
    .toBuffer();
}
