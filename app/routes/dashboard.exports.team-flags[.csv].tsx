import type { ActionFunctionArgs } from "@remix-run/node";
import { requirePageActor } from "~/glue/actor.server";
import { failureOf } from "~/glue/failures.server";
import { languageOf } from "~/glue/language.server";
import { csvFileName, csvResponse } from "~/modules/exports/csv-format.server";
import { teamFlagsCsv, teamFlagsKey } from "~/modules/flags/attempts.server";
import { TeamFlagsQuerySchema } from "~/modules/flags/attempts-query";
import { translateMessage } from "~/modules/i18n/server-messages";
import { messages } from "~/modules/messages";

/** A refusal as the browser shows a failed download: one sentence, in the reader's language. */
function refusal(request: Request, message: string, status: number, headers: Record<string, string> = {}) {
  return new Response(translateMessage(message, languageOf(request)), {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/**
 * Every team's per-team flag of a challenge as CSV, or (`what=key`) the challenge's key and the derivation as text
 * (admins only: pageRoles). A POST (the Attempts page's form): never prefetched, never in a link's history, and
 * under the CSRF check; each download is audited.
 */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const form = await request.formData();
  const parsed = TeamFlagsQuerySchema.safeParse({ challenge: form.get("challenge"), what: form.get("what") ?? undefined });
  if (!parsed.success) return refusal(request, parsed.error.issues.some((issue) => issue.path[0] === "challenge") ? messages.flagAttempts.notPerTeam : messages.errors.badRequest, 400);
  try {
    if (parsed.data.what === "key") {
      const { text } = await teamFlagsKey(actor, parsed.data.challenge);
      return new Response(text, {
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Disposition": `attachment; filename="team-flags-key-${parsed.data.challenge}.txt"`,
          "Cache-Control": "no-store",
        },
      });
    }
    const { csv } = await teamFlagsCsv(actor, parsed.data.challenge);
    return csvResponse(csv, csvFileName(`team-flags-${parsed.data.challenge}`));
  } catch (error) {
    const failure = failureOf(error, { log: "team flags export failed", fallback: messages.errors.server });
    return refusal(request, failure.message, failure.status, failure.headers);
  }
}
