/**
 * HTML of a message for an iframe with an empty sandbox: a Content-Security-Policy forbids
 * scripts and every remote load (images, fonts, styles), so opening a mail reveals nothing.
 */
export function sandboxedHtml(html: string): string {
  const csp = "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:";
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"></head><body>${html}</body></html>`;
}
