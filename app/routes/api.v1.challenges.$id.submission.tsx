import { ApiError, codeForStatus } from "~/modules/api/errors";
import { SubmitResultSchema } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { submissionMaxBytes } from "~/modules/submissions/submit.server";
import { handleSubmissionPost } from "~/glue/submission-upload.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { apiResource, isMultipart, pathId, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/** The submission form's own handler: rules checked before the body is read, the file streamed. */
const resource = apiResource("/challenges/{id}/submission", {
  POST: async ({ request, params, context, caller: user }) => {
    const challengeId = pathId(params.id);
    if (!isMultipart(request)) {
      throw new ApiError("unsupported_media_type", messages.api.unsupportedMediaType("multipart/form-data"));
    }
    const outcome = await handleSubmissionPost(request, { caller: user, challengeId, maxBytes: submissionMaxBytes(), begunAt: requestBegunAt(context) });
    if (!outcome.ok) throw new ApiError(codeForStatus(outcome.status), outcome.message);
    const message = outcome.created ? messages.participant.created : messages.participant.updated;
    return respond(SubmitResultSchema, { submissionId: outcome.submissionId, created: outcome.created, message }, { status: outcome.created ? 201 : 200 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
