import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useMemo, type ChangeEvent } from "react";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import { useHydrated } from "~/hooks/use-hydrated";
import { intlLocale, type Language } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import type { CreatedAccounts, RegistrationsPage } from "~/modules/registrations/registrations-page.server";
import { CreateAccountsSchema, TSHIRT_SIZES } from "~/modules/registrations/schema";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

const m = messages.registration;

/** The registration's day (and, in its title, its time) in UTC; Arabic with Latin digits (decision 025). */
function dateFormatsOf(language: Language) {
  const locale = language === "en" ? "en-GB" : intlLocale(language);
  return {
    date: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }),
    time: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  };
}

/** What the page's action answers: the form's reply and, once created, the accounts. */
type RegistrationsAction = { result: SubmissionResult<string[]>; accounts: CreatedAccounts | null };

/** Dashboard → Registrations: the accounts just created, the counts, and the list to create accounts from. */
export function RegistrationsScreen({ q, counts, rows, mailOn, providerOnly, teamWishes }: RegistrationsPage) {
  const actionData = useActionReply<RegistrationsAction>();
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
  const { t, language } = useT();
  const serverMessage = useServerMessage();
  const formats = useMemo(() => dateFormatsOf(language), [language]);

  return (
    <section aria-labelledby="registrations-title" className="stack">
      <h1 id="registrations-title">{t("registrationsPage.title")}</h1>

      {actionData?.accounts ? <CreatedAccountsCard accounts={actionData.accounts} /> : null}
      {/* How accounts made here learn their password (docs/domain.md "Mail"). */}
      <p className={mailOn ? "muted" : "registrations__warning"}>{mailOn ? (providerOnly ? t("registrationsPage.mailOnConfirm", { label: providerOnly }) : t("registrationsPage.mailOn")) : t("registrationsPage.mailOff")}</p>
      {teamWishes ? <p className="muted">{t("registrationsPage.teamWishes")}</p> : null}

      <section className="card" aria-labelledby="registrations-counts-title">
        <h2 id="registrations-counts-title">{t("registrationsPage.counts.title")}</h2>
        <dl className="registrations__counts">
          <Count label={t("registrationsPage.counts.total")} value={counts.total} />
          <Count label={t("registrationsPage.counts.withTeam")} value={counts.withTeam} />
          <Count label={t("registrationsPage.counts.withoutTeam")} value={counts.withoutTeam} />
          <Count label={t("registrationsPage.counts.withAccount")} value={counts.withAccount} />
          {TSHIRT_SIZES.map((size) => (
            <Count key={size} label={t("registrationsPage.counts.tshirt", { size })} value={counts.bySize[size]} />
          ))}
        </dl>
      </section>

      <section className="card stack" aria-labelledby="registrations-list-title">
        <h2 id="registrations-list-title">{t("registrationsPage.list.title")}</h2>
        <div className="registrations__toolbar">
          <Form method="get" className="registrations__search" role="search">
            <div className="field">
              <label className="field__label" htmlFor="registrations-q">
                {t("registrationsPage.list.searchLabel")}
              </label>
              <input id="registrations-q" name="q" type="search" defaultValue={q} className="field__input" dir="auto" />
            </div>
            <ActionButton type="submit" variant="subtle">
              {t("registrationsPage.list.search")}
            </ActionButton>
          </Form>
          {/* A plain link: the file is a download, not a page for the client router. */}
          <a href={exportHref} className="action-button action-button--subtle" download>
            {t("registrationsPage.list.export")}
          </a>
        </div>

        <Form method="post" {...getFormProps(form)} className="stack">
          {/* Focusable: once every row has its account, nothing in it is (a scrolling table must be reachable). */}
          <SideScroll role="region" aria-labelledby="registrations-caption" tabIndex={0}>
            <table className="table">
              <caption id="registrations-caption" className="visually-hidden">
                {q ? t("registrationsPage.list.captionMatching", { q, number: rows.length }) : t("registrationsPage.list.captionAll", { number: rows.length })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    {selectable ? <SelectAll /> : t("registrationsPage.list.select")}
                  </th>
                  <th scope="col">{t("registrationsPage.name")}</th>
                  <th scope="col" data-priority="3">{t("registrationsPage.email")}</th>
                  <th scope="col" data-priority="2">{teamWishes ? t("registrationsPage.teamWish") : t("registrationsPage.team")}</th>
                  <th scope="col" data-priority="3">{t("registrationsPage.list.skill")}</th>
                  <th scope="col" data-priority="3">{t("registrationsPage.list.tshirt")}</th>
                  <th scope="col" data-priority="3">{t("registrationsPage.list.registered")}</th>
                  <th scope="col" data-priority="2">{t("registrationsPage.list.account")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={8} className="muted">
                      {q ? t("registrationsPage.list.noMatch") : t("registrationsPage.list.noneYet")}
                    </td>
                  </tr>
                ) : (
                  rows.map((row) => {
                    const email = (
                      <>
                        <bdi dir="ltr" className="cut" title={row.email}>
                          {row.email}
                        </bdi>
                        {row.sameAddress > 1 ? <span className="registrations__duplicate"> ({t("registrationsPage.list.duplicate", { count: row.sameAddress })})</span> : null}
                      </>
                    );
                    const team = row.teamName ? <bdi>{row.teamName}</bdi> : <span className="muted">{t("registrationsPage.none")}</span>;
                    const registered = (
                      <time dateTime={row.createdAt} title={`${formats.time.format(new Date(row.createdAt))} UTC`}>
                        {formats.date.format(new Date(row.createdAt))}
                      </time>
                    );
                    const account = row.userName ? <bdi>{row.userName}</bdi> : <span className="muted">{t("registrationsPage.none")}</span>;
                    return (
                      <tr key={row.id}>
                        <td>
                          {row.userName ? null : (
                            <input
                              type="checkbox"
                              name={fields.ids.name}
                              value={row.id}
                              className="registrations__select"
                              aria-label={t("registrationsPage.list.selectOne", { name: row.name })}
                            />
                          )}
                        </td>
                        <td>
                          <bdi>{row.name}</bdi>
                          <Folded
                            lines={[
                              { label: teamWishes ? t("registrationsPage.teamWish") : t("registrationsPage.team"), value: team, priority: 2 },
                              { label: t("registrationsPage.list.account"), value: account, priority: 2 },
                              { label: t("registrationsPage.email"), value: email, priority: 3 },
                              { label: t("registrationsPage.list.skill"), value: <bdi>{row.skill}</bdi>, priority: 3 },
                              { label: t("registrationsPage.list.tshirt"), value: row.tshirtSize, priority: 3 },
                              { label: t("registrationsPage.list.registered"), value: registered, priority: 3 },
                            ]}
                          />
                        </td>
                        <td data-priority="3">{email}</td>
                        <td data-priority="2">{team}</td>
                        <td data-priority="3">
                          <bdi>{row.skill}</bdi>
                        </td>
                        <td data-priority="3">{row.tshirtSize}</td>
                        <td className="nowrap" data-priority="3">
                          {registered}
                        </td>
                        <td data-priority="2">{account}</td>
                      </tr>
                    );
                  })
                )}
              </tbody>
            </table>
          </SideScroll>
          <div className="message-slot" aria-live="polite">
            {error ? (
              <Message tone="error" id={form.errorId}>
                {serverMessage(error)}
              </Message>
            ) : null}
          </div>
          <ActionButton type="submit" disabled={creating} className="registrations__create">
            {creating ? t("registrationsPage.list.creating") : t("registrationsPage.list.create")}
          </ActionButton>
        </Form>
      </section>
    </section>
  );
}

