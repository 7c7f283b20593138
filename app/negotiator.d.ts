/** negotiator (installed with Express) ships no types: the one call app/glue/language.server.ts makes. */
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    language(available?: string[]): string | undefined;
  }
}
