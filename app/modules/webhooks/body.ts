/**
 * What the first-blood webhook posts (docs/domain.md "First-blood webhook"): one line of English, in the
 * body the organisers' chat expects. Team and challenge names are participants' and organisers' text: they
 * can neither mention anyone nor bring their own markup.
 */

export type WebhookFormat = "discord" | "slack";

export const WEBHOOK_FORMATS = ["discord", "slack"] as const satisfies readonly WebhookFormat[];

export interface FirstBloodEvent {
  challengeTitle: string;
  category: "AI" | "CS" | "PS" | "GD";
  points: number;
  teamName: string;
}

/** What a delivery says: a first blood, or the test an admin sends from Settings. */
export type WebhookMessage = ({ kind: "first-blood" } & FirstBloodEvent) | { kind: "test" };

/** At most this many characters of a name: a line stays a line (Discord's content holds 2,000). */
const NAME_MAX = 200;

/** One line: control characters (new lines included) become spaces, and a long name is cut. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
  return flat.length > NAME_MAX ? `${flat.slice(0, NAME_MAX - 1)}…` : flat;
}

/**
 * A name as Discord shows it literally: every ASCII punctuation character is escaped with a backslash
 * (Discord's markdown treats `\` before any punctuation as that character), so `*`, `_`, `~`, `` ` ``, `|`,
 * `>`, `#`, `[`, `]`, `(`, `)`, `<`, `@`, `:` make no formatting, link, mention or emoji. Mentions are also
 * switched off in the body itself (`allowed_mentions`).
 */
export function discordLiteral(text: string): string {
  return oneLine(text).replace(/[!-/:-@[-`{-~]/g, (character) => `\\${character}`);
}

/** A name as Slack shows it literally: Slack's three control characters escaped (its message formatting docs). */
export function slackLiteral(text: string): string {
  return oneLine(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The one line a message says, its user texts made literal by `literal`. */
export function messageText(message: WebhookMessage, literal: (text: string) => string): string {
  if (message.kind === "test") return "✅ Gatekeeper test message: the first-blood webhook reaches this channel.";
  const points = message.points === 1 ? "1 point" : `${message.points} points`;
  return `🩸 First blood on ${literal(message.challengeTitle)} (${message.category}, ${points}): ${literal(message.teamName)}`;
}

/**
 * The body posted, as the exact bytes that are signed and sent: Discord's execute-webhook JSON (`content`,
 * mentions of no one) or Slack's incoming-webhook JSON (`text`, no mrkdwn).
 */
export function webhookBody(format: WebhookFormat, message: WebhookMessage): string {
  if (format === "discord") return JSON.stringify({ content: messageText(message, discordLiteral), allowed_mentions: { parse: [] } });
  return JSON.stringify({ text: messageText(message, slackLiteral), mrkdwn: false });
}
