import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PredictionsScreen } from "~/components/predictions/predictions-screen";
import { LoadErrorPage } from "~/components/status-page";
import { useT } from "~/components/i18n";
import { requirePage } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { predictionsPost } from "~/glue/predictions.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { parseRowId } from "~/modules/ids";
import { predictionsPage } from "~/modules/predictions/predictions.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? pageTitle(matches, "predictions.title", { title: data.challenge.title }) : pageTitle(matches, "meta.challenge") },
];

function challengeIdOf(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw new Response("Not found", { status: 404 });
  return id;
}

/** Any signed-in user who may see the challenge; a team's own files, the leaderboard (docs/domain.md "Prediction challenges"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const page = await predictionsPage(challengeIdOf(params.id), user, languageOf(request));
  if (!page) throw new Response("Not found", { status: 404 });
  return page;
}

/** A predictions file (multipart) or the choice of the file that counts; the answer is shown on the page (no JavaScript needed). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const reply = await predictionsPost(request, user, challengeIdOf(params.id), requestBegunAt(context));
  return data(reply, { status: reply.ok ? 200 : reply.status });
}

export default function PredictionsPage() {
  return <PredictionsScreen {...useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("meta.challengeTitle")} className="predictions-page" />;
}
