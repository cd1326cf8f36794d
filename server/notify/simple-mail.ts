import { escapeHtml } from "../lib/html";

// The plain layout of the mails ECFX writes itself (digests, activity reports): a heading, an
// intro, sections of lines with optional links, the same content as HTML and as text.

export interface MailLine {
  text: string;
  href?: string;
  /** A short remark after the line, e.g. "(attached)". */
  note?: string;
}

export interface MailSection {
  title: string;
  lines: MailLine[];
}

export interface SimpleMail {
  heading: string;
  intro: string;
  sections: MailSection[];
  footer: string;
}

export function layoutMail(mail: SimpleMail): { html: string; text: string } {
  const lineHtml = (line: MailLine) => {
    const body = line.href ? `<a href="${escapeHtml(line.href)}" style="color:#1d4ed8;">${escapeHtml(line.text)}</a>` : escapeHtml(line.text);
    return `<li style="margin:0 0 4px 0;">${body}${line.note ? ` <span style="color:#4b5563;">${escapeHtml(line.note)}</span>` : ""}</li>`;
  };
  const sectionHtml = (section: MailSection) =>
    `<h2 style="margin:18px 0 6px 0;font-size:16px;color:#1e3a5f;">${escapeHtml(section.title)}</h2>` +
    (section.lines.length ? `<ul style="margin:0;padding:0 0 0 20px;">${section.lines.map(lineHtml).join("")}</ul>` : "");
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(mail.heading)}</title></head>
<body style="margin:0;padding:24px;background-color:#f3f4f6;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;">
<div style="max-width:640px;margin:0 auto;padding:20px 24px;background-color:#ffffff;border:1px solid #d1d5db;border-radius:6px;">
<h1 style="margin:0 0 12px 0;font-size:20px;color:#1e3a5f;">${escapeHtml(mail.heading)}</h1>
<p style="margin:0;">${escapeHtml(mail.intro)}</p>
${mail.sections.map(sectionHtml).join("\n")}
<p style="margin:20px 0 0 0;font-size:12px;color:#4b5563;">${escapeHtml(mail.footer)}</p>
</div></body></html>`;
  const lineText = (line: MailLine) => `- ${line.text}${line.href ? `: ${line.href}` : ""}${line.note ? ` ${line.note}` : ""}`;
  const text = [mail.heading, "", mail.intro, ...mail.sections.flatMap((s) => ["", s.title, ...s.lines.map(lineText)]), "", mail.footer].join("\n");
  return { html, text };
}
