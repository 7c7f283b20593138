import { z } from "zod";
import { RequestOutSchema } from "~/modules/api/schemas";
import { createRequest, listRequests } from "~/modules/requests/requests.server";
import { RequestSchema } from "~/modules/requests/schema";
import { apiResource, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/mentors", {
  GET: async () => {
    return respond(z.array(RequestOutSchema), await listRequests("mentor"));
  },
  POST: async ({ request, caller: user }) => {
    const { message } = await readBody(request, RequestSchema);
    const sent = await createRequest("mentor", message, { userId: user.id, userName: user.name, teamId: user.teamId, teamName: user.teamName });
    return respond(RequestOutSchema, sent, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
