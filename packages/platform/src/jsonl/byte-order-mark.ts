/**
 * The first line of a JSON-lines file without a leading UTF-8 byte-order mark: Windows tools save
 * files with one, and it marks the encoding, it is not part of the line's JSON.
 */
export function withoutByteOrderMark(firstLine: string): string {
  return firstLine.charCodeAt(0) === 0xfeff ? firstLine.slice(1) : firstLine;
}
