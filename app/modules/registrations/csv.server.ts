/**
 * CSV files for the organisers (decision 006): UTF-8 with a byte-order mark so Excel shows Arabic
 * and accented names correctly, CRLF line ends and RFC 4180 quoting (csv-stringify), and cells that
 * a spreadsheet would run as a formula are defused with a leading apostrophe (OWASP CSV injection).
 */
import { stringify } from "csv-stringify/sync";
import type { RegistrationRow } from "./registrations.server.ts";

export const BOM = "\uFEFF";

/** A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function toCsv(header: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  return (
    BOM +
    // csv-stringify quotes a cell holding a comma, a quote or a line break, doubling its quotes.
    stringify([header, ...rows.map((row) => row.map(safeCell))], { record_delimiter: "windows" })
  );
}

export const REGISTRATION_CSV_HEADER = [
  "Name",
  "Last Name",
  "Email",
  "Phone Number",
  "National Identification Number",
  "Skill",
  "T-Shirt Size",
  "Has Team",
  "Team Name",
  "LinkedIn",
  "Portfolio / Github link",
  "Major",
  "University",
  "Account",
  "Registered At (UTC)",
];

export function registrationsCsv(rows: RegistrationRow[]): string {
  return toCsv(
    REGISTRATION_CSV_HEADER,
    rows.map((row) => [
      row.name,
      row.lastName,
      row.email,
      row.phone,
      row.nationalId,
      row.skill,
      row.tshirtSize,
      row.hasTeam,
      row.teamName,
      row.linkedin,
      row.portfolio,
      row.major,
      row.university,
      row.userName,
      row.createdAt.toISOString(),
    ]),
  );
}

/** A file name with today's date, e.g. registrations-2026-04-20.csv. */
export function csvFileName(prefix: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.csv`;
}

export interface CreatedAccountCsvRow {
  fullName: string;
  email: string;
  userName: string;
  password: string;
  teamName: string | null;
}

/** A CSV as a data: URL: a download built in the response itself, so a one-time secret is never stored. */
export function csvDataUrl(csv: string): string {
  return `data:text/csv;charset=utf-8;base64,${Buffer.from(csv, "utf8").toString("base64")}`;
}

/** The one-time list of new logins, as a data: URL the result page offers for download (never stored). */
export function accountsCsvDataUrl(accounts: CreatedAccountCsvRow[]): string {
  return csvDataUrl(
    toCsv(
      ["Full Name", "Email", "Username", "Password", "Team"],
      accounts.map((account) => [account.fullName, account.email, account.userName, account.password, account.teamName]),
    ),
  );
}
