/**
 * A long list read a page at a time (the dashboard's submissions, the organisers' queue): which page is
 * shown and which rows of the whole it holds. A page past the last is the last; a page not asked for is
 * the first; an empty list has one page, with nothing on it.
 */

/** Where a page of a list stands: its number, how many there are, and which rows of the whole it holds. */
export interface ListPage {
  page: number;
  pages: number;
  /** Rows the list holds in all. */
  total: number;
  from: number;
  to: number;
}

/** The page asked for of a list of `total` rows, `size` a page, read with `read(limit, offset)`. */
export async function readListPage<Row>(
  total: number,
  requested: number | undefined,
  size: number,
  read: (limit: number, offset: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; page: ListPage }> {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(requested ?? 1, pages);
  const offset = (page - 1) * size;
  const rows = await read(size, offset);
  return { rows, page: { page, pages, total, from: rows.length === 0 ? 0 : offset + 1, to: offset + rows.length } };
}
