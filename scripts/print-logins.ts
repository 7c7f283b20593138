import { demoLogins, demoParticipants } from "./demo-event.ts";

const url = process.argv[2] ?? "http://localhost:3000";
const participants = demoParticipants();
console.log(`
Gatekeeper is running at ${url}

Demo logins
  admin        ${demoLogins.admin.name} / ${demoLogins.admin.password}
  judge        ${demoLogins.judge.name} / ${demoLogins.judge.password}
  mentor       ${demoLogins.mentor.name} / ${demoLogins.mentor.password}
  participants ${participants.map((p) => p.name).join(", ")}
               password for each: ${demoLogins.participantPassword}

Mail (set-password links, "Forgot your password?") goes to the project's own SMTP server:
  read it at ${url}/dashboard/mailbox as the admin. Each demo user's address is <name>@demo.gatekeeper.example.

Press Ctrl-C to stop.
`);
