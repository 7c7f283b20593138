/**
 * A translated text whose `code` spans (between backticks) are shown as code, left to right: field names,
 * values and headers stay as they are written in either language (the API's descriptions, the import's
 * columns, a webhook's header).
 */
export function withCode(text: string) {
  return text.split("`").map((part, index) =>
    index % 2 ? (
      <code key={index} dir="ltr">
        {part}
      </code>
    ) : (
      part
    ),
  );
}
