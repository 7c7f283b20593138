/**
 * The theme's pictures, served as static files from public/theme/ (original SVG art). Files rather
 * than inline markup so the browser caches them once, pages stay light, and the preloader
 * can fetch the real images the journey shows before it starts.
 */
export const themeArt = {
  statue: "/theme/statue.svg",
  gate: (gate: number) => `/theme/gate-${gate}.svg`,
  medal: (place: 1 | 2 | 3) => `/theme/medal-${place}.svg`,
  favicon: "/favicon.svg",
  faviconBadge: "/favicon-badge.svg",
} as const;

/** Every theme image, for the preloader. Sounds are synthesised in the browser (chime.ts): no audio files. */
export const themeImages: readonly string[] = [
  themeArt.statue,
  ...[1, 2, 3, 4, 5].map(themeArt.gate),
  ...([1, 2, 3] as const).map(themeArt.medal),
  themeArt.favicon,
  themeArt.faviconBadge,
];
