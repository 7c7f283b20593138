/** The registrations export and the one-time list of new logins (decision 006). */
import { csvDataUrl, toCsv } from "../exports/csv-format.server.ts";
import type { RegistrationRow } from "./registrations.server.ts";

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

export interface CreatedAccountCsvRow {
  fullName: string;
  email: string;
  userName: string;
  password: string;
  teamName: string | null;
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
