/**
 * A table's rows as `it.each` arguments `[row.name, row]`, for a `"%s"` title: a `$name` title
 * quotes the name and cuts it after 40 characters, so cases that differ late read the same.
 */
export function named<T extends { readonly name: string }>(rows: readonly T[]): [string, T][] {
  return rows.map((row) => [row.name, row]);
}
