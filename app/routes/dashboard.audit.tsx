import { parseWithZod } from "@conform-to/zod/v4";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { requirePage } from "~/glue/auth.server";
import { auditKinds } from "~/modules/audit/kinds";
import { presentRecord, type AuditRecordView } from "~/modules/audit/present";
import { auditFilterChoices, auditPage } from "~/modules/audit/read.server";
import { auditQuerySchema } from "~/modules/audit/schema";
import type { Role } from "~/modules/auth/access";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { roleLabels } from "~/modules/users/schema";
import styles from "~/styles/dashboard.css";

const m = messages.audit;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Audit trail · Gatekeeper Dashboard" }];
export const handle: DashboardHandle = { loadFailed: m.loadFailed };

/** The filter fields as typed (kept in the form, carried by the page links and the CSV link). */
const FILTER_FIELDS = ["team", "user", "kind", "from", "to", "limit"] as const;

/** Admins only (pageRoles): newest first, a page at a time (docs/domain.md "Audit trail"). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const searchParams = new URL(request.url).searchParams;
  const [timeZone, choices] = await Promise.all([getEventTimeZone(), auditFilterChoices()]);
  const values = Object.fromEntries(FILTER_FIELDS.map((field) => [field, searchParams.get(field) ?? ""]));
  const submission = parseWithZod(searchParams, { schema: auditQuerySchema(timeZone) });
  if (submission.status !== "success") {
    const errors = Object.fromEntries(Object.entries(submission.error ?? {}).map(([field, list]) => [field, list ?? []]));
    return data({ timeZone, choices, values, errors, records: [] as AuditRecordView[], older: null, newer: null, paged: false }, { status: 400 });
  }
  const { filter, position, limit } = submission.value;
  const page = await auditPage(filter, position, limit);
  return {
    timeZone,
    choices,
    values,
    errors: {} as Record<string, string[]>,
    records: page.records.map((record) => presentRecord(record, timeZone)),
    older: page.older,
    newer: page.newer,
    paged: position !== null,
  };
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** This page's address with the filters as typed and, if given, a page cursor. */
function pageHref(values: LoaderData["values"], cursor?: { before?: string; after?: string }, path = "/dashboard/audit") {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) if (values[field]) params.set(field, values[field]);
  if (cursor?.before) params.set("before", cursor.before);
  if (cursor?.after) params.set("after", cursor.after);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Every role has its group (a user missing from the list would drop the user filter on the next submit). */
const roleGroups = [
  { role: "admin", label: "Admins" },
  { role: "judge", label: "Judges" },
  { role: "mentor", label: "Mentors" },
  { role: "participant", label: "Participants" },
] as const satisfies ReadonlyArray<{ role: Role; label: string }>;

