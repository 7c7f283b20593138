import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { TeamScreen, type TeamActionData } from "~/components/participant/team-screen";
import { RouteErrorPage } from "~/components/status-page";
import { getEnv } from "~/infrastructure/env.server";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import { JoinTeamSchema, OwnTeamCreateSchema, RemoveMemberSchema, RevokeInviteSchema } from "~/modules/teams/schema";
import { createInvite, createOwnTeam, joinByCode, leaveOwnTeam, readTeamPage, removeMember, revokeInvite } from "~/modules/teams/self-formed.server";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { formFailure, toastFailure } from "~/glue/failures.server";
import { clientIp } from "~/glue/request.server";
import { badRequest } from "~/glue/responses.server";
import { SECRET_PAGE_HEADERS, secretPageHeaders } from "~/glue/secret-pages.server";
import { redirectWithToast } from "~/glue/toast.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "teamPage.title") }];

/** A new invitation's code is shown once: no cache may keep the page. */
export const headers = secretPageHeaders;

/**
 * The team page (docs/domain.md "Teams that form themselves"): one's team and its members; when the event lets
 * teams form themselves, creating one, joining by a code (a link fills it in: `/team?code=…`), leaving, and the
 * captain's invitations and removals.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const page = await readTeamPage(user);
  const code = new URL(request.url).searchParams.get("code")?.slice(0, 64) ?? "";
  // The link's origin is the site's public one when set, never a Host header a client wrote into a link others follow.
  const origin = getEnv().APP_ORIGIN ?? new URL(request.url).origin;
  return { ...page, code, joinLink: `${origin.replace(/\/$/, "")}/team?code=` };
}

const url = "/team";
const words = { log: "team page change failed", fallback: messages.login.generic };

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  if (intent === "create") {
    const submission = parseWithZod(formData, { schema: OwnTeamCreateSchema });
    if (submission.status !== "success") return data<TeamActionData>({ intent, result: submission.reply() }, { status: 400 });
    try {
      const team = await createOwnTeam(actor, submission.value.name);
      return redirectWithToast(url, { type: "success", title: messages.selfTeams.created(team.name) });
    } catch (error) {
      const failed = formFailure(submission, error, { ...words, fieldOf: (refusal) => refusal?.field });
      return data<TeamActionData>({ intent, result: failed.result }, failed.init);
    }
  }
  if (intent === "join") {
    const submission = parseWithZod(formData, { schema: JoinTeamSchema });
    if (submission.status !== "success") return data<TeamActionData>({ intent, result: submission.reply() }, { status: 400 });
    try {
      const team = await joinByCode(actor, submission.value.code, clientIp(request));
      return redirectWithToast(url, { type: "success", title: messages.selfTeams.joined(team.name) });
    } catch (error) {
      const failed = formFailure(submission, error, { ...words, fieldOf: (refusal) => refusal?.field });
      return data<TeamActionData>({ intent, result: failed.result }, failed.init);
    }
  }
  if (intent === "invite") {
    try {
      const invite = await createInvite(actor);
      return data<TeamActionData>({ intent, invite: { code: invite.code, expiresAt: invite.expiresAt.toISOString() } }, { headers: SECRET_PAGE_HEADERS });
    } catch (error) {
      return toastFailure(url, error, words);
    }
  }
  if (intent === "leave") {
    try {
      await leaveOwnTeam(actor);
    } catch (error) {
      return toastFailure(url, error, words);
    }
    return redirectWithToast(url, { type: "success", title: messages.selfTeams.left });
  }
  if (intent === "remove" || intent === "revoke") {
    const parsed = (intent === "remove" ? RemoveMemberSchema : RevokeInviteSchema).safeParse(Object.fromEntries(formData));
    if (!parsed.success) throw badRequest();
    try {
      if ("userId" in parsed.data) await removeMember(actor, parsed.data.userId);
      else await revokeInvite(actor, parsed.data.inviteId);
    } catch (error) {
      return toastFailure(url, error, words);
    }
    return redirectWithToast(url, { type: "success", title: intent === "remove" ? messages.selfTeams.removed : messages.selfTeams.revoked });
  }
  throw badRequest();
}

export default function TeamPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionReply<typeof action>();
  return <TeamScreen page={page} actionData={actionData} />;
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
