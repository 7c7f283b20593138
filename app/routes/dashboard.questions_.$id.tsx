import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { ThreadMessages } from "~/components/thread-messages";
import { useT } from "~/components/i18n";
import { useServerMessage } from "~/components/server-message";
import { threadKindKeys, threadStatusKeys } from "~/components/participant/team-threads";
import { pageTitle } from "~/modules/i18n/i18n";
import { Trans } from "react-i18next";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useFormErrorToast } from "~/components/toaster";
import { ActionButton } from "~/components/ui/action-button";
import { Field, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { parseRowId } from "~/modules/ids";
import { messages } from "~/modules/messages";
import { PublishAnswerSchema, ReplySchema } from "~/modules/requests/schema";
import { mayOverrule } from "~/modules/auth/access";
import { answerThread, claimThread, closeThread, getThread, publishAnswer, releaseThread } from "~/modules/requests/threads.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { notFound } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { ArabicTextFields } from "~/components/dashboard/arabic-fields";

const m = messages.threads;

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "questionsPage.threadTitle") }];

function threadId(param: string | undefined): number {
  const id = parseRowId(param);
  if (!id) throw notFound();
  return id;
}

/** One thread for an organiser: the team's messages and the replies, claim, reply, close, publish. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const thread = await getThread(threadId(params.id), {});
  if (!thread) throw notFound();
  return {
    me: user.id,
    // Publishing speaks to every team: an admin's announcement.
    canOverrule: mayOverrule(user.role),
    thread: {
      ...thread,
      createdAt: thread.createdAt.toISOString(),
      updatedAt: thread.updatedAt.toISOString(),
      replies: thread.replies.map((reply) => ({ ...reply, createdAt: reply.createdAt.toISOString() })),
    },
    timeZone: await getEventTimeZone(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const id = threadId(params.id);
  const here = `/dashboard/questions/${id}`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "claim" || intent === "close" || intent === "release") {
    try {
      if (intent === "claim") await claimThread(actor, id);
      else if (intent === "release") await releaseThread(actor, id);
      else await closeThread(actor, id);
    } catch (error) {
      return dashboardToastFailure(here, error, `thread ${intent} failed`);
    }
    return redirectWithToast(here, { type: "success", title: intent === "claim" ? m.claimed : intent === "release" ? m.released : m.closedNow });
  }
  if (intent === "publish") {
    const submission = parseWithZod(formData, { schema: PublishAnswerSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    try {
      await publishAnswer(actor, id, submission.value);
    } catch (error) {
      const failed = dashboardFormFailure(submission, error, { log: "answer not published" });
      return data({ intent, result: failed.result }, failed.init);
    }
    return redirectWithToast(here, { type: "success", title: m.published });
  }
  const submission = parseWithZod(formData, { schema: ReplySchema });
  if (submission.status !== "success") return data({ intent: "reply" as const, result: submission.reply() }, { status: 400 });
  try {
    await answerThread(actor, id, submission.value.body);
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "thread reply failed" });
    return data({ intent: "reply" as const, result: failed.result }, failed.init);
  }
  return redirectWithToast(here, { type: "success", title: m.answered });
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function ReplyForm() {
  const { t } = useT();
  const serverMessage = useServerMessage();
  const actionData = useActionReply<typeof action>();
  const lastResult = actionData?.intent === "reply" ? actionData.result : undefined;
  useFormErrorToast(lastResult);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "thread-reply",
    lastResult,
    constraint: getZodConstraint(ReplySchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReplySchema }),
  });
  const sending = navigation.state === "submitting" && navigation.formData?.get("intent") === "reply";
  return (
    <Form method="post" {...getFormProps(form)} className="form">
      <TextareaField label={t("questionsPage.reply")} textareaProps={{ ...getTextareaProps(fields.body), rows: 4, maxLength: 4000, dir: "auto" }} errors={fields.body.errors} />
      <div className="message-slot" id={form.errorId} aria-live="polite">
        {form.errors?.[0] ? <Message tone="error">{serverMessage(form.errors[0])}</Message> : null}
      </div>
      <ActionButton type="submit" name="intent" value="reply" disabled={sending}>
        {sending ? t("common.sending") : t("questionsPage.sendReply")}
      </ActionButton>
    </Form>
  );
}

function PublishForm({ thread }: { thread: LoaderData["thread"] }) {
  const { t } = useT();
  const actionData = useActionReply<typeof action>();
  const lastResult = actionData?.intent === "publish" ? actionData.result : undefined;
  useFormErrorToast(lastResult);
  const lastReply = [...thread.replies].reverse().find((reply) => !reply.fromTeam);
  const [form, fields] = useForm({
    id: "thread-publish",
    lastResult,
    constraint: getZodConstraint(PublishAnswerSchema),
    shouldValidate: "onSubmit",
    defaultValue: { title: t("questionsPage.publishDefaultTitle", { challenge: thread.challenge ?? t("questionsPage.challenge") }), content: t("questionsPage.publishDefaultContent", { question: thread.message, answer: lastReply?.body ?? "" }) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PublishAnswerSchema }),
  });
  return (
    <section className="card" aria-labelledby="publish-heading">
      <h2 id="publish-heading">{t("questionsPage.publishHeading")}</h2>
      <p className="muted">{t("questionsPage.publishNote")}</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <Field label={t("questionsPage.publishTitle")} inputProps={{ ...getInputProps(fields.title, { type: "text" }), maxLength: 200, dir: "auto" }} errors={fields.title.errors} />
        <TextareaField label={t("questionsPage.publishContent")} textareaProps={{ ...getTextareaProps(fields.content), rows: 5, maxLength: 5000, dir: "auto" }} errors={fields.content.errors} />
        <ArabicTextFields title={fields.titleAr} text={fields.contentAr} textLabel="dashboardMisc.arabic.contentAr" rows={5} />
        <ActionButton type="submit" name="intent" value="publish" variant="subtle">
          {t("questionsPage.publish")}
        </ActionButton>
      </Form>
    </section>
  );
}

export default function Thread() {
  const { me, thread, timeZone, canOverrule } = useLoaderData<typeof loader>();
  const location = useLocation();
  const { t } = useT();
  useRevalidateOn("thread:changed");
  const mine = thread.claimedBy === me;
  const takenByAnother = thread.claimedBy !== null && !mine && thread.status === "claimed";
  return (
    <section aria-labelledby="thread-title" className="stack dash-page">
      <p>
        <Link to="/dashboard/questions">{t("questionsPage.backToList")}</Link>
      </p>
      <h1 id="thread-title">
        <Trans
          i18nKey="questionsPage.threadHeading"
          values={{ kind: t(threadKindKeys[thread.kind]), team: thread.team ?? t("questionsPage.deletedTeam") }}
          components={{ team: <bdi /> }}
        />
      </h1>
      <p className="thread-meta" data-testid="thread-status">
        <strong>{t(threadStatusKeys[thread.status])}</strong>
        {thread.claimedByName ? (
          <span>
            {" · "}
            {mine ? t("questionsPage.claimedByYou") : <Trans i18nKey="questionsPage.claimedBy" values={{ name: thread.claimedByName }} components={{ name: <bdi /> }} />}
          </span>
        ) : null}
        {thread.challenge ? (
          <span>
            {" · "}
            <Trans i18nKey="questionsPage.about" values={{ challenge: thread.challenge }} components={{ challenge: <bdi /> }} />
            {thread.gate ? t("questionsPage.inGate", { gate: thread.gate }) : ""}
          </span>
        ) : null}
      </p>
      <ThreadMessages
        timeZone={timeZone}
        messages={[
          { key: "first", fromTeam: true, who: thread.team ?? t("questionsPage.team"), body: thread.message, createdAt: thread.createdAt },
          ...thread.replies.map((reply) => ({ key: reply.id, fromTeam: reply.fromTeam, who: reply.fromTeam ? (thread.team ?? t("questionsPage.team")) : (reply.author ?? t("questionsPage.anOrganiser")), body: reply.body, createdAt: reply.createdAt })),
        ]}
      />
      {thread.status === "closed" ? (
        <p className="muted">{t("questionsPage.closed")}</p>
      ) : takenByAnother && !canOverrule ? (
        <Message tone="error">{m.claimedByAnother(thread.claimedByName ?? m.someoneElse)}</Message>
      ) : (
        <div className="card stack">
          {takenByAnother ? <Message tone="error">{m.adminTakeOver(thread.claimedByName ?? m.someoneElse)}</Message> : null}
          {!mine ? (
            <Form method="post">
              <ActionButton type="submit" name="intent" value="claim" variant="subtle">
                {takenByAnother ? t("questionsPage.takeOver") : t("questionsPage.claimIt")}
              </ActionButton>
            </Form>
          ) : thread.status === "claimed" ? (
            <Form method="post">
              <ActionButton type="submit" name="intent" value="release" variant="subtle">
                {t("questionsPage.release")}
              </ActionButton>
            </Form>
          ) : null}
          <ReplyForm key={location.key} />
          <Form method="post">
            <ActionButton type="submit" name="intent" value="close" variant="subtle">
              {t("questionsPage.closeThread")}
            </ActionButton>
          </Form>
        </div>
      )}
      {canOverrule && thread.kind === "question" && thread.challengeId !== null ? <PublishForm key={`publish-${location.key}`} thread={thread} /> : null}
    </section>
  );
}
