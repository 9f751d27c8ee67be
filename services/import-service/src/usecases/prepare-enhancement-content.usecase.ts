import { needsContentPreparation, type EnhancementContentPreparer } from '@destiny/platform';

// §6.6, §8.5: before validated lines go to dedup-service, their full texts are downloaded and
// stored and their linked data validated. A rejected enhancement is dropped from its line, which
// then ends `partially_failed` with the reason appended to its `Entry ref <n>:` details.

interface PreparableLine {
  line: { number: number };
  json: string;
  partial: string | null;
}

// JSON.stringify writes no spaces, so this finds every line that may need the network without parsing the others.
const MAY_NEED = /"enhancement_type":"(full_text|linked_data)"/;

export function createPrepareEnhancementContent(preparer: EnhancementContentPreparer) {
  return async function prepareEnhancementContent(items: PreparableLine[]): Promise<void> {
    await Promise.all(
      items
        .filter((item) => MAY_NEED.test(item.json))
        .map(async (item) => {
          const reference = JSON.parse(item.json) as { enhancements?: Array<{ content: unknown }> };
          if (!needsContentPreparation(reference.enhancements)) return;
          const { enhancements, messages } = await preparer.prepareAll(reference.enhancements ?? []);
          item.json = JSON.stringify({ ...reference, enhancements });
          if (messages.length > 0) item.partial = [item.partial ?? `Entry ref ${item.line.number}:`, ...messages].join('\n\n');
        }),
    );
  };
}
