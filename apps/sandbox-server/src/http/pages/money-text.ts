/**
 * An amount as a person reads it, with `Intl.NumberFormat`: the currency's code, grouped digits
 * and the currency's usual decimals (`ARS 1,500.00`, `BRL 249.90`, `CLP 1,500`), more when the
 * amount has more (the API keeps up to four), so nothing shown is rounded. A code Intl does not
 * take is written after the number as it is.
 */
export function formatAmount(value: number, currency: string): string {
  try {
    const usual = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    const decimals = (/\.(\d+)$/.exec(String(value))?.[1] ?? '').length;
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: usual, maximumFractionDigits: Math.max(usual, decimals) }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}
