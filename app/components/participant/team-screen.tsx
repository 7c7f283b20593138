import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { FormMessage, useAccountForm } from "~/components/account/account-card";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { ActionButton } from "~/components/ui/action-button";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { Field } from "~/components/ui/field";
import { TitleBar } from "~/components/ui/title-bar";
import { JoinTeamSchema, OwnTeamCreateSchema } from "~/modules/teams/schema";
import type { TeamPage } from "~/modules/teams/self-formed.server";

export type TeamActionData = { intent: string; result?: SubmissionResult<string[]>; invite?: { code: string; expiresAt: string } };

type Page = TeamPage & { code: string; joinLink: string };

function CreateForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useT();
  const [form, fields] = useAccountForm("team-create", OwnTeamCreateSchema, lastResult);
  return (
    <section className="card team-page__section" aria-labelledby="team-create-title">
      <h2 id="team-create-title">{t("teamPage.createTitle")}</h2>
      <p className="muted">{t("teamPage.createHint")}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="create" />
        <Field label={t("teamPage.teamName")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", maxLength: 100 }} errors={fields.name.errors} />
        <FormMessage id={form.errorId} error={form.errors?.[0]} />
        <ActionButton type="submit">{t("teamPage.create")}</ActionButton>
      </Form>
    </section>
  );
}

function JoinForm({ code, lastResult }: { code: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useT();
  const [form, fields] = useAccountForm("team-join", JoinTeamSchema, lastResult);
  return (
    <section className="card team-page__section" aria-labelledby="team-join-title">
      <h2 id="team-join-title">{t("teamPage.joinTitle")}</h2>
      <p className="muted">{t("teamPage.joinHint")}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="join" />
        <Field
          label={t("teamPage.code")}
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), defaultValue: (fields.code.initialValue as string | undefined) ?? code, autoComplete: "off", spellCheck: false, dir: "ltr", maxLength: 64 }}
          errors={fields.code.errors}
        />
        <FormMessage id={form.errorId} error={form.errors?.[0]} />
        <ActionButton type="submit">{t("teamPage.join")}</ActionButton>
      </Form>
    </section>
  );
}

function Invites({ page, invite }: { page: Page; invite: TeamActionData["invite"] }) {
  const { t } = useT();
  const format = useFormats();
  const team = page.team!;
  return (
    <section className="card team-page__section" aria-labelledby="team-invites-title">
      <h2 id="team-invites-title">{t("teamPage.invitesTitle")}</h2>
      <p className="muted">{t("teamPage.invitesHint", { count: page.cap })}</p>
      {invite ? (
        <div className="team-page__new-invite" role="status">
          <p>{t("teamPage.newInvite")}</p>
          <p>
            {t("teamPage.code")}: <code dir="ltr" className="team-page__code" data-testid="invite-code">{invite.code}</code>
          </p>
          <p>
            {t("teamPage.link")}:{" "}
            <code dir="ltr" className="team-page__link" data-testid="invite-link">
              {page.joinLink + encodeURIComponent(invite.code)}
            </code>
          </p>
          <p className="muted">
            {t("teamPage.expires")} <time dateTime={invite.expiresAt}>{format.dayTime(invite.expiresAt, page.timeZone)}</time>
          </p>
        </div>
      ) : null}
      {team.invites.length ? (
        <ul className="team-page__list" aria-label={t("teamPage.liveInvites")}>
          {team.invites.map((item) => (
            <li key={item.id} className="team-page__row">
              <span>
                {t("teamPage.inviteOf", { date: format.dayTime(item.createdAt, page.timeZone) })} · {t("teamPage.expires")}{" "}
                <time dateTime={item.expiresAt}>{format.dayTime(item.expiresAt, page.timeZone)}</time> · {t("teamPage.joins", { count: item.joins })}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="inviteId" value={item.id} />
                <ActionButton type="submit" variant="subtle">
                  {t("teamPage.revoke")}
                </ActionButton>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="invite" />
        <ActionButton type="submit">{t("teamPage.newInviteButton")}</ActionButton>
      </Form>
    </section>
  );
}

function Members({ page }: { page: Page }) {
  const { t } = useT();
  const team = page.team!;
  const selfService = page.formation.selfFormedTeams && !page.formation.teamsLocked && page.participant;
  return (
    <section className="card team-page__section" aria-labelledby="team-members-title">
      <h2 id="team-members-title">{t("teamPage.membersTitle", { count: team.members.length, cap: page.cap })}</h2>
      <ul className="team-page__list" aria-label={t("teamPage.members")}>
        {team.members.map((member) => (
          <li key={member.id} className="team-page__row">
            <span>
              <bdi dir="auto">{member.name}</bdi>
              {member.captain ? <span className="team-page__tag"> · {t("teamPage.captain")}</span> : null}
              {member.you ? <span className="team-page__tag"> · {t("teamPage.you")}</span> : null}
            </span>
            {selfService && team.captain && !member.you ? (
              <Form method="post" onSubmit={confirmSubmit(t("teamPage.removeConfirm", { name: member.name }))}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="userId" value={member.id} />
                <ActionButton type="submit" variant="danger" aria-label={t("teamPage.removeNamed", { name: member.name })}>
                  {t("teamPage.remove")}
                </ActionButton>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      {selfService ? (
        <Form method="post" onSubmit={confirmSubmit(t("teamPage.leaveConfirm"))}>
          <input type="hidden" name="intent" value="leave" />
          <ActionButton type="submit" variant="danger">
            {t("teamPage.leave")}
          </ActionButton>
        </Form>
      ) : null}
    </section>
  );
}

/** /team: one's team, and, when teams form themselves, the forms that make, join and leave one. */
export function TeamScreen({ page, actionData }: { page: Page; actionData: TeamActionData | undefined }) {
  const { t } = useT();
  const navigation = useNavigation();
  const { formation, team } = page;
  const open = formation.selfFormedTeams && !formation.teamsLocked && page.participant;
  const result = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <main className="page participant-page team-page" aria-labelledby="team-title" aria-busy={navigation.state === "submitting"}>
      <TitleBar title={team ? team.name : t("teamPage.title")} id="team-title" />
      {!page.participant ? <p className="card team-page__note">{t("teamPage.notParticipant")}</p> : null}
      {page.participant && !formation.selfFormedTeams ? <p className="card team-page__note">{t("teamPage.byOrganisers")}</p> : null}
      {page.participant && formation.selfFormedTeams && formation.teamsLocked ? <p className="card team-page__note">{t("teamPage.locked")}</p> : null}
      {team ? <Members page={page} /> : page.participant ? <p className="card team-page__note">{t("teamPage.noTeam")}</p> : null}
      {team && team.captain && open ? <Invites page={page} invite={actionData?.invite} /> : null}
      {!team && open ? (
        <div className="team-page__choices">
          <JoinForm code={page.code} lastResult={result("join")} />
          <CreateForm lastResult={result("create")} />
        </div>
      ) : null}
    </main>
  );
}
