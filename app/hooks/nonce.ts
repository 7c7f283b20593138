import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of this response (server.ts makes one per request). Remix's inline
 * scripts carry it; in the browser it is "" (browsers hide nonce attributes from scripts anyway).
 */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
