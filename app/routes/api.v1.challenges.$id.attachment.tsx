import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { findDownloadableAttachment } from "~/modules/submissions/submit.server";
import { apiResource, pathId } from "~/glue/api.server";
import { fileDownloadRedirect } from "~/glue/submission-download.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/challenges/{id}/attachment", {
  GET: async ({ params, caller: user }) => {
    const file = await findDownloadableAttachment(pathId(params.id), user);
    if (!file) throw new ApiError("not_found", messages.dashboard.noAttachment);
    return fileDownloadRedirect(file);
  },
});
export const loader = resource.loader;
export const action = resource.action;
