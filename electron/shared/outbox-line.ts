// How an outbox entry is named, the same on the page and in `sitewalk outbox`: its summary, and
// the site's name with it when the summary gives only the service ID. An edit that keeps the name
// is summarised "Edit site 100023: 26 m"; a crew knows that tower as "Clyde Park".

/** The site's name to say with the summary; null when the summary names the site already, or no name is known. */
export function siteNameToAdd(summary: string, siteName: string | null | undefined): string | null {
  const name = siteName?.trim() ?? '';
  return name !== '' && !summary.includes(`'${name}'`) ? name : null;
}

/** The entry in one line, its site's name first as the page shows it above the summary: "Clyde Park — Edit site 100023: 26 m". */
export function entryLine(summary: string, siteName: string | null | undefined): string {
  const name = siteNameToAdd(summary, siteName);
  return name === null ? summary : `${name} — ${summary}`;
}
