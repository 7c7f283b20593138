import { data } from "@remix-run/node";
import { getLogger } from "../infrastructure/logger.server.ts";

/**
 * Runs a screen's read and turns an unexpected failure (the database gone, a bug) into a 500 whose
 * message the screen shows as "Error: {message}". Production hides an Error's own message
 * from the browser, so the screen could otherwise only say "Unexpected Server Error". The cause is logged.
 */
export async function loadOrFail<T>(read: () => Promise<T>, message: string, context: Record<string, unknown> = {}): Promise<T> {
  try {
    return await read();
  } catch (error) {
    getLogger().error({ err: error, ...context }, "screen data failed to load");
    throw data({ message }, { status: 500 });
  }
}
