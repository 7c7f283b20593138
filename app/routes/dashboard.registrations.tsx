import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RegistrationsScreen } from "~/components/dashboard/registrations-screen";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import { createRegistrationAccounts, readRegistrationsPage } from "~/modules/registrations/registrations-page.server";
import { CreateAccountsSchema } from "~/modules/registrations/schema";
import styles from "~/styles/register.css";
import { requirePageActor } from "~/glue/actor.server";
import { SECRET_PAGE_HEADERS, secretPageHeaders } from "~/glue/secret-pages.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";

const m = messages.registration;

/** The page shows a secret once: neither it nor its `.data` answer may be kept by a cache. */
export const headers = secretPageHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "registrationsPage.pageTitle") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return readRegistrationsPage((new URL(request.url).searchParams.get("q") ?? "").slice(0, 200));
}

/** Creates participant accounts for the selected registrations; the passwords go back once, never stored. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const submission = parseWithZod(await request.formData(), { schema: CreateAccountsSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), accounts: null }, { status: 400 });
  try {
    const accounts = await createRegistrationAccounts(actor, submission.value.ids);
    // The page carries passwords: no cache may keep it.
    return data({ result: submission.reply({ resetForm: true }), accounts }, { headers: SECRET_PAGE_HEADERS });
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "creating accounts from registrations failed", fallback: m.accountsFailed });
    return data({ result: failed.result, accounts: null }, failed.init);
  }
}

export default function Registrations() {
  return <RegistrationsScreen {...useLoaderData<typeof loader>()} />;
}
