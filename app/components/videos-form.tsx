import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { ActionButton } from "~/components/ui/action-button";
import { Field } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import type { VideosSchemaType } from "~/modules/videos/schema";

/**
 * The two home-page video URLs: URL inputs, at least one filled; an empty one keeps the stored
 * video. Posts `intent=videos` to the page's own action (dashboard home or /welcome).
 */
export function VideosForm({
  schema,
  lastResult,
  defaultValue,
  action,
}: {
  schema: VideosSchemaType;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: { video1: string; video2: string };
  action?: string;
}) {
  const navigation = useNavigation();
  const { t } = useT();
  const serverMessage = useServerMessage();
  const [form, fields] = useForm({
    id: "videos",
    lastResult,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "videos";
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="form">
      <input type="hidden" name="intent" value="videos" />
      <Field label={t("dashboardHome.video1")} inputProps={{ ...getInputProps(fields.video1, { type: "url" }), dir: "ltr" }} errors={fields.video1.errors} />
      <Field label={t("dashboardHome.video2")} inputProps={{ ...getInputProps(fields.video2, { type: "url" }), dir: "ltr" }} errors={fields.video2.errors} />
      <div className="message-slot" id={form.errorId} aria-live="polite">
        {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
      </div>
      <ActionButton type="submit" disabled={saving}>
        {saving ? t("dashboardHome.saving") : t("dashboardHome.saveVideos")}
      </ActionButton>
    </Form>
  );
}
