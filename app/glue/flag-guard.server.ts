/**
 * Answers to flag challenges: a flood is cut before the admission queue (docs/domain.md "Flag challenges",
 * "Guessing has a price"), so one caller's script never delays other players' pages. Postgres decides every
 * verdict, wait and limit (app/modules/flags/guess.server.ts); this only spares the web process work: at most
 * MAX_IN_FLIGHT answers per caller and challenge are being served at once, one more is answered 429 at once
 * ("wait for the verdict"). A person never sends three at once; a double click passes. Per process, in
 * memory, bounded; it remembers nothing once an answer is served (a wait is the route's to say, from Postgres,
 * so an admin's reset takes effect at once).
 *
 * The key is what the routes themselves read: the challenge's id from the path as the router matches it
 * (routedPath: dot segments, case, encoding and slashes read as the router reads them), and the caller's
 * credential as authentication reads it (a bearer token, the scheme in any case and spacing; else the session
 * cookie of this environment's name), so a respelling is the same caller and the same challenge.
 */
import type { NextFunction, Request, Response } from "express";
import { routedPath } from "../modules/auth/access.ts";
import { messages } from "../modules/messages.ts";
import { bearerIn } from "./caller.server.ts";
import { sendRefusal } from "./malformed-requests.server.ts";
import { sessionCookieName } from "./session.server.ts";

const API_FLAG = /^\/api\/v1\/challenges\/0*(\d{1,9})\/flag\/?$/i;
const PAGE_FLAG = /^\/submition\/0*(\d{1,9})(?:\/flag)?(?:\.data)?\/?$/i;

export const MAX_IN_FLIGHT = 2;
/** Callers with answers in flight, at most: past it a new caller's answer goes straight to the route. */
const MAX_KEYS = 50_000;

function sessionValue(cookie: string | undefined, name: string): string | null {
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** The caller and challenge an answer is from, or null when the request is not an answer to a flag. */
export function guessKey(
  req: { method: string; path: string; headers: { authorization?: string; cookie?: string } },
  cookieName: string = sessionCookieName(),
): { key: string; api: boolean } | null {
  if (req.method !== "POST") return null;
  // As the router reads it: "/submition/5/.", "/submition/x/../5" and ".../flag//" are the same answer's path.
  const path = routedPath(req.path);
  const api = API_FLAG.exec(path);
  const match = api ?? PAGE_FLAG.exec(path);
  if (!match) return null;
  const header = req.headers.authorization;
  const credential = header !== undefined ? `token ${bearerIn(header) ?? header.trim()}` : sessionValue(req.headers.cookie, cookieName);
  if (!credential) return null;
  return { key: `${Number(match[1])} ${credential}`, api: api !== null };
}

/** The in-flight count of answers per caller and challenge, shared by Express's path and the listener ahead of it (flag-answer-api.server.ts). */
export interface FlagGuard {
  (req: Request, res: Response, next: NextFunction): void;
  /** Takes a turn for `key`: a function that gives it back (once), or null when MAX_IN_FLIGHT are being served. */
  admit(key: string): (() => void) | null;
  stats(): { inFlight: number };
}

export function flagGuard(): FlagGuard {
  const inFlight = new Map<string, number>();
  const admit = (key: string): (() => void) | null => {
    const serving = inFlight.get(key) ?? 0;
    if (serving >= MAX_IN_FLIGHT) return null;
    if (serving === 0 && inFlight.size >= MAX_KEYS) return () => undefined;
    inFlight.set(key, serving + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left <= 0) inFlight.delete(key);
      else inFlight.set(key, left);
    };
  };
  const guard = ((req: Request, res: Response, next: NextFunction) => {
    const guess = guessKey(req);
    if (!guess) return next();
    const release = admit(guess.key);
    if (!release) return sendRefusal(req, res, 429, messages.flags.busy, { "Retry-After": "1" });
    res.once("finish", release);
    res.once("close", release);
    next();
  }) as FlagGuard;
  guard.admit = admit;
  guard.stats = () => ({ inFlight: inFlight.size });
  return guard;
}
