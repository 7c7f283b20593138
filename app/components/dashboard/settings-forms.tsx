import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Trans } from "react-i18next";
import { Form, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import type { z } from "zod";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { ArabicHelp, ArabicTextFields } from "~/components/dashboard/arabic-fields";
import { Field, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { DIVISION_NAME_MAX, DivisionsFormSchema, MAX_DIVISIONS } from "~/modules/divisions/schema";
import { FEEDBACK_GATE_NUMBERS, FeedbackGatesSchema, JudgingSettingsSchema } from "~/modules/judging/schema";
import { messages } from "~/modules/messages";
import type { SettingsPage } from "~/modules/settings/event-settings.server";
import { FinalSettingsSchema, FlagSettingsSchema, GateSettingsSchema, MealAddSchema, SignInSettingsSchema, SubmissionsCloseSchema, TeamSizeCapSchema } from "~/modules/settings/schema";

type Intent = "gate" | "final" | "submissions-close" | "meal-add" | "judging" | "feedback" | "team-cap" | "divisions" | "flags" | "sign-in";

/** The action's answer for one form (app/glue/intent-forms.server.ts). */
type SettingsFormResult = { intent: string; number?: number; result: SubmissionResult<string[]> };

/** The action's result for this form only (several forms share the page's action). */
function useResultFor(intent: Intent, number?: number) {
  const actionData = useActionReply<SettingsFormResult>();
  if (!actionData || actionData.intent !== intent || (number !== undefined && actionData.number !== number)) return undefined;
  return actionData;
}

function useSchemaForm<Schema extends z.ZodType>(id: string, schema: Schema, lastResult: SubmissionResult<string[]> | undefined, defaultValue?: Record<string, string>) {
  return useForm({
    id,
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

function useSubmittingIntent(intent: string, number?: number) {
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    (number === undefined || navigation.formData.get("number") === String(number))
  );
}

function GateForm({ gate }: { gate: SettingsPage["gates"][number] }) {
  const result = useResultFor("gate", gate.number);
  const [form, fields] = useSchemaForm(`gate-${gate.number}`, GateSettingsSchema, result?.result, {
    title: gate.title,
    description: gate.description,
    titleAr: gate.titleAr,
    descriptionAr: gate.descriptionAr,
    opensAt: gate.opensAt,
  });
  const saving = useSubmittingIntent("gate", gate.number);
  const { t } = useT();
  return (
    <Form method="post" {...getFormProps(form)} className="form card" aria-labelledby={`${form.id}-heading`}>
      <h3 id={`${form.id}-heading`}>{t("settingsPage.gate.heading", { number: gate.number })}</h3>
      <input type="hidden" name="intent" value="gate" />
      <input type="hidden" name="number" value={gate.number} />
      <Field label={t("settingsPage.gate.titleLabel")} inputProps={{ ...getInputProps(fields.title, { type: "text" }), dir: "auto" }} errors={fields.title.errors} />
      <TextareaField label={t("settingsPage.gate.description")} textareaProps={{ ...getTextareaProps(fields.description), rows: 2, dir: "auto" }} errors={fields.description.errors} />
      <ArabicTextFields title={fields.titleAr} text={fields.descriptionAr} textLabel="dashboardMisc.arabic.descriptionAr" rows={2} help={false} />
      <Field label={t("settingsPage.gate.opensAt")} inputProps={getInputProps(fields.opensAt, { type: "datetime-local" })} errors={fields.opensAt.errors} />
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.gate.save", { number: gate.number })}
      </ActionButton>
    </Form>
  );
}

function FinalForm({ finalAt }: { finalAt: string }) {
  const result = useResultFor("final");
  const [form, fields] = useSchemaForm("final", FinalSettingsSchema, result?.result, { finalAt });
  const saving = useSubmittingIntent("final");
  const { t } = useT();
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="final" />
      <Field label={t("settingsPage.final.label")} inputProps={getInputProps(fields.finalAt, { type: "datetime-local" })} errors={fields.finalAt.errors} />
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.final.save")}
      </ActionButton>
    </Form>
  );
}

function SubmissionsCloseForm({ submissionsCloseAt, closesAt, timeZone }: { submissionsCloseAt: string; closesAt: string | null; timeZone: string }) {
  const result = useResultFor("submissions-close");
  const [form, fields] = useSchemaForm("submissions-close", SubmissionsCloseSchema, result?.result, { submissionsCloseAt });
  const saving = useSubmittingIntent("submissions-close");
  const { t } = useT();
  const formats = useFormats();
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="submissions-close" />
      <p className="muted">
        {closesAt
          ? `${submissionsCloseAt ? t("settingsPage.close.until", { time: formats.dayTime(closesAt, timeZone) }) : t("settingsPage.close.untilAfterFinal", { time: formats.dayTime(closesAt, timeZone) })} `
          : null}
        {t("settingsPage.close.help")}
      </p>
      <Field
        label={t("settingsPage.close.label")}
        inputProps={getInputProps(fields.submissionsCloseAt, { type: "datetime-local" })}
        errors={fields.submissionsCloseAt.errors}
      />
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.close.save")}
      </ActionButton>
    </Form>
  );
}

function JudgingForm({ judging }: { judging: SettingsPage["judging"] }) {
  const result = useResultFor("judging");
  const [form, fields] = useSchemaForm("judging", JudgingSettingsSchema, result?.result, {
    judgesPerSubmission: judging.judgesPerSubmission === null ? "every" : String(judging.judgesPerSubmission),
    ...(judging.blind ? { blind: "on" } : {}),
  });
  const saving = useSubmittingIntent("judging");
  const selectId = `${form.id}-judges`;
  const { t } = useT();
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="judging" />
      <div className="field">
        <label className="field__label" htmlFor={selectId}>
          {t("settingsPage.judging.perSubmission")}
        </label>
        <select
          id={selectId}
          name={fields.judgesPerSubmission.name}
          defaultValue={fields.judgesPerSubmission.initialValue as string | undefined}
          className="field__input field__input--select"
          aria-describedby={`${selectId}-help`}
        >
          <option value="every">{t("settingsPage.judging.every")}</option>
          {[1, 2, 3, 4, 5].map((count) => (
            <option key={count} value={count}>
              {t("settingsPage.judging.each", { count })}
            </option>
          ))}
        </select>
        <p id={`${selectId}-help`} className="muted">
          {t("settingsPage.judging.help")}
        </p>
      </div>
      <label className="checkbox">
        <input type="checkbox" name={fields.blind.name} value="on" defaultChecked={fields.blind.initialValue === "on"} /> {t("settingsPage.judging.blind")}
      </label>
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.judging.save")}
      </ActionButton>
    </Form>
  );
}

function FeedbackForm({ gates }: { gates: number[] }) {
  const result = useResultFor("feedback");
  const [form, fields] = useSchemaForm("feedback", FeedbackGatesSchema, result?.result);
  const saving = useSubmittingIntent("feedback");
  const { t } = useT();
  const serverMessage = useServerMessage();
  const errors = [...(form.errors ?? []), ...(fields.gates.errors ?? [])].map(serverMessage);
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="feedback" />
      <p id={`${form.id}-help`} className="muted">
        {t("settingsPage.feedback.help")}
      </p>
      {/* Built from values, this message stays English for now (decision 025): isolated, it reads in order in Arabic too. */}
      <p className="feedback-gates__now">
        <bdi>{messages.judging.feedbackPublished(gates)}</bdi>
      </p>
      <fieldset className="feedback-gates" aria-describedby={`${form.id}-help`}>
        <legend className="field__label">{t("settingsPage.feedback.legend")}</legend>
        {FEEDBACK_GATE_NUMBERS.map((gate) => (
          <label key={gate} className="checkbox">
            <input type="checkbox" name={fields.gates.name} value={gate} defaultChecked={gates.includes(gate)} /> {t("settingsPage.feedback.gate", { gate })}
          </label>
        ))}
      </fieldset>
      {errors.length ? (
        <p className="error-list__item" role="alert">
          {errors.join(" ")}
        </p>
      ) : null}
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.feedback.save")}
      </ActionButton>
    </Form>
  );
}

