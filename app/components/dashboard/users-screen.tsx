import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { useFormErrorToast } from "~/components/toaster";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import type { UsersPage } from "~/modules/users/users-page.server";
import { UserFormSchema, userRoles } from "~/modules/users/schema";
import { languageNames } from "~/modules/i18n/i18n";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

/** Each role's name on the screen (the English is roleLabels' in app/modules/users/schema.ts). */
const roleKeys = {
  admin: "usersPage.roles.admin",
  judge: "usersPage.roles.judge",
  participant: "usersPage.roles.participant",
  mentor: "usersPage.roles.mentor",
} as const satisfies Record<(typeof userRoles)[number], string>;

function UserForm({ editing, teams, mailOn, providerOnly }: { editing: UsersPage["editing"]; teams: UsersPage["teams"]; mailOn: boolean; providerOnly: string | null }) {
  const lastResult = useActionReply<SubmissionResult<string[]>>();
  useFormErrorToast(lastResult);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: editing ? `user-edit-${editing.id}` : "user-new",
    lastResult,
    defaultValue: editing
      ? { id: String(editing.id), name: editing.name, email: editing.email ?? "", emailConfirmed: editing.emailConfirmed ? "on" : undefined, language: editing.language, role: editing.role, teamId: editing.teamId ? String(editing.teamId) : "" }
      : { role: "participant", language: "en", emailConfirmed: "on" },
    constraint: getZodConstraint(UserFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UserFormSchema }),
  });
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section className="card" aria-labelledby="user-form-heading">
      <h2 id="user-form-heading">
        {editing ? (
          <>
            {t("usersPage.form.edit")} <bdi>{editing.name}</bdi>
          </>
        ) : (
          t("usersPage.form.add")
        )}
      </h2>
      <Form method="post" {...getFormProps(form)} className="form">
        {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
        {/* Wide columns: the team select shows its longest choice, "No team (Admin, Judge)", uncut. */}
        <div className="dash-grid dash-grid--wide">
          <Field label={t("usersPage.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", dir: "auto" }} errors={fields.name.errors} />
          <Field
            label={editing ? t("usersPage.form.passwordKeep") : mailOn ? t("usersPage.form.passwordOrLink") : t("usersPage.password")}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", required: false }}
            errors={fields.password.errors}
          />
          <Field label={t("usersPage.email")} inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off", dir: "ltr", required: false }} errors={fields.email.errors} />
          <label className="checkbox">
            <input type="checkbox" name={fields.emailConfirmed.name} value="on" defaultChecked={fields.emailConfirmed.initialValue === "on"} /> {t("usersPage.emailConfirmed")}
          </label>
          <SelectField label={t("usersPage.language")} selectProps={{ ...getSelectProps(fields.language), required: false }} errors={fields.language.errors}>
            <option value="en">{languageNames.en}</option>
            <option value="ar">{languageNames.ar}</option>
          </SelectField>
          <SelectField label={t("usersPage.role")} selectProps={getSelectProps(fields.role)} errors={fields.role.errors}>
            {userRoles.map((role) => (
              <option key={role} value={role}>
                {t(roleKeys[role])}
              </option>
            ))}
          </SelectField>
          <SelectField label={t("usersPage.team")} selectProps={{ ...getSelectProps(fields.teamId), required: false }} errors={fields.teamId.errors}>
            <option value="">{t("usersPage.form.noTeam")}</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
        </div>
        {editing ? null : (
          <p className="muted">
            {mailOn ? t("usersPage.form.linkHint") : t("usersPage.form.mailOff")}
            {mailOn && providerOnly ? ` ${t("usersPage.form.linkConfirmsHint", { label: providerOnly })}` : null}
          </p>
        )}
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
        </div>
        <div className="dash-form-actions">
          <ActionButton type="submit" name="intent" value="save" disabled={saving}>
            {saving ? t("usersPage.form.saving") : editing ? t("usersPage.form.save") : t("usersPage.form.submit")}
          </ActionButton>
          {editing ? (
            <ActionLink to="/dashboard/users" variant="subtle">
              {t("usersPage.form.cancel")}
            </ActionLink>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

/** A browser's name from its user agent, enough to tell an admin's sessions apart; the full string is in the title. */
function browserOf(userAgent: string | null, t: ReturnType<typeof useT>["t"]): string {
  if (!userAgent) return t("usersPage.sessions.unknownBrowser");
  const names: Array<[RegExp, string]> = [
    [/Edg\/(\d+)/, "Edge"],
    [/OPR\/(\d+)/, "Opera"],
    [/Firefox\/(\d+)/, "Firefox"],
    [/Chrome\/(\d+)/, "Chrome"],
    [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari/, "Safari"],
    [/curl\/(\d+)/, "curl"],
  ];
  const found = names.map(([pattern, name]) => [pattern.exec(userAgent), name] as const).find(([match]) => match);
  const system = /Android|iPhone|iPad|Windows|Mac OS X|Linux/.exec(userAgent)?.[0].replace("Mac OS X", "macOS");
  const browser = found ? `${found[1]} ${found[0]![1]}` : t("usersPage.sessions.otherBrowser");
  return system ? t("usersPage.sessions.browserOn", { browser, system }) : browser;
}

function UserSessions({ user, mySession }: { user: NonNullable<UsersPage["viewing"]>; mySession: number | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && String(navigation.formData?.get("intent") ?? "").startsWith("end-session");
  const { t } = useT();
  const formats = useFormats();
  return (
    <section aria-labelledby="user-sessions-heading" className="stack">
      <h3 id="user-sessions-heading">{t("usersPage.sessions.heading", { number: user.sessions.length })}</h3>
      {user.sessions.length === 0 ? (
        <p className="muted">{t("usersPage.sessions.none")}</p>
      ) : (
        <>
          <SideScroll>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("usersPage.sessions.since")}</th>
                  <th scope="col">{t("usersPage.sessions.lastUsed")}</th>
                  <th scope="col">{t("usersPage.sessions.ip")}</th>
                  <th scope="col">{t("usersPage.sessions.browser")}</th>
                  <th scope="col">{t("usersPage.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {user.sessions.map((session) => (
                  <tr key={session.id} data-session-id={session.id}>
                    <td>{formats.dayTime(session.createdAt)}</td>
                    <td>{formats.dayTime(session.lastUsedAt)}</td>
                    <td dir="ltr">{session.ip ?? "—"}</td>
                    <td title={session.userAgent ?? undefined}>
                      <bdi>{browserOf(session.userAgent, t)}</bdi>
                      {session.id === mySession ? <span className="muted"> ({t("usersPage.sessions.thisBrowser")})</span> : null}
                    </td>
                    <td>
                      <Form method="post" action="/dashboard/users">
                        <input type="hidden" name="id" value={user.id} />
                        <input type="hidden" name="sessionId" value={session.id} />
                        <button type="submit" name="intent" value="end-session" className="link-button link-button--danger" disabled={busy} aria-label={t("usersPage.sessions.endLabel", { time: formats.dayTime(session.createdAt) })}
                        >
                          {t("usersPage.sessions.end")}
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
          <Form method="post" action="/dashboard/users" onSubmit={confirmSubmit(t("usersPage.sessions.confirmEndAll", { name: user.name }))}>
            <input type="hidden" name="id" value={user.id} />
            <ActionButton type="submit" name="intent" value="end-sessions" variant="subtle" disabled={busy}>
              {t("usersPage.sessions.endAll")}
            </ActionButton>
          </Form>
        </>
      )}
    </section>
  );
}

const mailKindKeys = { set_password: "usersPage.mail.kinds.setPassword", password_reset: "usersPage.mail.kinds.reset" } as const;
const mailStatusKeys = { queued: "usersPage.mail.status.queued", sent: "usersPage.mail.status.sent", failed: "usersPage.mail.status.failed" } as const;

/** What was mailed to the user and what the SMTP server said; a new set-password link (docs/domain.md "Mail"). */
function UserMail({ user, mailOn, providerOnly }: { user: NonNullable<UsersPage["viewing"]>; mailOn: boolean; providerOnly: string | null }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "send-link";
  const { t } = useT();
  const formats = useFormats();
  return (
    <section aria-labelledby="user-mail-heading" className="stack" style={{ marginTop: "1.5rem" }}>
      <h3 id="user-mail-heading">{t("usersPage.mail.heading")}</h3>
      {user.mails.length === 0 ? (
        <p className="muted">{t("usersPage.mail.none")}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("usersPage.mail.asked")}</th>
                <th scope="col">{t("usersPage.mail.kind")}</th>
                <th scope="col">{t("usersPage.mail.to")}</th>
                <th scope="col">{t("usersPage.mail.state")}</th>
                <th scope="col">{t("usersPage.mail.answer")}</th>
              </tr>
            </thead>
            <tbody>
              {user.mails.map((mail) => (
                <tr key={mail.id} data-mail-id={mail.id} data-mail-status={mail.status}>
                  <td className="nowrap">{formats.dayTime(mail.createdAt)}</td>
                  <td>{t(mailKindKeys[mail.kind])}</td>
                  <td>
                    <bdi dir="ltr">{mail.toAddress}</bdi>
                  </td>
                  <td>
                    {t(mailStatusKeys[mail.status])}
                    {mail.status === "queued" && mail.attempts > 0 ? <span className="muted"> ({t("usersPage.mail.tries", { count: mail.attempts })})</span> : null}
                  </td>
                  <td>
                    <bdi dir="ltr">{mail.status === "sent" ? mail.smtpResponse : (mail.lastError ?? "—")}</bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
      {mailOn && user.email ? (
        <Form method="post" action="/dashboard/users">
          <input type="hidden" name="id" value={user.id} />
          <ActionButton type="submit" name="intent" value="send-link" variant="subtle" disabled={sending}>
            {providerOnly && user.role === "participant" ? t("usersPage.mail.sendConfirmLink") : t("usersPage.mail.sendLink")}
          </ActionButton>
        </Form>
      ) : (
        <p className="muted">{mailOn ? t("usersPage.mail.noAddress") : t("usersPage.form.mailOff")}</p>
      )}
    </section>
  );
}

function UserDetails({ user, mySession, mailOn, providerOnly }: { user: NonNullable<UsersPage["viewing"]>; mySession: number | null; mailOn: boolean; providerOnly: string | null }) {
  const { t } = useT();
  const formats = useFormats();
  return (
    <section className="card" aria-labelledby="user-view-heading">
      <h2 id="user-view-heading">
        {t("usersPage.details.heading")} <bdi>{user.name}</bdi>
      </h2>
      <dl className="dash-detail">
        <dt>{t("usersPage.name")}</dt>
        <dd>
          <bdi>{user.name}</bdi>
        </dd>
        <dt>{t("usersPage.role")}</dt>
        <dd>{t(roleKeys[user.role])}</dd>
        <dt>{t("usersPage.team")}</dt>
        <dd>{user.team ? <bdi>{user.team}</bdi> : "—"}</dd>
        <dt>{t("usersPage.details.created")}</dt>
        <dd>{formats.dayTime(user.createdAt)}</dd>
        <dt>{t("usersPage.email")}</dt>
        <dd>
          {user.email ? (
            <>
              <bdi dir="ltr">{user.email}</bdi> ({t(user.emailConfirmed ? "usersPage.details.emailConfirmed" : "usersPage.details.emailUnconfirmed")})
            </>
          ) : (
            "—"
          )}
        </dd>
        <dt>{t("usersPage.language")}</dt>
        <dd>{languageNames[user.language]}</dd>
        <dt>{t("usersPage.password")}</dt>
        <dd>{user.hasPassword ? t("usersPage.details.passwordSet") : t("usersPage.details.passwordNotYet")}</dd>
      </dl>
      <UserSessions user={user} mySession={mySession} />
      <UserMail user={user} mailOn={mailOn} providerOnly={providerOnly} />
      <p style={{ marginTop: "1rem" }}>
        <Link to="/dashboard/users">{t("common.close")}</Link>
      </p>
    </section>
  );
}

/** Dashboard → Users: the user viewed (with their sessions), the add or edit form, and the list. */
export function UsersScreen({ users, teams, editing, viewing, me, mySession, mailOn, providerOnly }: UsersPage) {
  const location = useLocation();
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete" ? navigation.formData.get("id") : null;
  const { t } = useT();
  return (
    <section aria-labelledby="users-title" className="stack dash-page">
      <h1 id="users-title">{t("usersPage.title")}</h1>
      {viewing ? <UserDetails user={viewing} mySession={mySession} mailOn={mailOn} providerOnly={providerOnly} /> : null}
      <UserForm key={`${location.key}-${editing?.id ?? "new"}`} editing={editing} teams={teams} mailOn={mailOn} providerOnly={providerOnly} />
      <section className="card" aria-labelledby="user-list-heading">
        <h2 id="user-list-heading">{t("usersPage.list.heading")}</h2>
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("usersPage.name")}</th>
                <th scope="col" data-priority="3">{t("usersPage.email")}</th>
                <th scope="col" data-priority="2">{t("usersPage.role")}</th>
                <th scope="col" data-priority="2">{t("usersPage.team")}</th>
                <th scope="col" data-priority="3">{t("usersPage.list.signedIn")}</th>
                <th scope="col">{t("usersPage.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => {
                const email = user.email ? (
                  <bdi dir="ltr" className="cut" title={user.email}>
                    {user.email}
                  </bdi>
                ) : (
                  "—"
                );
                const team = user.team ? <bdi>{user.team}</bdi> : "—";
                const sessions = user.sessions === 0 ? <span className="muted">{t("usersPage.list.none")}</span> : t("usersPage.list.sessions", { count: user.sessions });
                return (
                <tr key={user.id} data-user-id={user.id}>
                  <td>
                    <bdi>{user.name}</bdi>
                    <Folded
                      lines={[
                        { label: t("usersPage.role"), value: t(roleKeys[user.role]), priority: 2 },
                        { label: t("usersPage.team"), value: team, priority: 2 },
                        { label: t("usersPage.email"), value: email, priority: 3 },
                        { label: t("usersPage.list.signedIn"), value: sessions, priority: 3 },
                      ]}
                    />
                  </td>
                  <td data-priority="3">{email}</td>
                  <td data-priority="2">{t(roleKeys[user.role])}</td>
                  <td data-priority="2">{team}</td>
                  <td data-priority="3">{sessions}</td>
                  <td>
                    <div className="row-actions">
                      <Link to={`?view=${user.id}`} aria-label={t("usersPage.list.viewLabel", { name: user.name })}>
                        {t("usersPage.list.view")}
                      </Link>
                      <Link to={`?edit=${user.id}`} aria-label={t("usersPage.list.editLabel", { name: user.name })}>
                        {t("usersPage.list.edit")}
                      </Link>
                      <Link to={`/dashboard/audit?user=${user.id}`} aria-label={t("usersPage.list.historyLabel", { name: user.name })}>
                        {t("usersPage.list.history")}
                      </Link>
                      {user.id === me ? (
                        <span className="muted">({t("usersPage.list.you")})</span>
                      ) : (
                        <Form method="post" action="/dashboard/users" onSubmit={confirmSubmit(t("usersPage.list.confirmDelete", { name: user.name }))}>
                          <input type="hidden" name="id" value={user.id} />
                          <button type="submit" name="intent" value="delete" className="link-button link-button--danger" aria-label={t("usersPage.list.deleteLabel", { name: user.name })} disabled={deleting === String(user.id)}>
                            {deleting === String(user.id) ? t("usersPage.list.deleting") : t("usersPage.list.delete")}
                          </button>
                        </Form>
                      )}
                    </div>
                  </td>
                </tr>
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      </section>
    </section>
  );
}
