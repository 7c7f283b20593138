import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useFormErrorToast } from "~/components/toaster";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { categoryLabel } from "~/components/participant/category";
import { useServerMessage } from "~/components/server-message";
import { pageTitle } from "~/modules/i18n/i18n";
import { ActionButton } from "~/components/ui/action-button";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { Field, SelectField, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { giveAward, listAwards, revokeAward } from "~/modules/awards/awards.server";
import { AwardFormSchema, AwardRevokeSchema, REASON_MAX_LENGTH } from "~/modules/awards/schema";
import { MAX_AWARD_POINTS } from "~/modules/awards/rules";
import { categories } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { listTeams } from "~/modules/teams/teams.server";
import styles from "~/styles/dashboard.css";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { SideScroll } from "~/components/ui/side-scroll";

const m = messages.awards;

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the page fails to load. */
export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "awardsPage.title") }];

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
  const lastResult = useActionReply<typeof action>();
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
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  return (
    <section className="card" aria-labelledby="award-form-heading">
      <h2 id="award-form-heading">{t("awardsPage.giveHeading")}</h2>
      <p className="muted">{t("awardsPage.giveHint", { max: format.number(MAX_AWARD_POINTS) })}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <div className="dash-grid">
          <SelectField label={t("awardsPage.team")} selectProps={getSelectProps(fields.teamId)} errors={fields.teamId.errors}>
            <option value="">{t("awardsPage.chooseTeam")}</option>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
          <Field
            label={t("awardsPage.points")}
            // Text, not a number input: a browser's number input refuses a typed "-" or drops what it cannot read.
            // Left to right in Arabic too, as numbers are written; the Arabic placeholder is digits only ("25 / -10.5"), as
            // an Arabic word before "-10.5" would carry the number to its side (the sign behind it).
            inputProps={{
              ...getInputProps(fields.points, { type: "text" }),
              inputMode: "decimal",
              placeholder: t("awardsPage.pointsPlaceholder"),
              autoComplete: "off",
              dir: "ltr",
            }}
            errors={fields.points.errors}
          />
          <SelectField label={t("awardsPage.categoryOptional")} selectProps={{ ...getSelectProps(fields.category), required: false }} errors={fields.category.errors}>
            <option value="">{t("awardsPage.noCategory")}</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category === "AI" ? "AI" : `${categoryLabel(category, t)} (${category})`}
              </option>
            ))}
          </SelectField>
        </div>
        <TextareaField
          label={t("awardsPage.reason")}
          textareaProps={{ ...getTextareaProps(fields.reason), rows: 2, maxLength: REASON_MAX_LENGTH, dir: "auto" }}
          errors={fields.reason.errors}
        />
        <div className="message-slot" id={form.errorId} aria-live="polite">
          {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
        </div>
        <ActionButton type="submit" name="intent" value="give" disabled={giving}>
          {giving ? t("awardsPage.giving") : t("awardsPage.give")}
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
  const { t } = useT();
  const format = useFormats();
  return (
    <section aria-labelledby="awards-title" className="stack dash-page">
      <h1 id="awards-title">{t("awardsPage.heading")}</h1>
      {/* Remounted on every navigation: a given award leaves the form empty again. */}
      <AwardForm key={location.key} teams={teams} />
      <section className="card" aria-labelledby="award-list-heading">
        <h2 id="award-list-heading">{t("awardsPage.listHeading")}</h2>
        {awards.length === 0 ? (
          <p>{t("awardsPage.none")}</p>
        ) : (
          <SideScroll>
            <table className="table award-table">
              <thead>
                <tr>
                  <th scope="col">{t("awardsPage.when")}</th>
                  <th scope="col">{t("awardsPage.team")}</th>
                  <th scope="col" className="num">
                    {t("awardsPage.points")}
                  </th>
                  <th scope="col">{t("awardsPage.category")}</th>
                  <th scope="col">{t("awardsPage.reasonColumn")}</th>
                  <th scope="col">{t("awardsPage.givenBy")}</th>
                  <th scope="col">{t("awardsPage.status")}</th>
                </tr>
              </thead>
              <tbody>
                {awards.map((award) => {
                  const points = format.signedPoints(award.points);
                  return (
                    <tr key={award.id} data-award-id={award.id} className={award.revokedAt ? "award-row--revoked" : undefined}>
                      <td className="nowrap" data-label={t("awardsPage.when")}>
                        <time dateTime={award.createdAt}>{format.dayTime(award.createdAt, timeZone)}</time>
                      </td>
                      <td data-label={t("awardsPage.team")}>
                        <bdi>{award.teamName}</bdi>
                      </td>
                      <td className="num nowrap" data-label={t("awardsPage.points")}>
                        <span className={award.points > 0 ? "award-points--plus" : "award-points--minus"} dir="ltr">
                          {points}
                        </span>
                      </td>
                      <td data-label={t("awardsPage.category")}>{award.category ?? <span className="muted">{t("awardsPage.totalOnly")}</span>}</td>
                      <td dir="auto" className="award-reason" data-label={t("awardsPage.reasonColumn")}>
                        {award.reason}
                      </td>
                      <td data-label={t("awardsPage.givenBy")}>
                        {award.givenBy ? <bdi>{award.givenBy}</bdi> : <span className="muted">{t("awardsPage.deletedUser")}</span>}
                      </td>
                      <td className="award-status" data-label={t("awardsPage.status")}>
                        {award.revokedAt ? (
                          <span className="muted">
                            {t("awardsPage.revoked")} <time dateTime={award.revokedAt}>{format.dayTime(award.revokedAt, timeZone)}</time>
                            {award.revokedBy ? (
                              <>
                                {" "}
                                {t("awardsPage.revokedBy")} <bdi>{award.revokedBy}</bdi>
                              </>
                            ) : null}
                          </span>
                        ) : (
                          <div className="row-actions">
                            <span className="award-status--active">{t("awardsPage.active")}</span>
                            <Form method="post" onSubmit={confirmSubmit(t("awardsPage.revokeConfirm", { points, team: award.teamName }))}>
                              <input type="hidden" name="id" value={award.id} />
                              <button
                                type="submit"
                                name="intent"
                                value="revoke"
                                className="link-button link-button--danger"
                                aria-label={t("awardsPage.revokeLabel", { points, team: award.teamName })}
                                disabled={revoking === String(award.id)}
                              >
                                {revoking === String(award.id) ? t("awardsPage.revoking") : t("awardsPage.revoke")}
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
          </SideScroll>
        )}
      </section>
    </section>
  );
}
