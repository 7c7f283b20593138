import { EventEmitter } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { flagGuard, guessKey, MAX_IN_FLIGHT } from "./flag-guard.server.ts";

/** A POST as the guard reads it, and a response that records what was sent. */
function exchange(path: string, headers: Record<string, string>) {
  const emitter = new EventEmitter();
  const sent: { status?: number; headers: Record<string, unknown>; body?: string } = { headers: {} };
  const res = Object.assign(emitter, {
    statusCode: 200,
    setHeader: (name: string, value: unknown) => void (sent.headers[name.toLowerCase()] = value),
    getHeader: (name: string) => sent.headers[name.toLowerCase()],
    end: (body?: Buffer) => {
      sent.status = res.statusCode;
      sent.body = body?.toString();
    },
  }) as unknown as Response & EventEmitter;
  const req = { method: "POST", path, headers } as unknown as Request;
  const next = vi.fn() as unknown as NextFunction & ReturnType<typeof vi.fn>;
  return { req, res, next, sent, finish: (status = 200, retryAfter?: string) => {
    res.statusCode = status;
    if (retryAfter) sent.headers["retry-after"] = retryAfter;
    emitter.emit("finish");
  } };
}

const token = { authorization: "Bearer gk_one" };

describe("flagGuard", () => {
  it("knows an answer by its caller and challenge, on the API and the challenge page", () => {
    expect(guessKey({ method: "POST", path: "/api/v1/challenges/7/flag", headers: token })).toEqual({ key: "7 Bearer gk_one", api: true });
    expect(guessKey({ method: "POST", path: "/submition/7.data", headers: { cookie: "lang=ar; __gk_session=abc" } })).toEqual({ key: "7 abc", api: false });
    expect(guessKey({ method: "GET", path: "/api/v1/challenges/7/flag", headers: token })).toBeNull();
    expect(guessKey({ method: "POST", path: "/api/v1/challenges/7/submission", headers: token })).toBeNull();
    expect(guessKey({ method: "POST", path: "/submition/7", headers: {} })).toBeNull();
  });

  it("refuses at once an answer past the ones in flight for the same caller and challenge, in a sentence", () => {
    const guard = flagGuard();
    const calls = Array.from({ length: MAX_IN_FLIGHT + 3 }, () => exchange("/api/v1/challenges/7/flag", token));
    for (const call of calls) guard(call.req, call.res, call.next);
    expect(calls.map((call) => call.next.mock.calls.length)).toEqual([1, 1, 0, 0, 0]);
    expect(calls[2].sent.status).toBe(429);
    expect(calls[2].sent.headers["retry-after"]).toBe("1");
    expect(JSON.parse(calls[2].sent.body!).message).toMatch(/faster than they can be checked/);
    // Another caller, or another challenge, is not held back.
    const other = exchange("/api/v1/challenges/7/flag", { authorization: "Bearer gk_two" });
    guard(other.req, other.res, other.next);
    expect(other.next).toHaveBeenCalledTimes(1);
    calls[0].finish();
    const later = exchange("/api/v1/challenges/7/flag", token);
    guard(later.req, later.res, later.next);
    expect(later.next).toHaveBeenCalledTimes(1);
  });

  it("answers 429 for the API until the wait the route gave has passed; pages go to the route", () => {
    let clock = 1_000_000;
    const guard = flagGuard(() => clock);
    const first = exchange("/api/v1/challenges/7/flag", token);
    guard(first.req, first.res, first.next);
    first.finish(429, "60");
    const again = exchange("/api/v1/challenges/7/flag", token);
    guard(again.req, again.res, again.next);
    expect(again.next).not.toHaveBeenCalled();
    expect(again.sent).toMatchObject({ status: 429, headers: { "retry-after": "60" } });
    const page = exchange("/submition/7", { cookie: "__gk_session=abc" });
    guard(page.req, page.res, page.next);
    expect(page.next).toHaveBeenCalledTimes(1);
    clock += 60_000;
    const after = exchange("/api/v1/challenges/7/flag", token);
    guard(after.req, after.res, after.next);
    expect(after.next).toHaveBeenCalledTimes(1);
  });
});
