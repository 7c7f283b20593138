import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useFormErrorToast } from "~/components/toaster";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
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
  const lastResult = useActionData<typeof action>();
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
  return (
    <section className="card" aria-labelledby="team-form-heading">
      <h2 id="team-form-heading">{editing ? `Edit team: ${editing.name}` : "Add a team"}</h2>
      <Form method="post" {...getFormProps(form)} className="form">
        {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
        <Field label="Name" inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }} errors={fields.name.errors} />
        {divisions.length || editing?.division ? (
          <SelectField label={dm.label} selectProps={{ ...getSelectProps(fields.division), required: false }} errors={fields.division.errors}>
            <option value="">{dm.none}</option>
            {divisions.map((division) => (
              <option key={division} value={division}>
                {division}
              </option>
            ))}
          </SelectField>
        ) : null}
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{form.errors[0]}</Message> : null}
        </div>
        <div className="dash-form-actions">
          <ActionButton type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Saving..." : editing ? "Save changes" : "Add team"}
          </ActionButton>
          {editing ? (
            <ActionLink to="/dashboard/teams" variant="subtle">
              Cancel
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
  return (
    <section aria-labelledby="teams-title" className="stack dash-page">
      <h1 id="teams-title">Teams</h1>
      {/* Remounted on every navigation: a saved form starts empty again. */}
      <TeamForm key={`${location.key}-${editing?.id ?? "new"}`} editing={editing} divisions={divisions} />
      <section className="card" aria-labelledby="team-list-heading">
        <h2 id="team-list-heading">Team List</h2>
        <p className="muted">
          A team has at most {cap} {cap === 1 ? "member" : "members"} (Settings → Teams).
        </p>
        {teams.length === 0 ? (
          <p>No teams yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Number of Members</th>
                  <th scope="col">{dm.label}</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {teams.map((team) => (
                  <tr key={team.id} data-team-id={team.id}>
                    <td dir="auto">{team.name}</td>
                    <td className="num">
                      {team.members}
                      {team.members >= cap ? <span className="muted"> (full)</span> : null}
                    </td>
                    <td dir="auto">{team.division ?? <span className="muted">—</span>}</td>
                    <td>
                      <div className="row-actions">
                        <Link to={`?edit=${team.id}`} aria-label={`Edit ${team.name}`}>
                          edit
                        </Link>
                        <Link to={`/dashboard/audit?team=${team.id}`} aria-label={`History of ${team.name}`}>
                          history
                        </Link>
                        <Form method="post" action="/dashboard/teams" onSubmit={confirmSubmit(`Delete ${team.name}?`)}>
                          <input type="hidden" name="id" value={team.id} />
                          <button type="submit" name="intent" value="delete" className="link-button link-button--danger" aria-label={`Delete ${team.name}`} disabled={deleting === String(team.id)}>
                            {deleting === String(team.id) ? "deleting..." : "delete"}
                          </button>
                        </Form>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
