import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useState } from "react";
import { Trans } from "react-i18next";
import { AccountCard, FormMessage } from "~/components/account/account-card";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { ActionButton } from "~/components/ui/action-button";
import { Field } from "~/components/ui/field";
import { afterLoginLanding, afterLoginPath } from "~/modules/auth/access";
import { LoginSchema } from "~/modules/auth/login-schema";
import { messages } from "~/modules/messages";
import {
  authenticator,
  createUserSession,
  getOptionalUser,
  InvalidCredentialsError,
  LoginThrottledError,
} from "~/glue/auth.server";
import { getLogger } from "~/infrastructure/logger.server";
import { isServiceUnreachable } from "~/glue/unavailable.server";
import { mailIsOn } from "~/modules/mail/mails.server";
import { readParticipantPasswords } from "~/modules/auth/password-sign-in.server";
import { DomainError } from "~/modules/errors";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.login") }];

// Public route: the sign-in page. A signed-in user is sent on to where they were going.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(afterLoginPath(user.role, new URL(request.url).searchParams.get("redirectTo")));
  // "Forgot your password?" only where mail is sent (docs/domain.md "Mail"); "Sign in with …" only where the
  // event has an identity provider (docs/domain.md "Sign-in with the organisers' identity provider"); with
  // passwords off for participants, the provider's button comes first and the password form is for staff.
  const passwords = await readParticipantPasswords();
  return { mailOn: mailIsOn(), providerLabel: passwords.providerLabel, participantPasswords: passwords.on };
}

// Public route: the login action (the form strategy checks the throttle and the password).
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.clone().formData(), { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  try {
    const user = await authenticator.authenticate("form", request);
    return createUserSession(user, afterLoginLanding(user.role, submission.value.redirectTo), request);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: 401 });
    }
    // Passwords off for participants: the password was right, the sentence says how to sign in instead.
    if (error instanceof DomainError) {
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: error.status });
    }
    if (error instanceof LoginThrottledError) {
      return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), {
        status: 429,
        headers: { "Retry-After": String(error.retryAfterSeconds) },
      });
    }
    // Postgres unreachable: the page answers 503 "briefly unavailable" (app/glue/unavailable.server.ts).
    if (isServiceUnreachable(error)) throw error;
    getLogger().error({ err: error }, "login failed unexpectedly");
    return data(submission.reply({ formErrors: [messages.login.generic], hideFields: ["password"] }), {
      status: 500,
    });
  }
}

/**
 * The login message shows for 2 s after each attempt (with JavaScript; without it,
 * the server-rendered message stays). `attempt` changes on every submit, valid or not.
 */
function useTransientMessage(message: string | undefined, attempt: unknown) {
  const [visible, setVisible] = useState(Boolean(message));
  useEffect(() => {
    setVisible(Boolean(message));
    if (!message) return;
    const timer = setTimeout(() => setVisible(false), 2000);
    return () => clearTimeout(timer);
  }, [message, attempt]);
  return visible ? message : undefined;
}

export default function LoginPage() {
  const lastResult = useActionReply<typeof action>();
  const { mailOn, providerLabel, participantPasswords } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    // A password just chosen from a mailed link comes back here with its account's name.
    defaultValue: { username: searchParams.get("name")?.slice(0, 200) ?? "" },
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  const [attempts, setAttempts] = useState(0);
  const fieldMessage = fields.username.errors?.[0] ?? fields.password.errors?.[0];
  const message = useTransientMessage(form.errors?.[0] ?? fieldMessage, `${attempts}:${JSON.stringify(lastResult ?? null)}`);
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/login");
  const { t } = useT();

  const passwordForm = (
    <Form
      method="post"
      {...getFormProps(form)}
      className="form"
      onSubmitCapture={() => setAttempts((count) => count + 1)}
    >
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <Field
        label={t("login.username")}
        inputProps={{
          ...getInputProps(fields.username, { type: "text" }),
          autoComplete: "username",
          autoFocus: participantPasswords,
          required: false,
        }}
        errors={fields.username.errors?.length ? [""] : undefined}
      />
      <Field
        label={t("login.password")}
        inputProps={{
          ...getInputProps(fields.password, { type: "password" }),
          autoComplete: "current-password",
          required: false,
        }}
        errors={fields.password.errors?.length ? [""] : undefined}
      />
      <FormMessage id={form.errorId} error={message} />
      <ActionButton type="submit" disabled={pending}>
        {pending ? t("login.pending") : t("login.submit")}
      </ActionButton>
    </Form>
  );
  const providerForm = providerLabel ? (
    // A plain form post (reloadDocument): the answer is a redirect to the provider's own site.
    <Form method="post" action="/auth/oidc" reloadDocument className="form login__provider">
      {participantPasswords ? <p className="login__or">{t("login.or")}</p> : null}
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <ActionButton type="submit">
        {/* The organisers' name for their provider is theirs, not translated: isolated in a <bdi>. */}
        <Trans i18nKey="login.oidc" values={{ label: providerLabel }} components={{ name: <bdi /> }} />
      </ActionButton>
    </Form>
  ) : null;

  if (!participantPasswords && providerLabel) {
    // Passwords off for participants (docs/domain.md): the provider's button is the page; the password form is
    // folded away for staff, open again when it answered (a refusal to read) or a mailed link sent a name here.
    return (
      <AccountCard title={t("login.title")} hint={<Trans i18nKey="login.providerHint" values={{ label: providerLabel }} components={{ name: <bdi /> }} />} back={{ to: "/", label: t("login.backToIntro") }}>
        {providerForm}
        <details className="login__staff" open={Boolean(lastResult) || searchParams.has("name")}>
          <summary>{t("login.staffSummary")}</summary>
          {passwordForm}
          {mailOn ? (
            <p className="login__hint">
              <Link to="/forgot-password">{t("login.forgot")}</Link>
            </p>
          ) : null}
        </details>
      </AccountCard>
    );
  }
  return (
    <AccountCard title={t("login.title")} hint={t("login.hint")} back={{ to: "/", label: t("login.backToIntro") }}>
      {passwordForm}
      {providerForm}
      {mailOn ? (
        <p className="login__hint">
          <Link to="/forgot-password">{t("login.forgot")}</Link>
        </p>
      ) : null}
    </AccountCard>
  );
}
