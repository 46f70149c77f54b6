/** Formats a price in cents for the shop's locale: 1999 → "19,99 €". */
export function formatPrice(cents) {
  return `${(cents / 100).toFixed(2)} EUR`;
}
