import { z } from "zod";
import { INVOICE_KINDS, INVOICE_STATUSES } from "../billing";
import { defineResource } from "./types";

// /billing (spec §2, firmAccess): the firm's invoices and credit notes, read-only, through the
// shared table (paging, sorting, filters in the URL, export). Each opens on its own page, with its
// lines, the PDF and, while open, "Pay" (decision 111).
export const billing = defineResource({
  key: "billing",
  resource: "firm",
  accessKey: "firmAccess",
  apiPath: "/api/v1/invoice",
  page: { titleKey: "pages.billing", drawer: "firm", icon: "receipt" },
  titleField: "number",
  schema: z.object({}),
  fields: [
    { name: "number", kind: "number", computed: true },
    { name: "kind", kind: "select", options: INVOICE_KINDS, computed: true },
    { name: "month", kind: "text", computed: true },
    { name: "status", kind: "select", options: INVOICE_STATUSES, computed: true },
    { name: "total_cents", kind: "number", money: true, computed: true },
    { name: "due_cents", kind: "number", money: true, computed: true },
    { name: "currency", kind: "text", computed: true, sortable: false },
    { name: "note", kind: "text", computed: true, sortable: false },
    { name: "corrects_invoice_id", kind: "reference", reference: "billing", computed: true },
    { name: "created_at", kind: "date", computed: true },
  ],
  columns: [
    { field: "number", sortable: true },
    { field: "kind", sortable: true, filter: "select" },
    { field: "month", sortable: true, filter: "text" },
    { field: "status", sortable: true, filter: "select" },
    { field: "total_cents", sortable: true },
    { field: "due_cents", sortable: true },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "-number",
  quickFilters: {},
  wizard: [],
  extraAction: { path: "/billing/exports", labelKey: "resources:billing.exports.title" },
  viewPath: (id) => `/billing/invoices/${encodeURIComponent(id)}`,
});
