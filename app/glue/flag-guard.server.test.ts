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
  it("knows an answer by its caller and challenge as the routes read them, on the API and the challenge page", () => {
    const key = (path: string, headers: Record<string, string>) => guessKey({ method: "POST", path, headers }, "__gk_session")?.key ?? null;
    expect(guessKey({ method: "POST", path: "/api/v1/challenges/7/flag", headers: token }, "__gk_session")).toEqual({ key: "7 token gk_one", api: true });
    // Respellings are the same caller and challenge: the scheme's case and spacing, an encoded or padded id.
    for (const authorization of ["bearer gk_one", "BEARER   gk_one", "Bearer gk_one  "]) expect(key("/api/v1/challenges/7/flag", { authorization })).toBe("7 token gk_one");
    expect(key("/api/v1/challenges/%37/flag", token)).toBe("7 token gk_one");
    expect(key("/api/v1/challenges/007/flag", token)).toBe("7 token gk_one");
    // The session cookie of the environment's name, wherever it stands among others.
    expect(key("/submition/7.data", { cookie: "lang=ar; __gk_session=abc" })).toBe("7 abc");
    expect(key("/submition/%37", { cookie: "__gk_session_x=zzz; junk=1; __gk_session=abc" })).toBe("7 abc");
    // The path as the router reads it: dot segments, extra slashes and case are the same challenge.
    for (const path of ["/submition/5/.", "/submition/x/../5", "/SUBMITION/5/", "/submition/%35", "/submition//5"]) {
      expect(guessKey({ method: "POST", path, headers: { cookie: "__gk_session=abc" } }, "__gk_session"), path).toEqual({ key: "5 abc", api: false });
    }
    for (const path of ["/api/v1/challenges/5/flag//", "/api/v1/challenges/5/flag/.", "/API/V1/challenges/5/x/../flag"]) {
      expect(guessKey({ method: "POST", path, headers: token }, "__gk_session"), path).toEqual({ key: "5 token gk_one", api: true });
    }
    expect(guessKey({ method: "GET", path: "/api/v1/challenges/7/flag", headers: token })).toBeNull();
    expect(guessKey({ method: "POST", path: "/api/v1/challenges/7/submission", headers: token })).toBeNull();
    expect(guessKey({ method: "POST", path: "/submition/7", headers: {} })).toBeNull();
    expect(guessKey({ method: "POST", path: "/submition/%E0%A4%A", headers: token })).toBeNull();
  });

  it("refuses at once an answer past the ones in flight for the same caller and challenge, in a sentence", () => {
    const guard = flagGuard();
    const calls = Array.from({ length: MAX_IN_FLIGHT + 3 }, () => exchange("/api/v1/challenges/7/flag", token));
    for (const call of calls) guard(call.req, call.res, call.next);
    expect(calls.map((call) => call.next.mock.calls.length)).toEqual([1, 1, 0, 0, 0]);
    expect(calls[2].sent.status).toBe(429);
    expect(calls[2].sent.headers["retry-after"]).toBe("1");
    expect(JSON.parse(calls[2].sent.body!).message).toMatch(/faster than they can be checked/);
    // A respelled credential is the same caller.
    const respelled = exchange("/api/v1/challenges/%37/flag", { authorization: "BEARER gk_one" });
    guard(respelled.req, respelled.res, respelled.next);
    expect(respelled.sent.status).toBe(429);
    // Another caller, or another challenge, is not held back.
    const other = exchange("/api/v1/challenges/7/flag", { authorization: "Bearer gk_two" });
    guard(other.req, other.res, other.next);
    expect(other.next).toHaveBeenCalledTimes(1);
    calls[0].finish();
    const later = exchange("/api/v1/challenges/7/flag", token);
    guard(later.req, later.res, later.next);
    expect(later.next).toHaveBeenCalledTimes(1);
  });

});
