import { z } from "zod";
import { ApiError } from "~/modules/api/errors";
import { ChallengeListItemSchema, ChallengeOutSchema } from "~/modules/api/schemas";
import { cleanupObject, createChallenge, getChallengeForAdmin, listChallengesForApi } from "~/modules/challenges/challenges.server";
import { ChallengeApiSchema, ChallengeCreateSchema } from "~/modules/challenges/schema";
import { parseChallengeForm } from "~/glue/challenge-form.server";
import { messages } from "~/modules/messages";
import { actorOf } from "~/glue/actor.server";
import { apiResource, isMultipart, parseFields, readBody, respond } from "~/glue/api.server";
import { asFormValues } from "~/modules/form-values";

/** The dashboard form's multipart body: the attachment streams to storage as on the screen. */
async function readMultipartChallenge(request: Request) {
  const { formData, attachment, attachmentError, attachmentTooLarge, storageUnavailable } = await parseChallengeForm(request);
  try {
    if (storageUnavailable) throw new ApiError("unavailable", messages.errors.storageUnavailable);
    if (attachmentTooLarge) throw new ApiError("payload_too_large", messages.dashboard.attachmentTooLarge, { attachment: [messages.dashboard.attachmentTooLarge] });
    if (attachmentError) throw new ApiError("validation_failed", attachmentError, { attachment: [attachmentError] });
    return { values: parseFields(ChallengeCreateSchema, asFormValues(Object.fromEntries(formData))), attachment };
  } catch (error) {
    // Refused: an attachment stored meanwhile is not kept.
    if (attachment) await cleanupObject(attachment.key);
    throw error;
  }
}

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/challenges", {
  GET: async () => {
    return respond(z.array(ChallengeListItemSchema), await listChallengesForApi());
  },
  POST: async ({ request, caller }) => {
    const { values, attachment } = isMultipart(request)
      ? await readMultipartChallenge(request)
      : { values: await readBody(request, ChallengeApiSchema), attachment: null };
    try {
      const { id } = await createChallenge(actorOf(caller, request), values, attachment);
      return respond(ChallengeOutSchema, (await getChallengeForAdmin(id))!, { status: 201 });
    } catch (error) {
      if (attachment) await cleanupObject(attachment.key);
      throw error;
    }
  },
});
export const loader = resource.loader;
export const action = resource.action;
