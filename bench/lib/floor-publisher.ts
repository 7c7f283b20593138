/**
 * The live-path benchmark's floor publisher: what a standings worker does to publish `teams:update`, and
 * nothing else. @socket.io/redis-emitter on its own ioredis connection, as app/infrastructure/emitter.server.ts
 * builds it, emitting to the rooms app/modules/realtime/broadcast.server.ts names for a live board (every
 * role's), a payload of the shape and size of a real update. Talks to the benchmark over IPC:
 *
 *   → { type: "publish", key, teams: [teamId, centi][], ratePerSecond, payloadBytes? }   ← { type: "published", sentAt: number[] }
 *
 * `payloadBytes`: the size of the app's updates as the clients received them (JSON), which the floor's match
 * (the team's name padded or cut; without it, the name the seed gives).
 *
 * Each `sentAt` (absolute ms, performance.timeOrigin + now, as the socket shards stamp) is taken just before
 * its emit; one emit per slot at the rate, however long the previous one took.
 */
import { Emitter } from "@socket.io/redis-emitter";
import { Redis } from "ioredis";
import type { TeamStanding } from "../../app/modules/realtime/events.ts";

type Message = { type: "publish"; key: string; teams: Array<[number, number]>; ratePerSecond: number; payloadBytes?: number };

// The app's "command" purpose (app/infrastructure/redis.server.ts), the connection the worker's emitter uses.
const redis = new Redis(process.env.REDIS_URL!, { lazyConnect: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
redis.on("error", () => {});
const emitters = new Map<string, Emitter>();
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const everyone = ["participants", "judges", "admins", "mentors"];

/** A standing as the job publishes it (app/modules/standings/compute.server.ts toTeamStanding), for this team and total. */
function standing(teamId: number, centi: number, index: number, bytes?: number): TeamStanding {
  const total = centi / 100;
  const team: TeamStanding = {
    id: teamId,
    version: centi,
    name: `Team ${teamId}`,
    totalScore: total,
    categories: { AI: total, CS: 0, PS: 0, GD: 0 },
    solvedCount: 1,
    rank: 1 + (index % 250),
    reachedAt: new Date().toISOString(),
    division: null,
  };
  if (bytes) {
    const missing = bytes - JSON.stringify(team).length;
    team.name = missing >= 0 ? team.name + "x".repeat(missing) : team.name.slice(0, Math.max(1, team.name.length + missing));
  }
  return team;
}

process.on("message", async (message: Message) => {
  if (message.type !== "publish") return;
  let emitter = emitters.get(message.key);
  if (!emitter) emitters.set(message.key, (emitter = new Emitter(redis, { key: message.key })));
  const sentAt: number[] = [];
  const intervalMs = 1000 / message.ratePerSecond;
  const start = performance.now();
  for (const [index, [teamId, centi]] of message.teams.entries()) {
    const wait = start + index * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    const payload = standing(teamId, centi, index, message.payloadBytes);
    sentAt.push(now());
    emitter.to(everyone).emit("teams:update", payload);
  }
  process.send!({ type: "published", sentAt });
});

process.on("disconnect", () => {
  void redis.quit().finally(() => process.exit(0));
});
