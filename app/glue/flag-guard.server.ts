/**
 * Answers to flag challenges: a flood is cut before the admission queue (docs/domain.md "Flag challenges",
 * "Guessing has a price"), so one team's script never delays other players' pages. Postgres decides every
 * verdict, wait and limit (app/modules/flags/guess.server.ts); this only spares the web process work it
 * already knows is refused, per process, in memory, bounded:
 *
 * - At most MAX_IN_FLIGHT answers per caller (its session cookie or Authorization header) and challenge
 *   are being served at once; one more is answered 429 at once ("wait for the verdict"). A person never
 *   sends three at once; a double click passes.
 * - A caller the API told to wait (a 429 with Retry-After from the flag endpoint) is answered 429 here
 *   until then. Pages are not: a person who sends too soon reads the page with the wait on it.
 *
 * Nothing here credits or records anything; a refusal here is the same refusal the route would give.
 */
import type { NextFunction, Request, Response } from "express";
import { messages } from "../modules/messages.ts";
import { sendRefusal } from "./malformed-requests.server.ts";

const API_FLAG = /^\/api\/v1\/challenges\/(\d{1,9})\/flag\/?$/i;
const PAGE_FLAG = /^\/submition\/(\d{1,9})(?:\/flag)?(?:\.data)?\/?$/i;
const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-gk_session|__gk_session)=([^;]*)/;

export const MAX_IN_FLIGHT = 2;
/** Callers remembered (waits and answers in flight): the oldest is forgotten past it. */
const MAX_KEYS = 50_000;

/** The caller and challenge an answer is from, or null when the request is not an answer to a flag. */
export function guessKey(req: { method: string; path: string; headers: { authorization?: string; cookie?: string } }): { key: string; api: boolean } | null {
  if (req.method !== "POST") return null;
  const api = API_FLAG.exec(req.path);
  const match = api ?? PAGE_FLAG.exec(req.path);
  if (!match) return null;
  const credential = req.headers.authorization ?? SESSION_COOKIE.exec(req.headers.cookie ?? "")?.[1];
  if (!credential) return null;
  return { key: `${match[1]} ${credential}`, api: api !== null };
}

export function flagGuard(now: () => number = Date.now) {
  const inFlight = new Map<string, number>();
  const waitUntil = new Map<string, number>();
  const remember = (key: string, until: number) => {
    waitUntil.delete(key);
    if (waitUntil.size >= MAX_KEYS) waitUntil.delete(waitUntil.keys().next().value as string);
    waitUntil.set(key, until);
  };
  const guard = (req: Request, res: Response, next: NextFunction) => {
    const guess = guessKey(req);
    if (!guess) return next();
    const { key, api } = guess;
    const until = waitUntil.get(key);
    if (until !== undefined) {
      const seconds = Math.ceil((until - now()) / 1000);
      if (seconds > 0 && api) return sendRefusal(req, res, 429, messages.flags.wait(seconds), { "Retry-After": String(seconds) });
      if (seconds <= 0) waitUntil.delete(key);
    }
    const serving = inFlight.get(key) ?? 0;
    if (serving >= MAX_IN_FLIGHT || (serving === 0 && inFlight.size >= MAX_KEYS)) return sendRefusal(req, res, 429, messages.flags.busy, { "Retry-After": "1" });
    inFlight.set(key, serving + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left <= 0) inFlight.delete(key);
      else inFlight.set(key, left);
      if (api && res.statusCode === 429) {
        const retryAfter = Number(res.getHeader("retry-after"));
        if (Number.isFinite(retryAfter) && retryAfter > 1) remember(key, now() + retryAfter * 1000);
      }
    };
    res.once("finish", release);
    res.once("close", release);
    next();
  };
  guard.stats = () => ({ inFlight: inFlight.size, waiting: waitUntil.size });
  return guard;
}
