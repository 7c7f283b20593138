/**
 * Live path: the delay from a judge's score to each client's `teams:update`.
 *   node --import tsx bench/live-path.ts [--clients N] [--webs N] [--workers N] [--scores N] [--interval MS]
 * Starts its own web and worker processes on a fresh database and Redis prefix, connects N
 * socket.io clients spread over the web processes, scores at a steady rate, and prints the
 * distribution of delays (ms) over every (score, client) pair, plus any client that missed one.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { scoreSubmission } from "../app/modules/scoring/scoring.server.ts";
import { rebuildStandings } from "../app/modules/standings/rebuild.server.ts";
import { closeDb } from "../app/utils/db.server.ts";
import { closeEmitter } from "../app/utils/emitter.server.ts";
import { closeQueues } from "../app/utils/queue.server.ts";
import { closeRedis } from "../app/utils/redis.server.ts";
import { ensureEventSettings, makeChallenge, makeSubmission, makeTeam, makeUser, sessionCookie } from "../tests/support/fixtures.ts";
import { connectSocket, startRealtimeServer, startWorker, stopAll, type TestSocket } from "../tests/support/processes.ts";
import { createBenchWorld, summarise } from "./lib/env.ts";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "50" },
    webs: { type: "string", default: "1" },
    workers: { type: "string", default: "1" },
    scores: { type: "string", default: "200" },
    interval: { type: "string", default: "50" },
    teams: { type: "string", default: "20" },
    out: { type: "string" },
  },
});
const config = {
  clients: Number(values.clients),
  webs: Number(values.webs),
  workers: Number(values.workers),
  scores: Number(values.scores),
  intervalMs: Number(values.interval),
  teams: Number(values.teams),
};

const world = await createBenchWorld("live");
const sockets: TestSocket[] = [];
try {
  await ensureEventSettings();
  const judge = await makeUser("judge");
  const challenge = await makeChallenge({ points: 1000 });
  const teamRows = [];
  const submissionRows = [];
  for (let index = 0; index < config.teams; index++) {
    const team = await makeTeam();
    teamRows.push(team);
    submissionRows.push(await makeSubmission(team.id, challenge.id, null));
  }
  const viewer = await makeUser("participant", teamRows[0].id);
  await rebuildStandings();

  const webs = await Promise.all(Array.from({ length: config.webs }, () => startRealtimeServer(world.env)));
  await Promise.all(Array.from({ length: config.workers }, () => startWorker(world.env)));
  const cookie = await sessionCookie(viewer.id);
  for (let index = 0; index < config.clients; index++) sockets.push(await connectSocket(webs[index % webs.length].url, cookie));

  // sent[i] = when score i was sent; each client records when it saw the update that carries it.
  const sent: number[] = [];
  const delays: number[] = [];
  const seen = sockets.map(() => new Set<number>());
  sockets.forEach((socket, clientIndex) => {
    socket.on("teams:update", (team) => {
      const at = performance.now();
      // The score's value encodes its sequence number: total = (i + 1) / 100 points... see below.
      const sequence = Math.round(team.totalScore * 100) - 1;
      if (sequence >= 0 && sequence < sent.length && !seen[clientIndex].has(sequence)) {
        seen[clientIndex].add(sequence);
        delays.push(at - sent[sequence]);
      }
    });
  });

  for (let index = 0; index < config.scores; index++) {
    const submission = submissionRows[index % submissionRows.length];
    sent[index] = performance.now();
    // A distinct total per score (index + 1 hundredths) identifies which score an update carries.
    void scoreSubmission({ submissionId: submission.id, judgeId: judge.id, score: ((index + 1) / 100).toFixed(2) });
    await new Promise((resolve) => setTimeout(resolve, config.intervalMs));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const expected = config.scores * config.clients;
  const missing = expected - delays.length;
  const stats = summarise(delays);
  const result = { benchmark: "live-path", config, ...stats, expected, received: delays.length, missing, at: new Date().toISOString() };
  console.table([{ clients: config.clients, webs: config.webs, workers: config.workers, scores: config.scores, p50_ms: stats.p50.toFixed(1), p90_ms: stats.p90.toFixed(1), p99_ms: stats.p99.toFixed(1), max_ms: stats.max.toFixed(1), missing }]);
  if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 2));
} finally {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  await world.drop();
}
process.exit(0);
