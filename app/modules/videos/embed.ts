/** A YouTube watch/short/youtu.be link becomes a privacy-friendly embed; anything else plays as a video. */
export function youtubeEmbedUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.replace(/^www\.|^m\./, "");
  let id: string | null = null;
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (parsed.pathname === "/watch") id = parsed.searchParams.get("v");
    else {
      const match = parsed.pathname.match(/^\/(?:shorts|embed|live)\/([\w-]{6,})/);
      id = match?.[1] ?? null;
    }
  } else if (host === "youtu.be") {
    id = parsed.pathname.slice(1).split("/")[0] || null;
  }
  if (!id || !/^[\w-]{6,}$/.test(id)) return null;
  return `https://www.youtube-nocookie.com/embed/${id}?autoplay=1&mute=1&controls=1`;
}
