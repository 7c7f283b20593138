import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ChangeEvent } from "react";
import { ActionButton } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { useHydrated } from "~/hooks/use-hydrated";
import { messages } from "~/modules/messages";
import { createAccountsFromRegistrations } from "~/modules/registrations/accounts.server";
import { csvFileName } from "~/modules/exports/csv-format.server";
import { accountsCsvDataUrl } from "~/modules/registrations/csv.server";
import { listRegistrations, registrationCounts } from "~/modules/registrations/registrations.server";
import { CreateAccountsSchema, TSHIRT_SIZES } from "~/modules/registrations/schema";
import styles from "~/styles/register.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";


const m = messages.registration;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Registrations · Gatekeeper Dashboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const [rows, counts] = await Promise.all([listRegistrations(q), registrationCounts()]);
  return {
    q,
    counts,
    rows: rows.map((row) => ({
      id: row.id,
      name: `${row.name} ${row.lastName}`,
      email: row.email,
      skill: row.skill,
      teamName: row.hasTeam ? row.teamName : null,
      tshirtSize: row.tshirtSize,
      userName: row.userName,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/** Creates participant accounts for the selected registrations; the passwords go back once, never stored. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const submission = parseWithZod(await request.formData(), { schema: CreateAccountsSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), accounts: null }, { status: 400 });
  try {
    const { created, refused, skipped } = await createAccountsFromRegistrations(actor, submission.value.ids);
    return data(
      {
        result: submission.reply({ resetForm: true }),
        accounts: {
          created: created.map(({ registrationId, fullName, email, userName, password, teamName, teamCreated }) => ({
            registrationId,
            fullName,
            email,
            userName,
            password,
            teamName,
            teamCreated,
          })),
          refused,
          skipped,
          csv: created.length ? accountsCsvDataUrl(created) : null,
          fileName: csvFileName("accounts"),
        },
      },
      // The page carries passwords: no cache may keep it.
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "creating accounts from registrations failed", fallback: m.accountsFailed });
    return data({ result: failed.result, accounts: null }, failed.init);
  }
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default function Registrations() {
  const { q, counts, rows } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "accounts",
    lastResult: actionData?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateAccountsSchema }),
  });
  const creating = navigation.state === "submitting" && navigation.formMethod === "POST";
  const exportHref = `/dashboard/registrations/export${q ? `?${new URLSearchParams({ q })}` : ""}`;
  const error = form.errors?.[0] ?? fields.ids.errors?.[0];
  const selectable = rows.some((row) => !row.userName);

  return (
    <section aria-labelledby="registrations-title" className="stack">
      <h1 id="registrations-title">Registrations</h1>

      {actionData?.accounts ? <CreatedAccounts accounts={actionData.accounts} /> : null}

      <section className="card" aria-labelledby="registrations-counts-title">
        <h2 id="registrations-counts-title">Counts</h2>
        <dl className="registrations__counts">
          <Count label="Registrations" value={counts.total} />
          <Count label="With a team" value={counts.withTeam} />
          <Count label="Without a team" value={counts.withoutTeam} />
          <Count label="With an account" value={counts.withAccount} />
          {TSHIRT_SIZES.map((size) => (
            <Count key={size} label={`T-shirt ${size}`} value={counts.bySize[size]} />
          ))}
        </dl>
      </section>

      <section className="card stack" aria-labelledby="registrations-list-title">
        <h2 id="registrations-list-title">Registrations List</h2>
        <div className="registrations__toolbar">
          <Form method="get" className="registrations__search" role="search">
            <div className="field">
              <label className="field__label" htmlFor="registrations-q">
                Search (name, email, team, skill)
              </label>
              <input id="registrations-q" name="q" type="search" defaultValue={q} className="field__input" />
            </div>
            <ActionButton type="submit" variant="subtle">
              Search
            </ActionButton>
          </Form>
          {/* A plain link: the file is a download, not a page for the client router. */}
          <a href={exportHref} className="action-button action-button--subtle" download>
            Export CSV
          </a>
        </div>

        <Form method="post" {...getFormProps(form)} className="stack">
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">
                {q ? `Registrations matching "${q}"` : "All registrations"}, {rows.length} shown
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    {selectable ? <SelectAll /> : "Select"}
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Team</th>
                  <th scope="col">Skill</th>
                  <th scope="col">T-Shirt</th>
                  <th scope="col">Registered</th>
                  <th scope="col">Account</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={8} className="muted">
                      {q ? "No registration matches this search." : "No registrations yet."}
                    </td>
                  </tr>
                ) : (
                  rows.map((row) => (
                    <tr key={row.id}>
                      <td>
                        {row.userName ? null : (
                          <input
                            type="checkbox"
                            name={fields.ids.name}
                            value={row.id}
                            className="registrations__select"
                            aria-label={`Select ${row.name}`}
                          />
                        )}
                      </td>
                      <td>{row.name}</td>
                      <td>{row.email}</td>
                      <td>{row.teamName ?? <span className="muted">none</span>}</td>
                      <td>{row.skill}</td>
                      <td>{row.tshirtSize}</td>
                      <td className="nowrap">
                        <time dateTime={row.createdAt} title={`${timeFormat.format(new Date(row.createdAt))} UTC`}>
                          {dateFormat.format(new Date(row.createdAt))}
                        </time>
                      </td>
                      <td>{row.userName ?? <span className="muted">none</span>}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          <div className="message-slot" aria-live="polite">
            {error ? (
              <Message tone="error" id={form.errorId}>
                {error}
              </Message>
            ) : null}
          </div>
          <ActionButton type="submit" disabled={creating} className="registrations__create">
            {creating ? "Creating accounts..." : "Create accounts for selected"}
          </ActionButton>
        </Form>
      </section>
    </section>
  );
}

/** "Select all" needs JavaScript, so it appears only once the page is hydrated (plain "Select" before). */
function SelectAll() {
  const hydrated = useHydrated();
  if (!hydrated) return <>Select</>;
  const toggle = (event: ChangeEvent<HTMLInputElement>) => {
    for (const box of event.currentTarget.form?.querySelectorAll<HTMLInputElement>("input.registrations__select") ?? []) {
      box.checked = event.currentTarget.checked;
    }
  };
  return <input type="checkbox" className="registrations__select-all" aria-label="Select all shown" onChange={toggle} />;
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="registrations__count">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

type Accounts = NonNullable<NonNullable<ReturnType<typeof useActionData<typeof action>>>["accounts"]>;

/** Shown once, right after creation: the passwords exist nowhere else. */
function CreatedAccounts({ accounts }: { accounts: Accounts }) {
  return (
    <section className="card stack" aria-labelledby="created-accounts-title">
      <h2 id="created-accounts-title">{m.accountsCreated(accounts.created.length)}</h2>
      {accounts.skipped ? (
        <p className="muted">
          {accounts.skipped === 1 ? "1 selected registration already had" : `${accounts.skipped} selected registrations already had`} an
          account and was left as it was.
        </p>
      ) : null}
      {accounts.refused.length ? (
        <ul className="list-reset stack" aria-label="Registrations left without an account">
          {accounts.refused.map((refusal) => (
            <li key={refusal.registrationId}>
              <Message tone="error">
                {refusal.fullName}: {refusal.message}
              </Message>
            </li>
          ))}
        </ul>
      ) : null}
      {accounts.created.length ? (
        <>
          <p className="registrations__warning">
            These passwords are shown only this once and are not stored anywhere. Download or copy them now.
          </p>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">New accounts and their passwords</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Username</th>
                  <th scope="col">Password</th>
                  <th scope="col">Team</th>
                </tr>
              </thead>
              <tbody>
                {accounts.created.map((account) => (
                  <tr key={account.registrationId}>
                    <td>{account.fullName}</td>
                    <td>{account.email}</td>
                    <td>{account.userName}</td>
                    <td className="registrations__password">{account.password}</td>
                    <td>
                      {account.teamName ?? <span className="muted">none</span>}
                      {account.teamCreated ? <span className="muted"> (new team)</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {accounts.csv ? (
            <a href={accounts.csv} download={accounts.fileName} className="action-button registrations__download">
              Download logins (CSV)
            </a>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
