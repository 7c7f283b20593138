import type { AppLoadContext } from "@remix-run/node";

/**
 * When the request began: server.ts notes the instant its headers arrived, before any of the body is
 * read, so a 200 MB upload that started before a deadline is judged by its start, not by its last byte.
 * Where no server.ts runs (tests calling a route), the moment of the call.
 */
export function requestBegunAt(context: AppLoadContext | undefined): Date {
  const at = context?.receivedAt;
  return new Date(typeof at === "number" && Number.isFinite(at) ? at : Date.now());
}
