import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useFormErrorToast } from "~/components/toaster";
import { useT } from "~/components/i18n";
import { categoryLabel, difficultyLabel } from "~/components/participant/category";
import { useServerMessage } from "~/components/server-message";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { challengeFormValues, cleanupObject, createChallenge, listChallenges, updateChallenge } from "~/modules/challenges/challenges.server";
import { attachmentAccept, categories, ChallengeFormSchema, difficulties } from "~/modules/challenges/schema";
import { useHydrated } from "~/hooks/use-hydrated";
import { FlagAnswersHelp } from "~/components/dashboard/flag-answers-help";
import { ArabicTextFields } from "~/components/dashboard/arabic-fields";
import { parseChallengeForm } from "~/glue/challenge-form.server";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";
import { redirectWithToast } from "~/glue/toast.server";
import { parseRowId } from "~/modules/ids";

const m = messages.dashboard;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const editId = parseRowId(new URL(request.url).searchParams.get("edit"));
  const editing = editId ? await challengeFormValues(editId) : null;
  // What a challenge may require: the others (titles, gates), in the list's order.
  const choices = (await listChallenges()).filter((other) => other.id !== editing?.id).map((other) => ({ id: other.id, title: other.title, wave: other.wave }));
  return { choices, editing };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const { formData, attachment, attachmentError, storageUnavailable } = await parseChallengeForm(request);
  const submission = parseWithZod(formData, { schema: ChallengeFormSchema });
  if (submission.status !== "success" || attachmentError) {
    // The form goes back with its errors: an attachment stored meanwhile is not kept.
    if (attachment) await cleanupObject(attachment.key);
    const fileError = attachmentError ?? (attachment ? m.attachmentReselect : null);
    return data(submission.reply(fileError ? { fieldErrors: { attachment: [fileError] } } : undefined), {
      status: storageUnavailable ? 503 : 400,
    });
  }
  const { id, removeAttachment, attachment: _ignored, ...given } = submission.value;
  // The form holds every hint and prerequisite: empty means none (elsewhere, not given leaves them as they are).
  const values = { ...given, paidHints: given.paidHints ?? "", prerequisites: given.prerequisites ?? [] };
  try {
    if (id) await updateChallenge(actor, id, values, attachment, removeAttachment === "on");
    else await createChallenge(actor, values, attachment);
  } catch (error) {
    if (attachment) await cleanupObject(attachment.key);
    // A refusal about how it is checked (a pattern, a change once answered) goes on its field.
    const failed = dashboardFormFailure(submission, error, { log: "challenge save failed", fieldOf: (refusal) => refusal?.field });
    return data(failed.result, failed.init);
  }
  return id
    ? redirectWithToast("/dashboard/getAllChallenges", { type: "success", title: m.challengeEdited })
    : redirectWithToast("/dashboard/challenges", { type: "success", title: m.challengeAdded });
}

type Editing = ReturnType<typeof useLoaderData<typeof loader>>["editing"];
type Choices = ReturnType<typeof useLoaderData<typeof loader>>["choices"];

