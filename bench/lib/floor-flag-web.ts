/**
 * bench:flags' floor (bench/flags.ts): the least a flag answer's HTTP handler can do, a bare node:http server
 * that reads the JSON body and stores the attempt, one row of flag_attempts, with postgres.js (a pool of the
 * web process's size, prepared statements as the app's), and answers a small JSON. No Express, no Remix, no
 * session, no check of the answer: its server CPU per request is what the app's verdict is compared with.
 * The bench names the team and the user in headers (it has no sign-in).
 *
 *   PORT, DATABASE_URL, DATABASE_POOL_MAX (10 unless set, as the app's)
 */
import { createServer } from "node:http";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_MAX ?? 10), onnotice: () => {} });
const PATH = /^\/api\/v1\/challenges\/(\d+)\/flag$/;

const server = createServer((req, res) => {
  const match = PATH.exec(req.url ?? "");
  if (req.method !== "POST" || !match) {
    res.writeHead(req.url === "/healthz" ? 200 : 404, { "content-type": "application/json" }).end('{"status":"ok"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    void (async () => {
      try {
        const { answer } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { answer: string };
        const teamId = Number(req.headers["x-bench-team"]);
        const userId = Number(req.headers["x-bench-user"]);
        await sql`insert into flag_attempts (team_id, user_id, challenge_id, verdict, answer) values (${teamId}, ${userId}, ${Number(match[1])}, 'incorrect', ${answer})`;
        res.writeHead(200, { "content-type": "application/json" }).end('{"verdict":"incorrect"}');
      } catch {
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"floor"}');
      }
    })();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT));

process.on("SIGTERM", () => {
  server.close();
  void sql.end({ timeout: 2 }).then(() => process.exit(0));
});
