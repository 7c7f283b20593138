import { describe, expect, it } from "vitest";
import { isValidHost, malformation } from "./malformed-requests.server.ts";
import { UnreadableBodyError } from "./request-bodies.server.ts";

const ordinary = { method: "GET", pathname: "/gates", search: "", host: "gates.example:3000", forwardedHost: undefined, authorization: undefined, protocol: () => "http" };

describe("a request no client of ours sends", () => {
  it("a host name, an IPv4 or bracketed IPv6 address, with a port from 1 to 65535 if any, is a host", () => {
    for (const host of ["localhost", "gates.example", "gates.example:443", "127.0.0.1:3000", "[::1]", "[::1]:8080", "xn--mgbh0fb.example"]) expect(isValidHost(host), host).toBe(true);
    for (const host of ["ex ample", "localhost:99999", "localhost:0", "localhost:65536", "local/host", "[::1", "a:b:c", "", "host:abc", "évian.example"]) expect(isValidHost(host), host).toBe(false);
  });

  it("an unserved method is a 405 naming what is served; OPTIONS is left to the API's own answer", () => {
    expect(malformation({ ...ordinary, method: "TRACE" })).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE" } });
    expect(malformation({ ...ordinary, method: "OPTIONS" })?.status).toBe(405);
    expect(malformation({ ...ordinary, method: "OPTIONS", pathname: "/api/v1/teams" })).toBeNull();
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]) expect(malformation({ ...ordinary, method }), method).toBeNull();
  });

  it("a Host or X-Forwarded-Host that is no host, a _data query, a HEAD of a .data address: refused", () => {
    expect(malformation({ ...ordinary, host: "localhost:99999" })?.status).toBe(400);
    expect(malformation({ ...ordinary, forwardedHost: "proxy.example, gates.example:70000" })?.status).toBe(400);
    expect(malformation({ ...ordinary, protocol: () => "ht tp" })?.status).toBe(400);
    expect(malformation({ ...ordinary, search: "?_data=routes%2Fnowhere" })?.status).toBe(400);
    expect(malformation({ ...ordinary, search: "?q=_data" })).toBeNull();
    expect(malformation({ ...ordinary, method: "HEAD", pathname: "/gates.data" })?.status).toBe(405);
  });

  it("a _data parameter is refused however it is spelled, as Remix decodes it", () => {
    for (const search of ["?%5Fdata=root", "?_dat%61=root", "?a=1&%5fdata=x"]) expect(malformation({ ...ordinary, search })?.status, search).toBe(400);
  });

  it("an empty Authorization header is a 401, as any that holds no token (Remix's adapter would drop it and take the cookie)", () => {
    expect(malformation({ ...ordinary, authorization: "" })).toMatchObject({ status: 401 });
    expect(malformation({ ...ordinary, authorization: "  ", pathname: "/api/v1/teams" })).toMatchObject({ status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
    expect(malformation({ ...ordinary, authorization: "Bearer gk_x" })).toBeNull();
  });

  it("the API is the API in any case: OPTIONS to /API/v1 is left to its dispatcher", () => {
    expect(malformation({ ...ordinary, method: "OPTIONS", pathname: "/API/v1/teams" })).toBeNull();
  });
});

describe("an unreadable body", () => {
  it("is recognised from any copy of its module (the build bundles its own)", async () => {
    // A second instance of the module, as the Remix build holds beside server.ts's.
    const copy = (await import(/* @vite-ignore */ `./request-bodies.server.ts?copy=${Date.now()}`)) as { UnreadableBodyError: typeof UnreadableBodyError };
    expect(copy.UnreadableBodyError).not.toBe(UnreadableBodyError);
    const thrown = new copy.UnreadableBodyError(415);
    expect(UnreadableBodyError.is(thrown)).toBe(true);
    expect(thrown instanceof UnreadableBodyError).toBe(true);
    expect(UnreadableBodyError.is(new Error("x"))).toBe(false);
    expect(UnreadableBodyError.is(null)).toBe(false);
  });
});
