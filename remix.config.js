/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Server-only packages stay external; the browser bundle never sees them (*.server.ts files).
  serverDependenciesToBundle: [],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: every document loads the route manifest as one static, cached file, and no route is matched again
    // per request to inline a partial one (docs/decisions/052-route-discovery-off.md).
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
  },
};
