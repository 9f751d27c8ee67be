// Contract §1.3: ISO 8601 durations with upper-case designators (`PT10M`, `PT1H30M`, `P1D`, `P1W`,
// `P1Y` = 365 days). Plain numbers, lower-case designators and negative durations are rejected.
// Months are rejected too: their length is ambiguous and nothing in the contract needs them.
const DURATION =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

const MS_PER = {
  year: 365 * 24 * 3600 * 1000,
  week: 7 * 24 * 3600 * 1000,
  day: 24 * 3600 * 1000,
  hour: 3600 * 1000,
  minute: 60 * 1000,
  second: 1000,
};

/** Duration in milliseconds, or null when `text` is not an accepted ISO 8601 duration. */
export function parseIsoDuration(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = DURATION.exec(text);
  if (match === null) return null;
  const [, years, weeks, days, hours, minutes, seconds] = match;
  if ([years, weeks, days, hours, minutes, seconds].every((part) => part === undefined)) return null;
  // `PT` alone or a trailing `T` with no time part is not a duration.
  if (text.includes('T') && [hours, minutes, seconds].every((part) => part === undefined)) return null;
  const n = (part: string | undefined): number => (part === undefined ? 0 : Number(part));
  return (
    n(years) * MS_PER.year +
    n(weeks) * MS_PER.week +
    n(days) * MS_PER.day +
    n(hours) * MS_PER.hour +
    n(minutes) * MS_PER.minute +
    n(seconds) * MS_PER.second
  );
}

export function isIsoDuration(text: unknown): boolean {
  return parseIsoDuration(text) !== null;
}
