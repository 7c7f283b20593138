/**
 * What Dashboard → Users shows: every user with their live sessions counted, the teams to choose from,
 * the user being edited (never the password hash: the form shows a blank password) and the one being
 * viewed, with their sessions and the mail sent to them (whether the SMTP server took it), and whether
 * this server sends mail at all.
 */
import { readParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { countLiveSessions, listSessionsOf } from "../auth/sessions.server.ts";
import { listTeams } from "../teams/teams.server.ts";
import { listMailsOf, mailIsOn } from "../mail/mails.server.ts";
import { getUser, listUsers } from "./users.server.ts";

export async function readUsersPage(admin: { id: number; sessionId: number | null }, editId: number | null, viewId: number | null) {
  const [users, teams, editing, viewing, sessions, signedIn, mails, passwords] = await Promise.all([
    listUsers(),
    listTeams(),
    editId ? getUser(editId) : null,
    viewId ? getUser(viewId) : null,
    viewId ? listSessionsOf(viewId) : [],
    countLiveSessions(),
    viewId ? listMailsOf(viewId) : [],
    readParticipantPasswords(),
  ]);
  return {
    me: admin.id,
    mailOn: mailIsOn(),
    // Passwords off for participants: a participant's mailed link confirms the address instead (docs/domain.md).
    providerOnly: passwords.providerOnly,
    mySession: admin.sessionId,
    users: users.map((user) => ({ ...user, sessions: signedIn.get(user.id) ?? 0 })),
    teams: teams.map((team) => ({ id: team.id, name: team.name })),
    editing: editing ? { id: editing.id, name: editing.name, email: editing.email, emailConfirmed: editing.emailConfirmed, language: editing.language, role: editing.role, teamId: editing.teamId } : null,
    viewing: viewing
      ? {
          ...viewing,
          createdAt: viewing.createdAt.toISOString(),
          sessions: sessions.map((session) => ({ ...session, createdAt: session.createdAt.toISOString(), lastUsedAt: session.lastUsedAt.toISOString() })),
          mails,
        }
      : null,
  };
}

export type UsersPage = Awaited<ReturnType<typeof readUsersPage>>;
