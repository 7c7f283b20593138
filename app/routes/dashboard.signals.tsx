import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { SignalsScreen, type SignalsAction } from "~/components/dashboard/signals-screen";
import { actorOf } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { ConfirmSchema, DismissSchema, readSignalFilter, StarterFileRemoveSchema, StarterFileSchema, StarterSchema, ThresholdsSchema } from "~/modules/integrity/schema";
import { addStarterFile, confirmSignal, dismissSignal, loadSignalsPage, removeStarterFile, saveStarter, saveThresholds } from "~/modules/integrity/signals.server";
import { cleanupObject } from "~/modules/challenges/challenges.server";
import { parseStarterFileForm } from "~/glue/starter-file-form.server";
import { isMultipartForm } from "~/glue/request-bodies.server";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";

const m = messages.integrity;

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "integrity.title") }];

/** Open signals strongest first (or the filter's), with the filters' choices, the thresholds and the starters (admins only: app/modules/auth/access.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return loadSignalsPage(readSignalFilter(new URL(request.url).searchParams));
}

/** Dismiss or confirm a signal, save a challenge's starter code, add or remove a starter file, or the thresholds; every refusal keeps what was typed. */
export async function action({ request }: ActionFunctionArgs) {
  const caller = await requirePage(request);
  const actor = actorOf(caller, request);
  const back = `/dashboard/signals${new URL(request.url).search}`;
  const reply = (answer: SignalsAction, status: number, headers?: HeadersInit) => data(answer, { status, headers });
  // A starter file comes as multipart (streamed to storage); the page's other forms are urlencoded, and either is read.
  const parsed = isMultipartForm(request) ? await parseStarterFileForm(request) : { formData: await request.formData(), file: null, fileError: m.starterFileRequired, storageUnavailable: false };
  const { formData } = parsed;
  const intent = formData.get("intent");
  const rowId = String(formData.get("id") ?? formData.get("challengeId") ?? "");
  // A file sent with any other form is not kept.
  if (intent !== "starter-file" && parsed.file) await cleanupObject(parsed.file.key);
  if (intent === "starter-file") {
    const { file } = parsed;
    const submission = parseWithZod(formData, { schema: StarterFileSchema });
    if (submission.status !== "success" || !file) {
      if (file) await cleanupObject(file.key);
      return reply({ intent, id: rowId, result: submission.reply(parsed.fileError ? { fieldErrors: { file: [parsed.fileError] } } : undefined) }, parsed.storageUnavailable ? 503 : 400);
    }
    try {
      await addStarterFile(actor, { challengeId: submission.value.challengeId, file });
    } catch (error) {
      await cleanupObject(file.key);
      const failed = dashboardFormFailure(submission, error, { log: "starter file failed", fieldOf: (refusal) => refusal?.field });
      return reply({ intent, id: rowId, result: failed.result }, failed.init.status ?? 500, failed.init.headers);
    }
    return redirectWithToast(back, { type: "success", title: m.starterFileAdded });
  }
  if (intent === "dismiss" || intent === "confirm") {
    const submission = parseWithZod(formData, { schema: intent === "dismiss" ? DismissSchema : ConfirmSchema });
    if (submission.status !== "success") return reply({ intent, id: rowId, result: submission.reply() }, 400);
    try {
      if (submission.value.intent === "dismiss") await dismissSignal(actor, submission.value);
      else await confirmSignal(actor, submission.value);
    } catch (error) {
      const failed = dashboardFormFailure(submission, error, { log: `signal ${intent} failed`, fieldOf: (refusal) => refusal?.field });
      return reply({ intent, id: rowId, result: failed.result }, failed.init.status ?? 500, failed.init.headers);
    }
    return redirectWithToast(back, { type: "success", title: intent === "dismiss" ? m.dismissed : m.confirmed });
  }
  if (intent === "starter-file-remove") {
    const submission = parseWithZod(formData, { schema: StarterFileRemoveSchema });
    if (submission.status !== "success") return reply({ intent, id: rowId, result: submission.reply() }, 400);
    try {
      await removeStarterFile(actor, submission.value);
    } catch (error) {
      const failed = dashboardFormFailure(submission, error, { log: "starter file removal failed", fieldOf: (refusal) => refusal?.field });
      return reply({ intent, id: rowId, result: failed.result }, failed.init.status ?? 500, failed.init.headers);
    }
    return redirectWithToast(back, { type: "success", title: m.starterFileRemoved });
  }
  if (intent === "starter" || intent === "thresholds") {
    const submission = parseWithZod(formData, { schema: intent === "starter" ? StarterSchema : ThresholdsSchema });
    if (submission.status !== "success") return reply({ intent, id: rowId, result: submission.reply() }, 400);
    try {
      if (submission.value.intent === "starter") await saveStarter(actor, submission.value);
      else await saveThresholds(actor, submission.value);
    } catch (error) {
      const failed = dashboardFormFailure(submission, error, { log: `signal ${intent} failed`, fieldOf: (refusal) => refusal?.field });
      return reply({ intent, id: rowId, result: failed.result }, failed.init.status ?? 500, failed.init.headers);
    }
    return redirectWithToast(back, { type: "success", title: intent === "starter" ? m.starterSaved : m.thresholdsSaved });
  }
  throw badRequest();
}

export default function SignalsRoute() {
  return <SignalsScreen data={useLoaderData<typeof loader>()} answer={useActionReply<typeof action>() ?? null} />;
}
