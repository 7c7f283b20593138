import { describe, expect, it } from "vitest";
import { youtubeEmbedUrl } from "./embed.ts";

describe("youtubeEmbedUrl", () => {
  it("embeds watch, short and youtu.be links", () => {
    const embed = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&mute=1&controls=1";
    expect(youtubeEmbedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toBe(embed);
    expect(youtubeEmbedUrl("https://youtube.com/shorts/dQw4w9WgXcQ")).toBe(embed);
    expect(youtubeEmbedUrl("https://youtu.be/dQw4w9WgXcQ")).toBe(embed);
  });
  it("leaves other URLs to the plain player", () => {
    expect(youtubeEmbedUrl("https://example.org/intro.mp4")).toBeNull();
    expect(youtubeEmbedUrl("not a url")).toBeNull();
  });
});