/** A setting that is one whole number (Settings → Teams' cap, Flag challenges' wrong answers a minute): help, the box, save. */
function NumberSettingForm({
  intent,
  schema,
  name,
  value,
  max,
  words,
}: {
  intent: "team-cap" | "flags";
  schema: typeof TeamSizeCapSchema | typeof FlagSettingsSchema;
  name: "teamSizeCap" | "flagWrongPerMinute";
  value: number;
  max: number;
  words: { help: string; label: string; save: string };
}) {
  const result = useResultFor(intent);
  const [form, fields] = useSchemaForm(intent, schema, result?.result, { [name]: String(value) });
  const field = fields[name as keyof typeof fields] as (typeof fields)[keyof typeof fields];
  const saving = useSubmittingIntent(intent);
  const { t } = useT();
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value={intent} />
      <p id={`${form.id}-help`} className="muted">
        {words.help}
      </p>
      <Field
        label={words.label}
        inputProps={{ ...getInputProps(field, { type: "number" }), min: 1, max, step: 1, "aria-describedby": `${form.id}-help` }}
        errors={field.errors}
      />
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : words.save}
      </ActionButton>
    </Form>
  );
}

function TeamSizeForm({ teamSizeCap }: { teamSizeCap: number }) {
  const { t } = useT();
  const words = { help: t("settingsPage.teamSize.help"), label: t("settingsPage.teamSize.label"), save: t("settingsPage.teamSize.save") };
  return <NumberSettingForm intent="team-cap" schema={TeamSizeCapSchema} name="teamSizeCap" value={teamSizeCap} max={100} words={words} />;
}

