import { ApiError } from "~/modules/api/errors";
import { canOpen } from "~/modules/auth/access";
import { ChallengeOutSchema } from "~/modules/api/schemas";
import { getChallenge, updateChallenge } from "~/modules/challenges/challenges.server";
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
    const own = staff ? null : await getChallengeForSubmission(id, user);
    // A challenge locked for the caller's team (its prerequisites unsolved) is not its to read yet.
    const challenge = staff || (own && !own.locked) ? await getChallenge(id) : null;
    if (!challenge) throw new ApiError("not_found", messages.participant.challengeNotFound);
    // A participant's team's state on a flag challenge: solved, attempts left. How many answers it accepts is the
    // editors' to know; no one is ever sent an answer (the schema drops the rest).
    const { answerCount, ...shown } = challenge;
    const flag = own?.flag ? { solved: own.flag.solvedAt !== null, attemptsLeft: own.flag.attemptsLeft } : {};
    return respond(ChallengeOutSchema, staff ? { ...shown, answerCount } : { ...shown, ...flag });
  },
  PUT: async ({ request, params, caller }) => {
    const id = pathId(params.id);
    const values = await readBody(request, ChallengeApiSchema);
    await updateChallenge(actorOf(caller, request), id, values, null);
    return respond(ChallengeOutSchema, (await getChallenge(id))!);
  },
});
export const loader = resource.loader;
export const action = resource.action;
