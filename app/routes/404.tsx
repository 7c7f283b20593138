import type { MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";
import { messages } from "~/modules/messages";

export const meta: MetaFunction = () => [{ title: "Not found · Gatekeeper" }];

// Public route: the not-found page answers with a real 404 status.
export async function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <StatusPage status={404} title={messages.errors.notFoundTitle} message={messages.errors.notFound} />;
}
