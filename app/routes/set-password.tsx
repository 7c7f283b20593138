import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { Trans } from "react-i18next";
import { AccountCard, FormMessage, useAccountForm } from "~/components/account/account-card";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Field } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { pageTitle } from "~/modules/i18n/i18n";
import { confirmAddressByLink, linkRefusal, readPasswordLink, spendPasswordLink } from "~/modules/mail/password-links.server";
import { ConfirmAddressSchema, SetPasswordSchema } from "~/modules/mail/schema";
import { messages } from "~/modules/messages";
import { formFailure } from "~/glue/failures.server";
import { auditIp } from "~/glue/request.server";
import { LINK_PAGE_HEADERS } from "~/glue/secret-pages.server";
import { redirectWithToast } from "~/glue/toast.server";

/** The link's page: no cache keeps it, and no request from it names it (its URL holds the token). */
export const headers: HeadersFunction = () => ({ ...LINK_PAGE_HEADERS });
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "account.set.title") }];

// Public route: a mailed link (docs/domain.md "Mail"). Opening it reads the link and shows the form or why it
// does not work; nothing is spent: mail scanners open links too.
export async function loader({ request }: LoaderFunctionArgs) {
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200);
  const link = await readPasswordLink(token);
  // Passwords off for participants: the link confirms the address it was mailed to (docs/domain.md).
  if (link.state === "confirm") {
    return data({ token, refusal: null, userName: link.userName, purpose: null, confirm: { address: link.address, provider: link.providerLabel } }, { headers: LINK_PAGE_HEADERS });
  }
  if (link.state !== "live") return data({ token: "", refusal: linkRefusal(link).message, userName: null, purpose: null, confirm: null }, { status: linkRefusal(link).status, headers: LINK_PAGE_HEADERS });
  return data({ token, refusal: null, userName: link.userName, purpose: link.purpose, confirm: null }, { headers: LINK_PAGE_HEADERS });
}

// Public route: submitting the form uses the link (once), then the user signs in with the new password.
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") === "confirm") {
    const submission = parseWithZod(formData, { schema: ConfirmAddressSchema });
    if (submission.status !== "success") return data(submission.reply({ hideFields: ["token"] }), { status: 400, headers: LINK_PAGE_HEADERS });
    try {
      const { providerLabel } = await confirmAddressByLink(submission.value.token ?? "", new Date(), auditIp(request));
      return redirectWithToast("/login", { type: "success", title: messages.mail.addressConfirmed(providerLabel) }, { headers: LINK_PAGE_HEADERS });
    } catch (error) {
      const failed = formFailure(submission, error, { log: "confirming an address from a link failed", fallback: messages.login.generic, hideFields: ["token"] });
      return data(failed.result, { ...failed.init, headers: { ...failed.init.headers, ...LINK_PAGE_HEADERS } });
    }
  }
  const submission = parseWithZod(formData, { schema: SetPasswordSchema });
  const hide = ["password", "confirm", "token"];
  if (submission.status !== "success") return data(submission.reply({ hideFields: hide }), { status: 400, headers: LINK_PAGE_HEADERS });
  try {
    const { userName } = await spendPasswordLink(submission.value.token ?? "", submission.value.password, new Date(), auditIp(request));
    return redirectWithToast(`/login?${new URLSearchParams({ name: userName })}`, { type: "success", title: messages.mail.passwordSet }, { headers: LINK_PAGE_HEADERS });
  } catch (error) {
    const failed = formFailure(submission, error, { log: "setting a password from a link failed", fallback: messages.login.generic, hideFields: hide });
    return data(failed.result, { ...failed.init, headers: { ...failed.init.headers, ...LINK_PAGE_HEADERS } });
  }
}

export default function SetPasswordPage() {
  const { token, refusal, userName, purpose, confirm } = useLoaderData<typeof loader>();
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useAccountForm("set-password", SetPasswordSchema, lastResult);
  const { t } = useT();
  const serverMessage = useServerMessage();
  const title = purpose === "reset" ? t("account.set.resetTitle") : t("account.set.title");
  if (refusal) {
    return (
      <AccountCard title={t("account.set.title")}>
        <Message tone="error">{serverMessage(refusal)}</Message>
        <p className="login__hint">
          <Link to="/forgot-password">{t("account.set.askAgain")}</Link>
        </p>
      </AccountCard>
    );
  }
  if (confirm) return <ConfirmAddress token={token} userName={userName ?? ""} address={confirm.address} provider={confirm.provider} />;
  return (
    <AccountCard
      title={title}
      hint={
        <>
          {t("account.set.for")} <bdi>{userName}</bdi>
        </>
      }
    >
      {/* Posted to the link's own address, so a refused form is shown again with the link still read. A whole-page post:
          this page sends no referrer, and a page reached from it in place would keep that policy, so its own forms would
          post with `Origin: null` and be refused (the provider's button on /login). */}
      <Form method="post" reloadDocument action={`/set-password?${new URLSearchParams({ token })}`} {...getFormProps(form)} className="form">
        <input type="hidden" name="token" value={token} />
        {/* The account's name, for the browser's password manager. */}
        <input type="text" name="username" value={userName ?? ""} autoComplete="username" readOnly hidden />
        <Field
          label={t("account.newPassword")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", autoFocus: true }}
          errors={fields.password.errors}
        />
        <Field label={t("account.confirmPassword")} inputProps={{ ...getInputProps(fields.confirm, { type: "password" }), autoComplete: "new-password" }} errors={fields.confirm.errors} />
        <FormMessage id={form.errorId} error={form.errors?.[0]} />
        <ActionButton type="submit" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? t("account.saving") : t("account.set.submit")}
        </ActionButton>
      </Form>
    </AccountCard>
  );
}

/** Passwords off for participants: the link confirms the address it was mailed to, then the person signs in with the provider. */
function ConfirmAddress({ token, userName, address, provider }: { token: string; userName: string; address: string; provider: string }) {
  const lastResult = useActionReply<typeof action>();
  const navigation = useNavigation();
  const [form] = useAccountForm("confirm-address", ConfirmAddressSchema, lastResult);
  const { t } = useT();
  return (
    <AccountCard
      title={t("account.set.confirmTitle")}
      hint={
        <>
          {t("account.set.for")} <bdi>{userName}</bdi>
        </>
      }
    >
      <p className="muted">
        <Trans i18nKey="account.set.confirmHint" values={{ label: provider, address }} components={{ name: <bdi />, address: <bdi dir="ltr" /> }} />
      </p>
      {/* A whole-page post, as the password's form (above). */}
      <Form method="post" reloadDocument action={`/set-password?${new URLSearchParams({ token })}`} {...getFormProps(form)} className="form">
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="intent" value="confirm" />
        <FormMessage id={form.errorId} error={form.errors?.[0]} />
        <ActionButton type="submit" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? t("account.set.confirming") : t("account.set.confirmSubmit")}
        </ActionButton>
      </Form>
    </AccountCard>
  );
}
