import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { FormMessage, useAccountForm } from "~/components/account/account-card";
import { useT } from "~/components/i18n";
import { RouteErrorPage } from "~/components/status-page";
import { ActionButton } from "~/components/ui/action-button";
import { Field } from "~/components/ui/field";
import { TitleBar } from "~/components/ui/title-bar";
import { changeOwnPassword } from "~/modules/auth/password-change.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { ChangePasswordSchema } from "~/modules/mail/schema";
import { messages } from "~/modules/messages";
import { InvalidCredentialsError, LoginThrottledError, requirePage, verifyThrottledLogin } from "~/glue/auth.server";
import { actorOf } from "~/glue/actor.server";
import { formFailure } from "~/glue/failures.server";
import { SECRET_PAGE_HEADERS } from "~/glue/secret-pages.server";
import { redirectWithToast } from "~/glue/toast.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.change.title") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  return { name: user.name };
}

/**
 * A signed-in user changes their password (docs/domain.md "Mail"): the current one is checked under the login
 * throttle, as a sign-in is; the other sessions end, this one goes on.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePage(request);
  const submission = parseWithZod(await request.formData(), { schema: ChangePasswordSchema });
  const hideFields = ["current", "password", "confirm"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400, headers: SECRET_PAGE_HEADERS });
  try {
    await verifyThrottledLogin(user.name, submission.value.current, request);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      return data(submission.reply({ fieldErrors: { current: [messages.mail.currentPasswordWrong] }, hideFields }), { status: 400, headers: SECRET_PAGE_HEADERS });
    }
    if (error instanceof LoginThrottledError) {
      return data(submission.reply({ formErrors: [error.message], hideFields }), { status: 429, headers: { ...SECRET_PAGE_HEADERS, "Retry-After": String(error.retryAfterSeconds) } });
    }
    const failed = formFailure(submission, error, { log: "checking the current password failed", fallback: messages.login.generic, hideFields });
    return data(failed.result, failed.init);
  }
  try {
    await changeOwnPassword(actorOf(user, request), submission.value.password);
  } catch (error) {
    const failed = formFailure(submission, error, { log: "changing a password failed", fallback: messages.login.generic, hideFields });
    return data(failed.result, failed.init);
  }
  return redirectWithToast("/account/password", { type: "success", title: messages.mail.passwordChanged });
}

export default function ChangePasswordPage() {
  const { name } = useLoaderData<typeof loader>();
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useAccountForm("change-password", ChangePasswordSchema, lastResult);
  const { t } = useT();
  const saving = navigation.state === "submitting";
  return (
    <main className="page participant-page" aria-labelledby="change-password-title">
      <section className="card login__card account-page">
        <TitleBar title={t("account.change.title")} id="change-password-title" />
        <p className="login__hint">
          {t("account.change.hint")} <bdi>{name}</bdi>
        </p>
        <Form method="post" {...getFormProps(form)} className="form">
          <input type="text" name="username" value={name} autoComplete="username" readOnly hidden />
          <Field label={t("account.change.current")} inputProps={{ ...getInputProps(fields.current, { type: "password" }), autoComplete: "current-password" }} errors={fields.current.errors} />
          <Field label={t("account.newPassword")} inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }} errors={fields.password.errors} />
          <Field label={t("account.confirmPassword")} inputProps={{ ...getInputProps(fields.confirm, { type: "password" }), autoComplete: "new-password" }} errors={fields.confirm.errors} />
          <FormMessage id={form.errorId} error={form.errors?.[0]} />
          <ActionButton type="submit" disabled={saving}>
            {saving ? t("account.saving") : t("account.change.submit")}
          </ActionButton>
        </Form>
      </section>
    </main>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
