import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionReply } from "~/components/action-reply";
import { ImportScreen } from "~/components/dashboard/import-screen";
import { fileRefused, previewImport, runImport, type ImportCheck, type ImportDone, type ImportPreview } from "~/modules/imports/import-flow.server";
import { ImportFormSchema } from "~/modules/imports/schema";
import { pageTitle } from "~/modules/i18n/i18n";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { SECRET_PAGE_HEADERS, secretPageHeaders } from "~/glue/secret-pages.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardFailureOf } from "~/glue/failures.server";
import { readImportForm } from "~/glue/import-form.server";

const m = messages.imports;

/** The page shows a secret once: neither it nor its `.data` answer may be kept by a cache. */
export const headers = secretPageHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "importPage.pageTitle") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return null;
}

/** The preview posts the file; the import posts its content back from the preview page and is checked again. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const { formData, file: read, fileError } = await readImportForm(request);
  const form = ImportFormSchema.safeParse(Object.fromEntries([...formData].filter(([, value]) => typeof value === "string")));
  if (!form.success) throw new Response("Bad request", { status: 400 });
  const { intent, kind } = form.data;
  const preview = (check: ImportCheck, content = "", fileName = "", status = 200) =>
    data<ImportPreview>({ step: "preview", kind, check, content, fileName }, { status, headers: SECRET_PAGE_HEADERS });

  const file = fileError ? null : read;
  if (!file) return preview(fileRefused(fileError ?? m.fileRequired), "", "", fileError ? 413 : 400);
  const { content, fileName } = file;

  if (intent === "preview") {
    const check = await previewImport(kind, content, fileName);
    return preview(check, content, fileName, check.fileError || check.issues.length ? 400 : 200);
  }
  try {
    const result = await runImport(actor, kind, content, fileName);
    if (!result.ok) return preview(result.check, content, fileName, 400);
    if (result.done.kind === "challenges") return data<ImportDone>(result.done);
    // The page carries passwords: no cache may keep it.
    return data<ImportDone>(result.done, { headers: SECRET_PAGE_HEADERS });
  } catch (error) {
    const failed = dashboardFailureOf(error, `${kind} import failed`, m.failed);
    return preview(fileRefused(failed.message), content, fileName, failed.status);
  }
}

export default function Import() {
  return <ImportScreen result={useActionReply<typeof action>()} />;
}
