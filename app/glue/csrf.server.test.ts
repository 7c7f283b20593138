import { describe, expect, it } from "vitest";
import { acceptsTokensAt } from "./caller.server";
import { isForeignOrigin, isForgedRequest } from "./csrf.server";

const own = ["https://gates.example.org"];

describe("cross-site request forgery", () => {
  it("lets reads through from anywhere", () => {
    expect(isForgedRequest({ method: "GET", origin: "https://evil.example" }, own)).toBe(false);
  });

  it("refuses a state change from another site, a null origin, or a foreign referer", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example" }, own)).toBe(true);
    expect(isForgedRequest({ method: "DELETE", origin: "https://gates.example.org.evil.example" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", origin: "null" }, own)).toBe(true);
    expect(isForgedRequest({ method: "PATCH", referer: "https://evil.example/page" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", referer: "not a url" }, own)).toBe(true);
  });

  it("accepts our own pages, API tokens where tokens are accepted, and clients that name no origin at all", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://gates.example.org" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", referer: "https://gates.example.org/dashboard" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Bearer gk_x", tokensAccepted: true }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST" }, own)).toBe(false);
  });

  it("does not take HTTP Basic credentials (which browsers send cross-site) for an API token", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Basic dXNlcjpwYXNz", tokensAccepted: true }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Bearer", tokensAccepted: true }, own)).toBe(true);
  });

  it("waives nothing for a bearer header where tokens are not accepted (pages, .data, resource routes)", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Bearer gk_x" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Bearer gk_x", tokensAccepted: false }, own)).toBe(true);
  });

  it("accepts tokens under /api/v1 only, as Remix resolves the path", () => {
    for (const path of ["/api/v1", "/api/v1/mentors", "/API/V1/mentors?x=1", "/x/../api/v1/teams"]) expect(acceptsTokensAt(path), path).toBe(true);
    for (const path of ["/", "/gates", "/api/v1/../../login", "/api/v1/%2e%2e/%2e%2e/login", "/api/v10", "/dashboard/queues/api/queues", "/gates.data"]) {
      expect(acceptsTokensAt(path), path).toBe(false);
    }
  });
});

describe("a mailed link's form (its page sends no referrer, so its post says Origin: null)", () => {
  const own = ["http://localhost:3000"];
  it("passes a null or absent origin without a referer on /set-password only", () => {
    expect(isForgedRequest({ method: "POST", origin: "null", path: "/set-password" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", path: "/set-password" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", origin: "null", path: "/account/password" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", origin: "null", path: "/login" }, own)).toBe(true);
  });

  it("still refuses another site's origin or referer there", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", path: "/set-password" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", referer: "https://evil.example/x", path: "/set-password" }, own)).toBe(true);
    expect(isForgedRequest({ method: "POST", origin: "null", referer: "https://evil.example/x", path: "/set-password" }, own)).toBe(true);
  });
});

describe("the Socket.IO handshake's origin", () => {
  it("passes our own host, APP_ORIGIN, and clients that name no origin", () => {
    expect(isForeignOrigin("http://127.0.0.1:3000", "127.0.0.1:3000", undefined)).toBe(false);
    expect(isForeignOrigin("https://gates.example.org", "10.0.0.5:3000", "https://gates.example.org")).toBe(false);
    expect(isForeignOrigin(undefined, "127.0.0.1:3000", undefined)).toBe(false);
  });

  it("refuses another site, a look-alike, null, junk, another port, and a weaker scheme than APP_ORIGIN's", () => {
    expect(isForeignOrigin("https://evil.example", "gates.example.org", undefined)).toBe(true);
    expect(isForeignOrigin("https://gates.example.org.evil.example", "gates.example.org", undefined)).toBe(true);
    expect(isForeignOrigin("null", "gates.example.org", undefined)).toBe(true);
    expect(isForeignOrigin("not a url", "gates.example.org", undefined)).toBe(true);
    expect(isForeignOrigin("http://127.0.0.1:4000", "127.0.0.1:3000", undefined)).toBe(true);
    expect(isForeignOrigin("http://gates.example.org", "gates.example.org", "https://gates.example.org")).toBe(true);
  });
});