function Filters({ choices, values, errors }: Pick<LoaderData, "choices" | "values" | "errors">) {
  const teamListed = !values.team || choices.teams.some((team) => String(team.id) === values.team);
  const userListed = !values.user || choices.users.some((user) => String(user.id) === values.user);
  return (
    <Form method="get" className="dash-filters card audit-filters" aria-label="Filter the audit trail">
      <SelectField label="Team" selectProps={{ id: "audit-team", name: "team", defaultValue: values.team }} errors={errors.team}>
        <option value="">All teams</option>
        {/* A deleted team's id (from a link) stays chosen. */}
        {teamListed ? null : <option value={values.team}>Team #{values.team}</option>}
        {choices.teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="User (acting or concerned)" selectProps={{ id: "audit-user", name: "user", defaultValue: values.user }} errors={errors.user}>
        <option value="">All users</option>
        {userListed ? null : <option value={values.user}>User #{values.user}</option>}
        {roleGroups.map((group) => (
          <optgroup key={group.role} label={group.label}>
            {choices.users
              .filter((user) => user.role === group.role)
              .map((user) => (
                <option key={user.id} value={user.id}>
                  {user.name}
                </option>
              ))}
          </optgroup>
        ))}
      </SelectField>
      <SelectField label="Kind of change" selectProps={{ id: "audit-kind", name: "kind", defaultValue: values.kind }} errors={errors.kind}>
        <option value="">Every change</option>
        {Object.entries(auditKinds).map(([kind, label]) => (
          <option key={kind} value={kind}>
            {label}
          </option>
        ))}
      </SelectField>
      <Field label="From" inputProps={{ id: "audit-from", name: "from", type: "datetime-local", step: 1, defaultValue: values.from }} errors={errors.from} />
      <Field label="To (included)" inputProps={{ id: "audit-to", name: "to", type: "datetime-local", step: 1, defaultValue: values.to }} errors={errors.to} />
      {values.limit ? <input type="hidden" name="limit" value={values.limit} /> : null}
      <div className="dash-form-actions audit-filters__actions">
        <ActionButton type="submit" variant="subtle">
          Filter
        </ActionButton>
        <Link to="/dashboard/audit">Clear</Link>
      </div>
    </Form>
  );
}

function Changes({ record }: { record: AuditRecordView }) {
  if (record.changed.length === 0 && record.unchanged.length === 0) return <span className="audit-muted">—</span>;
  return (
    <>
      <ul className="audit-changes">
        {record.changed.map((change) => (
          <li key={change.field}>
            <span className="audit-changes__field">{change.label}</span>{" "}
            {record.mode === "created" ? (
              <ins dir="auto">{change.after}</ins>
            ) : record.mode === "deleted" ? (
              <del dir="auto">{change.before}</del>
            ) : (
              <>
                <span className="audit-changes__old" dir="auto">
                  {change.before}
                </span>
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> changed to </span>
                <ins dir="auto">{change.after}</ins>
              </>
            )}
          </li>
        ))}
      </ul>
      {record.unchanged.length ? (
        <details className="audit-unchanged">
          <summary>{record.unchanged.length} unchanged</summary>
          <ul className="audit-changes">
            {record.unchanged.map((change) => (
              <li key={change.field}>
                <span className="audit-changes__field">{change.label}</span> <span dir="auto">{change.after}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

function Records({ records }: { records: AuditRecordView[] }) {
  return (
    <div className="table-wrap" role="region" aria-labelledby="audit-records-heading" tabIndex={0}>
      <table className="table audit-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Change</th>
            <th scope="col">Who</th>
            <th scope="col">Team</th>
            <th scope="col">What</th>
            <th scope="col">Before → after</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id} data-audit-id={record.id}>
              <td className="audit-when">
                <time dateTime={record.at}>{record.atText}</time>
              </td>
              <td>{record.kindLabel}</td>
              <td>
                {record.actor.id !== null ? (
                  <Link to={`?user=${record.actor.id}`} dir="auto" title="This user's history">
                    {record.actor.name}
                  </Link>
                ) : (
                  <span dir="auto">{record.actor.name}</span>
                )}
                <span className="audit-meta">
                  {[record.actor.role ? roleLabels[record.actor.role] : null, `via ${record.actor.via}`, record.actor.ip].filter(Boolean).join(" · ")}
                </span>
              </td>
              <td>
                {record.team ? (
                  <Link to={`?team=${record.team.id}`} dir="auto" title="This team's history">
                    {record.team.name}
                  </Link>
                ) : (
                  <span className="audit-muted">—</span>
                )}
              </td>
              <td>
                {record.subject}
                {record.title ? (
                  <span className="audit-meta" dir="auto">
                    {record.title}
                  </span>
                ) : null}
                {record.user ? (
                  <span className="audit-meta">
                    about{" "}
                    <Link to={`?user=${record.user.id}`} dir="auto">
                      {record.user.name}
                    </Link>
                  </span>
                ) : null}
              </td>
              <td className="audit-diff">
                <Changes record={record} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function AuditTrail() {
  const { timeZone, choices, values, errors, records, older, newer, paged } = useLoaderData<typeof loader>();
  const invalid = Object.keys(errors).length > 0;
  return (
    <section aria-labelledby="audit-title" className="stack dash-page audit-page">
      <h1 id="audit-title">Audit trail</h1>
      <p>
        Who changed what teams see or are ranked by, newest first. Times are the event&apos;s ({timeZone}), to the second. The records cannot be edited or
        deleted.
      </p>
      <Filters choices={choices} values={values} errors={errors} />
      {invalid ? (
        <Message tone="error">{m.filtersInvalid}</Message>
      ) : (
        <section className="card stack" aria-labelledby="audit-records-heading">
          <div className="audit-heading">
            <h2 id="audit-records-heading">Records</h2>
            <a href={pageHref(values, undefined, "/dashboard/exports/audit.csv")} download>
              Download CSV (these filters, every page)
            </a>
          </div>
          {records.length === 0 ? <p>{paged ? m.noOlder : m.none}</p> : <Records records={records} />}
          <nav aria-label="Audit trail pages" className="audit-pager">
            {paged ? <Link to={pageHref(values)}>« Newest</Link> : null}
            {newer ? (
              <Link to={pageHref(values, { after: newer })} rel="prev">
                ‹ Newer
              </Link>
            ) : null}
            {older ? (
              <Link to={pageHref(values, { before: older })} rel="next">
                Older ›
              </Link>
            ) : null}
          </nav>
        </section>
      )}
    </section>
  );
}
