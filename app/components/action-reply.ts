import type { SerializeFrom } from "@remix-run/node";
// eslint-disable-next-line no-restricted-syntax -- the one reader of Remix's action data (below)
import { useActionData, useLocation } from "@remix-run/react";
import { useRef } from "react";

/**
 * The route's action reply, kept while the page stays where the action left it. React Router clears an action's data
 * at the end of any navigation, a revalidation included, so a live event's re-read (useRevalidateOn), a socket's
 * reconnect or resync (socket-provider) would wipe the reply a person just got ("Program sent", a refusal beside what
 * they typed) a moment after it came. The next submission's reply replaces it; a move to another page (a new
 * location) ends it. Every page reads its action's reply through this (lint forbids useActionData elsewhere).
 */
export function useActionReply<T = unknown>(): SerializeFrom<T> | undefined {
  const data = useActionData<T>();
  const { key } = useLocation();
  const kept = useRef<{ data: SerializeFrom<T>; key: string } | null>(null);
  if (data !== undefined) kept.current = { data, key };
  else if (kept.current && kept.current.key !== key) kept.current = null;
  return data ?? kept.current?.data;
}
