import { HintUnlockOutSchema } from "~/modules/api/schemas";
import { unlockHintAt } from "~/modules/flags/hints.server";
import { actorOf } from "~/glue/actor.server";
import { apiResource, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403: participants only) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** A hint that costs points, unlocked for the caller's own team by the page's rule (docs/domain.md "Hints that cost points"). */
const resource = apiResource("/challenges/{id}/hints/{number}/unlock", {
  POST: async ({ request, params, caller }) => {
    const unlocked = await unlockHintAt({ actor: actorOf(caller, request), teamId: caller.teamId, challengeId: pathId(params.id), number: pathId(params.number) });
    return respond(HintUnlockOutSchema, unlocked);
  },
});
export const loader = resource.loader;
export const action = resource.action;
