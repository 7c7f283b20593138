import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { messages } from "~/modules/messages";
import { useServerMessage } from "~/components/server-message";
import { requireLayout } from "~/glue/auth.server";

/** The dashboard's own 404, inside its layout. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireLayout(request, "/dashboard");
  return data(null, { status: 404 });
}

export default function DashboardNotFound() {
  const serverMessage = useServerMessage();
  return (
    <section className="status-page status-page--inline" aria-labelledby="dashboard-404-title">
      <p className="status-page__code" aria-hidden="true">
        404
      </p>
      <h1 id="dashboard-404-title">{serverMessage(messages.errors.notFoundTitle)}</h1>
      <p>{serverMessage(messages.errors.notFound)}</p>
    </section>
  );
}
