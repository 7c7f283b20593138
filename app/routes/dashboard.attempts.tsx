import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { AttemptsScreen } from "~/components/dashboard/attempts-screen";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { actorOf } from "~/glue/actor.server";
import { tryAnswerPost } from "~/glue/try-answer.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import {
  attemptFilterChoices,
  listAttemptsPage,
  listResettable,
  listSharingPage,
  RESETTABLE_LIMIT,
  resetWrongAnswers,
  sharingTotal,
} from "~/modules/flags/attempts.server";
import { attemptFilterOf, AttemptResetSchema, readAttemptListQuery } from "~/modules/flags/attempts-query";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";

const m = messages.flagAttempts;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "attemptsPage.title") }];
export const handle: DashboardHandle = { loadFailed: m.loadFailed };

/** Admins only (pageRoles): the flag attempts newest first, or the sharing signals, a page at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const query = readAttemptListQuery(new URL(request.url).searchParams);
  const view = query.view ?? "attempts";
  const filter = attemptFilterOf(query);
  const [timeZone, choices, shared] = await Promise.all([getEventTimeZone(), attemptFilterChoices(), sharingTotal()]);
  const common = { timeZone, query, choices, sharingTotal: shared, resettableLimit: RESETTABLE_LIMIT };
  if (view === "sharing") {
    const { rows, page } = await listSharingPage(filter, query.page);
    return { ...common, view, pages: page, attempts: [], sharing: rows.map((row) => ({ ...row, at: row.at.toISOString() })), resettable: [] };
  }
  const [{ rows, page }, resettable] = await Promise.all([listAttemptsPage(filter, query.page), listResettable(filter)]);
  return {
    ...common,
    view,
    pages: page,
    attempts: rows.map((row) => ({ ...row, at: row.at.toISOString() })),
    sharing: [],
    resettable: resettable.map((row) => ({ ...row, lastAt: row.lastAt.toISOString() })),
  };
}

/**
 * Resets a team's counted wrong answers to a challenge (a row's button), back to the same list; or tries an
 * answer on a challenge (`intent=try`), recording nothing, and answers with the verdict and what was typed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const caller = await requirePage(request);
  const formData = await request.formData();
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  if (formData.get("intent") === "try") {
    const tried = await tryAnswerPost(formData);
    return data({ tried }, { status: tried.status });
  }
  if (formData.get("intent") !== "reset") throw badRequest();
  const parsed = AttemptResetSchema.safeParse({ teamId: formData.get("teamId"), challengeId: formData.get("challengeId") });
  if (!parsed.success) throw badRequest();
  try {
    const reset = await resetWrongAnswers(actorOf(caller, request), parsed.data.teamId, parsed.data.challengeId);
    return redirectWithToast(back, { type: "success", title: m.reset(reset.team, reset.challenge, reset.count) });
  } catch (error) {
    return dashboardToastFailure(back, error, "flag attempts reset failed");
  }
}

export default function Attempts() {
  const tried = useActionReply<typeof action>();
  return <AttemptsScreen {...useLoaderData<typeof loader>()} tried={tried && "tried" in tried ? tried.tried : null} />;
}