/** Settings → Teams: participants form their own teams (docs/domain.md "Teams that form themselves"), and the lock. */
function TeamFormationForm({ formation }: { formation: SettingsPage["teamFormation"] }) {
  const saving = useSubmittingIntent("team-formation");
  const { t } = useT();
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value="team-formation" />
      <p id="team-formation-help" className="muted">
        {t("settingsPage.teamFormation.help")}
      </p>
      <label className="checkbox">
        <input type="checkbox" name="selfFormedTeams" value="on" defaultChecked={formation.selfFormedTeams} aria-describedby="team-formation-help" />{" "}
        {t("settingsPage.teamFormation.selfFormed")}
      </label>
      <label className="checkbox">
        <input type="checkbox" name="teamsLocked" value="on" defaultChecked={formation.teamsLocked} /> {t("settingsPage.teamFormation.locked")}
      </label>
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.teamFormation.save")}
      </ActionButton>
    </Form>
  );
}

/** Settings → Sign-in: passwords off for participants (docs/domain.md "Passwords off for participants"), and what is on now. */
function SignInForm({ signIn }: { signIn: SettingsPage["signIn"] }) {
  const result = useResultFor("sign-in");
  const [form, fields] = useSchemaForm("sign-in", SignInSettingsSchema, result?.result);
  const saving = useSubmittingIntent("sign-in");
  const serverMessage = useServerMessage();
  const { t } = useT();
  const label = signIn.providerLabel;
  const now =
    label === null ? (
      t("settingsPage.signIn.nowNoProvider")
    ) : (
      <Trans i18nKey={signIn.on ? "settingsPage.signIn.nowBoth" : "settingsPage.signIn.nowProviderOnly"} values={{ label }} components={{ name: <bdi /> }} />
    );
  const error = fields.participantPasswordsOff.errors?.[0] ?? form.errors?.[0];
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="sign-in" />
      <p id="sign-in-now">
        <strong>{now}</strong>
      </p>
      <p id="sign-in-help" className="muted">
        {t("settingsPage.signIn.help")}
      </p>
      <label className="checkbox">
        <input type="checkbox" name="participantPasswordsOff" value="on" defaultChecked={!signIn.stored} aria-describedby="sign-in-help" aria-invalid={error ? true : undefined} />{" "}
        {t("settingsPage.signIn.off")}
      </label>
      {error ? <Message tone="error">{serverMessage(error)}</Message> : null}
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.signIn.save")}
      </ActionButton>
    </Form>
  );
}

function FlagSettingsForm({ flagWrongPerMinute }: { flagWrongPerMinute: number }) {
  const { t } = useT();
  const words = { help: t("settingsPage.flags.help"), label: t("settingsPage.flags.label"), save: t("settingsPage.flags.save") };
  return <NumberSettingForm intent="flags" schema={FlagSettingsSchema} name="flagWrongPerMinute" value={flagWrongPerMinute} max={1000} words={words} />;
}

function DivisionsForm({ divisions }: { divisions: string[] }) {
  const result = useResultFor("divisions");
  const [form, fields] = useSchemaForm("divisions", DivisionsFormSchema, result?.result, { divisions: divisions.join("\n") });
  const saving = useSubmittingIntent("divisions");
  const { t } = useT();
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="divisions" />
      <p id={`${form.id}-help`} className="muted">
        {t("settingsPage.divisions.help", { max: MAX_DIVISIONS, length: DIVISION_NAME_MAX })}
      </p>
      <TextareaField
        label={t("settingsPage.divisions.label")}
        textareaProps={{ ...getTextareaProps(fields.divisions), rows: 4, dir: "auto", "aria-describedby": `${form.id}-help` }}
        errors={fields.divisions.errors}
      />
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("settingsPage.saving") : t("settingsPage.divisions.save")}
      </ActionButton>
    </Form>
  );
}

