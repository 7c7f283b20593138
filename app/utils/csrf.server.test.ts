import { describe, expect, it } from "vitest";
import { isForgedRequest } from "./csrf.server";

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

  it("accepts our own pages, API tokens, and clients that name no origin at all", () => {
    expect(isForgedRequest({ method: "POST", origin: "https://gates.example.org" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", referer: "https://gates.example.org/dashboard" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST", origin: "https://evil.example", authorization: "Bearer gk_x" }, own)).toBe(false);
    expect(isForgedRequest({ method: "POST" }, own)).toBe(false);
  });
});
