import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { ThreadMessages } from "~/components/thread-messages";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { useFormErrorToast } from "~/components/toaster";
import { ActionButton } from "~/components/ui/action-button";
import { Field, TextareaField } from "~/components/ui/field";
import { Message } from "~/components/ui/message";
import { parseRowId } from "~/modules/ids";
import { messages } from "~/modules/messages";
import { PublishAnswerSchema, ReplySchema } from "~/modules/requests/schema";
import { answerThread, claimThread, closeThread, getThread, mayOverrule, publishAnswer, releaseThread } from "~/modules/requests/threads.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { notFound } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";

const m = messages.threads;

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Thread · Gatekeeper Dashboard" }];

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
  const actionData = useActionData<typeof action>();
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
      <TextareaField label="Your reply (the team sees it at once)" textareaProps={{ ...getTextareaProps(fields.body), rows: 4, maxLength: 4000 }} errors={fields.body.errors} />
      <div className="message-slot" id={form.errorId} aria-live="polite">
        {form.errors?.[0] ? <Message tone="error">{form.errors[0]}</Message> : null}
      </div>
      <ActionButton type="submit" name="intent" value="reply" disabled={sending}>
        {sending ? "Sending..." : "Send reply"}
      </ActionButton>
    </Form>
  );
}

function PublishForm({ thread }: { thread: LoaderData["thread"] }) {
  const actionData = useActionData<typeof action>();
  const lastResult = actionData?.intent === "publish" ? actionData.result : undefined;
  useFormErrorToast(lastResult);
  const lastReply = [...thread.replies].reverse().find((reply) => !reply.fromTeam);
  const [form, fields] = useForm({
    id: "thread-publish",
    lastResult,
    constraint: getZodConstraint(PublishAnswerSchema),
    shouldValidate: "onSubmit",
    defaultValue: { title: `${thread.challenge ?? "Challenge"}: a question answered`, content: `Q: ${thread.message}\n\nA: ${lastReply?.body ?? ""}` },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PublishAnswerSchema }),
  });
  return (
    <section className="card" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish the answer to every team</h2>
      <p className="muted">An announcement for everyone, linked from the challenge&apos;s page, so the same question is not asked again. Edit it first: the team&apos;s wording is theirs.</p>
      <Form method="post" {...getFormProps(form)} className="form">
        <Field label="Title" inputProps={{ ...getInputProps(fields.title, { type: "text" }), maxLength: 200 }} errors={fields.title.errors} />
        <TextareaField label="Content" textareaProps={{ ...getTextareaProps(fields.content), rows: 5, maxLength: 5000 }} errors={fields.content.errors} />
        <ActionButton type="submit" name="intent" value="publish" variant="subtle">
          Publish as an announcement
        </ActionButton>
      </Form>
    </section>
  );
}

export default function Thread() {
  const { me, thread, timeZone, canOverrule } = useLoaderData<typeof loader>();
  const location = useLocation();
  useRevalidateOn("thread:changed");
  const mine = thread.claimedBy === me;
  const takenByAnother = thread.claimedBy !== null && !mine && thread.status === "claimed";
  return (
    <section aria-labelledby="thread-title" className="stack dash-page">
      <p>
        <Link to="/dashboard/questions">← Questions and requests</Link>
      </p>
      <h1 id="thread-title">
        {m.kindLabels[thread.kind]} from {thread.team ?? "a deleted team"}
      </h1>
      <p className="thread-meta" data-testid="thread-status">
        <strong>{m.statusLabels[thread.status]}</strong>
        {thread.claimedByName ? <span> · {mine ? "claimed by you" : `claimed by ${thread.claimedByName}`}</span> : null}
        {thread.challenge ? <span> · about “{thread.challenge}”{thread.gate ? ` (gate ${thread.gate})` : ""}</span> : null}
      </p>
      <ThreadMessages
        timeZone={timeZone}
        messages={[
          { key: "first", fromTeam: true, who: thread.team ?? "Team", body: thread.message, createdAt: thread.createdAt },
          ...thread.replies.map((reply) => ({ key: reply.id, fromTeam: reply.fromTeam, who: reply.fromTeam ? (thread.team ?? "Team") : (reply.author ?? "an organiser"), body: reply.body, createdAt: reply.createdAt })),
        ]}
      />
      {thread.status === "closed" ? (
        <p className="muted">This thread is closed.</p>
      ) : takenByAnother && !canOverrule ? (
        <Message tone="error">{m.claimedByAnother(thread.claimedByName ?? m.someoneElse)}</Message>
      ) : (
        <div className="card stack">
          {takenByAnother ? <Message tone="error">{m.adminTakeOver(thread.claimedByName ?? m.someoneElse)}</Message> : null}
          {!mine ? (
            <Form method="post">
              <ActionButton type="submit" name="intent" value="claim" variant="subtle">
                {takenByAnother ? "Take it over" : "Claim it (the others see it is yours)"}
              </ActionButton>
            </Form>
          ) : thread.status === "claimed" ? (
            <Form method="post">
              <ActionButton type="submit" name="intent" value="release" variant="subtle">
                Release it (back to the queue)
              </ActionButton>
            </Form>
          ) : null}
          <ReplyForm key={location.key} />
          <Form method="post">
            <ActionButton type="submit" name="intent" value="close" variant="subtle">
              Close the thread
            </ActionButton>
          </Form>
        </div>
      )}
      {canOverrule && thread.kind === "question" && thread.challengeId !== null ? <PublishForm key={`publish-${location.key}`} thread={thread} /> : null}
    </section>
  );
}
