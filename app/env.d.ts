/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single Fetch's types for loaders and actions (remix.config.js turns the flag on).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  /** What server.ts hands every loader and action (getLoadContext). */
  interface AppLoadContext {
    /** This response's Content-Security-Policy nonce (absent where no server.ts runs, e.g. in tests). */
    cspNonce?: string;
    /** When the web process received the request (ms since the epoch), before reading its body. */
    receivedAt?: number;
  }
}

export {};
