// Caps that keep parsing time bounded on hostile or huge input. Real notices
// are a few tens of KB (the largest NEFs, with long service lists, a few
// hundred KB), and the structure we need sits in their first part.

/** Raw messages above this size are rejected as malformed without parsing. */
export const MAX_RAW_BYTES = 32 * 1024 * 1024;

/** Only this many characters of an HTML body are tokenised. */
export const MAX_HTML_CHARS = 2_000_000;

/** Only this many characters of body text (after HTML conversion) are searched for notice structure. */
export const MAX_TEXT_CHARS = 600_000;

/** Links kept per body; the rest are ignored. */
export const MAX_LINKS = 20_000;

/** Longest attribute value (href) kept. */
export const MAX_ATTRIBUTE_CHARS = 8_192;

/** Dockets kept per notice. */
export const MAX_DOCKETS = 500;

/** Recipients kept per notice. */
export const MAX_RECIPIENTS = 5_000;

/** Longest docket text kept per entry. */
export const MAX_DESCRIPTION_CHARS = 50_000;

/** Subject characters considered. */
export const MAX_SUBJECT_CHARS = 2_000;

/** message/rfc822 attachments followed when looking for a forwarded notice. */
export const MAX_ATTACHED_MESSAGE_DEPTH = 3;