function Meals({ meals, timeZone }: { meals: SettingsPage["meals"]; timeZone: string }) {
  const result = useResultFor("meal-add");
  const [form, fields] = useSchemaForm("meal-add", MealAddSchema, result?.result);
  const saving = useSubmittingIntent("meal-add");
  const { t } = useT();
  const formats = useFormats();
  return (
    <>
      {meals.length === 0 ? (
        <p>{t("settingsPage.meals.none")}</p>
      ) : (
        <ul className="list-reset stack">
          {meals.map((meal) => (
            <li key={meal.id} className="cluster">
              <span dir="auto">{meal.label}</span>
              <time dateTime={meal.at} className="muted">
                {formats.dayTime(meal.at, timeZone)}
              </time>
              <Form method="post">
                <input type="hidden" name="intent" value="meal-remove" />
                <input type="hidden" name="id" value={meal.id} />
                <button type="submit" className="link-button link-button--danger" aria-label={t("settingsPage.meals.removeLabel", { label: meal.label })}>
                  {t("settingsPage.meals.remove")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="meal-add" />
        <div className="meal-row">
          <Field
            label={t("settingsPage.meals.meal")}
            inputProps={{ ...getInputProps(fields.label, { type: "text" }), dir: "auto", placeholder: t("settingsPage.meals.placeholder") }} errors={fields.label.errors} />
          <Field label={t("settingsPage.meals.servedAt")} inputProps={getInputProps(fields.at, { type: "datetime-local" })} errors={fields.at.errors} />
          <ActionButton type="submit" disabled={saving}>
            {saving ? t("settingsPage.meals.adding") : t("settingsPage.meals.add")}
          </ActionButton>
        </div>
      </Form>
    </>
  );
}

/** Dashboard → Settings: the scoreboard freeze, the event's times, judging, teams, gates and meals. */
export function SettingsScreen({ frozen, gates, finalAt, submissionsCloseAt, closesAt, meals, timeZone, judging, feedbackGates, divisions, teamSizeCap, teamFormation, signIn, flagWrongPerMinute }: SettingsPage) {
  const freezing = useSubmittingIntent(frozen ? "unfreeze" : "freeze");
  const { t } = useT();
  return (
    <section aria-labelledby="settings-title" className="stack dash-page">
      <h1 id="settings-title">{t("settingsPage.title")}</h1>
      <p className="muted">
        {t("settingsPage.timeZone")} <bdi>{timeZone}</bdi>.
      </p>
      <section className="card" aria-labelledby="freeze-title">
        <h2 id="freeze-title">{t("settingsPage.freeze.title")}</h2>
        <p>
          {frozen ? t("settingsPage.freeze.frozen") : t("settingsPage.freeze.live")}
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value={frozen ? "unfreeze" : "freeze"} />
          <ActionButton type="submit" variant={frozen ? "primary" : "danger"} disabled={freezing}>
            {frozen ? t("settingsPage.freeze.unfreeze") : t("settingsPage.freeze.freeze")}
          </ActionButton>
        </Form>
      </section>
      <section className="card" aria-labelledby="final-title">
        <h2 id="final-title">{t("settingsPage.final.title")}</h2>
        <FinalForm finalAt={finalAt} />
      </section>
      <section className="card" aria-labelledby="submissions-close-title">
        <h2 id="submissions-close-title">{t("settingsPage.close.title")}</h2>
        <SubmissionsCloseForm submissionsCloseAt={submissionsCloseAt} closesAt={closesAt} timeZone={timeZone} />
      </section>
      <section className="card" aria-labelledby="judging-title">
        <h2 id="judging-title">{t("settingsPage.judging.title")}</h2>
        <JudgingForm judging={judging} />
      </section>
      <section className="card" aria-labelledby="teams-settings-title">
        <h2 id="teams-settings-title">{t("settingsPage.teams.title")}</h2>
        <h3 id="team-size-title">{t("settingsPage.teamSize.title")}</h3>
        <TeamSizeForm teamSizeCap={teamSizeCap} />
        <h3 id="divisions-title" className="settings__subheading">
          {t("settingsPage.divisions.title")}
        </h3>
        <DivisionsForm divisions={divisions} />
        <h3 id="team-formation-title" className="settings__subheading">
          {t("settingsPage.teamFormation.title")}
        </h3>
        <TeamFormationForm formation={teamFormation} />
      </section>
      <section className="card" aria-labelledby="sign-in-settings-title">
        <h2 id="sign-in-settings-title">{t("settingsPage.signIn.title")}</h2>
        <SignInForm signIn={signIn} />
      </section>
      <section className="card" aria-labelledby="flag-settings-title">
        <h2 id="flag-settings-title">{t("settingsPage.flags.title")}</h2>
        <FlagSettingsForm flagWrongPerMinute={flagWrongPerMinute} />
      </section>
      <section className="card" aria-labelledby="feedback-title">
        <h2 id="feedback-title">{t("settingsPage.feedback.title")}</h2>
        <FeedbackForm gates={feedbackGates} />
      </section>
      <section aria-labelledby="gates-title" className="stack">
        <h2 id="gates-title">{t("settingsPage.gates.title")}</h2>
        <ArabicHelp />
        <div className="dash-grid dash-grid--wide">
          {gates.map((gate) => (
            <GateForm key={gate.number} gate={gate} />
          ))}
        </div>
      </section>
      <section className="card" aria-labelledby="meals-title">
        <h2 id="meals-title">{t("settingsPage.meals.title")}</h2>
        <Meals meals={meals} timeZone={timeZone} />
      </section>
    </section>
  );
}
