import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CodeScreen } from "~/components/code/code-screen";
import { LoadErrorPage } from "~/components/status-page";
import { useT } from "~/components/i18n";
import { requirePage } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { codePost } from "~/glue/code.server";
import { requestBegunAt } from "~/glue/request-time.server";
import { foundOr404, rowIdOr404 } from "~/glue/responses.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { codePage } from "~/modules/code/runs.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: data ? pageTitle(matches, "code.title", { title: data.challenge.title }) : pageTitle(matches, "meta.challenge") },
];

/** Any signed-in user who may see the challenge; a team's own runs (docs/domain.md "Code challenges"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  return foundOr404(await codePage(rowIdOr404(params.id), user, languageOf(request)));
}

/** A program (pasted or a file, multipart); the answer is shown on the page (no JavaScript needed). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const reply = await codePost(request, user, rowIdOr404(params.id), requestBegunAt(context));
  return data(reply, { status: reply.ok ? 200 : reply.status });
}

export default function CodePage() {
  return <CodeScreen {...useLoaderData<typeof loader>()} />;
}

export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("meta.challengeTitle")} className="code-page" />;
}
