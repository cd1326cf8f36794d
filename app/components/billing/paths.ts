// Addresses of the billing pages, for the pages themselves and their server modules alike.

export const invoicePath = (id: string) => `/billing/invoices/${encodeURIComponent(id)}`;

export const EXPORTS_PATH = "/billing/exports";
