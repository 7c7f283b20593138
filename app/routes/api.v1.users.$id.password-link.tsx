import { z } from "zod";
import { sendSetPasswordLink } from "~/modules/mail/mails.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/users/{id}/password-link", {
  // As the Users page's button (docs/domain.md "Mail"): the link goes by mail, never in the answer.
  POST: async ({ request, params, caller }) => {
    const { address: to } = await sendSetPasswordLink(actorOf(caller, request), pathId(params.id));
    return respond(z.object({ to: z.string() }), { to }, { status: 202 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
