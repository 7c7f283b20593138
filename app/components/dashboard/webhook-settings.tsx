import { withCode } from "~/components/ui/with-code";
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Field, SelectField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { messages } from "~/modules/messages";
import { WebhookSettingsSchema } from "~/modules/webhooks/schema";
import type { WebhookView } from "~/modules/webhooks/settings.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";

/** The action's answer to the webhook's forms (app/glue/webhook-settings.server.ts). */
type WebhookFormResult = { intent: string; result: SubmissionResult<string[]> | null; secret: string | null };

/** A new secret, in the one answer that carries it. */
function RevealedSecret({ secret }: { secret: string }) {
  const { t } = useT();
  const serverMessage = useServerMessage();
  return (
    <div className="stack">
      <Message tone="correct">{serverMessage(messages.webhooks.secretShown)}</Message>
      <label className="field__label" htmlFor="webhook-secret-value">
        {t("settingsPage.webhook.secret")}
      </label>
      <input id="webhook-secret-value" className="field__input secret-value" dir="ltr" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
    </div>
  );
}

/**
 * Dashboard → Settings, "First-blood webhook" (docs/domain.md "First-blood webhook"): the chat's address,
 * its format, the signing secret (shown once when made) and a test message.
 */
export function FirstBloodWebhookSettings({ webhook }: { webhook: WebhookView }) {
  const actionData = useActionReply<WebhookFormResult>();
  const answer = actionData?.intent === "webhook" ? actionData : undefined;
  const [form, fields] = useForm({
    id: "webhook",
    lastResult: answer?.result ?? undefined,
    defaultValue: { url: webhook.url, format: webhook.format },
    constraint: getZodConstraint(WebhookSettingsSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookSettingsSchema }),
  });
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const { t } = useT();
  return (
    <section className="card stack dash-page" aria-labelledby="webhook-title">
      <h2 id="webhook-title">{t("settingsPage.webhook.title")}</h2>
      <p id="webhook-help" className="muted">
        {withCode(t("settingsPage.webhook.help"))}
      </p>
      {answer?.secret ? <RevealedSecret secret={answer.secret} /> : null}
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="webhook" />
        <Field
          label={t("settingsPage.webhook.url")}
          inputProps={{ ...getInputProps(fields.url, { type: "url" }), dir: "ltr", placeholder: "https://discord.com/api/webhooks/…", "aria-describedby": "webhook-help" }}
          errors={fields.url.errors}
        />
        <SelectField label={t("settingsPage.webhook.format")} selectProps={getSelectProps(fields.format)} errors={fields.format.errors}>
          <option value="discord">Discord</option>
          <option value="slack">Slack</option>
        </SelectField>
        <ActionButton type="submit" disabled={busy("webhook")}>
          {busy("webhook") ? t("settingsPage.saving") : t("settingsPage.webhook.save")}
        </ActionButton>
      </Form>
      {webhook.url ? (
        <div className="dash-form-actions">
          <Form method="post">
            <input type="hidden" name="intent" value="webhook-test" />
            <ActionButton type="submit" variant="subtle" disabled={busy("webhook-test")}>
              {t("settingsPage.webhook.test")}
            </ActionButton>
          </Form>
          <Form method="post" onSubmit={confirmSubmit(t("settingsPage.webhook.newSecretConfirm"))}>
            <input type="hidden" name="intent" value="webhook-secret" />
            <ActionButton type="submit" variant="subtle" disabled={busy("webhook-secret")}>
              {t("settingsPage.webhook.newSecret")}
            </ActionButton>
          </Form>
        </div>
      ) : null}
      <p className="muted">{webhook.hasSecret ? t("settingsPage.webhook.signed") : t("settingsPage.webhook.noSecret")}</p>
    </section>
  );
}
