import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Trans } from "react-i18next";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { AccountCard, FormMessage, useAccountForm } from "~/components/account/account-card";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Field } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { pageTitle } from "~/modules/i18n/i18n";
import { readParticipantPasswords } from "~/modules/auth/password-sign-in.server";
import { mailIsOn } from "~/modules/mail/mails.server";
import { requestPasswordReset } from "~/modules/mail/reset.server";
import { ForgotPasswordSchema } from "~/modules/mail/schema";
import { messages } from "~/modules/messages";
import { formFailure } from "~/glue/failures.server";
import { clientIp } from "~/glue/request.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.forgot.title") }];

// Public route: "Forgot your password?". `?sent` shows the one answer, whether or not an account has the address.
export async function loader({ request }: LoaderFunctionArgs) {
  // With passwords off for participants, the page says it is for staff (docs/domain.md "Passwords off for participants").
  const passwords = await readParticipantPasswords();
  return { mailOn: mailIsOn(), sent: new URL(request.url).searchParams.has("sent"), providerOnly: passwords.providerOnly };
}

// Public route: checks the limits and queues the request (docs/domain.md "Mail"); the answer never says more.
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await requestPasswordReset(submission.value.email, clientIp(request));
  } catch (error) {
    const failed = formFailure(submission, error, { log: "password reset request failed", fallback: messages.login.generic });
    return data(failed.result, failed.init);
  }
  // Post/redirect/get: reloading the answer asks for nothing again.
  return redirect("/forgot-password?sent");
}

export default function ForgotPasswordPage() {
  const { mailOn, sent, providerOnly } = useLoaderData<typeof loader>();
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useAccountForm("forgot-password", ForgotPasswordSchema, lastResult);
  const { t } = useT();
  const serverMessage = useServerMessage();
  const pending = navigation.state === "submitting";
  if (sent) {
    return (
      <AccountCard title={t("account.forgot.title")}>
        <Message tone="correct">{serverMessage(messages.mail.resetAnswer)}</Message>
        <p className="login__hint">
          <Link to="/login">{t("account.backToLogin")}</Link>
        </p>
      </AccountCard>
    );
  }
  if (!mailOn) {
    return (
      <AccountCard title={t("account.forgot.title")}>
        <Message tone="error">{t("account.forgot.mailOff")}</Message>
        <p className="login__hint">
          <Link to="/login">{t("account.backToLogin")}</Link>
        </p>
      </AccountCard>
    );
  }
  return (
    <AccountCard title={t("account.forgot.title")} hint={t("account.forgot.hint")}>
      {providerOnly ? <p className="muted"><Trans i18nKey="account.forgot.staffOnly" values={{ label: providerOnly }} components={{ name: <bdi /> }} /></p> : null}
      <Form method="post" {...getFormProps(form)} className="form">
        <Field
          label={t("account.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true, dir: "ltr" }}
          errors={fields.email.errors}
        />
        <FormMessage id={form.errorId} error={form.errors?.[0]} />
        <ActionButton type="submit" disabled={pending}>
          {pending ? t("account.forgot.sending") : t("account.forgot.submit")}
        </ActionButton>
      </Form>
    </AccountCard>
  );
}
