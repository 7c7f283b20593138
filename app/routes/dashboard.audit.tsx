import { parseWithZod } from "@conform-to/zod/v4";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuditTrailScreen } from "~/components/dashboard/audit-trail";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { requirePage } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { pageTitle, tFor } from "~/modules/i18n/i18n";
import { presentRecord, type AuditRecordView } from "~/modules/audit/present";
import { auditFilterChoices, auditPage } from "~/modules/audit/read.server";
import { AUDIT_FILTER_FIELDS, auditQuerySchema } from "~/modules/audit/schema";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";

const m = messages.audit;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "auditPage.title") }];
export const handle: DashboardHandle = { loadFailed: m.loadFailed };

/** Admins only (pageRoles): newest first, a page at a time (docs/domain.md "Audit trail"). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const searchParams = new URL(request.url).searchParams;
  const [timeZone, choices] = await Promise.all([getEventTimeZone(), auditFilterChoices()]);
  const values = Object.fromEntries(AUDIT_FILTER_FIELDS.map((field) => [field, searchParams.get(field) ?? ""]));
  const submission = parseWithZod(searchParams, { schema: auditQuerySchema(timeZone) });
  if (submission.status !== "success") {
    const errors = Object.fromEntries(Object.entries(submission.error ?? {}).map(([field, list]) => [field, list ?? []]));
    return data({ timeZone, choices, values, errors, records: [] as AuditRecordView[], older: null, newer: null, paged: false }, { status: 400 });
  }
  const { filter, position, limit } = submission.value;
  const page = await auditPage(filter, position, limit);
  // The values' words (yes/no, instants) in the reader's language; the CSV and the API keep English.
  const words = valueWords(request);
  return {
    timeZone,
    choices,
    values,
    errors: {} as Record<string, string[]>,
    records: page.records.map((record) => presentRecord(record, timeZone, words)),
    older: page.older,
    newer: page.newer,
    paged: position !== null,
  };
}

function valueWords(request: Request) {
  const language = languageOf(request);
  const t = tFor(language);
  return { language, yes: t("auditPage.yes"), no: t("auditPage.no") };
}

export default function AuditTrail() {
  return <AuditTrailScreen {...useLoaderData<typeof loader>()} />;
}
