import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useState } from "react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { TextareaField } from "~/components/ui/field";
import { ArabicTextFields } from "~/components/dashboard/arabic-fields";
import { Message } from "~/components/ui/message";
import { messages } from "~/modules/messages";
import { lastNotification, sendNotification } from "~/modules/notifications/notifications.server";
import { NotificationSchema } from "~/modules/notifications/schema";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFailureOf } from "~/glue/failures.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const [last, timeZone] = await Promise.all([lastNotification(), getEventTimeZone()]);
  return { last, timeZone };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requirePage(request);
  const submission = parseWithZod(await request.formData(), { schema: NotificationSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), outcome: null }, { status: 400 });
  try {
    await sendNotification(actorOf(admin, request), submission.value.message, submission.value.messageAr);
  } catch (error) {
    // The page says "failed" in red whatever the cause; the status and the log tell which.
    const failed = dashboardFailureOf(error, "notification failed");
    return data({ result: submission.reply(), outcome: "failed" as const }, { status: failed.status, headers: failed.headers });
  }
  return { result: submission.reply({ resetForm: true }), outcome: "sent" as const, at: Date.now() };
}

/** The outcome shows for 3 s (green or red), then clears. */
function useOutcome(actionData: ReturnType<typeof useActionReply<typeof action>>) {
  const [outcome, setOutcome] = useState<"sent" | "failed" | null>(actionData?.outcome ?? null);
  useEffect(() => {
    setOutcome(actionData?.outcome ?? null);
    if (!actionData?.outcome) return;
    const timer = setTimeout(() => setOutcome(null), 3000);
    return () => clearTimeout(timer);
  }, [actionData]);
  return outcome;
}

export default function Notifications() {
  const { last, timeZone } = useLoaderData<typeof loader>();
  const actionData = useActionReply<typeof action>();
  const navigation = useNavigation();
  const outcome = useOutcome(actionData);
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const [form, fields] = useForm({
    id: "notification",
    lastResult: actionData?.result,
    constraint: getZodConstraint(NotificationSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NotificationSchema }),
  });
  const sending = navigation.state === "submitting";
  return (
    <section aria-labelledby="notifications-title" className="stack">
      <h1 id="notifications-title">{t("notificationsPage.heading")}</h1>
      <div className="grid-2">
        <section className="card" aria-labelledby="send-title">
          <h2 id="send-title">{t("notificationsPage.send")}</h2>
          <Form method="post" {...getFormProps(form)} className="form">
            <TextareaField label={t("notificationsPage.message")} textareaProps={{ ...getTextareaProps(fields.message), rows: 4, dir: "auto" }} errors={fields.message.errors} />
            <ArabicTextFields text={fields.messageAr} textLabel="dashboardMisc.arabic.messageAr" rows={4} />
            <div className="message-slot" aria-live="polite">
              {outcome === "sent" ? <Message tone="correct">{serverMessage(messages.notifications.sent)}</Message> : null}
              {outcome === "failed" ? <Message tone="error">{serverMessage(messages.notifications.failed)}</Message> : null}
            </div>
            <ActionButton type="submit" disabled={sending}>
              {sending ? t("common.sending") : t("common.send")}
            </ActionButton>
          </Form>
        </section>
        <section className="card" aria-labelledby="last-title">
          <h2 id="last-title">{t("notificationsPage.last")}</h2>
          {last ? (
            <>
              <p dir="auto">{last.message}</p>
              {last.messageAr ? (
                <p dir="auto" lang="ar">
                  {last.messageAr}
                </p>
              ) : null}
              <p className="muted">
                <time dateTime={last.timestamp}>{format.dayTime(last.timestamp, timeZone)}</time>
              </p>
            </>
          ) : (
            <p className="muted">{t("notificationsPage.none")}</p>
          )}
        </section>
      </div>
    </section>
  );
}
