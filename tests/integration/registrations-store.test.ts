/** Storing registrations: duplicates, honeypot, per-IP rate limit, search, counts and the CSV export. */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations } from "../../db/schema.ts";
import { BOM, safeCell } from "../../app/modules/exports/csv-format.server.ts";
import { registrationsCsv } from "../../app/modules/registrations/csv.server.ts";
import {
  listRegistrations,
  register,
  registrationCounts,
  REGISTRATION_LIMIT,
} from "../../app/modules/registrations/registrations.server.ts";
import type { RegistrationInput } from "../../app/modules/registrations/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";

let counter = 0;
function input(over: Partial<RegistrationInput> = {}): RegistrationInput {
  counter += 1;
  return {
    name: "Amina",
    lastName: "Benali",
    email: `person${counter}@example.com`,
    phone: "0555123456",
    hasTeam: "no",
    nationalId: "109876543210",
    skill: "Problem solving",
    tshirtSize: "M",
    ...over,
  };
}

// Each test uses its own addresses: the limiter counts per IP.
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

/** A strict RFC 4180 reader (CRLF records, quoted cells with doubled quotes), to check what Excel would read. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let i = 0;
  const endCell = () => {
    record.push(cell);
    cell = "";
  };
  while (i < text.length) {
    if (text[i] === '"' && cell === "") {
      i++;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else {
          cell += text[i++];
        }
      }
    } else if (text[i] === ",") {
      endCell();
      i++;
    } else if (text.startsWith("\r\n", i)) {
      endCell();
      records.push(record);
      record = [];
      i += 2;
    } else {
      cell += text[i++];
    }
  }
  if (cell || record.length) {
    endCell();
    records.push(record);
  }
  return records;
}

const countRows = async () => (await getDb().select({ n: sql<number>`count(*)::int` }).from(registrations))[0].n;

describe("register", () => {
  it("stores every field, with hasTeam as a boolean and empty optional fields as null", async () => {
    const outcome = await register(
      input({ email: "store@example.com", hasTeam: "yes", teamName: " Night Owls ", linkedin: "https://linkedin.com/in/a", major: "" }),
      freshIp(),
    );
    expect(outcome.kind).toBe("created");
    const [row] = await getDb().select().from(registrations).where(eq(registrations.email, "store@example.com"));
    expect(row).toMatchObject({
      name: "Amina",
      hasTeam: true,
      teamName: "Night Owls",
      linkedin: "https://linkedin.com/in/a",
      major: null,
      portfolio: null,
      tshirtSize: "M",
      userId: null,
    });
    expect(row.createdAt).toBeInstanceOf(Date);
  });

  it("drops a team name typed with 'no team'", async () => {
    await register(input({ email: "noteam@example.com", hasTeam: "no", teamName: "Ghost" }), freshIp());
    const [row] = await getDb().select().from(registrations).where(eq(registrations.email, "noteam@example.com"));
    expect(row.teamName).toBeNull();
  });

  it("stores a second registration with the same email, in any case, as it stores the first (the answer tells nothing)", async () => {
    const ip = freshIp();
    expect((await register(input({ email: "twice@example.com" }), ip)).kind).toBe("created");
    expect((await register(input({ email: "Twice@Example.COM" }), ip, "ar")).kind).toBe("created");
    const rows = await getDb().select().from(registrations).where(sql`lower(${registrations.email}) = 'twice@example.com'`);
    expect(rows.map((row) => row.language)).toEqual(["en", "ar"]);
    // The admins' list marks both as the same address, whatever the search shows.
    const listed = await listRegistrations("Twice@Example.COM");
    expect(listed.filter((row) => row.email.toLowerCase() === "twice@example.com").map((row) => row.sameAddress)).toEqual([2, 2]);
  });

  it("pretends success when the honeypot is filled, and stores nothing", async () => {
    const before = await countRows();
    const outcome = await register(input({ email: "bot@example.com", website: "http://spam.example" }), freshIp());
    expect(outcome).toEqual({ kind: "ignored" });
    expect(await countRows()).toBe(before);
  });

  it(`accepts ${REGISTRATION_LIMIT.points} registrations per IP per hour, then asks to wait; other IPs go on`, async () => {
    const ip = freshIp();
    for (let i = 0; i < REGISTRATION_LIMIT.points; i++) {
      expect((await register(input(), ip)).kind).toBe("created");
    }
    const before = await countRows();
    const refused = await register(input({ email: "eleventh@example.com" }), ip);
    expect(refused.kind).toBe("rate-limited");
    if (refused.kind === "rate-limited") {
      expect(refused.retryAfterSeconds).toBeGreaterThan(60 * 59);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60 * 60);
    }
    expect(await countRows()).toBe(before);
    expect((await register(input({ email: "eleventh@example.com" }), freshIp())).kind).toBe("created");
  });

  it("counts duplicates against the limit too", async () => {
    const ip = freshIp();
    for (let i = 0; i < REGISTRATION_LIMIT.points; i++) expect((await register(input({ email: "probe@example.com" }), ip)).kind).toBe("created");
    expect((await register(input({ email: "probe@example.com" }), ip)).kind).toBe("rate-limited");
  });
});

describe("list, search and counts", () => {
  it("searches name, last name, email, team and skill, case-insensitively, and counts everything", async () => {
    const ip = freshIp();
    await register(input({ name: "Zed", lastName: "Quartz", email: "zq@search.example", skill: "Rust", hasTeam: "yes", teamName: "Lynx", tshirtSize: "XXL" }), ip);
    await register(input({ name: "Yara", lastName: "Opal", email: "yo@search.example", skill: "Design", tshirtSize: "S" }), ip);
    const names = async (q: string) => (await listRegistrations(q)).map((row) => row.name);
    expect(await names("quartz")).toEqual(["Zed"]);
    expect(await names("ZED quartz")).toEqual(["Zed"]);
    expect(await names("lynx")).toEqual(["Zed"]);
    expect(await names("design")).toEqual(["Yara"]);
    expect(await names("search.example")).toEqual(["Zed", "Yara"]);
    expect(await names("100%")).toEqual([]);
    expect(await names("_")).toEqual([]);

    const counts = await registrationCounts();
    const all = await listRegistrations();
    expect(counts.total).toBe(all.length);
    expect(counts.withTeam + counts.withoutTeam).toBe(counts.total);
    expect(counts.withTeam).toBe(all.filter((row) => row.hasTeam).length);
    expect(Object.values(counts.bySize).reduce((a, b) => a + b, 0)).toBe(counts.total);
    expect(counts.bySize.XXL).toBe(all.filter((row) => row.tshirtSize === "XXL").length);
    expect(counts.withAccount).toBe(0);
  });
});

describe("CSV export", () => {
  it("is UTF-8 with a BOM, CRLF, quoted where needed, Arabic intact, formulas defused", async () => {
    const ip = freshIp();
    await register(input({ name: "محمد", lastName: "الأمين", email: "arabic@csv.example", skill: "تصميم, \"UI\"", major: "Line one\nline two" }), ip);
    await register(input({ name: "=HYPERLINK(\"http://evil\")", lastName: "@Evil", email: "formula@csv.example", skill: "+sum" }), ip);
    const csv = registrationsCsv(await listRegistrations("csv.example"));
    expect(csv.startsWith(BOM)).toBe(true);
    expect(Buffer.from(csv, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv).toContain("\r\n");

    const records = parseCsv(csv.slice(BOM.length));
    const [header, arabic, formula] = records;
    expect(header.slice(0, 3)).toEqual(["Name", "Last Name", "Email"]);
    expect(arabic[0]).toBe("محمد");
    expect(arabic[1]).toBe("الأمين");
    expect(arabic[header.indexOf("Skill")]).toBe("تصميم, \"UI\"");
    expect(arabic[header.indexOf("Major")]).toBe("Line one\nline two");
    expect(arabic[header.indexOf("Has Team")]).toBe("no");
    expect(arabic[header.indexOf("Phone Number")]).toBe("0555123456");
    expect(formula[0]).toBe("'=HYPERLINK(\"http://evil\")");
    expect(formula[1]).toBe("'@Evil");
    expect(formula[header.indexOf("Skill")]).toBe("'+sum");
    expect(csv).toContain('"تصميم, ""UI"""');
  });

  it("leaves ordinary cells alone", () => {
    expect(safeCell("Amina")).toBe("Amina");
    expect(safeCell(null)).toBe("");
    expect(safeCell(true)).toBe("yes");
    expect(safeCell("-1")).toBe("'-1");
  });
});
