/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single Fetch's types for loaders and actions (remix.config.js turns the flag on).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
