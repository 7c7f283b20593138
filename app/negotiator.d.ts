/** negotiator (installed with Express) ships no types: the calls app/glue/language.server.ts and scoreboard-feed.server.ts make. */
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    language(available?: string[]): string | undefined;
    encoding(available?: string[]): string | undefined;
  }
}
