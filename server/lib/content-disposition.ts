import contentDisposition from "content-disposition";

/**
 * Content-Disposition for a file the API serves (RFC 6266): the exact name in UTF-8, and an
 * ASCII fallback for clients that read only `filename`.
 */
export function dispositionOf(filename: string, type: "inline" | "attachment" = "attachment"): string {
  return contentDisposition(filename, { type, fallback: filename.replace(/[^\x20-\x7e]/g, "_") });
}

/** A court document served as a PDF, named after the document. */
export function documentPdfDisposition(documentName: string): string {
  return dispositionOf(`${documentName.slice(0, 100).trim() || "document"}.pdf`, "inline");
}
