import type { LoaderFunctionArgs } from "@remix-run/node";
import { challengeAttachment } from "~/modules/challenges/challenges.server";
import { messages } from "~/modules/messages";
import { requirePage } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { translateMessage } from "~/modules/i18n/server-messages";
import { fileDownloadRedirect } from "~/glue/submission-download.server";
import { parseRowId } from "~/modules/ids";

/** An admin downloads a challenge's attachment: checked here, then a short-lived presigned URL. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePage(request);
  const id = parseRowId(params.id);
  const file = id ? await challengeAttachment(id) : null;
  if (!file) {
    // A plain answer to a download link, in the reader's language (docs/decisions/025-english-and-arabic.md).
    const language = languageOf(request);
    throw new Response(translateMessage(messages.dashboard.noAttachment, language), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Content-Language": language, Vary: "Cookie, Accept-Language" },
    });
  }
  return fileDownloadRedirect(file);
}
