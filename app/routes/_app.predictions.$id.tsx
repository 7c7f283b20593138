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
import { foundOr404, rowIdOr404 } from "~/glue/responses.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { predictionsPage } from "~/modules/predictions/predictions.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? pageTitle(matches, "predictions.title", { title: data.challenge.title }) : pageTitle(matches, "meta.challenge") },
];

/** Any signed-in user who may see the challenge; a team's own files, the leaderboard (docs/domain.md "Prediction challenges"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  return foundOr404(await predictionsPage(rowIdOr404(params.id), user, languageOf(request)));
}

/** A predictions file (multipart) or the choice of the file that counts; the answer is shown on the page (no JavaScript needed). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const reply = await predictionsPost(request, user, rowIdOr404(params.id), requestBegunAt(context));
  return data(reply, { status: reply.ok ? 200 : reply.status });
}

export default function PredictionsPage() {
  return <PredictionsScreen {...useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("meta.challengeTitle")} className="predictions-page" />;
}
