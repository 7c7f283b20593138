import { ApiError } from "~/modules/api/errors";
import { PredictionFilesOutSchema, PredictionSentSchema, predictionFileOut } from "~/modules/api/schemas";
import { messages } from "~/modules/messages";
import { predictionsPage } from "~/modules/predictions/predictions.server";
import { predictionsPost } from "~/glue/predictions.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { apiResource, isMultipart, pathId, refusalOf, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/**
 * A team's predictions files (docs/domain.md "Prediction challenges"), read by /predictions/:id's own reader (nothing
 * private before the reveal); a file goes through the page's own handler (app/glue/predictions.server.ts): the team's
 * right to send and its day's limit checked before the body is read, the file streamed to storage within its cap.
 */
const resource = apiResource("/challenges/{id}/predictions", {
  GET: async ({ params, caller }) => {
    const page = await predictionsPage(pathId(params.id), caller, "en");
    if (!page) throw new ApiError("not_found", messages.participant.challengeNotFound);
    return respond(PredictionFilesOutSchema, { revealed: page.revealed, sentToday: page.sentToday, dailyLimit: page.challenge.dailyLimit, files: page.own.map(predictionFileOut) });
  },
  POST: async ({ request, params, context, caller }) => {
    const challengeId = pathId(params.id);
    if (!isMultipart(request)) throw new ApiError("unsupported_media_type", messages.api.unsupportedMediaType("multipart/form-data"));
    const reply = await predictionsPost(request, caller, challengeId, requestBegunAt(context));
    if (!reply.ok) throw refusalOf(reply);
    return respond(PredictionSentSchema, { submissionId: reply.submissionId!, message: reply.message }, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
