import { apiResource } from "~/glue/api.server";
import { answerScoreboardFeed } from "~/glue/scoreboard-feed.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/**
 * The standings snapshot (Redis only, never computed per request), as /scoreboard shows it to the
 * caller's role. Big screens poll it: an unchanged board costs a 304 and no body. server.ts answers
 * GET ahead of Remix with the same function (app/glue/scoreboard-feed.server.ts); this module answers
 * the other methods (405) and direct calls.
 */
const resource = apiResource("/scoreboard", {
  GET: async ({ request, caller }) => {
    const answer = await answerScoreboardFeed(caller, { ifNoneMatch: request.headers.get("If-None-Match"), search: new URL(request.url).search });
    // Not asked for gzip (the compression middleware does that for Remix answers): a string or nothing.
    return new Response(answer.body === null ? null : String(answer.body), { status: answer.status, headers: answer.headers });
  },
});
export const loader = resource.loader;
export const action = resource.action;
