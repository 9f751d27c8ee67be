// XML in and out of the S3 wire protocol.
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { s3Errors } from './s3-error';

export const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
/** The one account every request authenticates as. */
export const OWNER = { ID: '02d6176db174dc93cb1b899f7c6078f08654445fe8cf1b6ce98d8855f66bdbf4', DisplayName: 'destiny-dev' };

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressBooleanAttributes: false });
// Values stay strings (keys like "007" must not become numbers); whitespace inside values is kept.
const parser = new XMLParser({ parseTagValue: false, trimValues: false, ignoreAttributes: true, ignoreDeclaration: true });

type XmlValue = string | number | boolean | XmlObject | XmlValue[] | undefined;
export interface XmlObject {
  [name: string]: XmlValue;
}

/** A complete XML document with the S3 namespace on the root element. */
export function renderXml(root: string, body: XmlObject, namespaced = true): string {
  const element = namespaced ? { '@_xmlns': S3_NAMESPACE, ...body } : body;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [root]: element }) as string}`;
}

/** Parses a request body; anything that is not well-formed XML is S3's MalformedXML. */
export function parseXml(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = parser.parse(text, true);
    if (typeof parsed !== 'object' || parsed === null) throw s3Errors.malformedXml();
    return parsed as Record<string, unknown>;
  } catch {
    throw s3Errors.malformedXml();
  }
}

/** A child element as a list: absent is [], a single element is [it]. */
export function childList(parent: unknown, name: string): unknown[] {
  if (typeof parent !== 'object' || parent === null) return [];
  const value = (parent as Record<string, unknown>)[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** A child element's text, or undefined when absent or not text. */
export function childText(parent: unknown, name: string): string | undefined {
  if (typeof parent !== 'object' || parent === null) return undefined;
  const value = (parent as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
