import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { databaseUrlFor, E2E_DATABASE } from "../setup/databases.ts";
import { login, logins, signIn } from "./support/login.ts";
import { axe } from "./support/axe.ts";
import { linkIn, waitForMails } from "../support/mailbox.ts";

// The e2e server's own database (see support/start-server.ts): what the form stored, read back directly.
const sql = postgres(databaseUrlFor(E2E_DATABASE), { max: 1, onnotice: () => {} });
test.afterAll(async () => {
  await sql.end({ timeout: 5 });
});

// Axe runs and argon2 hashing are heavy on a shared 2-core machine: allow more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

const REQUIRED_MESSAGE = "Please fill in all required fields.";

type Person = Record<"name" | "lastName" | "email" | "phone" | "hasTeam" | "nationalId" | "skill" | "tshirtSize", string> &
  Partial<Record<"teamName" | "linkedin" | "portfolio" | "major" | "university", string>>;

const labels = {
  name: "Name",
  lastName: "Last Name",
  email: "Email",
  phone: "Phone Number",
  hasTeam: "Do you have a team?",
  teamName: "Team Name (Team must have a maximum of 5 members)",
  nationalId: "National Identification Number",
  skill: "Your Skill",
  linkedin: "LinkedIn",
  portfolio: "Portfolio / Github link",
  major: "Your Major",
  university: "University Name (if you are a student)",
  tshirtSize: "T-Shirt Size",
} as const;

const selects = new Set(["hasTeam", "tshirtSize"]);

let counter = 0;
function person(over: Partial<Person> = {}): Person {
  counter += 1;
  return {
    name: "Amina",
    lastName: "Benali",
    email: `reg-${Date.now()}-${counter}@e2e.example`,
    phone: "0555123456",
    hasTeam: "yes",
    teamName: "Night Owls",
    nationalId: "109876543210",
    skill: "Machine learning",
    linkedin: "https://www.linkedin.com/in/amina",
    portfolio: "https://github.com/amina",
    major: "Computer Science",
    university: "USTHB",
    tshirtSize: "L",
    ...over,
  };
}

const field = (page: Page, key: keyof typeof labels) => page.getByLabel(labels[key], { exact: true });

async function fill(page: Page, values: Partial<Person>) {
  for (const [key, value] of Object.entries(values) as Array<[keyof typeof labels, string]>) {
    if (selects.has(key)) await field(page, key).selectOption(value);
    else await field(page, key).fill(value);
  }
}

async function rowsFor(email: string) {
  return sql`select * from registrations where lower(email) = lower(${email}) order by id`;
}

test.describe("registration", () => {
  test("a complete registration shows the thank-you card and is stored", async ({ page }) => {
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();
    await expect(page.getByText("Register using your personal information below. Make sure all details are accurate.")).toBeVisible();
    for (const key of Object.keys(labels) as Array<keyof typeof labels>) await expect(field(page, key)).toBeVisible();

    const visitor = person({ name: "محمد", lastName: "الأمين", phone: "0555 12 34 56" });
    await fill(page, visitor);
    // Hold the post until the full-screen "Saving..." indicator has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/register**", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Submit!" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saving..." })).toBeVisible();
    release();

    await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
    await expect(page.getByText("Registration completed successfully! Check your email for any news or updates.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit!" })).toHaveCount(0);

    const [row] = await rowsFor(visitor.email);
    expect(row).toMatchObject({
      name: "محمد",
      last_name: "الأمين",
      email: visitor.email,
      phone: "0555123456",
      national_id: "109876543210",
      skill: "Machine learning",
      tshirt_size: "L",
      has_team: true,
      team_name: "Night Owls",
      linkedin: "https://www.linkedin.com/in/amina",
      portfolio: "https://github.com/amina",
      major: "Computer Science",
      university: "USTHB",
      user_id: null,
    });
  });

  test("each missing required field is highlighted with the message, and nothing is stored", async ({ page }) => {
    test.slow(); // eight rounds of submit and check
    const required = ["name", "lastName", "email", "phone", "hasTeam", "nationalId", "skill", "tshirtSize"] as const;
    const visitor = person();
    await page.goto("/register");
    await fill(page, visitor);
    for (const missing of required) {
      if (selects.has(missing)) await field(page, missing).selectOption("");
      else await field(page, missing).fill("");
      await page.getByRole("button", { name: "Submit!" }).click();

      await expect(page.getByRole("alert")).toHaveText(REQUIRED_MESSAGE);
      await expect(field(page, missing)).toHaveAttribute("aria-invalid", "true");
      await expect(field(page, missing)).toHaveClass(/field__input--invalid/);
      for (const other of required.filter((key) => key !== missing)) {
        await expect(field(page, other)).not.toHaveAttribute("aria-invalid", "true");
      }
      await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();
      // Put it back: the highlight and the message go as soon as the field is filled.
      await fill(page, { [missing]: visitor[missing] });
      await expect(field(page, missing)).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert")).toHaveCount(0);
    }
    expect(await rowsFor(visitor.email)).toHaveLength(0);
  });

  test("has no accessibility violations, also with errors shown", async ({ page }) => {
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();
    expect((await axe(page).analyze()).violations).toEqual([]);
    await page.getByRole("button", { name: "Submit!" }).click();
    await expect(page.getByRole("alert")).toHaveText(REQUIRED_MESSAGE);
    expect((await axe(page).analyze()).violations).toEqual([]);
  });

  test("digits only for the phone number", async ({ page }) => {
    await page.goto("/register");
    const visitor = person({ phone: "+213 555" });
    await fill(page, visitor);
    await page.getByRole("button", { name: "Submit!" }).click();
    await expect(page.getByText("Use digits only")).toBeVisible();
    await expect(field(page, "phone")).toHaveAttribute("aria-invalid", "true");
    expect(await rowsFor(visitor.email)).toHaveLength(0);
  });

  test("a second registration with the same email is thanked as the first (nothing tells who registered), and kept for the admins to see", async ({ page }) => {
    const email = `dup-${Date.now()}@e2e.example`;
    await sql`insert into registrations (name, last_name, email, phone, national_id, skill, tshirt_size, has_team)
              values ('First', 'Comer', ${email}, '0555', '1234', 'AI', 'M', false)`;
    await page.goto("/register");
    const visitor = person({ email: email.toUpperCase() });
    await fill(page, visitor);
    await page.getByRole("button", { name: "Submit!" }).click();

    await expect(page.getByText("Registration completed successfully!")).toBeVisible();
    const rows = await rowsFor(email);
    expect(rows.map((row) => row.name)).toEqual(["First", visitor.name]);
  });
});

