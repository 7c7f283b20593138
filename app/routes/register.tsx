import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import type { FormEvent } from "react";
import { Statue } from "~/components/art/statue";
import { TopNav } from "~/components/layout/top-nav";
import { RouteErrorPage } from "~/components/status-page";
import { ActionButton, ActionLink } from "~/components/ui/action-button";
import { Field, SelectField, type ListOfErrors } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { Scene } from "~/components/ui/scene";
import { TitleBar } from "~/components/ui/title-bar";
import { messages } from "~/modules/messages";
import { register } from "~/modules/registrations/registrations.server";
import { DEFAULT_TEAM_SIZE_CAP, teamSizeCapToShow } from "~/modules/teams/team-size.server";
import { useOptionalUser } from "~/root";
import { DIGITS_INPUT_PATTERN, hasNonDigits, HONEYPOT_FIELD, isMissing, RegistrationSchema, TSHIRT_SIZES } from "~/modules/registrations/schema";
import styles from "~/styles/register.css";
import { clientIp } from "~/glue/request.server";
import { languageOf } from "~/glue/language.server";
import { formFailure } from "~/glue/failures.server";

const m = messages.registration;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { pageTitle } from "~/modules/i18n/i18n";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.register") }];

// Public route: visitors register for the event. `?registered` shows the thank-you card.
export async function loader({ request }: LoaderFunctionArgs) {
  const done = new URL(request.url).searchParams.has("registered");
  // The team size cap, for the team name's label. Registering makes no team or member (accounts made from
  // registrations do, under the cap): the form still opens when the settings cannot be read.
  const teamSizeCap = done ? DEFAULT_TEAM_SIZE_CAP : await teamSizeCapToShow();
  return { done, teamSizeCap };
}

// Public route: the registration form posts here; rate-limited per IP and guarded by a honeypot.
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: RegistrationSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    // The page's language is the account's, should one be made from this registration (its mail is in it).
    const outcome = await register(submission.value, clientIp(request), languageOf(request));
    if (outcome.kind === "rate-limited") {
      return data(submission.reply({ formErrors: [m.rateLimited(outcome.retryAfterSeconds)] }), {
        status: 429,
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
    }
  } catch (error) {
    // The database down: 503, the form keeps what was typed. (An address registered before is thanked alike.)
    const failed = formFailure(submission, error, { log: "registration failed", fallback: m.failed, fieldOf: (refusal) => refusal?.field });
    return data(failed.result, failed.init);
  }
  // Post/redirect/get: reloading the thank-you card does not post the form again.
  return redirect("/register?registered");
}

/** An empty required field is marked (red, shake) without a caption; other errors are captioned. */
function errorsOf(field: FieldMetadata<string | undefined>): ListOfErrors {
  return isMissing(field.errors) ? [""] : field.errors;
}

export default function RegisterPage() {
  const { done, teamSizeCap } = useLoaderData<typeof loader>();
  const saving = useSaving();
  const user = useOptionalUser();
  const { t } = useT();
  return (
    <Scene statue="none" className="register-scene">
      <TopNav user={user} />
      <main className="register" aria-labelledby="register-title">
        <Link to="/" className="back-arrow" aria-label={t("login.backToIntro")}>
          <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </Link>
        <div className="register__character" aria-hidden="true">
          <Statue className="register__statue" />
        </div>
        {done ? <ThankYou /> : <RegistrationForm teamSizeCap={teamSizeCap} />}
      </main>
      {/* A full-screen indicator while saving (with JavaScript; without it the browser shows its own). */}
      {saving ? (
        <div className="register-saving" role="status">
          <span className="register-saving__spinner" aria-hidden="true" />
          <span>{t("register.saving")}</span>
        </div>
      ) : null}
    </Scene>
  );
}

function ThankYou() {
  const { t } = useT();
  return (
    <section className="card register__card register__card--thanks">
      <TitleBar title={t("register.thankYouTitle")} id="register-title" />
      <Message tone="correct">{t("register.thankYou")}</Message>
      <ActionLink to="/" variant="subtle" className="register__home">
        {t("login.backToIntro")}
      </ActionLink>
    </section>
  );
}

const REQUIRED = ["name", "lastName", "email", "phone", "hasTeam", "nationalId", "skill", "tshirtSize"] as const;

/** True from the post until the thank-you card (or the errors) arrive. */
function useSaving() {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formAction === "/register";
}

