export function mean(numbers) {
  if (numbers.length === 0) return NaN;
  return numbers.reduce((sum, n) => sum + n, 0) / numbers.length;
}
