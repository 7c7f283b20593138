import { describe, expect, it, vi } from "vitest";
import { isServerAnswer, REFETCH_RETRIES, refetchDelayMs, withRetries } from "./refetch";

/** What a route's thrown response becomes in the browser (Remix's ErrorResponse: `isRouteErrorResponse` knows it by these fields). */
class ErrorResponse {
  internal = false;
  constructor(
    public status: number,
    public statusText: string,
    public data: unknown,
  ) {}
}

const noWait = () => 0;

describe("reading a page's data again", () => {
  it("tries a failed read 3 more times, then gives up with the last failure", async () => {
    const read = vi.fn(async () => {
      throw new Error(`failure ${read.mock.calls.length}`);
    });
    await expect(withRetries(read, { delayMs: noWait })).rejects.toThrow("failure 4");
    expect(read).toHaveBeenCalledTimes(1 + REFETCH_RETRIES);
  });

  it("answers as soon as a retry succeeds", async () => {
    let calls = 0;
    const read = async () => {
      calls += 1;
      if (calls < 3) throw new ErrorResponse(500, "Internal Server Error", null);
      return "figures";
    };
    await expect(withRetries(read, { delayMs: noWait })).resolves.toBe("figures");
    expect(calls).toBe(3);
  });

  it("follows the server's answer at once: a redirect (signed out) or a 4xx is not retried", async () => {
    for (const answer of [new Response(null, { status: 302, headers: { Location: "/login" } }), new ErrorResponse(403, "Forbidden", null), new ErrorResponse(404, "Not Found", null)]) {
      const read = vi.fn(async () => {
        throw answer;
      });
      await expect(withRetries(read, { delayMs: noWait })).rejects.toBe(answer);
      expect(read).toHaveBeenCalledTimes(1);
      expect(isServerAnswer(answer)).toBe(true);
    }
    expect(isServerAnswer(new ErrorResponse(503, "Service Unavailable", null))).toBe(false);
    expect(isServerAnswer(new TypeError("Failed to fetch"))).toBe(false);
  });

  it("stops waiting when the user goes elsewhere", async () => {
    const controller = new AbortController();
    const read = vi.fn(async () => {
      throw new Error("down");
    });
    const reading = withRetries(read, { delayMs: () => 60_000, signal: controller.signal });
    controller.abort(new Error("navigated away"));
    await expect(reading).rejects.toThrow(/navigated away|down/);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("waits about 0.3 s, 0.6 s and 1.2 s between tries, spread at random so browsers do not retry together", () => {
    expect([0, 1, 2].map((retry) => refetchDelayMs(retry, () => 0.5))).toEqual([300, 600, 1200]);
    expect([0, 1, 2].map((retry) => refetchDelayMs(retry, () => 0))).toEqual([225, 450, 900]);
    expect([0, 1, 2].map((retry) => refetchDelayMs(retry, () => 0.999))).toEqual([375, 750, 1499]);
  });
});