function RegistrationForm({ teamSizeCap }: { teamSizeCap: number }) {
  const lastResult = useActionReply<typeof action>();
  const [form, fields] = useForm({
    id: "register",
    lastResult,
    constraint: getZodConstraint(RegistrationSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegistrationSchema }),
  });
  const saving = useSaving();
  const { t } = useT();
  const serverMessage = useServerMessage();
  const anyMissing = REQUIRED.some((name) => isMissing(fields[name].errors));
  const message = anyMissing ? m.required : form.errors?.[0];

  const text = (field: FieldMetadata<string | undefined>, extra: Record<string, unknown> = {}) => ({
    ...getInputProps(field, { type: "text" }),
    ...extra,
  });
  // Numbers only (spaces and dashes between them are dropped): without JavaScript the browser holds the
  // form back (pattern, with the message as its title); with it, a letter is refused as it is typed.
  const digits = (field: FieldMetadata<string | undefined>, type: "tel" | "text", autoComplete: string) => ({
    ...getInputProps(field, { type }),
    inputMode: "numeric" as const,
    pattern: DIGITS_INPUT_PATTERN,
    title: serverMessage(m.digitsOnly),
    autoComplete,
    onInput: (event: FormEvent<HTMLInputElement>) => {
      if (hasNonDigits(event.currentTarget.value)) form.validate({ name: field.name });
    },
  });

  return (
    <section className="card register__card">
      <TitleBar title={t("register.title")} id="register-title" />
      <p className="register__intro">{t("register.intro")}</p>
      <Form method="post" action="/register" {...getFormProps(form)} className="form register__form">
        <div className="register__grid">
          <Field label={t("register.name")} inputProps={text(fields.name, { autoComplete: "given-name" })} errors={errorsOf(fields.name)} />
          <Field
            label={t("register.lastName")}
            inputProps={text(fields.lastName, { autoComplete: "family-name" })}
            errors={errorsOf(fields.lastName)}
          />
          <Field
            label={t("register.email")}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email" }}
            errors={errorsOf(fields.email)}
          />
          <Field
            label={t("register.phone")}
            inputProps={digits(fields.phone, "tel", "tel")}
            errors={errorsOf(fields.phone)}
          />
          <SelectField label={t("register.hasTeam")} selectProps={getSelectProps(fields.hasTeam)} errors={errorsOf(fields.hasTeam)}>
            <option value="">{t("register.choose")}</option>
            <option value="yes">{t("common.yes")}</option>
            <option value="no">{t("common.no")}</option>
          </SelectField>
          <Field
            label={t("register.teamName", { cap: teamSizeCap })}
            inputProps={text(fields.teamName, { autoComplete: "off" })}
            errors={errorsOf(fields.teamName)}
          />
          <Field
            label={t("register.nationalId")}
            inputProps={digits(fields.nationalId, "text", "off")}
            errors={errorsOf(fields.nationalId)}
          />
          <Field label={t("register.skill")} inputProps={text(fields.skill)} errors={errorsOf(fields.skill)} />
          <Field
            label={t("register.linkedin")}
            inputProps={{ ...getInputProps(fields.linkedin, { type: "url" }), autoComplete: "url" }}
            errors={errorsOf(fields.linkedin)}
          />
          <Field
            label={t("register.portfolio")}
            inputProps={getInputProps(fields.portfolio, { type: "url" })}
            errors={errorsOf(fields.portfolio)}
          />
          <Field label={t("register.major")} inputProps={text(fields.major)} errors={errorsOf(fields.major)} />
          <Field
            label={t("register.university")}
            inputProps={text(fields.university, { autoComplete: "organization" })}
            errors={errorsOf(fields.university)}
          />
          <SelectField label={t("register.tshirt")} selectProps={getSelectProps(fields.tshirtSize)} errors={errorsOf(fields.tshirtSize)}>
            <option value="">{t("register.choose")}</option>
            {TSHIRT_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </SelectField>
        </div>
        {/* The honeypot: hidden from people (and assistive technology); naive bots fill it in. */}
        <div className="register__trap" aria-hidden="true">
          <label htmlFor={`register-${HONEYPOT_FIELD}`}>{t("register.trap")}</label>
          <input id={`register-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="message-slot" aria-live="polite">
          {message ? (
            <Message tone="error" id={form.errorId}>
              {serverMessage(message)}
            </Message>
          ) : null}
        </div>
        <ActionButton type="submit" disabled={saving} className="register__submit">
          {t("register.submit")}
        </ActionButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
