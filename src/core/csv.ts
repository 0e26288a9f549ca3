// CSV for result documents that spreadsheets open: quoting and formula neutralisation.

/**
 * One CSV field: quoted when needed, and a formula start neutralised for spreadsheets, also after
 * leading whitespace (spreadsheets trim it and still evaluate " =cmd|...").
 */
export function csvField(value: string): string {
  const safe = /^[\s\u0000-\u001f]*[=+\-@]|^[\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
