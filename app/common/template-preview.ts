/** What POST /api/v1/email-template/preview answers. */
export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  /** The notice the preview was rendered with; null for the built-in sample. */
  inboxItemId: string | null;
  sample: boolean;
}

/** A processed notice the preview can be rendered with. */
export interface NoticeChoice {
  id: string;
  label: string;
}

export type PreviewOutcome = { ok: true; preview: RenderedPreview } | { ok: false; message: string };

/** Snippets for the field list beside the editor: the data of spec §3 EmailTemplate. */
export const TEMPLATE_FIELD_SNIPPETS = [
  "{{case.name}}",
  "{{case.number}}",
  "{{case.caption}}",
  "{{matter.name}}",
  "{{matter.number}}",
  "{{client.name}}",
  "{{client.number}}",
  "{{jurisdiction.name}}",
  "{{jurisdiction.court}}",
  "{{formatDate date}}",
  "{{description}}",
  "{{filedBy}}",
  "{{docketText}}",
  "{{originalNotice}}",
  "{{#if stampedByCourt}}…{{/if}}",
  "{{#each documents}}{{name}} {{url}} {{#if sealed}}…{{/if}} {{#if attached}}…{{/if}}{{/each}}",
  "{{#each assignedTimekeepers}}{{name}} {{email}}{{/each}}",
  "{{join serviceContacts}}",
  "{{#each weblinks}}{{this}}{{/each}}",
  "{{firm.name}}",
  "{{recipient.name}}",
  "{{recipient.email}}",
] as const;
