// The one redaction of URLs, shared with the console (app/common/redact.ts).
export { REDACTED, redactUrl } from "../../app/common/redact";