/** "Select all" needs JavaScript, so it appears only once the page is hydrated (plain "Select" before). */
function SelectAll() {
  const hydrated = useHydrated();
  const { t } = useT();
  if (!hydrated) return <>{t("registrationsPage.list.select")}</>;
  const toggle = (event: ChangeEvent<HTMLInputElement>) => {
    for (const box of event.currentTarget.form?.querySelectorAll<HTMLInputElement>("input.registrations__select") ?? []) {
      box.checked = event.currentTarget.checked;
    }
  };
  return <input type="checkbox" className="registrations__select-all" aria-label={t("registrationsPage.list.selectAll")} onChange={toggle} />;
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="registrations__count">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Shown once, right after creation: the passwords exist nowhere else. */
function CreatedAccountsCard({ accounts }: { accounts: CreatedAccounts }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section className="card stack" aria-labelledby="created-accounts-title">
      {/* Built from a count, this message stays English for now (decision 025): isolated, it reads in order in Arabic too. */}
      <h2 id="created-accounts-title">
        <bdi>{m.accountsCreated(accounts.created.length)}</bdi>
      </h2>
      {accounts.skipped ? (
        <p className="muted">
          {t("registrationsPage.created.skipped", { count: accounts.skipped })}
        </p>
      ) : null}
      {accounts.refused.length ? (
        <ul className="list-reset stack" aria-label={t("registrationsPage.created.refused")}>
          {accounts.refused.map((refusal) => (
            <li key={refusal.registrationId}>
              <Message tone="error">
                <bdi>{refusal.fullName}</bdi>: {serverMessage(refusal.message)}
              </Message>
            </li>
          ))}
        </ul>
      ) : null}
      {accounts.created.length && accounts.linksMailed ? <p>{accounts.linksConfirm ? t("registrationsPage.created.linksMailedConfirm") : t("registrationsPage.created.linksMailed")}</p> : null}
      {accounts.created.length ? (
        <>
          {accounts.linksMailed ? null : (
            <p className="registrations__warning">
              {t("registrationsPage.created.warning")}
            </p>
          )}
          <SideScroll role="region" aria-labelledby="created-accounts-caption" tabIndex={0}>
            <table className="table">
              <caption id="created-accounts-caption" className="visually-hidden">
                {accounts.linksMailed ? (accounts.linksConfirm ? t("registrationsPage.created.captionMailedConfirm") : t("registrationsPage.created.captionMailed")) : t("registrationsPage.created.caption")}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t("registrationsPage.name")}</th>
                  <th scope="col">{t("registrationsPage.email")}</th>
                  <th scope="col">{t("registrationsPage.created.userName")}</th>
                  {accounts.linksMailed ? null : <th scope="col">{t("registrationsPage.created.password")}</th>}
                  <th scope="col">{t("registrationsPage.team")}</th>
                </tr>
              </thead>
              <tbody>
                {accounts.created.map((account) => (
                  <tr key={account.registrationId}>
                    <td>
                      <bdi>{account.fullName}</bdi>
                    </td>
                    <td>
                      <bdi dir="ltr">{account.email}</bdi>
                    </td>
                    <td>
                      <bdi>{account.userName}</bdi>
                    </td>
                    {accounts.linksMailed ? null : (
                      <td className="registrations__password">
                        <bdi dir="ltr">{account.password}</bdi>
                      </td>
                    )}
                    <td>
                      {account.teamName ? <bdi>{account.teamName}</bdi> : <span className="muted">{t("registrationsPage.none")}</span>}
                      {account.teamCreated ? <span className="muted"> ({t("registrationsPage.created.newTeam")})</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
          {accounts.csv ? (
            <a href={accounts.csv} download={accounts.fileName} className="action-button registrations__download">
              {t("registrationsPage.created.download")}
            </a>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
