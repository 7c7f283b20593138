import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { HomeContent } from "~/components/participant/home-content";
import { RouteErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import { loadHomeContent } from "~/modules/participant/home.server";
import { handleHomeAction } from "~/glue/home-forms.server";
import { requirePage } from "~/glue/auth.server";

export const meta: MetaFunction = () => [{ title: "Home · Gatekeeper" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return { content: await loadHomeContent() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePage(request);
  return handleHomeAction(await request.formData(), user, "/home");
}

export default function Home() {
  const { content } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="page participant-page">
      <TitleBar title="Welcome to the Gates" />
      <HomeContent content={content} actionData={actionData} />
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
