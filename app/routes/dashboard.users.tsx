import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { UsersScreen } from "~/components/dashboard/users-screen";
import { messages } from "~/modules/messages";
import { EndSessionsSchema, UserDeleteSchema, UserFormSchema } from "~/modules/users/schema";
import { readUsersPage } from "~/modules/users/users-page.server";
import { createUser, deleteUser, endUserSession, endUserSessions, updateUser } from "~/modules/users/users.server";
import { sendSetPasswordLink } from "~/modules/mail/mails.server";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFormFailure, dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { parseRowId } from "~/modules/ids";

const m = messages.dashboard;

/** The one dashboard error boundary (routes/dashboard.tsx) says this when the list fails to load. */
export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requirePage(request);
  const url = new URL(request.url);
  return readUsersPage(admin, parseRowId(url.searchParams.get("edit")), parseRowId(url.searchParams.get("view")));
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requirePageActor(request);
  const formData = await request.formData();
  if (formData.get("intent") === "delete") {
    const parsed = UserDeleteSchema.safeParse({ id: formData.get("id") });
    if (!parsed.success) throw badRequest();
    try {
      await deleteUser(admin, parsed.data.id);
    } catch (error) {
      return dashboardToastFailure("/dashboard/users", error, "user delete failed");
    }
    return redirectWithToast("/dashboard/users", { type: "success", title: m.userDeleted });
  }
  // Ending sessions: one (intent end-session, with sessionId) or every one of the user (end-sessions).
  const intent = formData.get("intent");
  if (intent === "end-session" || intent === "end-sessions") {
    const parsed = EndSessionsSchema.safeParse({ id: formData.get("id"), sessionId: formData.get("sessionId") ?? undefined });
    if (!parsed.success || (intent === "end-session" && !parsed.data.sessionId)) throw badRequest();
    const back = `/dashboard/users?view=${parsed.data.id}`;
    try {
      if (intent === "end-session") await endUserSession(admin, parsed.data.id, parsed.data.sessionId!);
      const ended = intent === "end-sessions" ? await endUserSessions(admin, parsed.data.id) : 1;
      return redirectWithToast(back, { type: "success", title: intent === "end-session" ? m.sessionEnded : m.sessionsEnded(ended) });
    } catch (error) {
      return dashboardToastFailure(back, error, "ending sessions failed");
    }
  }

  // A new set-password link, mailed (docs/domain.md "Mail").
  if (intent === "send-link") {
    const parsed = UserDeleteSchema.safeParse({ id: formData.get("id") });
    if (!parsed.success) throw badRequest();
    const back = `/dashboard/users?view=${parsed.data.id}`;
    try {
      const { address, confirms } = await sendSetPasswordLink(admin, parsed.data.id);
      return redirectWithToast(back, { type: "success", title: confirms ? messages.mail.confirmLinkQueued(address) : messages.mail.linkQueued(address) });
    } catch (error) {
      return dashboardToastFailure(back, error, "sending a set-password link failed");
    }
  }

  const submission = parseWithZod(formData, { schema: UserFormSchema });
  // The password is never sent back, even on an error (the form asks for it again).
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { id, ...values } = submission.value;
  let linkTo: string | null = null;
  try {
    // The form always has the address: left empty, the user has none.
    if (id) await updateUser(admin, { id, ...values, email: values.email ?? null });
    else if ((await createUser(admin, values)).linkMailed) linkTo = values.email ?? null;
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "user change failed", hideFields: ["password"] });
    return data(failed.result, failed.init);
  }
  return redirectWithToast("/dashboard/users", { type: "success", title: linkTo ? messages.mail.linkQueued(linkTo) : id ? m.userEdited : m.userAdded });
}

export default function Users() {
  return <UsersScreen {...useLoaderData<typeof loader>()} />;
}
