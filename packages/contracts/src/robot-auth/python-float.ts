/**
 * `repr()` of a Python float: shortest round-trip digits, integral values with `.0`, exponent form
 * (`1e+16`, `1.5e-05`) only for magnitudes ≥ 1e16 or < 1e-4 — the text the SDK signs (§4.4).
 */
export function formatPythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa, exponentText] = x.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent >= 16 || exponent < -4) {
    const fraction = digits.slice(1);
    const exponentPart = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${fraction === '' ? '' : `.${fraction}`}e${exponentPart}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fractionPart === '' ? '0' : fractionPart}`;
}
