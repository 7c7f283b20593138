import { useEffect, useState } from "react";

/**
 * False in the server render and until React has hydrated in the browser. Controls that only work with
 * JavaScript appear (or become restrictive) once it is true, so the page still works without it.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
