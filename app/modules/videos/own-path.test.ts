import { describe, expect, it } from "vitest";
import { ownVideoPath } from "./schema";

const id = "0b0c3f5e-8f3b-4a6e-9c1d-2f4a5b6c7d8e";

describe("a video of our own, as the form sends it back", () => {
  it("is stored as its path when it is on this site", () => {
    expect(ownVideoPath(`https://event.example.org/media/${id}`, "https://event.example.org")).toBe(`/media/${id}`);
    expect(ownVideoPath(`/media/${id}`, "https://event.example.org")).toBe(`/media/${id}`);
  });

  it("stays a URL when it is anything else: another site, another path, a query", () => {
    expect(ownVideoPath(`https://elsewhere.example/media/${id}`, "https://event.example.org")).toBeNull();
    expect(ownVideoPath(`http://event.example.org/media/${id}`, "https://event.example.org")).toBeNull();
    expect(ownVideoPath("https://event.example.org/media/../submissions/x", "https://event.example.org")).toBeNull();
    expect(ownVideoPath(`https://event.example.org/media/${id}?x=1`, "https://event.example.org")).toBeNull();
    expect(ownVideoPath("https://www.youtube.com/watch?v=aqz-KE-bpKQ", "https://event.example.org")).toBeNull();
    expect(ownVideoPath("not a url at all", "https://event.example.org")).toBeNull();
  });
});
