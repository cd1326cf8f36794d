/** "$25.00": an amount in cents of the currency (spec §3: USD). */
export function formatCents(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}
