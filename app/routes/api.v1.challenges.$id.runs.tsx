import { ApiError } from "~/modules/api/errors";
import { CodeRunsOutSchema, RunSentSchema, runOut } from "~/modules/api/schemas";
import { canOpen } from "~/modules/auth/access";
import { fromCenti } from "~/modules/scoring/rules";
import { messages } from "~/modules/messages";
import { adminCodePage, codePage, runFor } from "~/modules/code/runs.server";
import { readRunListQuery } from "~/modules/code/schema";
import { codePost } from "~/glue/code.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { apiResource, pathId, refusalOf, respond } from "~/glue/api.server";

// Callers must sign in: apiResource authenticates the caller (401 without a session or token) and applies this
// operation's roles from the catalogue (403) before the handler runs (app/glue/api.server.ts,
// app/modules/api/operations.ts); tests/integration/api-openapi.test.ts calls it as a visitor and as each role.
/**
 * A code challenge's runs (docs/domain.md "Code challenges"), read by the code pages' own readers: a participant's
 * team's as /code/:id shows them, every team's for whoever may open /dashboard/code. A program goes through the code
 * page's form's own handler (app/glue/code.server.ts): the same checks, limits and refusals.
 */
const resource = apiResource("/challenges/{id}/runs", {
  GET: async ({ request, params, caller }) => {
    const challengeId = pathId(params.id);
    if (canOpen(caller.role, "/dashboard/code")) {
      const page = await adminCodePage(challengeId, caller, readRunListQuery(new URL(request.url).searchParams));
      if (!page) throw new ApiError("not_found", messages.participant.challengeNotFound);
      const { page: number, pages, total } = page.pages;
      return respond(CodeRunsOutSchema, { points: null, languages: page.settings?.languages ?? [], runs: page.runs.map((run) => runOut(run, challengeId)), pages: { page: number, pages, total } });
    }
    const page = await codePage(challengeId, caller, "en");
    if (!page) throw new ApiError("not_found", messages.participant.challengeNotFound);
    const languages = page.challenge.languages.map((language) => language.id);
    return respond(CodeRunsOutSchema, { points: fromCenti(page.pointsCenti), languages, runs: page.runs.map((run) => runOut(run, challengeId)) });
  },
  POST: async ({ request, params, context, caller }) => {
    const challengeId = pathId(params.id);
    const reply = await codePost(request, caller, challengeId, requestBegunAt(context));
    if (!reply.ok) throw refusalOf(reply);
    const run = reply.runId === undefined ? null : await runFor(reply.runId, caller);
    if (!run) throw new ApiError("not_found", messages.code.runNotFound);
    return respond(RunSentSchema, { run: runOut(run, challengeId), message: reply.message }, { status: 201 });
  },
});
export const loader = resource.loader;
export const action = resource.action;
