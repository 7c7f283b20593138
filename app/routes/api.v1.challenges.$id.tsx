import { ApiError } from "~/modules/api/errors";
import { canOpen } from "~/modules/auth/access";
import { ChallengeOutSchema } from "~/modules/api/schemas";
import { getChallenge, getChallengeForAdmin, updateChallenge } from "~/modules/challenges/challenges.server";
import { ChallengeApiSchema } from "~/modules/challenges/schema";
import { actorOf } from "~/glue/actor.server";
import { messages } from "~/modules/messages";
import { getChallengeForSubmission } from "~/modules/participant/board.server";
import { apiResource, pathId, readBody, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
const resource = apiResource("/challenges/{id}", {
  GET: async ({ params, caller: user }) => {
    const id = pathId(params.id);
    // Whoever may open the dashboard's challenges reads it as its edit form does; others as the submission page (its visibility rule).
    const staff = canOpen(user.role, "/dashboard/challenges");
    if (staff) {
      const challenge = await getChallengeForAdmin(id);
      if (!challenge) throw new ApiError("not_found", messages.participant.challengeNotFound);
      return respond(ChallengeOutSchema, challenge);
    }
    const own = await getChallengeForSubmission(id, user);
    // A challenge locked for the caller's team (its prerequisites unsolved) is not its to read yet.
    const challenge = own && !own.locked ? await getChallenge(id) : null;
    if (!challenge || !own) throw new ApiError("not_found", messages.participant.challengeNotFound);
    // A participant's team's state on a flag challenge: solved, attempts left; its hints that cost points, a text
    // only once unlocked. How many answers it accepts is the editors' to know; no one is ever sent an answer
    // (the schema drops the rest).
    const { answerCount: _answerCount, ...shown } = challenge;
    const flag = own.flag ? { solved: own.flag.solvedAt !== null, attemptsLeft: own.flag.attemptsLeft } : {};
    const paidHints = own.paidHints.map((hint) => ({ number: hint.position, cost: hint.cost, unlocked: hint.unlocked, text: hint.unlocked ? hint.text : null }));
    return respond(ChallengeOutSchema, { ...shown, ...flag, paidHints });
  },
  PUT: async ({ request, params, caller }) => {
    const id = pathId(params.id);
    const values = await readBody(request, ChallengeApiSchema);
    await updateChallenge(actorOf(caller, request), id, values, null);
    return respond(ChallengeOutSchema, (await getChallengeForAdmin(id))!);
  },
});
export const loader = resource.loader;
export const action = resource.action;
