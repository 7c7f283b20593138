/**
 * The judge's workspace as one read (docs/decisions/019-judge-workspace.md): hand a submission out when
 * none is pinned in the address, hold the one that is (with N judges per submission), then the queue, the
 * backlog, the judge's history and the submission itself, each as this judge may read them (blind judging:
 * ./blind.server.ts).
 */
import type { Role } from "../auth/access.ts";
import { CONTENT_TEXTS, shownIn } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { getEventTimeZone } from "../settings/settings.server.ts";
import { KEPT_VERSION_FILES } from "../submissions/submit.server.ts";
import { namesView } from "./blind.server.ts";
import { CLAIM_MINUTES, claimSubmission, handOut } from "./claims.server.ts";
import { challengesWithSubmissions, judgeBacklog, judgeHistory, judgeQueue } from "./queue.server.ts";
import type { WorkspaceQuery } from "./schema.ts";
import { getJudgingSettings } from "./settings.server.ts";
import { neighbours, submissionForJudge } from "./workspace.server.ts";
import { signalsForSubmission } from "../integrity/signals.server.ts";

/**
 * The workspace for this judge and query: `handedOut`, the submission to pin in the address (nothing else
 * is read before it), or the page's data.
 */
export async function openWorkspace(judge: { id: number; role: Role }, query: WorkspaceQuery, language: Language = "en") {
  const filter = { gate: query.gate, category: query.category, challengeId: query.challenge };
  const settings = await getJudgingSettings();
  const shared = settings.judgesPerSubmission !== null;
  if (query.s === undefined) {
    const handed = await handOut(judge.id, filter, query.after, shared);
    if (handed !== null) return { handedOut: handed } as const;
  } else if (shared) {
    await claimSubmission(judge.id, query.s).catch(() => undefined);
  }
  const currentId = query.s ?? null;
  const [queue, backlog, history, timeZone, challengeChoices] = await Promise.all([
    judgeQueue(judge.id, filter),
    judgeBacklog(judge.id),
    judgeHistory(judge.id, 30),
    getEventTimeZone(),
    challengesWithSubmissions(),
  ]);
  const found = currentId === null ? null : await submissionForJudge(currentId, judge.id);
  const names = namesView(settings, judge);
  // The challenge's texts in the judge's language (docs/domain.md "Event content in two languages").
  const current = found && { ...names.submission(found), challenge: shownIn(found.challenge, language, CONTENT_TEXTS.challenge) };
  const { previous, next } = neighbours(queue, current?.id ?? null);
  // Its integrity signals, with the evidence (the other team a label while judging is blind): app/modules/integrity.
  const signals = current ? await signalsForSubmission(current.id, judge) : [];
  const shownHistory = names.rows(history);
  const saved = query.saved === undefined ? undefined : shownHistory.find((entry) => entry.submissionId === query.saved);
  const page = {
    query,
    queue: names.rows(queue),
    backlog,
    history: shownHistory,
    current,
    signals,
    blind: names.hidden,
    missing: query.s !== undefined && current === null,
    inQueue: current !== null && queue.some((item) => item.id === current.id),
    previous,
    next,
    saved: saved ?? null,
    timeZone,
    challengeChoices,
    claimMinutes: shared ? CLAIM_MINUTES : null,
    // Server-side constants reach the page through its data (a .server module is empty in the browser).
    keptVersionFiles: KEPT_VERSION_FILES,
  };
  return { page } as const;
}

export type WorkspacePage = Extract<Awaited<ReturnType<typeof openWorkspace>>, { page: unknown }>["page"];
