import { ApiError } from "~/modules/api/errors";
import { messages } from "~/modules/messages";
import { findDownloadableSubmissionFile } from "~/modules/submissions/submit.server";
import { apiResource, pathId } from "~/glue/api.server";
import { submissionFileResponse } from "~/glue/submission-download.server";

const resource = apiResource("/submissions/{id}/file", {
  GET: async ({ params, caller: user }) => {
    // Another team's file answers like a missing one, as on the screens.
    const file = await findDownloadableSubmissionFile(pathId(params.id), user);
    if (!file) throw new ApiError("not_found", messages.api.notFound);
    return submissionFileResponse(file, user);
  },
});
export const loader = resource.loader;
export const action = resource.action;