function ChallengeForm({ editing, choices }: { editing: Editing; choices: Choices }) {
  const lastResult = useActionReply<typeof action>();
  useFormErrorToast(lastResult);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: editing ? `challenge-edit-${editing.id}` : "challenge-new",
    lastResult,
    defaultValue: editing ? { ...editing, id: String(editing.id) } : undefined,
    constraint: getZodConstraint(ChallengeFormSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChallengeFormSchema }),
  });
  const saving = navigation.state === "submitting";
  const attachmentId = `${form.id}-attachment`;
  const attachmentErrors = fields.attachment?.errors;
  const { t } = useT();
  const serverMessage = useServerMessage();
  // Without JavaScript every field shows; with it, the flag fields only for a flag challenge (hidden, they are
  // disabled too, so a judged challenge sends no answers).
  const hydrated = useHydrated();
  const flagHidden = hydrated && (fields.checking.value ?? "judges") !== "flag";
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="form card">
      {editing ? <input {...getInputProps(fields.id, { type: "hidden" })} key={fields.id.key} /> : null}
      <Field label={t("challengesPage.titleField")} inputProps={{ ...getInputProps(fields.title, { type: "text" }), dir: "auto" }} errors={fields.title.errors} />
      <TextareaField label={t("challengesPage.description")} textareaProps={{ ...getTextareaProps(fields.description), rows: 5, dir: "auto" }} errors={fields.description.errors} />
      <ArabicTextFields title={fields.titleAr} text={fields.descriptionAr} textLabel="dashboardMisc.arabic.descriptionAr" rows={5} />
      <div className="dash-grid">
        <Field label={t("challengesPage.points")} inputProps={{ ...getInputProps(fields.points, { type: "number" }), min: 1, step: 1, inputMode: "numeric" }} errors={fields.points.errors} />
        <SelectField label={t("challengesPage.category")} selectProps={getSelectProps(fields.category)} errors={fields.category.errors}>
          <option value="">{t("challengesPage.chooseCategory")}</option>
          {categories.map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category, t)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("challengesPage.wave")} selectProps={getSelectProps(fields.wave)} errors={fields.wave.errors}>
          <option value="">{t("challengesPage.noWave")}</option>
          {[1, 2, 3, 4, 5].map((wave) => (
            <option key={wave} value={wave}>
              {t("challengesPage.gate", { wave })}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("challengesPage.difficulty")} selectProps={getSelectProps(fields.difficulty)} errors={fields.difficulty.errors}>
          <option value="">{t("challengesPage.notSet")}</option>
          {difficulties.map((difficulty) => (
            <option key={difficulty} value={difficulty}>
              {difficultyLabel(difficulty, t)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="dash-grid">
        <Field
          label={t("challengesPage.releaseAfter")}
          inputProps={{ ...getInputProps(fields.releaseAfterMinutes, { type: "number" }), min: 1, max: 10_080, step: 1, inputMode: "numeric" }}
          errors={fields.releaseAfterMinutes.errors}
        />
        <SelectField
          label={t("challengesPage.prerequisites")}
          selectProps={{ ...getSelectProps(fields.prerequisites), multiple: true, size: Math.min(6, Math.max(2, choices.length)) }}
          errors={fields.prerequisites.errors}
        >
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.wave ? t("challengesPage.prerequisiteOption", { title: choice.title, wave: choice.wave }) : choice.title}
            </option>
          ))}
        </SelectField>
      </div>
      <TextareaField label={t("challengesPage.hints")} textareaProps={{ ...getTextareaProps(fields.hints), rows: 3, dir: "auto" }} errors={fields.hints.errors} />
      <SelectField label={t("challengesPage.checkedBy")} selectProps={getSelectProps(fields.checking)} errors={fields.checking.errors}>
        <option value="judges">{t("challengesPage.checkingJudges")}</option>
        <option value="flag">{t("challengesPage.checkingFlag")}</option>
        <option value="metric">{t("challengesPage.checkingMetric")}</option>
        <option value="tests">{t("challengesPage.checkingTests")}</option>
      </SelectField>
      <fieldset className="flag-fields" hidden={flagHidden} disabled={flagHidden}>
        <legend>{t("challengesPage.flagFields")}</legend>
        <FlagAnswersHelp id={`${form.id}-answers-help`} />
        <TextareaField
          label={t("challengesPage.answers")}
          textareaProps={{ ...getTextareaProps(fields.answers), rows: 4, dir: "ltr", spellCheck: false, autoComplete: "off", "aria-describedby": `${form.id}-answers-help` }}
          errors={fields.answers.errors}
        />
        <div className="dash-grid">
          <Field
            label={t("challengesPage.wrongPerMinute")}
            inputProps={{ ...getInputProps(fields.wrongPerMinute, { type: "number" }), min: 1, max: 1000, step: 1, inputMode: "numeric" }}
            errors={fields.wrongPerMinute.errors}
          />
          <Field
            label={t("challengesPage.maxAttempts")}
            inputProps={{ ...getInputProps(fields.maxAttempts, { type: "number" }), min: 1, max: 1_000_000, step: 1, inputMode: "numeric" }}
            errors={fields.maxAttempts.errors}
          />
        </div>
        <div className="dash-grid">
          <SelectField label={t("challengesPage.scoring")} selectProps={getSelectProps(fields.scoring)} errors={fields.scoring.errors}>
            <option value="static">{t("challengesPage.scoringStatic")}</option>
            <option value="dynamic">{t("challengesPage.scoringDynamic")}</option>
          </SelectField>
          <Field
            label={t("challengesPage.minimumPoints")}
            inputProps={{ ...getInputProps(fields.minimumPoints, { type: "number" }), min: 1, step: 1, inputMode: "numeric" }}
            errors={fields.minimumPoints.errors}
          />
          <Field
            label={t("challengesPage.decay")}
            inputProps={{ ...getInputProps(fields.decay, { type: "number" }), min: 1, step: 1, inputMode: "numeric" }}
            errors={fields.decay.errors}
          />
        </div>
        <p className="muted">{t("challengesPage.scoringHelp")}</p>
      </fieldset>
      <TextareaField
        label={
          <>
            {t("challengesPage.paidHintsIntro")} <code dir="ltr">cost | text</code>
            {t("challengesPage.paidHintsExample")} <code dir="ltr">25 | Look at the logs</code>
          </>
        }
        textareaProps={{ ...getTextareaProps(fields.paidHints), rows: 3, dir: "auto" }}
        errors={fields.paidHints.errors}
      />
      <TextareaField
        label={
          <>
            {t("challengesPage.rubricIntro")} <code dir="ltr">name | weight | maximum</code>
            {t("challengesPage.rubricExample")} <code dir="ltr">Clarity | 2 | 10</code>
            {t("challengesPage.rubricOutro")}
          </>
        }
        textareaProps={{ ...getTextareaProps(fields.rubric), rows: 4, dir: "auto" }}
        errors={fields.rubric.errors}
      />
      {editing?.attachmentName ? (
        <p>
          {t("challengesPage.currentAttachment")}{" "}
          <a href={`/dashboard/challenges/${editing.id}/attachment`}>
            <bdi>{editing.attachmentName}</bdi>
          </a>{" "}
          <label className="checkbox">
            <input type="checkbox" name={fields.removeAttachment.name} value="on" /> {t("challengesPage.removeAttachment")}
          </label>
        </p>
      ) : null}
      {/* Last on purpose: the text fields arrive before the file in the multipart body. */}
      <div className="field">
        <label className="field__label" htmlFor={attachmentId}>
          {editing?.attachmentName ? t("challengesPage.replaceAttachment") : t("challengesPage.attachment")}
        </label>
        <input
          id={attachmentId}
          name="attachment"
          type="file"
          accept={attachmentAccept}
          className={`field__input${attachmentErrors?.length ? " field__input--invalid" : ""}`}
          aria-invalid={attachmentErrors?.length ? true : undefined}
          aria-describedby={attachmentErrors?.length ? `${attachmentId}-error` : undefined}
        />
        <div className="field__errors">
          <ErrorList id={`${attachmentId}-error`} errors={attachmentErrors} />
        </div>
      </div>
      <div className="message-slot" id={form.errorId} aria-live="polite">
        {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
      </div>
      <div className="dash-form-actions">
        <ActionButton type="submit" disabled={saving}>
          {saving ? t("challengesPage.saving") : editing ? t("challengesPage.saveChanges") : t("challengesPage.add")}
        </ActionButton>
        {editing ? (
          <ActionLink to="/dashboard/getAllChallenges" variant="subtle">
            {t("challengesPage.cancel")}
          </ActionLink>
        ) : null}
      </div>
    </Form>
  );
}

export default function AddChallenge() {
  const { editing, choices } = useLoaderData<typeof loader>();
  const location = useLocation();
  const { t } = useT();
  return (
    <section aria-labelledby="challenge-form-title" className="stack dash-page">
      <h1 id="challenge-form-title">
        {editing ? (
          <>
            {t("challengesPage.editHeading")} <bdi>{editing.title}</bdi>
          </>
        ) : (
          t("challengesPage.heading")
        )}
      </h1>
      {editing?.checking === "metric" ? (
        <p>
          <ActionLink to={`/dashboard/predictions/${editing.id}`} variant="subtle">
            {t("predictionsAdmin.open")}
          </ActionLink>
        </p>
      ) : editing?.checking === "tests" ? (
        <p>
          <ActionLink to={`/dashboard/code/${editing.id}`} variant="subtle">
            {t("codeAdmin.open")}
          </ActionLink>
        </p>
      ) : null}
      <ChallengeForm key={`${location.key}-${editing?.id ?? "new"}`} editing={editing} choices={choices} />
    </section>
  );
}
