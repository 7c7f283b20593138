/**
 * A signed-in browser on the scoreboard: the page's data first, then its live connection as the app's
 * SocketProvider opens it (reconnecting by itself, 1 s to 5 s between attempts). Like the page, it
 * re-reads the board after a reconnect and on `standings:refresh`; like the layout, it re-reads the
 * unread-announcement count then too, and counts each `new_announcement` in between. It records what a
 * drill needs: drops, reconnects, the newest standing of every team, the unread count, and when each
 * probe notification arrived.
 */
import { io, type Socket } from "socket.io-client";
import type { ServerToClientEvents, TeamStanding } from "../../../app/modules/realtime/events.ts";

export interface LiveClientOptions {
  /** ["websocket"] by default (what the browser opens first); ["polling"]: a network that blocks WebSockets. */
  transports?: Array<"websocket" | "polling">;
  /** What the root loader's unread-announcement count is for this user (app code, same Postgres). */
  readUnread?: () => Promise<number>;
}

export class LiveClient {
  readonly drops: number[] = [];
  readonly reconnects: number[] = [];
  /** The newest standing per team (the client keeps the higher version, as the scoreboard does). */
  readonly standings = new Map<number, TeamStanding>();
  readonly probes = new Map<string, number>();
  refreshes = 0;
  resyncs = 0;
  /** The unread-announcement count the page shows (when `readUnread` was given). */
  unread = 0;
  /** Announcements received live, by id. */
  readonly announcements = new Set<number>();
  private readonly socket: Socket<ServerToClientEvents>;

  private constructor(
    readonly label: string,
    url: string,
    cookie: string,
    private readonly readBoard: () => Promise<TeamStanding[]>,
    private readonly options: LiveClientOptions,
  ) {
    this.socket = io(url, {
      transports: options.transports ?? ["websocket"],
      extraHeaders: { cookie },
      forceNew: true,
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
    });
    let connectedBefore = false;
    this.socket.on("connect", () => {
      if (connectedBefore) {
        this.reconnects.push(Date.now());
        void this.reread();
      }
      connectedBefore = true;
    });
    this.socket.on("disconnect", () => void this.drops.push(Date.now()));
    this.socket.on("teams:update", (team) => this.keep(team));
    this.socket.on("resync", () => {
      this.resyncs++;
      void this.reread();
    });
    this.socket.on("standings:refresh", () => {
      this.refreshes++;
      void this.reread();
    });
    this.socket.on("new_announcement", ({ id }) => {
      this.announcements.add(id);
      this.unread++;
    });
    this.socket.on("notification", ({ message }) => {
      if (!this.probes.has(message)) this.probes.set(message, Date.now());
    });
  }

  /** `readBoard` is what the scoreboard page's loader returns for this user (app code, same Redis and Postgres). */
  static async connect(label: string, url: string, cookie: string, readBoard: () => Promise<TeamStanding[]>, options: LiveClientOptions = {}): Promise<LiveClient> {
    const client = new LiveClient(label, url, cookie, readBoard, options);
    await new Promise<void>((resolve, reject) => {
      client.socket.once("connect", () => resolve());
      client.socket.once("connect_error", reject);
    });
    await client.reread();
    return client;
  }

  /** Re-reads in flight, so a drill can wait for the last one. */
  private rereads: Promise<void> = Promise.resolve();

  /** What the page's revalidation does. A failed read (Redis still down) waits for the next hint, as a page would. */
  reread(): Promise<void> {
    this.rereads = this.rereads.then(async () => {
      const [teams, unread] = await Promise.all([this.readBoard().catch(() => []), this.options.readUnread?.().catch(() => undefined)]);
      for (const team of teams) this.keep(team);
      // The loader's count replaces whatever was counted live (UnreadAnnouncementsProvider).
      if (unread !== undefined) this.unread = unread;
    });
    return this.rereads;
  }

  private keep(team: TeamStanding) {
    const known = this.standings.get(team.id);
    if (!known || known.version < team.version) this.standings.set(team.id, team);
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** "websocket" or "polling" while connected. */
  get transport(): string | undefined {
    return this.socket.io.engine?.transport?.name;
  }

  /** When the first probe sent at or after `since` arrived, or undefined. */
  firstProbeAfter(since: number): number | undefined {
    const arrivals = [...this.probes.entries()].filter(([message]) => Number(message.split(" ").at(-1)) >= since).map(([, at]) => at);
    return arrivals.length ? Math.min(...arrivals) : undefined;
  }

  close() {
    this.socket.disconnect();
  }
}
