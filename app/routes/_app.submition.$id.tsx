import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { SubmissionScreen } from "~/components/participant/submission-screen";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { LoadErrorPage } from "~/components/status-page";
import { announcementsIn, challengeAnswers } from "~/modules/announcements/announcements.server";
import { messages } from "~/modules/messages";
import { challengePageIn, getChallengeForSubmission } from "~/modules/participant/board.server";
import { languageOf } from "~/glue/language.server";
import { getSubmissionsWindow } from "~/modules/settings/settings.server";
import { submissionMaxBytes } from "~/modules/submissions/submit.server";
import { handleSubmissionPost } from "~/glue/submission-upload.server";
import { answerFlagPost, flagPostOf, unlockHintPost } from "~/glue/flag-answer.server";
import { FLAG_INTENT, HINT_INTENT } from "~/modules/flags/schema";
import { flagFiguresFor } from "~/modules/flags/figures.server";
import { requirePage } from "~/glue/auth.server";
import { pageReadFor } from "~/glue/viewer-badges.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { loadOrFail } from "~/glue/load.server";
import { redirectWithToast } from "~/glue/toast.server";
import { parseRowId } from "~/modules/ids";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? pageTitle(matches, "meta.gate", { name: data.challenge.title }) : pageTitle(matches, "meta.challenge") },
];

const text = messages.participant;


function challengeIdOf(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw new Response("Not found", { status: 404 });
  return id;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const challengeId = challengeIdOf(params.id);
  const { versions, rows } = await pageReadFor(context, user, request, "challenge", challengeId);
  const [found, deadline, answers] = await loadOrFail(
    () =>
      Promise.all([
        getChallengeForSubmission(challengeId, user, new Date(), versions, rows),
        getSubmissionsWindow(new Date(), versions),
        challengeAnswers(challengeId, versions),
      ]),
    text.challengeLoadFailed,
    { challengeId },
  );
  if (!found) throw new Response("Not found", { status: 404 });
  // A flag challenge's figures (its value now, solves, first solvers): a read of its own, as its team's state.
  const figures = found.challenge.checking === "flag" ? (await flagFiguresFor([challengeId], user)).get(challengeId) ?? null : null;
  const language = languageOf(request);
  // In the viewer's language (docs/domain.md "Event content in two languages").
  return { ...challengePageIn(found, language), canSubmit: user.teamId !== null, maxBytes: submissionMaxBytes(), submissions: deadline, answers: announcementsIn(answers, language), figures };
}

/**
 * The forms without JavaScript: a flag answer (URL-encoded, `intent=flag`), the verdict on the page; else a
 * judged challenge's plain multipart post (the enhanced form posts to ./upload for progress).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const challengeId = challengeIdOf(params.id);
  const flagForm = await flagPostOf(request);
  if (flagForm?.get("intent") === HINT_INTENT) {
    const unlocked = await unlockHintPost(request, flagForm, { caller: user });
    return data({ hint: unlocked }, { status: unlocked.status });
  }
  if (flagForm) {
    const answered = await answerFlagPost(request, flagForm, { caller: user, challengeId, begunAt: requestBegunAt(context) });
    return data({ flag: answered.reply }, { status: answered.status, headers: answered.headers });
  }
  const outcome = await handleSubmissionPost(request, {
    caller: user,
    challengeId,
    maxBytes: submissionMaxBytes(),
    begunAt: requestBegunAt(context),
  });
  if (!outcome.ok) return data({ error: outcome.message, text: outcome.text }, { status: outcome.status });
  return redirectWithToast(`/submition/${challengeId}?submitted=1`, {
    type: "success",
    title: outcome.created ? text.created : text.updated,
  });
}

/** A flag answer changes the team's state whatever its verdict (a refusal too: solved meanwhile, a wait). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === FLAG_INTENT || formData?.get("intent") === HINT_INTENT || defaultShouldRevalidate;

export default function SubmissionPage() {
  return <SubmissionScreen {...useLoaderData<typeof loader>()} />;
}

/** A challenge that fails to load shows "Error:" with the message; a 404 stays the 404 page. */
export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("meta.challengeTitle")} className="submission-page" />;
}
