import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { picturePng, reencoded } from "../support/pictures.ts";
import { freshChallengeToJudge } from "./support/judging.ts";
import { openChallenge, participant, signedInPage } from "./support/login.ts";

const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

test("a picture another team re-encoded shows in the judge's workspace, both pictures side by side", async ({ browser }) => {
  test.slow();
  const event = await freshChallengeToJudge(sql, 1, { category: "CS" });
  const original = await picturePng(41);
  const uploads = [
    { login: participant(event.members[0]), file: { name: "diagram.png", mimeType: "image/png", buffer: original } },
    { login: event.latecomer, file: { name: "our-diagram.jpg", mimeType: "image/jpeg", buffer: await reencoded(original) } },
  ];
  for (const [index, upload] of uploads.entries()) {
    const page = await signedInPage(browser, upload.login);
    await openChallenge(page, 2, event.title);
    await page.getByLabel("Attach a file").setInputFiles(upload.file);
    await page.getByRole("button", { name: /^(SUBMIT|update)$/ }).click();
    await expect(page.getByRole("link", { name: upload.file.name })).toBeVisible();
    await page.context().close();
    await expect
      .poll(async () => (await sql`select 1 from submission_prints p join submissions s on s.id = p.submission_id where s.challenge_id = ${event.challengeId} and p.source = 'file'`).length, { timeout: 20_000 })
      .toBe(index + 1);
  }
  await expect.poll(async () => (await sql`select kind from integrity_signals where challenge_id = ${event.challengeId}`).map((row) => row.kind), { timeout: 20_000 }).toEqual(["image"]);

  const judge = await signedInPage(browser, event.judge);
  await judge.goto(`/dashboard/judge?challenge=${event.challengeId}`);
  const signals = judge.getByRole("region", { name: "Integrity signals" });
  await expect(signals.getByText(new RegExp(`^\\d+ % the same picture as (${event.teams[0]}|${event.latecomerTeam})'s version of`))).toBeVisible();
  const pictures = signals.locator("img");
  await expect(pictures).toHaveCount(2);
  // Both pictures load (the inline path serves each team's file to the judge).
  for (const picture of await pictures.all()) await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await judge.context().close();
});
