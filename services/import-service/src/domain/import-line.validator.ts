import {
  describeIssues,
  EnhancementFileInput,
  jsonStructureProblem,
  parseExternalIdentifier,
  ReferenceFileInputEnvelope,
  validate,
  type ExternalIdentifier,
} from '@destiny/contracts';

// One import-file line (§8.5): the envelope first, then each identifier and each enhancement on
// its own, so partial failures are reported per item in the contract's wording.

export type ValidatedLine =
  | { kind: 'failed'; failureDetails: string }
  | {
      kind: 'valid';
      reference: { visibility: string; identifiers: ExternalIdentifier[]; enhancements: unknown[] };
      /** `Entry ref <n>:` blocks when some items were dropped; null when everything was valid. */
      partialFailureDetails: string | null;
    };

export function validateImportLine(text: string, lineNumber: number): ValidatedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'failed', failureDetails: `Entry ${lineNumber}:\n\nInvalid JSON: ${(error as Error).message}` };
  }
  const problem = jsonStructureProblem(value);
  if (problem !== undefined) return { kind: 'failed', failureDetails: `Entry ${lineNumber}:\n\n${problem}` };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'failed', failureDetails: `Entry ${lineNumber}:\n\nInput should be a valid JSON object.` };
  }
  const envelope = validate(ReferenceFileInputEnvelope, value, 'line');
  if (!envelope.ok) return { kind: 'failed', failureDetails: `Entry ${lineNumber}:\n\n${describeIssues(envelope.errors)}` };

  const identifiers: ExternalIdentifier[] = [];
  const identifierBlocks: string[] = [];
  envelope.value.identifiers.forEach((raw, index) => {
    const parsed = parseExternalIdentifier(raw);
    if (parsed.ok) identifiers.push(parsed.identifier);
    else identifierBlocks.push(`Identifier ${index + 1}: ${parsed.message}`);
  });
  if (identifiers.length === 0) {
    return { kind: 'failed', failureDetails: [`Entry ${lineNumber}`, 'All identifiers failed to parse.', ...identifierBlocks].join('\n\n') };
  }
  const enhancements: unknown[] = [];
  const enhancementBlocks: string[] = [];
  (envelope.value.enhancements ?? []).forEach((raw, index) => {
    const parsed = validate(EnhancementFileInput, structuredClone(raw), 'line');
    if (parsed.ok) enhancements.push(parsed.value);
    else enhancementBlocks.push(`Enhancement ${index + 1}: ${describeIssues(parsed.errors)}`);
  });
  const blocks = [...identifierBlocks, ...enhancementBlocks];
  return {
    kind: 'valid',
    reference: { visibility: envelope.value.visibility ?? 'public', identifiers, enhancements },
    partialFailureDetails: blocks.length > 0 ? [`Entry ref ${lineNumber}:`, ...blocks].join('\n\n') : null,
  };
}
