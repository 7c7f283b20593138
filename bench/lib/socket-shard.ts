/**
 * A child process holding a share of the live-path benchmark's socket.io clients, so that no single
 * client process's event loop (1,000 sockets, 10,000 messages a second) adds its own queueing to the
 * delays measured. Talks to the benchmark over IPC:
 *
 *   → { type: "connect", urls, cookies }           ← { type: "connected" }   (again: another set of sockets, kept beside the first)
 *   → { type: "expect", values: [teamId, centi][] } (a run starts: the update each team must carry)
 *   → { type: "collect" }                           ← { type: "deliveries", teams, at, webs, webUrls, payloadBytes } (parallel arrays;
 *                                                      webs[i]: the index in webUrls of the server whose socket had it)
 *
 * Solves (bench/flags.ts): a team's k-th solve reaches a socket when an update (`teams:update`, or a team of a
 * `teams:batch`) first shows the team with at least k solved. The shard keeps when, for every socket:
 *   → { type: "expectSolves" }                      (from now on; forgets what it held)
 *   → { type: "collectSolves", sent: [teamId, k, sentAt][] }
 *                                                   ← { type: "solveDelays", histogram: [tenthOfMs, count][], delivered, missing, late, max }
 *                                                      (each delivery's delay from its solve's sentAt, by tenths of a ms;
 *                                                      missing: (solve, socket) pairs not seen; late: over 1 s)
 *
 * Times are absolute (performance.timeOrigin + now, in ms): comparable across processes of one machine.
 */
import { io, type Socket } from "socket.io-client";
import type { ServerToClientEvents } from "../../app/modules/realtime/events.ts";

type Message =
  | { type: "connect"; urls: string[]; cookies: string[] }
  | { type: "expect"; values: Array<[number, number]> }
  | { type: "collect" }
  | { type: "expectSolves" }
  | { type: "collectSolves"; sent: Array<[number, number, number]> };

const now = () => performance.timeOrigin + performance.now();
const sockets: Array<Socket<ServerToClientEvents>> = [];
// Per socket, the index in webUrls of the server it is connected to.
const webOf: number[] = [];
const webUrls: string[] = [];
let expected = new Map<number, number>();
// Per socket, the teams whose expected update it has seen (and when).
let seen: Array<Map<number, number>> = [];
// The size of an expected update as received (its JSON), the largest this run: the floor's payload must match the app's.
let payloadBytes = 0;
// Solves: per socket, each team's highest solved count seen, and when each count was first reached (solveKey → at).
let trackSolves = false;
let solvedSeen: Array<Map<number, number>> = [];
let solvedAt: Array<Map<number, number>> = [];
/**
 * A team's k-th solve as one number: the shard's own bookkeeping is part of the machine's load. In V8 profiles of a
 * shard over bench:flags's live run (1 Dec 2026, docs/PERFORMANCE.md "Flag answers"), `takeSolves` took 14 % of its
 * busy time with a string key for each delivery ("team:k"), and 10 % with this.
 */
function solveKey(teamId: number, k: number): number {
  if (k >= 65_536) throw new Error(`socket-shard: solve ${k} of team ${teamId} is past what a key holds`);
  return teamId * 65_536 + k;
}

function takeSolves(index: number, team: { id: number; solvedCount: number }, at: number) {
  const best = solvedSeen[index].get(team.id) ?? 0;
  if (team.solvedCount <= best) return;
  for (let k = best + 1; k <= team.solvedCount; k++) solvedAt[index].set(solveKey(team.id, k), at);
  solvedSeen[index].set(team.id, team.solvedCount);
}

function connect(url: string, cookie: string, index: number): Promise<void> {
  const socket: Socket<ServerToClientEvents> = io(url, { transports: ["websocket"], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  sockets[index] = socket;
  if (!webUrls.includes(url)) webUrls.push(url);
  webOf[index] = webUrls.indexOf(url);
  socket.on("teams:batch", (batch) => {
    const at = now();
    if (trackSolves) for (const team of batch.teams) takeSolves(index, team, at);
  });
  socket.on("teams:update", (team) => {
    const at = now();
    if (trackSolves) takeSolves(index, team, at);
    if (expected.get(team.id) !== Math.round(team.totalScore * 100)) return;
    const mine = seen[index];
    if (!mine.has(team.id)) mine.set(team.id, at);
    if (payloadBytes === 0) payloadBytes = JSON.stringify(team).length;
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
}

process.on("message", async (message: Message) => {
  if (message.type === "connect") {
    const first = sockets.length;
    seen.push(...message.cookies.map(() => new Map<number, number>()));
    for (let index = 0; index < message.cookies.length; index += 50) {
      await Promise.all(
        message.cookies.slice(index, index + 50).map((cookie, offset) => connect(message.urls[(index + offset) % message.urls.length], cookie, first + index + offset)),
      );
    }
    process.send!({ type: "connected" });
  } else if (message.type === "expect") {
    expected = new Map(message.values);
    seen = sockets.map(() => new Map());
    payloadBytes = 0;
  } else if (message.type === "collect") {
    const teams: number[] = [];
    const at: number[] = [];
    const webs: number[] = [];
    for (const [index, mine] of seen.entries()) {
      for (const [team, time] of mine) {
        teams.push(team);
        at.push(time);
        webs.push(webOf[index]);
      }
    }
    process.send!({ type: "deliveries", teams, at, webs, webUrls, payloadBytes });
  } else if (message.type === "expectSolves") {
    trackSolves = true;
    solvedSeen = sockets.map(() => new Map());
    solvedAt = sockets.map(() => new Map());
  } else if (message.type === "collectSolves") {
    const histogram = new Map<number, number>();
    let delivered = 0;
    let missing = 0;
    let late = 0;
    let max = 0;
    for (const seen of solvedAt) {
      for (const [team, k, sentAt] of message.sent) {
        const at = seen.get(solveKey(team, k));
        if (at === undefined) {
          missing++;
          continue;
        }
        const delay = at - sentAt;
        const tenth = Math.max(0, Math.round(delay * 10));
        histogram.set(tenth, (histogram.get(tenth) ?? 0) + 1);
        delivered++;
        if (delay > 1000) late++;
        if (delay > max) max = delay;
      }
    }
    process.send!({ type: "solveDelays", histogram: [...histogram], delivered, missing, late, max });
  }
});

process.on("disconnect", () => {
  for (const socket of sockets) socket.disconnect();
  process.exit(0);
});
