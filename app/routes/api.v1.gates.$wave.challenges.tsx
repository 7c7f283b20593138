import { ApiError } from "~/modules/api/errors";
import { GateBoardSchema } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { getGateBoard } from "~/modules/participant/board.server";
import { apiResource, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/gates/{wave}/challenges", {
  GET: async ({ params, caller: user }) => {
    const board = /^[1-5]$/.test(params.wave ?? "") ? await getGateBoard(Number(params.wave), user.teamId) : null;
    if (!board) throw new ApiError("not_found", messages.api.notFound);
    return respond(GateBoardSchema, board);
  },
});
export const loader = resource.loader;
export const action = resource.action;
