/**
 * The event's social links, shown with the scoreboard's thanks text. One place to edit
 * for an event: replace these placeholders with the organisers' own pages (the chat server first,
 * since that is where logins are handed out). Icons are ours, drawn per kind.
 */
export type SocialKind = "chat" | "photos" | "network" | "code";

export interface SocialLink {
  label: string;
  href: string;
  kind: SocialKind;
}

export const socialLinks: readonly SocialLink[] = [
  { label: "Discord", href: "https://discord.com/", kind: "chat" },
  { label: "Instagram", href: "https://www.instagram.com/", kind: "photos" },
  { label: "LinkedIn", href: "https://www.linkedin.com/", kind: "network" },
  { label: "GitHub", href: "https://github.com/", kind: "code" },
];
