import { z } from "zod";
import { GateOutSchema } from "~/modules/api/schemas";
import { listGates } from "~/modules/gates/gates.server";
import { apiResource, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/gates", {
  GET: async () => {
    return respond(z.array(GateOutSchema), await listGates());
  },
});
export const loader = resource.loader;
export const action = resource.action;