test.describe("registration without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server validates, keeps what was typed, then stores and thanks", async ({ page }) => {
    await page.goto("/register");
    const visitor = person({ hasTeam: "no", teamName: "" });
    const { skill: _skill, ...withoutSkill } = visitor;
    await fill(page, withoutSkill);
    await page.getByRole("button", { name: "Submit!" }).click();

    await expect(page.getByRole("alert")).toHaveText(REQUIRED_MESSAGE);
    await expect(field(page, "skill")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, "name")).toHaveValue(visitor.name);
    await expect(field(page, "email")).toHaveValue(visitor.email);
    await expect(field(page, "hasTeam")).toHaveValue("no");
    await expect(field(page, "tshirtSize")).toHaveValue(visitor.tshirtSize);
    expect(await rowsFor(visitor.email)).toHaveLength(0);

    await field(page, "skill").fill("Design");
    await page.getByRole("button", { name: "Submit!" }).click();
    await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
    const [row] = await rowsFor(visitor.email);
    expect(row).toMatchObject({ skill: "Design", has_team: false, team_name: null });
  });
});

test.describe("admin registrations", () => {
  test("search, counts, CSV export and accounts whose people choose their passwords by a mailed link", async ({ page }) => {
    test.slow(); // two logins, a download, a mail and argon2 hashing
    const stamp = Date.now();
    const email = `admin-view-${stamp}@e2e.example`;
    const team = `Crew ${stamp}`;
    await sql`insert into registrations (name, last_name, email, phone, national_id, skill, tshirt_size, has_team, team_name)
              values ('Yasmine', ${`Haddad${stamp}`}, ${email}, '0555', '1234', 'Design', 'XL', true, ${team})`;

    await signIn(page, logins.admin);
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Registrations" }).click();
    await expect(page.getByRole("heading", { name: "Registrations", level: 1 })).toBeVisible();
    await expect(page.getByText("T-shirt XL")).toBeVisible();
    expect((await axe(page).include(".dashboard__main").analyze()).violations).toEqual([]);

    await page.getByLabel("Search (name, email, team, skill)").fill(`haddad${stamp}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=haddad${stamp}`));
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(email);

    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^registrations-\d{4}-\d{2}-\d{2}\.csv$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.toString("utf8")).toContain(email);

    const since = Date.now();
    await page.getByLabel(`Select Yasmine Haddad${stamp}`).check();
    await page.getByRole("button", { name: "Create accounts for selected" }).click();
    await expect(page.getByRole("heading", { name: "1 account created" })).toBeVisible();
    // The e2e server mails (its own SMTP server): a link to choose a password, none shown or exported.
    const created = page.getByRole("table", { name: "New accounts, each mailed a link to choose its password" });
    const userName = (await created.locator("tbody td").nth(2).textContent())!.trim();
    expect(userName).toMatch(/^yasmine\.haddad\d+$/);
    await expect(created).toContainText(`${team} (new team)`);
    await expect(page.getByRole("link", { name: "Download logins (CSV)" })).toHaveCount(0);

    const [row] = await sql`select r.user_id, u.name, u.password_hash, u.email, t.name as team
                            from registrations r join users u on u.id = r.user_id left join teams t on t.id = u.team_id
                            where r.email = ${email}`;
    expect(row).toMatchObject({ name: userName, team, email });

    // The list now shows the account.
    await page.goto(`/dashboard/registrations?q=haddad${stamp}`);
    await expect(page.locator("tbody tr").first()).toContainText(userName);

    // The mailed link gives the login its password, and it works.
    const [mail] = await waitForMails(email, since);
    await page.getByRole("button", { name: /Logout/ }).click();
    // Wait for the logout to land: navigating away at once could cancel its POST.
    await expect(page).toHaveURL(/\/$/);
    await page.goto(linkIn(mail).url);
    await page.getByLabel("New password", { exact: true }).fill("yasmine-chose-this");
    await page.getByLabel("The new password again").fill("yasmine-chose-this");
    await page.getByRole("button", { name: "Save the password" }).click();
    await expect(page).toHaveURL(/\/login/);
    await login(page, { name: userName, password: "yasmine-chose-this" }, page.url());
  });
});
