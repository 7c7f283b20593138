import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { classifyAddress, mayConnectTo } from "./addresses.server.ts";
import { discordLiteral, slackLiteral, webhookBody } from "./body.ts";
import { WebhookSettingsSchema, webhookUrlProblem } from "./schema.ts";
import { newWebhookSecret, signatureHeaders } from "./signature.server.ts";
import { messages } from "../messages.ts";

const blood = { kind: "first-blood" as const, challengeTitle: "Reverse me", category: "CS" as const, points: 300, teamName: "Null Pointers" };

describe("the webhook's body", () => {
  it("Discord: one line of content, mentions of no one", () => {
    expect(JSON.parse(webhookBody("discord", blood))).toEqual({
      content: "🩸 First blood on Reverse me (CS, 300 points): Null Pointers",
      allowed_mentions: { parse: [] },
    });
  });

  it("Slack: one line of text, no mrkdwn", () => {
    expect(JSON.parse(webhookBody("slack", { ...blood, points: 1 }))).toEqual({ text: "🩸 First blood on Reverse me (CS, 1 point): Null Pointers", mrkdwn: false });
  });

  it("a test message says what it is", () => {
    expect(JSON.parse(webhookBody("slack", { kind: "test" })).text).toMatch(/test message/);
    expect(JSON.parse(webhookBody("discord", { kind: "test" })).content).toMatch(/test message/);
  });

  it("Discord: a team's name makes no mention, link, markup or second line", () => {
    const hostile = "@everyone <@123> **bold** [click](https://evil.example) `code`\n# heading";
    const { content } = JSON.parse(webhookBody("discord", { ...blood, teamName: hostile })) as { content: string };
    expect(content.split("\n")).toHaveLength(1);
    expect(discordLiteral("@everyone")).toBe("\\@everyone");
    expect(discordLiteral("**bold**")).toBe("\\*\\*bold\\*\\*");
    expect(discordLiteral("[click](https://x)")).toBe("\\[click\\]\\(https\\:\\/\\/x\\)");
    expect(discordLiteral("<@123>")).toBe("\\<\\@123\\>");
    // Letters, digits, spaces and other scripts stay as typed.
    expect(discordLiteral("فريق 7 Team")).toBe("فريق 7 Team");
    // Every markup character in the content is escaped: no unescaped * _ ~ ` | < > [ ] @ remains.
    const unescaped = content.replace(/\\[!-/:-@[-`{-~]/g, "").replace(/^🩸 First blood on Reverse me \(CS, 300 points\): /, "");
    expect(unescaped).not.toMatch(/[*_~`|<>[\]@]/);
  });

  it("Slack: &, < and > escaped (no <!channel>, <@U1> or link), nothing else changed", () => {
    expect(slackLiteral("<!channel> & <@U123|bob> > *x*")).toBe("&lt;!channel&gt; &amp; &lt;@U123|bob&gt; &gt; *x*");
    const { text } = JSON.parse(webhookBody("slack", { ...blood, challengeTitle: "a<b>&c" })) as { text: string };
    expect(text).toContain("a&lt;b&gt;&amp;c");
  });

  it("a very long name is cut, and control characters become spaces", () => {
    expect(discordLiteral("a".repeat(500))).toHaveLength(200);
    expect(slackLiteral("one\ntwo\u0000three\u2028four")).toBe("one two three four");
  });
});

describe("the signature", () => {
  it("is the HMAC-SHA256 of `<timestamp>.<body>` under the secret, as hex after sha256=", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const body = webhookBody("discord", blood);
    const headers = signatureHeaders(secret, 1_750_000_000, body);
    expect(headers["X-Gatekeeper-Timestamp"]).toBe("1750000000");
    const expected = createHmac("sha256", secret).update(`1750000000.${body}`).digest("hex");
    expect(headers["X-Gatekeeper-Signature"]).toBe(`sha256=${expected}`);
    // Another timestamp or another secret signs differently.
    expect(signatureHeaders(secret, 1_750_000_001, body)["X-Gatekeeper-Signature"]).not.toBe(headers["X-Gatekeeper-Signature"]);
    expect(signatureHeaders(newWebhookSecret(), 1_750_000_000, body)["X-Gatekeeper-Signature"]).not.toBe(headers["X-Gatekeeper-Signature"]);
  });
});

describe("where the webhook may connect", () => {
  const cases: Array<[string, ReturnType<typeof classifyAddress>]> = [
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd12:3456::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["224.0.0.251", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "reserved"],
    ["2001:db8::1", "reserved"],
    // IPv4-mapped IPv6, in both its spellings: judged as the IPv4 address.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:a9fe:a9fe", "link-local"],
    // NAT64 and 6to4 lead to the IPv4 address inside.
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::808:808", "public"],
    ["2002:7f00:1::", "loopback"],
    ["2002:808:808::1", "public"],
    ["not an address", "invalid"],
  ];
  it.each(cases)("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("only a public address, and a loopback one only when the test-only setting allows it", () => {
    expect(mayConnectTo("8.8.8.8", { allowLoopback: false })).toBe(true);
    expect(mayConnectTo("127.0.0.1", { allowLoopback: false })).toBe(false);
    expect(mayConnectTo("::ffff:127.0.0.1", { allowLoopback: false })).toBe(false);
    expect(mayConnectTo("127.0.0.1", { allowLoopback: true })).toBe(true);
    expect(mayConnectTo("::1", { allowLoopback: true })).toBe(true);
    // The switch opens this machine only, never the private network.
    expect(mayConnectTo("10.0.0.1", { allowLoopback: true })).toBe(false);
    expect(mayConnectTo("169.254.169.254", { allowLoopback: true })).toBe(false);
  });
});

describe("the webhook's form", () => {
  const m = messages.webhooks;
  it("an https address, without a user name; empty turns it off", () => {
    expect(webhookUrlProblem("https://discord.com/api/webhooks/1/abc")).toBeNull();
    expect(webhookUrlProblem("http://discord.com/api/webhooks/1/abc")).toBe(m.httpsOnly);
    expect(webhookUrlProblem("ftp://example.org/x")).toBe(m.httpsOnly);
    expect(webhookUrlProblem("not a url")).toBe(m.urlInvalid);
    expect(webhookUrlProblem("https://user:pw@example.org/")).toBe(m.urlCredentials);
    expect(webhookUrlProblem(`https://example.org/${"a".repeat(2000)}`)).toBe(m.urlTooLong);
    expect(WebhookSettingsSchema.safeParse({ intent: "webhook", url: "", format: "slack" }).success).toBe(true);
    expect(WebhookSettingsSchema.safeParse({ intent: "webhook", url: "https://hooks.slack.com/services/x", format: "teams" }).success).toBe(false);
  });
});
