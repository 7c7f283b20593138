import { MeSchema, meOf } from "~/modules/api/schemas";
import { apiResource, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/auth/me", {
  GET: async ({ caller }) => respond(MeSchema, meOf(caller)),
});
export const loader = resource.loader;
export const action = resource.action;
