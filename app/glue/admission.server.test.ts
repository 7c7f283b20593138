import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admissionQueue } from "./admission.server.ts";

/** A request and its response as far as the queue looks at them: events, and a content type. */
function exchange(multipart = false) {
  const res = new EventEmitter() as unknown as Response;
  const req = { is: (type: string) => (multipart && type === "multipart/form-data" ? type : false) } as unknown as Request;
  const next = vi.fn() as unknown as NextFunction & ReturnType<typeof vi.fn>;
  return { req, res, next, finish: () => (res as unknown as EventEmitter).emit("finish"), close: () => (res as unknown as EventEmitter).emit("close") };
}

afterEach(() => vi.useRealTimers());

describe("admissionQueue", () => {
  it("serves at most maxActive at once and the others in arrival order as slots free up", () => {
    const queue = admissionQueue({ maxActive: 2, maxHoldMs: 60_000 });
    const calls = Array.from({ length: 5 }, () => exchange());
    for (const call of calls) queue(call.req, call.res, call.next);
    expect(calls.map((call) => call.next.mock.calls.length)).toEqual([1, 1, 0, 0, 0]);
    expect(queue.stats()).toEqual({ active: 2, waiting: 3 });

    calls[1].finish();
    calls[1].close(); // both events come for one response: one slot, freed once
    expect(calls.map((call) => call.next.mock.calls.length)).toEqual([1, 1, 1, 0, 0]);
    calls[0].finish();
    expect(calls.map((call) => call.next.mock.calls.length)).toEqual([1, 1, 1, 1, 0]);
    expect(queue.stats().active).toBe(2);
  });

  it("drops a request whose client left while it waited", () => {
    const queue = admissionQueue({ maxActive: 1, maxHoldMs: 60_000 });
    const [first, gone, third] = [exchange(), exchange(), exchange()];
    for (const call of [first, gone, third]) queue(call.req, call.res, call.next);
    gone.close();
    first.finish();
    expect([gone.next.mock.calls.length, third.next.mock.calls.length]).toEqual([0, 1]);
  });

  it("takes a slot back from a request that holds it longer than maxHoldMs (a client that never reads)", () => {
    vi.useFakeTimers();
    const queue = admissionQueue({ maxActive: 1, maxHoldMs: 5_000 });
    const [slow, next] = [exchange(), exchange()];
    queue(slow.req, slow.res, slow.next);
    queue(next.req, next.res, next.next);
    expect(next.next).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_000);
    expect(next.next).toHaveBeenCalledTimes(1);
    slow.finish(); // finishing late frees nothing twice
    expect(queue.stats()).toEqual({ active: 1, waiting: 0 });
  });

  it("lets uploads through without a slot, and does nothing when turned off", () => {
    const queue = admissionQueue({ maxActive: 1, maxHoldMs: 60_000, bypass: (req) => Boolean(req.is("multipart/form-data")) });
    const [page, upload] = [exchange(), exchange(true)];
    queue(page.req, page.res, page.next);
    queue(upload.req, upload.res, upload.next);
    expect(upload.next).toHaveBeenCalledTimes(1);
    expect(queue.stats()).toEqual({ active: 1, waiting: 0 });

    const off = admissionQueue({ maxActive: 0, maxHoldMs: 1 });
    const calls = [exchange(), exchange()];
    for (const call of calls) off(call.req, call.res, call.next);
    expect(calls.every((call) => call.next.mock.calls.length === 1)).toBe(true);
  });
});
