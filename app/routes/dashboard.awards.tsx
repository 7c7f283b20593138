import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useFormErrorToast } from "~/components/toaster";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { formatDayTime, formatSignedPoints } from "~/components/realtime/format";
import { ActionButton } from "~/components/ui/action-button";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { giveAward, listAwards, revokeAward } from "~/modules/awards/awards.server";
import { AwardFormSchema, AwardRevokeSchema, REASON_MAX_LENGTH } from "~/modules/awards/schema";
import { MAX_AWARD_POINTS } from "~/modules/awards/rules";
import { categories, categoryLabels } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { listTeams } from "~/modules/teams/teams.server";
import styles from "~/styles/dashboard.css";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";

const m = messages.awards;

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the page fails to load. */
export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Awards · Gatekeeper Dashboard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [awards, teams, timeZone] = await Promise.all([listAwards(), listTeams(), getEventTimeZone()]);
  return {
    awards: awards.map((award) => ({ ...award, createdAt: award.createdAt.toISOString(), revokedAt: award.revokedAt?.toISOString() ?? null })),
    teams: teams.map((team) => ({ id: team.id, name: team.name })),
    timeZone,
  };
}

/** Gives an award (the form) or revokes one (a row's button). */
export async function action({ request }: ActionFunctionArgs) {
  const caller = await requirePage(request);
  const formData = await request.formData();
  if (formData.get("intent") === "revoke") {
    const parsed = AwardRevokeSchema.safeParse({ id: formData.get("id") });
    if (!parsed.success) throw badRequest();
    try {
      await revokeAward(actorOf(caller, request), parsed.data.id);
    } catch (error) {
      return dashboardToastFailure("/dashboard/awards", error, "award revoke failed");
    }
    return redirectWithToast("/dashboard/awards", { type: "success", title: m.revoked });
  }

  const submission = parseWithZod(formData, { schema: AwardFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await giveAward(actorOf(caller, request), submission.value);
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "award give failed", fieldOf: (refusal) => refusal?.field });
    return data(failed.result, failed.init);
  }
  return redirectWithToast("/dashboard/awards", { type: "success", title: m.given });
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function AwardForm({ teams }: { teams: LoaderData["teams"] }) {
  const lastResult = useActionData<typeof action>();
  useFormErrorToast(lastResult);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "award-new",
    lastResult,
    constraint: getZodConstraint(AwardFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AwardFormSchema }),
  });
  const giving = navigation.state === "submitting" && navigation.formData?.get("intent") === "give";
  return (
    <section className="card" aria-labelledby="award-form-heading">
      <h2 id="award-form-heading">Give an award</h2>
      <p className="muted">
        Up to 2 decimals, at most {MAX_AWARD_POINTS.toLocaleString("en-US")} either way; a negative number is a penalty. The points count in the
        team&apos;s total, and in the category if you pick one, within a second. The team&apos;s members see the award and its reason on their status
        page.
      </p>
      <Form method="post" {...getFormProps(form)} className="form">
        <div className="dash-grid">
          <SelectField label="Team" selectProps={getSelectProps(fields.teamId)} errors={fields.teamId.errors}>
            <option value="">Choose a team</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
          <Field
            label="Points"
            // Text, not a number input: a browser's number input refuses a typed "-" or drops what it cannot read.
            inputProps={{ ...getInputProps(fields.points, { type: "text" }), inputMode: "decimal", placeholder: "25 or -10.5", autoComplete: "off" }}
            errors={fields.points.errors}
          />
          <SelectField label="Category (optional)" selectProps={{ ...getSelectProps(fields.category), required: false }} errors={fields.category.errors}>
            <option value="">None: the total only</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category === "AI" ? "AI" : `${categoryLabels[category]} (${category})`}
              </option>
            ))}
          </SelectField>
        </div>
        <TextareaField
          label="Reason (shown to the team)"
          textareaProps={{ ...getTextareaProps(fields.reason), rows: 2, maxLength: REASON_MAX_LENGTH }}
          errors={fields.reason.errors}
        />
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{form.errors[0]}</Message> : null}
        </div>
        <ActionButton type="submit" name="intent" value="give" disabled={giving}>
          {giving ? "Giving..." : "Give award"}
        </ActionButton>
      </Form>
    </section>
  );
}

export default function Awards() {
  const { awards, teams, timeZone } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revoking = navigation.state === "submitting" && navigation.formData?.get("intent") === "revoke" ? navigation.formData.get("id") : null;
  return (
    <section aria-labelledby="awards-title" className="stack dash-page">
      <h1 id="awards-title">Awards</h1>
      {/* Remounted on every navigation: a given award leaves the form empty again. */}
      <AwardForm key={location.key} teams={teams} />
      <section className="card" aria-labelledby="award-list-heading">
        <h2 id="award-list-heading">Awards given</h2>
        {awards.length === 0 ? (
          <p>No awards yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="table award-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Team</th>
                  <th scope="col" className="num">
                    Points
                  </th>
                  <th scope="col">Category</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Given by</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {awards.map((award) => {
                  const points = formatSignedPoints(award.points);
                  return (
                    <tr key={award.id} data-award-id={award.id} className={award.revokedAt ? "award-row--revoked" : undefined}>
                      <td className="nowrap" data-label="When">
                        <time dateTime={award.createdAt}>{formatDayTime(award.createdAt, timeZone)}</time>
                      </td>
                      <td dir="auto" data-label="Team">
                        {award.teamName}
                      </td>
                      <td className="num nowrap" data-label="Points">
                        <span className={award.points > 0 ? "award-points--plus" : "award-points--minus"}>{points}</span>
                      </td>
                      <td data-label="Category">{award.category ?? <span className="muted">total only</span>}</td>
                      <td dir="auto" className="award-reason" data-label="Reason">
                        {award.reason}
                      </td>
                      <td dir="auto" data-label="Given by">
                        {award.givenBy ?? <span className="muted">deleted user</span>}
                      </td>
                      <td className="award-status" data-label="Status">
                        {award.revokedAt ? (
                          <span className="muted">
                            revoked <time dateTime={award.revokedAt}>{formatDayTime(award.revokedAt, timeZone)}</time>
                            {award.revokedBy ? ` by ${award.revokedBy}` : null}
                          </span>
                        ) : (
                          <div className="row-actions">
                            <span className="award-status--active">active</span>
                            <Form method="post" onSubmit={confirmSubmit(`Revoke the award of ${points} to ${award.teamName}? The points leave its total.`)}>
                              <input type="hidden" name="id" value={award.id} />
                              <button
                                type="submit"
                                name="intent"
                                value="revoke"
                                className="link-button link-button--danger"
                                aria-label={`Revoke ${points} to ${award.teamName}`}
                                disabled={revoking === String(award.id)}
                              >
                                {revoking === String(award.id) ? "Revoking..." : "Revoke"}
                              </button>
                            </Form>
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
