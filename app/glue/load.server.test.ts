import { describe, expect, it } from "vitest";
import { loadOrFail } from "./load.server";

describe("loadOrFail", () => {
  it("passes a successful read through", async () => {
    await expect(loadOrFail(async () => 42, "unused")).resolves.toBe(42);
  });

  it("turns a failed read into a 500 that carries the screen's message (Error: {message})", async () => {
    process.env.LOG_LEVEL = "silent";
    const thrown = await loadOrFail(() => Promise.reject(new Error("connection refused")), "The gate could not be loaded.").catch((error: unknown) => error);
    expect(thrown).toMatchObject({ data: { message: "The gate could not be loaded." }, init: { status: 500 } });
  });
});
