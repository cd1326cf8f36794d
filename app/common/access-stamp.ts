// Every authenticated answer of the API carries a stamp of the caller's access: their role, its
// grants and the firm's words. A console keeps the role's levels for a few seconds; when the stamp
// of an answer differs from the one it last saw for the session, the role was changed (through
// this console or another process) and the kept levels are read again.

export const ACCESS_STAMP_HEADER = "ecfx-access";
