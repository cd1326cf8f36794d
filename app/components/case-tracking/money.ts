// One way to print an amount: integer cents, never floating point (decision 111).
export { formatCents } from "../../common/billing";
