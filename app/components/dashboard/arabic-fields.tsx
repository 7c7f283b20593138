import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useT } from "~/components/i18n";
import { Field, TextareaField } from "~/components/ui/field";

/**
 * The Arabic beside an English text in a dashboard form (docs/domain.md "Event content in two languages"):
 * its inputs carry the text's own direction and Arabic as their language; the help line says who reads it.
 */
export const arabicInput = { dir: "auto", lang: "ar" } as const;

export function ArabicHelp() {
  const { t } = useT();
  return <p className="muted">{t("dashboardMisc.arabic.help")}</p>;
}

type TextField = FieldMetadata<string | undefined>;

/**
 * The Arabic fields of a form: a one-line title (`title`) and a longer text (`text`, labelled by `textLabel`),
 * either optional, with the help line (`help={false}`: said once above several forms instead).
 */
export function ArabicTextFields({
  title,
  text,
  textLabel,
  rows = 3,
  help = true,
}: {
  title?: TextField;
  text?: TextField;
  textLabel: "dashboardMisc.arabic.descriptionAr" | "dashboardMisc.arabic.contentAr" | "dashboardMisc.arabic.messageAr";
  rows?: number;
  help?: boolean;
}) {
  const { t } = useT();
  return (
    <>
      {title ? <Field label={t("dashboardMisc.arabic.titleAr")} inputProps={{ ...getInputProps(title, { type: "text" }), ...arabicInput }} errors={title.errors} /> : null}
      {text ? <TextareaField label={t(textLabel)} textareaProps={{ ...getTextareaProps(text), rows, ...arabicInput }} errors={text.errors} /> : null}
      {help ? <ArabicHelp /> : null}
    </>
  );
}
