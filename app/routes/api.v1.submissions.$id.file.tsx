import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { findDownloadableSubmissionFile } from "~/modules/submissions/submit.server";
import { apiResource, pathId } from "~/glue/api.server";
import { submissionFileResponse } from "~/glue/submission-download.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/submissions/{id}/file", {
  GET: async ({ request, params, caller: user }) => {
    // Another team's file answers like a missing one, as on the screens.
    const file = await findDownloadableSubmissionFile(pathId(params.id), user);
    if (!file) throw new ApiError("not_found", messages.api.notFound);
    return submissionFileResponse(request, file, user);
  },
});
export const loader = resource.loader;
export const action = resource.action;
