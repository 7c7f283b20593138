import { data } from "@remix-run/node";
import { parseRowId } from "../modules/ids.ts";
import { messages } from "../modules/messages.ts";

/**
 * A request no form of ours sends (a hidden field tampered with, an unknown intent): a 400 that says so
 * in words, shown by the route's error page. Thrown, like the guards' 403.
 */
export function badRequest() {
  return data({ message: messages.errors.badRequest }, { status: 400 });
}

/** A row that does not exist, or that this caller may not know exists: the route's not-found page. */
export function notFound() {
  return new Response("Not found", { status: 404 });
}

/** A route's row id parameter, or the not-found page (a malformed id names no row). */
export function rowIdOr404(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw notFound();
  return id;
}

/** A page's data, or the not-found page when there is none for this caller. */
export function foundOr404<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw notFound();
  return value;
}
