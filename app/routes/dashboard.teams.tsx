import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useFormErrorToast } from "~/components/toaster";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { messages } from "~/modules/messages";
import { TeamDeleteSchema, TeamFormSchema } from "~/modules/teams/schema";
import { readDivisions } from "~/modules/divisions/divisions.server";
import { readTeamSizeCap } from "~/modules/teams/team-size.server";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "~/modules/teams/teams.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { parseRowId } from "~/modules/ids";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

const m = messages.dashboard;
const dm = messages.divisions;

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the list fails to load. */
export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const editId = parseRowId(new URL(request.url).searchParams.get("edit"));
  const [teams, editing, divisions, cap] = await Promise.all([listTeams(), editId ? getTeam(editId) : null, readDivisions(), readTeamSizeCap()]);
  return { teams, editing, divisions, cap };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") {
    const parsed = TeamDeleteSchema.safeParse({ id: formData.get("id") });
    if (!parsed.success) throw badRequest();
    try {
      await deleteTeam(actor, parsed.data.id);
    } catch (error) {
      return dashboardToastFailure("/dashboard/teams", error, "team delete failed");
    }
    return redirectWithToast("/dashboard/teams", { type: "success", title: m.teamDeleted });
  }

  const submission = parseWithZod(formData, { schema: TeamFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { id, name } = submission.value;
  // The select sends "" for "No division"; a form without it (the event has no divisions) keeps the team's.
  const division = formData.has("division") ? (submission.value.division ?? null) : undefined;
  try {
    if (id) await updateTeam(actor, id, { name, division });
    else await createTeam(actor, name, division ?? null);
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "team change failed", fieldOf: (refusal) => (refusal?.field === "division" ? "division" : undefined) });
    return data(failed.result, failed.init);
  }
  return redirectWithToast("/dashboard/teams", { type: "success", title: id ? m.teamEdited : m.teamAdded });
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function TeamForm({ editing, divisions }: { editing: LoaderData["editing"]; divisions: LoaderData["divisions"] }) {
  const lastResult = useActionReply<typeof action>();
  useFormErrorToast(lastResult);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: editing ? `team-edit-${editing.id}` : "team-new",
    lastResult,
    defaultValue: editing ? { id: String(editing.id), name: editing.name, division: editing.division ?? "" } : undefined,
    constraint: getZodConstraint(TeamFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TeamFormSchema }),
  });
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <section className="card" aria-labelledby="team-form-heading">
      <h2 id="team-form-heading">
        {editing ? (
          <>
            {t("teamsPage.editHeading")} <bdi>{editing.name}</bdi>
          </>
        ) : (
          t("teamsPage.addHeading")
        )}
      </h2>
      <Form method="post" {...getFormProps(form)} className="form">
        {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
        <Field label={t("teamsPage.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off", dir: "auto" }} errors={fields.name.errors} />
        {divisions.length || editing?.division ? (
          <SelectField label={serverMessage(dm.label)} selectProps={{ ...getSelectProps(fields.division), required: false }} errors={fields.division.errors}>
            <option value="">{serverMessage(dm.none)}</option>
            {divisions.map((division) => (
              <option key={division} value={division}>
                {division}
              </option>
            ))}
          </SelectField>
        ) : null}
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
        </div>
        <div className="dash-form-actions">
          <ActionButton type="submit" name="intent" value="save" disabled={saving}>
            {saving ? t("teamsPage.saving") : editing ? t("teamsPage.saveChanges") : t("teamsPage.add")}
          </ActionButton>
          {editing ? (
            <ActionLink to="/dashboard/teams" variant="subtle">
              {t("teamsPage.cancel")}
            </ActionLink>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

export default function Teams() {
  const { teams, editing, divisions, cap } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete" ? navigation.formData.get("id") : null;
  const { t } = useT();
  const serverMessage = useServerMessage();
  const members = (count: number) => (
    <>
      {count}
      {count >= cap ? <span className="muted"> {t("teamsPage.full")}</span> : null}
    </>
  );
  return (
    <section aria-labelledby="teams-title" className="stack dash-page">
      <h1 id="teams-title">{t("teamsPage.heading")}</h1>
      {/* Remounted on every navigation: a saved form starts empty again. */}
      <TeamForm key={`${location.key}-${editing?.id ?? "new"}`} editing={editing} divisions={divisions} />
      <section className="card" aria-labelledby="team-list-heading">
        <h2 id="team-list-heading">{t("teamsPage.listHeading")}</h2>
        <p className="muted">{t("teamsPage.cap", { count: cap })}</p>
        {teams.length === 0 ? (
          <p>{t("teamsPage.none")}</p>
        ) : (
          <SideScroll>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("teamsPage.name")}</th>
                  <th scope="col" data-priority="2">{t("teamsPage.members")}</th>
                  <th scope="col" data-priority="3">{serverMessage(dm.label)}</th>
                  <th scope="col">{t("teamsPage.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {teams.map((team) => (
                  <tr key={team.id} data-team-id={team.id}>
                    <td>
                      <bdi>{team.name}</bdi>
                      <Folded
                        lines={[
                          { label: t("teamsPage.members"), value: members(team.members), priority: 2 },
                          { label: serverMessage(dm.label), value: team.division ? <bdi>{team.division}</bdi> : "—", priority: 3 },
                        ]}
                      />
                    </td>
                    <td className="num" data-priority="2">
                      {members(team.members)}
                    </td>
                    <td data-priority="3">{team.division ? <bdi>{team.division}</bdi> : <span className="muted">—</span>}</td>
                    <td>
                      <div className="row-actions">
                        <Link to={`?edit=${team.id}`} aria-label={t("teamsPage.editLabel", { name: team.name })}>
                          {t("teamsPage.edit")}
                        </Link>
                        <Link to={`/dashboard/audit?team=${team.id}`} aria-label={t("teamsPage.historyLabel", { name: team.name })}>
                          {t("teamsPage.history")}
                        </Link>
                        <Form method="post" action="/dashboard/teams" onSubmit={confirmSubmit(t("teamsPage.deleteConfirm", { name: team.name }))}>
                          <input type="hidden" name="id" value={team.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="delete"
                            className="link-button link-button--danger"
                            aria-label={t("teamsPage.deleteLabel", { name: team.name })}
                            disabled={deleting === String(team.id)}
                          >
                            {deleting === String(team.id) ? t("teamsPage.deleting") : t("teamsPage.delete")}
                          </button>
                        </Form>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </SideScroll>
        )}
      </section>
    </section>
  );
}
