import { simpleParser } from "mailparser";

const MAX_SOURCE_CHARS = 200_000;

/**
 * The original e-mail for display: its HTML (shown only inside a sandboxed frame with a policy
 * that blocks scripts and remote content), its text, and its raw source, cut to a readable size.
 */
export async function originalEmail(raw: Buffer): Promise<{ html: string | null; text: string; source: string; truncated: boolean }> {
  const source = raw.toString("utf8");
  try {
    const mail = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
    return {
      html: typeof mail.html === "string" ? mail.html : null,
      text: mail.text ?? "",
      source: source.slice(0, MAX_SOURCE_CHARS),
      truncated: source.length > MAX_SOURCE_CHARS,
    };
  } catch {
    return { html: null, text: "", source: source.slice(0, MAX_SOURCE_CHARS), truncated: source.length > MAX_SOURCE_CHARS };
  }
}
